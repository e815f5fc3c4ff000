//! Row validation and the join of characteristics files: raw tables → [`Panel`].
//!
//! [`build_panel`] runs in phases, a module each, every one handing a value on to the next:
//! 1. [`roles`] — which columns play which part: each table's roles checked, each table main
//!    data or characteristics; hands on a [`roles::Plan`].
//! 2. [`values`] — the cells: each main table's non-role columns parsed in one walk of its
//!    records, with each record's width, year and the distinct entities
//!    ([`values::ParsedExtras`]); counts, covariates and characteristics cells read per record.
//! 3. [`keys`] — entity codes (CUT or any identifier, [`keys::EntityCodes`]) and each record's
//!    (entity, time) key.
//! 4. [`conflicts`] — a key met again: merged (births in one file, deaths in another, disagreeing
//!    cells listed), excluded as a duplicate, or kept apart.
//! 5. [`accounting`] — every record used or excluded with its reason, per file and in total.
//!
//! [`stack`] runs each record of the main tables through them into the panel's rows, then
//! [`lagged`] tests which year's births published rates fit and, with a rate lag, pairs each
//! row's births with the rate published `lag` years later (excluding the rows left without
//! one), then [`join`] each record of the characteristics tables onto those rows.

mod accounting;
mod conflicts;
#[cfg(feature = "historical-codes")]
mod historical;
mod join;
mod keys;
mod lagged;
mod roles;
mod stack;
mod values;

pub use keys::CodeSystem;

use super::columns::ColumnRoles;
use super::table::RawTable;
use super::{IngestError, IngestReport};
use crate::panel::Panel;

/// Options of a panel build.
#[derive(Debug, Clone, Default)]
pub struct IngestOptions {
    pub code_system: CodeSystem,
    /// Whether rows of a main file that repeat an (entity, time) key are kept as rows of their
    /// own (a model with absorbed effects, which does not need the key unique: `imr fit --fe`)
    /// instead of excluded as duplicates naming the line they repeat (the default, for every
    /// analysis that reads one value per area and year). Rows of two main files that complete
    /// each other (births in one, deaths in the other) are merged either way.
    pub keep_repeated_keys: bool,
    /// Whether a main file may have no time column: a cross-section (`imr fit` of data with
    /// one row per area), every row then in one period, time 0. Without it (the default) a
    /// main file without a time column is an error naming the missing role.
    pub time_optional: bool,
    /// The year of every row of a main file without a time column: data of one year whose
    /// year is not a column (a file named `defunciones_2023.csv`). Such a file is then read
    /// with each row of that year, and its [`super::FileReport::time_given`] says so; a file
    /// with a time column keeps its own years. `imr --time-value`, the Data view's "of year"
    /// field. Within [`MIN_YEAR`]..=[`MAX_YEAR`], as a year read from a column.
    pub time_value: Option<i64>,
    /// The publication lag of a published rate column, in years: the rate in the row of year Y
    /// describes year Y − lag (SINIM's infant mortality rate of Y is that of Y − 2). The rate
    /// of each row then goes to the row of the same area and year Y − lag and is paired with
    /// that row's births (deaths = rate × births(Y − lag) / 1000); a row whose area has no
    /// usable rate in year Y + lag is excluded naming the lag
    /// ([`super::ExclusionReason::NoLaggedRate`]), and a rate whose row of Y − lag does not
    /// exist is listed in [`super::IngestReport::unplaced_rates`]. `None` and `Some(0)` read
    /// the rates as describing their own year. A lag above 0 for data whose deaths are not
    /// derived from a rate is [`IngestError::RateLagWithoutRate`]. With
    /// [`IngestOptions::keep_repeated_keys`] the rate of an area and year is its first row's.
    /// `imr --rate-lag`, the Data view's "The rates describe the year"; within
    /// 0..=[`MAX_RATE_LAG`] there (any lag is safe here).
    pub rate_lag: Option<u32>,
}

/// The greatest rate lag `imr --rate-lag`, the Data view and the link accept: 10 years. Agencies
/// publish a few years late ([`crate::lag`] tests 0 to 3); a rate published ten years after
/// the year it describes is another series, and a larger number is a typing error.
pub const MAX_RATE_LAG: u32 = 10;

/// A rate lag as typed (`--rate-lag`, the link's `rate-lag`, a saved analysis): a whole number
/// written plainly within 0..=[`MAX_RATE_LAG`]; `None` otherwise.
pub fn parse_rate_lag(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|&k| k <= MAX_RATE_LAG)
}

/// Whether deaths are derived from a published rate with these roles (one per table): a main
/// table has a rate column and none a deaths column, as [`build_panel`] decides. Where
/// [`IngestOptions::rate_lag`] applies; the Data view offers the lag then.
pub fn rate_lag_applies(roles: &[ColumnRoles]) -> bool {
    let main: Vec<&ColumnRoles> = roles
        .iter()
        .zip(roles::table_kinds(roles))
        .filter(|(_, kind)| *kind == roles::TableKind::Main)
        .map(|(r, _)| r)
        .collect();
    main.iter().any(|r| r.rate.is_some()) && main.iter().all(|r| r.deaths.is_none())
}

/// The least year a time column or [`IngestOptions::time_value`] may hold (a year read from a
/// column is a whole number of absolute value below a million).
pub const MIN_YEAR: i64 = -999_999;
/// The greatest such year.
pub const MAX_YEAR: i64 = 999_999;

/// A year as typed for [`IngestOptions::time_value`] (`--time-value`, the Data view's field, the
/// link's `time-value`): a whole number written plainly, within [`MIN_YEAR`]..=[`MAX_YEAR`];
/// `None` otherwise (spaces included: callers trim what a reader typed).
pub fn parse_year(text: &str) -> Option<i64> {
    text.parse::<i64>()
        .ok()
        .filter(|y| (MIN_YEAR..=MAX_YEAR).contains(y))
}

/// Whether a table of the main data has no time column with these roles (one per table): the
/// tables [`IngestOptions::time_value`] dates, main as [`build_panel`] decides (an outcome
/// role; without one anywhere, the first table).
pub fn time_value_applies(roles: &[ColumnRoles]) -> bool {
    undated_tables(roles).into_iter().any(|undated| undated)
}

/// For each table (one [`ColumnRoles`] per table), whether it is a table of the main data
/// without a time column: the tables whose rows take a year given for them
/// ([`RawTable::time_given`], chosen by [`table_year`]) or for every such table
/// ([`IngestOptions::time_value`]). The Data view offers a year per such file.
pub fn undated_tables(roles: &[ColumnRoles]) -> Vec<bool> {
    roles
        .iter()
        .zip(roles::table_kinds(roles))
        .map(|(r, kind)| kind == roles::TableKind::Main && r.time.is_none())
        .collect()
}

/// The year of the rows of one table without a time column ([`RawTable::time_given`]), as
/// `imr` and the page both decide it: the year `given` for its file (`imr --time-value
/// FILE=YEAR`, the Data view's year of a file); else, when no year is given for every such
/// table (`for_all`: [`IngestOptions::time_value`], `imr --time-value YEAR`, which then
/// applies), the year its names hold (`named`: its sheet's, else its file's, by
/// [`super::year_in_name`]); `None` leaves the table to `for_all`.
pub fn table_year(given: Option<i64>, for_all: Option<i64>, named: Option<i64>) -> Option<i64> {
    given.or(named.filter(|_| for_all.is_none()))
}

/// Builds the validated panel from tables and the roles chosen for each (same order).
///
/// Tables with an outcome role (births, deaths or rate) are stacked as the main data; the others
/// are characteristics joined by entity, or by entity and time when they have a time column. When
/// no table has an outcome role, the first is the main data (a generic panel, e.g. for models).
pub fn build_panel<T: std::borrow::Borrow<RawTable>>(
    tables: &[T],
    roles: &[ColumnRoles],
    options: &IngestOptions,
) -> Result<Panel, IngestError> {
    // Owned tables or shared ones (the page's `Arc`s): read in place, never copied.
    let tables: Vec<&RawTable> = tables.iter().map(|t| t.borrow()).collect();
    if tables.is_empty() {
        return Err(IngestError::NoFiles);
    }
    assert_eq!(tables.len(), roles.len(), "one ColumnRoles per table");
    let plan = roles::plan(&tables, roles, options)?;
    let lag = options.rate_lag.filter(|&k| k > 0);
    if let (Some(lag), false) = (lag, plan.deaths_derived) {
        return Err(lagged::without_rate(lag, &tables, roles, &plan));
    }
    // The main tables' other columns, parsed (and their entities listed) in one walk.
    let parsed: Vec<values::ParsedExtras> = plan
        .main
        .iter()
        .map(|&t| values::parsed_extra_columns(tables[t], &roles[t]))
        .collect();
    let codes = keys::EntityCodes::choose(options.code_system, &parsed);
    let mut report = IngestReport::default();
    let input = (tables.as_slice(), roles);
    let (mut rows, rates) =
        stack::stack_main_tables(input, &plan, parsed, &codes, options, &mut report);
    if let Some(rates) = rates {
        lagged::finish(&mut rows, rates, lag, &mut report);
    }
    join::join_characteristics(&mut rows, input, &plan, &codes, &mut report);
    accounting::finish(rows, report, input, &plan, codes.chile, options.time_value)
}
