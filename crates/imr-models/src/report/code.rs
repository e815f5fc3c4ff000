//! R and Stata code that reproduces a fit on the downloaded CSV, and the `imr fit` command.
//!
//! R: `fixest` (Bergé 2018) for pooled-with-clusters, fe, twfe and poisson-fe; `plm` (Croissant
//! & Millo 2008) with `lmtest`/`sandwich` for re, be, fd and cre. Stata: `regress`, `xtreg`,
//! `xtpoisson`. Comments state where a package's small-sample convention differs.

use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind};
use imr_escape::{
    comment_line, r_name, r_string, shell_join, stata_comment, stata_name, stata_string,
};

/// The names the code needs: the CSV file and its entity and time columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeContext<'a> {
    /// File name of the downloaded data (as written next to the code).
    pub csv_file: &'a str,
    /// Entity column.
    pub entity: &'a str,
    /// Time column.
    pub time: &'a str,
    /// Comment lines (`#`, the export's provenance) before the CSV's header row: R skips them
    /// with `comment.char = "#"`, Stata with `varnames()`/`rowrange()`.
    pub comment_lines: usize,
    /// Data rows the fit left out before the model saw them (rows flagged as implausible), as
    /// 1-based positions among the file's data rows (the row after the header is 1): the code
    /// drops them right after reading, so that it fits the same rows. Empty: none.
    pub drop_rows: &'a [usize],
}

/// R: `d <- d[-c(…), ]` dropping `rows` (1-based data rows), with a comment; empty without rows.
fn r_drop_rows(rows: &[usize]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let list = rows.iter().map(usize::to_string).collect::<Vec<_>>();
    format!(
        "# rows flagged as implausible, left out as imr does (--include-flagged keeps them)\nd <- d[-c({}), ]\n",
        list.join(", ")
    )
}

/// Stata: `drop if inlist(_n, …)` dropping `rows` (1-based data rows) in lines of at most 200
/// numbers (inlist takes up to 250 arguments), with a comment; empty without rows.
fn stata_drop_rows(rows: &[usize]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "* rows flagged as implausible, left out as imr does (--include-flagged keeps them)\ngenerate long imr_row = _n\n",
    );
    for chunk in rows.chunks(200) {
        let list = chunk.iter().map(usize::to_string).collect::<Vec<_>>();
        out.push_str(&format!("drop if inlist(imr_row, {})\n", list.join(", ")));
    }
    out.push_str("drop imr_row\n");
    out
}

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

fn regressors(fit: &Fit) -> Vec<String> {
    fit.regressors.clone()
}

/// The absorbed fixed effects of the fit as `imr fit --fe` names them (`region^year`).
fn absorbed_names(fit: &Fit) -> Vec<String> {
    fit.fixed_effects.iter().map(|f| f.name.clone()).collect()
}

/// The options of `imr fit` that set what is fitted (the input, its columns, the level and the
/// output format aside). One definition of these words for every command shown: the command of
/// an exported fit ([`imr_command_args`]) and the request's `to_args` in imr-core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FitOptions<'a> {
    /// Outcome column (`--y`).
    pub y: &'a str,
    /// The `--x` values, one `--x` each (a value may list several regressors, `a,b`).
    pub x: &'a [String],
    /// Estimator (`--model`).
    pub model: Estimator,
    /// Standard errors (`--vcov`).
    pub vcov: VcovKind,
    /// Weights column (`--weights`), if any.
    pub weights: Option<&'a str>,
    /// Exposure column (`--exposure`), if any.
    pub exposure: Option<&'a str>,
    /// Absorbed fixed effects as fixest writes them (`--fe`, `commune,region^year`), if any.
    pub fe: Option<&'a str>,
}

impl FitOptions<'_> {
    /// `--y`, one `--x` per value, `--model`, `--vcov`, then `--weights`, `--exposure` and
    /// `--fe` when set.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec!["--y".to_string(), self.y.to_string()];
        for x in self.x {
            args.push("--x".into());
            args.push(x.clone());
        }
        args.extend(["--model", self.model.name(), "--vcov", self.vcov.name()].map(String::from));
        for (flag, value) in [
            ("--weights", self.weights),
            ("--exposure", self.exposure),
            ("--fe", self.fe),
        ] {
            if let Some(value) = value {
                args.extend([flag.to_string(), value.to_string()]);
            }
        }
        args
    }
}

/// The arguments of the `imr fit` command that produces `fit` from the CSV: the regressors as
/// one comma-separated `--x`, or one `--x` per regressor when a name holds a comma (then each
/// names a column whole).
pub fn imr_command_args(fit: &Fit, ctx: &CodeContext) -> Vec<String> {
    let mut args: Vec<String> = [
        "imr",
        "fit",
        ctx.csv_file,
        "--entity",
        ctx.entity,
        "--time",
        ctx.time,
    ]
    .map(String::from)
    .to_vec();
    let joined;
    let x = if fit.regressors.iter().any(|x| x.contains(',')) {
        &fit.regressors[..]
    } else {
        joined = [fit.regressors.join(",")];
        &joined[..]
    };
    let fe = (!fit.fixed_effects.is_empty()).then(|| absorbed_names(fit).join(","));
    args.extend(
        FitOptions {
            y: &fit.outcome,
            x,
            model: fit.model,
            vcov: fit.vcov,
            weights: fit.weights.as_deref(),
            exposure: fit.exposure.as_deref(),
            fe: fe.as_deref(),
        }
        .to_args(),
    );
    args.extend(["--format", "json"].map(String::from));
    args
}

/// The `imr fit` command line that produces `fit` from the CSV, every word shell-quoted
/// ([`imr_escape::shell_join`]).
pub fn imr_command(fit: &Fit, ctx: &CodeContext) -> String {
    shell_join(imr_command_args(fit, ctx))
}

/// The comment lines that open the R and Stata code, each starting with `mark` and its text
/// made safe by `comment`: the model and its errors, their convention, and the `imr fit`
/// command that gives the same numbers.
fn code_header(fit: &Fit, ctx: &CodeContext, mark: &str, comment: fn(&str) -> String) -> String {
    format!(
        "{mark} imr-atlas: {} — {} standard errors\n{mark} {}\n{mark} Same numbers as: {}\n",
        fit.model.label(),
        fit.vcov.name(),
        comment(&fit.vcov_convention.to_string()),
        comment(&imr_command(fit, ctx))
    )
}

/// R code reproducing the fit.
pub fn r_code(fit: &Fit, ctx: &CodeContext) -> String {
    let y = r_name(&fit.outcome);
    let xs: Vec<String> = regressors(fit).iter().map(|x| r_name(x)).collect();
    let rhs = xs.join(" + ");
    let id = r_name(ctx.entity);
    let time = r_name(ctx.time);
    let weights_fx = fit
        .weights
        .as_ref()
        .map(|w| format!(", weights = ~{}", r_name(w)))
        .unwrap_or_default();
    let weights_lm = fit
        .weights
        .as_ref()
        .map(|w| format!(", weights = {}", r_name(w)))
        .unwrap_or_default();
    let mut out = code_header(fit, ctx, "#", comment_line);
    out.push_str(&format!(
        "d <- read.csv({}, check.names = FALSE{})\n",
        r_string(ctx.csv_file),
        if ctx.comment_lines > 0 {
            ", comment.char = \"#\""
        } else {
            ""
        }
    ));
    out.push_str(&r_drop_rows(ctx.drop_rows));
    let plm_vcov = |m: &str| {
        match fit.vcov {
        VcovKind::Iid => format!("lmtest::coeftest({m}, df = Inf)\n"),
        VcovKind::Hc1 => format!(
            "lmtest::coeftest({m}, vcov = plm::vcovHC({m}, method = \"white1\", type = \"HC1\"), df = Inf)\n"
        ),
        VcovKind::Cluster => format!(
            "# type = \"sss\": G/(G-1)·(N-1)/(N-K), Stata's small-sample factor\nlmtest::coeftest({m}, vcov = plm::vcovHC({m}, method = \"arellano\", type = \"sss\", cluster = \"group\"), df = Inf)\n"
        ),
    }
    };
    let pdata = format!(
        "pd <- plm::pdata.frame(d, index = c({}, {}))\n",
        r_string(ctx.entity),
        r_string(ctx.time)
    );
    match fit.model {
        Estimator::Pooled => {
            out.push_str(&format!("m <- lm({y} ~ {rhs}, data = d{weights_lm})\n"));
            out.push_str(&match fit.vcov {
                VcovKind::Iid => "summary(m)\n".to_string(),
                VcovKind::Hc1 => "lmtest::coeftest(m, vcov = sandwich::vcovHC(m, type = \"HC1\"))\n".into(),
                VcovKind::Cluster => format!(
                    "# t with G - 1 degrees of freedom, as imr\nG <- length(unique(d${id}))\nlmtest::coeftest(m, vcov = sandwich::vcovCL(m, cluster = ~{id}, type = \"HC1\"), df = G - 1)\n"
                ),
            });
        }
        Estimator::Fe if !fit.fixed_effects.is_empty() => {
            // Absorbed fixed effects: fixest writes them as imr does, `a + b + c^d`.
            let fes = absorbed_names(fit)
                .iter()
                .map(|f| f.split('^').map(r_name).collect::<Vec<_>>().join("^"))
                .collect::<Vec<_>>()
                .join(" + ");
            let vcov = match fit.vcov {
                VcovKind::Iid => "\"iid\"".to_string(),
                VcovKind::Hc1 => "\"hetero\"".to_string(),
                _ => format!("~{id}"),
            };
            out.push_str("library(fixest)\n");
            out.push_str(&format!(
                "m <- feols({y} ~ {rhs} | {fes}, data = d, vcov = {vcov},\n           ssc = ssc(adj = TRUE, fixef.K = \"nested\", cluster.adj = TRUE))\nsummary(m)\n"
            ));
        }
        Estimator::Fe | Estimator::Twfe => {
            let fes = if fit.model == Estimator::Fe {
                id.clone()
            } else {
                format!("{id} + {time}")
            };
            if fit.vcov == VcovKind::Hc1 {
                let dummies = if fit.model == Estimator::Fe {
                    format!("factor({id})")
                } else {
                    format!("factor({id}) + factor({time})")
                };
                out.push_str(&format!(
                    "# HC1 on the dummy-variable regression: n/(n - K), K counting the effects\nm <- lm({y} ~ {rhs} + {dummies}, data = d{weights_lm})\nlmtest::coeftest(m, vcov = sandwich::vcovHC(m, type = \"HC1\"))[c({}), ]\n",
                    xs.iter().map(|x| r_string(x)).collect::<Vec<_>>().join(", ")
                ));
            } else {
                let vcov = if fit.vcov == VcovKind::Iid {
                    "\"iid\"".to_string()
                } else {
                    format!("~{id}")
                };
                out.push_str("library(fixest)\n");
                out.push_str(&format!(
                    "m <- feols({y} ~ {rhs} | {fes}, data = d{weights_fx}, vcov = {vcov},\n           ssc = ssc(adj = TRUE, fixef.K = \"nested\", cluster.adj = TRUE))\nsummary(m)\n"
                ));
            }
        }
        Estimator::Re | Estimator::Be | Estimator::Fd => {
            out.push_str(&pdata);
            let (model, formula) = match fit.model {
                Estimator::Re => ("random\", random.method = \"swar", format!("{y} ~ {rhs}")),
                Estimator::Be => ("between", format!("{y} ~ {rhs}")),
                _ => ("fd", format!("{y} ~ {rhs} - 1")),
            };
            if fit.model == Estimator::Re {
                out.push_str("# unbalanced panels: imr uses Stata's harmonic-mean T for σ²_u; plm's swar uses a trace correction\n");
            }
            out.push_str(&format!(
                "m <- plm::plm({formula}, data = pd, model = \"{model}\")\n"
            ));
            out.push_str(&plm_vcov("m"));
            if fit.model == Estimator::Re {
                out.push_str("plm::plmtest(m, type = \"bp\")\nplm::phtest(plm::plm(");
                out.push_str(&format!(
                    "{y} ~ {rhs}, data = pd, model = \"within\"), m)\n"
                ));
            }
        }
        Estimator::Cre => {
            out.push_str(&format!(
                "used <- stats::complete.cases(d[, c({}, {})])\nd <- d[used, ]\n",
                r_string(&fit.outcome),
                regressors(fit)
                    .iter()
                    .map(|x| r_string(x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            let means: Vec<String> = fit
                .coefficients
                .iter()
                .filter_map(|c| c.term.strip_suffix("_mean").map(str::to_string))
                .collect();
            for x in &means {
                out.push_str(&format!(
                    "d${} <- ave(d${}, d${id})\n",
                    r_name(&format!("{x}_mean")),
                    r_name(x)
                ));
            }
            out.push_str(&pdata);
            let mean_terms: Vec<String> =
                means.iter().map(|x| r_name(&format!("{x}_mean"))).collect();
            out.push_str(&format!(
                "m <- plm::plm({y} ~ {rhs} + {}, data = pd, model = \"random\", random.method = \"swar\")\n",
                mean_terms.join(" + ")
            ));
            out.push_str(&plm_vcov("m"));
        }
        Estimator::PoissonFe => {
            out.push_str("library(fixest)\n");
            let offset = fit
                .exposure
                .as_ref()
                .map(|e| format!(", offset = ~log({})", r_name(e)))
                .unwrap_or_default();
            let (vcov, ssc) = match fit.vcov {
                VcovKind::Iid => ("\"iid\"".to_string(), "ssc(adj = FALSE)"),
                VcovKind::Hc1 => (
                    "\"hetero\"".to_string(),
                    "ssc(adj = TRUE, fixef.K = \"full\")",
                ),
                VcovKind::Cluster => (format!("~{id}"), "ssc(adj = FALSE, cluster.adj = TRUE)"),
            };
            out.push_str(&format!(
                "m <- fepois({y} ~ {rhs} | {id}, data = d{offset}, vcov = {vcov}, ssc = {ssc})\nsummary(m)\nexp(coef(m))  # incidence-rate ratios\n"
            ));
        }
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
        "import delimited using {}, clear case(preserve) {}\n{}\
         capture confirm string variable {entity}\n\
         if !_rc encode {entity}, generate(entity_id)\n\
         else generate entity_id = {entity}\n\
         xtset entity_id {time}\n",
        file,
        stata_rows(ctx.comment_lines),
        stata_drop_rows(ctx.drop_rows)
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
        Estimator::Fe if !fit.fixed_effects.is_empty() => {
            // Absorbed fixed effects: reghdfe, each term as one group variable (text columns
            // and interactions alike).
            out.push_str("* absorbed fixed effects: reghdfe (ssc install reghdfe ftools)\n");
            let mut groups = Vec::new();
            for (k, name) in absorbed_names(fit).iter().enumerate() {
                let parts: Vec<String> = name.split('^').map(stata).collect();
                out.push_str(&format!("egen fe_{} = group({})\n", k + 1, parts.join(" ")));
                groups.push(format!("fe_{}", k + 1));
            }
            out.push_str(&format!(
                "reghdfe {y} {rhs}, absorb({}){}\n",
                groups.join(" "),
                vce(fit.vcov)
            ));
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
