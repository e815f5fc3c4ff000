//! `imr fit` end to end: the built binary on the Grunfeld panel reproduces the published R plm and
//! Stata numbers (`tests/reference/README.md`), in the JSON contract and the CSV table.

mod common;
use common::grunfeld_args;

/// `imr fit` of invest on value and capital plus `extra`.
fn fit_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    grunfeld_args("value,capital", extra)
}

fn json(extra: &[&str]) -> serde_json::Value {
    common::json(&fit_args(extra))
}

fn coefficient<'a>(fit: &'a serde_json::Value, term: &str) -> &'a serde_json::Value {
    fit["coefficients"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["term"] == term)
        .unwrap_or_else(|| panic!("no coefficient {term}"))
}

/// Checks rows of (term, `estimate` or `std_error`, reference value, relative tolerance).
fn assert_coefficients(fit: &serde_json::Value, rows: &[(&str, &str, f64, f64)]) {
    for &(term, key, expected, rel) in rows {
        let what = format!("{term} {key}");
        assert_near(&what, &coefficient(fit, term)[key], expected, rel);
    }
}

fn assert_near(what: &str, actual: &serde_json::Value, expected: f64, rel: f64) {
    let a = actual
        .as_f64()
        .unwrap_or_else(|| panic!("{what} is not a number: {actual}"));
    assert!(
        (a - expected).abs() <= rel * expected.abs(),
        "{what}: {a} vs {expected}"
    );
}

#[test]
fn fixed_effects_with_clustered_errors_match_stata() {
    // Stata xtreg invest value capital, fe vce(cluster firm)
    let fit = json(&["--model", "fe", "--vcov", "cluster", "--format", "json"]);
    assert_eq!(fit["model"], "fe");
    assert_eq!(fit["vcov"], "cluster");
    assert_eq!(fit["nobs"], 200);
    assert_eq!(fit["n_entities"], 10);
    assert_eq!(fit["n_periods"], 20);
    assert_eq!(fit["rows_excluded"], 0);
    assert_coefficients(
        &fit,
        &[
            ("value", "estimate", 0.1101238, 5e-7),
            ("value", "std_error", 0.0151945, 5e-6),
            ("capital", "estimate", 0.3100653, 5e-7),
            ("capital", "std_error", 0.0527518, 5e-6),
        ],
    );
    // R plm: F test of entity effects 49.177 on (9, 188); Hausman χ²(2) = 2.3303669
    assert_near("F", &fit["tests"]["f_effects"]["statistic"], 49.177, 1e-5);
    assert_eq!(fit["tests"]["f_effects"]["df1"], 9);
    assert_eq!(fit["tests"]["f_effects"]["df2"], 188);
    assert_near(
        "Hausman",
        &fit["tests"]["hausman"]["statistic"],
        2.3303669,
        5e-7,
    );
    assert_eq!(fit["dropped_terms"], serde_json::json!([]));
}

#[test]
fn classical_within_errors_and_random_effects_match_plm() {
    let fe = json(&["--model", "fe", "--vcov", "iid"]);
    assert_coefficients(
        &fe,
        &[
            ("value", "std_error", 0.0118567, 5e-6),
            ("capital", "std_error", 0.0173545, 5e-6),
        ],
    );
    let re = json(&["--model", "re", "--vcov", "iid"]);
    assert_coefficients(
        &re,
        &[
            ("(Intercept)", "estimate", -57.834415, 1e-8),
            ("value", "estimate", 0.109781, 5e-6),
        ],
    );
    assert_near("sigma2_u", &re["sigma2_u"], 7089.80, 1e-6);
    assert_near("sigma2_e", &re["sigma2_e"], 2784.46, 2e-6);
    assert_near("theta", &re["theta"], 0.8612, 1e-4);
    assert_near(
        "Breusch-Pagan",
        &re["tests"]["breusch_pagan"]["statistic"],
        798.16155,
        5e-7,
    );
}

#[test]
fn csv_format_prints_the_coefficient_table() {
    let text = common::stdout(&fit_args(&["--model", "fe", "--format", "csv"]));
    assert!(text.starts_with("# Source: grunfeld.csv\n# imr-atlas engine "));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        lines[0],
        "model,vcov,term,estimate,std_error,statistic,p_value,conf_low,conf_high"
    );
    assert!(
        lines[1].starts_with("fe,cluster,value,0.110123804"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("fe,cluster,capital,0.310065341"),
        "{}",
        lines[2]
    );
    assert_eq!(lines.len(), 3);
}

#[test]
fn an_unknown_column_is_a_usage_error_naming_it() {
    let stderr = common::fails(2, &grunfeld_args("value,poverty", &[]));
    assert!(stderr.contains("poverty"), "{stderr}");
}
