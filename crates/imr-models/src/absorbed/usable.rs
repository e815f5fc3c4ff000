//! Which rows can enter an absorbed fit: every column the fit reads has one value per row, and a
//! row with a missing value, level or cluster, a non-positive weight or exposure, or (Poisson) a
//! negative count is left out with its reasons.

use super::FixedEffect;
use crate::data::{check_len, ExcludedRow, PanelData};
use crate::exclusion::{ExclusionReason, ValueProblem};
use crate::ModelError;

/// Why `row` cannot enter an absorbed fit: every missing value, missing level or cluster,
/// non-positive weight or exposure, and (Poisson) negative count, joined by "; ".
fn exclusion_reason(
    data: &PanelData,
    exposure: Option<&crate::data::Column>,
    poisson: bool,
    row: usize,
) -> ExclusionReason {
    let finite = |v: &f64| v.is_finite();
    let positive = |v: &f64| *v > 0.0;
    let missing: Vec<String> = std::iter::once(&data.y)
        .chain(&data.x)
        .chain(&data.weights)
        .chain(exposure)
        .filter(|c| !finite(&c.values[row]))
        .map(|c| c.name.clone())
        .collect();
    let without_level = |effects: &[FixedEffect]| -> Vec<String> {
        effects
            .iter()
            .filter(|f| f.codes[row].is_none())
            .map(|f| f.name.clone())
            .collect()
    };
    let no_level = without_level(&data.fixed_effects);
    let no_cluster = without_level(&data.cluster);
    let mut problems = Vec::new();
    if !missing.is_empty() {
        problems.push(ValueProblem::MissingValue { columns: missing });
    }
    if !no_level.is_empty() {
        problems.push(ValueProblem::MissingFixedEffect { effects: no_level });
    }
    if !no_cluster.is_empty() {
        problems.push(ValueProblem::MissingCluster {
            clusters: no_cluster,
        });
    }
    if let Some(w) = data.weights.as_ref().filter(|w| {
        let v = &w.values[row];
        finite(v) && !positive(v)
    }) {
        problems.push(ValueProblem::NonPositiveWeight {
            column: w.name.clone(),
            value: w.values[row],
        });
    }
    if poisson && data.y.values[row] < 0.0 {
        problems.push(ValueProblem::NegativeCount {
            column: data.y.name.clone(),
            value: data.y.values[row],
        });
    }
    if let Some(e) = exposure.filter(|e| {
        let v = &e.values[row];
        finite(v) && !positive(v)
    }) {
        problems.push(ValueProblem::NonPositiveExposure {
            column: e.name.clone(),
            value: e.values[row],
        });
    }
    ExclusionReason::Values(problems)
}

/// Every column of `data` the fit reads has one value per row.
pub(super) fn check_lengths(
    data: &PanelData,
    exposure: Option<&crate::data::Column>,
) -> Result<(), ModelError> {
    let n_rows = data.n_rows();
    check_len("time", data.time.len(), n_rows)?;
    check_len(&data.y.name, data.y.values.len(), n_rows)?;
    for column in &data.x {
        check_len(&column.name, column.values.len(), n_rows)?;
    }
    for fe in data.fixed_effects.iter().chain(&data.cluster) {
        check_len(&fe.name, fe.codes.len(), n_rows)?;
    }
    if let Some(w) = &data.weights {
        check_len(&w.name, w.values.len(), n_rows)?;
    }
    if let Some(e) = exposure {
        check_len(&e.name, e.values.len(), n_rows)?;
    }
    if !data.row_labels.is_empty() {
        check_len("row labels", data.row_labels.len(), n_rows)?;
    }
    Ok(())
}

/// The rows with every value and level present (and weight or exposure positive, count not
/// negative), and the others with their reasons.
pub(super) fn usable_rows(
    data: &PanelData,
    exposure: Option<&crate::data::Column>,
    poisson: bool,
) -> (Vec<u32>, Vec<ExcludedRow>) {
    let n_rows = data.n_rows();
    // Usable rows, column by column (sequential passes), then the reasons for the others.
    let finite = |v: &f64| v.is_finite();
    let mut usable = vec![true; n_rows];
    for column in std::iter::once(&data.y)
        .chain(&data.x)
        .chain(&data.weights)
        .chain(exposure)
    {
        for (u, v) in usable.iter_mut().zip(&column.values) {
            *u &= finite(v);
        }
    }
    if poisson {
        // a count cannot be negative
        for (u, v) in usable.iter_mut().zip(&data.y.values) {
            *u &= *v >= 0.0;
        }
    }
    let positive = |v: &f64| *v > 0.0;
    for column in data.weights.iter().chain(exposure) {
        for (u, v) in usable.iter_mut().zip(&column.values) {
            *u &= positive(v);
        }
    }
    for fe in data.fixed_effects.iter().chain(&data.cluster) {
        for (u, c) in usable.iter_mut().zip(&fe.codes) {
            *u &= c.is_some();
        }
    }
    let mut excluded = Vec::new();
    let mut rows: Vec<u32> = Vec::with_capacity(n_rows);
    for (row, &ok) in usable.iter().enumerate() {
        if ok {
            rows.push(row as u32);
            continue;
        }
        excluded.push(ExcludedRow {
            row: data.row_label(row),
            reason: exclusion_reason(data, exposure, poisson, row),
        });
    }
    (rows, excluded)
}
