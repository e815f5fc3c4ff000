//! The one harness of the `imr` end-to-end tests: the built binary, run in the crate's directory so
//! that the relative paths of `tests/data` resolve (or, with the `_in` forms, in a directory of
//! the test's own). Each test file uses the part it needs.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// The crate's directory, where `tests/data/…` resolves.
const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// `imr args…`, run in `dir` (the relative paths of `args` resolve there).
pub fn imr_in(dir: impl AsRef<Path>, args: &[&str]) -> Output {
    imr_env_in(dir, args, &[])
}

/// `imr args…` run in `dir` with these environment variables set (the rest inherited).
pub fn imr_env_in(dir: impl AsRef<Path>, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_imr"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .expect("the imr binary runs")
}

/// `SOURCE_DATE_EPOCH` of a run whose exports are dated [`FIXED_DATE`], so that a comparison
/// of whole files does not depend on the day (or on a run crossing midnight UTC).
pub const FIXED_EPOCH: (&str, &str) = ("SOURCE_DATE_EPOCH", "1764547200");
/// The date [`FIXED_EPOCH`] fixes.
pub const FIXED_DATE: &str = "2025-12-01";

/// The stdout of a run in the crate's directory, dated [`FIXED_DATE`], that must succeed.
pub fn stdout_dated(args: &[&str]) -> String {
    let out = imr_env_in(CRATE_DIR, args, &[FIXED_EPOCH]);
    assert!(
        out.status.success(),
        "imr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("imr prints UTF-8")
}

/// `imr args…`, run in the crate's directory.
pub fn imr(args: &[&str]) -> Output {
    imr_in(CRATE_DIR, args)
}

/// A run in `dir` that must succeed (its stderr is the failure message).
pub fn succeeds_in(dir: impl AsRef<Path>, args: &[&str]) -> Output {
    let out = imr_in(dir, args);
    assert!(
        out.status.success(),
        "imr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A run that must succeed (its stderr is the failure message).
pub fn succeeds(args: &[&str]) -> Output {
    succeeds_in(CRATE_DIR, args)
}

/// The stdout of a run in `dir` that must succeed.
pub fn stdout_in(dir: impl AsRef<Path>, args: &[&str]) -> String {
    String::from_utf8(succeeds_in(dir, args).stdout).expect("imr prints UTF-8")
}

/// The stdout of a run that must succeed.
pub fn stdout(args: &[&str]) -> String {
    stdout_in(CRATE_DIR, args)
}

/// The JSON printed by a run in `dir` that must succeed.
pub fn json_in(dir: impl AsRef<Path>, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_in(dir, args)).expect("imr prints JSON")
}

/// The JSON printed by a run that must succeed.
pub fn json(args: &[&str]) -> serde_json::Value {
    json_in(CRATE_DIR, args)
}

/// The stderr of a run in `dir` that must end with exit status `status` (1: an input error,
/// 2: a usage error).
pub fn fails_in(dir: impl AsRef<Path>, status: i32, args: &[&str]) -> String {
    let out = imr_in(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(status), "imr {args:?}: {stderr}");
    stderr
}

/// The stderr of a run that must end with exit status `status` (1: an input error, 2: a usage
/// error).
pub fn fails(status: i32, args: &[&str]) -> String {
    fails_in(CRATE_DIR, status, args)
}

/// `imr fit` on the Grunfeld panel (firm, year, invest on the regressors `x`) plus `extra`.
/// The options of the twfe fit of snapshot fit_twfe.json (and its .tex): invest on value with
/// capital as regressor and weight, HC1, 90% intervals.
pub const TWFE_SNAPSHOT_ARGS: [&str; 10] = [
    "--x",
    "capital",
    "--weights",
    "capital",
    "--model",
    "twfe",
    "--vcov",
    "hc1",
    "--level",
    "0.9",
];

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
    map_2019_on("tests/data/map_cells.topojson", rest)
}

/// `imr map` of the six cells' data for 2019 on the boundaries `geometry`, then `rest`.
pub fn map_2019_on<'a>(geometry: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "map",
        "tests/data/map_rates.csv",
        "--year",
        "2019",
        "--geometry",
        geometry,
    ];
    args.extend_from_slice(rest);
    args
}

/// `imr inequality` on the bundled data with no bootstrap, then `rest`.
pub fn bundled_inequality<'a>(rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["inequality", BUNDLED, "--bootstrap", "0"];
    args.extend_from_slice(rest);
    args
}

/// A pyfixest golden of imr-models (`tests/golden/{name}.csv`: a header, then `key,value` rows)
/// as a map from key to value.
pub fn pyfixest_golden(name: &str) -> std::collections::HashMap<String, f64> {
    let path = format!(
        "{}/../imr-models/tests/golden/{name}.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .skip(1)
        .map(|l| {
            let (k, v) = l.split_once(',').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect()
}

/// The bundled dataset, from a test's working directory (crates/imr-cli).
pub const BUNDLED: &str = "../../public/data/chile_imr_2001_2021.csv";
/// The column roles of the page's bundled preset.
pub const BUNDLED_ROLES: [&str; 8] = [
    "--entity",
    "codigo_comuna",
    "--time",
    "anio",
    "--births",
    "nacidos_vivos",
    "--deaths",
    "defunciones_infantiles",
];

/// SINIM's integer rates as published (data/raw/sinim, v839 labelled 2019–2023) on INE's births
/// of the same labelled year (data/raw/ine), written once per test process to a temporary file:
/// a file of published rates, whose deaths imr derives (`tmi × births / 1000`).
#[allow(dead_code)]
pub fn sinim_as_published() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("imr-sinim-published-{}.csv", std::process::id()));
    if path.exists() {
        return path;
    }
    let raw = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/raw");
    let csv = imr_dataset::sinim_rates_as_labelled(std::path::Path::new(raw)).unwrap();
    // Written under another name first, so that a parallel test never reads half a file.
    let partial = path
        .with_extension(format!("{:?}.part", std::thread::current().id()).replace(['(', ')'], ""));
    std::fs::write(&partial, csv).unwrap();
    std::fs::rename(&partial, &path).unwrap();
    path
}
