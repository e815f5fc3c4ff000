//! The within regression off every absorbed effect (pyfixest `feols`): the outcome and each
//! regressor demeaned by alternating projections ([`Demeaner`]), weighted when the fit is,
//! then least squares of `√w·ỹ` on `√w·X̃`; degrees of freedom as the parent module says.

use super::{absorbed_term, demean_column, AbsorbedEffect, AbsorbedRows, ClusterSetup, Demeaner};
use crate::data::PanelData;
use crate::diagnostic::Diagnostic;
use crate::drop_reason::Stage;
use crate::estimated::Estimated;
use crate::estimators::no_regressors;
use crate::linalg::least_squares;
use crate::linear::{collinear_terms, scaled_owned};
use crate::spec::PanelSpec;
use crate::ModelError;

/// The within fit of `rows`; `diagnostics` are the rows' own, which the fit's open with.
pub(super) fn fit(
    spec: &PanelSpec,
    data: &PanelData,
    rows: AbsorbedRows,
    absorbed: &[AbsorbedEffect],
    cluster: ClusterSetup,
    diagnostics: Vec<Diagnostic>,
) -> Result<Estimated, ModelError> {
    let n = rows.y.len();
    let effect_names: Vec<String> = absorbed.iter().map(|a| a.name.clone()).collect();
    let weights = rows.weights.as_deref();
    let sqrt_w: Option<Vec<f64>> = weights.map(|w| w.iter().map(|v| v.sqrt()).collect());
    let mut demeaner = Demeaner::new(&rows.codes, &rows.levels, weights);
    let mut work = [vec![0.0; n], vec![0.0; n]];
    let mut y = rows.y;
    demean_column(
        &mut demeaner,
        &mut y,
        &mut work,
        &data.y.name,
        &effect_names,
    )?;
    let mut dropped = Vec::new();
    let mut candidates = Vec::new();
    let mut design = Vec::new();
    for (j, mut column) in rows.x.into_iter().enumerate() {
        let name = &data.x[j].name;
        if demean_column(&mut demeaner, &mut column, &mut work, name, &effect_names)? {
            dropped.push(absorbed_term(name, &effect_names));
            continue;
        }
        candidates.push(j);
        design.push(scaled_owned(column, sqrt_w.as_deref()));
    }
    drop(work);
    // weighted: the least squares of √w·ỹ on √w·X̃ (SSR and TSS are then weighted sums)
    let y = scaled_owned(y, sqrt_w.as_deref());
    let ls = least_squares(&design, &y);
    dropped.extend(collinear_terms(
        &ls,
        |c| data.x[candidates[c]].name.clone(),
        Stage::AbsorbedEffects,
    ));
    if ls.kept.is_empty() {
        return Err(no_regressors("fe", &dropped));
    }
    let terms = ls
        .kept
        .iter()
        .map(|&c| data.x[candidates[c]].name.clone())
        .collect();
    let core = cluster.core(terms, design, ls, absorbed);
    let mut est = Estimated::linear(&core, spec)?;
    est.n_entities = rows.n_entities;
    est.dropped_terms = dropped;
    est.sigma2_e = Some(core.s2());
    let tss: f64 = y.iter().map(|v| v * v).sum();
    est.r2 = (Some(1.0 - core.ls.ssr() / tss), None, None);
    est.diagnostics = diagnostics;
    Ok(est)
}
