//! The one error type of the model engine: values, worded in English by `Display` (what `imr`
//! prints) and in either language by [`ModelError::text`].

mod words;

use crate::Lang;

/// Why a model could not be fitted. Each message is written for the person reading it:
/// it says what is wrong with the data or the request, and what to do instead.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModelError {
    /// The input columns do not have one value per row.
    LengthMismatch {
        column: String,
        expected: usize,
        found: usize,
    },
    /// Two rows describe the same entity in the same period.
    DuplicateObservation {
        entity: String,
        time: i64,
        first: usize,
        second: usize,
    },
    /// After excluding rows with missing values too little data remain.
    NotEnoughData(NotEnoughData),
    /// No regressor is left to estimate (all were dropped, or none was given).
    NoRegressors(NoRegressors),
    /// The combination of options is not available.
    Unsupported(Unsupported),
    /// A value is outside the domain of the model (e.g. a negative count for `poisson-fe`).
    InvalidValue(InvalidValue),
    /// The iterative fit did not converge.
    NotConverged(NotConverged),
}

/// Too little data for the model.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum NotEnoughData {
    NoResidualDf { n: usize, k: usize },
    NoFirstDifference,
    OutcomeAllZero { outcome: String },
    NoCompleteRow { excluded: usize },
    NoRowLeft { excluded: usize },
    ClusterNeedsTwoEntities,
    TooFewForCluster { n: usize, k: usize },
    RandomWithinDf { n: usize, g: usize, k: usize },
    RandomBetween { g: usize, k: usize },
}

/// No regressor to estimate.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum NoRegressors {
    NoneGiven,
    /// Every regressor of `model` was dropped, each for its reason.
    AllDropped {
        model: String,
        reasons: Vec<crate::drop_reason::DropReason>,
    },
    NoneVariesWithinEntities,
}

/// An option that does not go with the estimator.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Unsupported {
    Weights {
        model: String,
        poisson: bool,
    },
    Absorbed {
        model: String,
    },
    /// Clusters other than the entity (`--cluster`) go with absorbed fixed effects.
    ClusterColumn {
        model: String,
    },
    /// More than two cluster columns.
    ClusterWays {
        given: usize,
    },
}

/// A value outside what the model takes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InvalidValue {
    NegativeCount { outcome: String, rows: String },
    Level(f64),
    EntityId { id: usize, labels: usize },
    EmptyFixedEffect { spec: String, term: String },
}

/// An iterative step that did not converge.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum NotConverged {
    Absorb { effects: String, column: String },
    TwoWay { column: String },
    TwoWayOutcome,
    SingularPoissonInformation,
    PoissonIterations { iterations: usize },
    SingularPoissonAtEstimate,
}

impl ModelError {
    /// The error in `lang`; English is the `Display` text.
    pub fn text(&self, lang: Lang) -> String {
        use ModelError::*;
        match self {
            LengthMismatch {
                column,
                expected,
                found,
            } => match lang {
                Lang::En => format!(
                    "column `{column}` has {found} values but the panel has {expected} rows"
                ),
                Lang::Es => format!(
                    "la columna «{column}» tiene {found} valores pero el panel tiene {expected} filas"
                ),
            },
            DuplicateObservation {
                entity,
                time,
                first,
                second,
            } => match lang {
                Lang::En => format!(
                    "entity `{entity}` has two rows for time {time} (rows {first} and {second}); a panel needs at most one row per entity and period"
                ),
                Lang::Es => format!(
                    "la entidad «{entity}» tiene dos filas en el período {time} (filas {first} y {second}); un panel admite a lo sumo una fila por entidad y período"
                ),
            },
            NotEnoughData(why) => why.text(lang),
            NoRegressors(why) => why.text(lang),
            Unsupported(why) => why.text(lang),
            InvalidValue(why) => why.text(lang),
            NotConverged(why) => why.text(lang),
        }
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for ModelError {}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(ModelError);

#[cfg(test)]
mod tests {
    use super::*;

    fn every_error() -> Vec<ModelError> {
        use ModelError as M;
        vec![
            M::LengthMismatch {
                column: "x".into(),
                expected: 3,
                found: 2,
            },
            M::DuplicateObservation {
                entity: "13101".into(),
                time: 2020,
                first: 1,
                second: 4,
            },
            M::NotEnoughData(NotEnoughData::NoResidualDf { n: 3, k: 3 }),
            M::NotEnoughData(NotEnoughData::NoFirstDifference),
            M::NotEnoughData(NotEnoughData::OutcomeAllZero {
                outcome: "y".into(),
            }),
            M::NotEnoughData(NotEnoughData::NoCompleteRow { excluded: 9 }),
            M::NotEnoughData(NotEnoughData::NoRowLeft { excluded: 9 }),
            M::NotEnoughData(NotEnoughData::ClusterNeedsTwoEntities),
            M::NotEnoughData(NotEnoughData::TooFewForCluster { n: 2, k: 3 }),
            M::NotEnoughData(NotEnoughData::RandomWithinDf { n: 4, g: 2, k: 2 }),
            M::NotEnoughData(NotEnoughData::RandomBetween { g: 2, k: 3 }),
            M::NoRegressors(NoRegressors::NoneGiven),
            M::NoRegressors(NoRegressors::AllDropped {
                model: "fe".into(),
                reasons: vec![],
            }),
            M::NoRegressors(NoRegressors::NoneVariesWithinEntities),
            M::Unsupported(Unsupported::Weights {
                model: "poisson-fe".into(),
                poisson: true,
            }),
            M::Unsupported(Unsupported::Absorbed { model: "re".into() }),
            M::InvalidValue(InvalidValue::NegativeCount {
                outcome: "y".into(),
                rows: "2, 5".into(),
            }),
            M::InvalidValue(InvalidValue::Level(1.5)),
            M::InvalidValue(InvalidValue::EntityId { id: 9, labels: 3 }),
            M::InvalidValue(InvalidValue::EmptyFixedEffect {
                spec: "a,,b".into(),
                term: "".into(),
            }),
            M::NotConverged(NotConverged::Absorb {
                effects: "a, b".into(),
                column: "y".into(),
            }),
            M::NotConverged(NotConverged::TwoWay { column: "x".into() }),
            M::NotConverged(NotConverged::TwoWayOutcome),
            M::NotConverged(NotConverged::SingularPoissonInformation),
            M::NotConverged(NotConverged::PoissonIterations { iterations: 50 }),
            M::NotConverged(NotConverged::SingularPoissonAtEstimate),
            M::Unsupported(Unsupported::ClusterColumn { model: "re".into() }),
            M::Unsupported(Unsupported::ClusterWays { given: 3 }),
        ]
    }

    #[test]
    fn english_is_what_imr_printed_when_the_errors_were_strings() {
        let texts: Vec<String> = every_error().iter().map(ToString::to_string).collect();
        assert_eq!(
            texts[2],
            "3 observations leave no residual degrees of freedom for 3 coefficients"
        );
        assert_eq!(
            texts[14],
            "weights are available for pooled, fe and twfe; `poisson-fe` is fitted unweighted in R plm and Stata, so fit it without weights (for rates give an exposure column, which enters as a log offset)"
        );
        assert_eq!(
            texts[24],
            "poisson-fe did not converge in 50 Newton iterations; the estimates may not exist (e.g. a regressor separates the zero counts)"
        );
    }

    #[test]
    fn a_model_left_without_regressors_is_named_in_words_with_what_would_estimate_them() {
        // A newcomer's file with "Pobreza (%)" constant over years read «fe» no tiene ningún
        // regresor …; use cre o re: estimator codes on the page.
        let error = ModelError::NoRegressors(NoRegressors::AllDropped {
            model: "fe".into(),
            reasons: vec![crate::drop_reason::DropReason::TimeInvariant {
                name: "Pobreza (%)".into(),
                differences: false,
            }],
        });
        let es = error.text(Lang::Es);
        assert!(
            es.starts_with("no puede estimar ninguna de las características elegidas: «Pobreza (%)» no cambia en el tiempo dentro de ninguna comuna"),
            "{es}"
        );
        assert!(
            es.ends_with(
                "los modelos de efectos aleatorios correlacionados o de efectos aleatorios"
            ),
            "{es}"
        );
        assert!(
            !es.contains("«fe»") && !es.contains(" cre") && !es.contains(" re "),
            "{es}"
        );
        // The JSON and `imr` keep the codes, word for word.
        assert!(error.to_string().ends_with(
            "use `cre` or `re` to estimate the effect of a time-invariant characteristic"
        ));
    }

    #[test]
    fn spanish_texts_have_no_english_words() {
        const ENGLISH: [&str; 16] = [
            "the",
            "is",
            "are",
            "not",
            "and",
            "has",
            "have",
            "no_",
            "rows",
            "row",
            "entities",
            "observations",
            "did",
            "converge",
            "give",
            "needs",
        ];
        for error in every_error() {
            let text = error.text(Lang::Es);
            assert_eq!(
                imr_lang::spanish_problems(&error),
                Vec::<String>::new(),
                "{text}"
            );
            assert_ne!(text, error.to_string());
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                assert!(!ENGLISH.contains(&word), "{word:?} in {text:?}");
            }
        }
    }
}
