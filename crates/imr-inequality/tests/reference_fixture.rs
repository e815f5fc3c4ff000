//! The 4-area inequality fixture of tests/reference/README.md ("4-area inequality fixture
//! (rates per 1,000 births)"): births = [1000, 200, 50, 3000], deaths = [8, 4, 0, 15] → rates
//! [8, 20, 0, 5], pooled rate 6.352941. Values as published there (7 significant digits); the
//! index of disparity is derived by hand below.

use imr_inequality::{AreaObservation, BootstrapSpec, InequalitySpec, Measure, RateInput, Subject};

fn four_areas() -> Subject {
    let births = [1000.0, 200.0, 50.0, 3000.0];
    let deaths = [8.0, 4.0, 0.0, 15.0];
    let obs = (0..4)
        .map(|i| AreaObservation::new(format!("area{i}"), 2019, deaths[i], births[i]))
        .collect();
    Subject::Rates(RateInput::per_1000(obs, false))
}

fn measures() -> imr_inequality::YearResult {
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 200,
            ..BootstrapSpec::default()
        },
    };
    spec.analyse(&four_areas()).unwrap().report.years.remove(0)
}

fn assert_close(m: Measure, expected: f64, tol: f64) {
    let got = measures().measures.get(m).unwrap();
    assert!((got - expected).abs() <= tol, "{m:?}: {got} vs {expected}");
}

#[test]
fn pooled_rate_is_total_deaths_over_total_births() {
    assert_close(Measure::PooledRate, 6.352941, 5e-7);
}

#[test]
fn birth_weighted_gini_matches_the_reference() {
    assert_close(Measure::Gini, 0.1895425, 5e-8);
}

#[test]
fn unweighted_gini_without_correction_matches_the_reference() {
    assert_close(Measure::GiniUnweighted, 0.4772727, 5e-8);
}

#[test]
fn birth_weighted_theil_t_matches_the_reference() {
    assert_close(Measure::TheilT, 0.1051573, 5e-8);
}

/// CoV = BGSD / μ = 3.342088 / 6.352941 = 0.526069 (BGV 11.169550).
#[test]
fn coefficient_of_variation_matches_the_reference() {
    assert_close(Measure::Cov, 0.526069, 5e-7);
    let year = measures();
    let bgsd =
        year.measures.get(Measure::Cov).unwrap() * year.measures.get(Measure::PooledRate).unwrap();
    assert!((bgsd - 3.342088).abs() < 5e-7, "BGSD {bgsd}");
    assert!(
        (bgsd * bgsd - 11.169550).abs() < 5e-6,
        "BGV {}",
        bgsd * bgsd
    );
}

#[test]
fn weighted_mean_deviation_from_the_mean_matches_the_reference() {
    assert_close(Measure::MeanAbsDev, 2.059516, 5e-7);
}

/// ID = 100 · (|8 − μ| + |20 − μ| + |0 − μ| + |5 − μ|)/4 / μ with μ = 108/17:
/// the deviations sum to 23 (two above μ: 1.647 + 13.647; two below: 6.353 + 1.353),
/// so ID = 100 · 5.75 / (108/17) = 90.50926%.
#[test]
fn index_of_disparity_is_the_mean_absolute_gap_relative_to_the_pooled_rate() {
    assert_close(
        Measure::IndexOfDisparity,
        100.0 * 5.75 * 17.0 / 108.0,
        1e-12,
    );
}

#[test]
fn mean_log_deviation_is_not_available_because_an_area_has_rate_zero() {
    let year = measures();
    assert_eq!(year.measures.get(Measure::Mld), None);
    let why = year.measures.reason(Measure::Mld).unwrap();
    assert_eq!(
        why,
        &imr_inequality::Reason::Undefined(imr_inequality::Unavailable::ZeroValues { count: 1 })
    );
    assert!(why.to_string().contains("1 area(s) have value 0"), "{why}");
    assert!(year.interval(Measure::Mld).is_none());
}

#[test]
fn distribution_counts_the_zero_death_area_and_the_extremes() {
    let year = measures();
    assert_eq!(year.measures.get(Measure::ZeroAreas), Some(1.0));
    assert_eq!(year.measures.get(Measure::Min), Some(0.0));
    assert_eq!(year.measures.get(Measure::Max), Some(20.0));
    // Type 7 on [0, 5, 8, 20]: median = (5 + 8)/2; p10: h = 0.3 → 0 + 0.3·5 = 1.5.
    assert_eq!(year.measures.get(Measure::Median), Some(6.5));
    assert!((year.measures.get(Measure::P10).unwrap() - 1.5).abs() < 1e-12);
}

#[test]
fn json_shows_mld_as_null_and_has_the_contract_keys() {
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 50,
            ..BootstrapSpec::default()
        },
    };
    let report = spec.analyse(&four_areas()).unwrap().report;
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let year = &json["years"][0];
    assert_eq!(year["time"], 2019);
    assert_eq!(year["n_areas"], 4);
    assert_eq!(year["zero_death_areas"], 1);
    assert!(year["mld"].is_null());
    assert!(year.get("theil_between").is_none(), "no group given");
    assert!(year.get("sii").is_none(), "no rank given");
    let ci = year["ci"]["gini"].as_array().unwrap();
    assert_eq!(ci.len(), 2);
    assert!(ci[0].as_f64().unwrap() <= ci[1].as_f64().unwrap());
    assert!(
        json["trend"].as_object().unwrap().is_empty(),
        "one year has no trend"
    );
    assert!(json["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().starts_with("mld not available in 2019")));
}
