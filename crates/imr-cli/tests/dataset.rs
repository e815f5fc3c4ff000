//! `imr dataset`: the command regenerates public/data byte-for-byte from data/raw.

use std::path::PathBuf;
mod common;

/// The repository's root, where `imr dataset` finds data/raw and public/data.
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn dataset_build_writes_the_committed_files_byte_for_byte() {
    let out = std::env::temp_dir().join(format!("imr-dataset-build-{}", std::process::id()));
    common::succeeds_in(
        repo(),
        &[
            "dataset",
            "build",
            "--raw",
            "data/raw",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    for name in [
        "chile_imr_2001_2021.csv",
        "codebook.csv",
        "cut_2018.csv",
        "nuble_crosswalk.csv",
    ] {
        let built = std::fs::read(out.join(name)).unwrap();
        let committed = std::fs::read(repo().join("public/data").join(name)).unwrap();
        assert!(built == committed, "{name} differs from public/data/{name}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn dataset_check_passes_on_the_committed_files_and_reports_unused_rows() {
    let output = common::succeeds_in(repo(), &["dataset", "check"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("up to date"), "{stderr}");
    assert!(
        stderr.contains("11111 is not a commune of the panel"),
        "{stderr}"
    );
}

#[test]
fn dataset_build_names_the_missing_raw_file_and_exits_1() {
    let stderr = common::fails_in(repo(), 1, &["dataset", "check", "--raw", "no/such/dir"]);
    assert!(
        stderr.contains("no/such/dir/cut/subdere_CUT_2018_v04.csv"),
        "{stderr}"
    );
}
