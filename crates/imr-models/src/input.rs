//! From a caller's table to the engine's [`PanelData`]: the one adapter shared by the command
//! line (`imr fit`) and the page's Models view, so that both fit exactly the same data.
//!
//! The caller keeps its own table type; it hands over the entity and time of each row, a label
//! per row (the line in the file) and a way to look a numeric column up by name. [`ModelColumns`]
//! says which columns play which part.

use crate::data::{Column, PanelData};

/// The part a column plays in a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ColumnRole {
    /// The outcome (`--y`).
    Outcome,
    /// A regressor (`--x`).
    Regressor,
    /// Analytic weights of the linear models (`--weights`).
    Weights,
    /// Exposure of `poisson-fe`, entering as `log(exposure)` offset (`--exposure`).
    Exposure,
}

impl ColumnRole {
    /// The role in words ("outcome", "regressor", "weights", "exposure"); the command line
    /// names the flag instead.
    pub fn word(self) -> &'static str {
        match self {
            ColumnRole::Outcome => "outcome",
            ColumnRole::Regressor => "regressor",
            ColumnRole::Weights => "weights",
            ColumnRole::Exposure => "exposure",
        }
    }
}

/// A column a model asked for that the table does not have (or that is not numeric).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {name}: no numeric column `{name}` in the input", role.word())]
pub struct MissingColumn {
    /// The part the column was meant to play.
    pub role: ColumnRole,
    /// The name that was asked for.
    pub name: String,
}

/// Which columns a model uses: outcome, regressors (in table order), optional weights and
/// exposure. Names are looked up in the caller's table.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ModelColumns {
    /// Outcome column.
    pub y: String,
    /// Regressor columns, in the order of the coefficient table.
    pub x: Vec<String>,
    /// Weights column for the linear models.
    pub weights: Option<String>,
    /// Exposure column for `poisson-fe`.
    pub exposure: Option<String>,
}

impl ModelColumns {
    /// An outcome and its regressors, without weights or exposure.
    pub fn new(y: impl Into<String>, x: Vec<String>) -> Self {
        ModelColumns {
            y: y.into(),
            x,
            weights: None,
            exposure: None,
        }
    }

    /// The engine's data for these columns. `entity`, `time` and `row_labels` have one element
    /// per row of the caller's table (`row_labels` may be empty: rows are then numbered 1, 2, …);
    /// `column(name)` returns one value per row, NaN for a missing value, or `None` when the
    /// table has no numeric column of that name.
    ///
    /// ```
    /// use imr_models::{ModelColumns, ColumnRole};
    /// let columns = ModelColumns::new("y", vec!["x".into(), "z".into()]);
    /// let lookup = |name: &str| match name {
    ///     "y" => Some(vec![1.0, 2.0]),
    ///     "x" => Some(vec![0.5, f64::NAN]),
    ///     _ => None,
    /// };
    /// let missing = columns
    ///     .panel_data(vec!["a".into(), "a".into()], vec![1, 2], vec![2, 3], lookup)
    ///     .unwrap_err();
    /// assert_eq!((missing.role, missing.name.as_str()), (ColumnRole::Regressor, "z"));
    /// ```
    pub fn panel_data<F>(
        &self,
        entity: impl Into<crate::Entities>,
        time: Vec<i64>,
        row_labels: Vec<usize>,
        mut column: F,
    ) -> Result<crate::PanelData, MissingColumn>
    where
        F: FnMut(&str) -> Option<Vec<f64>>,
    {
        let mut lookup = |name: &str, role: ColumnRole| {
            column(name)
                .map(|values| Column::from_values(name, values))
                .ok_or_else(|| MissingColumn {
                    role,
                    name: name.to_string(),
                })
        };
        let mut data = PanelData::new(entity, time, lookup(&self.y, ColumnRole::Outcome)?)
            .with_row_labels(row_labels);
        for x in &self.x {
            data = data.regressor(lookup(x, ColumnRole::Regressor)?);
        }
        if let Some(w) = &self.weights {
            data = data.with_weights(lookup(w, ColumnRole::Weights)?);
        }
        if let Some(e) = &self.exposure {
            data = data.with_exposure(lookup(e, ColumnRole::Exposure)?);
        }
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<Vec<f64>> {
        match name {
            "y" => Some(vec![1.0, 2.0, 4.0]),
            "x" => Some(vec![0.5, f64::NAN, 1.5]),
            "births" => Some(vec![100.0, 120.0, 90.0]),
            _ => None,
        }
    }

    #[test]
    fn every_role_is_read_by_name_in_order_with_the_row_labels() {
        let columns = ModelColumns {
            y: "y".into(),
            x: vec!["x".into(), "births".into()],
            weights: Some("births".into()),
            exposure: Some("births".into()),
        };
        let data = columns
            .panel_data(
                vec!["a".into(), "a".into(), "b".into()],
                vec![2019, 2020, 2019],
                vec![2, 3, 4],
                lookup,
            )
            .unwrap();
        assert_eq!(data.y, Column::complete("y", &[1.0, 2.0, 4.0]));
        let names: Vec<&str> = data.x.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["x", "births"]);
        assert_eq!(data.x[0].get(1), None);
        assert_eq!(data.x[0].get(2), Some(1.5));
        assert_eq!(data.weights.unwrap().name, "births");
        assert_eq!(data.exposure.unwrap().name, "births");
        assert_eq!(data.row_labels, [2, 3, 4]);
        assert_eq!(data.time, [2019, 2020, 2019]);
    }

    #[test]
    fn a_missing_column_names_its_role_and_flag() {
        let mut columns = ModelColumns::new("y", vec!["x".into()]);
        columns.weights = Some("peso".into());
        let err = columns
            .panel_data(vec!["a".into(); 3], vec![1, 2, 3], vec![], lookup)
            .unwrap_err();
        assert_eq!(err.role, ColumnRole::Weights);
        assert_eq!(
            err.to_string(),
            "weights peso: no numeric column `peso` in the input"
        );
    }
}
