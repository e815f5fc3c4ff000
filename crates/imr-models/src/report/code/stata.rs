//! The Stata code of a fit: `regress`, `xtreg`, `xtpoisson`, `reghdfe`, `ppmlhdfe`.

use super::{absorbed_names, cluster_columns, code_header, regressors, CodeContext, FLAG_RULES};
use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind};
use imr_escape::{stata_comment, stata_name, stata_string};

/// A column name in Stata code (see [`stata_name`]).
pub(crate) fn stata(name: &str) -> String {
    stata_name(name).name
}

/// Comment lines saying which columns the Stata code names differently because their own names
/// are not valid Stata names.
fn stata_renames<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        let mapped = stata_name(name);
        if !mapped.is_original && !seen.contains(&name) {
            seen.push(name);
            out.push_str(&format!(
                "* column \"{}\" is not a valid Stata name: the code calls it {} (check the name import delimited gives it)\n",
                stata_comment(name),
                mapped.name
            ));
        }
    }
    out
}

/// The `import delimited` options that start at the header row after `comment_lines` comment
/// lines: names on row `comment_lines + 1`, data from the row after it.
fn stata_rows(comment_lines: usize) -> String {
    if comment_lines == 0 {
        "varnames(1)".to_string()
    } else {
        format!(
            "varnames({}) rowrange({})",
            comment_lines + 1,
            comment_lines + 2
        )
    }
}

/// Stata lines deriving births, deaths and the rate per 1,000 as `imr` reads them (see
/// [`r_read`]): deaths from a published rate, rows with a count missing or negative or more
/// deaths than births dropped.
fn stata_counts(ctx: &CodeContext) -> String {
    let Some(births) = ctx.births else {
        return String::new();
    };
    let mut out = String::from("* births, deaths and the rate per 1,000 as imr reads them\n");
    if births != "births" {
        out.push_str(&format!("generate double births = {}\n", stata(births)));
    }
    match (ctx.deaths, ctx.rate) {
        (Some(deaths), _) if deaths != "deaths" => {
            out.push_str(&format!("generate double deaths = {}\n", stata(deaths)));
        }
        (None, Some(rate)) => out.push_str(&format!(
            "drop if missing({r}) | {r} < 0\ngenerate double deaths = {r} * births / 1000\n",
            r = stata(rate)
        )),
        _ => {}
    }
    if ctx.deaths.is_some() || ctx.rate.is_some() {
        out.push_str(
            "drop if missing(births) | births < 0 | missing(deaths) | deaths < 0 | deaths > births\n\
             capture drop rate\n\
             generate double rate = 1000 * deaths / births if births > 0\n",
        );
        if ctx.drop_flagged {
            let (above, share, few) = FLAG_RULES;
            let derived = if ctx.deaths.is_none() {
                format!(" | deaths >= {share} * births | births < {few}")
            } else {
                String::new()
            };
            out.push_str(&format!(
                "* rows flagged as implausible, left out as imr does (imr fit --include-flagged keeps them)\n\
                 drop if births > 0 & (1000 * deaths / births > {above}{derived})\n"
            ));
        }
    } else {
        out.push_str("drop if missing(births) | births < 0\n");
    }
    out
}

/// Stata lines of a fit with absorbed fixed effects: `reghdfe` (linear) or `ppmlhdfe` (Poisson),
/// each effect as one group variable (text columns and interactions alike), the errors
/// clustered by the entity or the `--cluster` columns (two: two-way, as both commands do it).
fn stata_absorbed(fit: &Fit, y: &str, rhs: &str) -> String {
    let poisson = fit.model == Estimator::PoissonFe;
    let mut out = format!(
        "* absorbed fixed effects: {} (ssc install {} ftools)\n",
        if poisson { "ppmlhdfe" } else { "reghdfe" },
        if poisson {
            "ppmlhdfe reghdfe"
        } else {
            "reghdfe"
        }
    );
    let mut groups = Vec::new();
    for (k, name) in absorbed_names(fit).iter().enumerate() {
        let parts: Vec<String> = name.split('^').map(stata).collect();
        out.push_str(&format!("egen fe_{} = group({})\n", k + 1, parts.join(" ")));
        groups.push(format!("fe_{}", k + 1));
    }
    let mut clusters = Vec::new();
    for (k, column) in cluster_columns(fit).iter().enumerate() {
        let column = match column.as_str() {
            "entity" => "entity_id".to_string(),
            other => stata(other),
        };
        out.push_str(&format!("egen cluster_{} = group({column})\n", k + 1));
        clusters.push(format!("cluster_{}", k + 1));
    }
    if clusters.is_empty() {
        clusters.push("entity_id".into());
    }
    let vce = match fit.vcov {
        VcovKind::Iid if poisson => {
            out.push_str(
                "* model-based errors; imr multiplies them by (N - 1)/(N - K) as pyfixest\n",
            );
            " vce(ols)".to_string()
        }
        VcovKind::Iid => String::new(),
        VcovKind::Hc1 => " vce(robust)".to_string(),
        VcovKind::Cluster => format!(" vce(cluster {})", clusters.join(" ")),
    };
    if poisson {
        let exposure = stata_exposure(fit);
        out.push_str(&format!(
            "ppmlhdfe {y} {rhs}, absorb({}){exposure}{vce} irr\n",
            groups.join(" ")
        ));
    } else {
        out.push_str(&format!(
            "reghdfe {y} {rhs}, absorb({}){vce}\n",
            groups.join(" ")
        ));
    }
    out
}

/// Stata code reproducing the fit.
pub fn stata_code(fit: &Fit, ctx: &CodeContext) -> String {
    let mut out = stata_read(fit, ctx);
    let entity = stata(ctx.entity);
    let model = StataModel {
        fit,
        y: stata(&fit.outcome),
        xs: regressors(fit).iter().map(|x| stata(x)).collect(),
        time: stata(ctx.time),
        weight: fit
            .weights
            .as_ref()
            .map(|w| format!(" [aweight = {}]", stata(w)))
            .unwrap_or_default(),
    };
    out.push_str(&format!(
        "capture confirm string variable {entity}\n\
         if !_rc encode {entity}, generate(entity_id)\n\
         else generate entity_id = {entity}\n\
         xtset entity_id {}\n",
        model.time
    ));
    if fit.fixed_effects.is_empty() {
        out.push_str(&(fit.model.room().stata_model)(&model));
    } else {
        out.push_str(&stata_absorbed(fit, &model.y, &model.rhs()));
    }
    out
}

/// The do-file up to its panel: the header, the renamed columns, `import delimited`, the
/// year of a file without one, and births, deaths and the rate as `imr` reads them.
fn stata_read(fit: &Fit, ctx: &CodeContext) -> String {
    let mut out = code_header(fit, ctx, "*", stata_comment);
    out.push_str(
        "* Not executed by imr's tests (there is no Stata here): the R code is, and this do-file\n\
         * follows it; check its numbers against the command above before relying on them\n",
    );
    let names = std::iter::once(fit.outcome.as_str())
        .chain(fit.regressors.iter().map(String::as_str))
        .chain([ctx.entity, ctx.time])
        .chain(fit.weights.as_deref())
        .chain(fit.exposure.as_deref());
    out.push_str(&stata_renames(names));
    let file = stata_string(ctx.csv_file).unwrap_or_else(|| {
        out.push_str(&format!(
            "* the file name \"{}\" cannot be written in Stata code: save the data as data.csv\n",
            stata_comment(ctx.csv_file)
        ));
        "\"data.csv\"".to_string()
    });
    out.push_str(&format!(
        "import delimited using {}, clear case(preserve) {}{}{}\n",
        file,
        stata_rows(ctx.comment_lines),
        match ctx.delimiter {
            ',' => String::new(),
            '\t' => " delimiter(tab)".to_string(),
            other => stata_string(&other.to_string())
                .map(|d| format!(" delimiter({d})"))
                .unwrap_or_default(),
        },
        if ctx.decimal == ',' {
            " decimalseparator(,)"
        } else {
            ""
        }
    ));
    if let Some(year) = ctx.time_value {
        out.push_str(&format!(
            "generate {} = {year}  // the file has no year column: every row is of {year} (imr --time-value)\n",
            stata(ctx.time)
        ));
    }
    if let Some((years, copies)) = super::dropped_years(ctx) {
        out.push_str(&format!(
            "* years that copy the year before in every commune ({copies}), left out as imr does (imr fit --include-repeated-years keeps them)\n\
             drop if inlist({}, {years})\n",
            stata(ctx.time),
        ));
    }
    out.push_str(&stata_counts(ctx));
    out
}

/// The ` exposure(e)` option of a Poisson fit with an exposure, else empty.
pub(crate) fn stata_exposure(fit: &Fit) -> String {
    fit.exposure
        .as_ref()
        .map(|e| format!(" exposure({})", stata(e)))
        .unwrap_or_default()
}

/// What every estimator's Stata lines read: the fit and its columns as Stata names them.
pub(crate) struct StataModel<'a> {
    pub fit: &'a Fit,
    /// The outcome.
    pub y: String,
    /// The regressors.
    pub xs: Vec<String>,
    /// The time column.
    pub time: String,
    /// ` [aweight = w]` when the fit is weighted, else empty.
    pub weight: String,
}

impl StataModel<'_> {
    /// The regressors as the right-hand side of a command.
    pub fn rhs(&self) -> String {
        self.xs.join(" ")
    }

    /// The `vce()` option of `kind`, clustered by entity.
    pub fn vce(&self, kind: VcovKind) -> String {
        match kind {
            VcovKind::Iid => String::new(),
            VcovKind::Hc1 => " vce(robust)".to_string(),
            VcovKind::Cluster => " vce(cluster entity_id)".to_string(),
        }
    }

    /// The options of a command: `model` (`fe`, `re`, or none) and the fit's `vce()`.
    pub fn opts(&self, model: &str) -> String {
        let v = self.vce(self.fit.vcov);
        if model.is_empty() && v.is_empty() {
            String::new()
        } else {
            format!(",{}{}", if model.is_empty() { "" } else { " " }, model) + &v
        }
    }
}
