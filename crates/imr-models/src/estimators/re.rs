//! Random effects (Swamy–Arora), with the Breusch–Pagan test and the Hausman test against
//! fixed effects (which `fe` reports too); Mundlak's `cre` (cre.rs) is this fit with the
//! entity means added.
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

use super::be::be_core;
use super::pooled::pooled_core;
use super::within_regression::fe_core;
use super::{all_columns, slopes_of, sub_matrix, sub_vector, Room};
use crate::error::NotEnoughData;
use crate::estimated::Estimated;
use crate::fit::{ChiSquaredTest, DroppedTerm, Fit, ThetaSummary};
use crate::hypothesis::{breusch_pagan, hausman, wald};
use crate::linalg::least_squares;
use crate::linear::LinearCore;
use crate::r2::r2_stata;
use crate::prepared::Prepared;
use crate::report::code::r::{r_linear_vcov, R_BREUSCH_PAGAN, R_HAUSMAN, R_SWAMY_ARORA};
use crate::report::code::stata::StataModel;
use crate::spec::{Estimator, PanelSpec};
use crate::within::group_means;
use crate::{Diagnostic, ModelError};

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
    let (within, _, within_kept) = fe_core(prep, &all_columns(prep), false);
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

    let (between, _) = be_core(prep, &all_columns(prep));
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
            reason: crate::drop_reason::DropReason::QuasiDemeanedCollinear { name, earlier },
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

/// Hausman FE vs RE on the common slopes, with classical covariances. An `Err` says why the
/// test is not available (the fit itself goes on: the test is a diagnostic).
///
/// `fe` is the unweighted within regression on every regressor, with its number of kept
/// regressors, and `re` the random-effects fit, when the caller has them already (each is
/// computed here otherwise; the same numbers either way).
pub(crate) fn hausman_test(
    prep: &Prepared,
    fe: Option<(&LinearCore, usize)>,
    re: Option<&ReCore>,
) -> Result<Option<ChiSquaredTest>, ModelError> {
    let all = all_columns(prep);
    let owned_fe;
    let (fe, fe_kept) = match fe {
        Some(given) => given,
        None => {
            let (core, _, kept) = fe_core(prep, &all, false);
            owned_fe = core;
            (&owned_fe, kept.len())
        }
    };
    if fe.df_resid == 0 {
        return Ok(None);
    }
    let owned_re;
    let re = match re {
        Some(re) => re,
        None => {
            owned_re = re_core_given(prep, fe, fe_kept)?;
            &owned_re
        }
    };
    let mut fe_idx = Vec::new();
    let mut re_idx = Vec::new();
    for (i, term) in fe.terms.iter().enumerate() {
        if let Some(r) = re.core.terms.iter().position(|t| t == term) {
            fe_idx.push(i);
            re_idx.push(r);
        }
    }
    Ok(hausman(
        &sub_vector(&fe.ls.beta, &fe_idx),
        &sub_matrix(&fe.classical(), &fe_idx),
        &sub_vector(&re.core.ls.beta, &re_idx),
        &sub_matrix(&re.core.classical(), &re_idx),
    ))
}

/// The random-effects fit; `mean_columns` are the Mundlak means of `cre` (their Wald test
/// replaces the Hausman test), empty for `re`.
pub(crate) fn fit_random(
    prep: &Prepared,
    spec: &PanelSpec,
    mean_columns: &[usize],
) -> Result<Estimated, ModelError> {
    let re = re_core(prep)?;
    let mut est = Estimated::linear(&re.core, spec)?;
    est.dropped_terms = re.dropped.clone();
    est.diagnostics.extend(re.diagnostics.iter().cloned());
    est.sigma2_u = Some(re.sigma2_u);
    est.sigma2_e = Some(re.sigma2_e);
    let counts = prep.entity_counts();
    // One θ for all when the panel is balanced, or when σ²_u is 0 and every θ_i is 0 (said
    // "θ_i from 0 (median 0) to 0" beside "θ differs by entity" before)
    let one_theta = re.theta.iter().all(|t| *t == re.theta[0]);
    if counts.iter().all(|&c| c == counts[0]) || one_theta {
        est.theta = Some(re.theta[0]);
    } else {
        let mut sorted = re.theta.clone();
        sorted.sort_by(f64::total_cmp);
        est.theta_summary = Some(ThetaSummary {
            min: sorted[0],
            median: imr_stats::quantile_type7(&sorted, 0.5).unwrap_or(f64::NAN),
            max: sorted[sorted.len() - 1],
        });
        est.diagnostics.push(Diagnostic::UnbalancedTheta);
    }
    let (columns, beta) = slopes_of(&re.core, prep, re.has_intercept);
    est.r2 = r2_stata(prep, &columns, &beta, false);
    let (pooled, _) = pooled_core(prep, &all_columns(prep));
    est.tests.breusch_pagan = breusch_pagan(&pooled.ls.resid, &prep.entity, prep.n_entities());
    if mean_columns.is_empty() {
        est.tests.hausman = hausman_test(prep, None, Some(&re))?;
    } else {
        let idx: Vec<usize> = mean_columns
            .iter()
            .filter_map(|&j| est.terms.iter().position(|t| *t == prep.x_names[j]))
            .collect();
        est.tests.mundlak = wald(
            &sub_vector(&est.beta, &idx),
            &sub_matrix(&est.covariance, &idx),
            crate::Hypothesis::MundlakMeansZero,
        );
    }
    Ok(est)
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    fit_random(prep, spec, &[])
}

/// Swamy–Arora in R as the engine computes it, the Breusch–Pagan test, and the Hausman test
/// (`re`) or the Mundlak means and their Wald test (`cre`, `fit.model`).
pub(crate) fn r_model(fit: &Fit) -> String {
    let mut out = String::new();
    out.push_str(R_SWAMY_ARORA);
    if fit.model == Estimator::Cre {
        out.push_str(
            "# Mundlak: the entity means of the regressors that vary within entities, `<x>_mean`\n\
             varies <- apply(X, 2, function(v) sqrt(sum((v - ave(v, entity))^2)) > 1e-10 * sqrt(sum(v^2)))\n\
             X_mean <- apply(X[, varies, drop = FALSE], 2, ave, entity)\n\
             colnames(X_mean) <- paste0(colnames(X)[varies], \"_mean\")\n\
             X <- cbind(X, X_mean)\n",
        );
    }
    out.push_str("re <- swamy_arora(Y, X, entity)\nm <- re$m\nprefix <- \"Z\"; cols <- c(\"(Intercept)\", colnames(X))\ns <- kept(m, prefix)\n");
    out.push_str(&r_linear_vcov(fit.vcov, "entity"));
    out.push_str("ref_df <- Inf  # normal reference, as Stata xtreg, re\n");
    out.push_str("sizes <- data.frame(quantity = c(\"nobs\", \"entities\", \"sigma2_u\", \"sigma2_e\"), value = c(length(Y), length(unique(entity)), re$sigma2_u, re$sigma2_e))\n");
    out.push_str(R_BREUSCH_PAGAN);
    out.push_str("bp <- breusch_pagan(residuals(lm(Y ~ X)), entity)\ntests <- data.frame(test = \"breusch_pagan\", statistic = bp, df1 = 1, df2 = NA)[!is.na(bp), ]\n");
    if fit.model == Estimator::Re {
        out.push_str(R_HAUSMAN);
        out.push_str("h <- hausman(slopes(lm(Y ~ factor(entity) + X), \"X\", colnames(X)), slopes(m, \"Z\", cols))\ntests <- rbind(tests, data.frame(test = \"hausman\", statistic = h[[\"statistic\"]], df1 = h[[\"df\"]], df2 = NA))\n");
    } else {
        out.push_str(
            "# Mundlak test: the coefficients on the entity means are zero, Wald χ² under V\n\
             means <- intersect(paste0(prefix, colnames(X_mean)), s)\n\
             b_means <- coef(m)[means]\n\
             W <- drop(crossprod(b_means, solve(V[means, means, drop = FALSE], b_means)))\n\
             tests <- rbind(tests, data.frame(test = \"mundlak\", statistic = W, df1 = length(means), df2 = NA))\n",
        );
    }
    out
}

fn stata_model(m: &StataModel) -> String {
    let (y, rhs) = (&m.y, m.rhs());
    let mut out = String::new();
    out.push_str(&format!("xtreg {y} {rhs}{}\n", m.opts("re")));
    out.push_str("xttest0\n");
    out.push_str(&format!(
        "quietly xtreg {y} {rhs}, fe\nestimates store fe\nquietly xtreg {y} {rhs}, re\nestimates store re\nhausman fe re\n"
    ));
    out
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "re",
    label: (
        "Efectos aleatorios (Swamy–Arora)",
        "Random effects (Swamy–Arora)",
    ),
    plain: ("efectos aleatorios", "random effects"),
    compares: (
        "diferencias entre comunas y en el tiempo, juntas",
        "differences between communes and over time, together",
    ),
    takes_weights: false,
    uses_z: true,
    takes_exposure: false,
    lists_singletons: true,
    fit,
    absorbs: None,
    r_model,
    stata_model,
};
