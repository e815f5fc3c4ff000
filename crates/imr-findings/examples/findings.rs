//! Prints the findings of a CSV (default: the bundled dataset) in Spanish and English and the
//! time they took: `cargo run --release -p imr-findings --example findings [FILE]`.
use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_findings::{compute, AdjustedGini, Options};

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "public/data/chile_imr_2001_2021.csv".into());
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => return eprintln!("{path}: {e}"),
    };
    let table = match RawTable::from_bytes(&path, &bytes) {
        Ok(t) => t,
        Err(e) => return eprintln!("{e}"),
    };
    let roles = table.guessed_roles.clone();
    let panel = match build_panel(&[table], &[roles], &IngestOptions::default()) {
        Ok(p) => p,
        Err(e) => return eprintln!("{e}"),
    };
    let start = std::time::Instant::now();
    let f = compute(&panel, &Options::default(), &AdjustedGini::default());
    let took = start.elapsed();
    for lang in [imr_core::Lang::Es, imr_core::Lang::En] {
        if let Some(n) = f.flagged_note(lang) {
            println!("{n}");
        }
        for a in f.answers(lang) {
            println!("\n## {} [{}]\n{}", a.title, a.question, a.headline);
            for d in a.details.iter().chain(&a.caveats) {
                println!("  {d}");
            }
        }
    }
    println!("\ncomputed in {took:?}");
}
