//! Evolution of an adjusted measure over the years, with each year's own uncertainty, and the
//! split of the observed change into true change and change from noise.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// How the trend interval was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TrendMethod {
    /// Inverse-variance weighted least squares, Knapp–Hartung variance with the max(1, ·) floor.
    #[serde(rename = "inverse_variance_wls_knapp_hartung")]
    InverseVarianceWls,
}

/// Linear trend of an adjusted measure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AdjustedTrend {
    /// Slope, in the measure's unit per year.
    pub slope: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub n_years: usize,
    pub method: TrendMethod,
}

/// Weighted least-squares trend of yearly estimates (year, value, [low, high]) whose intervals
/// are at `level`.
///
/// # Formula
/// Each year's standard error is read from its interval, s_k = (high_k − low_k) / (2 z), z the
/// normal (1 + level)/2 quantile (floored at 10⁻¹² so that a zero-width interval cannot get
/// infinite weight). With weights w_k = 1/s_k², t̄ = Σ w t / Σ w:
/// slope b = Σ w_k (t_k − t̄) y_k / Σ w_k (t_k − t̄)², V₀ = 1 / Σ w_k (t_k − t̄)².
/// With n ≥ 3 years the variance is V₀ · max(1, Q/(n − 2)), Q = Σ w_k r_k² the weighted
/// residual sum of squares, and the interval b ± t_{n−2} √V (Knapp & Hartung 2003, with the
/// max(1, ·) modification of Röver, Knapp & Friede 2015) — the yearly uncertainty is carried,
/// and more year-to-year scatter than it explains widens the interval. With 2 years the
/// interval is b ± z √V₀. `None` with fewer than 2 distinct years.
///
/// References: Knapp, G. & Hartung, J. (2003) "Improved tests for a random effects
/// meta-regression with a single covariate", *Statistics in Medicine* 22:2693–2710. Röver, C.,
/// Knapp, G. & Friede, T. (2015) "Hartung-Knapp-Sidik-Jonkman approach and its modification for
/// random-effects meta-analysis with few studies", *BMC Medical Research Methodology* 15:99.
pub fn adjusted_trend(points: &[(i64, f64, [f64; 2])], level: f64) -> Option<AdjustedTrend> {
    let n = points.len();
    if n < 2 {
        return None;
    }
    let z = Normal::new(0.0, 1.0)
        .expect("standard normal")
        .inverse_cdf(0.5 + level / 2.0);
    let w: Vec<f64> = points
        .iter()
        .map(|(_, _, [lo, hi])| {
            let se = ((hi - lo) / (2.0 * z)).max(1e-12);
            1.0 / (se * se)
        })
        .collect();
    let sw: f64 = w.iter().sum();
    let t_bar = points
        .iter()
        .zip(&w)
        .map(|(p, w)| w * p.0 as f64)
        .sum::<f64>()
        / sw;
    let y_bar = points.iter().zip(&w).map(|(p, w)| w * p.1).sum::<f64>() / sw;
    let s_tt: f64 = points
        .iter()
        .zip(&w)
        .map(|(p, w)| w * (p.0 as f64 - t_bar).powi(2))
        .sum();
    if s_tt <= 0.0 {
        return None;
    }
    let slope = points
        .iter()
        .zip(&w)
        .map(|(p, w)| w * (p.0 as f64 - t_bar) * (p.1 - y_bar))
        .sum::<f64>()
        / s_tt;
    let v0 = 1.0 / s_tt;
    let half = if n >= 3 {
        let q: f64 = points
            .iter()
            .zip(&w)
            .map(|(p, w)| w * (p.1 - y_bar - slope * (p.0 as f64 - t_bar)).powi(2))
            .sum();
        let df = (n - 2) as f64;
        let t = StudentsT::new(0.0, 1.0, df)
            .expect("n − 2 ≥ 1 degrees of freedom")
            .inverse_cdf(0.5 + level / 2.0);
        t * (v0 * (q / df).max(1.0)).sqrt()
    } else {
        z * v0.sqrt()
    };
    Some(AdjustedTrend {
        slope,
        ci_low: slope - half,
        ci_high: slope + half,
        n_years: n,
        method: TrendMethod::InverseVarianceWls,
    })
}

/// The observed change of a measure from the first to the last year, split into the change of
/// the true (adjusted) measure and the rest, the change in the part due to random variation
/// (which grows when births fall): observed_change = true_change + noise_change.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChangeSplit {
    pub first_time: i64,
    pub last_time: i64,
    pub observed_change: f64,
    /// Change of the adjusted measure.
    pub true_change: f64,
    /// observed_change − true_change: the change of (observed − adjusted).
    pub noise_change: f64,
}

/// [`ChangeSplit`] between the first and last of (year, observed, adjusted).
pub fn split_change(points: &[(i64, f64, f64)]) -> Option<ChangeSplit> {
    let (first, last) = (points.first()?, points.last()?);
    if first.0 == last.0 {
        return None;
    }
    let observed_change = last.1 - first.1;
    let true_change = last.2 - first.2;
    Some(ChangeSplit {
        first_time: first.0,
        last_time: last.0,
        observed_change,
        true_change,
        noise_change: observed_change - true_change,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_weights_give_the_ols_slope() {
        let pts: Vec<(i64, f64, [f64; 2])> = (0..5)
            .map(|k| (2019 + k, 0.1 + 0.01 * k as f64, [0.0, 0.2]))
            .collect();
        let t = adjusted_trend(&pts, 0.95).unwrap();
        assert!((t.slope - 0.01).abs() < 1e-12);
        // No residual scatter: the interval comes from the yearly standard errors alone,
        // se = 0.2 / (2 · 1.96) per year, V = se² / Σ(t − t̄)² = se² / 10.
        let se = 0.2 / (2.0 * 1.959_963_984_540_054);
        let t3 = 3.182_446_305_284_263; // t_{0.975, 3}
        assert!((t.ci_high - t.slope - t3 * se / 10f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_precise_year_pulls_the_line() {
        let pts = [
            (2019, 0.0, [-0.001, 0.001]),
            (2020, 1.0, [0.0, 2.0]),
            (2021, 0.0, [-0.001, 0.001]),
        ];
        let t = adjusted_trend(&pts, 0.95).unwrap();
        assert!(t.slope.abs() < 1e-12);
    }

    #[test]
    fn the_change_splits_into_true_and_noise() {
        let s = split_change(&[(2019, 0.23, 0.10), (2023, 0.27, 0.11)]).unwrap();
        assert!((s.true_change - 0.01).abs() < 1e-12);
        assert!((s.noise_change - 0.03).abs() < 1e-12);
    }
}
