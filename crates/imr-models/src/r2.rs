//! The three R² of a linear fit as Stata `xtreg` reports them (within, between, overall):
//! squared correlations of `x'β` with `y` after the within transformation, across entity
//! means, and overall; within undefined when `x'β` has no within variation.

use crate::prepared::Prepared;
use crate::within::{demean, group_means};

/// Whether the within-entity deviations `demeaned` of `original` are rounding error only: their
/// sum of squares below 1e-20 of the original's about its mean (a relative spread of 1e-10).
fn rounding_only(demeaned: &[f64], original: &[f64]) -> bool {
    let n = original.len().max(1) as f64;
    let mean = original.iter().sum::<f64>() / n;
    let spread: f64 = original.iter().map(|v| (v - mean) * (v - mean)).sum();
    let left: f64 = demeaned.iter().map(|v| v * v).sum();
    left <= 1e-20 * spread
}

/// Squared correlation, weighted; `None` without variation.
fn corr2(a: &[f64], b: &[f64], w: Option<&[f64]>) -> Option<f64> {
    let weight = |i: usize| w.map_or(1.0, |w| w[i]);
    let total: f64 = (0..a.len()).map(weight).sum();
    let mean_a = (0..a.len()).map(|i| weight(i) * a[i]).sum::<f64>() / total;
    let mean_b = (0..b.len()).map(|i| weight(i) * b[i]).sum::<f64>() / total;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for i in 0..a.len() {
        let (da, db) = (a[i] - mean_a, b[i] - mean_b);
        sab += weight(i) * da * db;
        saa += weight(i) * da * da;
        sbb += weight(i) * db * db;
    }
    if saa <= 0.0 || sbb <= 0.0 {
        return None;
    }
    Some(sab * sab / (saa * sbb))
}

/// Within, between and overall R² of slopes `beta` on the original columns, as Stata `xtreg`:
/// squared correlations of `x'β` with `y` after the within transformation, across entity
/// means, and overall.
pub(crate) fn r2_stata(
    prep: &Prepared,
    columns: &[usize],
    beta: &[f64],
    weighted: bool,
) -> (Option<f64>, Option<f64>, Option<f64>) {
    let n = prep.n();
    let g = prep.n_entities();
    let weights = if weighted {
        prep.weights.as_deref()
    } else {
        None
    };
    let mut xb = vec![0.0; n];
    for (&j, &b) in columns.iter().zip(beta) {
        xb.iter_mut().zip(&prep.x[j]).for_each(|(f, x)| *f += b * x);
    }
    let overall = corr2(&xb, &prep.y, weights);
    let xb_w = demean(&xb, &prep.entity, g, weights);
    let y_w = demean(&prep.y, &prep.entity, g, weights);
    // Regressors constant within every entity (a random-effects fit of time-invariant
    // characteristics) leave `x'β` no within variation: what demeaning leaves is rounding
    // (~1e-16 of its size), whose correlation with y is noise ("8.46e-34"). Undefined, not a
    // number, as plm reports no within R² for it.
    let within = if rounding_only(&xb_w, &xb) {
        None
    } else {
        corr2(&xb_w, &y_w, weights)
    };
    let xb_b = group_means(&xb, &prep.entity, g, weights);
    let y_b = group_means(&prep.y, &prep.entity, g, weights);
    let between = corr2(&xb_b, &y_b, None);
    (within, between, overall)
}
