//! The rule that calls a year a copy of the one before (its values equal the previous year's in
//! nearly every area), shared by the panel's repeated years ([`crate::repeats`], which documents
//! the rule and its thresholds) and the publication-lag test ([`crate::lag`], which leaves copied
//! rate years out of its count). Apart from both so that neither depends on the other's inputs
//! (the panel, the ingest report).

use serde::Serialize;

/// The thresholds of the repeated-year rule (see [`crate::repeats`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RepeatRule {
    /// Least share of the compared areas with equal values.
    pub min_share: f64,
    /// Least number of areas compared.
    pub min_areas: usize,
    /// Least number of equal areas with a non-zero outcome.
    pub min_nonzero_equal: usize,
}

impl RepeatRule {
    /// 95% of at least 10 areas, 10 of them non-zero.
    pub const DEFAULT: RepeatRule = RepeatRule {
        min_share: 0.95,
        min_areas: 10,
        min_nonzero_equal: 10,
    };

    /// Whether a year is a repeat of the one before when `compared` areas have the outcome in
    /// both, `equal` of them the same value, `nonzero_equal` of those not zero.
    pub fn holds(&self, compared: usize, equal: usize, nonzero_equal: usize) -> bool {
        compared >= self.min_areas
            && nonzero_equal >= self.min_nonzero_equal
            && equal as f64 >= self.min_share * compared as f64
    }
}

/// Whether two outcome values are the same figure: |a − b| ≤ 1e-9 · max(|a|, |b|, 1). Rates
/// recomputed from derived deaths (`rate · births / 1000`, then `1000 · deaths / births`) differ
/// from the published figure by a few units in the last place, never by 1e-9 of it.
pub fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}
