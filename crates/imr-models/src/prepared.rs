//! The panel prepared for an estimator ([`Prepared`]): the rows a model can use, each other row
//! listed with its reason, sorted by entity label and time, with integer entity and period
//! indices; and the re-indexing when rows or entities are left out later.

use crate::data::{check_len, Column, ExcludedRow, PanelData};
use crate::error::ModelError;
use crate::exclusion::{ExclusionReason, ValueProblem};
use std::collections::HashMap;

/// What the model needs from the data besides y and x.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Needs {
    pub weights: bool,
    pub exposure: bool,
}

/// The panel after excluding unusable rows, sorted by entity label and time, with integer
/// entity and period indices. Regressors are stored column by column.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    pub y_name: String,
    pub x_names: Vec<String>,
    pub y: Vec<f64>,
    pub x: Vec<Vec<f64>>,
    pub weights: Option<Vec<f64>>,
    /// `ln(exposure)`.
    pub offset: Option<Vec<f64>>,
    pub entity: Vec<usize>,
    pub period: Vec<usize>,
    pub row_label: Vec<usize>,
    pub entity_labels: Vec<String>,
    pub times: Vec<i64>,
    pub excluded: Vec<ExcludedRow>,
}

impl Prepared {
    /// The intercept's name, then the names of the regressors `columns`.
    pub fn names_with_intercept(&self, columns: &[usize]) -> Vec<String> {
        std::iter::once(crate::spec::INTERCEPT.to_string())
            .chain(columns.iter().map(|&j| self.x_names[j].clone()))
            .collect()
    }

    pub fn n(&self) -> usize {
        self.y.len()
    }

    pub fn n_entities(&self) -> usize {
        self.entity_labels.len()
    }

    pub fn n_periods(&self) -> usize {
        self.times.len()
    }

    /// Number of observations of each entity.
    pub fn entity_counts(&self) -> Vec<usize> {
        let mut counts = vec![0usize; self.n_entities()];
        for &g in &self.entity {
            counts[g] += 1;
        }
        counts
    }

    /// Leaves out every row of the entities given a reason (`reasons[e]`), each row listed
    /// with it in `excluded`, and re-indexes entities and periods.
    pub fn drop_entities(&mut self, reasons: &[Option<ExclusionReason>]) {
        let keep: Vec<bool> = self.entity.iter().map(|&e| reasons[e].is_none()).collect();
        if keep.iter().all(|&k| k) {
            return;
        }
        for (&e, &row) in self.entity.iter().zip(&self.row_label) {
            if let Some(reason) = &reasons[e] {
                self.excluded.push(ExcludedRow {
                    row,
                    reason: reason.clone(),
                });
            }
        }
        self.retain_rows(&keep);
    }

    /// Keeps only the rows where `keep` is true and re-indexes entities and periods.
    pub fn retain_rows(&mut self, keep: &[bool]) {
        fn filter<T: Copy>(values: &[T], keep: &[bool]) -> Vec<T> {
            values
                .iter()
                .zip(keep)
                .filter_map(|(v, &k)| k.then_some(*v))
                .collect()
        }
        self.y = filter(&self.y, keep);
        for column in &mut self.x {
            *column = filter(column, keep);
        }
        self.weights = self.weights.as_ref().map(|w| filter(w, keep));
        self.offset = self.offset.as_ref().map(|o| filter(o, keep));
        self.row_label = filter(&self.row_label, keep);
        let entity = filter(&self.entity, keep);
        let period = filter(&self.period, keep);
        let (entity, labels) = reindex(&entity, &self.entity_labels);
        let (period, times) = reindex(&period, &self.times);
        self.entity = entity;
        self.entity_labels = labels;
        self.period = period;
        self.times = times;
    }
}

/// Renumbers sorted indices 0.. over the values still present, keeping their order.
fn reindex<T: Clone>(index: &[usize], labels: &[T]) -> (Vec<usize>, Vec<T>) {
    let mut present = vec![false; labels.len()];
    for &i in index {
        present[i] = true;
    }
    let mut new_index = vec![usize::MAX; labels.len()];
    let mut new_labels = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        if present[i] {
            new_index[i] = new_labels.len();
            new_labels.push(label.clone());
        }
    }
    (index.iter().map(|&i| new_index[i]).collect(), new_labels)
}

/// Excludes rows with missing or unusable values (each listed with its reason), sorts by
/// entity label and time, indexes entities and periods and rejects duplicated entity–periods.
pub(crate) fn prepare(data: &PanelData, needs: Needs) -> Result<Prepared, ModelError> {
    let n_rows = data.n_rows();
    check_len("time", data.time.len(), n_rows)?;
    check_len(&data.y.name, data.y.values.len(), n_rows)?;
    for column in &data.x {
        check_len(&column.name, column.values.len(), n_rows)?;
    }
    if !data.row_labels.is_empty() {
        check_len("row labels", data.row_labels.len(), n_rows)?;
    }
    let weights = if needs.weights {
        data.weights.as_ref()
    } else {
        None
    };
    let exposure = if needs.exposure {
        data.exposure.as_ref()
    } else {
        None
    };
    if let Some(w) = weights {
        check_len(&w.name, w.values.len(), n_rows)?;
    }
    if let Some(e) = exposure {
        check_len(&e.name, e.values.len(), n_rows)?;
    }

    let mut excluded = Vec::new();
    let mut used = Vec::with_capacity(n_rows);
    for row in 0..n_rows {
        let columns = std::iter::once(&data.y)
            .chain(&data.x)
            .chain(weights)
            .chain(exposure);
        let missing: Vec<&str> = columns
            .filter(|c| !c.values[row].is_finite())
            .map(|c| c.name.as_str())
            .collect();
        let problem = if !missing.is_empty() {
            Some(ValueProblem::MissingValue {
                columns: missing.iter().map(|m| m.to_string()).collect(),
            })
        } else if let Some(w) = weights.filter(|w| w.values[row] <= 0.0) {
            Some(ValueProblem::NonPositiveWeight {
                column: w.name.clone(),
                value: w.values[row],
            })
        } else {
            exposure.filter(|e| e.values[row] <= 0.0).map(|e| {
                ValueProblem::ExposureWithoutLogarithm {
                    column: e.name.clone(),
                    value: e.values[row],
                }
            })
        };
        match problem {
            Some(problem) => excluded.push(ExcludedRow {
                row: data.row_label(row),
                reason: ExclusionReason::Values(vec![problem]),
            }),
            None => used.push(row),
        }
    }

    // Sort by entity label (ids are ranks of the labels), then time: results do not depend on
    // the input order.
    let ids = data.entity.ids();
    used.sort_by_key(|&r| (ids[r], data.time[r]));
    let mut entity_labels: Vec<String> = Vec::new();
    let mut entity = Vec::with_capacity(used.len());
    let mut last_id = None;
    for &row in &used {
        if last_id != Some(ids[row]) {
            last_id = Some(ids[row]);
            entity_labels.push(data.entity.label(row).to_owned());
        }
        entity.push(entity_labels.len() - 1);
    }
    for pair in used.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if ids[a] == ids[b] && data.time[a] == data.time[b] {
            let (first, second) = {
                let (la, lb) = (data.row_label(a), data.row_label(b));
                (la.min(lb), la.max(lb))
            };
            return Err(ModelError::DuplicateObservation {
                entity: data.entity.label(a).to_owned(),
                time: data.time[a],
                first,
                second,
            });
        }
    }
    let mut times: Vec<i64> = used.iter().map(|&r| data.time[r]).collect();
    times.sort_unstable();
    times.dedup();
    let time_index: HashMap<i64, usize> = times.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    let value = |column: &Column, row: usize| column.values[row];

    Ok(Prepared {
        y_name: data.y.name.clone(),
        x_names: data.x.iter().map(|c| c.name.clone()).collect(),
        y: used.iter().map(|&r| value(&data.y, r)).collect(),
        x: data
            .x
            .iter()
            .map(|c| used.iter().map(|&r| value(c, r)).collect())
            .collect(),
        weights: weights.map(|w| used.iter().map(|&r| value(w, r)).collect()),
        offset: exposure.map(|e| used.iter().map(|&r| value(e, r).ln()).collect()),
        period: used.iter().map(|&r| time_index[&data.time[r]]).collect(),
        row_label: used.iter().map(|&r| data.row_label(r)).collect(),
        entity,
        entity_labels,
        times,
        excluded,
    })
}
