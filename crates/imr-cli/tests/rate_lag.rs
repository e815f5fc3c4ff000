//! Publication lags of a published rate column: `imr rates` and `imr inequality` report which
//! year's births the rates fit (`rate_lag`), and `--rate-lag K` on every command that reads data
//! moves each rate to the row of the year it describes, every row still used or excluded with
//! its reason. On SINIM's infant mortality rate as published beside INE's births
//! (`crates/imr-core/tests/data/lag`, PROVENANCE.md there).

mod common;
use common::{fails, fails_in, json, json_in, stdout, stdout_in};
use imr_core::analysis::SavedAnalysis;
use imr_core::ingest::RawTable;
use serde_json::Value;

const SINIM: &str = "../imr-core/tests/data/lag/sinim_tmi_ine_nacimientos_2017_2023.csv";

/// The counts (fits, testable) of `lag` in rate year `year` of a `rate_lag` report.
fn year_count(report: &Value, year: i64, lag: usize) -> (u64, u64) {
    let y = report["years"]
        .as_array()
        .unwrap()
        .iter()
        .find(|y| y["year"] == year)
        .unwrap();
    let c = &y["lags"][lag];
    (c["fits"].as_u64().unwrap(), c["testable"].as_u64().unwrap())
}

/// The line of the fixture's row of `code` in `year`.
fn line_of(code: &str, year: i64) -> u64 {
    let text = std::fs::read_to_string(SINIM).unwrap();
    let found = text
        .lines()
        .position(|l| l.starts_with(&format!("{code},{year},")));
    found.unwrap() as u64 + 1
}

/// The years of the rows of an `imr rates` document.
fn years(rates: &Value) -> Vec<i64> {
    let mut years: Vec<i64> = rates["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["time"].as_i64().unwrap())
        .collect();
    years.sort_unstable();
    years.dedup();
    years
}

#[test]
fn imr_rates_reports_that_sinim_rates_of_year_y_describe_y_minus_2() {
    let rates = json(&["rates", SINIM]);
    let report = &rates["rate_lag"];
    assert_eq!(report["lag"], 2);
    assert_eq!(report["step"], 1.0);
    // As the shared folder's table: t > 0 on at most 400 births.
    assert_eq!(year_count(report, 2019, 2), (126, 127));
    assert_eq!(year_count(report, 2020, 2), (118, 125));
    assert_eq!(year_count(report, 2021, 2), (130, 134));
    assert_eq!(year_count(report, 2023, 2), (122, 122));
    assert_eq!(year_count(report, 2019, 0), (42, 133));
    assert_eq!(report["years"][3]["repeats"], 2021);
    assert_eq!(report["years"][3]["lag"], 3);
    assert_eq!(report["lags"][2]["fits"], 496);
    assert_eq!(report["lags"][2]["testable"], 508);
    assert_eq!(
        report["verdict"],
        "The rates of year Y fit the births of year Y−2 in 496 of 508 testable area-years \
         (chance alone: about 19%; next best, Y−1: 199 of 510): they describe year Y−2. Left \
         out: 2022, whose rates repeat 2021's."
    );
    assert_eq!(report["rule"]["max_window"], 0.4);
    // Without the lag: the rows of 2017–2018 have no rate, and the rows keep SINIM's years.
    assert_eq!(rates["input"]["rows_used"], 1725);
    assert_eq!(rates["input"]["rows_excluded"], 697);
    assert!(rates["input"]["files"][0].get("rate_lag").is_none());
    assert_eq!(years(&rates), (2019..=2023).collect::<Vec<_>>());
    // The same report beside the inequality measures.
    let inequality = json(&["inequality", SINIM, "--bootstrap", "0"]);
    assert_eq!(inequality["rate_lag"], rates["rate_lag"]);
}

#[test]
fn rate_lag_2_moves_sinim_rates_to_2017_2021_and_says_what_was_moved() {
    let rates = json(&["rates", SINIM, "--rate-lag", "2"]);
    assert_eq!(years(&rates), (2017..=2021).collect::<Vec<_>>());
    let input = &rates["input"];
    assert_eq!(
        (
            input["rows_read"].as_u64(),
            input["rows_used"].as_u64(),
            input["rows_excluded"].as_u64()
        ),
        (Some(2422), Some(1725), Some(697))
    );
    assert_eq!(input["files"][0]["rate_lag"], 2);
    assert!(input.get("unplaced_rates").is_none());
    // The detection reads the rates as published: unchanged by the lag.
    assert_eq!(rates["rate_lag"], json(&["rates", SINIM])["rate_lag"]);
    // Iquique 2017: SINIM's 7 ‰ labelled 2019 on the 2,811 births of 2017.
    let iquique = rates["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["entity"] == "01101" && r["time"] == 2017)
        .unwrap();
    assert_eq!(iquique["births"], 2811.0);
    assert!((iquique["rate"].as_f64().unwrap() - 7.0).abs() < 1e-9);
    assert!((iquique["deaths"].as_f64().unwrap() - 19.677).abs() < 1e-9);
    // Each excluded row says why, naming the lag: Iquique 2022 (line 7) and Antártica 2017.
    let excluded = input["excluded"].as_array().unwrap();
    let reason = |line: u64| {
        excluded
            .iter()
            .find(|e| e["line"] == line)
            .map(|e| e["reason"].as_str().unwrap().to_owned())
            .unwrap()
    };
    assert_eq!(
        reason(7),
        "no rate: with a lag of 2 years the rate of 2022 is published in the row of 2024, which \
         the data do not have"
    );
    let antartica_2017 = line_of("12202", 2017);
    assert_eq!(
        reason(antartica_2017),
        format!(
            "no rate: with a lag of 2 years the rate of 2017 is published in the row of 2019 \
             ({SINIM}, line {}), which has none",
            antartica_2017 + 2
        )
    );
    // The CSV is the same table.
    let csv = stdout(&["rates", SINIM, "--rate-lag", "2", "--format", "csv"]);
    assert!(csv.contains("\n01101,2017,2811,19.677,"), "{csv}");
    // The inequality per year of the years the rates describe.
    let inequality = json(&["inequality", SINIM, "--rate-lag", "2", "--bootstrap", "0"]);
    let measured: Vec<i64> = inequality["years"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["time"].as_i64().unwrap())
        .collect();
    assert_eq!(measured, (2017..=2021).collect::<Vec<_>>());
    assert_eq!(inequality["input"]["files"][0]["rate_lag"], 2);
}

#[test]
fn every_command_that_reads_data_takes_the_lag() {
    let fit = json(&[
        "fit",
        SINIM,
        "--rate-lag",
        "2",
        "--y",
        "rate",
        "--x",
        "births",
        "--format",
        "json",
    ]);
    assert_eq!(fit["input"]["rows_used"], 1725);
    assert_eq!(fit["input"]["files"][0]["rate_lag"], 2);
    let dir = std::env::temp_dir().join(format!("imr-rate-lag-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("mapa.svg");
    let summary = json(&[
        "map",
        SINIM,
        "--rate-lag",
        "2",
        "--year",
        "2017",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(summary["input"]["files"][0]["rate_lag"], 2);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
    // The R and Stata code derive deaths row by row: they cannot carry the lag, and say so.
    let stderr = fails(
        2,
        &[
            "fit",
            SINIM,
            "--rate-lag",
            "2",
            "--y",
            "rate",
            "--x",
            "births",
            "--format",
            "r",
        ],
    );
    assert!(
        stderr.contains("--format r") && stderr.contains("--rate-lag 2"),
        "{stderr}"
    );
}

#[test]
fn a_lag_out_of_range_or_for_counted_deaths_is_refused_naming_why() {
    for bad in ["11", "-1", "2.5", "x"] {
        let stderr = fails(2, &["rates", SINIM, &format!("--rate-lag={bad}")]);
        assert!(stderr.contains("--rate-lag"), "{bad}: {stderr}");
    }
    // Deaths counted in a column: a lag of the rate means nothing; the error names the column.
    let stderr = fails(
        1,
        &["rates", "tests/data/rates_latin1.csv", "--rate-lag", "1"],
    );
    assert!(
        stderr.contains("a rate lag of 1 year")
            && stderr.contains("tests/data/rates_latin1.csv, column `Defunciones`"),
        "{stderr}"
    );
    // A lag of 0 is none: accepted anywhere, and counted data have no `rate_lag` report.
    let rates = json(&["rates", "tests/data/rates_latin1.csv", "--rate-lag", "0"]);
    assert!(rates.get("rate_lag").is_none());
}

#[test]
fn a_saved_analysis_brings_the_lag_chosen_on_the_page() {
    let text = "codigo_comuna,anio,tmi,nacidos_vivos\n01101,2017,,140\n01101,2019,7,130\n";
    let table = RawTable::from_bytes("tmi.csv", text.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    let analysis = SavedAnalysis::new(
        &[("tmi.csv", text.as_bytes(), &table, &roles)],
        "view=data&rate-lag=2",
        "2026-12-05T12:00:00Z",
    );
    let dir = std::env::temp_dir().join(format!("imr-rate-lag-saved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("analisis.json"), analysis.to_json()).unwrap();
    let rates = json_in(&dir, &["rates", "analisis.json"]);
    assert_eq!(years(&rates), vec![2017]);
    assert_eq!(rates["input"]["files"][0]["rate_lag"], 2);
    // The flag wins over the saved lag.
    let csv = stdout_in(
        &dir,
        &[
            "rates",
            "analisis.json",
            "--rate-lag",
            "0",
            "--format",
            "csv",
        ],
    );
    assert!(csv.contains("01101,2019,130,"), "{csv}");
    // A saved lag out of range is not read (as the page's link ignores it): the error of the
    // empty 2017 rate shows it was read without a lag.
    let bad = SavedAnalysis::new(
        &[("tmi.csv", text.as_bytes(), &table, &roles)],
        "rate-lag=99",
        "2026-12-05T12:00:00Z",
    );
    std::fs::write(dir.join("malo.json"), bad.to_json()).unwrap();
    let rates = json_in(&dir, &["rates", "malo.json"]);
    assert_eq!(years(&rates), vec![2019]);
    assert!(fails_in(&dir, 2, &["rates", "malo.json", "--rate-lag", "99"]).contains("--rate-lag"));
    std::fs::remove_dir_all(&dir).unwrap();
}
