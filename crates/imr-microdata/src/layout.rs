//! Recognising the deaths microdata by its shape, with or without its header row.

use crate::error::{Expected, MicrodataError, NotDeaths};
use crate::fields::{field, latin1, parse_digits, parse_year, Fields};
use imr_data::names::normalise_name;
use serde::Serialize;

/// The first columns of the health ministry's deaths file (DEIS, "defunciones por causa"), in
/// the order of its headerless exports. More columns follow (diagnosis groups, etc.).
pub const DEATHS_COLUMNS: [&str; 9] = [
    "ANO_DEF",
    "FECHA_DEF",
    "GLOSA_SEXO",
    "EDAD_TIPO",
    "EDAD_CANT",
    "CODIGO_COMUNA_RESIDENCIA",
    "GLOSA_COMUNA_RESIDENCIA",
    "GLOSA_REG_RES",
    "DIAG1",
];

/// The delimiter of the ministry's files.
pub const DELIMITER: u8 = b';';

/// Where the columns the aggregation needs are, as read from the header or assumed for a
/// headerless file (the official order, [`DEATHS_COLUMNS`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeathsLayout {
    pub has_header: bool,
    /// Fields per line: of the header, or of the first line when there is none. Lines with
    /// another count are malformed.
    pub field_count: usize,
    pub year: usize,
    pub age_unit: usize,
    pub age_value: usize,
    pub commune: usize,
    pub diag1: Option<usize>,
}

/// Header text: UTF-8 when valid, else Latin-1.
pub(crate) fn header_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => latin1(bytes),
    }
}

/// The names of a header line, normalised (`AÑO_DEF` → `ano_def`).
pub(crate) fn header_names(line: &[u8], delimiter: u8) -> (Vec<String>, Vec<String>) {
    let text = header_text(line);
    let raw: Vec<String> = text
        .split(delimiter as char)
        .map(|name| latin1_trim_quotes(name).to_owned())
        .collect();
    let normalised = raw.iter().map(|n| normalise_name(n)).collect();
    (raw, normalised)
}

fn latin1_trim_quotes(name: &str) -> &str {
    name.trim().trim_matches('"').trim()
}

pub(crate) fn shorten(line: &[u8]) -> String {
    let text = header_text(&line[..line.len().min(200)]);
    if line.len() > 200 {
        format!("{text}…")
    } else {
        text
    }
}

fn looks_like_date(value: &[u8]) -> bool {
    (8..=10).contains(&value.len())
        && value
            .iter()
            .all(|b| b.is_ascii_digit() || *b == b'-' || *b == b'/')
        && value.iter().filter(|b| b.is_ascii_digit()).count() >= 6
}

impl DeathsLayout {
    /// Reads the first line of a file (without its line end or byte-order mark): the header, or
    /// a first data row in the official column order.
    pub fn recognise(first_line: &[u8]) -> Result<DeathsLayout, MicrodataError> {
        let (raw, names) = header_names(first_line, DELIMITER);
        if names.iter().any(|n| n == "ano_def") || names.iter().any(|n| n == "edad_tipo") {
            let find = |wanted: &str| -> Result<usize, MicrodataError> {
                names
                    .iter()
                    .position(|n| n == &wanted.to_ascii_lowercase())
                    .ok_or_else(|| MicrodataError::MissingColumn {
                        column: wanted.to_owned(),
                        columns: raw.join(", "),
                    })
            };
            return Ok(DeathsLayout {
                has_header: true,
                field_count: names.len(),
                year: find("ANO_DEF")?,
                age_unit: find("EDAD_TIPO")?,
                age_value: find("EDAD_CANT")?,
                commune: find("CODIGO_COMUNA_RESIDENCIA")?,
                diag1: find("DIAG1").ok(),
            });
        }
        let mut fields = Fields::default();
        fields.split(first_line, DELIMITER, DEATHS_COLUMNS.len());
        let not_deaths = |why: NotDeaths| MicrodataError::NotDeathsFile {
            first_line: shorten(first_line),
            why,
        };
        if fields.count() < DEATHS_COLUMNS.len() {
            return Err(not_deaths(NotDeaths::TooFewFields {
                expected: DEATHS_COLUMNS.len(),
                found: fields.count(),
            }));
        }
        let value = |i: usize| fields.get(first_line, i);
        let checks: [(usize, Expected, bool); 5] = [
            (0, Expected::Year, parse_year(value(0)).is_some()),
            (1, Expected::Date, looks_like_date(value(1))),
            (
                3,
                Expected::AgeUnit,
                matches!(parse_digits(value(3)), Some(1..=4 | 9)),
            ),
            (
                4,
                Expected::Age,
                value(4).is_empty() || parse_digits(value(4)).is_some(),
            ),
            (
                5,
                Expected::CommuneCode,
                value(5).is_empty() || value(5).iter().all(u8::is_ascii_digit),
            ),
        ];
        if let Some((i, expected, _)) = checks.iter().find(|(_, _, ok)| !ok) {
            return Err(not_deaths(NotDeaths::Field {
                field: i + 1,
                column: DEATHS_COLUMNS[*i].to_owned(),
                value: latin1(field(value(*i))),
                expected: *expected,
            }));
        }
        Ok(DeathsLayout {
            has_header: false,
            field_count: fields.count(),
            year: 0,
            age_unit: 3,
            age_value: 4,
            commune: 5,
            diag1: Some(8),
        })
    }

    /// The number of leading fields a row must be split into to reach every needed column.
    pub(crate) fn fields_needed(&self, with_cause: bool) -> usize {
        let mut last = self
            .year
            .max(self.age_unit)
            .max(self.age_value)
            .max(self.commune);
        if with_cause {
            if let Some(d) = self.diag1 {
                last = last.max(d);
            }
        }
        last + 1
    }
}

/// Whether the start of a file (any number of bytes, e.g. the first 64 KiB) is deaths
/// microdata, so that the page can route a dropped file to the streaming aggregator.
pub fn looks_like_deaths_microdata(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = head.split(|&b| b == b'\n').next().unwrap_or(b"");
    let first = first.strip_suffix(b"\r").unwrap_or(first);
    DeathsLayout::recognise(first).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_found_by_name_in_any_order_and_in_latin1() {
        let layout = DeathsLayout::recognise(
            b"DIAG1;A\xd1O_DEF;EDAD_TIPO;EDAD_CANT;CODIGO_COMUNA_RESIDENCIA",
        )
        .unwrap();
        assert!(layout.has_header);
        assert_eq!(
            (
                layout.year,
                layout.age_unit,
                layout.age_value,
                layout.commune,
                layout.diag1
            ),
            (1, 2, 3, 4, Some(0))
        );
    }

    #[test]
    fn a_headerless_first_row_is_recognised_by_its_values() {
        let line = b"2019;2019-03-04;Mujer;2;3;13101;Santiago;Metropolitana;J189;x";
        let layout = DeathsLayout::recognise(line).unwrap();
        assert!(!layout.has_header);
        assert_eq!(layout.field_count, 10);
        assert!(looks_like_deaths_microdata(
            b"\xEF\xBB\xBF2019;2019-03-04;Mujer;2;3;13101;Santiago;RM;J189\r\nmore"
        ));
    }

    #[test]
    fn an_aggregated_table_is_not_taken_for_deaths_microdata_and_the_message_says_why() {
        let err =
            DeathsLayout::recognise(b"codigo_comuna;anio;nacimientos;defunciones").unwrap_err();
        assert!(err.to_string().contains("at least 9"), "{err}");
        let err = DeathsLayout::recognise(b"2019;x;Mujer;2;3;13101;Santiago;RM;J189").unwrap_err();
        assert!(err.to_string().contains("field 2 (FECHA_DEF)"), "{err}");
        let err = DeathsLayout::recognise(b"ANO_DEF;EDAD_TIPO;EDAD_CANT").unwrap_err();
        assert!(
            err.to_string().contains("CODIGO_COMUNA_RESIDENCIA"),
            "{err}"
        );
    }
}
