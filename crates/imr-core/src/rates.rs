//! Infant mortality rates per 1,000 live births with exact Poisson intervals.
//!
//! # Formula
//! rate = 1000 · D / B, where D is infant deaths and B live births of an area and year.
//! The 95% interval is the Garwood exact Poisson interval of D (see
//! [`imr_stats::poisson_exact_interval`]) scaled by 1000 / B. The national rate of a year pools
//! areas: 1000 · ΣD / ΣB over areas with births.
//!
//! When deaths are derived from a published rate (D = rate · B / 1000, not an integer count),
//! the interval treats D as if it were a count and is therefore approximate; every result says so.

use crate::panel::Panel;
use imr_stats::poisson_exact_interval;
use serde::Serialize;

/// Confidence level of every interval in this module.
pub const CONFIDENCE_LEVEL: f64 = 0.95;

/// Births, deaths and the rate per 1,000 with its exact 95% interval, of one area and year or of
/// a year's areas pooled (see the module's formula).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RateEstimate {
    pub births: f64,
    pub deaths: f64,
    /// Deaths per 1,000 births; `None` when births are zero.
    pub rate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

impl RateEstimate {
    /// The rate of `deaths` in `births` with its interval ([`rate_with_interval`]).
    pub fn of(deaths: f64, births: f64) -> RateEstimate {
        let (rate, ci_low, ci_high) = rate_with_interval(deaths, births);
        RateEstimate {
            births,
            deaths,
            rate,
            ci_low,
            ci_high,
        }
    }
}

/// The rate of one area and year.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AreaRate {
    pub entity: String,
    pub time: i64,
    #[serde(flatten)]
    pub estimate: RateEstimate,
}

/// The pooled rate of all areas in one year.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NationalRate {
    pub time: i64,
    #[serde(flatten)]
    pub estimate: RateEstimate,
    pub n_areas: usize,
}

/// Rates of a panel: per area and year, and pooled per year.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateTable {
    pub rows: Vec<AreaRate>,
    pub national: Vec<NationalRate>,
    /// True when deaths were derived from rates, so the intervals are approximate.
    pub approximate_intervals: bool,
}

/// Errors of the rate computation.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RateError {
    #[error("rates need births and deaths (or a rate) columns; the data have {} missing — choose the column", missing.label())]
    MissingColumn { missing: crate::ingest::Role },
}

impl RateError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: crate::Lang) -> String {
        match (self, lang) {
            (_, crate::Lang::En) => self.to_string(),
            (RateError::MissingColumn { missing }, _) => format!(
                "las tasas necesitan columnas de nacimientos y defunciones (o tasa); a los datos les falta la columna de {} — elígala",
                crate::ingest::role_word(*missing, lang)
            ),
        }
    }
}

/// Rate per 1,000 with its exact 95% interval; `(None, None, None)` when births are zero.
pub fn rate_with_interval(deaths: f64, births: f64) -> (Option<f64>, Option<f64>, Option<f64>) {
    if births <= 0.0 {
        return (None, None, None);
    }
    let scale = 1000.0 / births;
    let ci = poisson_exact_interval(deaths, CONFIDENCE_LEVEL);
    (
        Some(deaths * scale),
        ci.map(|c| c.lower * scale),
        ci.map(|c| c.upper * scale),
    )
}

impl RateTable {
    /// Computes the rates of every row of `panel` and the pooled rate of every year.
    pub fn from_panel(panel: &Panel) -> Result<RateTable, RateError> {
        if !panel.has_births {
            return Err(RateError::MissingColumn {
                missing: crate::ingest::Role::Births,
            });
        }
        if !panel.has_deaths {
            return Err(RateError::MissingColumn {
                missing: crate::ingest::Role::Deaths,
            });
        }
        let mut rows = Vec::with_capacity(panel.len());
        let mut by_year: std::collections::BTreeMap<i64, (f64, f64, usize)> = Default::default();
        for r in panel.rows() {
            let (Some(births), Some(deaths)) = (r.births, r.deaths) else {
                continue;
            };
            rows.push(AreaRate {
                entity: r.entity.to_owned(),
                time: r.time,
                estimate: RateEstimate::of(deaths, births),
            });
            let year = by_year.entry(r.time).or_default();
            year.0 += births;
            year.1 += deaths;
            year.2 += 1;
        }
        let national = by_year
            .into_iter()
            .map(|(time, (births, deaths, n_areas))| NationalRate {
                time,
                estimate: RateEstimate::of(deaths, births),
                n_areas,
            })
            .collect();
        Ok(RateTable {
            rows,
            national,
            approximate_intervals: panel.deaths_derived,
        })
    }
}

/// The area rates as CSV (comma-separated, decimal point, empty for not available), the machine-
/// readable download of the page and of `imr rates --format csv`. Written by the one CSV writer
/// of the exports, formula guard on ([`imr_escape::csv_cell`]).
pub fn rates_csv(table: &RateTable) -> String {
    rates_csv_with(table, imr_escape::CsvOptions::default())
}

/// [`rates_csv`] with the writer's options (`imr --no-formula-guard`).
pub fn rates_csv_with(table: &RateTable, options: imr_escape::CsvOptions) -> String {
    let mut w = imr_escape::CsvWriter::new(options);
    w.record([
        "entity",
        "time",
        "births",
        "deaths",
        "rate_per_1000",
        "ci_low",
        "ci_high",
    ]);
    let opt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
    for r in &table.rows {
        let e = &r.estimate;
        w.record([
            r.entity.clone(),
            r.time.to_string(),
            e.births.to_string(),
            e.deaths.to_string(),
            opt(e.rate),
            opt(e.ci_low),
            opt(e.ci_high),
        ]);
    }
    w.into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_deaths_in_1000_births_has_upper_limit_3_689_per_1000() {
        let (rate, lo, hi) = rate_with_interval(0.0, 1000.0);
        assert_eq!(rate, Some(0.0));
        assert_eq!(lo, Some(0.0));
        assert!((hi.unwrap() - 3.688879).abs() < 1e-5);
    }

    #[test]
    fn zero_births_has_no_rate() {
        assert_eq!(rate_with_interval(0.0, 0.0), (None, None, None));
    }
}
