//! Pooled OLS: OLS of `y_it` on `(1, x_it)`, ignoring the panel structure (weighted: rows
//! scaled by `√w_it`); the Breusch–Pagan test of no random effects on its residuals.

use super::{all_columns, slopes_of, Room};
use crate::drop_reason::{DropReason, Stage};
use crate::estimated::Estimated;
use crate::fit::{DroppedTerm, Fit};
use crate::hypothesis::breusch_pagan;
use crate::linalg::least_squares;
use crate::linear::{collinear_reason, scaled, sqrt_weights, LinearCore};
use crate::r2::r2_stata;
use crate::prepared::Prepared;
use crate::report::code::r::{
    r_linear_vcov, r_sample, r_t_df, r_weights, R_BREUSCH_PAGAN, R_NO_TESTS,
};
use crate::report::code::stata::StataModel;
use crate::spec::PanelSpec;
use crate::ModelError;

/// OLS with intercept on untransformed (weighted) data: the pooled model, and the restricted
/// model of the F test.
pub(crate) fn pooled_core(prep: &Prepared, columns: &[usize]) -> (LinearCore, Vec<DroppedTerm>) {
    let sqrt_w = sqrt_weights(prep);
    let n = prep.n();
    let mut design = Vec::with_capacity(columns.len() + 1);
    design.push(match &sqrt_w {
        Some(s) => s.clone(),
        None => vec![1.0; n],
    });
    for &j in columns {
        design.push(scaled(&prep.x[j], sqrt_w.as_deref()));
    }
    let y = scaled(&prep.y, sqrt_w.as_deref());
    let ls = least_squares(&design, &y);
    let names = prep.names_with_intercept(columns);
    let dropped = ls
        .collinear(|c| names[c].clone())
        .into_iter()
        .zip(&ls.dropped)
        .map(|((name, earlier), &d)| {
            let constant = prep.x[columns[d - 1]]
                .iter()
                .all(|v| *v == prep.x[columns[d - 1]][0]);
            let reason = if constant {
                DropReason::Constant { name: name.clone() }
            } else {
                collinear_reason(&name, &earlier, Stage::Pooled)
            };
            DroppedTerm { term: name, reason }
        })
        .collect();
    let core = LinearCore::of_kept(&names, design, ls, prep.entity.clone(), prep.n_entities());
    (core, dropped)
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let weighted = prep.weights.is_some();
    let (core, dropped) = pooled_core(prep, &all_columns(prep));
    let mut est = Estimated::linear(&core, spec)?;
    est.dropped_terms = dropped;
    let (columns, beta) = slopes_of(&core, prep, true);
    est.r2 = r2_stata(prep, &columns, &beta, weighted);
    if !weighted {
        est.tests.breusch_pagan = breusch_pagan(&core.ls.resid, &prep.entity, prep.n_entities());
    }
    Ok(est)
}

/// `lm` on `(1, X)`, weighted when the fit is.
fn r_model(fit: &Fit) -> String {
    let w = r_weights(fit);
    let mut out = String::new();
    out.push_str(&format!(
        "Z <- cbind(\"(Intercept)\" = 1, X)\nm <- lm(Y ~ 0 + Z{w})\nprefix <- \"Z\"; cols <- colnames(Z)\ns <- kept(m, prefix)\n"
    ));
    out.push_str(&r_linear_vcov(fit.vcov, "entity"));
    out.push_str(&r_t_df(fit, "length(unique(entity))"));
    out.push_str(&r_sample(""));
    if fit.weights.is_none() {
        out.push_str(R_BREUSCH_PAGAN);
        out.push_str("bp <- breusch_pagan(residuals(m), entity)\ntests <- data.frame(test = \"breusch_pagan\", statistic = bp, df1 = 1, df2 = NA)[!is.na(bp), ]\n");
    } else {
        out.push_str(R_NO_TESTS);
    }
    out
}

fn stata_model(m: &StataModel) -> String {
    format!("regress {} {}{}{}\n", m.y, m.rhs(), m.weight, m.opts(""))
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "pooled",
    label: ("MCO agrupado", "Pooled OLS"),
    plain: ("MCO agrupado", "pooled OLS"),
    compares: (
        "todas las filas juntas, sin distinguir comunas",
        "all rows together, communes not told apart",
    ),
    takes_weights: true,
    uses_z: false,
    takes_exposure: false,
    lists_singletons: false,
    fit,
    absorbs: None,
    r_model,
    stata_model,
};
