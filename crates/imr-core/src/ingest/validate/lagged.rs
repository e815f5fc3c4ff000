//! Phase "lag": published rates and the year they describe. While the main tables are stacked,
//! [`RateCells`] notes each record's rate and births as the file holds them (the input of
//! [`crate::lag::detect`], whose report the ingest report carries) and, with a rate lag
//! ([`super::IngestOptions::rate_lag`]), each row's own rate apart from its births. [`finish`]
//! then tests the lag and, with one, moves the rates: the row of area e and year Y takes the
//! rate published in the row of (e, Y + lag), deaths = rate × births(Y) / 1000; a row without
//! one is excluded naming the lag and the row it looked in ([`ExclusionReason::NoLaggedRate`]),
//! and so is every record merged into it, so that `rows_read = rows_used + rows_excluded` still
//! holds; a rate whose row of Y − lag does not exist is listed
//! ([`super::super::UnplacedRate`]).
//!
//! A rate cell that is empty is not an exclusion with a lag (the row's births take the rate
//! published later); one that is present but unreadable (text, negative) still excludes its row,
//! as without a lag. A row excluded for a reason of its own gives no rate, and the row that
//! looked for it names it.

use super::super::columns::{ColumnRoles, Role};
use super::super::table::RawTable;
use super::super::{ExclusionReason, IngestError, IngestReport, LaggedRateSource, UnplacedRate};
use super::accounting::exclude;
use super::roles::Plan;
use super::values::counts_of;
use crate::lag::Observation;
use crate::panel::PanelBuilder;
use std::collections::HashMap;

/// A record merged into a row (births in one file, the rate in another), kept to be excluded
/// with the row when the lag leaves the row without a rate.
#[derive(Debug)]
struct Merged {
    row: usize,
    /// Its main table's file id (the index of its file report).
    file: u32,
    name: String,
    line: u64,
}

/// What the stacking notes of the rates when deaths are derived from a rate column.
#[derive(Debug)]
pub(super) struct RateCells {
    /// The lag to apply (above 0), if any.
    lag: Option<u32>,
    /// Each record with a readable key: its rate and births as read.
    observations: Vec<Observation<u32>>,
    /// With a lag, per row of the builder, its own published rate (NaN when none).
    row_rates: Vec<f64>,
    /// With a lag, the key of each record excluded after its key was read, with its first
    /// file and line.
    excluded: HashMap<(u32, i64), (String, u64)>,
    /// With a lag, the records merged into rows.
    merged: Vec<Merged>,
    /// The key of the record being read, once known.
    current: Option<(u32, i64)>,
}

/// A cell as [`super::values::read_count`] reads it.
type Cell = Result<Option<f64>, ExclusionReason>;

/// A record's births, deaths and own rate.
type Counts = (Option<f64>, Option<f64>, Option<f64>);

impl RateCells {
    /// Nothing noted yet; `lag` the lag to apply (0 is none).
    pub fn new(lag: Option<u32>) -> RateCells {
        RateCells {
            lag: lag.filter(|&k| k > 0),
            observations: Vec::new(),
            row_rates: Vec::new(),
            excluded: HashMap::new(),
            merged: Vec::new(),
            current: None,
        }
    }

    /// A new record starts: its key is not known yet.
    pub fn start_record(&mut self) {
        self.current = None;
    }

    /// The record of area `entity` in year `time` has these births and rate cells.
    pub fn observe(&mut self, entity: u32, time: i64, births: &Cell, rate: &Cell) {
        self.current = Some((entity, time));
        let read = |cell: &Cell| cell.as_ref().ok().copied().flatten();
        self.observations.push(Observation {
            entity,
            year: time,
            rate: read(rate),
            births: read(births),
        });
    }

    /// The record's births, deaths and own rate from its cells: without a lag as
    /// [`super::values::read_counts`] reads them (deaths derived from its rate, the rate then
    /// none); with one, its births, no deaths yet and its rate, an empty rate cell being none.
    pub fn counts(&self, births: Cell, rate: Cell) -> Result<Counts, ExclusionReason> {
        let births = births?;
        if self.lag.is_none() {
            let (births, deaths) = counts_of(births, None, rate?)?;
            return Ok((births, deaths, None));
        }
        let rate = match rate {
            Err(ExclusionReason::MissingValue { .. }) => None,
            other => other?,
        };
        Ok((births, None, rate))
    }

    /// The record being read is excluded (from `file`, line `line`).
    pub fn excluded_record(&mut self, file: &str, line: u64) {
        if let (Some(key), Some(_)) = (self.current, self.lag) {
            self.excluded
                .entry(key)
                .or_insert_with(|| (file.to_owned(), line));
        }
    }

    /// A new row was pushed with this own rate.
    pub fn push_row(&mut self, rate: Option<f64>) {
        if self.lag.is_some() {
            self.row_rates.push(rate.unwrap_or(f64::NAN));
        }
    }

    /// The record (main table `file`, named `name`, line `line`) with `rate` was merged into
    /// row `row`: its rate fills the row's when the row has none.
    pub fn merged(&mut self, row: usize, file: u32, name: &str, line: u64, rate: Option<f64>) {
        if self.lag.is_none() {
            return;
        }
        if let (Some(own), Some(r)) = (self.row_rates.get_mut(row), rate) {
            if own.is_nan() {
                *own = r;
            }
        }
        self.merged.push(Merged {
            row,
            file,
            name: name.to_owned(),
            line,
        });
    }
}

/// The error of a rate lag for data whose deaths are not derived from a rate: the first main
/// table with a deaths column names it.
pub(super) fn without_rate(
    lag: u32,
    tables: &[&RawTable],
    roles: &[ColumnRoles],
    plan: &Plan,
) -> IngestError {
    let deaths = plan.main.iter().find_map(|&t| {
        let column = roles[t].get(Role::Deaths)?;
        Some((
            tables[t].file.clone(),
            tables[t].columns.get(column)?.clone(),
        ))
    });
    IngestError::RateLagWithoutRate { lag, deaths }
}

/// The lag test on the rates as read (into `report.rate_lag`) and, with a lag, the rates moved
/// onto the rows of the year they describe (see the module documentation).
pub(super) fn finish(
    rows: &mut PanelBuilder,
    cells: RateCells,
    lag: Option<u32>,
    report: &mut IngestReport,
) {
    report.rate_lag = Some(crate::lag::detect(&cells.observations));
    let Some(lag) = lag.filter(|&k| k > 0) else {
        return;
    };
    let n = rows.len();
    // The row of each key (the first, when repeated keys are kept: `keep_repeated_keys`).
    let mut first: HashMap<(u32, i64), usize> = HashMap::with_capacity(n);
    for i in 0..n {
        first.entry(rows.key_of(i)).or_insert(i);
    }
    let rate_of = |j: usize| cells.row_rates.get(j).copied().filter(|r| !r.is_nan());
    // Rates describing a year without a row of their area. (Years are within ±999,999 from a
    // file, but any i64 from a caller: saturated, a year out of range has no row.)
    for j in 0..n {
        let (entity, time) = rows.key_of(j);
        let describes = time.saturating_sub(i64::from(lag));
        if rate_of(j).is_some() && (describes == time || !first.contains_key(&(entity, describes)))
        {
            let row = rows.row(j);
            report.unplaced_rates.push(UnplacedRate {
                file: row.file.to_owned(),
                line: row.line,
                entity: row.entity.to_owned(),
                time,
                describes,
            });
        }
    }
    let mut keep = vec![true; n];
    let mut reasons: HashMap<usize, ExclusionReason> = HashMap::new();
    let mut excluded_in = vec![0usize; report.files.len()];
    for (i, kept) in keep.iter_mut().enumerate() {
        let (entity, time) = rows.key_of(i);
        let published_in = time.saturating_add(i64::from(lag));
        let source = (published_in != time)
            .then(|| first.get(&(entity, published_in)).copied())
            .flatten();
        let births = rows.row(i).births;
        let reason = match source.and_then(rate_of) {
            Some(rate) => match counts_of(births, None, Some(rate)) {
                Ok((births, deaths)) => {
                    rows.set_counts(i, births, deaths);
                    continue;
                }
                Err(reason) => reason,
            },
            None => ExclusionReason::NoLaggedRate {
                lag,
                time,
                published_in,
                found: match source {
                    Some(j) => {
                        let row = rows.row(j);
                        LaggedRateSource::NoRate {
                            file: row.file.to_owned(),
                            line: row.line,
                        }
                    }
                    None => match cells.excluded.get(&(entity, published_in)) {
                        Some((file, line)) => LaggedRateSource::Excluded {
                            file: file.clone(),
                            line: *line,
                        },
                        None => LaggedRateSource::NoRow,
                    },
                },
            },
        };
        *kept = false;
        let row = rows.row(i);
        exclude(report, row.file, row.line, reason.clone());
        if let Some(count) = excluded_in.get_mut(rows.file_of(i) as usize) {
            *count += 1;
        }
        reasons.insert(i, reason);
    }
    // Records merged into an excluded row go with it.
    for m in &cells.merged {
        if let Some(reason) = reasons.get(&m.row) {
            exclude(report, &m.name, m.line, reason.clone());
            report.merged_rows = report.merged_rows.saturating_sub(1);
            if let Some(count) = excluded_in.get_mut(m.file as usize) {
                *count += 1;
            }
        }
    }
    for (file, count) in report.files.iter_mut().zip(excluded_in) {
        file.rows_used = file.rows_used.saturating_sub(count);
        file.rows_excluded += count;
        if file.roles.contains_key(Role::Rate.label()) {
            file.rate_lag = Some(lag);
        }
    }
    rows.retain_rows(&keep);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_a_lag_an_empty_rate_is_none_and_an_unreadable_one_still_excludes() {
        let missing = || {
            Err(ExclusionReason::MissingValue {
                column: "tmi".into(),
            })
        };
        let negative = || {
            Err(ExclusionReason::NegativeRate {
                column: "tmi".into(),
                value: -1.0,
            })
        };
        let lagged = RateCells::new(Some(2));
        assert_eq!(
            lagged.counts(Ok(Some(100.0)), missing()),
            Ok((Some(100.0), None, None))
        );
        assert_eq!(
            lagged.counts(Ok(Some(100.0)), Ok(Some(7.0))),
            Ok((Some(100.0), None, Some(7.0)))
        );
        assert!(matches!(
            lagged.counts(Ok(Some(100.0)), negative()),
            Err(ExclusionReason::NegativeRate { .. })
        ));
        // Births are read first, as without a lag.
        assert!(matches!(
            lagged.counts(missing(), negative()),
            Err(ExclusionReason::MissingValue { .. })
        ));
        // Without a lag (or a lag of 0): deaths derived, an empty rate excludes.
        for unlagged in [RateCells::new(None), RateCells::new(Some(0))] {
            assert_eq!(
                unlagged.counts(Ok(Some(200.0)), Ok(Some(5.0))),
                Ok((Some(200.0), Some(1.0), None))
            );
            assert!(unlagged.counts(Ok(Some(200.0)), missing()).is_err());
        }
        // A rate above 1000 ‰ is more deaths than births.
        assert!(matches!(
            RateCells::new(None).counts(Ok(Some(10.0)), Ok(Some(2000.0))),
            Err(ExclusionReason::DeathsExceedBirths { .. })
        ));
    }
}
