//! What the renderer of one question produces ([`Parts`]), and the numbers behind its chart as
//! a machine-readable [`Table`].

use serde::Serialize;

/// What one question's renderer produces.
pub(crate) struct Parts {
    pub(crate) headline: String,
    pub(crate) details: Vec<String>,
    pub(crate) caveats: Vec<String>,
    /// How it was computed: the terms and methods behind the answer ([`crate::method`]).
    pub(crate) method: Vec<crate::method::Term>,
    pub(crate) chart: crate::chart::Chart,
    pub(crate) data: Table,
}

/// The numbers behind a chart, machine-readable (decimal point, no grouping).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The decimals the answer's sentences write every number with, when the answer fixes one
    /// precision for all (question 4): its embed's table writes the measurements with them, so
    /// the sentence and the table beside it agree ("0,38" in one, "0,381" in the other). Not in
    /// the JSON: the table's numbers are full precision.
    #[serde(skip)]
    pub decimals: Option<usize>,
}

pub(crate) fn cell(v: Option<f64>) -> String {
    // An open upper limit (+∞) is an empty cell, like a missing one.
    v.filter(|x| x.is_finite())
        .map(|x| format!("{}", (x * 1e6).round() / 1e6))
        .unwrap_or_default()
}
