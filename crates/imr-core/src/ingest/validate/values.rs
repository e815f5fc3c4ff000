//! Phase "values": reading the cells of a record. Each main table's non-role columns are parsed
//! once, in one walk of its records ([`parsed_extra_columns`], which also finds each record's
//! width and year and lists the distinct entities for the keys phase); the counts of a record
//! (births, deaths, rate) are read and checked by [`read_counts`]; a main record's covariates go
//! into their panel slots through [`RowCells`]; a characteristics cell is read by
//! [`characteristic_cell`]. Hands on numbers, texts and cell warnings; never decides whether a
//! row is kept, except that a count that cannot be used is the row's exclusion reason.

use super::super::columns::{ColumnRoles, Role};
use super::super::number::{is_missing_token, parse_number, Decimal};
use super::super::store::RawRecord;
use super::super::table::RawTable;
use super::super::{CellWarning, ExclusionReason, MAX_COUNT};
use super::{MAX_YEAR, MIN_YEAR};
use std::collections::HashSet;

/// A non-role column of a table, classified once.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ExtraColumn {
    /// Its place in the table's header.
    pub index: usize,
    pub name: String,
    /// Whether at least half of its present values are numbers ([`RawTable::column_is_numeric`]).
    pub numeric: bool,
}

/// The non-role columns of a table, classified by [`RawTable::column_is_numeric`] (the
/// characteristics tables, whose values are read cell by cell as they are joined).
pub(super) fn extra_columns(table: &RawTable, roles: &ColumnRoles) -> Vec<ExtraColumn> {
    (0..table.columns.len())
        .filter(|&i| roles.role_of(i).is_none())
        .map(|i| ExtraColumn {
            index: i,
            name: table.columns[i].clone(),
            numeric: table.column_is_numeric(i),
        })
        .collect()
}

/// A value of a parsed column that is not a number ([`parse_number`] never returns a
/// non-finite value); missing values are NaN.
pub(super) const NOT_A_NUMBER: f64 = f64::INFINITY;

/// The non-role columns of a main table, classified as [`RawTable::column_is_numeric`] does,
/// with every value of each numeric column parsed in the same pass (NaN missing,
/// [`NOT_A_NUMBER`] not a number) and kept, empty for text columns. Each number is
/// parsed once and the parsed column becomes the panel's; the records are read once, each
/// whole (not once per column), and natively a large table is read in contiguous parts on
/// [`parse_threads`] threads, each filling its rows of every column (the page has one thread).
///
/// With the columns, on the same walk of each record's fields (every record is walked, with or
/// without non-role columns): whether it has the table's width (counting a record's fields
/// again in the serial pass was a tenth of it for a record read by lines), its year, and the
/// distinct entity values for the CUT check of the keys phase (a pass of their own over every
/// record before).
pub(super) fn parsed_extra_columns<'t>(
    table: &'t RawTable,
    roles: &ColumnRoles,
) -> ParsedExtras<'t> {
    parsed_extra_columns_on(table, roles, parse_threads(table.records.len()))
}

/// What [`parsed_extra_columns`] reads of a table.
pub(super) struct ParsedExtras<'t> {
    /// Each non-role column with its values (empty for a text column).
    pub columns: Vec<(ExtraColumn, Vec<f64>)>,
    /// Per record, whether it has the table's width.
    pub width_ok: Vec<bool>,
    /// The distinct non-empty entity values, trimmed.
    pub entities: HashSet<&'t str>,
    /// Per record, its year when the time field reads as one ([`whole_year`]), else
    /// [`NO_YEAR`] (missing, not a whole number, or no time column: the serial pass then reads
    /// it and says why).
    pub years: Vec<i32>,
}

/// [`ParsedExtras::years`] of a record whose year the serial pass reads itself.
pub(super) const NO_YEAR: i32 = i32::MIN;

/// A field of the walk in [`parsed_extra_columns_on`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Walked {
    /// A non-role column, by its place in the columns parsed.
    Column(usize),
    Entity,
    Time,
}

/// One part's share of [`parsed_extra_columns_on`]'s outputs: its rows of every column, of the
/// widths and of the years.
struct PartRows<'a> {
    columns: Vec<&'a mut [f64]>,
    width_ok: &'a mut [bool],
    years: &'a mut [i32],
}

/// What one part of a table gives [`parsed_extra_columns_on`]: per column (numbers, present),
/// and the distinct entities of its records.
type PartRead<'t> = (Vec<(usize, usize)>, HashSet<&'t str>);

/// [`parsed_extra_columns`] on `threads` threads (at least one).
fn parsed_extra_columns_on<'t>(
    table: &'t RawTable,
    roles: &ColumnRoles,
    threads: usize,
) -> ParsedExtras<'t> {
    let threads = threads.max(1);
    let n = table.records.len();
    let indices: Vec<usize> = (0..table.columns.len())
        .filter(|&i| roles.role_of(i).is_none())
        .collect();
    // Zeroed, not filled: fresh zero pages cost nothing until written, and every value is
    // written below by the thread of its part (filling them here was a serial pass over the
    // columns before the threads started).
    let mut values: Vec<Vec<f64>> = indices.iter().map(|_| vec![0.0; n]).collect();
    let mut width_ok = vec![false; n];
    let mut years = vec![NO_YEAR; n];
    let part_len = n.div_ceil(threads).max(1);
    let parts = split_into_parts(&mut values, &mut width_ok, &mut years, threads, part_len);
    let walker = Walker {
        table,
        walk: walk_order(&indices, roles),
        columns: indices.len(),
        decimal: table.decimal(),
    };
    let part_reads = walker.read_parts(parts, part_len);
    // Per column: (numbers, present) over the whole table.
    let mut counts = vec![(0usize, 0usize); indices.len()];
    let mut entities: HashSet<&str> = HashSet::new();
    for (part, part_entities) in part_reads {
        for (total, (numbers, present)) in counts.iter_mut().zip(part) {
            total.0 += numbers;
            total.1 += present;
        }
        entities.extend(part_entities);
    }
    let columns = indices
        .iter()
        .zip(values)
        .zip(counts)
        .map(|((&i, column_values), (numbers, present))| {
            let numeric = present > 0 && numbers * 2 >= present;
            let column = ExtraColumn {
                index: i,
                name: table.columns[i].clone(),
                numeric,
            };
            (column, if numeric { column_values } else { Vec::new() })
        })
        .collect();
    ParsedExtras {
        columns,
        width_ok,
        entities,
        years,
    }
}

/// The fields walked, in the order of the record: each non-role column (`indices`, by its place
/// among them), the entity's and the time's.
fn walk_order(indices: &[usize], roles: &ColumnRoles) -> Vec<(usize, Walked)> {
    let mut walk: Vec<(usize, Walked)> = indices
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, Walked::Column(k)))
        .chain(roles.entity.map(|e| (e, Walked::Entity)))
        .chain(roles.time.map(|t| (t, Walked::Time)))
        .collect();
    walk.sort_unstable();
    walk
}

/// The outputs cut into `threads` parts of `part_len` rows each (the last may be shorter or
/// empty), as disjoint mutable slices: each part's rows of every column, widths and years.
fn split_into_parts<'a>(
    values: &'a mut [Vec<f64>],
    width_ok: &'a mut [bool],
    years: &'a mut [i32],
    threads: usize,
    part_len: usize,
) -> Vec<PartRows<'a>> {
    let mut parts: Vec<PartRows> = (0..threads)
        .map(|_| PartRows {
            columns: Vec::new(),
            width_ok: &mut [],
            years: &mut [],
        })
        .collect();
    for column in values.iter_mut() {
        for (part, rows) in parts.iter_mut().zip(column.chunks_mut(part_len)) {
            part.columns.push(rows);
        }
    }
    for (part, rows) in parts.iter_mut().zip(width_ok.chunks_mut(part_len)) {
        part.width_ok = rows;
    }
    for (part, rows) in parts.iter_mut().zip(years.chunks_mut(part_len)) {
        part.years = rows;
    }
    parts
}

/// What every part's walk shares: the table, the fields to walk, how many non-role columns
/// there are and the table's decimal mark.
struct Walker<'t> {
    table: &'t RawTable,
    walk: Vec<(usize, Walked)>,
    columns: usize,
    decimal: Decimal,
}

impl<'t> Walker<'t> {
    /// Reads every part, each on a thread of its own when there are several.
    fn read_parts(&self, parts: Vec<PartRows>, part_len: usize) -> Vec<PartRead<'t>> {
        if parts.len() == 1 {
            return parts
                .into_iter()
                .enumerate()
                .map(|(p, rows)| self.read_part(p * part_len, rows))
                .collect();
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = parts
                .into_iter()
                .enumerate()
                .map(|(p, rows)| scope.spawn(move || self.read_part(p * part_len, rows)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        })
    }

    /// Walks the records from `first` on, one per row of `part`, filling its rows.
    fn read_part(&self, first: usize, part: PartRows) -> PartRead<'t> {
        let PartRows {
            mut columns,
            width_ok,
            years,
        } = part;
        let width = self.table.columns.len();
        let mut counts = vec![(0usize, 0usize); self.columns];
        let mut entities: HashSet<&'t str> = HashSet::new();
        let mut previous_entity: Option<&str> = None;
        // Every record is walked, with or without non-role columns.
        let rows = width_ok.len();
        for (row, rec) in self.table.records.iter_from(first).take(rows).enumerate() {
            // The fields walked once, in order (`walk` rises): a record read by lines finds
            // each field by scanning its text.
            let mut fields = rec.fields();
            // Fields taken so far; `None` once the record has run out (it is then short).
            let mut at = Some(0usize);
            for &(i, walked) in &self.walk {
                let raw = at.and_then(|at| fields.nth(i - at));
                at = raw.map(|_| i + 1);
                match walked {
                    Walked::Column(k) => {
                        columns[k][row] = self.cell(raw, &mut counts[k]);
                    }
                    Walked::Entity => {
                        // Rows of one entity usually follow each other: one hash per run.
                        let entity = raw.map(str::trim).unwrap_or("");
                        if !entity.is_empty() && previous_entity != Some(entity) {
                            entities.insert(entity);
                        }
                        previous_entity = Some(entity);
                    }
                    Walked::Time => {
                        // As the keys phase reads a year (a number is never a missing token).
                        years[row] = raw
                            .and_then(|raw| whole_year(raw, self.decimal))
                            .map_or(NO_YEAR, |y| y as i32);
                    }
                }
            }
            // A record that ran out before a column has fewer fields than the header.
            width_ok[row] = at.is_some_and(|at| at + fields.count() == width);
        }
        (counts, entities)
    }

    /// One cell of a non-role column (`None`: the record ended before it): its number, NaN when
    /// missing, [`NOT_A_NUMBER`] else; `count` (numbers, present) is added to.
    fn cell(&self, raw: Option<&str>, count: &mut (usize, usize)) -> f64 {
        let Some(raw) = raw else {
            return f64::NAN;
        };
        // A number is never a missing token ("-", ".", "na", …), so the token check is left
        // for what does not parse (it was a second scan of every number).
        match parse_number(raw, self.decimal) {
            Some(v) => {
                count.0 += 1;
                count.1 += 1;
                v
            }
            None if is_missing_token(raw) => f64::NAN,
            None => {
                count.1 += 1;
                NOT_A_NUMBER
            }
        }
    }
}

/// Threads that read a table of `rows` records: one in the page (wasm32 has none to spare) and
/// for tables below 100,000 rows (a thread costs more than it saves), else the machine's cores
/// up to 8.
fn parse_threads(rows: usize) -> usize {
    if cfg!(target_arch = "wasm32") || rows < 100_000 {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// A time field read as a year: a whole number below a million in magnitude.
pub(super) fn whole_year(raw: &str, decimal: Decimal) -> Option<i64> {
    parse_number(raw, decimal)
        .filter(|v| v.fract() == 0.0 && (MIN_YEAR as f64..=MAX_YEAR as f64).contains(v))
        .map(|v| v as i64)
}

/// The births and deaths of a main record (each `None` when the table has no such column), or
/// why the record cannot be used. Counts are in [0, [`MAX_COUNT`]] and a rate is non-negative;
/// both are finite ([`parse_number`] never returns a non-finite value). Counts need not be
/// whole: deaths derived from a published rate, as in the page's own downloads, are fractional
/// and must read back unchanged. Without a deaths column, deaths are derived from the rate:
/// `deaths = rate × births / 1000`. Deaths above births exclude the record.
pub(super) fn read_counts(
    table: &RawTable,
    rec: &RawRecord<'_>,
    roles: &ColumnRoles,
) -> Result<(Option<f64>, Option<f64>), ExclusionReason> {
    let births = read_count(table, rec, roles, Role::Births)?;
    let deaths = read_count(table, rec, roles, Role::Deaths)?;
    let rate = if deaths.is_none() {
        read_count(table, rec, roles, Role::Rate)?
    } else {
        None
    };
    counts_of(births, deaths, rate)
}

/// The births and deaths of a record from its cells: the deaths given, else derived from the
/// rate (`rate × births / 1000`); deaths above births exclude the record. [`read_counts`] once
/// the cells are read (the stacking reads a rate's cells itself: [`super::lagged`]).
pub(super) fn counts_of(
    births: Option<f64>,
    deaths: Option<f64>,
    rate: Option<f64>,
) -> Result<(Option<f64>, Option<f64>), ExclusionReason> {
    let deaths = match (deaths, rate, births) {
        (Some(d), _, _) => Some(d),
        (None, Some(rate), Some(b)) => Some(rate * b / 1000.0),
        _ => None,
    };
    if let (Some(d), Some(b)) = (deaths, births) {
        if d > b {
            return Err(ExclusionReason::DeathsExceedBirths {
                deaths: d,
                births: b,
            });
        }
    }
    Ok((births, deaths))
}

/// The value of `role` (births, deaths or rate) in a record: `None` when the table has no such
/// column, else the number, or why it cannot be used.
pub(super) fn read_count(
    table: &RawTable,
    rec: &RawRecord<'_>,
    roles: &ColumnRoles,
    role: Role,
) -> Result<Option<f64>, ExclusionReason> {
    let Some(i) = roles.get(role) else {
        return Ok(None);
    };
    let column = || table.columns[i].clone();
    let raw = rec.field(i).unwrap_or("");
    if is_missing_token(raw) {
        return Err(ExclusionReason::MissingValue { column: column() });
    }
    let is_rate = role == Role::Rate;
    match parse_number(raw, table.decimal()) {
        None => Err(ExclusionReason::NonNumeric {
            column: column(),
            value: raw.trim().to_owned(),
        }),
        Some(v) if v < 0.0 && is_rate => Err(ExclusionReason::NegativeRate {
            column: column(),
            value: v,
        }),
        Some(v) if v < 0.0 => Err(ExclusionReason::NegativeCount {
            column: column(),
            value: v,
        }),
        Some(v) if !is_rate && v > MAX_COUNT => Err(ExclusionReason::CountTooLarge {
            column: column(),
            value: raw.trim().to_owned(),
        }),
        Some(v) => Ok(Some(v)),
    }
}

/// One main record's covariates in the panel's slots, and the cells that were not numbers
/// ([`CellWarning`]); one value reused from record to record (no allocation per row).
#[derive(Debug)]
pub(super) struct RowCells<'t> {
    numeric_slots: usize,
    text_slots: usize,
    /// Per numeric slot of the panel, the record's number (`None`: missing or absent).
    pub numeric: Vec<Option<f64>>,
    /// Per text slot, the record's trimmed text (`None`: empty or absent).
    pub text: Vec<Option<&'t str>>,
    /// The record's numeric cells that are not numbers (read as missing).
    pub warnings: Vec<CellWarning>,
}

impl<'t> RowCells<'t> {
    /// Cells for a panel of `numeric_slots` numeric and `text_slots` text columns.
    pub fn new(numeric_slots: usize, text_slots: usize) -> RowCells<'t> {
        RowCells {
            numeric_slots,
            text_slots,
            numeric: Vec::with_capacity(numeric_slots),
            text: Vec::with_capacity(text_slots),
            warnings: Vec::new(),
        }
    }

    /// Reads record `read` (`rec`, of the file `file`) of a main table whose non-role columns
    /// are `extras`, going to `slots` of the panel (numeric or text as the column is), with the
    /// parsed `values` of each numeric column ([`parsed_extra_columns`]).
    pub fn fill(
        &mut self,
        extras: &[ExtraColumn],
        slots: &[usize],
        values: &[Vec<f64>],
        read: usize,
        rec: &RawRecord<'t>,
        file: &str,
    ) {
        self.numeric.clear();
        self.numeric.resize(self.numeric_slots, None);
        self.text.clear();
        self.text.resize(self.text_slots, None);
        self.warnings.clear();
        for (k, (c, &slot)) in extras.iter().zip(slots).enumerate() {
            if c.numeric {
                match values[k][read] {
                    v if v.is_nan() => {}
                    v if v == NOT_A_NUMBER => self.warnings.push(CellWarning {
                        file: file.to_owned(),
                        line: rec.line,
                        column: c.name.clone(),
                        value: rec.field(c.index).unwrap_or("").trim().to_owned(),
                    }),
                    v => self.numeric[slot] = Some(v),
                }
                continue;
            }
            let raw = rec.field(c.index).unwrap_or("").trim();
            if !raw.is_empty() {
                self.text[slot] = Some(raw);
            }
        }
    }
}

/// What a cell of a characteristics file gives the rows it joins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Cell<'a> {
    /// Nothing: a missing number or an empty text.
    Nothing,
    Number(f64),
    /// A cell of a numeric column that is not a number (trimmed): a [`CellWarning`], the
    /// value missing.
    NotANumber(&'a str),
    /// A non-empty text, trimmed.
    Text(&'a str),
}

/// A characteristics cell `raw` of a numeric column (`numeric`) or a text one.
pub(super) fn characteristic_cell(raw: &str, numeric: bool, decimal: Decimal) -> Cell<'_> {
    if !numeric {
        let text = raw.trim();
        return if text.is_empty() {
            Cell::Nothing
        } else {
            Cell::Text(text)
        };
    }
    if is_missing_token(raw) {
        return Cell::Nothing;
    }
    match parse_number(raw, decimal) {
        Some(v) => Cell::Number(v),
        None => Cell::NotANumber(raw.trim()),
    }
}

#[cfg(test)]
#[path = "values_tests.rs"]
mod tests;
