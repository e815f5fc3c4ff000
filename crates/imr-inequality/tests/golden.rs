//! Golden values from reference software: `tests/golden/make_goldens.py` (NumPy, pandas, SciPy
//! and pysal `inequality`; versions recorded in `goldens.json` under "software") on the fixture
//! `tests/golden/areas.csv` (3 years × 15 areas; one area with 0 births in 2018, a zero-death area
//! in 2017–2018, a tie in the poverty rank).

mod common;

use common::{close, fixture_income, fixture_rates};
use imr_inequality::{
    correlate, BootstrapSpec, InequalityReport, InequalitySpec, Measure, Subject, SubjectKind,
};
use serde_json::Value;

fn goldens() -> Value {
    serde_json::from_str(include_str!("golden/goldens.json")).unwrap()
}

fn report(subject: &Subject) -> InequalityReport {
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 0,
            ..BootstrapSpec::default()
        },
    };
    spec.analyse(subject).unwrap().report
}

fn compare_every_measure(report: &InequalityReport, expected: &Value) {
    let mut compared = 0;
    for year in &report.years {
        let exp = &expected[year.time().to_string()];
        for m in Measure::ALL {
            let key = match m {
                Measure::ZeroAreas => "zero_areas",
                _ => m.key(SubjectKind::Rate),
            };
            let want = &exp[key];
            let got = year.measures.get(m);
            match (got, want.as_f64()) {
                (Some(g), Some(w)) => assert!(
                    close(g, w, 1e-10),
                    "{} {key}: engine {g}, reference {w}",
                    year.time()
                ),
                (None, None) => assert!(want.is_null(), "{} {key} missing in goldens", year.time()),
                (g, _) => panic!("{} {key}: engine {g:?}, reference {want}", year.time()),
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 3 * Measure::ALL.len());
}

#[test]
fn rate_measures_match_numpy_for_every_year_with_region_and_poverty() {
    let g = goldens();
    compare_every_measure(&report(&fixture_rates(true, true)), &g["rates"]);
}

#[test]
fn weighted_value_measures_match_numpy_for_every_year() {
    let g = goldens();
    compare_every_measure(&report(&fixture_income(false)), &g["values"]);
}

#[test]
fn equal_weight_gini_and_theil_decomposition_match_pysal_inequality() {
    let g = goldens();
    let r = report(&fixture_income(true));
    for year in &r.years {
        let exp = &g["pysal_equal_weights"][year.time().to_string()];
        let pairs = [
            (Measure::Gini, "gini"),
            (Measure::GiniUnweighted, "gini"),
            (Measure::TheilT, "theil_t"),
            (Measure::TheilBetween, "theil_between"),
            (Measure::TheilWithin, "theil_within"),
        ];
        for (m, key) in pairs {
            let got = year.measures.get(m).unwrap();
            let want = exp[key].as_f64().unwrap();
            assert!(
                close(got, want, 1e-10),
                "{} {key}: {got} vs pysal {want}",
                year.time()
            );
        }
    }
}

#[test]
fn gini_trend_matches_scipy_linregress_with_a_t_interval() {
    let g = goldens();
    let r = report(&fixture_rates(true, true));
    let t = r.trend_of(Measure::Gini).unwrap();
    let exp = &g["trend_rates_gini"];
    assert!(close(t.slope, exp["slope"].as_f64().unwrap(), 1e-10));
    assert!(close(
        t.ci_low.unwrap(),
        exp["ci_low"].as_f64().unwrap(),
        1e-8
    ));
    assert!(close(
        t.ci_high.unwrap(),
        exp["ci_high"].as_f64().unwrap(),
        1e-8
    ));
    assert_eq!((t.first_time, t.last_time, t.n_years), (2017, 2019, 3));
}

#[test]
fn pearson_and_spearman_with_fisher_intervals_match_scipy() {
    let g = goldens();
    let exp = &g["correlation"];
    let series = |key: &str| -> Vec<(i64, f64)> {
        exp[key]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(k, v)| (2010 + k as i64, v.as_f64().unwrap()))
            .collect()
    };
    let c = correlate(&series("x"), &series("y"), 0.95);
    assert_eq!(c.n_years, 8);
    let f = |v: &Value| v.as_f64().unwrap();
    assert!(close(c.pearson.unwrap(), f(&exp["pearson"]), 1e-12));
    assert!(close(c.spearman.unwrap(), f(&exp["spearman"]), 1e-12));
    for k in 0..2 {
        assert!(close(
            c.pearson_ci.unwrap()[k],
            f(&exp["pearson_ci"][k]),
            1e-9
        ));
        assert!(close(
            c.spearman_ci.unwrap()[k],
            f(&exp["spearman_ci"][k]),
            1e-9
        ));
    }
}

#[test]
fn the_area_with_no_births_is_left_out_and_noted() {
    let r = report(&fixture_rates(false, false));
    let y2018 = r.years.iter().find(|y| y.time() == 2018).unwrap();
    assert_eq!(y2018.measures.n_areas(), 14);
    assert!(r
        .notes
        .iter()
        .map(|n| n.to_string())
        .any(|n| n.contains("births = 0") && n.contains("1 in 2018")));
}
