//! Tests of the funnel plot's limits and positions.

use super::*;

/// At 10 expected deaths (rate 10 per 1,000, 1,000 births) the 95% upper limit lies between 17
/// and 18 deaths: P(X ≥ 17) = 0.0270 and P(X ≥ 18) = 0.0143 for X ~ Poisson(10) (R:
/// ppois(16, 10, lower.tail = FALSE), ppois(17, …)), and the lower one between 4 and 5:
/// P(X ≤ 4) = 0.0293, P(X ≤ 3) = 0.0103 (ppois(4, 10), ppois(3, 10)). The Garwood interval of
/// 10, drawn before, reached 18.39, so that 18 deaths were coloured high inside the curve.
#[test]
fn limits_at_ten_expected_deaths_bracket_the_exact_tests_integers() {
    let l = funnel_limits(10.0, 1000.0).unwrap();
    assert!(17.0 < l.upper95 && l.upper95 < 18.0, "{l:?}");
    assert!(3.0 < l.lower95 && l.lower95 < 4.0, "{l:?}");
    assert!(l.lower998 < l.lower95 && l.upper998 > l.upper95);
}

/// A point is coloured beyond a limit exactly when it is drawn beyond it: for expected counts
/// from 0.05 to 2,000 and every count around them, the exact test's position is the one the
/// drawn limits give (a newcomer saw a commune red inside its 99.8% curve).
#[test]
fn every_position_agrees_with_the_drawn_limits() {
    for &expected in &[0.05, 0.2, 0.5, 1.0, 2.5, 7.0, 10.0, 33.3, 150.0, 2000.0] {
        let births = 1000.0;
        let l = funnel_limits(expected, births).unwrap();
        let hi = (expected + 10.0 * expected.sqrt() + 10.0) as u64;
        for observed in 0..=hi {
            let o = observed as f64;
            let drawn = if o > l.upper998 {
                FunnelPosition::Above998
            } else if o > l.upper95 {
                FunnelPosition::Above95
            } else if o < l.lower998 {
                FunnelPosition::Below998
            } else if o < l.lower95 {
                FunnelPosition::Below95
            } else {
                FunnelPosition::Within
            };
            assert_eq!(
                exact_position(o, expected),
                drawn,
                "{o} of {expected}: {l:?}"
            );
        }
    }
}

/// Regression: expected counts below ≈ 0.6 gave a NaN lower limit (statrs inverse_cdf with
/// under 1.2 degrees of freedom), drawn as a vertical line on the funnel plot. Fixed in
/// `imr_stats::poisson_exact_interval` (which the funnel then drew; these stay its tests).
#[test]
fn lower_limits_exist_for_tiny_expected_counts_and_agree_with_the_closed_form_elsewhere() {
    use imr_stats::poisson_exact_interval;
    for expected in [1e-4, 0.01, 0.05, 0.2, 0.33, 0.59] {
        let i = poisson_exact_interval(expected, 0.95).unwrap();
        assert!(
            i.lower.is_finite() && i.lower >= 0.0 && i.lower < expected,
            "{expected}: {i:?}"
        );
    }
    // λ = 0.5 is χ² with 1 degree of freedom, i.e. Z²: its q-quantile is Φ⁻¹((1 + q)/2)².
    // q = 0.025: 0.0009820691 (R qchisq(0.025, 1)); q = 0.001: 1.570796e-06 (qchisq(0.001, 1)).
    let i = poisson_exact_interval(0.5, 0.95).unwrap();
    assert!(
        (2.0 * i.lower - 0.0009820691).abs() < 1e-10,
        "{}",
        2.0 * i.lower
    );
    let i = poisson_exact_interval(0.5, 0.998).unwrap();
    assert!(
        (2.0 * i.lower / 1.570796e-06 - 1.0).abs() < 1e-6,
        "{}",
        2.0 * i.lower
    );
}

/// Zero deaths where 0.33 are expected: P(X = 0) = e^(−0.33) = 0.72, not low. Zero deaths where
/// 10 are expected: e^(−10) = 4.5e-5 < 0.001, below the 99.8% limit. 25 where 10 are expected:
/// P(X ≥ 25) = 5.6e-5, above the 99.8% limit; 16 of 10: P(X ≥ 16) = 0.049, within.
#[test]
fn positions_use_the_exact_poisson_test_so_zero_counts_are_not_flagged_by_default() {
    assert_eq!(exact_position(0.0, 0.33), FunnelPosition::Within);
    assert_eq!(exact_position(0.0, 10.0), FunnelPosition::Below998);
    assert_eq!(exact_position(25.0, 10.0), FunnelPosition::Above998);
    assert_eq!(exact_position(16.0, 10.0), FunnelPosition::Within);
    assert_eq!(exact_position(18.0, 10.0), FunnelPosition::Above95);
}

#[test]
fn the_funnel_narrows_as_births_grow() {
    let small = funnel_limits(7.0, 100.0).unwrap();
    let large = funnel_limits(7.0, 100_000.0).unwrap();
    assert!(large.upper95 - large.lower95 < small.upper95 - small.lower95);
    assert!(large.lower95 < 7.0 && 7.0 < large.upper95);
}

#[test]
fn a_large_area_with_a_high_rate_is_flagged_and_a_tiny_one_is_not() {
    // National rate ≈ 7; area 0 has 30 per 1,000 on 5,000 births; area 1 has 1 death in 20 births.
    let deaths = [Some(150.0), Some(1.0), Some(700.0)];
    let births = [Some(5000.0), Some(20.0), Some(110_000.0)];
    let f = funnel(&deaths, &births, 50).unwrap();
    assert_eq!(f.points[0].position, FunnelPosition::Above998);
    assert_eq!(f.points[1].position, FunnelPosition::Within);
    assert_eq!(f.curve.len(), 50);
    assert!((f.national_rate_per_1000 - 1000.0 * 851.0 / 115_020.0).abs() < 1e-9);
}
