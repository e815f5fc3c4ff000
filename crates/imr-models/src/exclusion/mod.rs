//! Why the model left a row or an entity out, as values: the engine records what it found (the
//! columns, the value, the entity) and [`ExclusionReason::render`] and
//! [`EntityDropReason::render`] word it for a [`Reader`], in English or Spanish with the
//! reader's words for a column. `imr fit` and the JSON carry a fixed English sentence (json.rs:
//! `Display` and `Serialize`).

mod json;

use crate::reader::Reader;
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
    /// Its year repeats the previous one in every entity (a copy, `imr_core::repeats`), left
    /// out as the trends and the Findings leave it out (`--include-repeated-years` keeps it).
    RepeatedYear { time: i64, repeat_of: i64 },
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
    /// The problem for `reader`: in its language, columns in its words.
    pub fn render(&self, reader: Reader) -> String {
        use ValueProblem::*;
        let number = |v: &f64| reader.lang().with_decimal_mark(v.to_string());
        let effects = |names: &[String]| {
            let words: Vec<String> = names.iter().map(|n| reader.effect(n)).collect();
            reader.and(&words)
        };
        match (self, reader.lang()) {
            (MissingValue { columns }, Lang::En) => {
                format!("no value of {}", reader.columns(columns))
            }
            (MissingValue { columns }, Lang::Es) => {
                format!("falta el valor de {}", reader.columns(columns))
            }
            (MissingFixedEffect { effects: e }, Lang::En) => {
                format!("no level of the fixed effect {}", effects(e))
            }
            (MissingFixedEffect { effects: e }, Lang::Es) => {
                format!("falta el nivel del efecto fijo {}", effects(e))
            }
            (MissingCluster { clusters }, Lang::En) => {
                format!("no value of the cluster {}", reader.columns(clusters))
            }
            (MissingCluster { clusters }, Lang::Es) => {
                format!("falta el conglomerado {}", reader.columns(clusters))
            }
            (NonPositiveWeight { column, value }, Lang::En) => format!(
                "the weight {} is {} (weights must be positive)",
                reader.column(column),
                number(value)
            ),
            (NonPositiveWeight { column, value }, Lang::Es) => format!(
                "el peso {} es {} (los pesos deben ser positivos)",
                reader.column(column),
                number(value)
            ),
            (NegativeCount { column, value }, Lang::En) => format!(
                "{} is {} (a count cannot be negative)",
                reader.column(column),
                number(value)
            ),
            (NegativeCount { column, value }, Lang::Es) => format!(
                "{} es {} (un conteo no puede ser negativo)",
                reader.column(column),
                number(value)
            ),
            (ExposureWithoutLogarithm { column, value }, Lang::En) => format!(
                "the exposure {} is {}: its logarithm, which the Poisson model needs, is not \
                 defined",
                reader.column(column),
                number(value)
            ),
            (ExposureWithoutLogarithm { column, value }, Lang::Es) => format!(
                "la exposición {} es {}: su logaritmo, que el modelo de Poisson necesita, no \
                 está definido",
                reader.column(column),
                number(value)
            ),
            (NonPositiveExposure { column, value }, Lang::En) => format!(
                "the exposure {} is {} (an exposure must be positive)",
                reader.column(column),
                number(value)
            ),
            (NonPositiveExposure { column, value }, Lang::Es) => format!(
                "la exposición {} es {} (una exposición debe ser positiva)",
                reader.column(column),
                number(value)
            ),
        }
    }
}

impl ExclusionReason {
    /// The reason for `reader`: in its language, columns in its words.
    pub fn render(&self, reader: Reader) -> String {
        use ExclusionReason::*;
        let lang = reader.lang();
        match (self, lang) {
            (Values(problems), _) => problems
                .iter()
                .map(|p| p.render(reader))
                .collect::<Vec<_>>()
                .join("; "),
            (EntityAllZero { entity, outcome }, Lang::En) => format!(
                "entity {entity} has {} = 0 in every period (left out of the Poisson model)",
                reader.column(outcome)
            ),
            (EntityAllZero { entity, outcome }, Lang::Es) => format!(
                "la entidad {entity} tiene {} = 0 en todos los períodos (excluida del modelo de \
                 Poisson)",
                reader.column(outcome)
            ),
            (EntitySingleRow { entity }, Lang::En) => {
                format!("entity {entity} has a single row (left out of the Poisson model)")
            }
            (EntitySingleRow { entity }, Lang::Es) => {
                format!("la entidad {entity} tiene una sola fila (excluida del modelo de Poisson)")
            }
            (Singleton { effect }, Lang::En) => format!(
                "the only observation of its level of the fixed effect {} (removed, as fixest \
                 and pyfixest do: it is fitted exactly and carries no information on the slopes)",
                reader.effect(effect)
            ),
            (Singleton { effect }, Lang::Es) => format!(
                "observación única de su nivel del efecto fijo {} (eliminada, como hacen fixest \
                 y pyfixest: se ajusta exactamente y no informa sobre las pendientes)",
                reader.effect(effect)
            ),
            (ZeroOutcomeLevel { outcome, effect }, Lang::En) => format!(
                "{} is zero in every row of its level of the fixed effect {} (removed, as \
                 pyfixest fepois and Stata xtpoisson, fe do: the level's effect would be −∞, and \
                 it carries no information on the slopes)",
                reader.column(outcome),
                reader.effect(effect)
            ),
            (ZeroOutcomeLevel { outcome, effect }, Lang::Es) => format!(
                "{} es cero en todas las filas de su nivel del efecto fijo {} (eliminada, como \
                 hacen pyfixest fepois y Stata xtpoisson, fe: el efecto del nivel sería −∞ y no \
                 informa sobre las pendientes)",
                reader.column(outcome),
                reader.effect(effect)
            ),
            (Flagged { reasons }, Lang::En) => {
                format!("flagged as implausible: {}", reasons.text(lang))
            }
            (Flagged { reasons }, Lang::Es) => {
                format!("marcada como inverosímil: {}", reasons.text(lang))
            }
            (RepeatedYear { time, repeat_of }, Lang::En) => {
                format!("{time} repeats {repeat_of} in every commune (a copy, not a year of data)")
            }
            (RepeatedYear { time, repeat_of }, Lang::Es) => {
                format!("{time} repite {repeat_of} en todas las comunas (una copia, no un año de datos)")
            }
        }
    }
}

impl EntityDropReason {
    /// The reason for `reader`: in its language, columns in its words.
    pub fn render(&self, reader: Reader) -> String {
        match (self, reader.lang()) {
            (EntityDropReason::AllZeroOutcome { outcome }, Lang::En) => format!(
                "{} is zero in every period: with entity effects such an entity carries no \
                 information on the coefficients (its effect would be −∞)",
                reader.column(outcome)
            ),
            (EntityDropReason::AllZeroOutcome { outcome }, Lang::Es) => format!(
                "{} es cero en todos los períodos: con efectos de entidad, una entidad así no \
                 informa sobre los coeficientes (su efecto sería −∞)",
                reader.column(outcome)
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
            ExclusionReason::RepeatedYear {
                time: 2022,
                repeat_of: 2021,
            },
        ]
    }

    /// A reader whose words for `nacimientos` are the page's.
    fn reader(lang: Lang) -> Reader {
        Reader::new(lang, |lang, name| match name {
            "nacimientos" => lang.pick("Nacimientos", "Births").to_owned(),
            other => other.to_owned(),
        })
    }

    fn assert_spanish(es: &str, en: &str) {
        assert_ne!(es, en);
        assert!(!es.contains('`') && !en.contains('`'), "{es} / {en}");
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
            assert_spanish(
                &reason.render(reader(Lang::Es)),
                &reason.render(reader(Lang::En)),
            );
            assert!(!reason.to_string().is_empty());
        }
        let ExclusionReason::Values(problems) = &reasons[0] else {
            unreachable!("the first example lists the value problems")
        };
        for problem in problems {
            assert_spanish(
                &problem.render(reader(Lang::Es)),
                &problem.render(reader(Lang::En)),
            );
        }
        for reason in [
            EntityDropReason::AllZeroOutcome {
                outcome: "defunciones".into(),
            },
            EntityDropReason::SingleRow,
        ] {
            assert_spanish(
                &reason.render(reader(Lang::Es)),
                &reason.render(reader(Lang::En)),
            );
        }
    }

    #[test]
    fn a_missing_value_names_the_column_in_the_readers_words() {
        let missing = ExclusionReason::Values(vec![ValueProblem::MissingValue {
            columns: vec!["nacimientos".into(), "pobreza".into()],
        }]);
        assert_eq!(
            missing.render(reader(Lang::Es)),
            "falta el valor de «Nacimientos» y «pobreza»"
        );
        assert_eq!(
            missing.render(reader(Lang::En)),
            "no value of “Births” and “pobreza”"
        );
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
            weight.render(reader(Lang::Es)),
            "el peso «w» es -0,5 (los pesos deben ser positivos)"
        );
    }
}
