//! The one error type of the inequality engine.

/// Why an inequality analysis cannot be computed. Each variant names the area and year it is
/// about, so the message can be shown as it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InequalityError {
    /// No observation at all was given.
    #[error("no observations: nothing to measure")]
    Empty,
    /// The same area appears twice in one year.
    #[error("area `{entity}` appears more than once in {time}")]
    DuplicateArea { entity: String, time: i64 },
    /// A number that must be finite and non-negative is not (deaths, births, a value or a weight).
    #[error("area `{entity}`, {time}, `{field}`: expected a finite number ≥ 0, found {found}")]
    InvalidNumber {
        entity: String,
        time: i64,
        field: &'static str,
        found: f64,
    },
    /// A rank value is not finite.
    #[error("area `{entity}`, {time}, rank: expected a finite number, found {found}")]
    InvalidRank {
        entity: String,
        time: i64,
        found: f64,
    },
    /// Some areas of a year carry a group (or a rank) and others do not: the decomposition (or
    /// the rank-based measures) would silently drop areas.
    #[error("area `{entity}`, {time}: {what} is missing while other areas of that year have one")]
    Incomplete {
        entity: String,
        time: i64,
        what: &'static str,
    },
    /// Settings that cannot work (a confidence level outside (0, 1), a scaling constant ≤ 0).
    #[error("invalid setting: {0}")]
    InvalidSetting(String),
}
