//! One plausibility rule everywhere: on the bundled data `imr inequality`, `imr fit` and
//! `imr findings` leave out the same rows flagged as implausible (General Lagos in 2004 and 2021,
//! one infant death among 4 births and among 1: above 200 per 1,000), each listed with its
//! reason, and the inequality answer of the Findings is `imr inequality`'s adjusted Gini. A year
//! a source copied (SINIM 2022, on SINIM's rates as published) is left out of the trends.

mod common;
use common::{json, BUNDLED, BUNDLED_ROLES as ROLES};
use std::collections::BTreeSet;

fn args<'a>(command: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [&[command, BUNDLED][..], &ROLES, extra].concat()
}

/// The CSV line of each bundled row, by (code, year): line 1 is the header.
fn lines_by_key() -> std::collections::BTreeMap<u64, (String, i64)> {
    let text = std::fs::read_to_string(BUNDLED).unwrap();
    text.lines()
        .enumerate()
        .skip(1)
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            (i as u64 + 1, (f[0].to_string(), f[4].parse().unwrap()))
        })
        .collect()
}

#[test]
fn inequality_fit_and_findings_leave_out_the_same_flagged_rows() {
    let inequality = json(&args("inequality", &["--bootstrap", "0"]));
    // A covariate of every year, so that no flagged row is left out for a missing value first.
    let fit = json(&args(
        "fit",
        &[
            "--y",
            "rate",
            "--x",
            "dist_hospital_km",
            "--model",
            "pooled",
            "--format",
            "json",
        ],
    ));
    let findings = json(&args("findings", &["--format", "json"]));

    let flagged_reason = |r: &serde_json::Value| {
        r["reason"]
            .as_str()
            .unwrap()
            .starts_with("flagged as implausible: ")
    };
    let from_inequality: BTreeSet<(String, i64)> = inequality["rows_not_measured"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| flagged_reason(r))
        .map(|r| {
            (
                r["entity"].as_str().unwrap().to_string(),
                r["time"].as_i64().unwrap(),
            )
        })
        .collect();
    let lines = lines_by_key();
    let from_fit: BTreeSet<(String, i64)> = fit["excluded_rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| flagged_reason(r))
        .map(|r| lines[&r["row"].as_u64().unwrap()].clone())
        .collect();
    let from_findings: BTreeSet<(String, i64)> = findings["flagged_rows_left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["entity"].as_str().unwrap().to_string(),
                r["time"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(from_inequality.contains(&("15202".to_string(), 2021)));
    assert_eq!(
        from_inequality.len(),
        findings["flagged_left_out"].as_u64().unwrap() as usize
    );
    assert_eq!(from_inequality, from_findings);
    assert_eq!(from_fit, from_findings);
    // Independently from the CSV text: the rows with births > 0 and 1000 × deaths / births > 200.
    let text = std::fs::read_to_string(BUNDLED).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (d, b) = (at("defunciones_infantiles"), at("nacidos_vivos"));
    let expected: BTreeSet<(String, i64)> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let (deaths, births) = (f[d].parse::<f64>().ok()?, f[b].parse::<f64>().ok()?);
            (births > 0.0 && 1000.0 * deaths / births > 200.0)
                .then(|| (f[0].to_string(), f[4].parse().unwrap()))
        })
        .collect();
    assert_eq!(
        expected,
        BTreeSet::from([("15202".to_string(), 2004), ("15202".to_string(), 2021)])
    );
    assert_eq!(from_findings, expected);

    // The same adjusted Gini for 2021 in `imr inequality` and the Findings' answer.
    let gini_2021 = |years: &serde_json::Value, value: &dyn Fn(&serde_json::Value) -> f64| {
        years
            .as_array()
            .unwrap()
            .iter()
            .find(|y| y["time"] == 2021)
            .map(value)
            .unwrap()
    };
    let a = gini_2021(&inequality["years"], &|y| {
        y["adjusted"]["gini"].as_f64().unwrap()
    });
    let b = gini_2021(&findings["inequality"]["series"]["years"], &|y| {
        y["value"].as_f64().unwrap()
    });
    assert_eq!(a, b, "adjusted Gini 2021: imr inequality {a}, findings {b}");

    // --include-flagged keeps them everywhere, and the 2021 Gini moves with General Lagos.
    let kept = json(&args(
        "inequality",
        &["--bootstrap", "0", "--include-flagged"],
    ));
    assert!(!kept["rows_not_measured"]
        .as_array()
        .unwrap()
        .iter()
        .any(flagged_reason));
    let with = gini_2021(&kept["years"], &|y| y["adjusted"]["gini"].as_f64().unwrap());
    assert_ne!(with, a, "with the flagged rows {with}, without {a}");
    let fit_kept = json(&args(
        "fit",
        &[
            "--y",
            "rate",
            "--x",
            "dist_hospital_km",
            "--model",
            "pooled",
            "--include-flagged",
        ],
    ));
    assert_eq!(
        fit_kept["nobs"].as_u64().unwrap(),
        fit["nobs"].as_u64().unwrap() + from_fit.len() as u64
    );
}

#[test]
fn the_repeated_year_is_left_out_of_the_trends_and_kept_with_the_flag() {
    let published = common::sinim_as_published();
    let file = published.to_str().unwrap();
    let args = |command: &'static str, extra: &[&'static str]| -> Vec<String> {
        [command, file]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |a: Vec<String>| json(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let doc = run(args("inequality", &["--bootstrap", "0"]));
    let y2022 = doc["years"]
        .as_array()
        .unwrap()
        .iter()
        .find(|y| y["time"] == 2022)
        .unwrap();
    assert_eq!(y2022["repeat_of"], 2021);
    assert_eq!(doc["left_out_of_trends"][0]["time"], 2022);
    let note = doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.starts_with("Left out of trends and correlations: 2022 (a repeat of 2021)"));
    assert!(note.is_some(), "{:?}", doc["notes"]);
    let kept = run(args(
        "inequality",
        &["--bootstrap", "0", "--include-repeated-years"],
    ));
    assert!(kept.get("left_out_of_trends").is_none());
    assert_ne!(doc["trend"]["gini"], kept["trend"]["gini"]);
    let findings = run(args("findings", &["--format", "json"]));
    assert_eq!(findings["repeated_left_out"][0]["time"], 2022);
    assert_eq!(
        findings["inequality"]["series"]["left_out_of_trend"],
        serde_json::json!([2022])
    );
    assert_eq!(
        findings["inequality"]["series"]["slope_per_year"],
        doc["trend_adjusted"]["gini"]["slope"]
    );
    // The bundled panel has no repeated year.
    let bundled = json(&[&["inequality", BUNDLED][..], &ROLES, &["--bootstrap", "0"]].concat());
    assert!(bundled.get("left_out_of_trends").is_none());
}
