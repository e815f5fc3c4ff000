//! The validated long panel: one row per entity and time, with counts and covariates.
//!
//! Stored by column (a struct per row — an entity `String`, a `Vec` of covariates,
//! a `Vec` of texts — held ~250 bytes per row and made the kernel zero half a gigabyte for a
//! 128 MB file): entity ids into one table of distinct entity strings, the times, the counts
//! and each numeric covariate as `f64` columns, each text column as ids into its own table of
//! distinct strings (region names repeat), the file as an id into a small table and the line.
//! No allocation per row. Rows are read through a borrowed view, [`Row`], from
//! [`Panel::rows`] and [`Panel::row`]; panels are made by [`PanelBuilder`].
//!
//! **Missing numbers are NaN inside the columns.** This is sound because no input value can
//! be NaN: `ingest::number::parse_number` never returns a non-finite value and derived deaths
//! (`rate · births / 1000`) are products of finite numbers; every accessor turns NaN back into
//! `None`, so NaN never leaves this module.

use crate::report::IngestReport;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use std::collections::HashMap;

/// The missing marker of a text column's ids.
const NO_TEXT: u32 = u32::MAX;

fn number(v: f64) -> Option<f64> {
    (!v.is_nan()).then_some(v)
}

fn stored(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

/// Ids into a table of distinct strings, `NO_TEXT` for missing.
#[derive(Debug, Clone, Default)]
struct TextColumn {
    ids: Vec<u32>,
    values: Vec<String>,
}

impl TextColumn {
    fn get(&self, row: usize) -> Option<&str> {
        match self.ids.get(row).copied() {
            None | Some(NO_TEXT) => None,
            Some(id) => self.values.get(id as usize).map(String::as_str),
        }
    }
}

/// Pairs of covariate columns (normalised names) read as the range of whole deaths of each row:
/// the least and greatest counts consistent with the sources ([`Panel::deaths_range`]).
pub const DEATHS_RANGE_COLUMNS: [(&str, &str); 3] = [
    ("defunciones_min", "defunciones_max"),
    ("deaths_low", "deaths_high"),
    ("deaths_min", "deaths_max"),
];

/// The range of each row's deaths ([`Panel::deaths_range`]).
#[derive(Debug, Clone, PartialEq)]
pub struct DeathsRange {
    /// The columns it was read from.
    pub low_column: String,
    pub high_column: String,
    /// Per row, `[low, high]` where the row has a consistent range.
    rows: Vec<Option<[f64; 2]>>,
    /// Rows whose range does not contain their deaths (taken as exact).
    pub inconsistent: Vec<usize>,
}

impl DeathsRange {
    /// The range of row `index`, if it has one.
    pub fn of_row(&self, index: usize) -> Option<[f64; 2]> {
        self.rows.get(index).copied().flatten()
    }

    /// The rows whose range holds more than one count.
    pub fn ranged_rows(&self) -> usize {
        self.rows
            .iter()
            .flatten()
            .filter(|[lo, hi]| hi > lo)
            .count()
    }
}

/// One entity-time observation of a [`Panel`], borrowed from it.
#[derive(Clone, Copy)]
pub struct Row<'a> {
    /// Entity code (a 5-character CUT code for Chilean communes).
    pub entity: &'a str,
    /// Year.
    pub time: i64,
    /// Live births; `None` when the data have no births column.
    pub births: Option<f64>,
    /// Infant deaths, counted or derived (see [`Panel::deaths_derived`]).
    pub deaths: Option<f64>,
    /// File and 1-based line the row came from.
    pub file: &'a str,
    pub line: u64,
    panel: &'a Panel,
    index: usize,
}

impl<'a> Row<'a> {
    /// Infant mortality rate per 1,000 live births, `1000 · deaths / births`; `None` without
    /// births or deaths, or with zero births.
    pub fn rate_per_1000(&self) -> Option<f64> {
        match (self.deaths, self.births) {
            (Some(d), Some(b)) if b > 0.0 => Some(1000.0 * d / b),
            _ => None,
        }
    }

    /// Numeric covariate `slot` (in the order of [`Panel::numeric_names`]); `None` is missing.
    pub fn numeric(&self, slot: usize) -> Option<f64> {
        self.panel.numeric_value(slot, self.index)
    }

    /// Text attribute `slot` (in the order of [`Panel::text_names`]); `None` is missing.
    pub fn text(&self, slot: usize) -> Option<&'a str> {
        self.panel.text.get(slot)?.get(self.index)
    }

    /// Position of the row in its panel.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Every numeric covariate of the row, in order.
    pub fn numerics(&self) -> impl Iterator<Item = Option<f64>> + 'a {
        let (panel, index) = (self.panel, self.index);
        (0..panel.numeric.len()).map(move |slot| panel.numeric_value(slot, index))
    }

    /// Every text attribute of the row, in order.
    pub fn texts(&self) -> impl Iterator<Item = Option<&'a str>> + 'a {
        let (panel, index) = (self.panel, self.index);
        panel.text.iter().map(move |c| c.get(index))
    }
}

impl std::fmt::Debug for Row<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Row")
            .field("entity", &self.entity)
            .field("time", &self.time)
            .field("births", &self.births)
            .field("deaths", &self.deaths)
            .field("numeric", &self.numerics().collect::<Vec<_>>())
            .field("text", &self.texts().collect::<Vec<_>>())
            .field("file", &self.file)
            .field("line", &self.line)
            .finish()
    }
}

/// Two rows are equal when every value is (their panels and positions may differ).
impl PartialEq for Row<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.entity == other.entity
            && self.time == other.time
            && self.births == other.births
            && self.deaths == other.deaths
            && self.file == other.file
            && self.line == other.line
            && self.numerics().eq(other.numerics())
            && self.texts().eq(other.texts())
    }
}

/// Serialised as the row struct it replaced (`entity`, `time`, `births`, `deaths`, `numeric`,
/// `text`, `file`, `line`).
impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("PanelRow", 8)?;
        st.serialize_field("entity", self.entity)?;
        st.serialize_field("time", &self.time)?;
        st.serialize_field("births", &self.births)?;
        st.serialize_field("deaths", &self.deaths)?;
        st.serialize_field("numeric", &self.numerics().collect::<Vec<_>>())?;
        st.serialize_field("text", &self.texts().collect::<Vec<_>>())?;
        st.serialize_field("file", self.file)?;
        st.serialize_field("line", &self.line)?;
        st.end()
    }
}

/// Validated data, sorted by entity then time, with the report of what was read.
#[derive(Debug, Clone)]
pub struct Panel {
    /// Distinct entities, ascending: ids are ranks, so comparing ids compares entities.
    entities: Vec<String>,
    entity: Vec<u32>,
    time: Vec<i64>,
    /// One value per row when the panel has births (deaths), else empty; NaN is missing.
    births: Vec<f64>,
    deaths: Vec<f64>,
    /// One column per [`Panel::numeric_names`]; NaN is missing.
    numeric: Vec<Vec<f64>>,
    /// One column per [`Panel::text_names`].
    text: Vec<TextColumn>,
    files: Vec<String>,
    file: Vec<u32>,
    /// 1-based physical lines: `u64`, as the ingest counts them (a file may exceed 4 G lines).
    line: Vec<u64>,
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

/// Two panels are equal when their rows, column names, flags and reports are.
impl PartialEq for Panel {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self.entity_column == other.entity_column
            && self.time_column == other.time_column
            && self.numeric_names == other.numeric_names
            && self.text_names == other.text_names
            && self.has_births == other.has_births
            && self.has_deaths == other.has_deaths
            && self.deaths_derived == other.deaths_derived
            && self.chile_codes == other.chile_codes
            && self.report == other.report
            && self.rows().eq(other.rows())
    }
}

/// Serialised as it was when rows were structs: `rows` (see [`Row`]'s `Serialize`), then the
/// named fields.
impl Serialize for Panel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Rows<'a>(&'a Panel);
        impl Serialize for Rows<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for row in self.0.rows() {
                    seq.serialize_element(&row)?;
                }
                seq.end()
            }
        }
        let mut st = s.serialize_struct("Panel", 10)?;
        st.serialize_field("rows", &Rows(self))?;
        st.serialize_field("entity_column", &self.entity_column)?;
        st.serialize_field("time_column", &self.time_column)?;
        st.serialize_field("numeric_names", &self.numeric_names)?;
        st.serialize_field("text_names", &self.text_names)?;
        st.serialize_field("has_births", &self.has_births)?;
        st.serialize_field("has_deaths", &self.has_deaths)?;
        st.serialize_field("deaths_derived", &self.deaths_derived)?;
        st.serialize_field("chile_codes", &self.chile_codes)?;
        st.serialize_field("report", &self.report)?;
        st.end()
    }
}

/// `column` at `order` (empty stays empty: a count the panel lacks).
fn pick<T: Copy>(column: &[T], order: &[usize]) -> Vec<T> {
    if column.is_empty() {
        return Vec::new();
    }
    order.iter().map(|&i| column[i]).collect()
}

/// How [`PanelBuilder::finish`] reorders the rows: runs of rows `start..end` laid end to end
/// (rows that come grouped by entity: each run is copied whole), or row by row.
enum RowOrder {
    Runs(Vec<(usize, usize)>),
    Rows(Vec<usize>),
}

/// `column` in `order`, written into `scratch` and swapped with it, so `scratch` comes back
/// holding the old column's buffer for the next column of its type: one spare buffer a type,
/// not a new vector a column (that was the panel again at the peak of a build). An
/// empty column (a count the panel lacks) stays empty.
fn reorder<T: Copy>(column: &mut Vec<T>, order: &RowOrder, scratch: &mut Vec<T>) {
    if column.is_empty() {
        return;
    }
    scratch.clear();
    // Exactly one column: grown by doubling, the spare was a third larger.
    scratch.reserve_exact(column.len());
    match order {
        RowOrder::Runs(runs) => {
            for &(start, end) in runs {
                scratch.extend_from_slice(column.get(start..end).unwrap_or(&[]));
            }
        }
        RowOrder::Rows(rows) => scratch.extend(rows.iter().filter_map(|&i| column.get(i))),
    }
    std::mem::swap(column, scratch);
}

/// Built-in column names always available through [`Panel::numeric_column`].
pub const BUILTIN_COLUMNS: [&str; 3] = ["births", "deaths", "rate"];

impl Panel {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Row `index`. Panics past the last row (as slice indexing does).
    pub fn row(&self, index: usize) -> Row<'_> {
        Row {
            entity: &self.entities[self.entity[index] as usize],
            time: self.time[index],
            births: self.births.get(index).copied().and_then(number),
            deaths: self.deaths.get(index).copied().and_then(number),
            file: &self.files[self.file[index] as usize],
            line: self.line[index],
            panel: self,
            index,
        }
    }

    /// The rows in order (entity, then time).
    pub fn rows(&self) -> impl ExactSizeIterator<Item = Row<'_>> + DoubleEndedIterator + '_ {
        (0..self.len()).map(|i| self.row(i))
    }

    /// The time of every row.
    pub fn time_values(&self) -> &[i64] {
        &self.time
    }

    /// The entity of row `index`.
    pub fn entity(&self, index: usize) -> &str {
        &self.entities[self.entity[index] as usize]
    }

    fn numeric_value(&self, slot: usize, row: usize) -> Option<f64> {
        self.numeric.get(slot)?.get(row).copied().and_then(number)
    }

    fn optional(column: &[f64], n: usize) -> Vec<Option<f64>> {
        if column.is_empty() {
            vec![None; n]
        } else {
            column.iter().copied().map(number).collect()
        }
    }

    /// The rows as the inequality engine reads them (file, line, entity, time, births, deaths,
    /// the range of the deaths), borrowed: the one adaptation of the panel for
    /// `imr_inequality::panel_input`, used by `imr inequality`, the Inequality view and the
    /// Findings.
    pub fn inequality_rows(&self) -> Vec<imr_inequality::panel_input::PanelRowRef<'_>> {
        let range = self.deaths_range();
        self.rows()
            .map(|r| imr_inequality::panel_input::PanelRowRef {
                file: r.file,
                line: r.line,
                entity: r.entity,
                time: r.time,
                births: r.births,
                deaths: r.deaths,
                deaths_range: range.as_ref().and_then(|d| d.of_row(r.index())),
            })
            .collect()
    }

    /// The range of whole deaths each row's count is known within, where the data give one: two
    /// covariate columns named as [`DEATHS_RANGE_COLUMNS`] pairs them (the bundled data's
    /// `defunciones_min` and `defunciones_max`, for deaths reconstructed from a rounded rate). A
    /// row's range counts only when `low ≤ deaths ≤ high` (else it is listed in
    /// [`DeathsRange::inconsistent`] and its deaths are taken as exact); `None` when the data
    /// have no such pair or the deaths are derived from a rate (those carry the rate's rounding
    /// instead).
    pub fn deaths_range(&self) -> Option<DeathsRange> {
        if self.deaths_derived || !self.has_deaths {
            return None;
        }
        let (low_name, high_name) = DEATHS_RANGE_COLUMNS.iter().find_map(|(low, high)| {
            let l = Self::find(&self.numeric_names, low)?;
            let h = Self::find(&self.numeric_names, high)?;
            Some((self.numeric_names[l].clone(), self.numeric_names[h].clone()))
        })?;
        let (low, high) = (
            self.numeric_column(&low_name)?,
            self.numeric_column(&high_name)?,
        );
        let mut rows = vec![None; self.len()];
        let mut inconsistent = Vec::new();
        for r in self.rows() {
            let i = r.index();
            let (Some(d), Some(lo), Some(hi)) = (r.deaths, low[i], high[i]) else {
                continue;
            };
            if 0.0 <= lo && lo <= d && d <= hi {
                rows[i] = Some([lo, hi]);
            } else {
                inconsistent.push(i);
            }
        }
        Some(DeathsRange {
            low_column: low_name,
            high_column: high_name,
            rows,
            inconsistent,
        })
    }

    /// The panel as the models engine reads it: the `columns` of [`imr_models::ModelColumns`]
    /// with the entity, time and input line of every row (the line labels excluded rows). The one
    /// adaptation of the panel for a fit, used by `imr fit`, the Models view and the Findings.
    pub fn model_data(
        &self,
        columns: &imr_models::ModelColumns,
    ) -> Result<imr_models::PanelData, imr_models::MissingColumn> {
        // The panel's entities are ranks of sorted labels, as the engine's are: taken as they are.
        let entities = imr_models::Entities::from_ids(self.entities.clone(), self.entity.clone())
            .unwrap_or_else(|_| {
                let labels: Vec<&str> = (0..self.len()).map(|i| self.entity(i)).collect();
                imr_models::Entities::from_labels(&labels)
            });
        columns.panel_data(
            entities,
            self.time.clone(),
            self.line.iter().map(|&l| l as usize).collect(),
            |name| self.numeric_values(name),
        )
    }

    fn find(names: &[String], name: &str) -> Option<usize> {
        names.iter().position(|n| n == name).or_else(|| {
            let wanted = imr_data::names::normalise_name(name);
            names
                .iter()
                .position(|n| imr_data::names::normalise_name(n) == wanted)
        })
    }

    /// [`Panel::numeric_column`] with NaN for a missing value: a covariate's column is copied as
    /// it is stored (the models engine's form).
    pub fn numeric_values(&self, name: &str) -> Option<Vec<f64>> {
        let missing = |column: &[f64]| {
            if column.is_empty() {
                vec![f64::NAN; self.len()]
            } else {
                column.to_vec()
            }
        };
        match name {
            "births" => return Some(missing(&self.births)),
            "deaths" => return Some(missing(&self.deaths)),
            _ => {}
        }
        if let Some(i) = Self::find(&self.numeric_names, name) {
            return Some(missing(&self.numeric[i]));
        }
        self.numeric_column(name)
            .map(|values| values.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    }

    /// One value per row of a numeric column: `births`, `deaths`, `rate` (per 1,000), the time
    /// column, or any covariate by name (exact, or after normalising accents and case).
    pub fn numeric_column(&self, name: &str) -> Option<Vec<Option<f64>>> {
        let n = self.len();
        match name {
            "births" => return Some(Self::optional(&self.births, n)),
            "deaths" => return Some(Self::optional(&self.deaths, n)),
            "rate" => return Some(self.rows().map(|r| r.rate_per_1000()).collect()),
            _ => {}
        }
        if let Some(i) = Self::find(&self.numeric_names, name) {
            return Some(Self::optional(&self.numeric[i], n));
        }
        if name == self.time_column || name == "time" {
            return Some(self.time.iter().map(|&t| Some(t as f64)).collect());
        }
        None
    }

    /// One key per row of any column as text (for grouping): a text column, a numeric column
    /// written without trailing zeros, the entity or the time.
    pub fn key_column(&self, name: &str) -> Option<Vec<Option<String>>> {
        if let Some(i) = Self::find(&self.text_names, name) {
            let column = &self.text[i];
            return Some(
                (0..self.len())
                    .map(|r| column.get(r).map(str::to_owned))
                    .collect(),
            );
        }
        if name == self.entity_column || name == "entity" {
            return Some(
                self.entity
                    .iter()
                    .map(|&id| Some(self.entities[id as usize].clone()))
                    .collect(),
            );
        }
        self.numeric_column(name)
            .map(|col| col.into_iter().map(|v| v.map(|x| format!("{x}"))).collect())
    }

    /// Distinct times, ascending.
    pub fn times(&self) -> Vec<i64> {
        let mut t = self.time.clone();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Distinct entities, ascending.
    pub fn entities(&self) -> Vec<&str> {
        // Rows are sorted by entity and ids are ranks: consecutive runs, ascending.
        let mut ids = self.entity.clone();
        ids.dedup();
        ids.iter()
            .map(|&id| self.entities[id as usize].as_str())
            .collect()
    }

    /// Whether the panel has infant mortality rates: births and deaths, counted or derived from
    /// a published rate (`deaths_derived`). Every analysis of the rates asks this one question.
    pub fn has_rates(&self) -> bool {
        self.has_births && self.has_deaths
    }

    /// Every column name a user can pick as a numeric variable.
    pub fn numeric_variables(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.has_rates() {
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

    /// A copy with only the rows for which `keep` is true (the report and names unchanged).
    pub fn filtered(&self, mut keep: impl FnMut(&Row<'_>) -> bool) -> Panel {
        let kept: Vec<usize> = self.rows().filter(|r| keep(r)).map(|r| r.index).collect();
        let mut out = self.gather(&kept);
        out.report = self.report.clone();
        out
    }

    /// Puts the rows in `order`, one column at a time (so at most one column is held twice).
    /// Reorders every column (row `i` becomes the old row `order[i]`) through [`reorder`].
    fn permute(&mut self, order: &RowOrder) {
        // One spare buffer at a time, dropped once the columns of its type are done: the
        // allocator gives its pages to the next type's, so the transient is one column, not
        // one per type (28 MB of spares at the ingest's peak on a 1M-row panel).
        let mut ids = Vec::new();
        reorder(&mut self.entity, order, &mut ids);
        for column in &mut self.text {
            reorder(&mut column.ids, order, &mut ids);
        }
        reorder(&mut self.file, order, &mut ids);
        drop(ids);
        let mut floats = Vec::new();
        reorder(&mut self.births, order, &mut floats);
        reorder(&mut self.deaths, order, &mut floats);
        for column in &mut self.numeric {
            reorder(column, order, &mut floats);
        }
        drop(floats);
        let mut wide = Vec::new();
        reorder(&mut self.time, order, &mut wide);
        drop(wide);
        let mut lines = Vec::new();
        reorder(&mut self.line, order, &mut lines);
    }

    /// The rows at `order`, in that order; the report empty, everything else copied.
    fn gather(&self, order: &[usize]) -> Panel {
        Panel {
            entities: self.entities.clone(),
            entity: pick(&self.entity, order),
            time: pick(&self.time, order),
            births: pick(&self.births, order),
            deaths: pick(&self.deaths, order),
            numeric: self.numeric.iter().map(|c| pick(c, order)).collect(),
            text: self
                .text
                .iter()
                .map(|c| TextColumn {
                    ids: pick(&c.ids, order),
                    values: c.values.clone(),
                })
                .collect(),
            files: self.files.clone(),
            file: pick(&self.file, order),
            line: pick(&self.line, order),
            entity_column: self.entity_column.clone(),
            time_column: self.time_column.clone(),
            numeric_names: self.numeric_names.clone(),
            text_names: self.text_names.clone(),
            has_births: self.has_births,
            has_deaths: self.has_deaths,
            deaths_derived: self.deaths_derived,
            chile_codes: self.chile_codes,
            report: IngestReport::default(),
        }
    }
}

/// Builds a [`Panel`] row by row, interning entities, texts and files (the ingest's
/// `build_panel` and tests use it). Rows may come in any order; [`PanelBuilder::finish`] sorts
/// them by entity then time. The builder does not look for duplicate (entity, time) keys: the
/// ingest does, and reports them with their lines.
#[derive(Debug, Clone)]
pub struct PanelBuilder {
    panel: Panel,
    entity_ids: HashMap<String, u32>,
    text_ids: Vec<HashMap<String, u32>>,
}

/// The fields of a new row other than covariates (set with [`PanelBuilder::set_numeric`] and
/// [`PanelBuilder::set_text`]; missing until then).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewRow {
    /// An id from [`PanelBuilder::entity_id`].
    pub entity: u32,
    pub time: i64,
    pub births: Option<f64>,
    pub deaths: Option<f64>,
    /// An id from [`PanelBuilder::add_file`].
    pub file: u32,
    pub line: u64,
}

impl PanelBuilder {
    /// An empty panel with these covariate names; births (deaths) columns when `has_births`
    /// (`has_deaths`). `capacity` rows are reserved.
    pub fn new(
        numeric_names: Vec<String>,
        text_names: Vec<String>,
        has_births: bool,
        has_deaths: bool,
        capacity: usize,
    ) -> PanelBuilder {
        let column = |present: bool| {
            if present {
                Vec::with_capacity(capacity)
            } else {
                Vec::new()
            }
        };
        let panel = Panel {
            entities: Vec::new(),
            entity: Vec::with_capacity(capacity),
            time: Vec::with_capacity(capacity),
            births: column(has_births),
            deaths: column(has_deaths),
            // Filled by `append_numeric` with each table's parsed column (moved, not copied).
            numeric: numeric_names.iter().map(|_| Vec::new()).collect(),
            text: text_names
                .iter()
                .map(|_| TextColumn {
                    ids: Vec::with_capacity(capacity),
                    values: Vec::new(),
                })
                .collect(),
            files: Vec::new(),
            file: Vec::with_capacity(capacity),
            line: Vec::with_capacity(capacity),
            entity_column: String::new(),
            time_column: String::new(),
            numeric_names,
            text_names,
            has_births,
            has_deaths,
            deaths_derived: false,
            chile_codes: false,
            report: IngestReport::default(),
        };
        PanelBuilder {
            text_ids: vec![HashMap::new(); panel.text.len()],
            panel,
            entity_ids: HashMap::new(),
        }
    }

    /// The id of `entity`, interned on first use.
    pub fn entity_id(&mut self, entity: &str) -> u32 {
        if let Some(&id) = self.entity_ids.get(entity) {
            return id;
        }
        let id = self.panel.entities.len() as u32;
        self.panel.entities.push(entity.to_owned());
        self.entity_ids.insert(entity.to_owned(), id);
        id
    }

    /// The id of an entity already interned.
    pub fn find_entity(&self, entity: &str) -> Option<u32> {
        self.entity_ids.get(entity).copied()
    }

    /// A new file id for `file`: ids are given in order, 0, 1, 2, … (one per table read, even
    /// when two tables share a name).
    pub fn add_file(&mut self, file: &str) -> u32 {
        self.panel.files.push(file.to_owned());
        (self.panel.files.len() - 1) as u32
    }

    /// The file id of row `index`.
    pub fn file_of(&self, index: usize) -> u32 {
        self.panel.file[index]
    }

    /// The entity id and time of row `index`.
    pub fn key_of(&self, index: usize) -> (u32, i64) {
        (self.panel.entity[index], self.panel.time[index])
    }

    /// Appends a row with every covariate missing; returns its index.
    pub fn push(&mut self, row: NewRow) -> usize {
        let p = &mut self.panel;
        let index = p.time.len();
        p.entity.push(row.entity);
        p.time.push(row.time);
        if p.has_births {
            p.births.push(stored(row.births));
        }
        if p.has_deaths {
            p.deaths.push(stored(row.deaths));
        }
        for c in &mut p.numeric {
            c.push(f64::NAN);
        }
        for c in &mut p.text {
            c.ids.push(NO_TEXT);
        }
        p.file.push(row.file);
        p.line.push(row.line);
        index
    }

    /// Appends a row without extending the numeric covariate columns: the ingest fills those
    /// a table at a time ([`PanelBuilder::append_numeric`], then [`PanelBuilder::pad_numeric`]).
    pub(crate) fn push_without_numeric(&mut self, row: NewRow) -> usize {
        let numeric = std::mem::take(&mut self.panel.numeric);
        let index = self.push(row);
        self.panel.numeric = numeric;
        index
    }

    /// Appends `values` (NaN for missing) to covariate `slot`: moved when the column is empty.
    pub(crate) fn append_numeric(&mut self, slot: usize, mut values: Vec<f64>) {
        let column = &mut self.panel.numeric[slot];
        if column.is_empty() {
            *column = values;
        } else {
            column.append(&mut values);
        }
    }

    /// Keeps the rows whose `keep` is true (a row past the end of `keep` is kept), in order:
    /// the ingest's lag phase drops the rows it excludes.
    pub(crate) fn retain_rows(&mut self, keep: &[bool]) {
        fn retain<T>(column: &mut Vec<T>, keep: &[bool]) {
            let mut i = 0;
            column.retain(|_| {
                let kept = keep.get(i).copied().unwrap_or(true);
                i += 1;
                kept
            });
        }
        let p = &mut self.panel;
        retain(&mut p.entity, keep);
        retain(&mut p.time, keep);
        retain(&mut p.births, keep);
        retain(&mut p.deaths, keep);
        for column in &mut p.numeric {
            retain(column, keep);
        }
        for column in &mut p.text {
            retain(&mut column.ids, keep);
        }
        retain(&mut p.file, keep);
        retain(&mut p.line, keep);
    }

    /// Extends every covariate column to the rows so far with missing values.
    pub(crate) fn pad_numeric(&mut self) {
        let n = self.panel.len();
        for column in &mut self.panel.numeric {
            column.resize(n, f64::NAN);
        }
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.panel.len()
    }

    pub fn is_empty(&self) -> bool {
        self.panel.is_empty()
    }

    /// Row `index` as built so far.
    pub fn row(&self, index: usize) -> Row<'_> {
        self.panel.row(index)
    }

    /// Sets the births and deaths of row `index` (ignored for a count the panel lacks).
    pub fn set_counts(&mut self, index: usize, births: Option<f64>, deaths: Option<f64>) {
        if let Some(b) = self.panel.births.get_mut(index) {
            *b = stored(births);
        }
        if let Some(d) = self.panel.deaths.get_mut(index) {
            *d = stored(deaths);
        }
    }

    /// Sets covariate `slot` of row `index`. `value` must not be NaN (input values never are).
    pub fn set_numeric(&mut self, index: usize, slot: usize, value: Option<f64>) {
        self.panel.numeric[slot][index] = stored(value);
    }

    /// Sets text attribute `slot` of row `index`, interned.
    pub fn set_text(&mut self, index: usize, slot: usize, value: Option<&str>) {
        let id = match value {
            None => NO_TEXT,
            Some(v) => {
                let column = &mut self.panel.text[slot];
                let ids = &mut self.text_ids[slot];
                match ids.get(v) {
                    Some(&id) => id,
                    None => {
                        let id = column.values.len() as u32;
                        column.values.push(v.to_owned());
                        ids.insert(v.to_owned(), id);
                        id
                    }
                }
            }
        };
        self.panel.text[slot].ids[index] = id;
    }

    /// Adds a numeric covariate column, missing in every row; returns its slot.
    pub fn add_numeric_column(&mut self, name: String) -> usize {
        let p = &mut self.panel;
        p.numeric_names.push(name);
        p.numeric.push(vec![f64::NAN; p.time.len()]);
        p.numeric.len() - 1
    }

    /// Adds a text column, missing in every row; returns its slot.
    pub fn add_text_column(&mut self, name: String) -> usize {
        let p = &mut self.panel;
        p.text_names.push(name);
        p.text.push(TextColumn {
            ids: vec![NO_TEXT; p.time.len()],
            values: Vec::new(),
        });
        self.text_ids.push(HashMap::new());
        p.text.len() - 1
    }

    /// Covariate names so far.
    pub fn numeric_names(&self) -> &[String] {
        &self.panel.numeric_names
    }

    /// Text names so far.
    pub fn text_names(&self) -> &[String] {
        &self.panel.text_names
    }

    /// The panel, rows sorted by entity then time, with its metadata. Entities without rows
    /// are dropped from the entity table.
    pub fn finish(self, meta: PanelMeta) -> Panel {
        let mut p = self.panel;
        // Rank the entities that have rows; ids become ranks.
        let mut used = vec![false; p.entities.len()];
        for &id in &p.entity {
            used[id as usize] = true;
        }
        let mut order: Vec<u32> = (0..p.entities.len() as u32)
            .filter(|&id| used[id as usize])
            .collect();
        order.sort_unstable_by(|&a, &b| p.entities[a as usize].cmp(&p.entities[b as usize]));
        let mut rank = vec![u32::MAX; p.entities.len()];
        for (r, &id) in order.iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        let mut old = std::mem::take(&mut p.entities);
        p.entities = order
            .iter()
            .map(|&id| std::mem::take(&mut old[id as usize]))
            .collect();
        drop(old);
        for id in &mut p.entity {
            *id = rank[*id as usize];
        }
        // Sort rows by (entity rank, time). Rows usually come in runs of one entity with
        // rising times (a file's layout): then only the runs are ordered, not every row.
        let n = p.len();
        let mut runs: Vec<(u32, usize, usize)> = Vec::new();
        let mut in_runs = true;
        let mut start = 0;
        for i in 1..=n {
            if i == n || p.entity[i] != p.entity[start] {
                runs.push((p.entity[start], start, i));
                start = i;
            } else if p.time[i] <= p.time[i - 1] {
                in_runs = false;
                break;
            }
        }
        let order: Option<RowOrder> = if in_runs {
            runs.sort_by_key(|run| run.0);
            // Each entity in one run only; otherwise rows of an entity interleave.
            if runs.windows(2).all(|w| w[0].0 < w[1].0) {
                let already = runs.windows(2).all(|w| w[0].2 == w[1].1);
                (!already).then(|| RowOrder::Runs(runs.iter().map(|&(_, s, e)| (s, e)).collect()))
            } else {
                in_runs = false;
                None
            }
        } else {
            None
        };
        drop(runs);
        let order = order.or_else(|| {
            (!in_runs).then(|| {
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_unstable_by_key(|&i| (p.entity[i], p.time[i]));
                RowOrder::Rows(order)
            })
        });
        if let Some(order) = order {
            p.permute(&order);
        }
        p.entity_column = meta.entity_column;
        p.time_column = meta.time_column;
        p.deaths_derived = meta.deaths_derived;
        p.chile_codes = meta.chile_codes;
        p.report = meta.report;
        p
    }
}

/// What [`PanelBuilder::finish`] adds to the rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PanelMeta {
    pub entity_column: String,
    pub time_column: String,
    pub deaths_derived: bool,
    pub chile_codes: bool,
    pub report: IngestReport,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// Reordering by rows or by runs gives the copy's rows, for every permutation, with
        /// the scratch buffer reused across columns.
        #[test]
        fn reordering_gives_the_copy(
            order in (0usize..60).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle()),
            cuts in proptest::collection::vec(0usize..60, 0..8),
        ) {
            let column: Vec<u64> = (0..order.len() as u64).map(|v| v * 7 + 1).collect();
            let mut scratch = vec![99u64; 3];
            let mut by_rows = column.clone();
            super::reorder(&mut by_rows, &super::RowOrder::Rows(order.clone()), &mut scratch);
            prop_assert_eq!(&by_rows, &super::pick(&column, &order));
            // Runs: the rows cut into blocks at `cuts`, the blocks reversed.
            let n = column.len();
            let mut bounds: Vec<usize> = cuts.into_iter().filter(|&c| c < n).collect();
            bounds.extend([0, n]);
            bounds.sort_unstable();
            bounds.dedup();
            let runs: Vec<(usize, usize)> = bounds.windows(2).rev().map(|w| (w[0], w[1])).collect();
            let rows: Vec<usize> = runs.iter().flat_map(|&(s, e)| s..e).collect();
            let mut by_runs = column.clone();
            super::reorder(&mut by_runs, &super::RowOrder::Runs(runs), &mut scratch);
            prop_assert_eq!(by_runs, super::pick(&column, &rows));
        }
    }

    use super::*;

    /// The row struct the panel stored before it was columnar: the reference of these tests.
    #[derive(Debug, Clone, PartialEq, Serialize)]
    struct OldRow {
        entity: String,
        time: i64,
        births: Option<f64>,
        deaths: Option<f64>,
        numeric: Vec<Option<f64>>,
        text: Vec<Option<String>>,
        file: String,
        line: u64,
    }

    fn names(prefix: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i}")).collect()
    }

    /// Builds a panel of `rows` (files named as in the rows, one id per distinct name).
    fn build(rows: &[OldRow], n_numeric: usize, n_text: usize) -> Panel {
        let mut b = PanelBuilder::new(
            names("x", n_numeric),
            names("t", n_text),
            true,
            true,
            rows.len(),
        );
        let mut files: Vec<(String, u32)> = Vec::new();
        for r in rows {
            let entity = b.entity_id(&r.entity);
            let file = match files.iter().find(|(f, _)| *f == r.file) {
                Some(&(_, id)) => id,
                None => {
                    let id = b.add_file(&r.file);
                    files.push((r.file.clone(), id));
                    id
                }
            };
            let i = b.push(NewRow {
                entity,
                time: r.time,
                births: r.births,
                deaths: r.deaths,
                file,
                line: r.line,
            });
            for (slot, v) in r.numeric.iter().enumerate() {
                b.set_numeric(i, slot, *v);
            }
            for (slot, v) in r.text.iter().enumerate() {
                b.set_text(i, slot, v.as_deref());
            }
        }
        b.finish(PanelMeta {
            entity_column: "e".into(),
            time_column: "t".into(),
            ..PanelMeta::default()
        })
    }

    fn read_back(panel: &Panel) -> Vec<OldRow> {
        panel
            .rows()
            .map(|r| OldRow {
                entity: r.entity.to_owned(),
                time: r.time,
                births: r.births,
                deaths: r.deaths,
                numeric: r.numerics().collect(),
                text: r.texts().map(|t| t.map(str::to_owned)).collect(),
                file: r.file.to_owned(),
                line: r.line,
            })
            .collect()
    }

    fn row(entity: &str, time: i64, x: Option<f64>, region: Option<&str>, line: u64) -> OldRow {
        OldRow {
            entity: entity.into(),
            time,
            births: Some(100.0),
            deaths: x.map(|_| 1.0),
            numeric: vec![x],
            text: vec![region.map(str::to_owned)],
            file: "a.csv".into(),
            line,
        }
    }

    #[test]
    fn rows_come_back_sorted_by_entity_then_time_with_every_value() {
        let rows = vec![
            row("b", 2020, Some(1.5), Some("I"), 2),
            row("a", 2021, None, Some("II"), 3),
            row("b", 2019, Some(-0.0), None, 4),
            row("a", 2019, Some(7.0), Some("I"), 5),
        ];
        let panel = build(&rows, 1, 1);
        let mut expected = rows.clone();
        expected.sort_by(|a, b| a.entity.cmp(&b.entity).then(a.time.cmp(&b.time)));
        assert_eq!(read_back(&panel), expected);
        assert_eq!(panel.len(), 4);
        assert_eq!(panel.entities(), vec!["a", "b"]);
        assert_eq!(panel.times(), vec![2019, 2020, 2021]);
        assert_eq!(panel.entity(3), "b");
        // A missing covariate is None, never NaN; "I" is stored once.
        assert_eq!(panel.numeric_column("x0").unwrap()[1], None);
        assert_eq!(panel.text[0].values.len(), 2);
        assert_eq!(
            panel.key_column("t0").unwrap(),
            vec![Some("I".into()), Some("II".into()), None, Some("I".into())]
        );
        assert_eq!(panel.row(0).rate_per_1000(), Some(10.0));
        assert_eq!(panel.row(1).rate_per_1000(), None);
    }

    #[test]
    fn a_filtered_panel_keeps_the_report_and_the_other_rows() {
        let rows = vec![
            row("a", 1, Some(1.0), None, 2),
            row("b", 1, Some(2.0), None, 3),
            row("c", 1, Some(3.0), None, 4),
        ];
        let mut panel = build(&rows, 1, 1);
        panel.report.rows_read = 3;
        let kept = panel.filtered(|r| r.entity != "b");
        assert_eq!(read_back(&kept), vec![rows[0].clone(), rows[2].clone()]);
        assert_eq!(kept.report.rows_read, 3);
        assert_eq!(kept.entities(), vec!["a", "c"]);
        assert_ne!(kept, panel);
        assert_eq!(panel.filtered(|_| true), panel);
    }

    #[test]
    fn a_panel_serialises_as_rows_of_structs() {
        let rows = vec![
            row("a", 1, Some(1.25), Some("I"), 2),
            row("b", 1, None, None, 3),
        ];
        let panel = build(&rows, 1, 1);
        let json = serde_json::to_value(&panel).unwrap();
        assert_eq!(json["rows"], serde_json::to_value(&rows).unwrap());
        assert_eq!(json["entity_column"], "e");
    }

    fn any_row(n_numeric: usize, n_text: usize) -> impl Strategy<Value = OldRow> {
        (
            prop::sample::select(vec!["01101", "01107", "b", "a", "é", ""]),
            -3i64..4,
            prop::option::of(0.0f64..1e6),
            prop::option::of(0.0f64..1e6),
            prop::collection::vec(prop::option::of(-1e300f64..1e300), n_numeric),
            prop::collection::vec(
                prop::option::of(prop::sample::select(vec!["I", "II", "Región X"])),
                n_text,
            ),
            prop::sample::select(vec!["a.csv", "b.csv"]),
            1u64..u64::MAX,
        )
            .prop_map(
                |(e, time, births, deaths, numeric, text, file, line)| OldRow {
                    entity: e.into(),
                    time,
                    births,
                    deaths,
                    numeric,
                    text: text.into_iter().map(|t| t.map(str::to_owned)).collect(),
                    file: file.into(),
                    line,
                },
            )
    }

    proptest! {
        /// Rows built then read back are the rows given, sorted by entity then time.
        #[test]
        fn rows_read_back_are_the_rows_built_sorted(
            rows in prop::collection::vec(any_row(2, 1), 0..40)
        ) {
            // One row per key, as the ingest guarantees.
            let mut distinct: Vec<OldRow> = Vec::new();
            for r in rows {
                if !distinct.iter().any(|d| d.entity == r.entity && d.time == r.time) {
                    distinct.push(r);
                }
            }
            let panel = build(&distinct, 2, 1);
            distinct.sort_by(|a, b| a.entity.cmp(&b.entity).then(a.time.cmp(&b.time)));
            prop_assert_eq!(read_back(&panel), distinct.clone());
            let mut entities: Vec<&str> = distinct.iter().map(|r| r.entity.as_str()).collect();
            entities.dedup();
            prop_assert_eq!(panel.entities(), entities);
            let x1: Vec<Option<f64>> = distinct.iter().map(|r| r.numeric[1]).collect();
            prop_assert_eq!(panel.numeric_column("x1").unwrap(), x1);
        }

        /// Rows grouped by entity with rising times, the groups in any order (the runs path of
        /// `finish`), read back sorted.
        #[test]
        fn grouped_rows_read_back_sorted(
            rows in prop::collection::vec(any_row(1, 1), 0..40),
            rotate in 0usize..40,
            reverse in any::<bool>(),
        ) {
            let mut distinct: Vec<OldRow> = Vec::new();
            for r in rows {
                if !distinct.iter().any(|d| d.entity == r.entity && d.time == r.time) {
                    distinct.push(r);
                }
            }
            distinct.sort_by(|a, b| a.entity.cmp(&b.entity).then(a.time.cmp(&b.time)));
            let mut groups: Vec<Vec<OldRow>> = Vec::new();
            for r in &distinct {
                match groups.last_mut() {
                    Some(g) if g[0].entity == r.entity => g.push(r.clone()),
                    _ => groups.push(vec![r.clone()]),
                }
            }
            if !groups.is_empty() {
                let k = rotate % groups.len();
                groups.rotate_left(k);
            }
            if reverse {
                groups.reverse();
            }
            let input: Vec<OldRow> = groups.into_iter().flatten().collect();
            prop_assert_eq!(read_back(&build(&input, 1, 1)), distinct);
        }
    }
}
