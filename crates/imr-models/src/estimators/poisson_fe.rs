//! Poisson regression with entity fixed effects (conditional ML); with absorbed effects, see
//! `crate::absorbed`.
//!
//! # Formula
//! `E[y_it] = exp(α_i + x_itᵀβ + o_it)`, `o_it = ln(exposure_it)`. Maximising the Poisson
//! log-likelihood over α_i gives `exp(α̂_i) = Σ_t y_it / Σ_t exp(x_itᵀβ + o_it)`; the
//! concentrated likelihood is the conditional (multinomial) likelihood of Hausman, Hall &
//! Griliches (1984), so the β estimate equals the Poisson GLM with entity dummies.
//! Newton's method on β with `μ_it = Σ_t y_it · exp(η_it) / Σ_t exp(η_it)`:
//! score `Σ x_it (y_it − μ_it)`, information `H = Σ_i Σ_t μ_it (x_it − x̄ᵘ_i)(x_it − x̄ᵘ_i)ᵀ`
//! with `x̄ᵘ_i` the μ-weighted entity mean — the β block of the inverse information of the
//! dummy-variable model.
//!
//! Covariances: `iid` = `H⁻¹` (model-based); `hc1` = `n/(n − G − k) · H⁻¹ Σ (y−μ)² x̃x̃ᵀ H⁻¹`;
//! `cluster` = `G/(G−1) · H⁻¹ Σ_g s_g s_gᵀ H⁻¹`, `s_g = Σ_t (y_it − μ_it) x̃_it`, as Stata
//! `xtpoisson, fe vce(robust)` (Wooldridge 1999). Inference is z-based.
//! Entities whose outcome is zero in every period have `α̂_i = −∞` and carry no
//! information on β: they are dropped and listed.

use super::{all_columns, Absorbs, Room};
use crate::convention::Convention;
use crate::error::{InvalidValue, NoRegressors, NotConverged, NotEnoughData};
use crate::estimated::Estimated;
use crate::exclusion::{EntityDropReason, ExclusionReason};
use crate::fit::{DroppedEntity, DroppedTerm, Fit, Reference};
use crate::linalg::{least_squares, spd_inverse};
use crate::linear::{varying_within, CoefficientVcov};
use crate::prepared::Prepared;
use crate::report::code::r::{r_sample, R_NO_TESTS, R_VARIES};
use crate::report::code::stata::{stata_exposure, StataModel};
use crate::spec::{PanelSpec, VcovKind};
use crate::vcov::{cluster_meat, hc_meat, sandwich, weighted_cross_product};
use crate::within::demean;
use crate::{Diagnostic, ModelError};
use nalgebra::{DMatrix, DVector};

struct State {
    loglik: f64,
    mu: Vec<f64>,
}

fn evaluate(prep: &Prepared, columns: &[&[f64]], beta: &[f64], entity_sum_y: &[f64]) -> State {
    let n = prep.n();
    let g = prep.n_entities();
    let mut eta: Vec<f64> = match &prep.offset {
        Some(o) => o.clone(),
        None => vec![0.0; n],
    };
    for (column, &b) in columns.iter().zip(beta) {
        eta.iter_mut()
            .zip(column.iter())
            .for_each(|(e, x)| *e += b * x);
    }
    let mut max_eta = vec![f64::NEG_INFINITY; g];
    for (&e, &grp) in eta.iter().zip(&prep.entity) {
        max_eta[grp] = max_eta[grp].max(e);
    }
    let mut sums = vec![0.0; g];
    for (e, &grp) in eta.iter_mut().zip(&prep.entity) {
        *e = (*e - max_eta[grp]).exp();
        sums[grp] += *e;
    }
    let mut loglik = 0.0;
    let mu: Vec<f64> = eta
        .iter()
        .zip(&prep.entity)
        .zip(&prep.y)
        .map(|((&e, &grp), &y)| {
            let share = e / sums[grp];
            if y > 0.0 {
                loglik += y * share.ln();
            }
            entity_sum_y[grp] * share
        })
        .collect();
    State { loglik, mu }
}

/// `x − x̄ᵘ_i`, the μ-weighted within transformation.
fn mu_demeaned(prep: &Prepared, columns: &[&[f64]], mu: &[f64]) -> Vec<Vec<f64>> {
    columns
        .iter()
        .map(|c| demean(c, &prep.entity, prep.n_entities(), Some(mu)))
        .collect()
}

/// The conditional Poisson fit of the panel (see the module's formula).
fn poisson_fe(prep: &Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let n = prep.n();
    let g = prep.n_entities();
    // collinearity among the within-transformed regressors that vary within entities
    let (candidates, demeaned, mut dropped) =
        varying_within(prep, &all_columns(prep), |_, within| within);
    let rank = least_squares(&demeaned, &vec![0.0; n]);
    for &d in &rank.dropped {
        dropped.push(DroppedTerm {
            term: prep.x_names[candidates[d]].clone(),
            reason: crate::drop_reason::DropReason::CombinationAfterEntityEffects {
                name: prep.x_names[candidates[d]].clone(),
            },
        });
    }
    let kept: Vec<usize> = rank.kept.iter().map(|&k| candidates[k]).collect();
    if kept.is_empty() {
        return Err(ModelError::NoRegressors(
            NoRegressors::NoneVariesWithinEntities,
        ));
    }
    let columns: Vec<&[f64]> = kept.iter().map(|&j| prep.x[j].as_slice()).collect();
    let mut entity_sum_y = vec![0.0; g];
    for (&y, &e) in prep.y.iter().zip(&prep.entity) {
        entity_sum_y[e] += y;
    }

    let (beta, state, iterations) = newton(prep, &columns, &entity_sum_y)?;
    let tilde = mu_demeaned(prep, &columns, &state.mu);
    let h = weighted_cross_product(&tilde, &state.mu);
    let bread = spd_inverse(&h).ok_or(ModelError::NotConverged(
        NotConverged::SingularPoissonAtEstimate,
    ))?;
    let (covariance, convention) = covariance(prep, spec.vcov, &bread, &tilde, &state.mu)?;
    let terms: Vec<String> = kept.iter().map(|&j| prep.x_names[j].clone()).collect();
    // the residual degrees of freedom of the dummy-variable model, for a t reference
    let (reference, df) = Reference::of(spec.estimator, n.saturating_sub(g + terms.len()));
    let vcov = CoefficientVcov {
        covariance,
        reference,
        df,
        convention,
    };
    Ok(Estimated {
        dropped_terms: dropped,
        diagnostics: vec![Diagnostic::PoissonConverged { iterations }],
        irr: true,
        ..Estimated::bare(terms, DVector::from_vec(beta), vcov, n, g)
    })
}

/// Newton's method on β from zero, with step halving: the estimate, the state there and the
/// number of steps; an error when the information is singular or the steps do not settle.
fn newton(
    prep: &Prepared,
    columns: &[&[f64]],
    entity_sum_y: &[f64],
) -> Result<(Vec<f64>, State, usize), ModelError> {
    let k = columns.len();
    let mut beta = vec![0.0; k];
    let mut state = evaluate(prep, columns, &beta, entity_sum_y);
    let mut iterations = 0;
    let mut converged = false;
    while iterations < 200 {
        iterations += 1;
        let tilde = mu_demeaned(prep, columns, &state.mu);
        let score = DVector::from_iterator(
            k,
            columns.iter().map(|c| {
                c.iter()
                    .zip(&prep.y)
                    .zip(&state.mu)
                    .map(|((x, y), m)| x * (y - m))
                    .sum::<f64>()
            }),
        );
        let h = weighted_cross_product(&tilde, &state.mu);
        let Some(cholesky) = nalgebra::Cholesky::new(h) else {
            return Err(ModelError::NotConverged(
                NotConverged::SingularPoissonInformation,
            ));
        };
        let delta = cholesky.solve(&score);
        let decrement = score.dot(&delta);
        if decrement <= 1e-24 * (1.0 + state.loglik.abs()) {
            converged = true;
            break;
        }
        let mut step = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let trial: Vec<f64> = beta
                .iter()
                .zip(delta.iter())
                .map(|(b, d)| b + step * d)
                .collect();
            let trial_state = evaluate(prep, columns, &trial, entity_sum_y);
            if trial_state.loglik.is_finite()
                && trial_state.loglik >= state.loglik - 1e-12 * state.loglik.abs()
            {
                beta = trial;
                state = trial_state;
                accepted = true;
                break;
            }
            step /= 2.0;
        }
        if !accepted {
            // no ascent possible at machine precision: at the maximum
            converged = decrement <= 1e-12 * (1.0 + state.loglik.abs());
            break;
        }
    }
    if !converged {
        return Err(ModelError::NotConverged(NotConverged::PoissonIterations {
            iterations,
        }));
    }
    Ok((beta, state, iterations))
}

/// The covariance under `kind` from the bread `H⁻¹` at the estimate and the μ-demeaned
/// regressors (see the module's formulas).
fn covariance(
    prep: &Prepared,
    kind: VcovKind,
    bread: &DMatrix<f64>,
    tilde: &[Vec<f64>],
    mu: &[f64],
) -> Result<(DMatrix<f64>, Convention), ModelError> {
    let (n, g, k) = (prep.n(), prep.n_entities(), tilde.len());
    let resid: Vec<f64> = prep.y.iter().zip(mu).map(|(y, m)| y - m).collect();
    let tilde_refs: Vec<&[f64]> = tilde.iter().map(|c| c.as_slice()).collect();
    Ok(match kind {
        VcovKind::Iid => (bread.clone(), Convention::PoissonModel),
        VcovKind::Hc1 => {
            let df = n.saturating_sub(g + k).max(1);
            (
                sandwich(bread, &hc_meat(&tilde_refs, &resid), n as f64 / df as f64),
                Convention::PoissonHc1 { n, df },
            )
        }
        VcovKind::Cluster => {
            if g < 2 {
                return Err(ModelError::NotEnoughData(
                    NotEnoughData::ClusterNeedsTwoEntities,
                ));
            }
            (
                sandwich(
                    bread,
                    &cluster_meat(&tilde_refs, &resid, &prep.entity, g),
                    g as f64 / (g - 1) as f64,
                ),
                Convention::PoissonCluster { g },
            )
        }
    })
}

/// The counts of the fit are whole or not, but never negative: an error listing the first
/// rows that are.
fn check_counts(prep: &Prepared) -> Result<(), ModelError> {
    let negative: Vec<String> = prep
        .y
        .iter()
        .zip(&prep.row_label)
        .filter_map(|(&y, &row)| (y < 0.0).then_some(row.to_string()))
        .take(10)
        .collect();
    if negative.is_empty() {
        return Ok(());
    }
    Err(ModelError::InvalidValue(InvalidValue::NegativeCount {
        outcome: prep.y_name.clone(),
        rows: negative.join(", "),
    }))
}

/// Drops the entities that carry no information on the coefficients: the outcome zero in
/// every period (the entity's effect would be −∞) or a single row (its effect fits the row
/// exactly). Both are dropped and listed, as Stata `xtpoisson, fe` and pyfixest `fepois`;
/// returns them and the diagnostics naming them.
fn drop_uninformative(prep: &mut Prepared) -> (Vec<DroppedEntity>, Vec<Diagnostic>) {
    let g = prep.n_entities();
    let mut sum_y = vec![0.0; g];
    let mut rows_of = vec![0usize; g];
    for (&y, &e) in prep.y.iter().zip(&prep.entity) {
        sum_y[e] += y;
        rows_of[e] += 1;
    }
    let outcome = prep.y_name.clone();
    let mut dropped = Vec::new();
    let mut reasons = vec![None; g];
    for (e, label) in prep.entity_labels.iter().enumerate() {
        let entity = label.clone();
        let (reason, row_reason) = if sum_y[e] == 0.0 {
            let outcome = outcome.clone();
            let row_reason = ExclusionReason::EntityAllZero {
                entity: entity.clone(),
                outcome: outcome.clone(),
            };
            (EntityDropReason::AllZeroOutcome { outcome }, row_reason)
        } else if rows_of[e] == 1 {
            let row_reason = ExclusionReason::EntitySingleRow {
                entity: entity.clone(),
            };
            (EntityDropReason::SingleRow, row_reason)
        } else {
            continue;
        };
        reasons[e] = Some(row_reason);
        dropped.push(DroppedEntity { entity, reason });
    }
    prep.drop_entities(&reasons);
    let labels = |single: bool| -> Vec<String> {
        let dropped = dropped.iter();
        let of_kind = dropped.filter(|d| (d.reason == EntityDropReason::SingleRow) == single);
        of_kind.map(|d| d.entity.clone()).collect()
    };
    let (zero_labels, single_labels) = (labels(false), labels(true));
    let mut diagnostics = Vec::new();
    if !zero_labels.is_empty() {
        diagnostics.push(Diagnostic::AllZeroEntities {
            outcome,
            entities: zero_labels,
        });
    }
    if !single_labels.is_empty() {
        diagnostics.push(Diagnostic::SingleRowEntities {
            entities: single_labels,
        });
    }
    (dropped, diagnostics)
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    check_counts(prep)?;
    let (dropped_entities, dropped_diagnostics) = drop_uninformative(prep);
    if prep.n_entities() == 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::OutcomeAllZero {
            outcome: prep.y_name.clone(),
        }));
    }
    let mut est = poisson_fe(prep, spec)?;
    est.diagnostics.extend(dropped_diagnostics);
    est.dropped_entities = dropped_entities;
    Ok(est)
}

/// Poisson with entity dummies (`glm`): the slopes of the conditional Poisson.
fn r_model(fit: &Fit) -> String {
    let mut out = String::new();
    let offset = if fit.exposure.is_some() {
        " + offset(log(exposure))"
    } else {
        ""
    };
    out.push_str(&format!(
        "# entities whose outcome is zero in every period, or with a single row, carry no information\n\
         # on the slopes: left out (as Stata xtpoisson, fe and pyfixest fepois)\n\
         events <- ave(Y, entity, FUN = sum) > 0 & ave(Y, entity, FUN = length) > 1\n\
         Y <- Y[events]; X <- X[events, , drop = FALSE]; entity <- entity[events]{}\n\
         {R_VARIES}\
         # Poisson with entity dummies: the same slopes as the conditional (fixed-effects) Poisson.\n\
         # Deaths derived from a published rate are not whole numbers: glm's warnings about it are muted\n\
         m <- suppressWarnings(glm(Y ~ factor(entity) + X_w{offset}, family = poisson(),\n\
         \x20                         control = glm.control(epsilon = 1e-12, maxit = 100)))\n\
         stopifnot(m$converged)\n\
         prefix <- \"X_w\"; cols <- colnames(X_w)\ns <- kept(m, prefix)\nN <- length(Y); G <- length(unique(entity))\n",
        if fit.exposure.is_some() { "; exposure <- exposure[events]" } else { "" }
    ));
    out.push_str(match fit.vcov {
        VcovKind::Iid => "V <- vcov(m)[s, s, drop = FALSE]  # inverse information\n",
        VcovKind::Hc1 => "# robust: N/(N − G − k), G the entity effects and k the slopes\nV <- sandwich::vcovHC(m, type = \"HC0\")[s, s, drop = FALSE] * N / (N - G - length(s))\n",
        VcovKind::Cluster => "# clustered by entity with G/(G − 1) only, as Stata xtpoisson, fe vce(robust)\nV <- sandwich::vcovCL(m, cluster = entity, type = \"HC0\")[s, s, drop = FALSE]\n",
    });
    out.push_str("ref_df <- Inf  # normal reference\n");
    out.push_str(&r_sample(""));
    out.push_str(R_NO_TESTS);
    out
}

fn stata_model(m: &StataModel) -> String {
    let exposure = stata_exposure(m.fit);
    let v = match m.fit.vcov {
        VcovKind::Iid => "",
        _ => " vce(robust)",
    };
    format!("xtpoisson {} {}, fe{exposure}{v}\nxtpoisson, irr\n", m.y, m.rhs())
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "poisson-fe",
    label: ("Poisson con efectos fijos", "Poisson fixed effects"),
    plain: ("Poisson con efectos fijos", "Poisson fixed effects"),
    compares: (
        "las defunciones de cada comuna en el tiempo",
        "each commune's deaths over time",
    ),
    takes_weights: false,
    uses_z: true,
    takes_exposure: true,
    lists_singletons: false,
    fit,
    absorbs: Some(Absorbs::Poisson),
    r_model,
    stata_model,
};
