//! Exact (Garwood) confidence interval for a Poisson count.
//!
//! # Formula
//! For an observed count `k` and confidence level `1 − α`:
//!
//! * lower = χ²(α/2; 2k) / 2, and 0 when k = 0,
//! * upper = χ²(1 − α/2; 2k + 2) / 2,
//!
//! where χ²(q; ν) is the q-quantile of the chi-squared distribution with ν degrees of freedom.
//! A rate's interval is the count's interval divided by the exposure.
//!
//! Reference: Garwood, F. (1936) "Fiducial limits for the Poisson distribution",
//! *Biometrika* 28(3/4):437–442; Ulm, K. (1990) *Am J Epidemiol* 131(2):373–375.
//! The chi-squared form accepts a non-integer `k` (used when deaths are derived from a published
//! rate); the interval is then approximate and the caller must say so.
//!
//! statrs 0.18's chi-squared `inverse_cdf` returns NaN below about 1.2 degrees of freedom
//! (k < 0.6, which derived deaths of small communes reach). There the lower limit L is solved
//! from P(k, L) = α/2, P the regularised lower incomplete gamma function (F_χ²(2L; 2k) = P(k, L)),
//! by bisection on ln L with the series P(a, z) = z^a e^(−z) / Γ(a + 1) · Σ_j z^j / ((a + 1)…(a + j)),
//! which converges fast for L ≤ k < 1.
//!
//! Above [`EXACT_LIMIT`] events statrs is not usable: its chi-squared quantile returns NaN
//! (ν = 600,002 already), loses accuracy (k = 10⁸), and panics inside its gamma function near
//! f64::MAX (`1e308` deaths). There both limits use the Wilson–Hilferty approximation
//! χ²(q; ν) ≈ ν (1 − 2/(9ν) + z_q √(2/(9ν)))³ (Wilson, E. B. & Hilferty, M. M. (1931) "The
//! distribution of chi-square", *PNAS* 17(12):684–688), written in terms of k = ν/2 so that it
//! cannot overflow: lower = k (1 − 1/(9k) + z_{α/2} √(1/(9k)))³, upper the same with k + 1 and
//! z_{1−α/2}. Its relative error at k = 10⁴ is below 10⁻⁷ (see the tests, against SciPy).

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

/// The largest count whose limits come from statrs' chi-squared quantile; larger counts use the
/// Wilson–Hilferty approximation (module documentation).
pub const EXACT_LIMIT: f64 = 1e4;

/// An interval for a Poisson mean, in the same unit as the count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoissonInterval {
    pub lower: f64,
    pub upper: f64,
}

/// Exact Garwood interval for a Poisson count `events` at confidence `level` (e.g. 0.95).
///
/// Returns `None` when `events` is negative or not finite, or `level` is not in (0, 1); never
/// panics and never returns a NaN limit for any `f64` input.
pub fn poisson_exact_interval(events: f64, level: f64) -> Option<PoissonInterval> {
    if !events.is_finite() || events < 0.0 || !(level > 0.0 && level < 1.0) {
        return None;
    }
    let alpha = 1.0 - level;
    if events > EXACT_LIMIT {
        let z = |q: f64| Normal::new(0.0, 1.0).ok().map(|n| n.inverse_cdf(q));
        let wilson_hilferty = |k: f64, z: f64| {
            let c = 1.0 / (9.0 * k);
            k * (1.0 - c + z * c.sqrt()).powi(3)
        };
        let lower = wilson_hilferty(events, z(alpha / 2.0)?);
        let upper = wilson_hilferty(events + 1.0, z(1.0 - alpha / 2.0)?);
        return (lower.is_finite() && upper.is_finite())
            .then_some(PoissonInterval { lower, upper });
    }
    let lower = if events == 0.0 {
        0.0
    } else if events < SMALL_COUNT {
        // statrs gives NaN here, and for tiny counts (1.7e-52 deaths, as a file in scientific
        // notation can say) its gamma function panics on an internal unwrap (found by imr-fuzz).
        lower_limit_small_count(events, alpha / 2.0)
    } else {
        let direct = ChiSquared::new(2.0 * events).ok()?.inverse_cdf(alpha / 2.0) / 2.0;
        if direct.is_finite() {
            direct
        } else {
            lower_limit_small_count(events, alpha / 2.0)
        }
    };
    let upper = ChiSquared::new(2.0 * events + 2.0)
        .ok()?
        .inverse_cdf(1.0 - alpha / 2.0)
        / 2.0;
    (lower.is_finite() && upper.is_finite()).then_some(PoissonInterval { lower, upper })
}

/// Below this count the lower limit is always solved by [`lower_limit_small_count`], never by
/// statrs (whose chi-squared quantile is NaN below about 1.2 degrees of freedom).
const SMALL_COUNT: f64 = 0.5;

/// Lower limit L with P(k, L) = `tail` for a count k < 1, by bisection on ln L.
fn lower_limit_small_count(events: f64, tail: f64) -> f64 {
    let ln_target = tail.ln();
    let (mut lo, mut hi) = (-700.0f64, events.ln());
    if ln_lower_gamma_series(events, lo) >= ln_target {
        return 0.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if ln_lower_gamma_series(events, mid) < ln_target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-13 {
            break;
        }
    }
    (0.5 * (lo + hi)).exp()
}

/// ln P(a, z) for z = e^ln_z by the series in the module documentation (for z < a + 1).
fn ln_lower_gamma_series(a: f64, ln_z: f64) -> f64 {
    let z = ln_z.exp();
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    for j in 1..500 {
        term *= z / (a + j as f64);
        sum += term;
        if term < 1e-17 * sum {
            break;
        }
    }
    a * ln_z - z - statrs::function::gamma::ln_gamma(a + 1.0) + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Exact 95% limits. The 3-decimal values are published (Ulm 1990, Table 1: k = 0 → [0, 3.689],
    /// k = 1 → [0.0253, 5.572], k = 10 → [4.795, 18.390]); the 6-decimal values below were computed
    /// with SciPy 1.17.1 as `chi2.ppf(0.025, 2k)/2`, `chi2.ppf(0.975, 2k+2)/2`.
    #[test]
    fn garwood_matches_published_limits() {
        let cases = [
            (0.0, 0.0, 3.688879),
            (1.0, 0.025318, 5.571643),
            (5.0, 1.623486, 11.668332),
            (10.0, 4.795389, 18.390356),
            (100.0, 81.363991, 121.626794),
        ];
        for (k, lo, hi) in cases {
            let ci = poisson_exact_interval(k, 0.95).unwrap();
            assert!(
                close(ci.lower, lo, 1e-4),
                "k={k}: lower {} vs {lo}",
                ci.lower
            );
            assert!(
                close(ci.upper, hi, 1e-4),
                "k={k}: upper {} vs {hi}",
                ci.upper
            );
        }
    }

    #[test]
    fn zero_events_upper_limit_is_minus_log_of_alpha_half() {
        let ci = poisson_exact_interval(0.0, 0.95).unwrap();
        assert!(close(ci.upper, -(0.025f64).ln(), 1e-6));
    }

    /// Derived deaths below one: 0.5 events at 99.8% gives lower = χ²(0.001; 1)/2 = 7.8539857e-7
    /// (SciPy 1.17.1 `chi2.ppf(0.001, 1)/2`); 0.3 events at 95% gives χ²(0.025; 0.6)/2 =
    /// 3.1856790e-6 (SciPy `chi2.ppf(0.025, 0.6)/2`).
    #[test]
    fn fractional_counts_below_one_have_a_finite_lower_limit() {
        let ci = poisson_exact_interval(0.5, 0.998).unwrap();
        assert!((ci.lower / 7.8539857e-7 - 1.0).abs() < 1e-6, "{}", ci.lower);
        let ci = poisson_exact_interval(0.3, 0.95).unwrap();
        assert!((ci.lower / 3.1856790e-6 - 1.0).abs() < 1e-6, "{}", ci.lower);
    }

    /// Regression (imr-fuzz csv, seed 2): a death count of 1.712078436289678e-52 (a file's
    /// `1.712078436289678e-052`) panicked inside statrs' gamma function (`XInvalid`).
    #[test]
    fn tiny_fractional_counts_do_not_panic_and_have_a_zero_lower_limit() {
        for events in [
            1.712078436289678e-52,
            1e-300,
            f64::MIN_POSITIVE,
            1e-12,
            0.1,
            0.49,
        ] {
            let ci = poisson_exact_interval(events, 0.95).expect("an interval");
            assert!(ci.lower >= 0.0 && ci.lower <= events, "{events}: {ci:?}");
            assert!(
                ci.upper.is_finite() && ci.upper > events,
                "{events}: {ci:?}"
            );
        }
    }

    #[test]
    fn rejects_negative_counts_and_bad_levels() {
        assert!(poisson_exact_interval(-1.0, 0.95).is_none());
        assert!(poisson_exact_interval(f64::NAN, 0.95).is_none());
        assert!(poisson_exact_interval(3.0, 1.0).is_none());
    }

    proptest::proptest! {
        #[test]
        fn interval_contains_the_count(k in 0u32..5000) {
            let ci = poisson_exact_interval(k as f64, 0.95).unwrap();
            proptest::prop_assert!(ci.lower <= k as f64 && (k as f64) <= ci.upper);
        }

        /// Any finite non-negative count, up to f64::MAX, gives finite limits around it (the
        /// issue's `1e308` deaths panicked inside statrs).
        #[test]
        fn any_count_gives_finite_limits_around_it(
            events in proptest::num::f64::POSITIVE | proptest::num::f64::ZERO,
            level in 0.5f64..0.999,
        ) {
            let ci = poisson_exact_interval(events, level).unwrap();
            proptest::prop_assert!(ci.lower.is_finite() && ci.upper.is_finite());
            proptest::prop_assert!(ci.lower <= events && events <= ci.upper, "{events}: {ci:?}");
        }
    }

    /// Counts above [`EXACT_LIMIT`] (Wilson–Hilferty) against SciPy 1.17.1
    /// `chi2.ppf(0.025, 2k)/2`, `chi2.ppf(0.975, 2k+2)/2`, printed by
    /// crates/imr-stats/tests/reference/garwood_large.py; relative error below 1e-7 (1.6e-8 at k = 10,001).
    #[test]
    fn large_counts_match_scipy() {
        let cases = [
            (10001.0, 9.8059426676e+03, 1.0198961424e+04),
            (50000.0, 4.9562686650e+04, 5.0440212035e+04),
            (1000000.0, 9.9804098334e+05, 1.0019619119e+06),
            (123456789.0, 1.2343501257e+08, 1.2347856832e+08),
            (1e12, 9.9999804004e+11, 1.0000019600e+12),
        ];
        for (k, lo, hi) in cases {
            let ci = poisson_exact_interval(k, 0.95).unwrap();
            assert!(
                (ci.lower / lo - 1.0).abs() < 1e-7,
                "k={k}: {} vs {lo}",
                ci.lower
            );
            assert!(
                (ci.upper / hi - 1.0).abs() < 1e-7,
                "k={k}: {} vs {hi}",
                ci.upper
            );
        }
    }

    #[test]
    fn counts_near_f64_max_do_not_panic() {
        for k in [1e308, f64::MAX, 1e300, 1e16, 1e9, 3e5, 10_000.5] {
            let ci = poisson_exact_interval(k, 0.95).unwrap();
            assert!(ci.lower.is_finite() && ci.upper.is_finite(), "{k}");
            assert!(ci.lower <= k && k <= ci.upper, "{k}: {ci:?}");
        }
        assert!(poisson_exact_interval(f64::INFINITY, 0.95).is_none());
    }
}
