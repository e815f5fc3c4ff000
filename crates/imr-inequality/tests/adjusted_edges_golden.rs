//! The edges of the adjusted fit against an independent scipy implementation of the same NB2
//! likelihood: non-integer (derived) deaths, θ̂ = 0 on the boundary, and the search bound (all
//! deaths in one area: the upper limit is open). Script: `bench/adjusted/reference_edges.py`
//! (scipy 1.17.1, numpy 2.4.6); its output, copied below, is in
//! `bench/adjusted/reference_edges.out`.

use imr_inequality::adjusted::{fit_year, AdjustedMeasure, LeftOutOfTrend};
use imr_inequality::{AreaObservation, BootstrapSpec, InequalitySpec, Lang, RateInput, Subject};

const BIRTHS: [f64; 20] = [
    120.0, 400.0, 80.0, 900.0, 300.0, 60.0, 1500.0, 220.0, 45.0, 700.0, 3100.0, 150.0, 95.0, 510.0,
    260.0, 1800.0, 75.0, 640.0, 330.0, 2400.0,
];
/// Integer rates per 1,000, from which deaths are derived (rate × births / 1000).
const RATES: [f64; 20] = [
    0.0, 8.0, 13.0, 13.0, 7.0, 0.0, 4.0, 18.0, 22.0, 13.0, 5.0, 0.0, 21.0, 16.0, 4.0, 11.0, 0.0,
    3.0, 15.0, 5.0,
];

fn close(ours: f64, reference: f64, tol: f64, what: &str) {
    assert!(
        (ours - reference).abs() <= tol * reference.abs().max(1e-300),
        "{what}: ours {ours}, reference {reference}"
    );
}

#[test]
fn non_integer_deaths_match_scipy() {
    let deaths: Vec<f64> = RATES
        .iter()
        .zip(BIRTHS)
        .map(|(r, b)| r * b / 1000.0)
        .collect();
    assert!(deaths.iter().any(|d| d.fract() != 0.0));
    let y = fit_year(2019, &deaths, &BIRTHS, 1000.0, 0.95).unwrap();
    close(y.fit.mean_per_birth, 0.008381972440628738, 1e-6, "mu");
    close(y.fit.theta, 0.14195953674750403, 1e-5, "theta");
    close(y.fit.theta_ci[0], 0.01134752973126918, 1e-5, "theta low");
    close(y.fit.theta_ci[1], 0.5354512004485137, 1e-5, "theta high");
    close(y.fit.log_likelihood, -41.792062688369256, 1e-9, "llf");
    close(
        y.fit.log_likelihood_poisson,
        -44.41904402130454,
        1e-9,
        "llf poisson",
    );
    close(y.excess_variation.statistic, 5.253962665870574, 1e-6, "LR");
    close(y.excess_variation.p_value, 0.010948425029969101, 1e-5, "p");
    close(
        y.value(AdjustedMeasure::Gini),
        0.2088369070309275,
        1e-5,
        "gini",
    );
    close(
        y.interval(AdjustedMeasure::Gini)[0],
        0.06001498617802516,
        1e-5,
        "gini low",
    );
    assert!(!y.fit.upper_limit_at_bound && y.left_out_of_trend().is_none());
}

#[test]
fn theta_hat_zero_on_the_boundary_matches_scipy() {
    let births = [
        400.0, 900.0, 1500.0, 700.0, 3100.0, 510.0, 1800.0, 640.0, 2400.0, 1200.0, 800.0, 2000.0,
        950.0, 1100.0, 600.0,
    ];
    // About 0.007 × births, less spread than Poisson.
    let deaths = [
        3.0, 6.0, 10.0, 5.0, 22.0, 4.0, 13.0, 4.0, 17.0, 8.0, 6.0, 14.0, 7.0, 8.0, 4.0,
    ];
    let y = fit_year(2019, &deaths, &births, 1000.0, 0.95).unwrap();
    assert_eq!(y.fit.theta, 0.0);
    assert_eq!(y.fit.theta_ci[0], 0.0);
    close(y.fit.mean_per_birth, 0.007043010752688172, 1e-12, "mu");
    close(y.fit.theta_ci[1], 0.035071251954056276, 1e-5, "theta high");
    close(y.fit.log_likelihood, -29.102998802637043, 1e-12, "llf");
    assert_eq!(y.excess_variation.statistic, 0.0);
    assert_eq!(y.excess_variation.p_value, 1.0);
    assert_eq!(y.value(AdjustedMeasure::Gini), 0.0);
}

/// All 30 deaths in one of 20 areas of 500 births: scipy's profile is still above the cut-off
/// at θ = 9 (CV 3, the bound), so θ̂ is the bound, the lower limit is 6.2193 and the upper limit
/// is open.
fn at_bound() -> (Vec<f64>, Vec<f64>) {
    let births = vec![500.0; 20];
    let mut deaths = vec![0.0; 20];
    deaths[0] = 30.0;
    (deaths, births)
}

#[test]
fn at_the_search_bound_the_upper_limit_is_open_as_in_scipy() {
    let (deaths, births) = at_bound();
    let y = fit_year(2019, &deaths, &births, 1000.0, 0.95).unwrap();
    assert!(y.fit.upper_limit_at_bound);
    close(y.fit.theta, 9.0, 1e-6, "theta at the bound");
    close(y.fit.theta_ci[0], 6.219331885412808, 1e-5, "theta low");
    close(y.fit.mean_per_birth, 0.003000000000000002, 1e-9, "mu");
    close(y.fit.log_likelihood, -13.253993007748832, 1e-7, "llf");
    close(
        y.fit.log_likelihood_poisson,
        -92.49428310558523,
        1e-12,
        "llf poisson",
    );
    close(
        y.value(AdjustedMeasure::Gini),
        0.8723765805750682,
        1e-6,
        "gini",
    );
    let [low, high] = y.interval(AdjustedMeasure::Gini);
    close(low, 0.8283145915771966, 1e-5, "gini low");
    assert_eq!(
        high,
        f64::INFINITY,
        "an open upper limit, not a narrow interval"
    );
    let why = y.left_out_of_trend().expect("left out of the trend");
    assert_eq!(why, LeftOutOfTrend::UpperLimitOpen { max_cov: 3.0 });
    assert!(why.text(Lang::En).contains("no upper limit"));
    assert!(why.text(Lang::Es).contains("no tiene límite superior"));
}

/// In a panel, the at-bound year is out of the adjusted trend (three ordinary years remain) and
/// its JSON says why, with a `null` upper limit.
#[test]
fn the_at_bound_year_is_left_out_of_the_trend_with_its_reason() {
    let mut observations = Vec::new();
    for (t, year) in (2019..=2022).enumerate() {
        let (deaths, births): (Vec<f64>, Vec<f64>) = if year == 2021 {
            at_bound()
        } else {
            let births: Vec<f64> = BIRTHS.to_vec();
            let deaths = RATES
                .iter()
                .zip(&births)
                .map(|(r, b)| (r * b / 1000.0 * (1.0 + 0.05 * t as f64)).round())
                .collect();
            (deaths, births)
        };
        for (i, (d, b)) in deaths.into_iter().zip(births).enumerate() {
            observations.push(AreaObservation::new(format!("{i:02}"), year, d, b));
        }
    }
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 0,
            ..BootstrapSpec::default()
        },
    };
    let report = spec
        .analyse(&Subject::Rates(RateInput::per_1000(observations, false)))
        .unwrap()
        .report;
    let trend = report.trend_adjusted_of(AdjustedMeasure::Gini).unwrap();
    assert_eq!(trend.n_years, 3);
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let year = &json["years"][2];
    assert_eq!(year["time"], 2021);
    assert_eq!(year["adjusted_ci"]["gini"][1], serde_json::Value::Null);
    assert_eq!(
        year["adjusted_left_out_of_trend"]["reason"],
        "upper_limit_open"
    );
    assert!(json["years"][1].get("adjusted_left_out_of_trend").is_none());
}
