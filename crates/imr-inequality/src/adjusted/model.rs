//! The Poisson–gamma (negative binomial) model of one year's counts, fitted by maximum likelihood
//! with births as exposure, its profile likelihood in the squared coefficient of variation of the
//! true rates, and the likelihood-ratio test of no true variation.
//!
//! # Model
//! Area i has births b_i and deaths y_i. Its true rate λ_i (deaths per birth) is drawn from a
//! gamma distribution with mean μ and squared coefficient of variation θ (shape k = 1/θ), and
//! y_i | λ_i ~ Poisson(b_i λ_i). Integrating λ_i out gives the negative binomial ("NB2") marginal
//! with mean b_i μ and variance b_i μ + θ (b_i μ)² (Greenwood & Yule 1920; Lawless 1987;
//! Clayton & Kaldor 1987 for disease rates over small areas). θ = 0 is the Poisson model: every
//! area has the same true rate and all the spread of the observed rates is noise.
//!
//! # Log-likelihood
//! With E_i = b_i μ, and for integer y_i,
//!
//! ℓ(μ, θ) = Σ_i [ Σ_{j=0}^{y_i−1} ln(1 + jθ) + y_i ln E_i − (y_i + 1/θ) ln(1 + θ E_i) − ln y_i! ],
//!
//! which is ln Γ(y + 1/θ) − ln Γ(1/θ) − ln y! + (1/θ) ln(1/(1 + θE)) + y ln(θE/(1 + θE)) rewritten
//! so that θ → 0 tends smoothly to the Poisson log-likelihood (the last term's (1/θ) ln(1 + θE)
//! → E). The inner sum is evaluated as g(y, θ) = ln Γ(y + 1/θ) − ln Γ(1/θ) + y ln θ
//! ([`ln_rising_scaled`]), in constant time and memory whatever the count. Deaths derived from
//! published rates are not integers: g and ln Γ(y + 1) extend to them unchanged, a
//! quasi-likelihood, so the results are approximate there.
//!
//! # Fit
//! For a fixed θ the score in μ is Σ (y_i − b_i μ) / (μ (1 + θ b_i μ)) = 0, solved by the
//! fixed-point iteration μ ← Σ w_i y_i / Σ w_i b_i with w_i = 1/(1 + θ b_i μ) (iteratively
//! reweighted; it is exact at θ = 0, μ = Σy/Σb). The profile log-likelihood ℓ_p(θ) = max_μ ℓ(μ, θ)
//! is maximised over s = √θ ∈ [0, 3] (true CV up to 3) by a grid of 25 points refined by golden
//! section. The profile-likelihood interval of θ at level 1 − α is {θ : 2(ℓ_p(θ̂) − ℓ_p(θ)) ≤
//! χ²_{1, 1−α}} (Venzon & Moolgavkar 1988), its limits found by bisection; when ℓ_p(0) is inside,
//! the lower limit is 0.
//!
//! The 1-D optimiser and root finder are hand-written (golden section and bisection, a few lines
//! each): the general crates (argmin) would add a large dependency tree to the page's wasm for
//! two scalar searches.
//!
//! # Test of excess variation
//! T = 2(ℓ_p(θ̂) − ℓ_p(0)). Under θ = 0 the parameter lies on the boundary of its space, and T
//! follows the mixture ½χ²₀ + ½χ²₁ (Self & Liang 1987), so p = ½ P(χ²₁ ≥ T) for T > 0 and 1 for
//! T = 0. This is the likelihood-ratio version of Dean's (1992) test of overdispersion.
//!
//! References: Lawless, J. F. (1987) "Negative binomial and mixed Poisson regression", *Canadian
//! Journal of Statistics* 15:209–225. Clayton, D. & Kaldor, J. (1987) "Empirical Bayes estimates
//! of age-standardized relative risks for use in disease mapping", *Biometrics* 43:671–681.
//! Venzon, D. J. & Moolgavkar, S. H. (1988) "A method for computing profile-likelihood-based
//! confidence intervals", *Applied Statistics* 37:87–94. Self, S. G. & Liang, K.-Y. (1987)
//! "Asymptotic properties of maximum likelihood estimators and likelihood ratio tests under
//! nonstandard conditions", *JASA* 82:605–610. Dean, C. B. (1992) "Testing for overdispersion in
//! Poisson and binomial regression models", *JASA* 87:451–457.

use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::gamma::ln_gamma;

/// Largest √θ searched: a true coefficient of variation of 3.
pub const MAX_SQRT_THETA: f64 = 3.0;

/// The counts of one year, prepared for repeated likelihood evaluations. Memory and the time of
/// one evaluation are linear in the number of areas and independent of the size of the counts.
#[derive(Debug, Clone)]
pub struct Counts {
    deaths: Vec<f64>,
    births: Vec<f64>,
    /// Σ ln Γ(y_i + 1), a constant of the log-likelihood.
    ln_factorials: f64,
    total_deaths: f64,
    total_births: f64,
}

/// Below this shape k = 1/θ, ln Γ(y + k) − ln Γ(k) is taken from `ln_gamma` directly; above it
/// from Stirling's series, whose first omitted term 1/(1680 k⁷) is < 5·10⁻¹³ there.
const STIRLING_FROM_SHAPE: f64 = 20.0;

/// ln(1 + x) − x without cancellation for small |x| (x > −1).
fn ln_1p_minus_x(x: f64) -> f64 {
    if x.abs() < 1e-2 {
        // −x²/2 + x³/3 − … to x¹⁰: the omitted terms are < 10⁻²² relative to x².
        let mut term = x;
        let mut sum = 0.0;
        for j in 2..=10 {
            term *= -x;
            sum += term / j as f64;
        }
        sum
    } else {
        x.ln_1p() - x
    }
}

/// Stirling's correction S(x) = ln Γ(x) − [(x − ½) ln x − x + ½ ln 2π] ≈ 1/(12x) − 1/(360x³) +
/// 1/(1260x⁵) (Abramowitz & Stegun 1964, 6.1.41), x ≥ `STIRLING_FROM_SHAPE`.
fn stirling_correction(x: f64) -> f64 {
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 / 1260.0))
}

/// g(y, θ) = ln Γ(y + k) − ln Γ(k) + y ln θ, k = 1/θ > 0, y ≥ 0 (integer or not): the part of
/// the NB2 log-likelihood that couples the count and the shape. For integer y it is
/// Σ_{j<y} ln(1 + jθ), which tends to 0 as θ → 0.
///
/// Computed in constant time and memory whatever y (a loop or table over j would grow with the
/// counts): for k < `STIRLING_FROM_SHAPE` as ln_gamma(y + k) − ln_gamma(k) − y ln k; above,
/// from Stirling's series written without cancellation, with x = y/k,
/// g = k (ln(1 + x) − x) + (y − ½) ln(1 + x) + S(k + y) − S(k)
/// (the (x − ½) ln x − x + ½ ln 2π parts of ln Γ(k + y) − ln Γ(k) − y ln k regrouped).
pub fn ln_rising_scaled(y: f64, theta: f64) -> f64 {
    if y <= 0.0 {
        return 0.0;
    }
    let k = 1.0 / theta;
    if k < STIRLING_FROM_SHAPE {
        ln_gamma(y + k) - ln_gamma(k) - y * k.ln()
    } else {
        let x = y * theta;
        k * ln_1p_minus_x(x) + (y - 0.5) * x.ln_1p() + stirling_correction(k + y)
            - stirling_correction(k)
    }
}

impl Counts {
    /// Areas with births > 0; deaths ≥ 0 finite (the caller has validated them).
    pub fn new(deaths: &[f64], births: &[f64]) -> Self {
        Counts {
            deaths: deaths.to_vec(),
            births: births.to_vec(),
            ln_factorials: deaths.iter().map(|&y| ln_gamma(y + 1.0)).sum(),
            total_deaths: deaths.iter().sum(),
            total_births: births.iter().sum(),
        }
    }

    pub fn n_areas(&self) -> usize {
        self.deaths.len()
    }

    pub fn total_deaths(&self) -> f64 {
        self.total_deaths
    }

    /// The μ that maximises ℓ(μ, θ) at this θ (deaths per birth).
    pub fn mean_at(&self, theta: f64) -> f64 {
        let mut mu = self.total_deaths / self.total_births;
        if theta == 0.0 || mu == 0.0 {
            return mu;
        }
        for _ in 0..200 {
            let (mut num, mut den) = (0.0, 0.0);
            for (&y, &b) in self.deaths.iter().zip(&self.births) {
                let w = 1.0 / (1.0 + theta * b * mu);
                num += w * y;
                den += w * b;
            }
            let next = num / den;
            let done = ((next - mu) / mu).abs() < 1e-12;
            mu = next;
            if done {
                break;
            }
        }
        mu
    }

    /// ℓ(μ, θ), the full log-likelihood (constants included).
    pub fn log_likelihood(&self, mu: f64, theta: f64) -> f64 {
        let mut ll = -self.ln_factorials;
        if theta > 0.0 {
            ll += self
                .deaths
                .iter()
                .map(|&y| ln_rising_scaled(y, theta))
                .sum::<f64>();
        }
        for (&y, &b) in self.deaths.iter().zip(&self.births) {
            let e = b * mu;
            if y > 0.0 {
                ll += y * e.ln();
            }
            ll -= if theta > 0.0 {
                (y + 1.0 / theta) * (theta * e).ln_1p()
            } else {
                e
            };
        }
        ll
    }

    /// The profile log-likelihood ℓ_p(θ) = max_μ ℓ(μ, θ).
    pub fn profile(&self, theta: f64) -> f64 {
        self.log_likelihood(self.mean_at(theta), theta)
    }
}

/// The maximum-likelihood fit of one year, with the profile interval of θ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GammaFit {
    /// μ̂, the mean true rate, in deaths per birth.
    pub mean_per_birth: f64,
    /// θ̂, the squared coefficient of variation of the true rates.
    pub theta: f64,
    /// Profile-likelihood interval of θ.
    pub theta_ci: [f64; 2],
    /// ℓ_p(θ̂) and ℓ_p(0).
    pub log_likelihood: f64,
    pub log_likelihood_poisson: f64,
    /// Whether the upper limit reached the search bound (√θ = [`MAX_SQRT_THETA`]).
    pub upper_limit_at_bound: bool,
}

impl GammaFit {
    /// T = 2(ℓ_p(θ̂) − ℓ_p(0)), ≥ 0.
    pub fn lr_statistic(&self) -> f64 {
        (2.0 * (self.log_likelihood - self.log_likelihood_poisson)).max(0.0)
    }

    /// p-value of T under ½χ²₀ + ½χ²₁.
    pub fn lr_p_value(&self) -> f64 {
        let t = self.lr_statistic();
        if t <= 0.0 {
            return 1.0;
        }
        0.5 * (1.0 - chi2_1().cdf(t))
    }
}

fn chi2_1() -> ChiSquared {
    ChiSquared::new(1.0).expect("1 degree of freedom")
}

/// χ²_{1, level}: the profile-likelihood cut-off.
pub fn chi2_1_quantile(level: f64) -> f64 {
    chi2_1().inverse_cdf(level)
}

const GOLDEN: f64 = 0.618_033_988_749_894_8;

/// Fit the model to the counts at confidence `level` (in (0, 1)). The caller ensures there are
/// areas and deaths.
pub fn fit(counts: &Counts, level: f64) -> GammaFit {
    let profile_s = |s: f64| counts.profile(s * s);
    let ll_poisson = profile_s(0.0);
    // Grid, then golden section in the bracket around the best grid point.
    const GRID: usize = 25;
    let step = MAX_SQRT_THETA / GRID as f64;
    let (mut best_i, mut best_ll) = (0usize, ll_poisson);
    for i in 1..=GRID {
        let ll = profile_s(i as f64 * step);
        if ll > best_ll {
            best_i = i;
            best_ll = ll;
        }
    }
    let mut lo = (best_i as f64 - 1.0).max(0.0) * step;
    let mut hi = ((best_i + 1) as f64 * step).min(MAX_SQRT_THETA);
    let mut x1 = hi - GOLDEN * (hi - lo);
    let mut x2 = lo + GOLDEN * (hi - lo);
    let (mut f1, mut f2) = (profile_s(x1), profile_s(x2));
    while hi - lo > 1e-7 {
        if f1 < f2 {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + GOLDEN * (hi - lo);
            f2 = profile_s(x2);
        } else {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - GOLDEN * (hi - lo);
            f1 = profile_s(x1);
        }
    }
    let mut s_hat = 0.5 * (lo + hi);
    let mut ll_hat = profile_s(s_hat);
    for (s, ll) in [(best_i as f64 * step, best_ll), (0.0, ll_poisson)] {
        if ll > ll_hat {
            s_hat = s;
            ll_hat = ll;
        }
    }
    // A maximum on the boundary: golden section stops a hair above 0.
    if s_hat < 1e-6 && ll_poisson >= ll_hat - 1e-9 {
        s_hat = 0.0;
        ll_hat = ll_poisson;
    }
    let cut = ll_hat - 0.5 * chi2_1_quantile(level);
    // Bisection for profile(s) = cut between an inside point and an outside point.
    let crossing = |mut inside: f64, mut outside: f64| {
        for _ in 0..60 {
            let mid = 0.5 * (inside + outside);
            if profile_s(mid) >= cut {
                inside = mid;
            } else {
                outside = mid;
            }
            if (outside - inside).abs() < 1e-9 {
                break;
            }
        }
        0.5 * (inside + outside)
    };
    let s_lo = if ll_poisson >= cut {
        0.0
    } else {
        crossing(s_hat, 0.0)
    };
    let at_bound = profile_s(MAX_SQRT_THETA) >= cut;
    let s_hi = if at_bound {
        MAX_SQRT_THETA
    } else {
        crossing(s_hat, MAX_SQRT_THETA)
    };
    let theta = s_hat * s_hat;
    GammaFit {
        mean_per_birth: counts.mean_at(theta),
        theta,
        theta_ci: [s_lo * s_lo, s_hi * s_hi],
        log_likelihood: ll_hat,
        log_likelihood_poisson: ll_poisson,
        upper_limit_at_bound: at_bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log-likelihood at θ > 0 equals the textbook NB2 form with ln Γ, integer or not.
    #[test]
    fn the_log_likelihood_matches_the_gamma_function_form() {
        let deaths = [0.0, 3.0, 1.0, 7.0, 2.5, 0.4];
        let births = [120.0, 400.0, 80.0, 900.0, 300.0, 60.0];
        let counts = Counts::new(&deaths, &births);
        for theta in [0.01, 0.3, 2.0] {
            let mu = 0.006;
            let k = 1.0 / theta;
            let direct: f64 = deaths
                .iter()
                .zip(&births)
                .map(|(&y, &b)| {
                    let e: f64 = b * mu;
                    ln_gamma(y + k) - ln_gamma(k) - ln_gamma(y + 1.0)
                        + k * (k / (k + e)).ln()
                        + y * (e / (k + e)).ln()
                })
                .sum();
            let ours = counts.log_likelihood(mu, theta);
            assert!((ours - direct).abs() < 1e-9, "{theta}: {ours} vs {direct}");
        }
    }

    /// For integer y, g(y, θ) is Σ_{j<y} ln(1 + jθ), on both sides of the Stirling switch.
    #[test]
    fn the_log_gamma_difference_is_the_sum_of_logs() {
        for theta in [1e-9, 1e-4, 0.01, 0.049, 0.051, 0.5, 4.0] {
            for y in [1u32, 2, 7, 40, 1000] {
                let sum: f64 = (0..y).map(|j| (j as f64 * theta).ln_1p()).sum();
                let ours = ln_rising_scaled(y as f64, theta);
                assert!(
                    (ours - sum).abs() < 1e-9 * (1.0 + sum.abs()),
                    "θ {theta} y {y}: {ours} vs {sum}"
                );
            }
        }
    }

    /// 10 areas with 5·10⁸ deaths: the fit must not allocate or loop per death (it once took
    /// 3.9 GB and more than a minute).
    #[test]
    fn huge_counts_fit_in_constant_memory_and_little_time() {
        let births: Vec<f64> = (0..10).map(|i| 8e10 + 1e9 * i as f64).collect();
        let deaths: Vec<f64> = births
            .iter()
            .enumerate()
            .map(|(i, b)| (b * 0.007 * (1.0 + 0.1 * (i as f64 - 4.5) / 4.5)).round())
            .collect();
        assert!(deaths.iter().all(|d| *d > 4.9e8));
        let start = std::time::Instant::now();
        let fit = fit(&Counts::new(&deaths, &births), 0.95);
        let elapsed = start.elapsed();
        assert!(elapsed.as_secs_f64() < 0.5, "{elapsed:?}");
        // Rates spread ±10% linearly: the sample CV of the true rates is about 0.06, and with
        // half a billion deaths per area the noise is negligible.
        assert!(
            fit.theta.sqrt() > 0.04 && fit.theta.sqrt() < 0.09,
            "{}",
            fit.theta
        );
        assert!(fit.theta_ci[0] > 0.0 && fit.theta_ci[1] < 0.02);
    }

    #[test]
    fn at_theta_zero_it_is_the_poisson_log_likelihood() {
        let deaths = [0.0, 3.0, 1.0, 7.0];
        let births = [120.0, 400.0, 80.0, 900.0];
        let counts = Counts::new(&deaths, &births);
        let mu = 11.0 / 1500.0;
        let poisson: f64 = deaths
            .iter()
            .zip(&births)
            .map(|(&y, &b)| {
                let e: f64 = b * mu;
                y * e.ln() - e - ln_gamma(y + 1.0)
            })
            .sum();
        assert!((counts.log_likelihood(mu, 0.0) - poisson).abs() < 1e-9);
        assert!((counts.log_likelihood(mu, 1e-10) - poisson).abs() < 1e-6);
        assert_eq!(counts.mean_at(0.0), mu);
    }
}
