//! `imr findings` on the bundled data: the printable report of the Findings view (five
//! questions, the provenance line, the flagged-rows note) and the JSON of the values behind it.
//! That the report is the page's own, byte for byte, is checked by e2e/findings.test.mjs.

mod common;
use common::{fails, stdout, BUNDLED};

fn findings(extra: &[&str]) -> String {
    stdout(&[&["findings", BUNDLED], extra].concat())
}

#[test]
fn the_report_answers_the_five_questions_in_the_language_asked() {
    let es = findings(&["--lang", "es"]);
    assert!(es.starts_with("<!DOCTYPE html>\n<html lang=\"es\">"));
    for question in [
        "study",
        "rates",
        "inequality",
        "health-income",
        "models",
        "where",
    ] {
        assert!(
            es.contains(&format!("<section data-question=\"{question}\">")),
            "{question}"
        );
    }
    assert!(es.contains("<h2>1. ¿Baja la mortalidad infantil?</h2>"));
    assert!(es.contains("<h2>¿Confirman estos datos el estudio?</h2>"));
    // The bundled file byte for byte: the answer on the study names INE's counts.
    assert!(es.contains("con las defunciones publicadas por el INE"));
    assert!(es.contains(
        "Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv) · motor imr-atlas"
    ));
    // The 2 implausible rows of the bundled data (General Lagos 2004 and 2021, above 200 per
    // 1,000: counted from the CSV text by plausibility.rs's test) are left out, and it says so.
    assert!(es.contains("2 filas marcadas como inverosímiles quedan fuera"));
    // The study's period: the answers say which years they cover.
    let study = findings(&["--lang", "es", "--years", "2001-2011"]);
    assert!(study.contains("Respuestas sobre 2001–2011"));
    assert!(!es.contains("Respuestas sobre"));
    let en = findings(&["--include-flagged"]);
    assert!(en.contains("Is infant mortality falling?"));
    assert!(!en.contains("flagged as implausible are left out"));
}

#[test]
fn json_holds_the_values_or_the_reason_an_answer_is_unavailable() {
    let doc: serde_json::Value = serde_json::from_str(&findings(&["--format", "json"])).unwrap();
    let years = doc["rates"]["years"].as_array().unwrap();
    // 2001–2021 without 2016 and 2020 (no published deaths).
    assert_eq!(years.len(), 19);
    assert_eq!(years[0]["time"], 2001);
    assert_eq!(doc["flagged_left_out"], 2);
    assert_eq!(doc["source"], "chile_imr_2001_2021.csv");
    assert!(doc["models"]["terms"].as_array().unwrap().len() >= 4);
    assert_eq!(doc["span"], serde_json::json!([2001, 2021]));
    assert_eq!(doc["study"]["study_period"]["first"], 2001);
    assert_eq!(doc["study"]["study_period"]["last"], 2011);
    assert!(doc["study"]["study_period"]["adjusted_gini"]["slope"].is_f64());
    // --years: the five answers on those years, the study's answer unchanged.
    let study: serde_json::Value =
        serde_json::from_str(&findings(&["--format", "json", "--years", "2001-2011"])).unwrap();
    assert_eq!(study["span"], serde_json::json!([2001, 2011]));
    assert_eq!(study["rates"]["years"].as_array().unwrap().len(), 11);
    assert_eq!(study["study"], doc["study"]);
    let stderr = fails(2, &["findings", BUNDLED, "--years", "2011-2001"]);
    assert!(stderr.contains("--years"), "{stderr}");

    // A file without the covariates: the models question cannot be answered, and says why.
    let dir = std::env::temp_dir().join(format!("imr-findings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let small = dir.join("small.csv");
    std::fs::write(
        &small,
        "comuna,año,nacimientos,defunciones\n01101,2019,100,1\n",
    )
    .unwrap();
    let doc: serde_json::Value = serde_json::from_str(&stdout(&[
        "findings",
        small.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(doc["models"]["unavailable"]["reason"], "missing_columns");
    assert_eq!(
        doc["models"]["unavailable"]["columns"][0], "pobreza",
        "each column named on its own"
    );
    // Worded as a list of names, not as one name.
    let report = stdout(&["findings", small.to_str().unwrap()]);
    assert!(
        report.contains("To answer, the data need one of these columns, which they do not have: income poverty (CASEN) “pobreza”, "),
        "{report}"
    );
    // No study answer on a file that is not Chile's communes over the study's years.
    assert_eq!(doc["study"], serde_json::Value::Null);
    assert_eq!(doc["rates"]["years"][0]["pooled_per_1000"], 10.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_writes_the_report_to_a_file_and_an_unreadable_input_is_an_input_error() {
    let dir = std::env::temp_dir().join(format!("imr-findings-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("hallazgos_imr.html");
    let printed = findings(&["--lang", "es", "--out", out.to_str().unwrap()]);
    assert_eq!(printed, "");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("Hallazgos — imr-atlas"));
    std::fs::remove_dir_all(&dir).unwrap();
    let stderr = fails(1, &["findings", "no/such/file.csv"]);
    assert!(stderr.contains("no/such/file.csv"), "{stderr}");
}

/// `--births-ratio` reaches the inequality answer as it reaches `imr inequality`: the same
/// range of true births over the births given, and for every year the same "between X and Y"
/// of the Gini of true rates, on a file of published rates (SINIM's, deaths derived).
#[test]
fn the_births_ratio_range_gives_the_inequality_answer_imr_inequality_gives() {
    let published = common::sinim_as_published();
    let file = published.to_str().unwrap();
    for range in ["0.9,1.1", "0.7,1.0"] {
        let findings: serde_json::Value = serde_json::from_str(&stdout(&[
            "findings",
            file,
            "--births-ratio",
            range,
            "--format",
            "json",
        ]))
        .unwrap();
        let inequality = common::json(&[
            "inequality",
            file,
            "--bootstrap",
            "0",
            "--births-ratio",
            range,
        ]);
        let series = &findings["inequality"]["series"];
        let (low, high) = range.split_once(',').unwrap();
        assert_eq!(
            series["births_ratio"],
            serde_json::json!([low.parse::<f64>().unwrap(), high.parse::<f64>().unwrap()])
        );
        let answered: Vec<(i64, serde_json::Value)> = series["years"]
            .as_array()
            .unwrap()
            .iter()
            .map(|y| (y["time"].as_i64().unwrap(), y["range"].clone()))
            .collect();
        let expected: Vec<(i64, serde_json::Value)> = inequality["years"]
            .as_array()
            .unwrap()
            .iter()
            .map(|y| {
                (
                    y["time"].as_i64().unwrap(),
                    y["adjusted_sensitivity"]["range"]["gini"].clone(),
                )
            })
            .collect();
        assert_eq!(answered, expected, "--births-ratio {range}");
    }
    // A range imr would refuse is a usage error, as for `imr inequality`.
    let stderr = fails(2, &["findings", BUNDLED, "--births-ratio", "1.1,0.9"]);
    assert!(stderr.contains("--births-ratio"), "{stderr}");
}
