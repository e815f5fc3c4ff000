//! `imr-fuzz <target> --iterations N --seed S [--seconds T] [--crashes DIR]`: runs the generative harness
//! (see the library) and prints executions, executions per second and crashes; each crashing
//! input is saved as `DIR/<target>-<seed>-<iteration>.bin` (default DIR: fuzz-crashes).
//!
//! Build with unwinding panics: the workspace's release profile aborts on panic, so run
//! `CARGO_PROFILE_RELEASE_PANIC=unwind cargo run --release -p imr-fuzz -- csv --iterations 1000000`
//! (docs/FUZZING.md).

use imr_fuzz::{corpus, fuzz_for, hostile_dir, Target};
use std::process::ExitCode;

fn main() -> ExitCode {
    if cfg!(panic = "abort") {
        eprintln!(
            "imr-fuzz: built with panic=abort, so a panic cannot be caught; build with CARGO_PROFILE_RELEASE_PANIC=unwind"
        );
        return ExitCode::from(2);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: imr-fuzz <csv|analysis|fragment|microdata|boundaries> --iterations N --seed S [--seconds T] [--crashes DIR]";
    let Some(target) = args.first().and_then(|a| Target::from_name(a)) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let (mut iterations, mut seed, mut crashes_dir) = (100_000u64, 1u64, "fuzz-crashes".to_owned());
    let mut budget = None;
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        let value = rest.next();
        match (flag.as_str(), value) {
            ("--iterations", Some(v)) if v.parse::<u64>().is_ok() => {
                iterations = v.parse().unwrap_or(0)
            }
            ("--seed", Some(v)) if v.parse::<u64>().is_ok() => seed = v.parse().unwrap_or(0),
            ("--seconds", Some(v)) if v.parse::<u64>().is_ok() => {
                budget = Some(std::time::Duration::from_secs(v.parse().unwrap_or(0)))
            }
            ("--crashes", Some(v)) => crashes_dir = v.clone(),
            _ => {
                eprintln!("{usage}");
                return ExitCode::from(2);
            }
        }
    }
    let seeds = corpus(target, &hostile_dir());
    eprintln!(
        "imr-fuzz {}: {} seed inputs, {iterations} iterations, seed {seed}",
        target.name(),
        seeds.len()
    );
    let stats = fuzz_for(target, iterations, budget, seed, seeds, |s| {
        eprintln!(
            "  {} executions, {:.0}/s, {} crashes",
            s.executions,
            s.executions as f64 / s.elapsed.as_secs_f64(),
            s.crash_count
        );
    });
    let rate = stats.executions as f64 / stats.elapsed.as_secs_f64().max(1e-9);
    println!(
        "target={} seed={seed} executions={} seconds={:.1} executions_per_second={rate:.0} crashes={} slow={}",
        target.name(),
        stats.executions,
        stats.elapsed.as_secs_f64(),
        stats.crash_count,
        stats.slow.len()
    );
    for (kind, list) in [("crash", &stats.crashes), ("slow", &stats.slow)] {
        if list.is_empty() {
            continue;
        }
        if let Err(e) = std::fs::create_dir_all(&crashes_dir) {
            eprintln!("imr-fuzz: cannot create {crashes_dir}: {e}");
            return ExitCode::from(1);
        }
        // The first few of each distinct message (the library keeps no more).
        for c in list.iter() {
            let path = format!(
                "{crashes_dir}/{}-{kind}-{seed}-{}.bin",
                target.name(),
                c.iteration
            );
            let _ = std::fs::write(&path, &c.input);
            println!("{kind}: {path}: {}", c.message);
        }
    }
    if stats.crash_count == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
