//! Funnel plot: each area's rate against its number of births, with control limits around the
//! national rate that narrow as births grow (Spiegelhalter 2005, "Funnel plots for comparing
//! institutional performance", *Statistics in Medicine* 24:1185–1202).
//!
//! # Formula
//! With θ the national rate (ΣO/ΣP) and n births, the expected count is λ = θ n. The limits of the
//! count at level 1 − α are the exact Poisson (Garwood) limits of λ
//! (`imr_stats::poisson_exact_interval`): lower = χ²(α/2; 2λ)/2, upper = χ²(1 − α/2; 2λ + 2)/2,
//! the continuous form used by Public Health England's funnel plot tools; the rate limits are
//! 1000 · limit / n. Levels 95% (≈ 2 SD) and 99.8% (≈ 3 SD) as Spiegelhalter recommends.

use imr_stats::poisson_exact_interval;

use crate::smoothing::{SmoothError, MAX_FUNNEL_COUNT, PER};

/// Control limits at one number of births, per 1,000.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FunnelLimits {
    pub births: f64,
    pub lower95: f64,
    pub upper95: f64,
    pub lower998: f64,
    pub upper998: f64,
}

/// Where an area falls relative to the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunnelPosition {
    Within,
    /// Above the 95% limit but not the 99.8% one.
    Above95,
    Above998,
    Below95,
    Below998,
}

impl FunnelPosition {
    pub fn as_str(self) -> &'static str {
        match self {
            FunnelPosition::Within => "within",
            FunnelPosition::Above95 => "above-95",
            FunnelPosition::Above998 => "above-99.8",
            FunnelPosition::Below95 => "below-95",
            FunnelPosition::Below998 => "below-99.8",
        }
    }
}

/// One area on the funnel plot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FunnelPoint {
    /// Index of the area.
    pub area: usize,
    pub births: f64,
    pub rate_per_1000: f64,
    pub position: FunnelPosition,
}

/// A funnel plot's data: national rate, the limit curves and the areas.
#[derive(Debug, Clone, PartialEq)]
pub struct Funnel {
    pub national_rate_per_1000: f64,
    /// Limits on a logarithmic grid of births from the smallest to the largest area.
    pub curve: Vec<FunnelLimits>,
    pub points: Vec<FunnelPoint>,
}

/// Limits around `rate_per_1000` for `births` births; `None` if births ≤ 0, the expected count
/// λ is not finite or exceeds [`MAX_FUNNEL_COUNT`], or a limit is not finite.
pub fn funnel_limits(rate_per_1000: f64, births: f64) -> Option<FunnelLimits> {
    if !births.is_finite() || births <= 0.0 || !rate_per_1000.is_finite() || rate_per_1000 < 0.0 {
        return None;
    }
    let expected = rate_per_1000 / PER * births;
    if !expected.is_finite() || expected > MAX_FUNNEL_COUNT {
        return None;
    }
    let i95 = poisson_exact_interval(expected, 0.95)?;
    let i998 = poisson_exact_interval(expected, 0.998)?;
    let per = |count: f64| PER * count / births;
    let limits = FunnelLimits {
        births,
        lower95: per(i95.lower),
        upper95: per(i95.upper),
        lower998: per(i998.lower),
        upper998: per(i998.upper),
    };
    [
        limits.lower95,
        limits.upper95,
        limits.lower998,
        limits.upper998,
    ]
    .iter()
    .all(|l| l.is_finite())
    .then_some(limits)
}

/// Where an observed count falls, by the exact Poisson test against λ expected deaths:
/// above at level 1 − α when P(X ≥ O) = P(O, λ) < α/2, below when P(X ≤ O) = Q(O + 1, λ) < α/2
/// (P, Q the regularised lower and upper incomplete gamma functions, which also serve a
/// non-integer O). Unlike comparing with the continuous curves, a zero count is flagged low only
/// when e^(−λ) < α/2, since no smaller count is possible.
///
/// Only called with finite counts of at most [`MAX_FUNNEL_COUNT`] ([`funnel`] checks the totals);
/// the checked gamma functions keep any other input from panicking (an invalid argument gives
/// "within").
fn exact_position(observed: f64, expected: f64) -> FunnelPosition {
    use statrs::function::gamma::{checked_gamma_lr, checked_gamma_ur};
    if !expected.is_finite() || expected <= 0.0 || !observed.is_finite() || observed < 0.0 {
        return FunnelPosition::Within;
    }
    let p_high = if observed > 0.0 {
        checked_gamma_lr(observed, expected).unwrap_or(1.0)
    } else {
        1.0
    };
    let p_low = checked_gamma_ur(observed + 1.0, expected).unwrap_or(1.0);
    if p_high < 0.001 {
        FunnelPosition::Above998
    } else if p_high < 0.025 {
        FunnelPosition::Above95
    } else if p_low < 0.001 {
        FunnelPosition::Below998
    } else if p_low < 0.025 {
        FunnelPosition::Below95
    } else {
        FunnelPosition::Within
    }
}

/// Builds the funnel plot of areas with deaths and births (births > 0); `grid` points on the curve.
pub fn funnel(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
    grid: usize,
) -> Result<Funnel, SmoothError> {
    let rates = crate::smoothing::raw_rates(deaths, births)?;
    let (mut sum_o, mut sum_p) = (0.0, 0.0);
    let mut points = Vec::new();
    for (area, rate) in rates.iter().enumerate() {
        if let (Some(r), Some(o), Some(p)) = (rate, deaths[area], births[area]) {
            sum_o += o;
            sum_p += p;
            points.push(FunnelPoint {
                area,
                births: p,
                rate_per_1000: *r,
                position: FunnelPosition::Within,
            });
        }
    }
    if points.is_empty() {
        return Err(SmoothError::NoUsableArea);
    }
    // Every λ = θ·n ≤ ΣO and every observed count ≤ ΣO, so bounding the totals bounds the work of
    // the exact tests (statrs does not finish near 10²⁰).
    if !(sum_o.is_finite() && sum_p.is_finite())
        || sum_o > MAX_FUNNEL_COUNT
        || sum_p > MAX_FUNNEL_COUNT
    {
        return Err(SmoothError::CountsBeyondFunnel {
            deaths: format!("{sum_o:e}"),
            births: format!("{sum_p:e}"),
            limit: format!("{MAX_FUNNEL_COUNT:e}"),
        });
    }
    let theta = PER * sum_o / sum_p;
    for point in &mut points {
        let deaths_here = point.rate_per_1000 * point.births / PER;
        point.position = exact_position(deaths_here, theta / PER * point.births);
    }
    let min_b = points
        .iter()
        .map(|p| p.births)
        .fold(f64::INFINITY, f64::min)
        .max(1.0);
    let max_b = points
        .iter()
        .map(|p| p.births)
        .fold(0.0, f64::max)
        .max(min_b * 1.0001);
    let steps = grid.max(2);
    let curve = (0..steps)
        .filter_map(|s| {
            let t = s as f64 / (steps - 1) as f64;
            funnel_limits(theta, (min_b.ln() + t * (max_b.ln() - min_b.ln())).exp())
        })
        .collect();
    Ok(Funnel {
        national_rate_per_1000: theta,
        curve,
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At 10 expected deaths (rate 10 per 1,000, 1,000 births) the 95% limits are the Garwood
    /// limits of 10, [4.795389, 18.390356] (Ulm 1990; SciPy chi2.ppf), i.e. [4.795, 18.390] per 1,000.
    #[test]
    fn limits_at_ten_expected_deaths_are_the_garwood_limits_of_ten() {
        let l = funnel_limits(10.0, 1000.0).unwrap();
        assert!(
            (l.lower95 - 4.795389).abs() < 1e-4 && (l.upper95 - 18.390356).abs() < 1e-4,
            "{l:?}"
        );
        assert!(l.lower998 < l.lower95 && l.upper998 > l.upper95);
    }

    /// Regression: expected counts below ≈ 0.6 gave a NaN lower limit (statrs inverse_cdf with
    /// under 1.2 degrees of freedom), drawn as a vertical line on the funnel plot. Fixed in
    /// `imr_stats::poisson_exact_interval`, which the funnel uses unchanged.
    #[test]
    fn lower_limits_exist_for_tiny_expected_counts_and_agree_with_the_closed_form_elsewhere() {
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
}

/// Counts near f64::MAX (`1e308` deaths once panicked inside statrs) and beyond the stated
/// funnel limit are errors; tiny births that make a rate infinite are errors naming the area.
#[cfg(test)]
mod hostile_counts {
    use super::*;
    use crate::smoothing::{excess_risk, global_eb, raw_rates, spatial_eb};
    use crate::weights::Weights;

    const CASES: [(f64, f64); 6] = [
        (1e308, 1.0),
        (1e308, 1e308),
        (f64::MAX, 2.0),
        (1.0, f64::MAX),
        (1e300, 1e-300),
        (1e20, 1e21),
    ];

    #[test]
    fn huge_counts_are_errors_of_the_funnel_not_panics_or_hangs() {
        for (d, b) in CASES {
            let deaths = [Some(d), Some(3.0)];
            let births = [Some(b), Some(1000.0)];
            let err = funnel(&deaths, &births, 10).unwrap_err();
            assert!(
                matches!(
                    err,
                    SmoothError::CountsBeyondFunnel { .. } | SmoothError::RateNotFinite { area: 0 }
                ),
                "{d} {b}: {err:?}"
            );
        }
        let err = funnel(&[Some(1e300)], &[Some(1e301)], 10).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the funnel plot needs total deaths and births of at most 1e12 (found 1e300 deaths, \
             1e301 births)"
        );
        // Just under the limit the funnel is drawn, and its curve has only finite points.
        let f = funnel(&[Some(7e8), Some(7.0)], &[Some(1e11), Some(1000.0)], 20).unwrap();
        assert!(f
            .curve
            .iter()
            .all(|l| l.lower95.is_finite() && l.upper998.is_finite()));
        assert_eq!(funnel_limits(7.0, f64::INFINITY), None);
        assert_eq!(funnel_limits(f64::MAX, 1e300), None);
        assert_eq!(exact_position(f64::INFINITY, 1.0), FunnelPosition::Within);
    }

    #[test]
    fn smoothing_reports_overflowing_rates_instead_of_returning_nan() {
        let w = Weights::from_lists(vec![vec![1], vec![0]]).unwrap();
        for (d, b) in CASES {
            let deaths = [Some(d), Some(3.0)];
            let births = [Some(b), Some(1000.0)];
            let results = [
                raw_rates(&deaths, &births).map(|_| ()),
                global_eb(&deaths, &births).map(|_| ()),
                spatial_eb(&deaths, &births, &w).map(|_| ()),
                excess_risk(&deaths, &births).map(|_| ()),
            ];
            for r in results {
                match r {
                    Ok(()) => {}
                    Err(SmoothError::RateNotFinite { area }) => assert!(area < 2),
                    Err(e) => panic!("{d} {b}: {e:?}"),
                }
            }
            // Whatever is returned is finite.
            if let Ok(g) = global_eb(&deaths, &births) {
                assert!(g.rates.iter().flatten().all(|r| r.is_finite()), "{d} {b}");
            }
            if let Ok(s) = spatial_eb(&deaths, &births, &w) {
                assert!(s.iter().flatten().all(|r| r.is_finite()), "{d} {b}");
            }
        }
        assert_eq!(
            raw_rates(&[Some(5.0)], &[Some(1e-306)]).unwrap_err(),
            SmoothError::RateNotFinite { area: 0 }
        );
    }
}
