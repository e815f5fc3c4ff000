//! Poisson regression off every fixed effect of `data.fixed_effects` (pyfixest `fepois`,
//! fixest `fepois`): iteratively reweighted least squares, each step the weighted within
//! regression of the working response on the regressors.
//!
//! # Formula
//! With `μ` the current mean and `η = ln μ`, the working response `z = η − o + y/μ − 1`
//! (`o` = ln exposure) and the regressors are demeaned off the effects with weights `μ`
//! (alternating projections, [`Demeaner`]); `δ` is the least squares of `√μ·z̃` on `√μ·X̃`;
//! then `η ← z − (z̃ − X̃δ) + o`. Started at `μ = (y + ȳ)/2`; stops when the deviance
//! `D = 2 Σ [y ln(y/μ) − (y − μ)]` changes by less than 1e-12·(0.1 + |D|) (fixest's rule).
//! Bread `B = (X̃ᵀWX̃)⁻¹` and scores `û_i √μ_i x̃_i`, `û = √μ(z̃ − X̃δ)`, of the last step;
//! `iid` = `(N−1)/(N−K)·B`, `hc1` = `N/(N−K)·B(Σ s_i s_iᵀ)B`, clustered = CR1 as the linear
//! model (one- or two-way), `K` counting the coefficients and the effects' levels less one
//! per effect after the first (pyfixest `ssc()`). Inference normal (z).
//!
//! Reference: Correia, Guimarães & Zylkin (2020), "Fast Poisson estimation with
//! high-dimensional fixed effects", *Stata Journal* 20(1), 95–115; pyfixest 0.60 `Fepois`.

use super::{absorbed_term, demean_column, AbsorbedEffect, AbsorbedRows, ClusterSetup, Demeaner};
use crate::convention::Convention;
use crate::data::PanelData;
use crate::diagnostic::Diagnostic;
use crate::drop_reason::Stage;
use crate::error::{NotConverged, NotEnoughData, Unsupported};
use crate::estimated::Estimated;
use crate::estimators::no_regressors;
use crate::fit::{DroppedTerm, Reference};
use crate::linalg::{least_squares, LeastSquares};
use crate::linear::{collinear_terms, CoefficientVcov};
use crate::spec::{PanelSpec, VcovKind};
use crate::ModelError;

/// What the iterations end with: the last step's least squares and (weighted) design, the
/// regressors kept (indices into `data.x`), those dropped, and the number of steps.
struct Irls {
    ls: LeastSquares,
    design: Vec<Vec<f64>>,
    columns: Vec<usize>,
    dropped: Vec<DroppedTerm>,
    iterations: usize,
}

/// Iteratively reweighted least squares off the effects until the deviance settles (see the
/// module's formula).
fn irls(
    data: &PanelData,
    rows: &AbsorbedRows,
    effect_names: &[String],
) -> Result<Irls, ModelError> {
    let n = rows.y.len();
    let y = &rows.y;
    let offset = |i: usize| rows.offset.as_ref().map_or(0.0, |o| o[i]);
    let deviance = |mu: &[f64]| -> f64 {
        2.0 * y
            .iter()
            .zip(mu)
            .map(|(&y, &m)| {
                let log_term = if y > 0.0 { y * (y / m).ln() } else { 0.0 };
                log_term - (y - m)
            })
            .sum::<f64>()
    };
    let mean = y.iter().sum::<f64>() / n as f64;
    let mut mu: Vec<f64> = y.iter().map(|&v| (v + mean) / 2.0).collect();
    let mut eta: Vec<f64> = mu.iter().map(|m| m.ln()).collect();
    let mut last = deviance(&mu);
    let mut work = [vec![0.0; n], vec![0.0; n]];
    let mut dropped = Vec::new();
    // the regressors kept (indices into data.x), decided at the first step
    let mut columns: Option<Vec<usize>> = None;
    let mut iterations = 0;
    loop {
        iterations += 1;
        let z: Vec<f64> = (0..n)
            .map(|i| eta[i] - offset(i) + y[i] / mu[i] - 1.0)
            .collect();
        let mut demeaner = Demeaner::new(&rows.codes, &rows.levels, Some(&mu));
        let mut z_tilde = z.clone();
        demean_column(
            &mut demeaner,
            &mut z_tilde,
            &mut work,
            &data.y.name,
            effect_names,
        )?;
        let sqrt_w: Vec<f64> = mu.iter().map(|m| m.sqrt()).collect();
        let candidates: Vec<usize> = match &columns {
            Some(kept) => kept.clone(),
            None => (0..rows.x.len()).collect(),
        };
        let mut x_tilde = Vec::with_capacity(candidates.len());
        let mut kept_here = Vec::with_capacity(candidates.len());
        for &j in &candidates {
            let mut column = rows.x[j].clone();
            let name = &data.x[j].name;
            let gone = demean_column(&mut demeaner, &mut column, &mut work, name, effect_names)?;
            if columns.is_none() && gone {
                dropped.push(absorbed_term(name, effect_names));
                continue;
            }
            kept_here.push(j);
            x_tilde.push(column);
        }
        let design: Vec<Vec<f64>> = x_tilde
            .iter()
            .map(|c| c.iter().zip(&sqrt_w).map(|(v, s)| v * s).collect())
            .collect();
        let wz: Vec<f64> = z_tilde.iter().zip(&sqrt_w).map(|(v, s)| v * s).collect();
        let ls = least_squares(&design, &wz);
        if columns.is_none() {
            dropped.extend(collinear_terms(
                &ls,
                |c| data.x[kept_here[c]].name.clone(),
                Stage::AbsorbedEffects,
            ));
            let kept: Vec<usize> = ls.kept.iter().map(|&c| kept_here[c]).collect();
            if kept.is_empty() {
                return Err(no_regressors("poisson-fe", &dropped));
            }
            let all_kept = kept.len() == kept_here.len();
            columns = Some(kept);
            if !all_kept {
                // the step again on the columns kept only
                continue;
            }
        }
        // η ← z − (z̃ − X̃δ) + o, the working residual being û/√μ
        for i in 0..n {
            eta[i] = z[i] - ls.resid[i] / sqrt_w[i] + offset(i);
            mu[i] = eta[i].exp();
        }
        let current = deviance(&mu);
        if !current.is_finite() {
            return Err(ModelError::NotConverged(NotConverged::PoissonIterations {
                iterations,
            }));
        }
        let change = (current - last).abs() / (0.1 + last.abs());
        last = current;
        if change < 1e-12 {
            return Ok(Irls {
                ls,
                design,
                columns: columns.unwrap_or_default(),
                dropped,
                iterations,
            });
        }
        if iterations >= 100 {
            return Err(ModelError::NotConverged(NotConverged::PoissonIterations {
                iterations,
            }));
        }
    }
}

/// The Poisson fit of `rows`; `diagnostics` are the rows' own.
pub(super) fn fit(
    spec: &PanelSpec,
    data: &PanelData,
    rows: AbsorbedRows,
    absorbed: &[AbsorbedEffect],
    cluster: ClusterSetup,
    diagnostics: Vec<Diagnostic>,
) -> Result<Estimated, ModelError> {
    if data.weights.is_some() {
        return Err(ModelError::Unsupported(Unsupported::Weights {
            model: spec.estimator.to_string(),
            poisson: true,
        }));
    }
    let n = rows.y.len();
    let effect_names: Vec<String> = absorbed.iter().map(|a| a.name.clone()).collect();
    let Irls {
        ls,
        design,
        columns,
        dropped,
        iterations,
    } = irls(data, &rows, &effect_names)?;
    let terms: Vec<String> = columns.iter().map(|&j| data.x[j].name.clone()).collect();
    let bread = ls.xtx_inv.clone();
    let core = cluster.core(terms.clone(), design, ls, absorbed);
    if core.df_resid == 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::NoResidualDf {
            n,
            k: terms.len(),
        }));
    }
    let vcov = match spec.vcov {
        VcovKind::Iid => {
            let df = core.df_resid;
            let (reference, t_df) = Reference::of(spec.estimator, df);
            CoefficientVcov {
                covariance: bread * ((n - 1) as f64 / df as f64),
                reference,
                df: t_df,
                convention: Convention::PoissonAbsorbedModel { n, df },
            }
        }
        kind => core.covariance(kind, spec.estimator)?,
    };
    let beta = core.ls.beta.clone();
    let mut est = Estimated::bare(terms, beta, vcov, n, rows.n_entities);
    est.irr = true;
    est.dropped_terms = dropped;
    est.diagnostics = vec![Diagnostic::PoissonConverged { iterations }];
    est.diagnostics.extend(diagnostics);
    if rows.zero_outcome > 0 {
        est.diagnostics.push(Diagnostic::ZeroOutcomeRowsRemoved {
            outcome: data.y.name.clone(),
            rows: rows.zero_outcome,
        });
    }
    Ok(est)
}
