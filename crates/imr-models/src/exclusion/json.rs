//! The English sentence of each reason as `imr fit --format json` carries it in `excluded_rows`
//! and `dropped_entities` (`Display`, `Serialize`): kept word for word, because scripts read it;
//! a reader of the page gets the values' `render` instead.

use super::{EntityDropReason, ExclusionReason, ValueProblem};
use imr_stats::Lang;

/// `a`, `b` in backquotes.
fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl ValueProblem {
    /// The English of the JSON.
    pub(crate) fn json_text(&self) -> String {
        let lang = Lang::En;
        use ValueProblem::*;
        let number = |v: &f64| lang.with_decimal_mark(v.to_string());
        match self {
            MissingValue { columns } => format!("missing value in {}", quoted(columns)),
            MissingFixedEffect { effects } => {
                format!("missing fixed effect {}", quoted(effects))
            }
            MissingCluster { clusters } => {
                format!("missing cluster {}", quoted(clusters))
            }
            NonPositiveWeight { column, value } => format!(
                "weight `{column}` is {} (weights must be positive)",
                number(value)
            ),
            NegativeCount { column, value } => format!(
                "`{column}` is {} (a count cannot be negative)",
                number(value)
            ),
            ExposureWithoutLogarithm { column, value } => format!(
                "exposure `{column}` is {}: its logarithm, the offset, is not defined",
                number(value)
            ),
            NonPositiveExposure { column, value } => format!(
                "exposure `{column}` is {} (an exposure must be positive)",
                number(value)
            ),
        }
    }
}

impl ExclusionReason {
    /// The English of the JSON.
    pub(crate) fn json_text(&self) -> String {
        let lang = Lang::En;
        use ExclusionReason::*;
        match self {
            Values(problems) => problems
                .iter()
                .map(|p| p.json_text())
                .collect::<Vec<_>>()
                .join("; "),
            EntityAllZero { entity, outcome } => format!(
                "entity `{entity}` has `{outcome}` = 0 in every period (dropped from poisson-fe)"
            ),
            EntitySingleRow { entity } => {
                format!("entity `{entity}` has a single row (dropped from poisson-fe)")
            }
            Singleton { effect } => format!(
                "singleton: the only observation of its level of fixed effect `{effect}` \
                 (removed, as fixest and pyfixest do: it is fitted exactly and carries no \
                 information on the slopes)"
            ),
            ZeroOutcomeLevel { outcome, effect } => format!(
                "`{outcome}` is zero in every row of its level of fixed effect `{effect}` \
                 (removed, as pyfixest fepois and Stata xtpoisson, fe do: the level's effect \
                 would be −∞, and it carries no information on the slopes)"
            ),
            Flagged { reasons } => {
                format!("flagged as implausible: {}", reasons.text(lang))
            }
            RepeatedYear { time, repeat_of } => format!(
                "year {time} repeats {repeat_of} in every entity (a copy; imr fit \
                 --include-repeated-years keeps it)"
            ),
        }
    }
}

impl EntityDropReason {
    /// The English of the JSON.
    pub(crate) fn json_text(&self) -> String {
        match self {
            EntityDropReason::AllZeroOutcome { outcome } => format!(
                "`{outcome}` is zero in every period: with entity effects such an entity carries \
                 no information on the coefficients (its effect would be −∞)"
            ),
            EntityDropReason::SingleRow => "a single row: the entity's effect fits it \
                 exactly, so it carries no information on the coefficients"
                .into(),
        }
    }
}

/// `Display` and `Serialize` of a reason: its English sentence of the JSON.
macro_rules! json_display {
    ($($type:ty),+) => {$(
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.json_text())
            }
        }

        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    )+};
}

json_display!(ValueProblem, ExclusionReason, EntityDropReason);
