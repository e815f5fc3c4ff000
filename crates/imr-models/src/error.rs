//! The one error type of the model engine.

/// Why a model could not be fitted. Each message is written for the person reading it:
/// it says what is wrong with the data or the request, and what to do instead.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The input columns do not have one value per row.
    #[error("column `{column}` has {found} values but the panel has {expected} rows")]
    LengthMismatch {
        column: String,
        expected: usize,
        found: usize,
    },
    /// Two rows describe the same entity in the same period.
    #[error("entity `{entity}` has two rows for time {time} (rows {first} and {second}); a panel needs at most one row per entity and period")]
    DuplicateObservation {
        entity: String,
        time: i64,
        first: usize,
        second: usize,
    },
    /// After excluding rows with missing values too little data remain.
    #[error("{0}")]
    NotEnoughData(String),
    /// No regressor is left to estimate (all were dropped, or none was given).
    #[error("{0}")]
    NoRegressors(String),
    /// The combination of options is not available.
    #[error("{0}")]
    Unsupported(String),
    /// A value is outside the domain of the model (e.g. a negative count for `poisson-fe`).
    #[error("{0}")]
    InvalidValue(String),
    /// The iterative fit did not converge.
    #[error("{0}")]
    NotConverged(String),
}
