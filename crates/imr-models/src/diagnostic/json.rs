//! The English sentence of each diagnostic as `imr fit --format json` carries it (its `Display`
//! and `Serialize`): kept word for word, because scripts read it; a reader of the page gets
//! [`Diagnostic::render`] instead.

use super::Diagnostic;
use imr_stats::Lang;

/// At most `shown` items in backquotes, then "and N more".
fn list(items: &[String], shown: usize, quote: bool) -> String {
    let mut out: Vec<String> = items
        .iter()
        .take(shown)
        .map(|l| if quote { format!("`{l}`") } else { l.clone() })
        .collect();
    if items.len() > shown {
        out.push(format!("and {} more", items.len() - shown));
    }
    out.join(", ")
}

fn entities(labels: &[String]) -> String {
    list(labels, 5, true)
}

/// "N row(s) excluded … (rows …)".
fn rows_excluded(rows: &[usize]) -> String {
    let n = rows.len();
    let rows: Vec<String> = rows.iter().map(usize::to_string).collect();
    let listed = list(&rows, 10, false);
    format!("{n} row(s) excluded for missing or unusable values (rows {listed}); see excluded_rows")
}

/// The absorbed fixed effects and their levels.
fn absorbed_effects(effects: &[(String, usize)]) -> String {
    let listed = effects
        .iter()
        .map(|(name, levels)| format!("`{name}` ({levels})"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("absorbed fixed effects (levels): {listed}")
}

impl Diagnostic {
    /// The English remark of the JSON and of `imr fit` (`Display`, `Serialize`).
    pub(super) fn json_text(&self) -> String {
        use Diagnostic::*;
        match self {
        ExposureIgnored { estimator } => {
            format!("the exposure column is used only by poisson-fe; `{estimator}` ignores it")
        }
        NoExposure => "no exposure given: poisson-fe models counts, not rates (give the births as exposure to model the rate)".into(),
        Singletons { entities: e } => format!(
            "{} singleton entit{} (one observation): {}; they add nothing to the within \
             estimates but are kept and counted in the degrees of freedom, as Stata xtreg",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(e)
        ),
        SingleRowEntities { entities: e } => format!(
            "{} entit{} with a single row dropped (the entity's effect fits that row \
             exactly: no information on the coefficients; as Stata xtpoisson, fe and \
             pyfixest fepois): {}; see excluded_rows",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(e)
        ),
        ZeroOutcomeRowsRemoved { outcome, rows } => format!(
            "{rows} observation(s) removed: `{outcome}` is zero in every row of their level \
             of a fixed effect (the level's effect would be −∞; as pyfixest fepois); see \
             excluded_rows"
        ),
        SingletonsRemoved { rows } => format!(
            "{rows} singleton observation(s) removed (alone in a level of a fixed effect, \
             repeatedly, as fixest and pyfixest); see excluded_rows"
        ),
        HausmanWeighted => "the Hausman test is not computed for weighted fits".into(),
        HausmanUnavailable { why } => {
            format!("the Hausman test is not available: {}", why.text(Lang::En))
        }
        FirstDifferences {
                differences,
                rows,
                after_gap,
            } => format!(
            "first differences: {differences} differences from {rows} rows; the first row of \
             each entity starts the differences{}",
            if *after_gap > 0 {
                format!(", and {after_gap} row(s) follow a gap in the periods and start a new run")
            } else {
                String::new()
            }
        ),
        NoConsecutivePeriods { entities: e } => format!(
            "{} entit{} without two consecutive periods contribute no difference: {}",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(e)
        ),
        UnbalancedTheta => {
            "the panel is unbalanced: θ differs by entity (θ_i from T_i), see theta_summary".into()
        }
        NegativeSigmaU { value } => format!(
            "the Swamy–Arora estimate of σ²_u is negative ({value:.4e}); it is set to 0, \
             so θ = 0 and random effects coincide with pooled OLS"
        ),
        PoissonConverged { iterations } => {
            format!("poisson-fe converged in {iterations} Newton iteration(s)")
        }
        AllZeroEntities {
                outcome,
                entities: e,
            } => format!(
            "{} entit{} with `{outcome}` = 0 in every period dropped: {}",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(e)
        ),
        RowsExcluded { rows } => rows_excluded(rows),
        AbsorbedEffects { effects } => absorbed_effects(effects),
        }
    }
}
