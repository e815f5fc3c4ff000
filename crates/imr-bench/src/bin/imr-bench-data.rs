//! `imr-bench-data`: writes the benchmark inputs for bench/compare and prints their paths:
//! the deaths file (`--deaths-mb`, default 500) and the fe panel as CSV.

use imr_bench::{data_dir, deaths_file, panel_columns};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut mb = 500u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next().and_then(|v| v.parse().ok())) {
            ("--deaths-mb", Some(v)) => mb = v,
            _ => {
                eprintln!("usage: imr-bench-data [--deaths-mb MB]");
                return ExitCode::from(2);
            }
        }
    }
    let run = || -> std::io::Result<()> {
        let deaths = deaths_file(mb)?;
        println!("deaths={}", deaths.display());
        let panel = data_dir().join("imr-bench-panel-50000x20x5.csv");
        if !panel.exists() {
            let partial = panel.with_extension("partial");
            panel_columns(50_000, 20, 5).write_csv(&partial)?;
            std::fs::rename(&partial, &panel)?;
        }
        println!("panel={}", panel.display());
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("imr-bench-data: {err}");
            ExitCode::from(1)
        }
    }
}
