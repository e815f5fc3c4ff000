//! The within (entity fixed effects) regression: what `fe` fits, and what `re` builds on (its
//! σ²_e, and the Hausman test's fixed-effects side). Not an estimator of its own: it has no
//! [`super::Room`].

use crate::drop_reason::Stage;
use crate::fit::DroppedTerm;
use crate::linalg::least_squares;
use crate::linear::{collinear_terms, scaled_owned, varying_within, LinearCore};
use crate::prepared::Prepared;
use crate::within::demean;

/// The within (entity fixed effects) regression on the given regressors; regressors without
/// within variation are dropped with the reason.
pub(crate) fn fe_core(
    prep: &Prepared,
    columns: &[usize],
    weighted: bool,
) -> (LinearCore, Vec<DroppedTerm>, Vec<usize>) {
    let g = prep.n_entities();
    let weights = if weighted {
        prep.weights.as_deref()
    } else {
        None
    };
    let sqrt_w: Option<Vec<f64>> = weights.map(|w| w.iter().map(|v| v.sqrt()).collect());
    // unweighted, the within transformation is the design column; weighted, the weighted one
    let (candidates, design, mut dropped) =
        varying_within(prep, columns, |j, within| match weights {
            None => within,
            Some(_) => scaled_owned(
                demean(&prep.x[j], &prep.entity, g, weights),
                sqrt_w.as_deref(),
            ),
        });
    let y = scaled_owned(demean(&prep.y, &prep.entity, g, weights), sqrt_w.as_deref());
    let ls = least_squares(&design, &y);
    dropped.extend(collinear_terms(
        &ls,
        |c| prep.x_names[candidates[c]].clone(),
        Stage::EntityEffects,
    ));
    let kept: Vec<usize> = ls.kept.iter().map(|&k| candidates[k]).collect();
    let terms = kept.iter().map(|&j| prep.x_names[j].clone()).collect();
    // the g entity effects are nested in the entity clusters: only the constant counts in CR1
    let core = LinearCore::within(terms, design, ls, prep.entity.clone(), g, g, 1);
    (core, dropped, kept)
}
