//! Random effects (Swamy–Arora) and Mundlak's correlated random effects.
//!
//! # Formula
//! Model `y_it = α + x_itᵀβ + u_i + e_it`, `u_i ~ (0, σ²_u)`, `e_it ~ (0, σ²_e)`.
//! 1. `σ²_e = SSR_within / (n − G − k_w)`, `k_w` the regressors with within variation.
//! 2. `σ²_u = max(0, SSR_between/(G − K_b) − σ²_e / T̄)`, from OLS of `ȳ_i` on `(1, x̄_i)`
//!    (K_b coefficients), `T̄ = G / Σ_i 1/T_i` the harmonic mean of the entity sizes
//!    (equal to T when balanced).
//! 3. `θ_i = 1 − √(σ²_e / (T_i σ²_u + σ²_e))`, and OLS of `y_it − θ_i ȳ_i` on
//!    `(1 − θ_i, x_it − θ_i x̄_i)`; classical `s² = SSR*/(n − K)`.
//!
//! Swamy & Arora (1972); balanced case as R plm `model = "random"` (`random.method = "swar"`);
//! unbalanced case as Stata `xtreg, re` (default, harmonic-mean T̄) and Python linearmodels
//! `RandomEffects`. R plm's unbalanced `swar` uses the Baltagi–Chang (1994) trace correction
//! instead and can differ in σ²_u for unbalanced panels.
//!
//! Mundlak (1978): `cre` adds the entity means `x̄_i` of the time-varying regressors; their
//! coefficients measure the correlation of the effects with the regressors, and the
//! coefficients on `x_it` equal the within estimates.

use crate::data::Prepared;
use crate::error::NotEnoughData;
use crate::fit::DroppedTerm;
use crate::linalg::least_squares;
use crate::linear::{be_core, fe_core, LinearCore};
use crate::within::group_means;
use crate::ModelError;

/// A random-effects fit and its variance components.
pub(crate) struct ReCore {
    pub core: LinearCore,
    pub has_intercept: bool,
    pub dropped: Vec<DroppedTerm>,
    pub sigma2_u: f64,
    pub sigma2_e: f64,
    pub theta: Vec<f64>,
    pub diagnostics: Vec<crate::Diagnostic>,
}

pub(crate) fn re_core(prep: &Prepared) -> Result<ReCore, ModelError> {
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let (within, _, within_kept) = fe_core(prep, &all, false);
    re_core_given(prep, &within, within_kept.len())
}

/// [`re_core`] with the unweighted within regression on every regressor already fitted
/// (`fe_core(prep, all, false)` and its number of kept regressors): `fe` reuses its own fit
/// for the Hausman test instead of running it again.
pub(crate) fn re_core_given(
    prep: &Prepared,
    within: &LinearCore,
    within_kept: usize,
) -> Result<ReCore, ModelError> {
    let n = prep.n();
    let g = prep.n_entities();
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let mut diagnostics = Vec::new();
    let df_e = n as i64 - g as i64 - within_kept as i64;
    if df_e <= 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::RandomWithinDf {
            n,
            g,
            k: within_kept,
        }));
    }
    let sigma2_e = within.ls.ssr() / df_e as f64;

    let (between, _) = be_core(prep, &all);
    let df_b = g as i64 - between.ls.kept.len() as i64;
    if df_b <= 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::RandomBetween {
            g,
            k: between.ls.kept.len(),
        }));
    }
    let counts = prep.entity_counts();
    let harmonic_t = g as f64 / counts.iter().map(|&t| 1.0 / t as f64).sum::<f64>();
    let raw_sigma2_u = between.ls.ssr() / df_b as f64 - sigma2_e / harmonic_t;
    let sigma2_u = raw_sigma2_u.max(0.0);
    if raw_sigma2_u < 0.0 {
        diagnostics.push(crate::Diagnostic::NegativeSigmaU {
            value: raw_sigma2_u,
        });
    }
    let theta: Vec<f64> = counts
        .iter()
        .map(|&t| 1.0 - (sigma2_e / (t as f64 * sigma2_u + sigma2_e)).sqrt())
        .collect();

    let mut design = Vec::with_capacity(prep.x.len() + 1);
    design.push(
        prep.entity
            .iter()
            .map(|&e| 1.0 - theta[e])
            .collect::<Vec<f64>>(),
    );
    let quasi = |values: &[f64]| -> Vec<f64> {
        let means = group_means(values, &prep.entity, g, None);
        values
            .iter()
            .zip(&prep.entity)
            .map(|(v, &e)| v - theta[e] * means[e])
            .collect()
    };
    for column in &prep.x {
        design.push(quasi(column));
    }
    let y = quasi(&prep.y);
    let ls = least_squares(&design, &y);
    let names = prep.names_with_intercept(&(0..prep.x.len()).collect::<Vec<_>>());
    let dropped: Vec<DroppedTerm> = ls
        .collinear(|c| names[c].clone())
        .into_iter()
        .map(|(name, earlier)| DroppedTerm {
            term: name.clone(),
            reason: crate::diagnostic::DropReason::QuasiDemeanedCollinear { name, earlier },
        })
        .collect();
    let has_intercept = ls.kept.first() == Some(&0);
    let core = LinearCore::of_kept(&names, design, ls, prep.entity.clone(), g);
    Ok(ReCore {
        core,
        has_intercept,
        dropped,
        sigma2_u,
        sigma2_e,
        theta,
        diagnostics,
    })
}

/// The Mundlak augmentation: appends the entity mean of every regressor that varies within
/// entities, named `<x>_mean`. Returns the augmented panel and the indices of the mean columns.
pub(crate) fn mundlak_augment(prep: &Prepared) -> (Prepared, Vec<usize>) {
    let g = prep.n_entities();
    let mut augmented = prep.clone();
    let mut mean_columns = Vec::new();
    for j in 0..prep.x.len() {
        if crate::linear::varies_within(&prep.x[j], &prep.entity, g) {
            let means = group_means(&prep.x[j], &prep.entity, g, None);
            augmented
                .x
                .push(prep.entity.iter().map(|&e| means[e]).collect());
            augmented.x_names.push(format!("{}_mean", prep.x_names[j]));
            mean_columns.push(augmented.x.len() - 1);
        }
    }
    (augmented, mean_columns)
}
