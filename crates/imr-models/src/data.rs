//! The input of the engine as plain data (its preparation into an indexed panel:
//! [`crate::prepared`]).
//!
//! The app and the command line adapt their validated panel into [`PanelData`]: the entity of
//! each row (an id into sorted labels, [`Entities`]), integer times, the outcome and the
//! regressors as named columns of `f64` (NaN is a missing value), optional weights and exposure,
//! and a label per row (a line number) that is used to list the rows the model could not use.
//! Eight bytes a value and four an entity (the model's copy of a million-row panel was
//! 16 bytes a value and a string a row).

use crate::error::InvalidValue;
use crate::error::ModelError;
use serde::Serialize;

/// A named column of numbers; NaN (any value that is not finite) marks a missing value.
#[derive(Debug, Clone)]
pub struct Column {
    /// The column name, used as the coefficient term.
    pub name: String,
    /// One value per row, NaN missing.
    pub values: Vec<f64>,
}

impl Column {
    /// A column from a name and values, `None` missing.
    pub fn new(name: impl Into<String>, values: Vec<Option<f64>>) -> Self {
        Column::from_values(
            name,
            values.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
        )
    }

    /// A column of values with NaN missing (a panel's own columns, taken without conversion).
    pub fn from_values(name: impl Into<String>, values: Vec<f64>) -> Self {
        Column {
            name: name.into(),
            values,
        }
    }

    /// A column without missing values.
    pub fn complete(name: impl Into<String>, values: &[f64]) -> Self {
        Column::from_values(name, values.to_vec())
    }

    /// The value of `row`, `None` when missing or not finite (or past the last row).
    pub fn get(&self, row: usize) -> Option<f64> {
        self.values.get(row).copied().filter(|v| v.is_finite())
    }
}

/// Equal names and values, a missing value equal to a missing value.
impl PartialEq for Column {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.values.len() == other.values.len()
            && self
                .values
                .iter()
                .zip(&other.values)
                .all(|(a, b)| a == b || (a.is_nan() && b.is_nan()))
    }
}

/// The entity of each row as an id into distinct labels sorted ascending (a commune code, a
/// firm name): ids are ranks, so ordering ids orders labels.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entities {
    labels: Vec<String>,
    ids: Vec<u32>,
}

impl Entities {
    /// The entities of rows given by label.
    pub fn from_labels<S: AsRef<str>>(rows: &[S]) -> Self {
        let mut labels: Vec<&str> = rows.iter().map(AsRef::as_ref).collect();
        labels.sort_unstable();
        labels.dedup();
        let ids = rows
            .iter()
            .map(|r| labels.binary_search(&r.as_ref()).unwrap_or(0) as u32)
            .collect();
        Entities {
            labels: labels.into_iter().map(str::to_owned).collect(),
            ids,
        }
    }

    /// The entities of rows given as ids into `labels`. Labels that are not strictly ascending
    /// are sorted (and equal ones merged) and the ids renumbered; an id past the labels is an
    /// error.
    pub fn from_ids(labels: Vec<String>, mut ids: Vec<u32>) -> Result<Self, ModelError> {
        if let Some(bad) = ids.iter().find(|&&id| id as usize >= labels.len()) {
            return Err(ModelError::InvalidValue(InvalidValue::EntityId {
                id: *bad as usize,
                labels: labels.len(),
            }));
        }
        if labels.windows(2).all(|w| w[0] < w[1]) {
            return Ok(Entities { labels, ids });
        }
        let mut order: Vec<usize> = (0..labels.len()).collect();
        order.sort_by(|&a, &b| labels[a].cmp(&labels[b]));
        let mut rank = vec![0u32; labels.len()];
        let mut sorted: Vec<String> = Vec::with_capacity(labels.len());
        for &i in &order {
            if sorted.last() != Some(&labels[i]) {
                sorted.push(labels[i].clone());
            }
            rank[i] = (sorted.len() - 1) as u32;
        }
        ids.iter_mut().for_each(|id| *id = rank[*id as usize]);
        Ok(Entities {
            labels: sorted,
            ids,
        })
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The label of the entity of `row`. Panics past the last row (as slice indexing does).
    pub fn label(&self, row: usize) -> &str {
        &self.labels[self.ids[row] as usize]
    }

    /// The id of the entity of each row.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The distinct labels, ascending.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The label of each row, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.ids.iter().map(|&id| self.labels[id as usize].as_str())
    }
}

impl From<Vec<String>> for Entities {
    fn from(rows: Vec<String>) -> Self {
        Entities::from_labels(&rows)
    }
}

/// A long panel: one row per entity and period.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelData {
    /// Entity of each row (a commune code, a firm name).
    pub entity: Entities,
    /// Period of each row (a year).
    pub time: Vec<i64>,
    /// The outcome.
    pub y: Column,
    /// The regressors, in the order of the coefficient table.
    pub x: Vec<Column>,
    /// Optional analytic weights for the linear models (e.g. births).
    pub weights: Option<Column>,
    /// Optional exposure for `poisson-fe` (e.g. births); enters as `log(exposure)` offset.
    pub exposure: Option<Column>,
    /// The label of each row in the caller's terms (e.g. the line in the file). When empty,
    /// rows are labelled 1, 2, 3, … in input order.
    pub row_labels: Vec<usize>,
    /// Fixed effects to absorb (`imr fit --fe`); when given, the model is the within
    /// regression off all of them (see [`crate::FixedEffect`]), clustered by entity.
    pub fixed_effects: Vec<crate::FixedEffect>,
    /// The clusters of the standard errors of an absorbed fit (`imr fit --cluster`): one
    /// column (one-way), or two for two-way clustering (Cameron, Gelbach & Miller 2011); empty,
    /// the entity. A row missing its cluster is excluded.
    pub cluster: Vec<crate::FixedEffect>,
}

impl PanelData {
    /// A panel with an outcome and no regressors yet.
    pub fn new(entity: impl Into<Entities>, time: Vec<i64>, y: Column) -> Self {
        PanelData {
            entity: entity.into(),
            time,
            y,
            x: Vec::new(),
            weights: None,
            exposure: None,
            row_labels: Vec::new(),
            fixed_effects: Vec::new(),
            cluster: Vec::new(),
        }
    }

    /// Adds a fixed effect to absorb.
    pub fn absorb(mut self, fixed_effect: crate::FixedEffect) -> Self {
        self.fixed_effects.push(fixed_effect);
        self
    }

    /// Sets the clusters of the standard errors (one column, or two for two-way clustering).
    pub fn with_cluster(mut self, cluster: Vec<crate::FixedEffect>) -> Self {
        self.cluster = cluster;
        self
    }

    /// Adds a regressor.
    pub fn regressor(mut self, column: Column) -> Self {
        self.x.push(column);
        self
    }

    /// Sets the weights.
    pub fn with_weights(mut self, column: Column) -> Self {
        self.weights = Some(column);
        self
    }

    /// Sets the exposure.
    pub fn with_exposure(mut self, column: Column) -> Self {
        self.exposure = Some(column);
        self
    }

    /// Sets the row labels (e.g. line numbers).
    pub fn with_row_labels(mut self, labels: Vec<usize>) -> Self {
        self.row_labels = labels;
        self
    }

    /// Number of input rows.
    pub fn n_rows(&self) -> usize {
        self.entity.len()
    }

    /// Frees the rows, keeping the names of the columns and fixed effects: what a fit needs of
    /// its data once the rows are prepared ([`crate::PanelSpec::fit_owned`]).
    pub(crate) fn release_rows(&mut self) {
        self.entity = Entities::default();
        self.time = Vec::new();
        self.row_labels = Vec::new();
        for column in std::iter::once(&mut self.y)
            .chain(&mut self.x)
            .chain(&mut self.weights)
            .chain(&mut self.exposure)
        {
            column.values = Vec::new();
        }
        for fe in self.fixed_effects.iter_mut().chain(&mut self.cluster) {
            fe.codes = Vec::new();
        }
    }

    /// The label of `row` given by the caller (its line number), or its 1-based index.
    pub(crate) fn row_label(&self, row: usize) -> usize {
        if self.row_labels.is_empty() {
            row + 1
        } else {
            self.row_labels[row]
        }
    }
}

/// An input row the model did not use, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExcludedRow {
    /// The row label given by the caller (line number), or the 1-based row index.
    pub row: usize,
    /// Why, as a value worded per language ("missing value in `poverty`" in English, the JSON's
    /// text).
    pub reason: crate::ExclusionReason,
}

/// A column of `found` values where the panel has `expected` rows is a length mismatch.
pub(crate) fn check_len(name: &str, found: usize, expected: usize) -> Result<(), ModelError> {
    if found == expected {
        Ok(())
    } else {
        Err(ModelError::LengthMismatch {
            column: name.to_string(),
            expected,
            found,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_given_by_label_are_ranks_of_the_sorted_labels() {
        let e = Entities::from_labels(&["b", "a", "b", "c"]);
        assert_eq!(e.ids(), [1, 0, 1, 2]);
        assert_eq!(e.labels(), ["a", "b", "c"]);
        assert_eq!(e.iter().collect::<Vec<_>>(), ["b", "a", "b", "c"]);
        assert_eq!(e.label(3), "c");
    }

    #[test]
    fn entities_given_by_unsorted_ids_are_renumbered_and_bad_ids_refused() {
        // labels out of order, one repeated: ids become ranks of the distinct sorted labels
        let labels = vec!["z".to_string(), "a".into(), "m".into(), "a".into()];
        let e = Entities::from_ids(labels, vec![0, 1, 2, 3, 0]).unwrap();
        assert_eq!(e.labels(), ["a", "m", "z"]);
        assert_eq!(e.iter().collect::<Vec<_>>(), ["z", "a", "m", "a", "z"]);
        assert_eq!(e, Entities::from_labels(&["z", "a", "m", "a", "z"]));
        let err = Entities::from_ids(vec!["a".into()], vec![0, 1]).unwrap_err();
        assert!(err.to_string().contains("entity id 1"), "{err}");
    }

    #[test]
    fn a_missing_value_equals_a_missing_value_and_reads_as_none() {
        let a = Column::new("x", vec![Some(1.0), None]);
        assert_eq!(a, Column::from_values("x", vec![1.0, f64::NAN]));
        assert_ne!(a, Column::complete("x", &[1.0, 2.0]));
        assert_eq!((a.get(0), a.get(1), a.get(2)), (Some(1.0), None, None));
        assert_eq!(Column::complete("x", &[f64::INFINITY]).get(0), None);
    }
}
