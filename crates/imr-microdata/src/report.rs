//! Rows not used, counted by reason with the first line numbers, and the progress of a run
//! ([`Progress`], from the line splitting).

use crate::communes::{CommuneResolver, Resolved};
use crate::error::MicrodataError;
use crate::fields::{latin1, parse_year, Fields};
use crate::lines::LineEvent;
/// The progress of a run, defined with the line splitting that measures it (re-exported here,
/// with the rest of a run's report).
pub use crate::lines::Progress;
use imr_lang::Lang;
use serde::{Deserialize, Serialize};

/// How many line numbers are kept per reason; the count goes on past it.
pub const MAX_LINES_PER_REASON: usize = 100;

/// Why a row of a microdata file was not counted.
/// Serialised as its stable label ([`Reason::label`]), which is how the worker's events carry
/// it to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Reason {
    /// Malformed: the line has more or fewer fields than the header (or the first line).
    WrongFieldCount,
    /// Malformed: the line is longer than [`crate::MAX_LINE_BYTES`].
    LineTooLong,
    /// Malformed: the year column is not a four-digit year.
    InvalidYear,
    /// Malformed: EDAD_TIPO is not 1, 2, 3, 4 or 9 (or blank), or EDAD_CANT is not a number.
    InvalidAge,
    /// Age not known (EDAD_TIPO 9 or blank; EDAD_TIPO 1 with EDAD_CANT 999 or blank): whether the
    /// death was an infant death cannot be told.
    UnknownAge,
    /// An infant death (or a birth) whose commune of residence is blank or not in the 2018 CUT
    /// list (e.g. 99xxx, "ignorada" or abroad).
    UnknownCommune,
}

impl Reason {
    pub const ALL: [Reason; 6] = [
        Reason::WrongFieldCount,
        Reason::LineTooLong,
        Reason::InvalidYear,
        Reason::InvalidAge,
        Reason::UnknownAge,
        Reason::UnknownCommune,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Reason::WrongFieldCount => "wrong_field_count",
            Reason::LineTooLong => "line_too_long",
            Reason::InvalidYear => "invalid_year",
            Reason::InvalidAge => "invalid_age",
            Reason::UnknownAge => "unknown_age",
            Reason::UnknownCommune => "unknown_commune",
        }
    }

    /// The reason in words, in `lang` (English: [`Reason::describe`]).
    pub fn text(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.describe(),
            Lang::Es => match self {
                Reason::WrongFieldCount => "línea mal formada: número de campos incorrecto",
                Reason::LineTooLong => "línea mal formada: más larga que 1 MiB",
                Reason::InvalidYear => "línea mal formada: el año no es un año de cuatro dígitos",
                Reason::InvalidAge => {
                    "línea mal formada: EDAD_TIPO no es 1, 2, 3, 4 ni 9, o EDAD_CANT no es un número"
                }
                Reason::UnknownAge => "edad desconocida (EDAD_TIPO 9, o edad en años desconocida)",
                Reason::UnknownCommune => {
                    "comuna de residencia en blanco o fuera de la lista CUT 2018 (p. ej. 99xxx)"
                }
            },
        }
    }

    /// The reason in words (English).
    pub fn describe(self) -> &'static str {
        match self {
            Reason::WrongFieldCount => "malformed line: wrong number of fields",
            Reason::LineTooLong => "malformed line: longer than 1 MiB",
            Reason::InvalidYear => "malformed line: the year is not a four-digit year",
            Reason::InvalidAge => {
                "malformed line: EDAD_TIPO is not 1, 2, 3, 4 or 9, or EDAD_CANT is not a number"
            }
            Reason::UnknownAge => "age unknown (EDAD_TIPO 9, or age in years unknown)",
            Reason::UnknownCommune => {
                "commune of residence blank or not in the 2018 CUT list (e.g. 99xxx)"
            }
        }
    }
}

/// The rows excluded for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excluded {
    pub reason: Reason,
    pub description: &'static str,
    pub count: u64,
    /// The first [`MAX_LINES_PER_REASON`] line numbers (1-based, the header is line 1).
    pub first_lines: Vec<u64>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Exclusions {
    tallies: [(u64, Vec<u64>); Reason::ALL.len()],
}

impl Exclusions {
    pub fn add(&mut self, reason: Reason, line: u64) {
        let (count, lines) = &mut self.tallies[reason as usize];
        *count += 1;
        if lines.len() < MAX_LINES_PER_REASON {
            lines.push(line);
        }
    }

    pub fn total(&self) -> u64 {
        self.tallies.iter().map(|(count, _)| count).sum()
    }

    /// The reasons that occurred, in the order of [`Reason::ALL`].
    pub fn report(&self) -> Vec<Excluded> {
        Reason::ALL
            .into_iter()
            .filter_map(|reason| {
                let (count, lines) = &self.tallies[reason as usize];
                (*count > 0).then(|| Excluded {
                    reason,
                    description: reason.describe(),
                    count: *count,
                    first_lines: lines.clone(),
                })
            })
            .collect()
    }
}

/// Where every data row of one microdata file went, births or deaths:
/// `rows_read = rows_counted + rows_not_infant + rows_excluded`; blank lines are not rows. The
/// one account of a file's rows that [`crate::DeathsAggregate`], [`crate::BirthsAggregate`] and
/// the job's [`crate::FileSummary`] carry (each serialises its fields among its own, under the
/// names it always had).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowAccount {
    /// Data rows (header and blank lines not included).
    pub rows_read: u64,
    /// Rows counted: infant deaths (deaths file) or births (births file).
    pub rows_counted: u64,
    /// Rows read and not counted because the person was one year old or more (deaths at one
    /// year of age or more; always 0 for births).
    pub rows_not_infant: u64,
    /// Rows not used, each for a [`Reason`] ([`Excluded`]).
    pub rows_excluded: u64,
    /// Blank lines (not rows).
    pub blank_lines: u64,
    /// Counted rows whose commune was a pre-2018 Ñuble code, re-coded to the 2018 CUT
    /// (084xx → 16xxx).
    pub recoded_rows: u64,
}

/// The names a file's JSON gives its counted rows and, for deaths, its rows of people one year
/// old or more ([`RowAccount::serialize_into`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AccountNames {
    pub counted: &'static str,
    pub not_infant: Option<&'static str>,
}

impl AccountNames {
    /// A births file's: `births` counted, no rows of people one year old or more.
    pub const BIRTHS: AccountNames = AccountNames {
        counted: "births",
        not_infant: None,
    };
    /// A deaths file's: `infant_deaths` counted, `non_infant_rows`.
    pub const DEATHS: AccountNames = AccountNames {
        counted: "infant_deaths",
        not_infant: Some("non_infant_rows"),
    };
    /// The job's file summary's: the account's own names.
    pub const SUMMARY: AccountNames = AccountNames {
        counted: "rows_counted",
        not_infant: Some("rows_not_infant"),
    };
}

/// `Serialize` for a file's record whose [`RowAccount`] (its field `rows`) goes out among its own
/// fields, in the order its JSON has always had: the `head` fields, the account under `names`
/// with the record's `excluded`, `unknown_codes` and `rows_by_year`
/// ([`RowAccount::serialize_into`]), then the `tail` fields. The births and deaths aggregates
/// and the job's file summary wrote this impl each (a derive with a flattened account would put
/// `blank_lines` and `recoded_rows` before `excluded`).
macro_rules! serialize_with_account {
    ($ty:ident, $names:expr, head: [$($head:ident),*], tail: [$($tail:ident),*]) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let names: $crate::report::AccountNames = $names;
                let own = [$(stringify!($head),)* $(stringify!($tail),)*].len();
                let fields = own + 8 + usize::from(names.not_infant.is_some());
                let mut s = serializer.serialize_struct(stringify!($ty), fields)?;
                $(s.serialize_field(stringify!($head), &self.$head)?;)*
                self.rows.serialize_into(
                    &mut s,
                    names,
                    &self.excluded,
                    &self.unknown_codes,
                    &self.rows_by_year,
                )?;
                $(s.serialize_field(stringify!($tail), &self.$tail)?;)*
                s.end()
            }
        }
    };
}
pub(crate) use serialize_with_account;

impl RowAccount {
    /// Writes the account among a file's own fields in its JSON, in the order the births and
    /// deaths aggregates and the job's file summary have always had (`rows_read`, the counted
    /// rows, the not-infant rows when named, `rows_excluded`, `excluded`, `unknown_codes`,
    /// `blank_lines`, `recoded_rows`, `rows_by_year`): the lists are the file's, given here
    /// (a flattened account would put `blank_lines` and `recoded_rows` before `excluded`).
    pub(crate) fn serialize_into<S: serde::ser::SerializeStruct>(
        &self,
        s: &mut S,
        names: AccountNames,
        excluded: &(impl Serialize + ?Sized),
        unknown_codes: &(impl Serialize + ?Sized),
        rows_by_year: &(impl Serialize + ?Sized),
    ) -> Result<(), S::Error> {
        s.serialize_field("rows_read", &self.rows_read)?;
        s.serialize_field(names.counted, &self.rows_counted)?;
        if let Some(not_infant) = names.not_infant {
            s.serialize_field(not_infant, &self.rows_not_infant)?;
        }
        s.serialize_field("rows_excluded", &self.rows_excluded)?;
        s.serialize_field("excluded", excluded)?;
        s.serialize_field("unknown_codes", unknown_codes)?;
        s.serialize_field("blank_lines", &self.blank_lines)?;
        s.serialize_field("recoded_rows", &self.recoded_rows)?;
        s.serialize_field("rows_by_year", rows_by_year)
    }
}

/// What every data row of a microdata file adds to, births or deaths: rows read, blank lines,
/// rows whose commune was recoded, the exclusions with their first lines and the unknown commune
/// codes. The one place where the accounting `rows_read = counted + excluded (+ not infant)`
/// is kept by both aggregators.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub rows_read: u64,
    pub blank_lines: u64,
    pub recoded_rows: u64,
    pub exclusions: Exclusions,
    pub unknown_codes: std::collections::HashMap<String, u64>,
}

impl Tally {
    /// The bytes of line `number` when it is a data row, else `None`. An overlong line is a row
    /// excluded as such (on the first line, before any layout, it is an error); a blank line is
    /// counted apart; the first other line sets `layout` by `recognise` and is a row only when
    /// that layout says, by `has_header`, that the file has no header. The UTF-8 byte-order mark
    /// of line 1 is dropped. Both aggregators read their lines through here.
    pub fn data_row<'a, L>(
        &mut self,
        number: u64,
        event: LineEvent<'a>,
        layout: &mut Option<L>,
        recognise: impl FnOnce(&[u8]) -> Result<L, MicrodataError>,
        has_header: fn(&L) -> bool,
    ) -> Result<Option<&'a [u8]>, MicrodataError> {
        let line = match event {
            LineEvent::TooLong if layout.is_none() => return Err(MicrodataError::FirstLineTooLong),
            LineEvent::TooLong => {
                self.rows_read += 1;
                self.exclusions.add(Reason::LineTooLong, number);
                return Ok(None);
            }
            LineEvent::Line(line) if number == 1 => {
                line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
            }
            LineEvent::Line(line) => line,
        };
        if line.trim_ascii().is_empty() {
            self.blank_lines += 1;
            return Ok(None);
        }
        if layout.is_none() {
            let header = has_header(layout.insert(recognise(line)?));
            if header {
                return Ok(None);
            }
        }
        Ok(Some(line))
    }

    /// The file's [`RowAccount`]: the rows read, excluded, blank and recoded as tallied, with
    /// the aggregator's `rows_counted` and `rows_not_infant`.
    pub fn account(&self, rows_counted: u64, rows_not_infant: u64) -> RowAccount {
        RowAccount {
            rows_read: self.rows_read,
            rows_counted,
            rows_not_infant,
            rows_excluded: self.exclusions.total(),
            blank_lines: self.blank_lines,
            recoded_rows: self.recoded_rows,
        }
    }

    /// Splits data row `number` into `fields` and reads its year: the row counts as read; a
    /// field count other than the layout's, or no valid year, excludes it.
    pub fn row_year(
        &mut self,
        fields: &mut Fields,
        line: &[u8],
        shape: RowShape,
        number: u64,
    ) -> Option<u16> {
        self.rows_read += 1;
        fields.split(line, shape.delimiter, shape.keep);
        if fields.count() != shape.field_count {
            self.exclusions.add(Reason::WrongFieldCount, number);
            return None;
        }
        let year = parse_year(fields.get(line, shape.year));
        if year.is_none() {
            self.exclusions.add(Reason::InvalidYear, number);
        }
        year
    }

    /// The 2018 commune of a row's raw `code`, counting a recoded (pre-2018 Ñuble) code; a blank
    /// or unknown code excludes the row and is remembered (the first [`MAX_UNKNOWN_CODES`]
    /// distinct codes are listed, all are counted).
    pub fn commune(
        &mut self,
        communes: &mut CommuneResolver,
        code: &[u8],
        number: u64,
    ) -> Option<Resolved> {
        let resolved = if code.is_empty() {
            None
        } else {
            communes.resolve(code)
        };
        let Some(resolved) = resolved else {
            self.exclusions.add(Reason::UnknownCommune, number);
            let code = latin1(code);
            if let Some(n) = self.unknown_codes.get_mut(&code) {
                *n += 1;
            } else if self.unknown_codes.len() < MAX_UNKNOWN_CODES {
                self.unknown_codes.insert(code, 1);
            }
            return None;
        };
        self.recoded_rows += u64::from(resolved.recoded);
        Some(resolved)
    }
}

/// How a file's data rows are cut: the delimiter, how many fields to split (the rest is not
/// read), how many a row must have, and where its year is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RowShape {
    pub delimiter: u8,
    pub keep: usize,
    pub field_count: usize,
    pub year: usize,
}

/// Unknown codes with their counts, most frequent first.
pub(crate) fn sorted_unknown_codes(
    codes: &std::collections::HashMap<String, u64>,
) -> Vec<(String, u64)> {
    let mut list: Vec<(String, u64)> = codes.iter().map(|(c, n)| (c.clone(), *n)).collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list
}

/// At most this many distinct unknown codes are listed (all are counted).
pub const MAX_UNKNOWN_CODES: usize = 100;

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
