//! `imr rates` end to end: the JSON contract, exit statuses and messages.

mod common;
use common::{fails, imr, stdout_dated, succeeds};

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
        "entity,time,births,deaths,rate_per_1000,ci_low,ci_high,copy_of_year,deaths_reconstructed,flagged_implausible"
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

/// The bundled deaths reconstructed from SINIM's rate carry their range of whole numbers
/// (`defunciones_min`–`defunciones_max`) into each interval, named in the JSON; only the
/// adjusted measures' years with such counts (2017–2019, 2021) carry a `count_range`.
#[test]
fn the_bundled_ranges_of_deaths_are_named_and_widen_their_intervals() {
    let doc = common::json(&["rates", common::BUNDLED, "--format", "json"]);
    assert_eq!(
        doc["deaths_range"],
        serde_json::json!({"low": "defunciones_min", "high": "defunciones_max", "ranged_rows": 215, "inconsistent_rows": 0})
    );
    let row = |entity: &str, time: i64| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["entity"] == entity && r["time"] == time)
            .unwrap()
            .clone()
    };
    // Santiago 2019: 30 deaths (27 to 32 reproduce SINIM's 5 per 1,000) in 5,930 births; R 4.2.2
    // qchisq(0.025, 54) / 2 = 17.79317 and qchisq(0.975, 66) / 2 = 45.17445.
    let santiago = row("13101", 2019);
    let per = |deaths: f64| deaths * 1000.0 / 5930.0;
    assert!((santiago["ci_low"].as_f64().unwrap() - per(17.79317)).abs() < 1e-4);
    assert!((santiago["ci_high"].as_f64().unwrap() - per(45.17445)).abs() < 1e-4);
    let inequality = common::json(&common::bundled_inequality(&[]));
    for year in inequality["years"].as_array().unwrap() {
        let carried = year["adjusted_model"].get("count_range").is_some();
        assert_eq!(
            carried,
            [2017, 2018, 2019, 2021].contains(&year["time"].as_i64().unwrap()),
            "{}",
            year["time"]
        );
    }
}

#[test]
fn csv_lang_es_writes_the_spanish_spreadsheet_csv_of_the_machine_rows() {
    let machine_args = ["rates", "tests/data/rates_latin1.csv", "--format", "csv"];
    let machine = stdout_dated(&machine_args);
    let spanish = stdout_dated(&[&machine_args[..], &["--csv-lang", "es"]].concat());
    // A global option: before the subcommand too; `en` is the machine CSV.
    let before = stdout_dated(&[&["--csv-lang", "es"][..], &machine_args[..]].concat());
    assert_eq!(before, spanish);
    let english = stdout_dated(&[&machine_args[..], &["--csv-lang", "en"]].concat());
    assert_eq!(english, machine);
    // The engine's rewriting of the machine CSV, dated as it is.
    let date = machine
        .lines()
        .nth(2)
        .unwrap()
        .strip_prefix("# Generated: ")
        .unwrap();
    let body = imr_core::provenance::csv_body(&machine);
    assert_eq!(
        spanish,
        imr_core::spreadsheet_csv::spanish_csv("rates_latin1.csv", date, body)
    );
    let lines: Vec<&str> = spanish.lines().collect();
    assert_eq!(
        lines[0],
        "\u{feff}# Fuente: Datos del usuario (rates_latin1.csv)"
    );
    assert!(lines[1].starts_with("# motor imr-atlas "), "{}", lines[1]);
    assert_eq!(lines[2], format!("# Generado: {date}"));
    assert_eq!(
        lines[3],
        "codigo_comuna;anio;nacimientos;defunciones;tasa_por_1000;ic_inf;ic_sup;copia_de_anio;defunciones_reconstruidas;marcada_inverosimil"
    );
    // 21 deaths in 3,000 births: 7 per 1,000, written with a decimal comma where it has decimals.
    assert!(
        lines[4].starts_with("01101;2019;3000;21;7;4,333"),
        "{}",
        lines[4]
    );
    assert_eq!(lines.len(), 3 + 5);
    fails(
        2,
        &["--csv-lang", "fr", "rates", "tests/data/rates_latin1.csv"],
    );
}
