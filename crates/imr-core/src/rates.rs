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
//!
//! When a count is known only within a range of whole numbers [L, H] (deaths reconstructed from a
//! rounded rate: [`crate::panel::Panel::deaths_range`]), the interval is the union of the exact
//! intervals over the range: from the lower Garwood limit of L to the upper one of H (each
//! count's interval is contained in it, so it covers the true rate at least as often). A year's
//! pooled interval does the same with ΣL and ΣH.

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
    /// The rate of `deaths` in `births` with the interval of a count known within
    /// `[low, high]` (see the module's formula): [`RateEstimate::of`] `deaths`, with the lower
    /// limit of `low`'s exact interval and the upper limit of `high`'s, so that the range and
    /// the point estimate are built in one place ([`RateEstimate::of`] when `low == high`).
    pub fn of_range(deaths: f64, [low, high]: [f64; 2], births: f64) -> RateEstimate {
        RateEstimate {
            ci_low: RateEstimate::of(low, births).ci_low,
            ci_high: RateEstimate::of(high, births).ci_high,
            ..RateEstimate::of(deaths, births)
        }
    }

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
    /// The row's deaths were reconstructed from a published rate, not counted
    /// ([`crate::reconstructed`]): the page marks it ◆, the CSV in `deaths_reconstructed`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deaths_reconstructed: bool,
    /// The row is flagged as implausible ([`crate::plausibility::Plausibility::is_flagged`], the
    /// rule every view and command shares: a rate over 200 per 1,000, …): the Data view lists
    /// it among the flagged rows, the map and the analyses leave it out unless asked, the CSV
    /// says so in `flagged_implausible`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flagged_implausible: bool,
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
    /// The columns of the deaths' range when the intervals carry one, and how many rows have a
    /// range of more than one count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deaths_range: Option<RangeColumns>,
    /// Years whose counts repeat the year before ([`crate::repeats::repeated_years`]): their
    /// rows are a copy, not a measurement, and the CSV says so in `copy_of_year`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repeated_years: Vec<crate::repeats::RepeatedYear>,
}

impl RateTable {
    /// The year whose counts `time`'s rows repeat, if `time` is a copy.
    pub fn copy_of(&self, time: i64) -> Option<i64> {
        self.repeated_years
            .iter()
            .find(|r| r.time == time)
            .map(|r| r.repeat_of)
    }
}

/// Where the intervals' ranges of deaths come from ([`crate::panel::Panel::deaths_range`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RangeColumns {
    pub low: String,
    pub high: String,
    /// Rows whose range holds more than one count.
    pub ranged_rows: usize,
    /// Rows whose range does not contain their deaths: taken as exact.
    pub inconsistent_rows: usize,
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
        let range = panel.deaths_range();
        let reconstructed = crate::reconstructed::reconstructed_rows(panel);
        let plausibility = crate::plausibility::Plausibility::check(panel);
        let mut rows = Vec::with_capacity(panel.len());
        // Per year: births, deaths, areas, and the deaths' least and greatest sums.
        let mut by_year: std::collections::BTreeMap<i64, (f64, f64, usize, [f64; 2])> =
            Default::default();
        for r in panel.rows() {
            let (Some(births), Some(deaths)) = (r.births, r.deaths) else {
                continue;
            };
            let bounds = range
                .as_ref()
                .and_then(|d| d.of_row(r.index()))
                .unwrap_or([deaths, deaths]);
            rows.push(AreaRate {
                entity: r.entity.to_owned(),
                time: r.time,
                estimate: RateEstimate::of_range(deaths, bounds, births),
                deaths_reconstructed: reconstructed.get(r.index()) == Some(&true),
                flagged_implausible: plausibility.is_flagged(r.entity, r.time),
            });
            let year = by_year.entry(r.time).or_default();
            year.0 += births;
            year.1 += deaths;
            year.2 += 1;
            year.3[0] += bounds[0];
            year.3[1] += bounds[1];
        }
        let national = by_year
            .into_iter()
            .map(|(time, (births, deaths, n_areas, bounds))| NationalRate {
                time,
                estimate: RateEstimate::of_range(deaths, bounds, births),
                n_areas,
            })
            .collect();
        Ok(RateTable {
            rows,
            national,
            approximate_intervals: panel.deaths_derived,
            deaths_range: range.map(|d| RangeColumns {
                ranged_rows: d.ranged_rows(),
                inconsistent_rows: d.inconsistent.len(),
                low: d.low_column,
                high: d.high_column,
            }),
            repeated_years: crate::repeats::repeated_years(panel),
        })
    }
}

/// The area rates as CSV (comma-separated, decimal point, empty for not available), the machine-
/// readable download of the page and of `imr rates --format csv`. Written by the one CSV writer
/// of the exports, formula guard on ([`imr_escape::csv_cell`]). The last columns say what the
/// page marks: `copy_of_year`, the year whose counts a row's year repeats (empty for a year of
/// its own), so a copied year is not read as a measurement in a spreadsheet either, and
/// `deaths_reconstructed`, `true` for deaths reconstructed from a published rate (◆ on the
/// page), empty for counted ones, and `flagged_implausible`, `true` for a row the
/// plausibility rules flag (the map's class `flagged`; the Data view's flagged rows), so a
/// spreadsheet does not rank General Lagos's 111 per 1,000 among the others unawares.
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
        "copy_of_year",
        "deaths_reconstructed",
        "flagged_implausible",
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
            table
                .copy_of(r.time)
                .map(|y| y.to_string())
                .unwrap_or_default(),
            if r.deaths_reconstructed { "true" } else { "" }.to_string(),
            if r.flagged_implausible { "true" } else { "" }.to_string(),
        ]);
    }
    w.into_string()
}

#[cfg(test)]
#[path = "rates_tests.rs"]
mod tests;
