//! The streaming aggregator of the deaths microdata: infant deaths by year and commune of
//! residence.
//!
//! # Which rows count
//! Each data row is, in this order of checks:
//! 1. malformed (wrong field count, overlong line, invalid year, invalid age fields): excluded;
//! 2. of unknown age (EDAD_TIPO 9 or blank; EDAD_TIPO 1 with EDAD_CANT 999 or blank): excluded;
//! 3. not an infant death (EDAD_TIPO 1, years, with EDAD_CANT ≥ 1): read, not counted;
//! 4. an infant death (EDAD_TIPO 2 months, 3 days, 4 hours; or EDAD_TIPO 1 with EDAD_CANT 0)
//!    whose commune of residence is blank or not in the 2018 CUT list: excluded;
//! 5. an infant death of a known commune: counted under (2018 code, ANO_DEF).
//!
//! So `rows_read = rows_counted (infant deaths) + rows_not_infant + rows_excluded` always holds
//! ([`DeathsAggregate::rows`]).
//!
//! Neonatal (< 28 days) = EDAD_TIPO 4, or EDAD_TIPO 3 with EDAD_CANT < 28; post-neonatal =
//! EDAD_TIPO 2, or EDAD_TIPO 3 with EDAD_CANT ≥ 28. EDAD_TIPO 1 with EDAD_CANT 0 (under a year,
//! no finer age) and EDAD_TIPO 3 without EDAD_CANT are infant deaths that cannot be split.

use crate::cause::Chapter;
use crate::communes::CommuneResolver;
use crate::error::MicrodataError;
use crate::fields::{parse_digits, Fields};
use crate::layout::{shorten, DeathsLayout, DELIMITER};
use crate::lines::{LineEvent, LineSink, Streamed};
use crate::report::{
    serialize_with_account, sorted_unknown_codes, AccountNames, Excluded, Progress, Reason,
    RowAccount, RowShape, Tally,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The optional breakdowns of the infant deaths.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeathsOptions {
    /// Split into neonatal (< 28 days) and post-neonatal deaths.
    pub neonatal: bool,
    /// Count by ICD-10 chapter of DIAG1 (see [`Chapter`]).
    pub cause: bool,
}

/// Neonatal and post-neonatal infant deaths of one commune and year.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct NeonatalSplit {
    pub neonatal: u64,
    pub post_neonatal: u64,
    /// Infant deaths without an age fine enough to tell (EDAD_TIPO 1 with EDAD_CANT 0, or
    /// EDAD_TIPO 3 without EDAD_CANT).
    pub not_known: u64,
}

/// The infant deaths of one commune (2018 CUT code) and year.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeathsCell {
    pub code: String,
    pub year: u16,
    pub deaths: u64,
    /// With [`DeathsOptions::neonatal`].
    pub neonatal: Option<NeonatalSplit>,
    /// With [`DeathsOptions::cause`]: deaths by chapter, indexed by [`Chapter`] (0 = not stated,
    /// 1–22 = chapters I–XXII).
    pub causes: Option<Vec<u64>>,
}

/// Everything a deaths file gave: the counts and what was not counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeathsAggregate {
    pub layout: DeathsLayout,
    pub options: DeathsOptions,
    pub bytes: u64,
    /// Where every row went: `rows_counted` are the infant deaths counted in `cells`,
    /// `rows_not_infant` the rows of people one year old or more, `recoded_rows` the counted
    /// infant deaths whose code was a pre-2018 Ñuble code.
    pub rows: RowAccount,
    pub excluded: Vec<Excluded>,
    /// Unknown commune codes of infant deaths (blank shown as ""), most frequent first; at most
    /// `MAX_UNKNOWN_CODES` distinct codes are listed.
    pub unknown_codes: Vec<(String, u64)>,
    /// Rows with a valid year, of any age, by year: the years the file covers.
    pub rows_by_year: BTreeMap<u16, u64>,
    /// Commune-years with at least one infant death, by code then year. A commune-year of a
    /// covered year that is absent had no infant death.
    pub cells: Vec<DeathsCell>,
}

// The row accounting goes out under the deaths names (`infant_deaths`, `non_infant_rows`),
// in its place among the aggregate's own fields.
serialize_with_account!(
    DeathsAggregate,
    AccountNames::DEATHS,
    head: [layout, options, bytes],
    tail: [cells]
);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    Neonatal,
    PostNeonatal,
    NotKnown,
}

#[derive(Debug, Clone)]
struct Cell {
    deaths: u64,
    split: [u64; 3],
    causes: [u64; Chapter::SLOTS],
}

const FIRST_YEAR: u16 = 1800;

#[derive(Debug)]
struct State {
    options: DeathsOptions,
    layout: Option<DeathsLayout>,
    keep: usize,
    fields: Fields,
    communes: CommuneResolver,
    cells: HashMap<(u32, u16), Cell>,
    rows_by_year: Vec<u64>,
    infant_deaths: u64,
    non_infant_rows: u64,
    tally: Tally,
}

/// Aggregates a deaths file pushed in chunks of any size.
///
/// ```
/// use imr_microdata::{DeathsAggregator, DeathsOptions};
/// let file = "ANO_DEF;FECHA_DEF;GLOSA_SEXO;EDAD_TIPO;EDAD_CANT;CODIGO_COMUNA_RESIDENCIA;GLOSA_COMUNA_RESIDENCIA;GLOSA_REG_RES;DIAG1\n\
///             2019;2019-05-01;Mujer;3;2;13101;Santiago;Metropolitana;P220\n\
///             2019;2019-06-01;Hombre;1;80;13101;Santiago;Metropolitana;I219\n";
/// let mut aggregator = DeathsAggregator::new(DeathsOptions::default());
/// for chunk in file.as_bytes().chunks(7) {
///     aggregator.push(chunk).unwrap();
/// }
/// let aggregate = aggregator.finish().unwrap();
/// assert_eq!((aggregate.rows.rows_read, aggregate.rows.rows_counted), (2, 1));
/// assert_eq!((aggregate.cells[0].code.as_str(), aggregate.cells[0].year), ("13101", 2019));
/// ```
#[derive(Debug)]
pub struct DeathsAggregator {
    stream: Streamed<State>,
}

impl DeathsAggregator {
    pub fn new(options: DeathsOptions) -> Self {
        DeathsAggregator {
            stream: Streamed::new(State {
                options,
                layout: None,
                keep: 0,
                fields: Fields::default(),
                communes: CommuneResolver::default(),
                cells: HashMap::new(),
                rows_by_year: vec![0; 401],
                infant_deaths: 0,
                non_infant_rows: 0,
                tally: Tally::default(),
            }),
        }
    }

    /// Feeds the next bytes of the file. Fails only when the file is not deaths microdata
    /// (decided on its first line); every later call then fails the same way.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Progress, MicrodataError> {
        self.stream.push(chunk)
    }

    /// Bytes pushed, rows read and infant deaths counted so far.
    pub fn progress(&self) -> Progress {
        self.stream.progress()
    }

    /// The layout, once the first line has been read.
    pub fn layout(&self) -> Option<&DeathsLayout> {
        self.stream.sink.layout.as_ref()
    }

    /// Reads the last line (when the file does not end with a newline) and returns the counts.
    pub fn finish(self) -> Result<DeathsAggregate, MicrodataError> {
        let (state, bytes) = self.stream.finish()?;
        let Some(layout) = state.layout else {
            return Err(MicrodataError::Empty);
        };
        let options = state.options;
        let communes = &state.communes;
        let mut cells: Vec<DeathsCell> = state
            .cells
            .into_iter()
            .map(|((index, year), cell)| DeathsCell {
                code: communes.code(index).to_owned(),
                year,
                deaths: cell.deaths,
                neonatal: options.neonatal.then_some(NeonatalSplit {
                    neonatal: cell.split[0],
                    post_neonatal: cell.split[1],
                    not_known: cell.split[2],
                }),
                causes: options.cause.then(|| cell.causes.to_vec()),
            })
            .collect();
        cells.sort_by(|a, b| a.code.cmp(&b.code).then(a.year.cmp(&b.year)));
        Ok(DeathsAggregate {
            layout,
            options,
            bytes,
            rows: state
                .tally
                .account(state.infant_deaths, state.non_infant_rows),
            excluded: state.tally.exclusions.report(),
            unknown_codes: sorted_unknown_codes(&state.tally.unknown_codes),
            rows_by_year: state
                .rows_by_year
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(i, &n)| (FIRST_YEAR + i as u16, n))
                .collect(),
            cells,
        })
    }
}

impl State {
    fn row(&mut self, number: u64, line: &[u8]) {
        let layout = self.layout.as_ref().expect("set on the first line");
        let shape = RowShape {
            delimiter: DELIMITER,
            keep: self.keep,
            field_count: layout.field_count,
            year: layout.year,
        };
        let Some(year) = self.tally.row_year(&mut self.fields, line, shape, number) else {
            return;
        };
        self.rows_by_year[usize::from(year - FIRST_YEAR)] += 1;
        let unit = self.fields.get(line, layout.age_unit);
        let value = self.fields.get(line, layout.age_value);
        let value = match value {
            b"" | b"999" => None,
            v => match parse_digits(v) {
                Some(v) => Some(v),
                None => {
                    self.tally.exclusions.add(Reason::InvalidAge, number);
                    return;
                }
            },
        };
        let split = match (unit, value) {
            (b"" | b"9", _) | (b"1", None) => {
                self.tally.exclusions.add(Reason::UnknownAge, number);
                return;
            }
            (b"1", Some(0)) => Split::NotKnown,
            (b"1", Some(_)) => {
                self.non_infant_rows += 1;
                return;
            }
            (b"2", _) => Split::PostNeonatal,
            (b"3", Some(days)) if days < 28 => Split::Neonatal,
            (b"3", Some(_)) => Split::PostNeonatal,
            (b"3", None) => Split::NotKnown,
            (b"4", _) => Split::Neonatal,
            _ => {
                self.tally.exclusions.add(Reason::InvalidAge, number);
                return;
            }
        };
        let code = self.fields.get(line, layout.commune);
        let Some(resolved) = self.tally.commune(&mut self.communes, code, number) else {
            return;
        };
        let chapter = match (self.options.cause, layout.diag1) {
            (true, Some(d)) => Chapter::of_code(self.fields.get(line, d)),
            _ => Chapter::NOT_STATED,
        };
        self.infant_deaths += 1;
        let cell = self
            .cells
            .entry((resolved.index, year))
            .or_insert_with(|| Cell {
                deaths: 0,
                split: [0; 3],
                causes: [0; Chapter::SLOTS],
            });
        cell.deaths += 1;
        cell.split[split as usize] += 1;
        cell.causes[chapter.0 as usize] += 1;
    }
}

/// Aggregates a whole reader in chunks of `chunk_bytes` (the command line's way in).
pub fn aggregate_deaths_reader(
    mut reader: impl std::io::Read,
    options: DeathsOptions,
    chunk_bytes: usize,
) -> Result<Result<DeathsAggregate, MicrodataError>, std::io::Error> {
    let mut aggregator = DeathsAggregator::new(options);
    let mut buffer = vec![0u8; chunk_bytes.max(1)];
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if let Err(err) = aggregator.push(&buffer[..n]) {
            return Ok(Err(err));
        }
    }
    Ok(aggregator.finish())
}

impl LineSink for State {
    fn line(&mut self, number: u64, event: LineEvent<'_>) -> Result<(), MicrodataError> {
        let (cause, keep) = (self.options.cause, &mut self.keep);
        let line = self.tally.data_row(
            number,
            event,
            &mut self.layout,
            |line| {
                let layout = DeathsLayout::recognise(line)?;
                if cause && layout.diag1.is_none() {
                    return Err(MicrodataError::MissingColumn {
                        column: "DIAG1 (needed for the cause breakdown)".into(),
                        columns: shorten(line),
                    });
                }
                *keep = layout.fields_needed(cause);
                Ok(layout)
            },
            |layout| layout.has_header,
        )?;
        if let Some(line) = line {
            self.row(number, line);
        }
        Ok(())
    }

    fn rows_read_and_counted(&self) -> (u64, u64) {
        (self.tally.rows_read, self.infant_deaths)
    }
}
