//! The one harness of the `imr` end-to-end tests: the built binary, run in the crate's directory so
//! that the relative paths of `tests/data` resolve. Each test file uses the part it needs.
#![allow(dead_code)]

use std::process::{Command, Output};

/// `imr args…`, run in the crate's directory.
pub fn imr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_imr"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the imr binary runs")
}

/// A run that must succeed (its stderr is the failure message).
pub fn succeeds(args: &[&str]) -> Output {
    let out = imr(args);
    assert!(
        out.status.success(),
        "imr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The stdout of a run that must succeed.
pub fn stdout(args: &[&str]) -> String {
    String::from_utf8(succeeds(args).stdout).expect("imr prints UTF-8")
}

/// The JSON printed by a run that must succeed.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).expect("imr prints JSON")
}

/// `imr fit` on the Grunfeld panel (firm, year, invest on the regressors `x`) plus `extra`.
pub fn grunfeld_args<'a>(x: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "fit",
        "tests/data/grunfeld.csv",
        "--entity",
        "firm",
        "--time",
        "year",
        "--y",
        "invest",
        "--x",
        x,
    ];
    args.extend_from_slice(extra);
    args
}

/// `imr map` on the six cells for 2019, then `rest`.
pub fn cells_2019<'a>(rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "map",
        "tests/data/map_rates.csv",
        "--year",
        "2019",
        "--geometry",
        "tests/data/map_cells.topojson",
    ];
    args.extend_from_slice(rest);
    args
}
