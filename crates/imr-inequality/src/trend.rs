//! Evolution over the years: linear trend of a measure, and correlation of two yearly series.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Linear trend of a measure over the years, and its change from the first to the last year.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trend {
    /// OLS slope, in the measure's unit per year.
    pub slope: f64,
    /// Confidence limits of the slope (`None` with fewer than 3 years).
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Years with a value.
    pub n_years: usize,
    pub first_time: i64,
    pub last_time: i64,
    /// Value in the first and last year with a value.
    pub first: f64,
    pub last: f64,
    /// last − first.
    pub change: f64,
}

/// Ordinary least-squares trend of `(year, value)` points.
///
/// # Formula
/// With t̄ and ȳ the means of the n years t_k and values y_k: S_tt = Σ (t_k − t̄)²,
/// slope b = Σ (t_k − t̄)(y_k − ȳ) / S_tt, residual variance s² = Σ (y_k − ȳ − b(t_k − t̄))² / (n − 2),
/// SE(b) = √(s² / S_tt), and the interval is b ± t_{1−α/2, n−2} SE(b) with Student's t on n − 2
/// degrees of freedom. Each yearly value is itself an estimate; this interval treats them as exact
/// observations around a line, so it reflects year-to-year scatter only.
/// `None` with fewer than 2 distinct years.
///
/// Reference: Draper, N. R. & Smith, H. (1998) *Applied Regression Analysis*, 3rd ed., Wiley, ch. 1.
pub fn linear_trend(points: &[(i64, f64)], level: f64) -> Option<Trend> {
    let mut points: Vec<(i64, f64)> = points.to_vec();
    points.sort_by_key(|p| p.0);
    let n = points.len();
    if n < 2 {
        return None;
    }
    let nf = n as f64;
    let t_bar = points.iter().map(|p| p.0 as f64).sum::<f64>() / nf;
    let y_bar = points.iter().map(|p| p.1).sum::<f64>() / nf;
    let s_tt: f64 = points.iter().map(|p| (p.0 as f64 - t_bar).powi(2)).sum();
    if s_tt == 0.0 {
        return None;
    }
    let s_ty: f64 = points
        .iter()
        .map(|p| (p.0 as f64 - t_bar) * (p.1 - y_bar))
        .sum();
    let slope = s_ty / s_tt;
    let (ci_low, ci_high) = if n >= 3 {
        let ssr: f64 = points
            .iter()
            .map(|p| (p.1 - y_bar - slope * (p.0 as f64 - t_bar)).powi(2))
            .sum();
        let se = (ssr / (nf - 2.0) / s_tt).sqrt();
        let t = StudentsT::new(0.0, 1.0, nf - 2.0)
            .expect("n − 2 ≥ 1 degrees of freedom")
            .inverse_cdf(1.0 - (1.0 - level) / 2.0);
        (Some(slope - t * se), Some(slope + t * se))
    } else {
        (None, None)
    };
    let (first, last) = (points[0], points[n - 1]);
    Some(Trend {
        slope,
        ci_low,
        ci_high,
        n_years: n,
        first_time: first.0,
        last_time: last.0,
        first: first.1,
        last: last.1,
        change: last.1 - first.1,
    })
}

/// Correlation of two yearly series over their common years.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correlation {
    /// Number of years present in both series.
    pub n_years: usize,
    pub pearson: Option<f64>,
    pub pearson_ci: Option<[f64; 2]>,
    pub spearman: Option<f64>,
    pub spearman_ci: Option<[f64; 2]>,
    /// A plain-language warning about what so few points can show.
    pub warning: String,
}

pub(crate) fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Ranks 1..n with ties given their average rank.
fn average_ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut ranks = vec![0.0; x.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end < order.len() && x[order[end]] == x[order[start]] {
            end += 1;
        }
        let rank = (start + end + 1) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

fn fisher_interval(r: f64, se: f64, level: f64) -> [f64; 2] {
    let z = Normal::new(0.0, 1.0)
        .expect("standard normal")
        .inverse_cdf(1.0 - (1.0 - level) / 2.0);
    let center = r.atanh();
    [(center - z * se).tanh(), (center + z * se).tanh()]
}

/// Pearson and Spearman correlation of two yearly series, with Fisher-z intervals.
///
/// # Formula
/// Over the n years present in both series: Pearson r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²);
/// Spearman ρ = Pearson r of the ranks (ties get their average rank). Intervals by Fisher's z:
/// z = atanh(r), limits tanh(z ± z_{1−α/2} · se) with se = 1/√(n − 3) for Pearson and
/// se = √((1 + ρ²/2)/(n − 3)) for Spearman (Bonett & Wright). Intervals need n ≥ 4.
///
/// References: Fisher, R. A. (1921) *Metron* 1:3–32; Bonett, D. G. & Wright, T. A. (2000)
/// "Sample size requirements for estimating Pearson, Kendall and Spearman correlations",
/// *Psychometrika* 65(1):23–28.
pub fn correlate(a: &[(i64, f64)], b: &[(i64, f64)], level: f64) -> Correlation {
    let mut pairs: Vec<(i64, f64, f64)> = a
        .iter()
        .filter_map(|&(t, x)| b.iter().find(|p| p.0 == t).map(|&(_, y)| (t, x, y)))
        .collect();
    pairs.sort_by_key(|p| p.0);
    pairs.dedup_by_key(|p| p.0);
    let n = pairs.len();
    let x: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let y: Vec<f64> = pairs.iter().map(|p| p.2).collect();
    let (pearson_r, spearman_r) = if n >= 2 {
        (
            pearson(&x, &y),
            pearson(&average_ranks(&x), &average_ranks(&y)),
        )
    } else {
        (None, None)
    };
    let se_base = if n >= 4 {
        Some(1.0 / ((n - 3) as f64).sqrt())
    } else {
        None
    };
    let pearson_ci = pearson_r
        .zip(se_base)
        .map(|(r, se)| fisher_interval(r, se, level));
    let spearman_ci = spearman_r
        .zip(se_base)
        .map(|(r, se)| fisher_interval(r, se * (1.0 + r * r / 2.0).sqrt(), level));
    let warning = format!(
        "Only {n} years in common: a correlation over so few points has little power and a wide \
         interval, and two series that both drift over time correlate even with no link between \
         them. Read it as description, not as evidence of a cause."
    );
    Correlation {
        n_years: n,
        pearson: pearson_r,
        pearson_ci,
        spearman: spearman_r,
        spearman_ci,
        warning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_line_has_its_slope_and_a_zero_width_interval() {
        let pts: Vec<(i64, f64)> = (2010..2015).map(|t| (t, 2.0 * t as f64 + 1.0)).collect();
        let tr = linear_trend(&pts, 0.95).unwrap();
        assert!((tr.slope - 2.0).abs() < 1e-9);
        assert!((tr.ci_low.unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(tr.change, 8.0);
    }

    #[test]
    fn two_years_give_a_slope_without_an_interval() {
        let tr = linear_trend(&[(2010, 1.0), (2012, 2.0)], 0.95).unwrap();
        assert_eq!(tr.slope, 0.5);
        assert_eq!(tr.ci_low, None);
    }

    #[test]
    fn ties_get_their_average_rank() {
        assert_eq!(
            average_ranks(&[3.0, 1.0, 3.0, 2.0]),
            vec![3.5, 1.0, 3.5, 2.0]
        );
    }

    #[test]
    fn the_warning_names_the_number_of_years() {
        let c = correlate(
            &[(1, 1.0), (2, 2.0), (3, 3.0)],
            &[(2, 5.0), (3, 4.0), (4, 0.0)],
            0.95,
        );
        assert_eq!(c.n_years, 2);
        assert!(c.warning.starts_with("Only 2 years"));
        assert_eq!(c.pearson, Some(-1.0));
        assert_eq!(c.pearson_ci, None);
    }
}
