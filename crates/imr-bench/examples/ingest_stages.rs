//! Times each stage of a generic CSV ingest (file bytes → `RawTable` → validated `Panel` → model
//! data) on one file and prints MB/s per stage: `cargo run --profile bench -p imr-bench --example
//! ingest_stages -- FILE [REPEATS]`; with `memory` for REPEATS, one ingest as `imr` makes it
//! (the file's bytes given to the table, the table dropped once the panel is built) with the
//! process's resident and peak memory after each stage; with `encode OUT`, the table encoded as
//! the worker sends it to the page, written to OUT; `ENCODED page` then loads it as the page does
//! (decode, panel, a second panel while the first is alive: a role change) and prints the peak as
//! a multiple of the encoding — a native proxy of `csv_upload`'s memory factor (native allocator,
//! not the page's). The entity column is `entity` and the time column `time`
//! (bench/compare's panel); the criterion bench `ingest/csv_*` measures the same two stages.
//! `imr` sets mimalloc's purge delay to 0 (`imr-cli/src/memory.rs`); run `memory` with
//! `MIMALLOC_PURGE_DELAY=0` for the same resident memory (mimalloc reads it at start).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use std::time::Instant;

/// CPU time of this thread (ns), from Linux's schedstat: on a shared machine the wall time
/// measures the other processes too.
fn cpu_ns() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

/// `VmRSS` and `VmHWM` (peak) of this process, MiB.
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// One ingest, printing memory after each stage.
fn memory(path: &str) {
    let report = |stage: &str, file_mib: f64| {
        let (rss, peak) = memory_mib();
        println!(
            "{stage}: resident {rss:.0} MiB, peak {peak:.0} MiB ({:.2}× the file)",
            peak / file_mib
        );
    };
    let cpu = cpu_ns();
    let bytes = std::fs::read(path).expect("read the file");
    let file_mib = bytes.len() as f64 / 1048576.0;
    report("file read", file_mib);
    // The table keeps the file's bytes as its text (`from_vec`), as `imr` reads a file.
    let table = RawTable::from_vec(path, bytes).expect("a table");
    report("table", file_mib);
    let roles = imr_bench::panel_roles(&table);
    let panel = build_panel(
        std::slice::from_ref(&table),
        &[roles],
        &IngestOptions::default(),
    )
    .expect("a panel");
    report("panel", file_mib);
    drop(table);
    report("table dropped", file_mib);
    println!(
        "{:.1} MiB file, {} rows, {:.3} s CPU",
        file_mib,
        panel.len(),
        (cpu_ns() - cpu) / 1e9
    );
}

/// The page's load of a table from the worker: decode, panel, a second panel alongside.
fn page(encoded_path: &str) {
    let encoded = std::fs::read(encoded_path).expect("read the encoding");
    let mib = encoded.len() as f64 / 1048576.0;
    let report = |stage: &str| {
        let (rss, peak) = memory_mib();
        println!(
            "{stage}: resident {rss:.0} MiB, peak {peak:.0} MiB ({:.2}× the encoding)",
            peak / mib
        );
    };
    report("encoding read");
    let table = imr_worker::decode_table(&encoded).expect("a table");
    drop(encoded);
    report("decoded");
    let roles = imr_bench::panel_roles(&table);
    let build = || {
        build_panel(
            std::slice::from_ref(&table),
            std::slice::from_ref(&roles),
            &IngestOptions::default(),
        )
        .expect("a panel")
    };
    let first = build();
    report("panel");
    let second = build();
    report("second panel");
    drop(first);
    println!("{mib:.1} MiB encoded, {} rows", second.len());
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: ingest_stages FILE [REPEATS | memory]");
    let mode = args.next();
    match mode.as_deref() {
        Some("memory") => return memory(&path),
        Some("encode") => {
            let out = args.next().expect("encode OUT");
            let bytes = std::fs::read(&path).expect("read the file");
            let table = RawTable::from_bytes(&path, &bytes).expect("a table");
            let encoded = imr_worker::encode_table(&table).expect("an encoding");
            std::fs::write(&out, &encoded).expect("write OUT");
            println!(
                "{} bytes file, {} bytes encoded",
                bytes.len(),
                encoded.len()
            );
            return;
        }
        Some("page") => return page(&path),
        _ => {}
    }
    let mut args = mode.into_iter();
    let repeats: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(3);
    let bytes = std::fs::read(&path).expect("read the file");
    let mb = bytes.len() as f64 / 1e6;
    for _ in 0..repeats {
        // The file's bytes as `imr` holds them after reading, given to the table (not timed).
        let owned = bytes.clone();
        let (start, cpu) = (Instant::now(), cpu_ns());
        let table = RawTable::from_vec(&path, owned).expect("a table");
        let table_s = start.elapsed().as_secs_f64();
        let table_cpu = (cpu_ns() - cpu) / 1e9;
        let roles = imr_bench::panel_roles(&table);
        let (start, cpu) = (Instant::now(), cpu_ns());
        let panel = build_panel(
            std::slice::from_ref(&table),
            &[roles],
            &IngestOptions::default(),
        )
        .expect("a panel");
        let panel_s = start.elapsed().as_secs_f64();
        let panel_cpu = (cpu_ns() - cpu) / 1e9;
        println!(
            "{mb:.1} MB: table {table_s:.3} s wall ({:.0} MB/s), {table_cpu:.3} s CPU ({:.0} MB/s); panel {panel_s:.3} s wall ({:.0} MB/s), {panel_cpu:.3} s CPU ({:.0} MB/s); both {:.0} MB/s wall, {:.0} MB/s CPU; {} rows used, {} excluded",
            mb / table_s,
            mb / table_cpu,
            mb / panel_s,
            mb / panel_cpu,
            mb / (table_s + panel_s),
            mb / (table_cpu + panel_cpu),
            panel.report.rows_used,
            panel.report.rows_excluded
        );
    }
}
