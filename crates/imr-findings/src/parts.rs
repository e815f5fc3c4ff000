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
}

pub(crate) fn cell(v: Option<f64>) -> String {
    // An open upper limit (+∞) is an empty cell, like a missing one.
    v.filter(|x| x.is_finite())
        .map(|x| format!("{}", (x * 1e6).round() / 1e6))
        .unwrap_or_default()
}
