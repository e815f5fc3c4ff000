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
        match (self, lang) {
            (MissingValue { columns }, Lang::En) => format!("missing value in {}", quoted(columns)),
            (MissingValue { columns }, Lang::Es) => {
                format!("falta el valor de {}", quoted(columns))
            }
            (MissingFixedEffect { effects }, Lang::En) => {
                format!("missing fixed effect {}", quoted(effects))
            }
            (MissingFixedEffect { effects }, Lang::Es) => {
                format!("falta el nivel del efecto fijo {}", quoted(effects))
            }
            (MissingCluster { clusters }, Lang::En) => {
                format!("missing cluster {}", quoted(clusters))
            }
            (MissingCluster { clusters }, Lang::Es) => {
                format!("falta el conglomerado {}", quoted(clusters))
            }
            (NonPositiveWeight { column, value }, Lang::En) => format!(
                "weight `{column}` is {} (weights must be positive)",
                number(value)
            ),
            (NonPositiveWeight { column, value }, Lang::Es) => format!(
                "el peso `{column}` es {} (los pesos deben ser positivos)",
                number(value)
            ),
            (NegativeCount { column, value }, Lang::En) => format!(
                "`{column}` is {} (a count cannot be negative)",
                number(value)
            ),
            (NegativeCount { column, value }, Lang::Es) => format!(
                "`{column}` es {} (un conteo no puede ser negativo)",
                number(value)
            ),
            (ExposureWithoutLogarithm { column, value }, Lang::En) => format!(
                "exposure `{column}` is {}: its logarithm, the offset, is not defined",
                number(value)
            ),
            (ExposureWithoutLogarithm { column, value }, Lang::Es) => format!(
                "la exposición `{column}` es {}: su logaritmo, el término de ajuste (offset), no \
                 está definido",
                number(value)
            ),
            (NonPositiveExposure { column, value }, Lang::En) => format!(
                "exposure `{column}` is {} (an exposure must be positive)",
                number(value)
            ),
            (NonPositiveExposure { column, value }, Lang::Es) => format!(
                "la exposición `{column}` es {} (una exposición debe ser positiva)",
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
        match (self, lang) {
            (Values(problems), _) => problems
                .iter()
                .map(|p| p.json_text())
                .collect::<Vec<_>>()
                .join("; "),
            (EntityAllZero { entity, outcome }, Lang::En) => format!(
                "entity `{entity}` has `{outcome}` = 0 in every period (dropped from poisson-fe)"
            ),
            (EntityAllZero { entity, outcome }, Lang::Es) => format!(
                "la entidad `{entity}` tiene `{outcome}` = 0 en todos los períodos (excluida de \
                 poisson-fe)"
            ),
            (EntitySingleRow { entity }, Lang::En) => {
                format!("entity `{entity}` has a single row (dropped from poisson-fe)")
            }
            (EntitySingleRow { entity }, Lang::Es) => {
                format!("la entidad `{entity}` tiene una sola fila (excluida de poisson-fe)")
            }
            (Singleton { effect }, Lang::En) => format!(
                "singleton: the only observation of its level of fixed effect `{effect}` \
                 (removed, as fixest and pyfixest do: it is fitted exactly and carries no \
                 information on the slopes)"
            ),
            (Singleton { effect }, Lang::Es) => format!(
                "observación única de su nivel del efecto fijo `{effect}` (eliminada, como hacen \
                 fixest y pyfixest: se ajusta exactamente y no informa sobre las pendientes)"
            ),
            (ZeroOutcomeLevel { outcome, effect }, Lang::En) => format!(
                "`{outcome}` is zero in every row of its level of fixed effect `{effect}` \
                 (removed, as pyfixest fepois and Stata xtpoisson, fe do: the level's effect \
                 would be −∞, and it carries no information on the slopes)"
            ),
            (ZeroOutcomeLevel { outcome, effect }, Lang::Es) => format!(
                "`{outcome}` es cero en todas las filas de su nivel del efecto fijo `{effect}` \
                 (eliminada, como hacen pyfixest fepois y Stata xtpoisson, fe: el efecto del \
                 nivel sería −∞ y no informa sobre las pendientes)"
            ),
            (Flagged { reasons }, Lang::En) => {
                format!("flagged as implausible: {}", reasons.text(lang))
            }
            (Flagged { reasons }, Lang::Es) => {
                format!("marcada como inverosímil: {}", reasons.text(lang))
            }
        }
    }
}

impl EntityDropReason {
    /// The English of the JSON.
    pub(crate) fn json_text(&self) -> String {
        let lang = Lang::En;
        match (self, lang) {
            (EntityDropReason::AllZeroOutcome { outcome }, Lang::En) => format!(
                "`{outcome}` is zero in every period: with entity effects such an entity carries \
                 no information on the coefficients (its effect would be −∞)"
            ),
            (EntityDropReason::AllZeroOutcome { outcome }, Lang::Es) => format!(
                "`{outcome}` es cero en todos los períodos: con efectos de entidad, una entidad \
                 así no informa sobre los coeficientes (su efecto sería −∞)"
            ),
            (EntityDropReason::SingleRow, Lang::En) => "a single row: the entity's effect fits it \
                 exactly, so it carries no information on the coefficients"
                .into(),
            (EntityDropReason::SingleRow, Lang::Es) => "una sola fila: el efecto de la entidad la \
                 ajusta exactamente, por lo que no informa sobre los coeficientes"
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
