//! Entity fixed effects, the within estimator: OLS of `y_it − ȳ_i` on `x_it − x̄_i` without
//! intercept (Wooldridge 2010, §10.5); `s² = SSR/(n − G − k)`. Weighted: `w`-weighted entity
//! means, rows scaled by `√w_it` (as fixest and linearmodels). The F test of no entity effects
//! against the pooled fit, and (unweighted) the Hausman test against random effects. With
//! absorbed effects, see `crate::absorbed`.

use super::pooled::pooled_core;
use super::re::hausman_test;
use super::within_regression::fe_core;
use super::{all_columns, no_regressors, slopes_of, Absorbs, Room};
use crate::estimated::Estimated;
use crate::fit::Fit;
use crate::hypothesis::f_effects;
use crate::r2::r2_stata;
use crate::prepared::Prepared;
use crate::report::code::r::{r_sample, r_t_df, r_weights, R_HAUSMAN, R_SWAMY_ARORA, R_VARIES};
use crate::report::code::stata::StataModel;
use crate::spec::{Estimator, PanelSpec, VcovKind};
use crate::{Diagnostic, ModelError};

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let weighted = prep.weights.is_some();
    let all = all_columns(prep);
    let (core, dropped, kept) = fe_core(prep, &all, weighted);
    if kept.is_empty() {
        return Err(no_regressors("fe", &dropped));
    }
    let mut est = Estimated::linear(&core, spec)?;
    est.dropped_terms = dropped;
    est.sigma2_e = Some(core.s2());
    let (columns, beta) = slopes_of(&core, prep, false);
    est.r2 = r2_stata(prep, &columns, &beta, weighted);
    // What follows reads the within fit's coefficients, (XᵀX)⁻¹ and residuals only: its design
    // and clusters go, and the pooled fit of the F test is dropped once its SSR is read (each
    // was a copy of the regressors held through the Hausman test's random-effects fit).
    let mut core = core;
    core.design = Vec::new();
    core.cluster = Vec::new();
    let pooled_ssr = pooled_core(prep, &kept).0.ls.ssr();
    est.tests.f_effects = f_effects(
        pooled_ssr,
        core.ls.ssr(),
        prep.n_entities() - 1,
        core.df_resid,
        crate::Hypothesis::NoEntityEffects,
    );
    if weighted {
        est.diagnostics.push(Diagnostic::HausmanWeighted);
    } else {
        // the fit above is the unweighted within regression on every regressor: reused
        match hausman_test(prep, Some((&core, kept.len())), None) {
            Ok(test) => est.tests.hausman = test,
            Err(why) => est.diagnostics.push(Diagnostic::HausmanUnavailable { why }),
        }
    }
    Ok(est)
}

/// The entity effects as dummies (`lm`), or with the year effects for twfe (`fit.model`):
/// their F test, and for an unweighted fe the Hausman test against Swamy–Arora.
pub(crate) fn r_model(fit: &Fit) -> String {
    let w = r_weights(fit);
    let mut out = String::new();
    let effects = if fit.model == Estimator::Fe {
        "factor(entity)"
    } else {
        "factor(entity) + factor(period)"
    };
    out.push_str(R_VARIES);
    out.push_str(&format!(
        "# the effects as dummies: the slopes are the within estimates\nm <- lm(Y ~ {effects} + X_w{w})\nprefix <- \"X_w\"; cols <- colnames(X_w)\ns <- kept(m, prefix)\nN <- length(Y); G <- length(unique(entity))\n"
    ));
    out.push_str(match fit.vcov {
        VcovKind::Iid => "V <- vcov(m)[s, s, drop = FALSE]\n",
        VcovKind::Hc1 => "# HC1 on the dummy-variable regression: n/(n − K), K counting the effects\nV <- sandwich::vcovHC(m, type = \"HC1\")[s, s, drop = FALSE]\n",
        VcovKind::Cluster => "# CR1 by entity as Stata xtreg, fe vce(cluster): G/(G − 1)·(N − 1)/(N − K), K the slopes, the\n\
             # constant and the effects not nested in the entities (the year effects of twfe);\n\
             # estimatr::lm_robust(se_type = \"stata\") counts every absorbed effect in K instead\n\
             K <- m$rank - G + 1\n\
             V <- sandwich::vcovCL(m, cluster = entity, type = \"HC0\")[s, s, drop = FALSE] * (N - 1) / (N - K)\n",
    });
    out.push_str(&r_t_df(fit, "G"));
    out.push_str(&r_sample(", deviance(m) / m$df.residual"));
    out.push_str(&format!(
        "# F test that all effects are zero: the pooled regression on the same slopes against m\n\
         m0 <- lm(Y ~ X[, column_of(s, prefix, cols), drop = FALSE]{w})\n\
         df1 <- m0$df.residual - m$df.residual\n\
         F_stat <- ((deviance(m0) - deviance(m)) / df1) / (deviance(m) / m$df.residual)\n\
         tests <- data.frame(test = \"f_effects\", statistic = F_stat, df1 = df1, df2 = m$df.residual)\n"
    ));
    if fit.model == Estimator::Fe && fit.weights.is_none() {
        out.push_str(R_SWAMY_ARORA);
        out.push_str(R_HAUSMAN);
        out.push_str("h <- hausman(slopes(m, \"X_w\", colnames(X_w)), slopes(swamy_arora(Y, X, entity)$m, \"Z\", c(\"(Intercept)\", colnames(X))))\ntests <- rbind(tests, data.frame(test = \"hausman\", statistic = h[[\"statistic\"]], df1 = h[[\"df\"]], df2 = NA))\n");
    }
    out
}

fn stata_model(m: &StataModel) -> String {
    let (y, rhs, weight) = (&m.y, m.rhs(), &m.weight);
    if m.fit.vcov == VcovKind::Hc1 {
        format!(
            "* HC1 on the dummy-variable regression (n/(n - K), K counting the effects)\nregress {y} {rhs} i.entity_id{weight}, vce(robust)\n"
        )
    } else {
        format!("xtreg {y} {rhs}{weight}{}\n", m.opts("fe"))
    }
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "fe",
    label: ("Efectos fijos (intragrupos)", "Fixed effects (within)"),
    plain: ("efectos fijos", "fixed effects"),
    compares: (
        "cada comuna comparada consigo misma en el tiempo",
        "each commune compared with itself over time",
    ),
    takes_weights: true,
    uses_z: false,
    takes_exposure: false,
    lists_singletons: true,
    fit,
    absorbs: Some(Absorbs::Linear),
    r_model,
    stata_model,
};
