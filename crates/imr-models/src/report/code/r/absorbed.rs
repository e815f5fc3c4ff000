//! The R code of a fit with absorbed fixed effects: its rows (levels present, singletons and,
//! Poisson, all-zero levels removed until none is left), the effects' columns, and the model
//! with its one- or two-way clustered covariance.

use super::r_strings;
use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind};
use imr_escape::r_string;

/// R code of a fit with absorbed fixed effects (`--fe`), linear (`lm`) or Poisson (`glm`), the
/// effects as dummies (`fe`, one factor each) and the errors of `imr` and pyfixest: the
/// residual degrees of freedom count `K_fe = Σ levels − (number of effects − 1)`; the CR1 factor
/// `G/(G − 1)·(N − 1)/(N − K)` counts in K the slopes and the effects not nested in a cluster
/// (one per nested effect), with G the smaller number of clusters when two-way (Cameron,
/// Gelbach & Miller 2011: `V_a + V_b − V_ab`, each term with that factor; pyfixest `CRV1` with
/// `G_df = "min"`, fixest `ssc(fixef.K = "nested", cluster.adj = TRUE)`).
pub(super) fn r_absorbed(fit: &Fit) -> String {
    let poisson = fit.model == Estimator::PoissonFe;
    let effects = (1..=fit.fixed_effects.len())
        .map(|k| format!("fe[[{k}]]"))
        .collect::<Vec<_>>()
        .join(" + ");
    let mut out = if poisson {
        let offset = if fit.exposure.is_some() {
            " + offset(log(exposure))"
        } else {
            ""
        };
        format!(
            "# regressors collinear with the effects are left out before the Poisson fit, as imr does, and\n\
             # the effects' dummies reduced to full rank (they overlap when one effect is nested in\n\
             # another) at lm's tolerance: glm's own check, at epsilon/1000, misses both and diverges\n\
             linear <- lm(Y ~ {effects} + X)\n\
             X_w <- X[, column_of(kept(linear, \"X\"), \"X\", colnames(X)), drop = FALSE]\n\
             D <- model.matrix(~ {effects} + X_w)\n\
             rank_D <- qr(D, tol = 1e-7)\n\
             D <- D[, rank_D$pivot[seq_len(rank_D$rank)], drop = FALSE]\n\
             m <- suppressWarnings(glm(Y ~ 0 + D{offset}, family = poisson(),\n\
             \x20                         control = glm.control(epsilon = 1e-12, maxit = 100)))\n\
             stopifnot(m$converged)\n\
             prefix <- \"DX_w\"; cols <- colnames(X_w)\n"
        )
    } else {
        let w = if fit.weights.is_some() {
            ", weights = w"
        } else {
            ""
        };
        format!("m <- lm(Y ~ {effects} + X{w})\nprefix <- \"X\"; cols <- colnames(X)\n")
    };
    out.push_str(
        "s <- kept(m, prefix)\n\
         # degrees of freedom of imr and pyfixest (fixest: ssc(adj = TRUE, fixef.K = \"nested\")):\n\
         # K_fe = Σ levels − (number of fixed effects − 1); a fixed effect nested in a cluster\n\
         # (each level within one cluster) counts once in the cluster factor\n\
         N <- length(Y); k <- length(s); G <- length(unique(entity))\n\
         L <- sapply(fe, nlevels)\n\
         K_fe <- sum(L) - (length(L) - 1)\n\
         within_one <- function(f, g) all(tapply(g, f, function(e) length(unique(e))) == 1)\n\
         nested <- sapply(fe, function(f) any(sapply(clusters, function(g) within_one(f, g))))\n\
         K_c <- k + K_fe - sum(L[nested]) + sum(nested)\n",
    );
    // the covariance, then the reference distribution's degrees of freedom
    let (vcov, reference) = match (fit.vcov, poisson) {
        (VcovKind::Iid, false) => (
            "V <- vcov(m)[s, s, drop = FALSE] * m$df.residual / (N - k - K_fe)\n",
            "N - k - K_fe",
        ),
        (VcovKind::Iid, true) => (
            "# inverse information × (N − 1)/(N − k − K_fe), as pyfixest fepois iid\n\
             V <- vcov(m)[s, s, drop = FALSE] * (N - 1) / (N - k - K_fe)\n",
            "Inf",
        ),
        (VcovKind::Hc1, _) => (
            "V <- sandwich::vcovHC(m, type = \"HC0\")[s, s, drop = FALSE] * N / (N - k - K_fe)\n",
            if poisson { "Inf" } else { "N - k - K_fe" },
        ),
        (VcovKind::Cluster, _) => (
            "# CR1: G/(G − 1)·(N − 1)/(N − K_c), G the (smaller) number of clusters; two-way as\n\
             # Cameron, Gelbach & Miller (2011): V_a + V_b − V_ab, each with that factor\n\
             G_c <- min(sapply(clusters, function(g) length(unique(g))))\n\
             raw <- function(g) sandwich::vcovCL(m, cluster = g, type = \"HC0\", cadjust = FALSE)[s, s, drop = FALSE]\n\
             V <- if (length(clusters) == 1) raw(clusters[[1]]) else\n\
             \x20 raw(clusters[[1]]) + raw(clusters[[2]]) - raw(interaction(clusters[[1]], clusters[[2]], drop = TRUE))\n\
             V <- V * G_c / (G_c - 1) * (N - 1) / (N - K_c)\n",
            if poisson { "Inf" } else { "G_c - 1" },
        ),
    };
    out.push_str(vcov);
    out.push_str(&format!(
        "ref_df <- {reference}{}\n",
        if poisson { "  # normal reference" } else { "" }
    ));
    out.push_str(&format!(
        "sizes <- data.frame(quantity = c(\"nobs\", \"entities\"{}), value = c(N, G{}))\n",
        if poisson { "" } else { ", \"sigma2_e\"" },
        if poisson {
            ""
        } else {
            ", deviance(m) / (N - k - K_fe)"
        }
    ));
    out
}

/// R code of the rows of a fit with absorbed effects: rows missing a level (or a cluster) left
/// out, then singletons (and, Poisson, levels with a zero count in every row) removed until
/// none is left; defines `fixed_effects(d)`.
pub(super) fn r_absorbed_rows(fit: &Fit, fe_parts: &[Vec<String>], clusters: &[String]) -> String {
    let mut out = String::new();
    let poisson = fit.model == Estimator::PoissonFe;
    let mut columns: Vec<&str> = Vec::new();
    for part in fe_parts.iter().flatten().chain(clusters) {
        if !columns.contains(&part.as_str()) {
            columns.push(part);
        }
    }
    if poisson {
        out.push_str(&format!(
            "d <- d[d[[{}]] >= 0, ]  # a count cannot be negative\n",
            r_string(&fit.outcome)
        ));
    }
    out.push_str(&format!(
        "# absorbed fixed effects: rows with a level{} missing are left out, then the rows alone in a\n\
         # level (singletons, fitted exactly by it){} until none is left, as imr, fixest and pyfixest\n\
         d <- d[stats::complete.cases(d[, {}, drop = FALSE]), ]\n\
         fixed_effects <- function(d) list(\n",
        if clusters.is_empty() { "" } else { " or a cluster" },
        if poisson {
            " and the rows of a level whose count is zero in\n# every row (its effect would be −∞: pyfixest fepois, Stata ppmlhdfe),"
        } else {
            ""
        },
        r_strings(columns.iter().copied())
    ));
    let items: Vec<String> = fit
        .fixed_effects
        .iter()
        .zip(fe_parts)
        .map(|(f, parts)| {
            let value = if parts.len() == 1 {
                format!("factor(d[[{}]])", r_string(&parts[0]))
            } else {
                format!(
                    "interaction({}, drop = TRUE)",
                    parts
                        .iter()
                        .map(|p| format!("d[[{}]]", r_string(p)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            format!("  {} = {value}", r_string(&f.name))
        })
        .collect();
    out.push_str(&items.join(",\n"));
    let zero = if poisson {
        format!(
            " |\n    ave(d[[{}]], f, FUN = sum) == 0",
            r_string(&fit.outcome)
        )
    } else {
        String::new()
    };
    out.push_str(&format!(
        ")\nrepeat {{\n  alone <- Reduce(`|`, lapply(fixed_effects(d), function(f) ave(seq_along(f), f, FUN = length) == 1{zero}))\n  if (!any(alone)) break\n  d <- d[!alone, ]\n}}\n",
    ));
    out
}

/// R code of the absorbed effects and the clusters in the sorted rows: `fe` and `clusters`.
pub(super) fn r_absorbed_columns(clusters: &[String]) -> String {
    let mut out = String::new();
    out.push_str("fe <- fixed_effects(d)  # in the sorted order\n");
    out.push_str(&format!(
        "clusters <- list({})  # what the errors are clustered by (vcov cluster)\n",
        if clusters.is_empty() {
            "entity".to_string()
        } else {
            clusters
                .iter()
                .map(|c| format!("d[[{}]]", r_string(c)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    out
}
