//! Row validation and the join of characteristics files: raw tables → [`Panel`].

use super::codes::CutCodes;
use super::columns::{ColumnRoles, Role};
use super::number::{is_missing_token, parse_number, Decimal};
use super::table::{RawRecord, RawTable};
use super::{
    delimiter_label, CellConflict, CellWarning, ColumnNames, Exclusion, ExclusionReason,
    FileReport, IngestError, IngestReport, MAX_COUNT,
};
use crate::panel::{NewRow, Panel, PanelBuilder, PanelMeta};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};

/// How entity codes are treated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeSystem {
    /// Chilean CUT codes when at least 80% of the distinct entity values are (after
    /// normalisation) in the 2018 list; otherwise any text identifier.
    #[default]
    Auto,
    /// Always validate as Chilean CUT codes (unknown codes are excluded).
    ChileCut,
    /// Any identifier, trimmed of spaces.
    Generic,
}

/// A raw entity value read before: its entity id and whether it was recoded, or why it is not
/// an entity.
type KnownEntity = Result<(u32, bool), ExclusionReason>;

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
}

/// The role of a table in the build.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TableKind {
    Main,
    Characteristics,
}

/// A non-role column of a table, classified once.
struct ExtraColumn {
    index: usize,
    name: String,
    numeric: bool,
}

fn extra_columns(table: &RawTable, roles: &ColumnRoles) -> Vec<ExtraColumn> {
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
const NOT_A_NUMBER: f64 = f64::INFINITY;

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
/// distinct entity values for [`looks_like_cut`] (a pass of their own over every record
/// before).
fn parsed_extra_columns<'t>(table: &'t RawTable, roles: &ColumnRoles) -> ParsedExtras<'t> {
    parsed_extra_columns_on(table, roles, parse_threads(table.records.len()))
}

/// What [`parsed_extra_columns`] reads of a table.
struct ParsedExtras<'t> {
    /// Each non-role column with its values (empty for a text column).
    columns: Vec<(ExtraColumn, Vec<f64>)>,
    /// Per record, whether it has the table's width.
    width_ok: Vec<bool>,
    /// The distinct non-empty entity values, trimmed.
    entities: HashSet<&'t str>,
    /// Per record, its year when the time field reads as one ([`whole_year`]), else
    /// [`NO_YEAR`] (missing, not a whole number, or no time column: the serial pass then reads
    /// it and says why).
    years: Vec<i32>,
}

/// [`ParsedExtras::years`] of a record whose year the serial pass reads itself.
const NO_YEAR: i32 = i32::MIN;

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
    let decimal = table.decimal();
    let indices: Vec<usize> = (0..table.columns.len())
        .filter(|&i| roles.role_of(i).is_none())
        .collect();
    // The fields walked, in order: each non-role column, the entity's and the time's.
    let mut walk: Vec<(usize, Walked)> = indices
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, Walked::Column(k)))
        .chain(roles.entity.map(|e| (e, Walked::Entity)))
        .chain(roles.time.map(|t| (t, Walked::Time)))
        .collect();
    walk.sort_unstable();
    // Zeroed, not filled: fresh zero pages cost nothing until written, and every value is
    // written below by the thread of its part (filling them here was a serial pass over the
    // columns before the threads started).
    let mut values: Vec<Vec<f64>> = indices.iter().map(|_| vec![0.0; n]).collect();
    let width = table.columns.len();
    let mut width_ok = vec![false; n];
    let mut years = vec![NO_YEAR; n];
    // Per column: (numbers, present) over the whole table.
    let mut counts = vec![(0usize, 0usize); indices.len()];
    let part_len = n.div_ceil(threads).max(1);
    // Each part's rows of every column, as disjoint mutable slices.
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
    let read_part = |first: usize, part: PartRows| {
        let PartRows {
            mut columns,
            width_ok,
            years,
        } = part;
        let mut counts = vec![(0usize, 0usize); indices.len()];
        let mut entities: HashSet<&'t str> = HashSet::new();
        let mut previous_entity: Option<&str> = None;
        // Every record is walked, with or without non-role columns.
        let rows = width_ok.len();
        for (row, rec) in table.records.iter_from(first).take(rows).enumerate() {
            // The fields walked once, in order (`walk` rises): a record read by lines finds
            // each field by scanning its text.
            let mut fields = rec.fields();
            // Fields taken so far; `None` once the record has run out (it is then short).
            let mut at = Some(0usize);
            for &(i, walked) in &walk {
                let raw = at.and_then(|at| fields.nth(i - at));
                at = raw.map(|_| i + 1);
                let k = match walked {
                    Walked::Column(k) => k,
                    Walked::Entity => {
                        // Rows of one entity usually follow each other: one hash per run.
                        let entity = raw.map(str::trim).unwrap_or("");
                        if !entity.is_empty() && previous_entity != Some(entity) {
                            entities.insert(entity);
                        }
                        previous_entity = Some(entity);
                        continue;
                    }
                    Walked::Time => {
                        // As `record_key` reads a year (a number is never a missing token).
                        years[row] = raw
                            .and_then(|raw| whole_year(raw, decimal))
                            .map_or(NO_YEAR, |y| y as i32);
                        continue;
                    }
                };
                let Some(raw) = raw else {
                    columns[k][row] = f64::NAN;
                    continue;
                };
                // A number is never a missing token ("-", ".", "na", …), so the token check
                // is left for what does not parse (it was a second scan of every number).
                columns[k][row] = match parse_number(raw, decimal) {
                    Some(v) => {
                        counts[k].0 += 1;
                        counts[k].1 += 1;
                        v
                    }
                    None if is_missing_token(raw) => f64::NAN,
                    None => {
                        counts[k].1 += 1;
                        NOT_A_NUMBER
                    }
                };
            }
            // A record that ran out before a column has fewer fields than the header.
            width_ok[row] = at.is_some_and(|at| at + fields.count() == width);
        }
        (counts, entities)
    };
    // Per part: each column's (numbers, present), and the entities listed.
    let part_counts: Vec<PartRead> = if threads > 1 {
        std::thread::scope(|scope| {
            let read_part = &read_part;
            let handles: Vec<_> = parts
                .into_iter()
                .enumerate()
                .map(|(p, columns)| scope.spawn(move || read_part(p * part_len, columns)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        })
    } else {
        parts
            .into_iter()
            .enumerate()
            .map(|(p, columns)| read_part(p * part_len, columns))
            .collect()
    };
    let mut entities: HashSet<&str> = HashSet::new();
    for (part, part_entities) in part_counts {
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

/// Threads that read a table of `rows` records: one in the page (wasm32 has none to spare) and
/// for tables below 100,000 rows (a thread costs more than it saves), else the machine's cores
/// up to 8.
fn parse_threads(rows: usize) -> usize {
    if cfg!(target_arch = "wasm32") || rows < 100_000 {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// The column names for an error message: the first 20, then how many more (a header may have
/// hundreds of thousands of names).
/// A name not in `taken`: `name`, else `name (stem)`, else `name (file)`, else `name (stem) 2`, 3, …
/// (two characteristics files may share a stem, as `a/x.csv` and `b/x.csv`, or a name).
fn unique_name(name: &str, file: &str, taken: &HashSet<String>) -> String {
    if !taken.contains(name) {
        return name.to_owned();
    }
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base);
    for candidate in [format!("{name} ({stem})"), format!("{name} ({file})")] {
        if !taken.contains(&candidate) {
            return candidate;
        }
    }
    (2u64..)
        .map(|k| format!("{name} ({stem}) {k}"))
        .find(|c| !taken.contains(c))
        .expect("an unbounded sequence has a free name")
}

fn missing_role(table: &RawTable, role: Role) -> IngestError {
    IngestError::MissingRole {
        file: table.file.clone(),
        role,
        columns: ColumnNames::of(&table.columns),
    }
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
    let any_outcome = roles.iter().any(ColumnRoles::has_outcome);
    let kinds: Vec<TableKind> = roles
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if r.has_outcome() || (!any_outcome && i == 0) {
                TableKind::Main
            } else {
                TableKind::Characteristics
            }
        })
        .collect();
    for (t, (table, r)) in tables.iter().zip(roles).enumerate() {
        if let Some(bad) = Role::ALL
            .into_iter()
            .filter_map(|role| r.get(role))
            .find(|&i| i >= table.columns.len())
        {
            return Err(IngestError::UnknownColumn {
                column: format!("#{}", bad + 1),
                columns: ColumnNames::of(&table.columns),
            });
        }
        let mut by_column: HashMap<usize, Role> = HashMap::new();
        for role in Role::ALL {
            if let Some(i) = r.get(role) {
                if let Some(first) = by_column.insert(i, role) {
                    return Err(IngestError::SameColumnForTwoRoles {
                        file: table.file.clone(),
                        column: table.columns[i].clone(),
                        first,
                        second: role,
                    });
                }
            }
        }
        if r.entity.is_none() {
            return Err(missing_role(table, Role::Entity));
        }
        if kinds[t] == TableKind::Main && r.time.is_none() && !options.time_optional {
            return Err(missing_role(table, Role::Time));
        }
    }
    let main_idx: Vec<usize> = (0..tables.len())
        .filter(|&t| kinds[t] == TableKind::Main)
        .collect();
    let has_births = main_idx.iter().any(|&t| roles[t].births.is_some());
    let has_deaths_col = main_idx.iter().any(|&t| roles[t].deaths.is_some());
    let has_rate_col = main_idx.iter().any(|&t| roles[t].rate.is_some());
    if (has_deaths_col || has_rate_col) && !has_births {
        return Err(missing_role(tables[main_idx[0]], Role::Births));
    }
    let deaths_derived = !has_deaths_col && has_rate_col;

    // The main tables' other columns, parsed (and their entities listed) in one walk.
    let parsed: Vec<ParsedExtras> = main_idx
        .iter()
        .map(|&t| parsed_extra_columns(tables[t], &roles[t]))
        .collect();
    let codes = CutCodes::embedded();
    let chile_codes = match options.code_system {
        CodeSystem::ChileCut => true,
        CodeSystem::Generic => false,
        CodeSystem::Auto => looks_like_cut(&parsed, codes),
    };
    let normalise = |raw: &str| -> (String, bool) {
        if chile_codes {
            codes.normalise(raw)
        } else {
            (raw.trim().to_owned(), false)
        }
    };
    // The entity of a record, normalised; an unknown code when entities are CUT codes.
    let entity_of = |raw: &str| -> Result<(String, bool), ExclusionReason> {
        let (entity, recoded) = normalise(raw);
        if chile_codes && !codes.contains(&entity) {
            return Err(ExclusionReason::UnknownCode {
                code: raw.trim().to_owned(),
            });
        }
        Ok((entity, recoded))
    };

    let mut report = IngestReport::default();
    let exclude = |report: &mut IngestReport, file: &str, line: u64, kind: ExclusionReason| {
        report.excluded.push(Exclusion {
            file: file.to_owned(),
            line,
            reason: kind.to_string(),
            kind,
        });
    };

    // Covariate and text columns of the main tables, matched by name across stacked files.
    // Each column's slot is found once per table through a map (not per cell: that made ingest
    // O(rows × columns²)).
    let mut numeric_names: Vec<String> = Vec::new();
    let mut text_names: Vec<String> = Vec::new();
    let mut main_width_ok: Vec<Vec<bool>> = Vec::with_capacity(main_idx.len());
    let mut main_years: Vec<Vec<i32>> = Vec::with_capacity(main_idx.len());
    let (main_extras, mut main_values): (Vec<Vec<ExtraColumn>>, Vec<Vec<Vec<f64>>>) = parsed
        .into_iter()
        .map(|p| {
            main_width_ok.push(p.width_ok);
            main_years.push(p.years);
            p.columns.into_iter().unzip::<_, _, Vec<_>, Vec<_>>()
        })
        .unzip();
    let mut numeric_slot: HashMap<String, usize> = HashMap::new();
    let mut text_slot: HashMap<String, usize> = HashMap::new();
    let main_slots: Vec<Vec<usize>> = main_extras
        .iter()
        .map(|extras| {
            extras
                .iter()
                .map(|c| {
                    let (list, slot_of) = if c.numeric {
                        (&mut numeric_names, &mut numeric_slot)
                    } else {
                        (&mut text_names, &mut text_slot)
                    };
                    *slot_of.entry(c.name.clone()).or_insert_with(|| {
                        list.push(c.name.clone());
                        list.len() - 1
                    })
                })
                .collect()
        })
        .collect();

    // The panel's columns, filled row by row with no allocation per row. Each
    // distinct entity is normalised and interned once: its id serves the duplicate check.
    let main_records: usize = main_idx.iter().map(|&t| tables[t].records.len()).sum();
    let mut rows = PanelBuilder::new(
        numeric_names.clone(),
        text_names.clone(),
        has_births,
        has_deaths_col || has_rate_col,
        main_records,
    );
    // Raw entity as written → its id and whether it was recoded, or why it is not an entity.
    let mut raw_entities: HashMap<&str, KnownEntity> = HashMap::new();
    // Duplicate (entity, time) keys. While every key is above the one before (ids are given in
    // order of appearance, so data grouped by entity with rising times — the usual layout —
    // stays so) no key can repeat and no map is needed; the first key that is not makes the map
    // of every key so far → its first row, kept from then on. (A map of every row
    // was a tenth of the build and ~70 MB for a million rows.)
    let mut last_key: Option<(u32, i64)> = None;
    let mut seen: Option<HashMap<(u32, i64), usize>> = None;
    // Scratch of one row's covariates, reused.
    let mut numeric: Vec<Option<f64>> = Vec::with_capacity(numeric_names.len());
    let mut text: Vec<Option<&str>> = Vec::with_capacity(text_names.len());
    let mut warnings: Vec<CellWarning> = Vec::new();
    for (m, &t) in main_idx.iter().enumerate() {
        let table = &tables[t];
        let r = &roles[t];
        // File ids are the main tables' order: `m`.
        let file = rows.add_file(&table.file);
        let decimal = table.decimal();
        let excluded_before = report.excluded.len();
        let extras = &main_extras[m];
        let slots = &main_slots[m];
        let values = &mut main_values[m];
        let width_ok = &main_width_ok[m];
        let years = &main_years[m];
        // The numeric slots of this table, each with the first of its columns (a name may
        // come twice): that column's parsed values are overwritten, in place, by the values of
        // the rows kept (row `kept` from record `read ≥ kept`, read before it is written).
        let mut owners: Vec<(usize, usize)> = Vec::new();
        let mut owned = vec![false; numeric_names.len()];
        for (k, (c, &slot)) in extras.iter().zip(slots).enumerate() {
            if c.numeric && !std::mem::replace(&mut owned[slot], true) {
                owners.push((slot, k));
            }
        }
        let mut kept = 0usize;
        let mut last_entity: Option<(&str, KnownEntity)> = None;
        for (read, rec) in table.records.iter().enumerate() {
            let field = |i: usize| rec.field(i).unwrap_or("");
            let col = |i: usize| table.columns[i].clone();
            let known = Known {
                has_width: width_ok.get(read).copied(),
                year: years
                    .get(read)
                    .filter(|&&y| y != NO_YEAR)
                    .map(|&y| i64::from(y)),
            };
            let (raw_entity, time) = match record_key(table, &rec, r, known) {
                // no time column (a cross-section, `time_optional`): one period, time 0
                Ok((entity, time)) => (entity, time.unwrap_or(0)),
                Err(kind) => {
                    exclude(&mut report, &table.file, rec.line, kind);
                    continue;
                }
            };
            // Counts: births, deaths, rate.
            // Counts are in [0, MAX_COUNT] and a rate is non-negative; both are finite
            // (parse_number never returns a non-finite value). Counts need not be whole: deaths
            // derived from a published rate (rate · births / 1000), as in the page's own
            // downloads, are fractional, and must read back unchanged.
            let count = |role: Role| -> Result<Option<f64>, ExclusionReason> {
                let Some(i) = r.get(role) else {
                    return Ok(None);
                };
                let raw = field(i);
                if is_missing_token(raw) {
                    return Err(ExclusionReason::MissingValue { column: col(i) });
                }
                let is_rate = role == Role::Rate;
                match parse_number(raw, decimal) {
                    None => Err(ExclusionReason::NonNumeric {
                        column: col(i),
                        value: raw.trim().to_owned(),
                    }),
                    Some(v) if v < 0.0 && is_rate => Err(ExclusionReason::NegativeRate {
                        column: col(i),
                        value: v,
                    }),
                    Some(v) if v < 0.0 => Err(ExclusionReason::NegativeCount {
                        column: col(i),
                        value: v,
                    }),
                    Some(v) if !is_rate && v > MAX_COUNT => Err(ExclusionReason::CountTooLarge {
                        column: col(i),
                        value: raw.trim().to_owned(),
                    }),
                    Some(v) => Ok(Some(v)),
                }
            };
            let counts = (|| -> Result<(Option<f64>, Option<f64>), ExclusionReason> {
                let births = count(Role::Births)?;
                let deaths = count(Role::Deaths)?;
                let rate = if deaths.is_none() {
                    count(Role::Rate)?
                } else {
                    None
                };
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
            })();
            let (births, deaths) = match counts {
                Ok(c) => c,
                Err(kind) => {
                    exclude(&mut report, &table.file, rec.line, kind);
                    continue;
                }
            };
            let known = match &last_entity {
                Some((raw, known)) if *raw == raw_entity => known.clone(),
                _ => {
                    let known = raw_entities
                        .entry(raw_entity)
                        .or_insert_with(|| {
                            entity_of(raw_entity)
                                .map(|(entity, recoded)| (rows.entity_id(&entity), recoded))
                        })
                        .clone();
                    last_entity = Some((raw_entity, known.clone()));
                    known
                }
            };
            let (entity_id, recoded) = match known {
                Ok(e) => e,
                Err(kind) => {
                    exclude(&mut report, &table.file, rec.line, kind);
                    continue;
                }
            };
            numeric.clear();
            numeric.resize(numeric_names.len(), None);
            text.clear();
            text.resize(text_names.len(), None);
            warnings.clear();
            for (k, (c, &slot)) in extras.iter().zip(slots).enumerate() {
                if c.numeric {
                    match values[k][read] {
                        v if v.is_nan() => {}
                        v if v == NOT_A_NUMBER => warnings.push(CellWarning {
                            file: table.file.clone(),
                            line: rec.line,
                            column: c.name.clone(),
                            value: field(c.index).trim().to_owned(),
                        }),
                        v => numeric[slot] = Some(v),
                    }
                    continue;
                }
                let raw = field(c.index);
                if !raw.trim().is_empty() {
                    text[slot] = Some(raw.trim());
                }
            }
            let key = (entity_id, time);
            let first_of_key = match &mut seen {
                None if last_key.is_none_or(|last| key > last) => {
                    last_key = Some(key);
                    None
                }
                _ => {
                    let map = seen.get_or_insert_with(|| {
                        let mut map = HashMap::with_capacity(main_records);
                        map.extend((0..rows.len()).map(|i| (rows.key_of(i), i)));
                        map
                    });
                    // One hash per row: the slot is taken now when the key is new.
                    match map.entry(key) {
                        Entry::Occupied(first) => Some(*first.get()),
                        Entry::Vacant(slot) => {
                            slot.insert(rows.len());
                            None
                        }
                    }
                }
            };
            if let Some(first) = first_of_key {
                let first_table = main_idx[rows.file_of(first) as usize];
                // A row of another file with the counts this one lacks (births in one file,
                // deaths in another, as the ministry publishes them): the two are one row.
                let existing = rows.row(first);
                let complementary = first_table != t
                    && ((existing.births.is_none() && births.is_some() && deaths.is_none())
                        || (existing.deaths.is_none() && deaths.is_some() && births.is_none()));
                if complementary {
                    let merged_births = existing.births.or(births);
                    let merged_deaths = existing.deaths.or(deaths);
                    if let (Some(d), Some(b)) = (merged_deaths, merged_births) {
                        if d > b {
                            exclude(
                                &mut report,
                                &table.file,
                                rec.line,
                                ExclusionReason::DeathsExceedBirths {
                                    deaths: d,
                                    births: b,
                                },
                            );
                            continue;
                        }
                    }
                    let (kept_file, kept_line) = (existing.file.to_owned(), existing.line);
                    let entity = existing.entity.to_owned();
                    rows.set_counts(first, merged_births, merged_deaths);
                    // A covariate both files give must agree; otherwise the first file's value
                    // is kept and the disagreement reported with both places.
                    let mut conflict = |column: &str, kept: String, other: String| {
                        report.conflicts.push(CellConflict {
                            column: column.to_owned(),
                            entity: entity.clone(),
                            time,
                            kept_file: kept_file.clone(),
                            kept_line,
                            kept_value: kept,
                            other_file: table.file.clone(),
                            other_line: rec.line,
                            other_value: other,
                        });
                    };
                    for (slot, &value) in numeric.iter().enumerate() {
                        match (rows.row(first).numeric(slot), value) {
                            (Some(a), Some(b)) if a != b => {
                                conflict(&numeric_names[slot], a.to_string(), b.to_string())
                            }
                            (None, v) => rows.set_numeric(first, slot, v),
                            _ => {}
                        }
                    }
                    for (slot, &value) in text.iter().enumerate() {
                        match (rows.row(first).text(slot), value) {
                            (Some(a), Some(b)) if a != b => {
                                let a = a.to_owned();
                                conflict(&text_names[slot], a, b.to_owned())
                            }
                            (None, v) => rows.set_text(first, slot, v),
                            _ => {}
                        }
                    }
                    report.cell_warnings.append(&mut warnings);
                    report.merged_rows += 1;
                    continue;
                }
                if !options.keep_repeated_keys {
                    let first_line = existing.line;
                    let first_file = (first_table != t).then(|| existing.file.to_owned());
                    let entity = existing.entity.to_owned();
                    exclude(
                        &mut report,
                        &table.file,
                        rec.line,
                        ExclusionReason::DuplicateEntityTime {
                            entity,
                            time,
                            first_line,
                            first_file,
                        },
                    );
                    continue;
                }
            }
            if recoded {
                report.recoded_codes += 1;
            }
            report.cell_warnings.append(&mut warnings);
            let index = rows.push_without_numeric(NewRow {
                entity: entity_id,
                time,
                births,
                deaths,
                file,
                line: rec.line,
            });
            for &(slot, k) in &owners {
                values[k][kept] = numeric[slot].unwrap_or(f64::NAN);
            }
            kept += 1;
            for (slot, &value) in text.iter().enumerate() {
                if value.is_some() {
                    rows.set_text(index, slot, value);
                }
            }
        }
        // This table's covariate columns join the panel's; its rows lack the others.
        for &(slot, k) in &owners {
            let mut column = std::mem::take(&mut values[k]);
            column.truncate(kept);
            rows.append_numeric(slot, column);
        }
        values.clear();
        rows.pad_numeric();
        let excluded = report.excluded.len() - excluded_before;
        report
            .files
            .push(file_report(table, r, "main", excluded, None));
    }

    // Characteristics files.
    // (entity, time) → its rows (more than one only with `keep_repeated_keys`)
    let mut row_index: HashMap<(u32, i64), Vec<usize>> = HashMap::new();
    let mut by_entity: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let has_characteristics = kinds.contains(&TableKind::Characteristics);
    drop(seen);
    for i in (0..rows.len()).filter(|_| has_characteristics) {
        let key = rows.key_of(i);
        row_index.entry(key).or_default().push(i);
        by_entity.entry(key.0).or_default().push(i);
    }
    for t in (0..tables.len()).filter(|&t| kinds[t] == TableKind::Characteristics) {
        let table = &tables[t];
        let r = &roles[t];
        let decimal = table.decimal();
        let excluded_before = report.excluded.len();
        let extras = extra_columns(table, r);
        // Columns of this file, renamed if a column of that name exists already.
        let mut slots: Vec<(usize, bool)> = Vec::new();
        let mut taken: HashSet<String> = rows
            .numeric_names()
            .iter()
            .chain(rows.text_names())
            .cloned()
            .collect();
        for c in &extras {
            let name = unique_name(&c.name, &table.file, &taken);
            taken.insert(name.clone());
            let slot = if c.numeric {
                rows.add_numeric_column(name)
            } else {
                rows.add_text_column(name)
            };
            slots.push((slot, c.numeric));
        }
        let mut seen_keys: HashMap<(String, Option<i64>), u64> = HashMap::new();
        for rec in table.records.iter() {
            let field = |i: usize| rec.field(i).unwrap_or("");
            let (raw_entity, time) = match record_key(table, &rec, r, Known::default()) {
                Ok(key) => key,
                Err(kind) => {
                    exclude(&mut report, &table.file, rec.line, kind);
                    continue;
                }
            };
            let (entity, recoded) = match entity_of(raw_entity) {
                Ok(e) => e,
                Err(kind) => {
                    exclude(&mut report, &table.file, rec.line, kind);
                    continue;
                }
            };
            if let Some(&first_line) = seen_keys.get(&(entity.clone(), time)) {
                let kind = match time {
                    Some(time) => ExclusionReason::DuplicateEntityTime {
                        entity,
                        time,
                        first_line,
                        first_file: None,
                    },
                    None => ExclusionReason::DuplicateEntity { entity, first_line },
                };
                exclude(&mut report, &table.file, rec.line, kind);
                continue;
            }
            seen_keys.insert((entity.clone(), time), rec.line);
            let id = rows.find_entity(&entity);
            let targets: Vec<usize> = match (id, time) {
                (None, _) => Vec::new(),
                (Some(id), Some(t)) => row_index.get(&(id, t)).cloned().unwrap_or_default(),
                (Some(id), None) => by_entity.get(&id).cloned().unwrap_or_default(),
            };
            if targets.is_empty() {
                exclude(
                    &mut report,
                    &table.file,
                    rec.line,
                    ExclusionReason::NotJoined { entity, time },
                );
                continue;
            }
            if recoded {
                report.recoded_codes += 1;
            }
            for (c, &(slot, numeric)) in extras.iter().zip(&slots) {
                let raw = field(c.index);
                if is_missing_token(raw) && numeric {
                    continue;
                }
                if numeric {
                    match parse_number(raw, decimal) {
                        Some(v) => targets
                            .iter()
                            .for_each(|&i| rows.set_numeric(i, slot, Some(v))),
                        None => report.cell_warnings.push(CellWarning {
                            file: table.file.clone(),
                            line: rec.line,
                            column: c.name.clone(),
                            value: raw.trim().to_owned(),
                        }),
                    }
                } else if !raw.trim().is_empty() {
                    let v = raw.trim();
                    targets
                        .iter()
                        .for_each(|&i| rows.set_text(i, slot, Some(v)));
                }
            }
        }
        let excluded = report.excluded.len() - excluded_before;
        let join = if r.time.is_some() {
            "entity and time"
        } else {
            "entity"
        };
        report.files.push(file_report(
            table,
            r,
            "characteristics",
            excluded,
            Some(join),
        ));
    }

    report.rows_read = tables.iter().map(|t| t.records.len()).sum();
    report.rows_excluded = report.excluded.len();
    report.rows_used = report.rows_read - report.rows_excluded;
    report
        .excluded
        .sort_by(|a, b| a.file.cmp(&b.file).then(a.line.cmp(&b.line)));
    if rows.is_empty() {
        let first = report.excluded.first();
        return Err(IngestError::NoUsableRows {
            file: tables[main_idx[0]].file.clone(),
            rows_read: report.rows_read,
            first_line: first.map(|e| e.line).unwrap_or(0),
            first_reason: first.map(|e| e.kind.clone()),
        });
    }
    let first_main = main_idx[0];
    Ok(rows.finish(PanelMeta {
        entity_column: tables[first_main].columns[roles[first_main].entity.expect("checked")]
            .clone(),
        time_column: roles[first_main]
            .time
            .map_or_else(String::new, |t| tables[first_main].columns[t].clone()),
        deaths_derived,
        chile_codes,
        report,
    }))
}

/// The raw entity and the year of a record, or why the record cannot be used: a wrong number of
/// fields, a missing code, a missing or non-integer year (when the table has a time column).
/// `known`: what [`parsed_extra_columns`] found of the record already; the rest is read here.
fn record_key<'a>(
    table: &RawTable,
    rec: &RawRecord<'a>,
    roles: &ColumnRoles,
    known: Known,
) -> Result<(&'a str, Option<i64>), ExclusionReason> {
    let Known { has_width, year } = known;
    if let Some(q) = table.unterminated_quote {
        if q.record_line == rec.line {
            return Err(ExclusionReason::UnterminatedQuote {
                quote_line: q.quote_line,
                lines_swallowed: q.lines_swallowed,
            });
        }
    }
    let width = table.columns.len();
    if !has_width.unwrap_or_else(|| rec.len() == width) {
        return Err(ExclusionReason::WrongFieldCount {
            expected: width,
            found: rec.len(),
        });
    }
    let entity_i = roles
        .entity
        .expect("every table has an entity column (checked)");
    let raw_entity = rec.field(entity_i).unwrap_or("");
    if raw_entity.trim().is_empty() {
        return Err(ExclusionReason::MissingEntity {
            column: table.columns[entity_i].clone(),
        });
    }
    let Some(time_i) = roles.time else {
        return Ok((raw_entity, None));
    };
    if let Some(year) = year {
        return Ok((raw_entity, Some(year)));
    }
    let raw_time = rec.field(time_i).unwrap_or("");
    if is_missing_token(raw_time) {
        return Err(ExclusionReason::MissingTime {
            column: table.columns[time_i].clone(),
        });
    }
    match whole_year(raw_time, table.decimal()) {
        Some(year) => Ok((raw_entity, Some(year))),
        None => Err(ExclusionReason::NotAYear {
            column: table.columns[time_i].clone(),
            value: raw_time.trim().to_owned(),
        }),
    }
}

/// A time field read as a year: a whole number below a million in magnitude.
fn whole_year(raw: &str, decimal: Decimal) -> Option<i64> {
    parse_number(raw, decimal)
        .filter(|v| v.fract() == 0.0 && v.abs() < 1e6)
        .map(|v| v as i64)
}

/// What the walk of [`parsed_extra_columns`] found of a record (all `None`: read it).
#[derive(Debug, Clone, Copy, Default)]
struct Known {
    /// Whether the record has the table's width.
    has_width: Option<bool>,
    /// Its year, when its time field reads as one.
    year: Option<i64>,
}

fn file_report(
    table: &RawTable,
    r: &ColumnRoles,
    kind: &'static str,
    excluded: usize,
    join: Option<&'static str>,
) -> FileReport {
    let roles = Role::ALL
        .into_iter()
        .filter_map(|role| {
            r.get(role)
                .map(|i| (role.label(), table.columns[i].clone()))
        })
        .collect();
    FileReport {
        file: table.file.clone(),
        kind,
        delimiter: delimiter_label(table.dialect.delimiter),
        decimal: table.dialect.decimal.as_char().to_string(),
        encoding: table.encoding.label(),
        has_header: table.dialect.has_header,
        physical_lines: table.physical_lines,
        metadata_lines: table.metadata.clone(),
        rows_read: table.records.len(),
        rows_used: table.records.len() - excluded,
        rows_excluded: excluded,
        roles,
        join,
    }
}

/// True when at least 80% of the distinct non-empty entity values of the main tables are CUT
/// codes after normalisation; the values as the walk that parsed each main table listed them.
fn looks_like_cut(parsed: &[ParsedExtras], codes: &CutCodes) -> bool {
    let distinct: HashSet<&str> = parsed
        .iter()
        .flat_map(|p| p.entities.iter().copied())
        .collect();
    if distinct.is_empty() {
        return false;
    }
    let known = distinct
        .iter()
        .filter(|v| codes.contains(&codes.normalise(v).0))
        .count();
    known * 5 >= distinct.len() * 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a parse gives, comparable: each column's index, name, kind and value bits.
    fn summary(parsed: Vec<(ExtraColumn, Vec<f64>)>) -> Vec<(usize, String, bool, Vec<u64>)> {
        parsed
            .into_iter()
            .map(|(c, v)| {
                (
                    c.index,
                    c.name,
                    c.numeric,
                    v.iter().map(|x| x.to_bits()).collect(),
                )
            })
            .collect()
    }

    proptest! {
        /// Read in parts on several threads, the columns are the one-thread reading's, for
        /// numbers, missing tokens, text and short records, whatever the parts' sizes.
        #[test]
        fn threads_read_the_columns_of_one_thread(
            cells in proptest::collection::vec(
                prop::sample::select(vec!["1", "2.5", "", "NA", "-", "x", "1e3", "3,5", "\"7,5\""]),
                0..120,
            ),
            // Up to 7 fields a record against the header's 5: short and long records.
            width in 1usize..7,
            threads in 2usize..6,
            entity in 0usize..5,
        ) {
            let mut text = String::from("id,a,b,c,d\n");
            for (i, row) in cells.chunks(width).enumerate() {
                // Runs of one entity, and now and then none.
                let id = if i % 7 == 6 { String::new() } else { (i / 3).to_string() };
                text.push_str(&format!("{id},{}\n", row.join(",")));
            }
            let table = RawTable::from_bytes("x.csv", text.as_bytes()).unwrap();
            let time = (entity + 1) % 5;
            let roles = ColumnRoles { entity: Some(entity), time: Some(time), ..ColumnRoles::default() };
            let one = parsed_extra_columns_on(&table, &roles, 1);
            let many = parsed_extra_columns_on(&table, &roles, threads);
            prop_assert_eq!(summary(many.columns), summary(one.columns));
            prop_assert_eq!(&many.width_ok, &one.width_ok);
            prop_assert_eq!(&many.entities, &one.entities);
            // The widths found on the walk are the records' field counts against the header's.
            let counted: Vec<bool> = table.records.iter().map(|r| r.len() == 5).collect();
            prop_assert_eq!(one.width_ok, counted);
            // The entities listed on the walk are the entity column's distinct non-empty values.
            let listed: HashSet<&str> = table
                .records
                .iter()
                .filter_map(|r| r.field(entity).map(str::trim).filter(|e| !e.is_empty()))
                .collect();
            prop_assert_eq!(one.entities, listed);
            // The years read on the walk are the time field's whole numbers, as record_key
            // reads them.
            prop_assert_eq!(&many.years, &one.years);
            let years: Vec<i32> = table
                .records
                .iter()
                .map(|r| {
                    r.field(time)
                        .and_then(|f| parse_number(f, table.decimal()))
                        .filter(|v| v.fract() == 0.0 && v.abs() < 1e6)
                        .map_or(NO_YEAR, |v| v as i32)
                })
                .collect();
            prop_assert_eq!(one.years, years);
        }
    }
}
