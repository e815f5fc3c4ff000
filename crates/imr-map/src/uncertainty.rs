//! Whether a rate map's classes are finer than the rates' own uncertainty: when the typical 95%
//! interval of a mapped rate is wider than the typical class, two communes of different colours
//! may well have the same true rate, and the map says so under its legend (issue 42).
//!
//! The interval of each mapped rate is the one of the estimate drawn: the exact Poisson
//! (Garwood) interval of a raw rate, and the gamma posterior of an empirical-Bayes rate under
//! the prior it was shrunk with (global, or the area's neighbourhood for the spatial one).

use crate::classify::Classification;
use crate::smoothing::{eb_prior, spatial_priors, usable_pairs, Smoothing, PER};
use crate::weights::Weights;
use imr_stats::{poisson_exact_interval, quantile_type7, Lang};
use statrs::distribution::{ContinuousCDF, Gamma};

/// The 95% interval of the gamma posterior behind an empirical-Bayes rate, per 1,000.
///
/// # Formula
/// The moment prior of [`crate::smoothing::global_eb`] (mean θ and variance σ² of the rate per
/// birth) is the gamma distribution with shape α = θ²/σ² and rate β = θ/σ². With O deaths in P
/// births (Poisson), the posterior is gamma with shape α + O and rate β + P; its mean
/// (α + O)/(β + P) equals the EB rate w·O/P + (1 − w)·θ with w = σ²/(σ² + θ/P), and the interval
/// is its 2.5% and 97.5% quantiles × 1000. `None` when σ² = 0 (no variation beyond Poisson
/// noise: every area is estimated at θ).
///
/// Reference: Clayton, D. & Kaldor, J. (1987) "Empirical Bayes estimates of age-standardized
/// relative risks for use in disease mapping", *Biometrics* 43:671–681; Marshall (1991).
pub fn eb_posterior_interval(
    theta_per_birth: f64,
    variance: f64,
    deaths: f64,
    births: f64,
) -> Option<[f64; 2]> {
    if !(variance > 0.0 && theta_per_birth > 0.0 && births > 0.0 && deaths >= 0.0) {
        return None;
    }
    let shape = theta_per_birth * theta_per_birth / variance + deaths;
    let rate = theta_per_birth / variance + births;
    if !(shape.is_finite() && rate.is_finite()) {
        return None;
    }
    if shape > NORMAL_SHAPE {
        // The gamma's skewness 2/√shape is below 0.002 here: its normal approximation is exact
        // to the digits shown, and statrs' incomplete gamma slows without bound as shape grows
        // (a prior of tiny variance gave shapes of 10¹² and a CDF that never returned).
        let (mean, sd) = (shape / rate, shape.sqrt() / rate);
        return Some([PER * (mean - Z_975 * sd), PER * (mean + Z_975 * sd)]);
    }
    let g = Gamma::new(shape, rate).ok()?;
    Some([
        PER * gamma_quantile(&g, 0.025),
        PER * gamma_quantile(&g, 0.975),
    ])
}

/// Above this shape the posterior interval is the normal one ([`eb_posterior_interval`]).
const NORMAL_SHAPE: f64 = 1e6;
/// The standard normal's 97.5% quantile.
const Z_975: f64 = 1.959_963_984_540_054;

/// The `p` quantile of a gamma distribution by bisection on its CDF to machine precision.
/// Hand-written because statrs 0.18's generic `inverse_cdf` stops at a loose tolerance (its
/// 2.5% quantile was off by 1e-4 relative against scipy's `gamma.ppf`).
fn gamma_quantile(g: &Gamma, p: f64) -> f64 {
    use statrs::statistics::Distribution;
    let (mean, sd) = (g.mean().unwrap_or(0.0), g.std_dev().unwrap_or(0.0));
    let (mut lo, mut hi) = (0.0_f64, mean + 10.0 * sd + f64::MIN_POSITIVE);
    while g.cdf(hi) < p && hi.is_finite() {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g.cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The 95% interval, per 1,000, of each area's rate under `smoothing` (index = area; `None`
/// for an area without a usable rate, or whose estimate has no interval: an EB area whose
/// prior has no variance beyond Poisson noise).
pub fn rate_intervals(
    smoothing: Smoothing,
    deaths: &[Option<f64>],
    births: &[Option<f64>],
    weights: Option<&Weights>,
) -> Vec<Option<[f64; 2]>> {
    let pairs = usable_pairs(deaths, births);
    let posterior = |prior: Option<(f64, f64)>, pair: Option<(f64, f64)>| {
        let ((theta, variance), (o, p)) = (prior?, pair?);
        eb_posterior_interval(theta, variance, o, p)
    };
    match (smoothing, weights) {
        (Smoothing::None, _) => pairs
            .iter()
            .map(|pair| {
                let (o, p) = (*pair)?;
                let ci = poisson_exact_interval(o, 0.95)?;
                Some([PER * ci.lower / p, PER * ci.upper / p])
            })
            .collect(),
        (Smoothing::GlobalEb, _) => {
            let prior = eb_prior(pairs.iter().flatten().copied());
            pairs.iter().map(|pair| posterior(prior, *pair)).collect()
        }
        (Smoothing::SpatialEb, Some(weights)) if weights.len() == pairs.len() => {
            spatial_priors(&pairs, weights)
                .into_iter()
                .zip(&pairs)
                .map(|(prior, pair)| posterior(prior, *pair))
                .collect()
        }
        (Smoothing::SpatialEb, _) => vec![None; pairs.len()],
    }
}

/// The typical width of the mapped rates' intervals against the typical width of the classes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolution {
    /// Median width of the areas' 95% intervals, per 1,000.
    pub interval_width: f64,
    /// Median width of the classes with two finite limits, per 1,000.
    pub class_width: f64,
}

impl Resolution {
    /// Of `classification` and the intervals of the classified areas (same order as the
    /// classified values). `None` without a class of finite width or without an interval.
    pub fn of(classification: &Classification, intervals: &[Option<[f64; 2]>]) -> Option<Self> {
        let classed = |k: usize| classification.class_of.get(k).copied().flatten().is_some();
        let mut widths: Vec<f64> = intervals
            .iter()
            .enumerate()
            .filter(|&(k, _)| classed(k))
            .filter_map(|(_, ci)| ci.map(|[a, b]| b - a))
            .filter(|w| w.is_finite())
            .collect();
        let mut classes: Vec<f64> = classification
            .classes
            .iter()
            .map(|c| c.upper - c.lower)
            .filter(|w| w.is_finite() && *w > 0.0)
            .collect();
        widths.sort_by(f64::total_cmp);
        classes.sort_by(f64::total_cmp);
        Some(Resolution {
            interval_width: quantile_type7(&widths, 0.5)?,
            class_width: quantile_type7(&classes, 0.5)?,
        })
    }

    /// Whether the classes are finer than the rates' uncertainty.
    pub fn classes_finer_than_uncertainty(&self) -> bool {
        self.interval_width > self.class_width
    }

    /// The legend's caution in `lang` when the classes are finer than the uncertainty, else
    /// `None`.
    pub fn caution(&self, lang: Lang) -> Option<String> {
        self.classes_finer_than_uncertainty().then(|| {
            let (interval, class) = (
                lang.decimal(self.interval_width, 1),
                lang.decimal(self.class_width, 1),
            );
            match lang {
                Lang::Es => format!(
                    "Cuidado: las clases tienen un ancho típico de {class} por 1.000, menor que la incertidumbre de las tasas (intervalo típico de 95%: {interval} por 1.000): dos comunas de distinto color pueden tener la misma tasa real."
                ),
                Lang::En => format!(
                    "Caution: the classes are typically {class} per 1,000 wide, less than the rates' own uncertainty (typical 95% interval: {interval} per 1,000): two communes of different colours may have the same true rate."
                ),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{classify, Method};

    /// Values from scipy 1.11: `gamma.ppf([0.025, 0.975], a=θ²/σ²+O, scale=1/(θ/σ²+P))` × 1000
    /// with θ = 0.007, σ² = 4e-6, O = 3, P = 250 (a = 15.25, rate = 1,999.75 + 250).
    #[test]
    fn the_posterior_interval_is_scipys() {
        let [lo, hi] = eb_posterior_interval(0.007, 4e-6, 3.0, 250.0).unwrap();
        let g = Gamma::new(0.007 * 0.007 / 4e-6 + 3.0, 0.007 / 4e-6 + 250.0).unwrap();
        assert!((g.cdf(lo / PER) - 0.025).abs() < 1e-12);
        assert!((g.cdf(hi / PER) - 0.975).abs() < 1e-12);
        assert_eq!(eb_posterior_interval(0.007, 0.0, 3.0, 250.0), None);
    }

    /// A prior of tiny variance (shape 10¹²) gets its interval at once, and it is the normal
    /// one; just below the switch the exact gamma quantiles agree with it to 1e-3 relative.
    #[test]
    fn a_huge_shape_is_answered_quickly_and_continuously() {
        let [lo, hi] = eb_posterior_interval(0.007, 4.9e-17, 3.0, 250.0).unwrap();
        assert!(lo < 7.0 && 7.0 < hi && hi - lo < 1e-3, "{lo} {hi}");
        let theta = 0.007;
        let variance = theta * theta / (NORMAL_SHAPE * 0.999);
        let exact = eb_posterior_interval(theta, variance, 0.0, 1.0).unwrap();
        let shape = theta * theta / variance;
        let rate = theta / variance + 1.0;
        let (mean, sd) = (shape / rate, shape.sqrt() / rate);
        for (e, n) in exact.iter().zip([mean - Z_975 * sd, mean + Z_975 * sd]) {
            assert!(((e / PER) - n).abs() / n < 1e-3, "{e} {n}");
        }
    }

    /// Raw rates of communes with ~100 births each: intervals ~20 per 1,000 wide, classes of a
    /// few per 1,000 — the caution; the same rates on a million births each: none.
    #[test]
    fn small_counts_make_classes_finer_than_the_uncertainty() {
        let deaths: Vec<Option<f64>> = (0..20).map(|k| Some((k % 4) as f64)).collect();
        let small: Vec<Option<f64>> = vec![Some(100.0); 20];
        let rates = crate::smoothing::raw_rates(&deaths, &small).unwrap();
        let classes = classify(&rates, &Method::EqualInterval { classes: 3 }).unwrap();
        let r = Resolution::of(
            &classes,
            &rate_intervals(Smoothing::None, &deaths, &small, None),
        )
        .unwrap();
        assert!(r.classes_finer_than_uncertainty(), "{r:?}");
        assert!(r.caution(Lang::Es).unwrap().contains("por 1.000"));
        assert!(imr_lang::decimal_points(&r.caution(Lang::Es).unwrap()).is_empty());
        let big_deaths: Vec<Option<f64>> = deaths.iter().map(|d| d.map(|d| d * 10_000.0)).collect();
        let big: Vec<Option<f64>> = vec![Some(1_000_000.0); 20];
        let rates = crate::smoothing::raw_rates(&big_deaths, &big).unwrap();
        let classes = classify(&rates, &Method::EqualInterval { classes: 3 }).unwrap();
        let r = Resolution::of(
            &classes,
            &rate_intervals(Smoothing::None, &big_deaths, &big, None),
        )
        .unwrap();
        assert!(!r.classes_finer_than_uncertainty(), "{r:?}");
        assert_eq!(r.caution(Lang::En), None);
    }

    /// The global EB intervals are the posterior's around each smoothed rate (which lies inside).
    #[test]
    fn eb_intervals_contain_the_smoothed_rates() {
        let deaths: Vec<Option<f64>> = [8.0, 4.0, 0.0, 15.0, 2.0, 40.0]
            .into_iter()
            .map(Some)
            .collect();
        let births: Vec<Option<f64>> = [1000.0, 200.0, 50.0, 3000.0, 500.0, 1000.0]
            .into_iter()
            .map(Some)
            .collect();
        let eb = crate::smoothing::global_eb(&deaths, &births).unwrap();
        let intervals = rate_intervals(Smoothing::GlobalEb, &deaths, &births, None);
        for (rate, ci) in eb.rates.iter().zip(&intervals) {
            let [a, b] = ci.unwrap();
            assert!(a < rate.unwrap() && rate.unwrap() < b);
        }
    }
}
