//! R and Stata code that reproduces a fit on the downloaded CSV, and the `imr fit` command.
//!
//! R: base R (`lm`, `glm`) and `sandwich` (Zeileis 2004, 2006), every package in Debian's
//! `r-cran-*` (fixest is not), with each estimator's transformation, degrees of freedom and
//! small-sample factor written out where packages differ from `imr` (Swamy–Arora with Stata's
//! harmonic-mean T̄, CR1 of xtreg, fe, the absorbed effects' K of pyfixest). The script ends
//! with the sample, coefficients and tests in full precision; `crates/imr-cli/tests/r_scripts.rs`
//! runs it in R and compares it with `imr fit`. Stata: `regress`, `xtreg`, `xtpoisson`,
//! `reghdfe`, `ppmlhdfe` — never executed by the tests (no Stata here), which the do-file says.

mod command;
pub(crate) mod r;
pub(crate) mod stata;

pub use command::{imr_command, imr_command_args, FitOptions};
pub use r::r_code;
pub use stata::stata_code;

use crate::convention::Convention;
use crate::fit::Fit;

/// The names the code needs: the CSV file and its entity and time columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeContext<'a> {
    /// File name of the downloaded data (as written next to the code).
    pub csv_file: &'a str,
    /// Entity column.
    pub entity: &'a str,
    /// Time column.
    pub time: &'a str,
    /// The year of every row when the file has no time column (`imr fit --time-value`): the
    /// command carries the flag instead of `--time`, and the code creates the column `time`
    /// holding it.
    pub time_value: Option<i64>,
    /// Comment lines (`#`, the export's provenance) before the CSV's header row: R skips them
    /// with `comment.char = "#"`, Stata with `varnames()`/`rowrange()`.
    pub comment_lines: usize,
    /// Field delimiter of the file (`,`, `;`, tab…).
    pub delimiter: char,
    /// Decimal mark of its numbers (`.` or `,`).
    pub decimal: char,
    /// Column of live births (`--births`), if the data have one.
    pub births: Option<&'a str>,
    /// Column of infant deaths (`--deaths`), if the data have one.
    pub deaths: Option<&'a str>,
    /// Column of a published rate per 1,000 (`--rate`) the deaths are derived from
    /// (`rate · births / 1000`) when there is no deaths column.
    pub rate: Option<&'a str>,
    /// Leave out the rows `imr` flags as implausible, as the fit did (`imr fit` without
    /// `--include-flagged`): the rules of `imr_core::plausibility` with their default thresholds,
    /// a rate above 200 per 1,000 and, for deaths derived from a published rate, deaths that
    /// reach half the births or a rate on fewer than 10 births (`FLAG_RULES`).
    pub drop_flagged: bool,
    /// Years left out as copies of the year before, `(year, the year it repeats)`, as the fit
    /// left them out (`imr fit` without `--include-repeated-years`): the code drops their rows.
    pub drop_years: &'a [(i64, i64)],
}

/// The copied years a fit's code drops ([`CodeContext::drop_years`]): the years as a list for
/// the language (`2020, 2022`) and the comment naming what each repeats (`2020 repeats 2019`);
/// `None` when there are none.
pub(crate) fn dropped_years(ctx: &CodeContext) -> Option<(String, String)> {
    if ctx.drop_years.is_empty() {
        return None;
    }
    let years: Vec<String> = ctx.drop_years.iter().map(|(t, _)| t.to_string()).collect();
    let copies: Vec<String> = ctx
        .drop_years
        .iter()
        .map(|(t, of)| format!("{t} repeats {of}"))
        .collect();
    Some((years.join(", "), copies.join(", ")))
}

/// The thresholds of `imr_core::plausibility::Rule::DEFAULTS` (imr-models cannot depend on
/// imr-core; the R tests of imr-cli run the code against `imr fit` on the bundled data, whose
/// flagged rows break each rule): rate per 1,000 above, share of births reached by derived
/// deaths, births below which a published rate is not taken.
pub const FLAG_RULES: (f64, f64, f64) = (200.0, 0.5, 10.0);

fn regressors(fit: &Fit) -> Vec<String> {
    fit.regressors.clone()
}

/// The absorbed fixed effects of the fit as `imr fit --fe` names them (`region^year`).
fn absorbed_names(fit: &Fit) -> Vec<String> {
    fit.fixed_effects.iter().map(|f| f.name.clone()).collect()
}

/// The columns a fit's errors are clustered by when they are not the entity (`--cluster a` or
/// `--cluster a,b`): empty for every other fit.
fn cluster_columns(fit: &Fit) -> Vec<String> {
    match &fit.vcov_convention {
        Convention::ClusterBy { column, .. } => vec![column.clone()],
        Convention::TwoWayCluster { columns, .. } => columns.to_vec(),
        _ => Vec::new(),
    }
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

/// The column of the data file that an absorbed fixed effect's part names: `entity` and `time`
/// are the panel's entity and time columns, as `imr fit --fe` reads them.
fn fe_column<'a>(part: &'a str, ctx: &CodeContext<'a>) -> &'a str {
    match part {
        "entity" => ctx.entity,
        "time" => ctx.time,
        other => other,
    }
}
