//! Between: OLS of `ȳ_i` on `(1, x̄_i)`, one row per entity (Baltagi 2021, §2.6; Stata
//! `xtreg, be`; R plm `model = "between"`).

use super::{all_columns, slopes_of, Room};
use crate::drop_reason::Stage;
use crate::estimated::Estimated;
use crate::fit::{DroppedTerm, Fit};
use crate::linalg::least_squares;
use crate::linear::{collinear_reason, LinearCore};
use crate::r2::r2_stata;
use crate::prepared::Prepared;
use crate::report::code::r::{r_linear_vcov, r_sample, r_t_df, R_NO_TESTS};
use crate::report::code::stata::StataModel;
use crate::spec::{PanelSpec, VcovKind};
use crate::within::group_means;
use crate::ModelError;

/// Between regression: entity means with intercept.
pub(crate) fn be_core(prep: &Prepared, columns: &[usize]) -> (LinearCore, Vec<DroppedTerm>) {
    let g = prep.n_entities();
    let mut design = vec![vec![1.0; g]];
    for &j in columns {
        design.push(group_means(&prep.x[j], &prep.entity, g, None));
    }
    let y = group_means(&prep.y, &prep.entity, g, None);
    let ls = least_squares(&design, &y);
    let names = prep.names_with_intercept(columns);
    let dropped = ls
        .collinear(|c| names[c].clone())
        .into_iter()
        .map(|(name, earlier)| DroppedTerm {
            reason: collinear_reason(&name, &earlier, Stage::EntityMeans),
            term: name,
        })
        .collect();
    let core = LinearCore::of_kept(&names, design, ls, (0..g).collect(), g);
    (core, dropped)
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let (core, dropped) = be_core(prep, &all_columns(prep));
    let mut est = Estimated::linear(&core, spec)?;
    est.dropped_terms = dropped;
    est.nobs = prep.n();
    let (columns, beta) = slopes_of(&core, prep, true);
    est.r2 = r2_stata(prep, &columns, &beta, false);
    Ok(est)
}

/// `lm` on the entity means.
fn r_model(fit: &Fit) -> String {
    let mut out = String::new();
    out.push_str(
        "# one row per entity: the entity means, with an intercept\n\
         Y_b <- as.vector(tapply(Y, entity, mean))\n\
         Z_b <- cbind(\"(Intercept)\" = 1, matrix(apply(X, 2, function(v) tapply(v, entity, mean)), ncol = ncol(X), dimnames = list(NULL, colnames(X))))\n\
         m <- lm(Y_b ~ 0 + Z_b)\nprefix <- \"Z_b\"; cols <- colnames(Z_b)\ns <- kept(m, prefix)\n",
    );
    out.push_str(&r_linear_vcov(fit.vcov, "seq_along(Y_b)"));
    out.push_str(&r_t_df(fit, "length(Y_b)"));
    out.push_str(&r_sample(""));
    out.push_str(R_NO_TESTS);
    out
}

fn stata_model(m: &StataModel) -> String {
    format!(
        "xtreg {} {}, be{}\n",
        m.y,
        m.rhs(),
        if m.fit.vcov == VcovKind::Iid {
            ""
        } else {
            "  // xtreg, be has classical errors only; imr's robust ones: regress on entity means"
        }
    )
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "be",
    label: ("Entre entidades (medias)", "Between (entity means)"),
    plain: ("entre comunas", "between communes"),
    compares: (
        "el promedio de cada comuna",
        "each commune's average",
    ),
    takes_weights: false,
    uses_z: false,
    takes_exposure: false,
    lists_singletons: false,
    fit,
    absorbs: None,
    r_model,
    stata_model,
};
