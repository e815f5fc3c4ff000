//! The streaming aggregator of a one-row-per-birth file: births by year and mother's commune of
//! residence, the two columns chosen by the user (by position or by header name).
//!
//! Each data row is malformed (wrong field count, overlong, invalid year: excluded), of an
//! unknown commune (blank or not in the 2018 CUT list: excluded), or counted; so
//! `rows_read = births + rows_excluded`.

use crate::communes::CommuneResolver;
use crate::error::MicrodataError;
use crate::fields::{parse_year, Fields};
use crate::layout::{header_names, shorten};
use crate::lines::{LineEvent, LineSink, Streamed};
use crate::report::{
    serialize_with_account, sorted_unknown_codes, AccountNames, Excluded, Progress, RowAccount,
    RowShape, Tally,
};
use imr_data::names::normalise_name;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A column chosen by its 0-based position or by its header name (compared after
/// normalisation: `AÑO_NAC` = `ano_nac`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnRef {
    Index(usize),
    Name(String),
}

impl std::fmt::Display for ColumnRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ColumnRef::Index(i) => write!(f, "#{}", i + 1),
            ColumnRef::Name(name) => write!(f, "`{name}`"),
        }
    }
}

/// Whether the births file starts with a header row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeaderMode {
    /// A header when the year column of the first line is not a year.
    #[default]
    Auto,
    Present,
    Absent,
}

/// How to read a births file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BirthsOptions {
    pub year: ColumnRef,
    /// The mother's commune of residence.
    pub commune: ColumnRef,
    pub delimiter: u8,
    pub header: HeaderMode,
}

impl BirthsOptions {
    /// `;`-separated, header detected.
    pub fn new(year: ColumnRef, commune: ColumnRef) -> Self {
        BirthsOptions {
            year,
            commune,
            delimiter: b';',
            header: HeaderMode::Auto,
        }
    }
}

/// Births by commune (2018 CUT code) and year, and what was not counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BirthsAggregate {
    pub has_header: bool,
    pub field_count: usize,
    pub year_column: usize,
    pub commune_column: usize,
    pub bytes: u64,
    /// Where every row went: `rows_counted` are the births counted in `counts`
    /// (`rows_not_infant` is 0).
    pub rows: RowAccount,
    pub excluded: Vec<Excluded>,
    pub unknown_codes: Vec<(String, u64)>,
    /// Rows with a valid year, by year: the years the file covers.
    pub rows_by_year: BTreeMap<u16, u64>,
    /// Births by (code, year), for commune-years with at least one birth.
    pub counts: BTreeMap<(String, u16), u64>,
}

// The row accounting goes out under the births names (`births` counted, no `non_infant`
// field), in its place among the aggregate's own fields.
serialize_with_account!(
    BirthsAggregate,
    AccountNames::BIRTHS,
    head: [has_header, field_count, year_column, commune_column, bytes],
    tail: [counts]
);

#[derive(Debug)]
struct Columns {
    has_header: bool,
    field_count: usize,
    year: usize,
    commune: usize,
}

#[derive(Debug)]
struct State {
    options: BirthsOptions,
    columns: Option<Columns>,
    fields: Fields,
    communes: CommuneResolver,
    counts: HashMap<(u32, u16), u64>,
    rows_by_year: BTreeMap<u16, u64>,
    births: u64,
    tally: Tally,
}

/// Aggregates a births file pushed in chunks of any size; the same protocol as
/// [`crate::DeathsAggregator`].
#[derive(Debug)]
pub struct BirthsAggregator {
    stream: Streamed<State>,
}

impl BirthsAggregator {
    pub fn new(options: BirthsOptions) -> Self {
        BirthsAggregator {
            stream: Streamed::new(State {
                options,
                columns: None,
                fields: Fields::default(),
                communes: CommuneResolver::default(),
                counts: HashMap::new(),
                rows_by_year: BTreeMap::new(),
                births: 0,
                tally: Tally::default(),
            }),
        }
    }

    pub fn push(&mut self, chunk: &[u8]) -> Result<Progress, MicrodataError> {
        self.stream.push(chunk)
    }

    pub fn progress(&self) -> Progress {
        self.stream.progress()
    }

    pub fn finish(self) -> Result<BirthsAggregate, MicrodataError> {
        let (state, bytes) = self.stream.finish()?;
        let Some(columns) = state.columns else {
            return Err(MicrodataError::Empty);
        };
        let communes = &state.communes;
        Ok(BirthsAggregate {
            has_header: columns.has_header,
            field_count: columns.field_count,
            year_column: columns.year,
            commune_column: columns.commune,
            bytes,
            rows: state.tally.account(state.births, 0),
            excluded: state.tally.exclusions.report(),
            unknown_codes: sorted_unknown_codes(&state.tally.unknown_codes),
            rows_by_year: state.rows_by_year,
            counts: state
                .counts
                .into_iter()
                .map(|((index, year), n)| ((communes.code(index).to_owned(), year), n))
                .collect(),
        })
    }
}

impl Columns {
    /// The columns of the file from its first line: the named columns' positions (a name needs
    /// a header), and whether that line is a header.
    fn from_first_line(options: &BirthsOptions, line: &[u8]) -> Result<Columns, MicrodataError> {
        let (raw, names) = header_names(line, options.delimiter);
        let position = |column: &ColumnRef| -> Result<usize, MicrodataError> {
            match column {
                ColumnRef::Index(i) if *i < names.len() => Ok(*i),
                ColumnRef::Index(_) => Err(MicrodataError::MissingColumn {
                    column: column.to_string(),
                    columns: raw.join(", "),
                }),
                ColumnRef::Name(name) => {
                    let wanted = normalise_name(name);
                    names.iter().position(|n| *n == wanted).ok_or_else(|| {
                        MicrodataError::MissingColumn {
                            column: name.clone(),
                            columns: raw.join(", "),
                        }
                    })
                }
            }
        };
        let by_name = [&options.year, &options.commune]
            .into_iter()
            .find(|c| matches!(c, ColumnRef::Name(_)));
        let has_header = match options.header {
            HeaderMode::Present => true,
            HeaderMode::Absent => false,
            HeaderMode::Auto => {
                by_name.is_some() || {
                    let mut fields = Fields::default();
                    let year = position(&options.year)?;
                    fields.split(line, options.delimiter, year + 1);
                    parse_year(fields.get(line, year)).is_none()
                }
            }
        };
        if let (false, Some(column)) = (has_header, by_name) {
            return Err(MicrodataError::NoHeader {
                column: column.to_string(),
                first_line: shorten(line),
            });
        }
        Ok(Columns {
            has_header,
            field_count: names.len(),
            year: position(&options.year)?,
            commune: position(&options.commune)?,
        })
    }
}

impl State {
    fn row(&mut self, number: u64, line: &[u8]) {
        let columns = self.columns.as_ref().expect("set on the first line");
        let shape = RowShape {
            delimiter: self.options.delimiter,
            keep: columns.year.max(columns.commune) + 1,
            field_count: columns.field_count,
            year: columns.year,
        };
        let Some(year) = self.tally.row_year(&mut self.fields, line, shape, number) else {
            return;
        };
        *self.rows_by_year.entry(year).or_default() += 1;
        let code = self.fields.get(line, columns.commune);
        let Some(resolved) = self.tally.commune(&mut self.communes, code, number) else {
            return;
        };
        self.births += 1;
        *self.counts.entry((resolved.index, year)).or_default() += 1;
    }
}

impl LineSink for State {
    fn line(&mut self, number: u64, event: LineEvent<'_>) -> Result<(), MicrodataError> {
        let options = &self.options;
        let line = self.tally.data_row(
            number,
            event,
            &mut self.columns,
            |line| Columns::from_first_line(options, line),
            |columns| columns.has_header,
        )?;
        if let Some(line) = line {
            self.row(number, line);
        }
        Ok(())
    }

    fn rows_read_and_counted(&self) -> (u64, u64) {
        (self.tally.rows_read, self.births)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Reason;

    fn aggregate(text: &[u8], options: BirthsOptions) -> Result<BirthsAggregate, MicrodataError> {
        let mut aggregator = BirthsAggregator::new(options);
        for chunk in text.chunks(3) {
            aggregator.push(chunk)?;
        }
        aggregator.finish()
    }

    #[test]
    fn births_are_counted_by_the_columns_named_and_unknown_communes_excluded() {
        let text = b"A\xd1O_NAC;SEXO;COMUNA_MADRE\n2019;1;1101\n2019;2;01101\n2020;1;99999\n2020;1;8401\nx;1;1101\n";
        let options = BirthsOptions::new(
            ColumnRef::Name("ano_nac".into()),
            ColumnRef::Name("Comuna madre".into()),
        );
        let agg = aggregate(text, options).unwrap();
        assert!(agg.has_header);
        assert_eq!(
            (
                agg.rows.rows_read,
                agg.rows.rows_counted,
                agg.rows.rows_excluded
            ),
            (5, 3, 2)
        );
        assert_eq!(agg.counts[&("01101".to_string(), 2019)], 2);
        assert_eq!(agg.counts[&("16101".to_string(), 2020)], 1);
        assert_eq!(agg.rows.recoded_rows, 1);
        assert_eq!(agg.excluded[0].reason, Reason::InvalidYear);
        assert_eq!(agg.excluded[0].first_lines, vec![6]);
        assert_eq!(agg.unknown_codes, vec![("99999".to_string(), 1)]);
    }

    #[test]
    fn a_headerless_file_is_read_by_position_and_a_name_without_header_is_refused() {
        let text = b"2019;1;1101\n2019;2;1101\n";
        let agg = aggregate(
            text,
            BirthsOptions::new(ColumnRef::Index(0), ColumnRef::Index(2)),
        )
        .unwrap();
        assert!(!agg.has_header);
        assert_eq!(agg.rows.rows_counted, 2);
        let mut options = BirthsOptions::new(ColumnRef::Name("ano".into()), ColumnRef::Index(2));
        options.header = HeaderMode::Absent;
        let err = aggregate(text, options).unwrap_err();
        assert!(err.to_string().contains("not a header"), "{err}");
    }
}
