//! First differences: OLS of `Δy_it` on `Δx_it` without intercept, Δ over consecutive periods
//! of the panel (a gap breaks the difference), as Stata `regress D.y D.x, noconstant` and
//! linearmodels `FirstDifferenceOLS`.

use super::{labels, no_regressors, Room};
use crate::drop_reason::{DropReason, Stage};
use crate::error::NotEnoughData;
use crate::estimated::Estimated;
use crate::fit::{DroppedTerm, Fit};
use crate::linalg::least_squares;
use crate::linear::{collinear_terms, LinearCore};
use crate::prepared::Prepared;
use crate::report::code::r::{r_linear_vcov, r_t_df, R_NO_TESTS};
use crate::report::code::stata::StataModel;
use crate::spec::PanelSpec;
use crate::{Diagnostic, ModelError};

/// First-difference regression; also returns the number of differences per entity.
pub(crate) fn fd_core(prep: &Prepared) -> (LinearCore, Vec<DroppedTerm>, Vec<usize>, Vec<usize>) {
    // pairs (previous row, row) of consecutive periods within an entity
    let pairs: Vec<(usize, usize)> = (1..prep.n())
        .filter(|&i| {
            prep.entity[i] == prep.entity[i - 1] && prep.period[i] == prep.period[i - 1] + 1
        })
        .map(|i| (i - 1, i))
        .collect();
    let diff = |values: &[f64]| -> Vec<f64> {
        pairs.iter().map(|&(a, b)| values[b] - values[a]).collect()
    };
    let mut dropped = Vec::new();
    let mut candidates = Vec::new();
    let mut design = Vec::new();
    for j in 0..prep.x.len() {
        let d = diff(&prep.x[j]);
        if d.iter().all(|v| *v == 0.0) {
            dropped.push(DroppedTerm {
                term: prep.x_names[j].clone(),
                reason: DropReason::TimeInvariant {
                    name: prep.x_names[j].clone(),
                    differences: true,
                },
            });
        } else {
            candidates.push(j);
            design.push(d);
        }
    }
    let y = diff(&prep.y);
    let ls = least_squares(&design, &y);
    dropped.extend(collinear_terms(
        &ls,
        |c| prep.x_names[candidates[c]].clone(),
        Stage::FirstDifferences,
    ));
    // clusters: entities with at least one difference, renumbered
    let mut cluster_of_entity = vec![usize::MAX; prep.n_entities()];
    let mut n_clusters = 0;
    let mut per_entity = vec![0usize; prep.n_entities()];
    let cluster: Vec<usize> = pairs
        .iter()
        .map(|&(_, b)| {
            let e = prep.entity[b];
            per_entity[e] += 1;
            if cluster_of_entity[e] == usize::MAX {
                cluster_of_entity[e] = n_clusters;
                n_clusters += 1;
            }
            cluster_of_entity[e]
        })
        .collect();
    let kept: Vec<usize> = ls.kept.iter().map(|&k| candidates[k]).collect();
    let names: Vec<String> = candidates
        .iter()
        .map(|&j| prep.x_names[j].clone())
        .collect();
    let core = LinearCore::of_kept(&names, design, ls, cluster, n_clusters);
    (core, dropped, kept, per_entity)
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let (core, dropped, kept, per_entity) = fd_core(prep);
    if core.n == 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::NoFirstDifference));
    }
    if kept.is_empty() {
        return Err(no_regressors("fd", &dropped));
    }
    let mut est = Estimated::linear(&core, spec)?;
    est.dropped_terms = dropped;
    let breaks = prep.n() - core.n - prep.n_entities();
    let without: Vec<&String> = per_entity
        .iter()
        .zip(&prep.entity_labels)
        .filter_map(|(&c, l)| (c == 0).then_some(l))
        .collect();
    est.diagnostics.push(Diagnostic::FirstDifferences {
        differences: core.n,
        rows: prep.n(),
        after_gap: breaks,
    });
    if !without.is_empty() {
        est.diagnostics.push(Diagnostic::NoConsecutivePeriods {
            entities: labels(without),
        });
    }
    Ok(est)
}

/// `lm` on the differences between consecutive periods present.
fn r_model(fit: &Fit) -> String {
    let mut out = String::new();
    out.push_str(
        "# differences between consecutive periods of an entity, the periods being the years present\n\
         # among the rows used (as imr; Stata's D. needs the years one apart)\n\
         p <- match(period, sort(unique(period)))\n\
         i <- which(entity[-1] == entity[-length(entity)] & p[-1] == p[-length(p)] + 1) + 1\n\
         dY <- Y[i] - Y[i - 1]\n\
         dX <- X[i, , drop = FALSE] - X[i - 1, , drop = FALSE]\n\
         m <- lm(dY ~ 0 + dX)\nprefix <- \"dX\"; cols <- colnames(dX)\ns <- kept(m, prefix)\n",
    );
    out.push_str(&r_linear_vcov(fit.vcov, "entity[i]"));
    out.push_str(&r_t_df(fit, "length(unique(entity[i]))"));
    out.push_str("sizes <- data.frame(quantity = c(\"nobs\", \"entities\"), value = c(length(i), length(unique(entity[i]))))\n");
    out.push_str(R_NO_TESTS);
    out
}

fn stata_model(m: &StataModel) -> String {
    let d: Vec<String> = std::iter::once(&m.y)
        .chain(&m.xs)
        .map(|v| format!("D.{v}"))
        .collect();
    format!(
        "* D. differences years one apart; imr (and the R code) differences consecutive years present\n\
         regress {}, noconstant{}\n",
        d.join(" "),
        m.vce(m.fit.vcov)
    )
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "fd",
    label: ("Primeras diferencias", "First differences"),
    plain: ("primeras diferencias", "first differences"),
    compares: (
        "el cambio de cada comuna de un año al siguiente",
        "each commune's change from one year to the next",
    ),
    takes_weights: false,
    uses_z: false,
    takes_exposure: false,
    lists_singletons: true,
    fit,
    absorbs: None,
    r_model,
    stata_model,
};
