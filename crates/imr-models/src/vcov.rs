//! Covariance matrices of the coefficients.
//!
//! # Formula
//! With the (transformed, weighted) design `Z` (n × K), residuals `e`, and the bread
//! `B = (ZᵀZ)⁻¹`:
//! - `iid`: `V = s² B`, `s² = Σe²/(n − K_df)`; `K_df` counts every estimated parameter,
//!   absorbed effects included (fe: `n − G − k`, as Stata `xtreg, fe` and R plm).
//! - `hc1`: `V = n/(n − K_df) · B (Σ_i e_i² z_i z_iᵀ) B` (White 1980; MacKinnon & White 1985).
//! - `cluster` (by entity, CR1): `V = G/(G−1) · (n−1)/(n−K_c) · B (Σ_g s_g s_gᵀ) B`,
//!   `s_g = Σ_{i∈g} z_i e_i`, where `K_c` counts the coefficients not absorbed by fixed
//!   effects nested in the clusters, plus one for the constant (Stata `xtreg, fe vce(cluster)`;
//!   for `fe`, `K_c = k + 1`). Inference uses `t(G − 1)`.
//!
//! Reference: Cameron & Miller (2015), "A Practitioner's Guide to Cluster-Robust Inference",
//! *J. Human Resources* 50(2), §II–§VI; Stata manual `[XT] xtreg`, Methods and formulas.

use nalgebra::DMatrix;

/// `Σ_i e_i² z_i z_iᵀ`.
pub(crate) fn hc_meat(z: &[&[f64]], resid: &[f64]) -> DMatrix<f64> {
    let k = z.len();
    let mut meat = DMatrix::<f64>::zeros(k, k);
    let e2: Vec<f64> = resid.iter().map(|e| e * e).collect();
    for a in 0..k {
        for b in 0..=a {
            let s: f64 = z[a]
                .iter()
                .zip(z[b])
                .zip(&e2)
                .map(|((za, zb), e)| za * zb * e)
                .sum();
            meat[(a, b)] = s;
            meat[(b, a)] = s;
        }
    }
    meat
}

/// `Σ_g s_g s_gᵀ` with `s_g = Σ_{i∈g} z_i e_i`.
pub(crate) fn cluster_meat(
    z: &[&[f64]],
    resid: &[f64],
    cluster: &[usize],
    n_clusters: usize,
) -> DMatrix<f64> {
    let k = z.len();
    // scores[g * k + a]
    let mut scores = vec![0.0; n_clusters * k];
    // One pass over the rows for every column: the same additions in the same order per
    // (cluster, column) as a pass per column, hence the same bits, with the residual and the
    // cluster read once.
    if k > 0 {
        for (i, (&e, &g)) in resid.iter().zip(cluster).enumerate() {
            let s = &mut scores[g * k..(g + 1) * k];
            for (sa, column) in s.iter_mut().zip(z) {
                *sa += column[i] * e;
            }
        }
    }
    let mut meat = DMatrix::<f64>::zeros(k, k);
    for s in scores.chunks_exact(k.max(1)).take(n_clusters) {
        for a in 0..k {
            for b in 0..=a {
                meat[(a, b)] += s[a] * s[b];
            }
        }
    }
    for a in 0..k {
        for b in 0..a {
            meat[(b, a)] = meat[(a, b)];
        }
    }
    meat
}

/// `Σ_i w_i z_i z_iᵀ`: the information `H` of the Poisson fit with `w = μ` (see
/// `estimators::poisson_fe`).
pub(crate) fn weighted_cross_product(z: &[Vec<f64>], w: &[f64]) -> DMatrix<f64> {
    let k = z.len();
    let mut h = DMatrix::zeros(k, k);
    for a in 0..k {
        for b in 0..=a {
            let s: f64 = z[a]
                .iter()
                .zip(&z[b])
                .zip(w)
                .map(|((xa, xb), m)| m * xa * xb)
                .sum();
            h[(a, b)] = s;
            h[(b, a)] = s;
        }
    }
    h
}

/// `factor · B M B`.
pub(crate) fn sandwich(bread: &DMatrix<f64>, meat: &DMatrix<f64>, factor: f64) -> DMatrix<f64> {
    let v = bread * meat * bread * factor;
    (&v + v.transpose()) * 0.5
}
