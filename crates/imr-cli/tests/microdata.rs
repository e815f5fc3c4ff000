//! `imr microdata` end to end: a synthetic deaths file in the ministry's layout gives the
//! generator's known counts, the counts table (with births joined) reads back through
//! `imr rates` with every row used, and unusable input exits with the file named.

use imr_core::ingest::codes::CutCodes;
use imr_microdata::synth::{write_deaths, SynthOptions, SynthSize};
use std::path::PathBuf;
mod common;
use common::{fails, succeeds};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("imr-microdata-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn synthetic_deaths(path: &PathBuf, header: bool) -> imr_microdata::synth::Expected {
    let options = SynthOptions {
        size: SynthSize::Rows(3000),
        seed: 42,
        header,
        first_year: 2017,
        last_year: 2019,
        infant_share: 0.2,
        problem_share: 0.02,
        ..SynthOptions::default()
    };
    let mut file = std::fs::File::create(path).unwrap();
    write_deaths(&mut file, &options).unwrap()
}

#[test]
fn deaths_microdata_without_header_give_the_known_counts_with_the_neonatal_split() {
    let dir = scratch("neonatal");
    let deaths = dir.join("defunciones.csv");
    let out = dir.join("counts.csv");
    let expected = synthetic_deaths(&deaths, false);
    let run = succeeds(&[
        "microdata",
        "deaths",
        deaths.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--breakdown",
        "neonatal",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("no header"), "{stderr}");
    assert!(stderr.contains(&format!("{} infant deaths counted", expected.infant_deaths)));
    assert!(stderr.contains("age unknown"), "{stderr}");
    assert!(stderr.contains("unknown commune codes:"), "{stderr}");
    assert_eq!(
        imr_core::provenance::csv_body(&std::fs::read_to_string(&out).unwrap()),
        expected.counts_csv(true, false)
    );
}

#[test]
fn the_counts_joined_with_births_read_back_through_imr_rates_with_every_row_used() {
    let dir = scratch("births");
    let deaths = dir.join("defunciones.csv");
    let births = dir.join("nacimientos.csv");
    let out = dir.join("counts.csv");
    let expected = synthetic_deaths(&deaths, true);
    // 40 births per commune and year, mother's commune in the third column, some without zero.
    let mut text = String::from("ANO_NAC;SEXO;COMUNA_RESIDENCIA_MADRE\n");
    let codes = CutCodes::embedded().codes();
    for year in 2017..=2019 {
        for code in &codes {
            for i in 0..40 {
                let written = if i % 2 == 0 {
                    code.trim_start_matches('0')
                } else {
                    code
                };
                text.push_str(&format!("{year};{};{written}\n", i % 2 + 1));
            }
        }
    }
    text.push_str("2019;1;99999\n");
    std::fs::write(&births, text).unwrap();
    let run = succeeds(&[
        "microdata",
        "deaths",
        deaths.to_str().unwrap(),
        "--births",
        births.to_str().unwrap(),
        "--births-year",
        "AÑO_NAC",
        "--births-commune",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains(&format!("{} births counted", codes.len() * 3 * 40)),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(&out).unwrap();
    // Provenance lines first (source = both input files), then the counts.
    assert!(csv.starts_with("# Source: "), "{csv}");
    assert!(imr_core::provenance::csv_body(&csv)
        .starts_with("codigo_comuna,anio,nacimientos,defunciones\n"));

    let rates = succeeds(&["rates", out.to_str().unwrap(), "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&rates.stdout).unwrap();
    assert_eq!(doc["input"]["rows_read"], codes.len() * 3);
    assert_eq!(doc["input"]["rows_used"], codes.len() * 3);
    let national = doc["national"].as_array().unwrap();
    let deaths_total: f64 = national.iter().map(|y| y["deaths"].as_f64().unwrap()).sum();
    assert_eq!(deaths_total as u64, expected.infant_deaths);
    assert_eq!(
        national[0]["births"].as_f64(),
        Some((codes.len() * 40) as f64)
    );
}

#[test]
fn an_aggregated_table_given_as_microdata_exits_1_naming_the_file_and_line() {
    let out = scratch("refused").join("counts.csv");
    let stderr = fails(
        1,
        &[
            "microdata",
            "deaths",
            "tests/data/rates_latin1.csv",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        stderr.contains("tests/data/rates_latin1.csv: line 1: this is not the health ministry's deaths microdata"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn births_without_their_commune_column_is_a_usage_error() {
    let stderr = fails(
        2,
        &[
            "microdata",
            "deaths",
            "x.csv",
            "--births",
            "y.csv",
            "--out",
            "z.csv",
        ],
    );
    assert!(stderr.contains("--births-commune"), "{stderr}");
}
