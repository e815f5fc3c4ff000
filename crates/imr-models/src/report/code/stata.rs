//! The Stata code of a fit: `regress`, `xtreg`, `xtpoisson`, `reghdfe`, `ppmlhdfe`.

use super::{absorbed_names, cluster_columns, code_header, regressors, CodeContext, FLAG_RULES};
use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind};
use imr_escape::{stata_comment, stata_name, stata_string};

/// A column name in Stata code (see [`stata_name`]).
fn stata(name: &str) -> String {
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
        let exposure = fit
            .exposure
            .as_ref()
            .map(|e| format!(" exposure({})", stata(e)))
            .unwrap_or_default();
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
    let y = stata(&fit.outcome);
    let xs: Vec<String> = regressors(fit).iter().map(|x| stata(x)).collect();
    let rhs = xs.join(" ");
    let entity = stata(ctx.entity);
    let time = stata(ctx.time);
    let weight = fit
        .weights
        .as_ref()
        .map(|w| format!(" [aweight = {}]", stata(w)))
        .unwrap_or_default();
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
    out.push_str(&stata_counts(ctx));
    out.push_str(&format!(
        "capture confirm string variable {entity}\n\
         if !_rc encode {entity}, generate(entity_id)\n\
         else generate entity_id = {entity}\n\
         xtset entity_id {time}\n"
    ));
    let vce = |kind: VcovKind| match kind {
        VcovKind::Iid => String::new(),
        VcovKind::Hc1 => " vce(robust)".to_string(),
        VcovKind::Cluster => " vce(cluster entity_id)".to_string(),
    };
    let opts = |model: &str| {
        let v = vce(fit.vcov);
        if model.is_empty() && v.is_empty() {
            String::new()
        } else {
            format!(",{}{}", if model.is_empty() { "" } else { " " }, model) + &v
        }
    };
    match fit.model {
        Estimator::Pooled => out.push_str(&format!("regress {y} {rhs}{weight}{}\n", opts(""))),
        Estimator::Fe | Estimator::PoissonFe if !fit.fixed_effects.is_empty() => {
            out.push_str(&stata_absorbed(fit, &y, &rhs));
        }
        Estimator::Fe if fit.vcov == VcovKind::Hc1 => out.push_str(&format!(
            "* HC1 on the dummy-variable regression (n/(n - K), K counting the effects)\nregress {y} {rhs} i.entity_id{weight}, vce(robust)\n"
        )),
        Estimator::Fe => out.push_str(&format!("xtreg {y} {rhs}{weight}{}\n", opts("fe"))),
        Estimator::Twfe => out.push_str(&format!(
            "xtreg {y} {rhs} i.{time}{weight}{}\n",
            if fit.vcov == VcovKind::Hc1 {
                ", fe vce(robust)  // Stata treats robust as clustered here".to_string()
            } else {
                opts("fe")
            }
        )),
        Estimator::Re => {
            out.push_str(&format!("xtreg {y} {rhs}{}\n", opts("re")));
            out.push_str("xttest0\n");
            out.push_str(&format!(
                "quietly xtreg {y} {rhs}, fe\nestimates store fe\nquietly xtreg {y} {rhs}, re\nestimates store re\nhausman fe re\n"
            ));
        }
        Estimator::Be => out.push_str(&format!(
            "xtreg {y} {rhs}, be{}\n",
            if fit.vcov == VcovKind::Iid { "" } else { "  // xtreg, be has classical errors only; imr's robust ones: regress on entity means" }
        )),
        Estimator::Fd => {
            let d: Vec<String> = std::iter::once(&y).chain(&xs).map(|v| format!("D.{v}")).collect();
            out.push_str(
                "* D. differences years one apart; imr (and the R code) differences consecutive years present\n",
            );
            out.push_str(&format!("regress {}, noconstant{}\n", d.join(" "), vce(fit.vcov)));
        }
        Estimator::Cre => {
            let means: Vec<String> = fit
                .coefficients
                .iter()
                .filter_map(|c| c.term.strip_suffix("_mean").map(stata))
                .collect();
            out.push_str(&format!("generate byte touse = !missing({y}, {})\n", xs.join(", ")));
            for x in &means {
                out.push_str(&format!(
                    "bysort entity_id: egen {x}_mean = mean(cond(touse, {x}, .))\n"
                ));
            }
            let m: Vec<String> = means.iter().map(|x| format!("{x}_mean")).collect();
            out.push_str(&format!("xtreg {y} {rhs} {} if touse{}\n", m.join(" "), opts("re")));
            out.push_str(&format!("test {}\n", m.join(" ")));
        }
        Estimator::PoissonFe => {
            let exposure = fit
                .exposure
                .as_ref()
                .map(|e| format!(" exposure({})", stata(e)))
                .unwrap_or_default();
            let v = match fit.vcov {
                VcovKind::Iid => "",
                _ => " vce(robust)",
            };
            out.push_str(&format!("xtpoisson {y} {rhs}, fe{exposure}{v}\nxtpoisson, irr\n"));
        }
    }
    out
}
