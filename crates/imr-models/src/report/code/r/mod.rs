//! The R code of a fit: base R (`lm`, `glm`) and `sandwich`.

use super::{
    absorbed_names, cluster_columns, code_header, fe_column, regressors, CodeContext, FLAG_RULES,
};
use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind};
use imr_escape::{comment_line, r_string};

mod absorbed;

use absorbed::{r_absorbed, r_absorbed_columns, r_absorbed_rows};

/// Tokens `imr` reads as a missing value (`imr_core::ingest::number::is_missing_token`, which
/// compares them case-insensitively) as R's `na.strings`, in the cases met in practice.
const R_NA_STRINGS: &str = "c(\"\", \"NA\", \"na\", \"N/A\", \"n/a\", \"NaN\", \"nan\", \"NULL\", \"null\", \"-\", \".\", \"..\", \"...\", \"s/i\", \"S/I\", \"sin dato\", \"SD\", \"sd\")";

/// An R character vector of `names` as string literals: `c("a", "b")`.
fn r_strings<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let items: Vec<String> = names.into_iter().map(r_string).collect();
    format!("c({})", items.join(", "))
}

/// R code reading the data file as `imr` reads it: the provenance lines skipped, the entity as
/// text, births, deaths and the rate per 1,000 derived as the engine derives them, and the rows
/// `imr` does not read left out.
fn r_read(ctx: &CodeContext) -> String {
    let mut out = format!(
        "# Run from the folder holding {} (Rscript this_file.R); packages: sandwich (checked\n\
         # with R 4.2.2 and sandwich 3.0.2 by imr's tests)\n\
         d <- read.csv({}, check.names = FALSE{}{}, na.strings = {R_NA_STRINGS},\n              colClasses = c({} = \"character\"))\n",
        comment_line(ctx.csv_file),
        r_string(ctx.csv_file),
        [("sep", ctx.delimiter, ','), ("dec", ctx.decimal, '.')]
            .iter()
            .filter(|(_, value, default)| value != default)
            .map(|(name, value, _)| format!(", {name} = {}", r_string(&value.to_string())))
            .collect::<String>(),
        if ctx.comment_lines > 0 {
            ", comment.char = \"#\""
        } else {
            ""
        },
        r_string(ctx.entity)
    );
    if let Some(year) = ctx.time_value {
        out.push_str(&format!(
            "d[[{}]] <- {year}  # the file has no year column: every row is of {year} (imr --time-value)\n",
            r_string(ctx.time)
        ));
    }
    if let Some((years, copies)) = super::dropped_years(ctx) {
        out.push_str(&format!(
            "# years that copy the year before in every commune ({copies}), left out as imr does\n\
             # (imr fit --include-repeated-years keeps them)\n\
             d <- d[!(d[[{}]] %in% c({years})), ]\n",
            r_string(ctx.time),
        ));
    }
    let column = |name: &str| format!("suppressWarnings(as.numeric(d[[{}]]))", r_string(name));
    let Some(births) = ctx.births else {
        return out;
    };
    out.push_str(
        "# births, deaths and the rate per 1,000 as imr reads them; rows with a count (or rate)\n\
         # missing or negative, or more deaths than births, are not read\n",
    );
    out.push_str(&format!("d$births <- {}\n", column(births)));
    let mut keep = vec!["!is.na(d$births) & d$births >= 0".to_string()];
    match (ctx.deaths, ctx.rate) {
        (Some(deaths), _) => {
            out.push_str(&format!("d$deaths <- {}\n", column(deaths)));
        }
        (None, Some(rate)) => {
            out.push_str(&format!(
                "published_rate <- {}\nd$deaths <- published_rate * d$births / 1000  # deaths derived from the published rate\n",
                column(rate)
            ));
            keep.push("!is.na(published_rate) & published_rate >= 0".into());
        }
        (None, None) => {}
    }
    if ctx.deaths.is_some() || ctx.rate.is_some() {
        keep.push("!is.na(d$deaths) & d$deaths >= 0 & d$deaths <= d$births".into());
    }
    out.push_str(&format!("d <- d[{}, ]\n", keep.join(" &\n         ")));
    if ctx.deaths.is_some() || ctx.rate.is_some() {
        out.push_str("d$rate <- ifelse(d$births > 0, 1000 * d$deaths / d$births, NA)\n");
        if ctx.drop_flagged {
            let (above, share, few) = FLAG_RULES;
            let derived = ctx.deaths.is_none();
            out.push_str(&format!(
                "# rows flagged as implausible, left out as imr does (imr fit --include-flagged keeps them):\n\
                 # a rate above {above} per 1,000{}\n\
                 flagged <- d$births > 0 & (1000 * d$deaths / d$births > {above}{})\n\
                 d <- d[!flagged, ]\n",
                if derived {
                    format!(", derived deaths reaching {share} of the births, or a rate on fewer than {few} births")
                } else {
                    String::new()
                },
                if derived {
                    format!(" | d$deaths >= {share} * d$births | d$births < {few}")
                } else {
                    String::new()
                }
            ));
        }
    }
    out
}

/// The R helpers every fit uses: the kept coefficients of a model among the columns of a
/// matrix, and the results block.
const R_KEPT: &str = "# the coefficients of m on the columns of the matrix `prefix`, those not dropped as collinear\n\
kept <- function(m, prefix) { b <- coef(m); names(b)[!is.na(b) & startsWith(names(b), prefix)] }\n\
# the columns (of `cols`, the matrix's) those coefficients belong to: R names the coefficient of a\n\
# one-column matrix by the matrix alone (\"X_w\", not \"X_wpobreza\")\n\
column_of <- function(s, prefix, cols) if (length(cols) == 1) rep(cols, length(s)) else substring(s, nchar(prefix) + 1)\n";

/// The regressors that vary within entities, `X_w`: the others are absorbed by the entity
/// effects (the engine's rule, `linear::varies_within`), dropped before the fit rather than left
/// to the collinearity check of `lm`/`glm`, which misses them in a Poisson fit.
pub(crate) const R_VARIES: &str =
    "# regressors constant within every entity are absorbed by the entity effects: left out\n\
varies <- apply(X, 2, function(v) sqrt(sum((v - ave(v, entity))^2)) > 1e-10 * sqrt(sum(v^2)))\n\
X_w <- X[, varies, drop = FALSE]\n";

/// The Breusch–Pagan LM test in R.
pub(crate) const R_BREUSCH_PAGAN: &str = "# Breusch–Pagan LM test of no random effects on pooled residuals e (Breusch & Pagan 1980;\n\
# Baltagi & Li 1990 for unbalanced panels; as plm::plmtest(type = \"bp\")): χ²(1)\n\
# NA (no test, as imr) when no entity is seen twice (one period) or nothing is left over\n\
breusch_pagan <- function(e, entity) {\n  T_i <- table(entity)\n  S <- tapply(e, entity, sum)\n  pairs <- sum(T_i * (T_i - 1))\n  if (pairs == 0 || sum(e^2) == 0) return(NA)\n  length(e)^2 / (2 * pairs) * (sum(S^2) / sum(e^2) - 1)^2\n}\n";

/// Swamy–Arora random effects in R, as the engine computes them.
pub(crate) const R_SWAMY_ARORA: &str = "# Random effects (Swamy & Arora 1972) as imr and Stata xtreg, re: σ²_e from the within fit,\n\
# σ²_u = SSR_between/(G − K_b) − σ²_e/T̄ with T̄ the harmonic mean of the entity sizes (T when\n\
# balanced: plm(model = \"random\", random.method = \"swar\") gives the same numbers on balanced\n\
# panels; on unbalanced ones plm corrects σ²_u by a trace instead), θ_i = 1 − √(σ²_e/(T_i σ²_u + σ²_e)),\n\
# then OLS of y − θ_i ȳ_i on (1 − θ_i, x − θ_i x̄_i)\n\
swamy_arora <- function(Y, X, entity) {\n\
\x20 G <- length(unique(entity))\n\
\x20 within <- lm(Y ~ factor(entity) + X)\n\
\x20 sigma2_e <- deviance(within) / within$df.residual\n\
\x20 X_b <- apply(X, 2, function(v) tapply(v, entity, mean))\n\
\x20 between <- lm(as.vector(tapply(Y, entity, mean)) ~ matrix(X_b, nrow = G))\n\
\x20 T_bar <- G / sum(1 / table(entity))\n\
\x20 sigma2_u <- max(0, deviance(between) / between$df.residual - sigma2_e / T_bar)\n\
\x20 T_i <- ave(rep(1, length(Y)), entity, FUN = length)\n\
\x20 theta <- 1 - sqrt(sigma2_e / (T_i * sigma2_u + sigma2_e))\n\
\x20 Z <- cbind(\"(Intercept)\" = 1 - theta, X - theta * apply(X, 2, ave, entity))\n\
\x20 list(m = lm(I(Y - theta * ave(Y, entity)) ~ 0 + Z), sigma2_u = sigma2_u, sigma2_e = sigma2_e)\n\
}\n";

/// The Hausman test in R, as the engine computes it.
pub(crate) const R_HAUSMAN: &str = "# Hausman test, fixed against random effects, on the common slopes with classical\n\
# covariances (as plm::phtest and Stata hausman): q'(V_fe − V_re)⁻¹q, through the eigenvalues\n\
# above 1e-12 of the largest when the difference is not positive definite\n\
slopes <- function(m, prefix, cols) {\n\
\x20 s <- kept(m, prefix)\n\
\x20 b <- coef(m)[s]\n\
\x20 V <- vcov(m)[s, s, drop = FALSE]\n\
\x20 names(b) <- rownames(V) <- colnames(V) <- column_of(s, prefix, cols)\n\
\x20 list(b = b, V = V)\n\
}\n\
hausman <- function(fe, re) {\n\
\x20 s <- intersect(names(fe$b), names(re$b))\n\
\x20 q <- fe$b[s] - re$b[s]\n\
\x20 e <- eigen(fe$V[s, s, drop = FALSE] - re$V[s, s, drop = FALSE], symmetric = TRUE)\n\
\x20 k <- e$values > 1e-12 * max(abs(e$values))\n\
\x20 c(statistic = sum(drop(crossprod(e$vectors[, k, drop = FALSE], q))^2 / e$values[k]), df = sum(k))\n\
}\n";

/// The covariance of a linear model `m` (rows of the clusters `cluster`) whose parameters are all
/// in `s` (pooled, between, first differences, random effects): classical, HC1 `n/(n − K)`, or
/// CR1 `G/(G−1)·(N−1)/(N−K)` (Stata `regress, vce(cluster)`).
pub(crate) fn r_linear_vcov(vcov: VcovKind, cluster: &str) -> String {
    match vcov {
        VcovKind::Iid => "V <- vcov(m)[s, s, drop = FALSE]\n".into(),
        VcovKind::Hc1 => {
            "V <- sandwich::vcovHC(m, type = \"HC1\")[s, s, drop = FALSE]  # n/(n − K)\n".into()
        }
        VcovKind::Cluster => format!(
            "# CR1: G/(G − 1)·(N − 1)/(N − K), as Stata regress, vce(cluster)\n\
             V <- sandwich::vcovCL(m, cluster = {cluster}, type = \"HC1\")[s, s, drop = FALSE]\n"
        ),
    }
}

/// The R code of the model itself: sets `m`, `s` (its kept coefficients), `prefix` (their
/// names' prefix), `V`, `ref_df` (the t degrees of freedom, `Inf` for z), `sizes` (the sample section) and `tests`.
fn r_model(fit: &Fit) -> String {
    if fit.fixed_effects.is_empty() {
        (fit.model.room().r_model)(fit)
    } else {
        r_absorbed(fit) + R_NO_TESTS
    }
}

/// The weights argument of `lm` when the fit is weighted.
pub(crate) fn r_weights(fit: &Fit) -> &'static str {
    if fit.weights.is_some() {
        ", weights = w"
    } else {
        ""
    }
}

/// `ref_df`: the t degrees of freedom, `cluster_g − 1` when clustered, else the residual ones.
pub(crate) fn r_t_df(fit: &Fit, cluster_g: &str) -> String {
    match fit.vcov {
        VcovKind::Cluster => format!("ref_df <- {cluster_g} - 1\n"),
        _ => "ref_df <- m$df.residual\n".into(),
    }
}

/// No specification test.
pub(crate) const R_NO_TESTS: &str = "tests <- data.frame(test = character(), statistic = numeric(), df1 = numeric(), df2 = numeric())\n";

/// `sizes`: the number of observations and entities, and σ²_e when `extra` (its R
/// expression, after a comma) is not empty.
pub(crate) fn r_sample(extra: &str) -> String {
    format!(
        "sizes <- data.frame(quantity = c(\"nobs\", \"entities\"{}), value = c(length(Y), length(unique(entity)){}))\n",
        if extra.is_empty() { "" } else { ", \"sigma2_e\"" },
        extra
    )
}

/// R code reproducing the fit from the data file, with base R (`lm`, `glm`) and `sandwich`
/// (every package in Debian's `r-cran-*`); its last lines print the sample, the coefficients and
/// the tests in full precision as CSV blocks under `## imr-atlas <model>, <vcov>: <part>` lines.
/// `crates/imr-cli/tests/r_scripts.rs` runs it in R and compares it with `imr fit`.
pub fn r_code(fit: &Fit, ctx: &CodeContext) -> String {
    let mut out = code_header(fit, ctx, "#", comment_line);
    out.push_str(&r_read(ctx));
    out.push_str(&r_model_rows(fit));
    let fe_parts: Vec<Vec<String>> = absorbed_names(fit)
        .iter()
        .map(|f| {
            f.split('^')
                .map(|p| fe_column(p, ctx).to_string())
                .collect()
        })
        .collect();
    let clusters: Vec<String> = cluster_columns(fit)
        .iter()
        .map(|c| fe_column(c, ctx).to_string())
        .collect();
    if !fe_parts.is_empty() {
        out.push_str(&r_absorbed_rows(fit, &fe_parts, &clusters));
    }
    let xs = regressors(fit);
    out.push_str(&format!(
        "d <- d[order(d[[{e}]], d[[{t}]], method = \"radix\"), ]\n\
         Y <- d[[{y}]]\n\
         X <- as.matrix(d[, {x}, drop = FALSE])\n\
         entity <- d[[{e}]]\n\
         period <- d[[{t}]]\n",
        e = r_string(ctx.entity),
        t = r_string(ctx.time),
        y = r_string(&fit.outcome),
        x = r_strings(xs.iter().map(String::as_str)),
    ));
    if !fe_parts.is_empty() {
        out.push_str(&r_absorbed_columns(&clusters));
    }
    if let Some(w) = &fit.weights {
        out.push_str(&format!("w <- d[[{}]]\n", r_string(w)));
    }
    if let Some(e) = &fit.exposure {
        out.push_str(&format!("exposure <- d[[{}]]\n", r_string(e)));
    }
    out.push_str(R_KEPT);
    out.push_str(&r_model(fit));
    out.push_str(&r_results(fit));
    out
}

/// R code keeping the rows of the model: outcome and regressors present (and numeric), weights
/// or exposure positive.
fn r_model_rows(fit: &Fit) -> String {
    let mut out = String::new();
    let xs = regressors(fit);
    let mut numeric: Vec<&str> = std::iter::once(fit.outcome.as_str())
        .chain(xs.iter().map(String::as_str))
        .collect();
    numeric.extend(fit.weights.as_deref());
    numeric.extend(fit.exposure.as_deref());
    out.push_str(&format!(
        "# the rows of the model: outcome and regressors present{}\n\
         vars <- {}\n\
         for (v in vars) d[[v]] <- suppressWarnings(as.numeric(d[[v]]))\n\
         d <- d[stats::complete.cases(d[, vars, drop = FALSE]), ]\n",
        match (&fit.weights, &fit.exposure) {
            (Some(_), _) => ", weights positive",
            (None, Some(_)) => ", exposure positive",
            _ => "",
        },
        r_strings(numeric.iter().copied())
    ));
    if let Some(w) = fit.weights.as_deref().or(fit.exposure.as_deref()) {
        out.push_str(&format!("d <- d[d[[{}]] > 0, ]\n", r_string(w)));
    }
    out
}

/// The R code's last lines: the sample, coefficients and tests in full precision as CSV blocks.
fn r_results(fit: &Fit) -> String {
    let label = format!("{}, {}", fit.model.name(), fit.vcov.name());
    format!(
        "# Results in full precision (compare with the command above): sample, coefficients, tests\n\
         coefs <- data.frame(term = column_of(s, prefix, cols), estimate = unname(coef(m)[s]),\n\
         \x20                   std_error = unname(sqrt(diag(V))))\n\
         coefs$statistic <- coefs$estimate / coefs$std_error\n\
         coefs$p_value <- 2 * pt(-abs(coefs$statistic), df = ref_df)  # df = Inf: normal\n{}\
         tests$p_value <- ifelse(is.na(tests$df2), pchisq(tests$statistic, tests$df1, lower.tail = FALSE),\n\
         \x20                       pf(tests$statistic, tests$df1, tests$df2, lower.tail = FALSE))\n\
         cat(\"\\n## imr-atlas {label}: sample\\n\"); write.csv(sizes, row.names = FALSE)\n\
         cat(\"## imr-atlas {label}: coefficients\\n\"); write.csv(coefs, row.names = FALSE)\n\
         cat(\"## imr-atlas {label}: tests\\n\"); write.csv(tests, row.names = FALSE)\n",
        if fit.model == Estimator::PoissonFe {
            "coefs$irr <- exp(coefs$estimate)  # incidence-rate ratios\n"
        } else {
            ""
        }
    )
}
