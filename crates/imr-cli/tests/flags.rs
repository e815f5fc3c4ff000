//! One plausibility rule everywhere: on the bundled data `imr inequality`, `imr fit` and
//! `imr findings` leave out the same rows flagged as implausible (General Lagos 2023, a rate of
//! 1000 per 1,000, and the rates given on fewer than 10 births), each listed with
//! its reason, and the inequality answer of the Findings is `imr inequality`'s adjusted Gini.

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
    let fit = json(&args(
        "fit",
        &["--y", "rate", "--x", "pobreza", "--format", "json"],
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
    assert!(from_inequality.contains(&("15202".to_string(), 2023)));
    assert_eq!(
        from_inequality.len(),
        findings["flagged_left_out"].as_u64().unwrap() as usize
    );
    assert_eq!(from_inequality, from_findings);
    assert_eq!(from_fit, from_findings);
    // Independently from the CSV text: the rows with 1..=9 births (`nacidos_vivos_est`, the
    // page's births) or `tmi` > 200.
    let text = std::fs::read_to_string(BUNDLED).unwrap();
    let expected: BTreeSet<(String, i64)> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let (tmi, pop): (f64, f64) = (f[5].parse().unwrap(), f[7].parse().unwrap());
            (pop > 0.0 && (pop < 10.0 || tmi > 200.0))
                .then(|| (f[0].to_string(), f[4].parse().unwrap()))
        })
        .collect();
    assert_eq!(from_findings, expected);

    // The same adjusted Gini for 2023 in `imr inequality` and the Findings' answer.
    let gini_2023 = |years: &serde_json::Value, value: &dyn Fn(&serde_json::Value) -> f64| {
        years
            .as_array()
            .unwrap()
            .iter()
            .find(|y| y["time"] == 2023)
            .map(value)
            .unwrap()
    };
    let a = gini_2023(&inequality["years"], &|y| {
        y["adjusted"]["gini"].as_f64().unwrap()
    });
    let b = gini_2023(&findings["inequality"]["series"]["years"], &|y| {
        y["value"].as_f64().unwrap()
    });
    assert_eq!(a, b, "adjusted Gini 2023: imr inequality {a}, findings {b}");

    // --include-flagged keeps them everywhere, and the 2023 Gini moves with General Lagos.
    let kept = json(&args(
        "inequality",
        &["--bootstrap", "0", "--include-flagged"],
    ));
    assert!(!kept["rows_not_measured"]
        .as_array()
        .unwrap()
        .iter()
        .any(flagged_reason));
    let with = gini_2023(&kept["years"], &|y| y["adjusted"]["gini"].as_f64().unwrap());
    assert!(
        with > a + 0.005,
        "with the flagged rows {with}, without {a}"
    );
    let fit_kept = json(&args(
        "fit",
        &["--y", "rate", "--x", "pobreza", "--include-flagged"],
    ));
    assert_eq!(
        fit_kept["nobs"].as_u64().unwrap(),
        fit["nobs"].as_u64().unwrap() + from_fit.len() as u64
    );
}

#[test]
fn the_repeated_year_is_left_out_of_the_trends_and_kept_with_the_flag() {
    let doc = json(&args("inequality", &["--bootstrap", "0"]));
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
    let kept = json(&args(
        "inequality",
        &["--bootstrap", "0", "--include-repeated-years"],
    ));
    assert!(kept.get("left_out_of_trends").is_none());
    assert_ne!(doc["trend"]["gini"], kept["trend"]["gini"]);
    let findings = json(&args("findings", &["--format", "json"]));
    assert_eq!(findings["repeated_left_out"][0]["time"], 2022);
    assert_eq!(
        findings["inequality"]["series"]["left_out_of_trend"],
        serde_json::json!([2022])
    );
    assert_eq!(
        findings["inequality"]["series"]["slope_per_year"],
        doc["trend_adjusted"]["gini"]["slope"]
    );
}
