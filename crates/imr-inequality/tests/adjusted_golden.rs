//! The adjusted measures against reference software: an intercept-only NB2 model with births as
//! exposure fitted by statsmodels 0.15.0, its profile-likelihood interval found with scipy
//! 1.17.1 on statsmodels' log-likelihood, and the gamma measures from scipy.special/stats.
//! Script: `bench/adjusted/reference_nb.py` (its output is copied below).

use imr_inequality::adjusted::{fit_year, AdjustedMeasure};

const BIRTHS: [f64; 20] = [
    120.0, 400.0, 80.0, 900.0, 300.0, 60.0, 1500.0, 220.0, 45.0, 700.0, 3100.0, 150.0, 95.0, 510.0,
    260.0, 1800.0, 75.0, 640.0, 330.0, 2400.0,
];
const DEATHS: [f64; 20] = [
    0.0, 3.0, 1.0, 12.0, 2.0, 0.0, 6.0, 4.0, 1.0, 9.0, 14.0, 0.0, 2.0, 8.0, 1.0, 20.0, 0.0, 2.0,
    5.0, 11.0,
];

fn close(ours: f64, reference: f64, tol: f64, what: &str) {
    assert!(
        (ours - reference).abs() <= tol * reference.abs().max(1e-300),
        "{what}: ours {ours}, reference {reference}"
    );
}

#[test]
fn the_fit_matches_statsmodels_and_scipy() {
    let y = fit_year(2019, &DEATHS, &BIRTHS, 1000.0, 0.95).unwrap();
    close(y.fit.mean_per_birth, 0.008305980802520253, 1e-6, "mu");
    close(y.fit.theta, 0.16674123491797, 1e-5, "theta");
    close(y.fit.theta_ci[0], 0.02411757383550676, 1e-5, "theta low");
    close(y.fit.theta_ci[1], 0.5865363619595784, 1e-5, "theta high");
    close(y.fit.log_likelihood, -41.98528461749758, 1e-9, "llf");
    close(
        y.fit.log_likelihood_poisson,
        -45.49166596459349,
        1e-9,
        "llf poisson",
    );
    close(y.excess_variation.statistic, 7.012762694191821, 1e-6, "LR");
    close(y.excess_variation.p_value, 0.004046535023943787, 1e-5, "p");
    for (measure, reference, tol) in [
        (AdjustedMeasure::Gini, 0.22563430055636077, 1e-10),
        (AdjustedMeasure::TheilT, 0.08106008948735255, 1e-10),
        (AdjustedMeasure::Atkinson05, 0.04078248291815523, 1e-10),
        (AdjustedMeasure::P90P10, 2.9433225841498967, 1e-9),
        (AdjustedMeasure::VarLog, 0.18141098160030839, 1e-9),
    ] {
        let ours = AdjustedMeasure::of_theta(measure, 0.16674123491797);
        close(ours, reference, tol, measure.key());
    }
    close(y.mean_rate, 8.305980802520253, 1e-6, "mean rate");
}
