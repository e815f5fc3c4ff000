//! Inequality measures of a gamma distribution of true rates, as functions of its squared
//! coefficient of variation θ (shape k = 1/θ). None depends on the mean (they are scale-free),
//! and each increases with θ, so the interval of θ maps to an interval of every measure.
//!
//! # Formulas (X ~ Gamma(k, ·), k = 1/θ; θ = 0 gives 0 for every measure and 1 for p90/p10)
//! * Gini = Γ(k + ½) / (√π Γ(k + 1)) (Kleiber & Kotz 2003, §5.3; McDonald & Jensen 1979);
//! * Theil T = E[(X/μ) ln(X/μ)] = ψ(k + 1) − ln k, ψ the digamma function;
//! * CoV = √θ;
//! * Atkinson (ε = ½) = 1 − (E√X)² / μ = 1 − Γ(k + ½)² / (k Γ(k)²) (Atkinson 1970);
//! * p90/p10 = F⁻¹(0.9) / F⁻¹(0.1), F the gamma distribution function;
//! * variance of ln X = ψ′(k), the trigamma function (Johnson, Kotz & Balakrishnan 1994, ch. 17);
//! * SCV (McPherson et al. 1982) = 100 θ: the variance of the true rates over their squared
//!   mean, in McPherson's units (× 100). McPherson's own moment estimator from the counts is
//!   [`scv_moment`].
//!
//! For large k the differences of ln Γ and of ψ cancel; there the asymptotic expansions
//! ln Γ(k + ½) − ln Γ(k) = ½ ln k − 1/(8k) + 1/(192k³) and ψ(k + 1) − ln k = 1/(2k) − 1/(12k²) +
//! 1/(120k⁴) (Abramowitz & Stegun 1964, 6.1.47 and 6.3.18) are used (k > 10⁴ and k > 50).
//! The trigamma function is hand-written (statrs has digamma but not trigamma): the recurrence
//! ψ′(x) = ψ′(x + 1) + 1/x² up to x ≥ 10, then the asymptotic series (A&S 6.4.12).
//!
//! References: Kleiber, C. & Kotz, S. (2003) *Statistical Size Distributions in Economics and
//! Actuarial Sciences*, Wiley. Atkinson, A. B. (1970) "On the measurement of inequality",
//! *J. Economic Theory* 2:244–263. McPherson, K., Wennberg, J. E., Hovind, O. B. & Clifford, P.
//! (1982) "Small-area variations in the use of common surgical procedures: an international
//! comparison of New England, England, and Norway", *NEJM* 307:1310–1314. Abramowitz, M. &
//! Stegun, I. A. (1964) *Handbook of Mathematical Functions*, NBS.

use statrs::function::gamma::{digamma, gamma_lr, ln_gamma};

/// Below this θ the distribution is treated as a point mass (every measure at its minimum).
const THETA_ZERO: f64 = 1e-12;

/// ln Γ(k + ½) − ln Γ(k).
fn ln_gamma_half_step(k: f64) -> f64 {
    if k > 1e4 {
        0.5 * k.ln() - 1.0 / (8.0 * k) + 1.0 / (192.0 * k * k * k)
    } else {
        ln_gamma(k + 0.5) - ln_gamma(k)
    }
}

pub fn gini(theta: f64) -> f64 {
    if theta < THETA_ZERO {
        return 0.0;
    }
    let k = 1.0 / theta;
    (ln_gamma_half_step(k) - k.ln()).exp() / std::f64::consts::PI.sqrt()
}

pub fn theil_t(theta: f64) -> f64 {
    if theta < THETA_ZERO {
        return 0.0;
    }
    let k = 1.0 / theta;
    if k > 50.0 {
        let k2 = k * k;
        1.0 / (2.0 * k) - 1.0 / (12.0 * k2) + 1.0 / (120.0 * k2 * k2)
    } else {
        digamma(k + 1.0) - k.ln()
    }
}

pub fn cov(theta: f64) -> f64 {
    theta.max(0.0).sqrt()
}

pub fn atkinson_half(theta: f64) -> f64 {
    if theta < THETA_ZERO {
        return 0.0;
    }
    let k = 1.0 / theta;
    -(2.0 * ln_gamma_half_step(k) - k.ln()).exp_m1()
}

pub fn p90_p10(theta: f64) -> f64 {
    if theta < 1e-8 {
        // Normal limit: (1 + z√θ)/(1 − z√θ) → 1.
        let z = 1.281_551_565_544_600_5 * theta.max(0.0).sqrt();
        return (1.0 + z) / (1.0 - z);
    }
    let k = 1.0 / theta;
    gamma_quantile(k, 0.9) / gamma_quantile(k, 0.1)
}

/// The p-quantile of Gamma(shape k, rate k) (mean 1), by bisection of ln x on the regularized
/// lower incomplete gamma function P(k, kx) to 1e-12 relative precision. (statrs' generic
/// inverse stops after 8 bisections and 4 Newton steps, too coarse for very small shapes.)
fn gamma_quantile(k: f64, p: f64) -> f64 {
    let cdf = |x: f64| gamma_lr(k, k * x);
    let (mut lo, mut hi) = (1.0f64, 1.0f64);
    while cdf(lo) > p && lo > 1e-300 {
        lo /= 16.0;
    }
    while cdf(hi) < p && hi < 1e300 {
        hi *= 16.0;
    }
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi / lo - 1.0 < 1e-12 {
            break;
        }
    }
    (lo * hi).sqrt()
}

/// ψ′(x), x > 0.
pub fn trigamma(mut x: f64) -> f64 {
    let mut acc = 0.0;
    while x < 10.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    acc + inv + inv2 / 2.0 + inv * inv2 * (1.0 / 6.0 - inv2 * (1.0 / 30.0 - inv2 / 42.0))
}

pub fn var_log(theta: f64) -> f64 {
    if theta < THETA_ZERO {
        return 0.0;
    }
    trigamma(1.0 / theta)
}

pub fn scv(theta: f64) -> f64 {
    100.0 * theta.max(0.0)
}

/// McPherson et al.'s (1982) moment estimator of the systematic component of variation from
/// the counts, × 100: SCV = 100 · (1/n) Σ_i [(y_i − E_i)² / E_i² − 1/E_i], with E_i = b_i Σy/Σb
/// the deaths expected at the overall rate. `None` when there are no areas or no deaths.
pub fn scv_moment(deaths: &[f64], births: &[f64]) -> Option<f64> {
    let total_deaths: f64 = deaths.iter().sum();
    let total_births: f64 = births.iter().sum();
    if deaths.is_empty() || total_deaths <= 0.0 || total_births <= 0.0 {
        return None;
    }
    let rate = total_deaths / total_births;
    let sum: f64 = deaths
        .iter()
        .zip(births)
        .map(|(&y, &b)| {
            let e = b * rate;
            (y - e).powi(2) / (e * e) - 1.0 / e
        })
        .sum();
    Some(100.0 * sum / deaths.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exponential_distribution_has_known_measures() {
        // k = 1: Gini ½, Theil 1 − γ, Atkinson 1 − π/4, var log π²/6.
        assert!((gini(1.0) - 0.5).abs() < 1e-12);
        assert!((theil_t(1.0) - (1.0 - 0.577_215_664_901_532_9)).abs() < 1e-12);
        assert!((atkinson_half(1.0) - (1.0 - std::f64::consts::PI / 4.0)).abs() < 1e-12);
        assert!((var_log(1.0) - std::f64::consts::PI.powi(2) / 6.0).abs() < 1e-10);
        // F⁻¹(p) = −ln(1 − p).
        assert!((p90_p10(1.0) - 10f64.ln() / (1.0f64 / 0.9).ln()).abs() < 1e-6);
    }

    #[test]
    fn the_asymptotic_branches_join_the_exact_ones() {
        for k in [50.0, 1e4] {
            let theta = 1.0 / k;
            let exact_theil = digamma(k + 1.0) - k.ln();
            assert!((theil_t(theta * 0.999_999) / exact_theil - 1.0).abs() < 1e-5);
            let exact_step = ln_gamma(k + 0.5) - ln_gamma(k);
            assert!((ln_gamma_half_step(k) - exact_step).abs() < 1e-9);
        }
        // Small θ: Gini ≈ √(θ/π), Theil ≈ θ/2, Atkinson ≈ θ/4, var log ≈ θ.
        let theta = 1e-6;
        assert!((gini(theta) / (theta / std::f64::consts::PI).sqrt() - 1.0).abs() < 1e-5);
        assert!((theil_t(theta) / (theta / 2.0) - 1.0).abs() < 1e-5);
        assert!((atkinson_half(theta) / (theta / 4.0) - 1.0).abs() < 1e-5);
        assert!((var_log(theta) / theta - 1.0).abs() < 1e-5);
    }

    #[test]
    fn every_measure_increases_with_theta() {
        let thetas = [0.0, 1e-4, 0.01, 0.09, 0.25, 1.0, 4.0, 9.0];
        for f in [gini, theil_t, cov, atkinson_half, p90_p10, var_log, scv] {
            for w in thetas.windows(2) {
                assert!(f(w[1]) > f(w[0]), "{} {}", w[0], w[1]);
            }
        }
    }
}
