//! Why the model left a row or an entity out, as values: the engine records what it found (the
//! columns, the value, the entity) and [`ExclusionReason::render`] and
//! [`EntityDropReason::render`] word it in English or Spanish. The page shows them in its
//! language; `imr fit` and the JSON carry the English text (`Display` and `Serialize`: the
//! `render(Lang::En)` of each value).

use crate::drop_reason::quoted;
use imr_stats::{Lang, Worded};

/// What is wrong with one value of a row ([`ExclusionReason::Values`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ValueProblem {
    /// No value in these columns (outcome, regressors, weights, exposure), in that order.
    MissingValue { columns: Vec<String> },
    /// No level in these absorbed fixed effects (`--fe`).
    MissingFixedEffect { effects: Vec<String> },
    /// No value in these clustering columns (`--cluster`).
    MissingCluster { clusters: Vec<String> },
    /// A weight of zero or below.
    NonPositiveWeight { column: String, value: f64 },
    /// A negative outcome where the model counts events (Poisson).
    NegativeCount { column: String, value: f64 },
    /// An exposure of zero or below, so `ln(exposure)`, the offset, is not defined (poisson-fe).
    ExposureWithoutLogarithm { column: String, value: f64 },
    /// An exposure of zero or below (Poisson with absorbed effects).
    NonPositiveExposure { column: String, value: f64 },
}

/// Why a row is not in the fit ([`crate::ExcludedRow::reason`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExclusionReason {
    /// The row's own values cannot be used; several problems are joined by "; ".
    Values(Vec<ValueProblem>),
    /// Its entity has the outcome zero in every period, dropped from poisson-fe.
    EntityAllZero { entity: String, outcome: String },
    /// Its entity has this row only, dropped from poisson-fe.
    EntitySingleRow { entity: String },
    /// The only row of its level of an absorbed fixed effect (`--fe`), removed as fixest does.
    Singleton { effect: String },
    /// The outcome is zero in every row of its level of an absorbed fixed effect (Poisson with
    /// `--fe`), removed as pyfixest `fepois` does.
    ZeroOutcomeLevel { outcome: String, effect: String },
    /// Flagged as implausible by the caller (imr-core's plausibility rules), whose reasons come
    /// worded in both languages.
    Flagged { reasons: Worded },
}

/// Why an entity is not in a poisson-fe fit ([`crate::DroppedEntity::reason`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EntityDropReason {
    /// The outcome is zero in every period: the entity's effect would be −∞.
    AllZeroOutcome { outcome: String },
    /// A single row: the entity's effect fits it exactly.
    SingleRow,
}

impl ValueProblem {
    /// The problem in `lang`.
    pub fn render(&self, lang: Lang) -> String {
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
    /// The reason in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        use ExclusionReason::*;
        match (self, lang) {
            (Values(problems), _) => problems
                .iter()
                .map(|p| p.render(lang))
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
    /// The reason in `lang`.
    pub fn render(&self, lang: Lang) -> String {
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

english_display_and_json!(ValueProblem => render, ExclusionReason => render, EntityDropReason => render);

#[cfg(test)]
mod tests {
    use super::*;

    /// One value of each reason.
    fn examples() -> Vec<ExclusionReason> {
        use ValueProblem::*;
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        vec![
            ExclusionReason::Values(vec![
                MissingValue {
                    columns: names(&["pobreza", "escolaridad"]),
                },
                MissingFixedEffect {
                    effects: names(&["region"]),
                },
                MissingCluster {
                    clusters: names(&["provincia"]),
                },
                NonPositiveWeight {
                    column: "nacimientos".into(),
                    value: 0.0,
                },
                NegativeCount {
                    column: "defunciones".into(),
                    value: -1.5,
                },
                ExposureWithoutLogarithm {
                    column: "nacimientos".into(),
                    value: 0.0,
                },
                NonPositiveExposure {
                    column: "nacimientos".into(),
                    value: -2.0,
                },
            ]),
            ExclusionReason::EntityAllZero {
                entity: "01101".into(),
                outcome: "defunciones".into(),
            },
            ExclusionReason::EntitySingleRow {
                entity: "01101".into(),
            },
            ExclusionReason::Singleton {
                effect: "comuna".into(),
            },
            ExclusionReason::ZeroOutcomeLevel {
                outcome: "defunciones".into(),
                effect: "comuna".into(),
            },
            ExclusionReason::Flagged {
                reasons: Worded {
                    es: "tasa sobre 200 por 1.000".into(),
                    en: "rate above 200 per 1,000".into(),
                },
            },
        ]
    }

    fn assert_spanish(es: &str, en: &str) {
        assert_ne!(es, en);
        assert!(!es.is_empty());
        assert_eq!(imr_lang::english_words(es), Vec::<String>::new(), "{es}");
        assert!(
            !imr_lang::english_words(en).is_empty(),
            "no marker in the English: {en}"
        );
    }

    #[test]
    fn every_exclusion_reason_is_worded_in_spanish_without_english_words() {
        let reasons = examples();
        for reason in &reasons {
            assert_spanish(&reason.render(Lang::Es), &reason.render(Lang::En));
            assert_eq!(reason.to_string(), reason.render(Lang::En));
        }
        let ExclusionReason::Values(problems) = &reasons[0] else {
            unreachable!("the first example lists the value problems")
        };
        for problem in problems {
            assert_spanish(&problem.render(Lang::Es), &problem.render(Lang::En));
        }
        for reason in [
            EntityDropReason::AllZeroOutcome {
                outcome: "defunciones".into(),
            },
            EntityDropReason::SingleRow,
        ] {
            assert_spanish(&reason.render(Lang::Es), &reason.render(Lang::En));
        }
    }

    #[test]
    fn the_json_keeps_the_english_words() {
        let missing = ExclusionReason::Values(vec![ValueProblem::MissingValue {
            columns: vec!["x".into(), "w".into()],
        }]);
        assert_eq!(
            serde_json::to_string(&missing).unwrap(),
            "\"missing value in `x`, `w`\""
        );
        let weight = ExclusionReason::Values(vec![ValueProblem::NonPositiveWeight {
            column: "w".into(),
            value: -0.5,
        }]);
        assert_eq!(
            weight.to_string(),
            "weight `w` is -0.5 (weights must be positive)"
        );
        assert_eq!(
            weight.render(Lang::Es),
            "el peso `w` es -0,5 (los pesos deben ser positivos)"
        );
    }
}
