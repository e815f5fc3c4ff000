//! `imr rates` end to end: the JSON contract, exit statuses and messages.

mod common;
use common::{fails, imr, succeeds};

#[test]
fn rates_json_follows_the_contract_and_reports_the_dialect() {
    let out = succeeds(&["rates", "tests/data/rates_latin1.csv", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let input = &doc["input"];
    assert_eq!(input["rows_read"], 4);
    assert_eq!(input["rows_used"], 4);
    assert_eq!(input["rows_excluded"], 0);
    assert_eq!(input["delimiter"], ";");
    assert_eq!(input["decimal"], ",");
    assert_eq!(input["encoding"], "windows-1252");
    let row = &doc["rows"][0];
    assert_eq!(row["entity"], "01101");
    assert_eq!(row["time"], 2019);
    assert_eq!(row["births"].as_f64(), Some(3000.0));
    assert_eq!(row["deaths"].as_f64(), Some(21.0));
    assert!((row["rate"].as_f64().unwrap() - 7.0).abs() < 1e-12);
    // Garwood 95% for 21 events (SciPy 1.17.1: chi2.ppf(.025,42)/2 = 12.99933, chi2.ppf(.975,44)/2 = 32.10073) / 3000 births.
    assert!((row["ci_low"].as_f64().unwrap() - 4.333110).abs() < 1e-5);
    assert!((row["ci_high"].as_f64().unwrap() - 10.700244).abs() < 1e-5);
    let national = &doc["national"];
    assert_eq!(national[0]["time"], 2019);
    assert_eq!(national[0]["births"].as_f64(), Some(6700.0));
    assert_eq!(national[0]["deaths"].as_f64(), Some(42.0));
}

#[test]
fn excluded_rows_carry_file_line_and_reason() {
    let out = succeeds(&["rates", "tests/data/rates_broken.csv"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let excluded = doc["input"]["excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 8);
    assert_eq!(excluded[0]["file"], "tests/data/rates_broken.csv");
    assert_eq!(excluded[0]["line"], 3);
    assert_eq!(
        excluded[0]["reason"],
        "column `nacimientos`: expected a number, found \"abc\""
    );
}

#[test]
fn an_unreadable_input_exits_1_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("imr-rates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, b"").unwrap();
    let stderr = fails(1, &["rates", empty.to_str().unwrap()]);
    assert!(stderr.contains("empty.csv: the file is empty"), "{stderr}");
    let binary = dir.join("x.bin");
    std::fs::write(&binary, b"\x00\x01\x02PK").unwrap();
    let stderr = fails(1, &["rates", binary.to_str().unwrap()]);
    assert!(stderr.contains("binary"), "{stderr}");
}

#[test]
fn bad_arguments_exit_2() {
    fails(2, &["rates", "--no-such-flag", "x.csv"]);
    let stderr = fails(
        2,
        &["rates", "tests/data/rates_broken.csv", "--births", "nope"],
    );
    assert!(
        stderr.contains("no file has a column named `nope`"),
        "{stderr}"
    );
}

#[test]
fn csv_output_has_one_line_per_row() {
    let out = imr(&["rates", "tests/data/rates_latin1.csv", "--format", "csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Provenance first: source, engine and today's date, as comment lines.
    assert_eq!(lines[0], "# Source: rates_latin1.csv");
    assert!(
        lines[1].starts_with("# imr-atlas engine ") && lines[1].contains("(imr-core "),
        "{}",
        lines[1]
    );
    let date = lines[2].strip_prefix("# Generated: ").unwrap();
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'-' && date.starts_with("20"),
        "{date}"
    );
    assert_eq!(
        lines[3],
        "entity,time,births,deaths,rate_per_1000,ci_low,ci_high"
    );
    assert_eq!(lines.len(), 3 + 5);
}

#[test]
fn a_csv_written_by_imr_reads_back_with_its_comment_lines_reported() {
    let out = imr(&["rates", "tests/data/rates_latin1.csv", "--format", "csv"]);
    let dir = std::env::temp_dir().join(format!("imr-rates-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tasas.csv");
    std::fs::write(&file, &out.stdout).unwrap();
    let again = succeeds(&[
        "rates",
        file.to_str().unwrap(),
        "--entity",
        "entity",
        "--time",
        "time",
        "--births",
        "births",
        "--deaths",
        "deaths",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    let f = &doc["input"]["files"][0];
    assert_eq!(f["metadata_lines"].as_array().unwrap().len(), 3);
    assert_eq!(f["metadata_lines"][0]["line"], 1);
    assert_eq!(doc["input"]["rows_excluded"], 0);
    assert_eq!(doc["rows"].as_array().unwrap().len(), 4);
    std::fs::remove_dir_all(&dir).ok();
}
