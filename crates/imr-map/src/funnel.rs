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

use crate::smoothing::{SmoothError, PER};

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

/// Limits around `rate_per_1000` for `births` births; `None` if births ≤ 0.
pub fn funnel_limits(rate_per_1000: f64, births: f64) -> Option<FunnelLimits> {
    if births.is_nan() || births <= 0.0 || rate_per_1000.is_nan() || rate_per_1000 < 0.0 {
        return None;
    }
    let expected = rate_per_1000 / PER * births;
    let i95 = poisson_exact_interval(expected, 0.95)?;
    let i998 = poisson_exact_interval(expected, 0.998)?;
    let per = |count: f64| PER * count / births;
    Some(FunnelLimits {
        births,
        lower95: per(i95.lower),
        upper95: per(i95.upper),
        lower998: per(i998.lower),
        upper998: per(i998.upper),
    })
}

/// Where an observed count falls, by the exact Poisson test against λ expected deaths:
/// above at level 1 − α when P(X ≥ O) = P(O, λ) < α/2, below when P(X ≤ O) = Q(O + 1, λ) < α/2
/// (P, Q the regularised lower and upper incomplete gamma functions, which also serve a
/// non-integer O). Unlike comparing with the continuous curves, a zero count is flagged low only
/// when e^(−λ) < α/2, since no smaller count is possible.
fn exact_position(observed: f64, expected: f64) -> FunnelPosition {
    use statrs::function::gamma::{gamma_lr, gamma_ur};
    if expected.is_nan() || expected <= 0.0 {
        return FunnelPosition::Within;
    }
    let p_high = if observed > 0.0 {
        gamma_lr(observed, expected)
    } else {
        1.0
    };
    let p_low = gamma_ur(observed + 1.0, expected);
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
