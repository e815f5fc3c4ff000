//! `imr-bench-data`: writes the benchmark inputs for bench/compare and prints their paths:
//! the deaths file (`--deaths-mb`, default 500) and the fe panel as CSV.

use imr_bench::{deaths_file, panel_csv};
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
        let panel = panel_csv()?;
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
