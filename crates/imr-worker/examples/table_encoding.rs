//! Compares the two candidate encodings of a parsed table on its way from the worker to the page
//! (README, "Big files"): size, encode and decode time, serde JSON against postcard.
//!
//! `cargo run --release -p imr-worker --example table_encoding -- FILE.csv`
//! (generate a panel with `node -e "import('./e2e/big-csv.mjs').then(m => m.writePanelCsv('/tmp/p.csv', {targetBytes: 50e6}))"`).

use imr_core::ingest::RawTable;
use std::time::Instant;

fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: table_encoding FILE.csv")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let started = Instant::now();
    let table = RawTable::from_bytes(&path, &bytes).map_err(|e| e.to_string())?;
    println!(
        "file {:.1} MB, parsed in {:.2} s",
        bytes.len() as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let json = serde_json::to_vec(&table).map_err(|e| e.to_string())?;
    let json_encode = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let back: RawTable = serde_json::from_slice(&json).map_err(|e| e.to_string())?;
    let json_decode = started.elapsed().as_secs_f64();
    drop(back);
    let started = Instant::now();
    let postcard = imr_worker::encode_table(&table).map_err(|e| e.to_string())?;
    let postcard_encode = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let back = imr_worker::decode_table(&postcard)?;
    let postcard_decode = started.elapsed().as_secs_f64();
    drop(back);
    println!(
        "serde JSON: {:.1} MB, encode {:.3} s, decode {:.3} s",
        json.len() as f64 / 1e6,
        json_encode,
        json_decode
    );
    println!(
        "postcard:   {:.1} MB, encode {:.3} s, decode {:.3} s",
        postcard.len() as f64 / 1e6,
        postcard_encode,
        postcard_decode
    );
    Ok(())
}
