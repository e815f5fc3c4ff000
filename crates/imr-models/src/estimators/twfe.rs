//! Entity and year fixed effects: OLS on the two-way within transformation (see
//! [`crate::within`]); the number of absorbed effects is `G + T − c`, c the connected
//! components of the entity–period graph. The F test of no entity or year effects.

use super::pooled::pooled_core;
use super::{no_regressors, Room};
use crate::drop_reason::{DropReason, Stage};
use crate::error::NotConverged;
use crate::estimated::Estimated;
use crate::fit::DroppedTerm;
use crate::hypothesis::f_effects;
use crate::linalg::least_squares;
use crate::linear::{
    collinear_terms, norm, scaled_owned, sqrt_weights, time_invariant_reason, varies_within,
    LinearCore,
};
use crate::prepared::Prepared;
use crate::report::code::stata::StataModel;
use crate::spec::{PanelSpec, VcovKind};
use crate::within::demean;
use crate::ModelError;

/// Two-way fixed effects regression.
pub(crate) fn twfe_core(
    prep: &Prepared,
) -> Result<(LinearCore, Vec<DroppedTerm>, Vec<usize>, usize), ModelError> {
    let g = prep.n_entities();
    let t = prep.n_periods();
    let weights = prep.weights.as_deref();
    let sqrt_w = sqrt_weights(prep);
    let mut dropped = Vec::new();
    let mut candidates = Vec::new();
    let mut design = Vec::new();
    let two_way = |values: &[f64]| {
        crate::within::demean_two_way(values, &prep.entity, g, &prep.period, t, weights)
    };
    for j in 0..prep.x.len() {
        let name = &prep.x_names[j];
        if !varies_within(&prep.x[j], &prep.entity, g) {
            dropped.push(DroppedTerm {
                term: name.clone(),
                reason: time_invariant_reason(name),
            });
            continue;
        }
        let one_way = demean(&prep.x[j], &prep.entity, g, weights);
        let result = two_way(&prep.x[j]);
        if !result.converged {
            return Err(ModelError::NotConverged(NotConverged::TwoWay {
                column: name.clone(),
            }));
        }
        if norm(&result.values) <= 1e-9 * norm(&one_way) {
            dropped.push(DroppedTerm {
                term: name.clone(),
                reason: DropReason::YearCollinear { name: name.clone() },
            });
            continue;
        }
        candidates.push(j);
        design.push(scaled_owned(result.values, sqrt_w.as_deref()));
    }
    let y_two_way = two_way(&prep.y);
    if !y_two_way.converged {
        return Err(ModelError::NotConverged(NotConverged::TwoWayOutcome));
    }
    let y = scaled_owned(y_two_way.values, sqrt_w.as_deref());
    let ls = least_squares(&design, &y);
    dropped.extend(collinear_terms(
        &ls,
        |c| prep.x_names[candidates[c]].clone(),
        Stage::EntityAndYearEffects,
    ));
    let kept: Vec<usize> = ls.kept.iter().map(|&k| candidates[k]).collect();
    let components = crate::within::connected_components(&prep.entity, g, &prep.period, t);
    let absorbed = g + t - components;
    let terms = kept.iter().map(|&j| prep.x_names[j].clone()).collect();
    // year effects are not nested in entity clusters: counted, plus the constant
    let core = LinearCore::within(
        terms,
        design,
        ls,
        prep.entity.clone(),
        g,
        absorbed,
        absorbed - g + 1,
    );
    Ok((core, dropped, kept, absorbed))
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let (core, dropped, kept, absorbed) = twfe_core(prep)?;
    if kept.is_empty() {
        return Err(no_regressors("twfe", &dropped));
    }
    let mut est = Estimated::linear(&core, spec)?;
    est.dropped_terms = dropped;
    est.sigma2_e = Some(core.s2());
    // within R² of the model with year effects: 1 − SSR / Σ w (y − ȳ_i)²
    let y_within = crate::within::demean(
        &prep.y,
        &prep.entity,
        prep.n_entities(),
        prep.weights.as_deref(),
    );
    let tss: f64 = match &prep.weights {
        Some(w) => y_within.iter().zip(w).map(|(v, w)| w * v * v).sum(),
        None => y_within.iter().map(|v| v * v).sum(),
    };
    est.r2 = (Some(1.0 - core.ls.ssr() / tss), None, None);
    let pooled_ssr = pooled_core(prep, &kept).0.ls.ssr();
    est.tests.f_effects = f_effects(
        pooled_ssr,
        core.ls.ssr(),
        absorbed - 1,
        core.df_resid,
        crate::Hypothesis::NoEntityOrYearEffects,
    );
    Ok(est)
}

fn stata_model(m: &StataModel) -> String {
    format!(
        "xtreg {} {} i.{}{}{}\n",
        m.y,
        m.rhs(),
        m.time,
        m.weight,
        if m.fit.vcov == VcovKind::Hc1 {
            ", fe vce(robust)  // Stata treats robust as clustered here".to_string()
        } else {
            m.opts("fe")
        }
    )
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "twfe",
    label: (
        "Efectos fijos de entidad y año",
        "Entity and year fixed effects",
    ),
    plain: ("efectos fijos de comuna y año", "commune and year fixed effects"),
    compares: (
        "cada comuna comparada consigo misma, sin lo que comparten todas en cada año",
        "each commune compared with itself, net of what all share each year",
    ),
    takes_weights: true,
    uses_z: false,
    takes_exposure: false,
    lists_singletons: true,
    fit,
    absorbs: None,
    // the entity and year effects as dummies: fe's R code with `factor(period)`
    r_model: super::fe::r_model,
    stata_model,
};
