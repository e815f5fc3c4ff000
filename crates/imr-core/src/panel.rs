//! The validated long panel: one row per entity and time, with counts and covariates.

use crate::ingest::IngestReport;
use serde::Serialize;
use std::sync::Arc;

/// One entity-time observation that passed validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PanelRow {
    /// Entity code (a 5-character CUT code for Chilean communes).
    pub entity: String,
    /// Year.
    pub time: i64,
    /// Live births; `None` when the data have no births column.
    pub births: Option<f64>,
    /// Infant deaths, counted or derived (see [`Panel::deaths_derived`]).
    pub deaths: Option<f64>,
    /// Numeric covariates, in the order of [`Panel::numeric_names`]; `None` is missing.
    pub numeric: Vec<Option<f64>>,
    /// Text attributes (names, regions), in the order of [`Panel::text_names`].
    pub text: Vec<Option<String>>,
    /// File and 1-based line the row came from.
    pub file: Arc<str>,
    pub line: u64,
}

impl PanelRow {
    /// Infant mortality rate per 1,000 live births, `1000 · deaths / births`; `None` without
    /// births or deaths, or with zero births.
    pub fn rate_per_1000(&self) -> Option<f64> {
        match (self.deaths, self.births) {
            (Some(d), Some(b)) if b > 0.0 => Some(1000.0 * d / b),
            _ => None,
        }
    }
}

/// Validated data, sorted by entity then time, with the report of what was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Panel {
    pub rows: Vec<PanelRow>,
    pub entity_column: String,
    pub time_column: String,
    pub numeric_names: Vec<String>,
    pub text_names: Vec<String>,
    pub has_births: bool,
    pub has_deaths: bool,
    /// True when deaths were derived from a published rate (`rate · births / 1000`): they are not
    /// counts, and exact Poisson intervals computed from them are approximate.
    pub deaths_derived: bool,
    /// True when entities were recognised as Chilean CUT codes (validated and normalised).
    pub chile_codes: bool,
    pub report: IngestReport,
}

/// Built-in column names always available through [`Panel::numeric_column`].
pub const BUILTIN_COLUMNS: [&str; 3] = ["births", "deaths", "rate"];

impl Panel {
    /// The rows as the inequality engine reads them (file, line, entity, time, births, deaths),
    /// borrowed: the one adaptation of the panel for `imr_inequality::panel_input`, used by
    /// `imr inequality`, the Inequality view and the Findings.
    pub fn inequality_rows(&self) -> Vec<imr_inequality::panel_input::PanelRowRef<'_>> {
        self.rows
            .iter()
            .map(|r| imr_inequality::panel_input::PanelRowRef {
                file: &r.file,
                line: r.line,
                entity: &r.entity,
                time: r.time,
                births: r.births,
                deaths: r.deaths,
            })
            .collect()
    }

    /// The panel as the models engine reads it: the `columns` of [`imr_models::ModelColumns`]
    /// with the entity, time and input line of every row (the line labels excluded rows). The one
    /// adaptation of the panel for a fit, used by `imr fit`, the Models view and the Findings.
    pub fn model_data(
        &self,
        columns: &imr_models::ModelColumns,
    ) -> Result<imr_models::PanelData, imr_models::MissingColumn> {
        columns.panel_data(
            self.rows.iter().map(|r| r.entity.clone()).collect(),
            self.rows.iter().map(|r| r.time).collect(),
            self.rows.iter().map(|r| r.line as usize).collect(),
            |name| self.numeric_column(name),
        )
    }

    fn find(names: &[String], name: &str) -> Option<usize> {
        names.iter().position(|n| n == name).or_else(|| {
            let wanted = crate::ingest::columns::normalise_name(name);
            names
                .iter()
                .position(|n| crate::ingest::columns::normalise_name(n) == wanted)
        })
    }

    /// One value per row of a numeric column: `births`, `deaths`, `rate` (per 1,000), the time
    /// column, or any covariate by name (exact, or after normalising accents and case).
    pub fn numeric_column(&self, name: &str) -> Option<Vec<Option<f64>>> {
        match name {
            "births" => return Some(self.rows.iter().map(|r| r.births).collect()),
            "deaths" => return Some(self.rows.iter().map(|r| r.deaths).collect()),
            "rate" => return Some(self.rows.iter().map(PanelRow::rate_per_1000).collect()),
            _ => {}
        }
        if let Some(i) = Self::find(&self.numeric_names, name) {
            return Some(self.rows.iter().map(|r| r.numeric[i]).collect());
        }
        if name == self.time_column || name == "time" {
            return Some(self.rows.iter().map(|r| Some(r.time as f64)).collect());
        }
        None
    }

    /// One key per row of any column as text (for grouping): a text column, a numeric column
    /// written without trailing zeros, the entity or the time.
    pub fn key_column(&self, name: &str) -> Option<Vec<Option<String>>> {
        if let Some(i) = Self::find(&self.text_names, name) {
            return Some(self.rows.iter().map(|r| r.text[i].clone()).collect());
        }
        if name == self.entity_column || name == "entity" {
            return Some(self.rows.iter().map(|r| Some(r.entity.clone())).collect());
        }
        self.numeric_column(name)
            .map(|col| col.into_iter().map(|v| v.map(|x| format!("{x}"))).collect())
    }

    /// Distinct times, ascending.
    pub fn times(&self) -> Vec<i64> {
        let mut t: Vec<i64> = self.rows.iter().map(|r| r.time).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Distinct entities, ascending.
    pub fn entities(&self) -> Vec<&str> {
        let mut e: Vec<&str> = self.rows.iter().map(|r| r.entity.as_str()).collect();
        e.sort_unstable();
        e.dedup();
        e
    }

    /// Every column name a user can pick as a numeric variable.
    pub fn numeric_variables(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.has_births && self.has_deaths {
            v.push("rate".to_owned());
        }
        if self.has_births {
            v.push("births".to_owned());
        }
        if self.has_deaths {
            v.push("deaths".to_owned());
        }
        v.extend(self.numeric_names.iter().cloned());
        v
    }
}
