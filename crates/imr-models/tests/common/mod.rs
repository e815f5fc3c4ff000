//! Loading small CSV fixtures into [`PanelData`] for the tests (plain comma-separated, no quotes;
//! an empty field or `NA` is missing).
#![allow(dead_code)]

use imr_models::{Column, Estimator, Fit, FixedEffect, PanelData, PanelSpec, VcovKind};
use std::collections::HashMap;

pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

pub fn read_table(path: &str) -> Table {
    let full = format!("{}/tests/{}", env!("CARGO_MANIFEST_DIR"), path);
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines
        .next()
        .unwrap()
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
        .collect();
    Table { header, rows }
}

impl Table {
    pub fn index(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    /// The column `name` as a fixed effect (or cluster) keyed by its text; an empty cell has no
    /// level.
    #[allow(dead_code)] // not every test file absorbs effects
    pub fn fixed_effect(&self, name: &str) -> FixedEffect {
        FixedEffect::from_keys(
            name,
            self.strings(name)
                .into_iter()
                .map(|s| (!s.is_empty()).then_some(s)),
        )
    }

    pub fn strings(&self, name: &str) -> Vec<String> {
        let i = self.index(name);
        self.rows.iter().map(|r| r[i].clone()).collect()
    }

    pub fn numbers(&self, name: &str) -> Vec<Option<f64>> {
        let i = self.index(name);
        self.rows
            .iter()
            .map(|r| match r[i].as_str() {
                "" | "NA" | "nan" | "NaN" => None,
                s => Some(s.parse::<f64>().unwrap_or_else(|_| panic!("{name}: {s}"))),
            })
            .collect()
    }

    /// A panel with y and x columns; time parsed as an integer; rows labelled by file line
    /// (header is line 1).
    pub fn panel(&self, entity: &str, time: &str, y: &str, x: &[&str]) -> PanelData {
        let times = self
            .strings(time)
            .iter()
            .map(|t| t.parse::<f64>().unwrap() as i64)
            .collect();
        let mut data = PanelData::new(self.strings(entity), times, Column::new(y, self.numbers(y)))
            .with_row_labels((2..self.rows.len() + 2).collect());
        for name in x {
            data = data.regressor(Column::new(*name, self.numbers(name)));
        }
        data
    }
}

/// `estimator` with `vcov` standard errors fitted on `data`; the fit must succeed.
pub fn fit(data: &PanelData, estimator: Estimator, vcov: VcovKind) -> Fit {
    PanelSpec::new(estimator).with_vcov(vcov).fit(data).unwrap()
}

/// The report tests' three Grunfeld fits: fe clustered by entity, re classical, pooled HC1 —
/// the three kinds of standard errors, a column without an intercept beside two with one.
pub fn grunfeld_fits() -> Vec<Fit> {
    let data = grunfeld();
    vec![
        fit(&data, Estimator::Fe, VcovKind::Cluster),
        fit(&data, Estimator::Re, VcovKind::Iid),
        fit(&data, Estimator::Pooled, VcovKind::Hc1),
    ]
}

pub fn grunfeld() -> PanelData {
    read_table("data/grunfeld.csv").panel("firm", "year", "invest", &["value", "capital"])
}

/// Relative difference, with an absolute floor for values near zero.
pub fn close(actual: f64, expected: f64, rel: f64) -> bool {
    (actual - expected).abs() <= rel * expected.abs().max(1e-300)
        || (actual - expected).abs() < 1e-14
}

pub fn assert_close(what: &str, actual: f64, expected: f64, rel: f64) {
    assert!(
        close(actual, expected, rel),
        "{what}: got {actual:.12e}, expected {expected:.12e} (relative tolerance {rel:e})"
    );
}

/// Golden values: `key → number` from a `key,value` CSV written by make_goldens.py.
pub fn goldens(path: &str) -> HashMap<String, f64> {
    let t = read_table(path);
    t.rows
        .iter()
        .map(|r| (r[0].clone(), r[1].parse::<f64>().unwrap_or(f64::NAN)))
        .collect()
}

/// Relative difference with an absolute floor of 1e-12, the rule of the golden files.
pub fn near(actual: f64, expected: f64, rel: f64) -> bool {
    (actual - expected).abs() <= rel * expected.abs() + 1e-12
}

/// Tolerances of a golden file's coefficients (`coef.<term>`) and standard errors
/// (`se.<term>`), relative.
pub struct Tolerances {
    pub coef: f64,
    pub se: f64,
}

/// Compares every value of the golden file at `path` with `fit`: `coef.<term>` and `se.<term>`
/// by `tolerances`; any other key through `other`, which gives the fit's value and its
/// tolerance, `None` for a key checked elsewhere, and panics on a key it does not know. Every
/// failure is listed at once; returns the number of values compared.
pub fn check_goldens(
    fit: &Fit,
    path: &str,
    tolerances: &Tolerances,
    other: impl Fn(&str) -> Option<(Option<f64>, f64)>,
) -> usize {
    let values = goldens(path);
    let mut failures = Vec::new();
    let mut compared = 0;
    for (key, &expected) in &values {
        let (actual, tol) = if let Some(term) = key.strip_prefix("coef.") {
            (fit.coefficient(term).map(|c| c.estimate), tolerances.coef)
        } else if let Some(term) = key.strip_prefix("se.") {
            (fit.coefficient(term).map(|c| c.std_error), tolerances.se)
        } else {
            match other(key) {
                Some(value) => value,
                None => continue,
            }
        };
        compared += 1;
        match actual {
            Some(a) if near(a, expected, tol) => {}
            _ => failures.push(format!("{key}: got {actual:?}, expected {expected:e}")),
        }
    }
    assert!(failures.is_empty(), "{path}:\n  {}", failures.join("\n  "));
    compared
}
