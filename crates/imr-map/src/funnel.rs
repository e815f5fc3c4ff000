//! Funnel plot: each area's rate against its number of births, with control limits around the
//! national rate that narrow as births grow (Spiegelhalter 2005, "Funnel plots for comparing
//! institutional performance", *Statistics in Medicine* 24:1185–1202).
//!
//! # Formula
//! With θ the national rate (ΣO/ΣP) and n births, the expected count is λ = θ n. An area's
//! count O is tested exactly against Poisson(λ) (`exact_position`): above at level 1 − α when
//! P(X ≥ O) = P(O, λ) < α/2, below when P(X ≤ O) = Q(O + 1, λ) < α/2 (P, Q the regularised
//! incomplete gamma functions, continuous in O). The limits drawn are the counts at which those
//! tails reach α/2 — the solutions in O of P(O, λ) = α/2 and Q(O + 1, λ) = α/2 (0 when
//! e^(−λ) ≥ α/2: no count is low) — Spiegelhalter's exact Poisson limits with the count made
//! continuous, so that a point is coloured outside a limit exactly when it is drawn beyond it.
//! (The Garwood interval of λ, χ²(α/2; 2λ)/2 to χ²(1 − α/2; 2λ + 2)/2, drawn before, is an
//! interval for a mean, wider than the test's: a point could be red inside its curve.) The
//! rate limits are 1000 · limit / n; levels 95% (≈ 2 SD) and 99.8% (≈ 3 SD) as Spiegelhalter
//! recommends.

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
    let per = |count: f64| PER * count / births;
    let limits = FunnelLimits {
        births,
        lower95: per(count_limit(expected, 0.025, Tail::Low)?),
        upper95: per(count_limit(expected, 0.025, Tail::High)?),
        lower998: per(count_limit(expected, 0.001, Tail::Low)?),
        upper998: per(count_limit(expected, 0.001, Tail::High)?),
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

/// Which tail of the exact test a limit bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    Low,
    High,
}

/// The count O at which the exact Poisson test against λ = `expected` reaches `tail_p` in
/// `tail` (the module's formula), by bisection: P(O, λ) falls and Q(O + 1, λ) rises as O grows.
/// The low limit is 0 when e^(−λ) ≥ `tail_p` (a zero count is not low); `None` when λ ≤ 0 has no
/// high tail to bound or a gamma function fails.
fn count_limit(expected: f64, tail_p: f64, tail: Tail) -> Option<f64> {
    use statrs::function::gamma::{checked_gamma_lr, checked_gamma_ur};
    if !expected.is_finite() || expected < 0.0 {
        return None;
    }
    if expected == 0.0 {
        // No death is expected: any death is high, none is low.
        return Some(0.0);
    }
    // The tail's probability at a count o: it crosses `tail_p` once.
    let p = |o: f64| -> Option<f64> {
        match tail {
            Tail::High if o <= 0.0 => Some(1.0),
            Tail::High => checked_gamma_lr(o, expected).ok(),
            Tail::Low => checked_gamma_ur(o + 1.0, expected).ok(),
        }
    };
    if tail == Tail::Low && p(0.0)? >= tail_p {
        return Some(0.0);
    }
    // Beyond λ + 40√λ + 40 both tails are far below any level asked for.
    let (mut lo, mut hi) = (0.0, expected + 40.0 * expected.sqrt() + 40.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        let beyond = match tail {
            Tail::High => p(mid)? < tail_p,
            Tail::Low => p(mid)? >= tail_p,
        };
        if beyond {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi - lo <= 1e-10 * hi.max(1.0) {
            break;
        }
    }
    Some(0.5 * (lo + hi))
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
#[path = "funnel_tests.rs"]
mod tests;

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
