//! A decoded, delimited file as a table ([`RawTable`]): its dialect, column names, guessed
//! roles, metadata lines and physical lines, with its records in the store
//! ([`super::store::Records`]).

use super::columns::{guess_roles, ColumnRoles};
use super::decode::{decode_owned, Encoding};
use super::number::{is_missing_token, parse_number, Decimal};
use super::sniff::{sniff, Dialect};
use super::store::{field_str, next_line_record, Lines};
/// The record store, where a table keeps its records (re-exported where it was first defined).
pub use super::store::{Fields, RawRecord, Records, RecordsIter};
use super::{IngestError, Malformed};
use crate::report::MetadataLine;

/// A `"` that opens a quoted field and is never closed: the `csv` crate (as every CSV reader)
/// then reads the rest of the file into that one field. The record is excluded and the report
/// says where the quote opened and how many physical lines it swallowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnterminatedQuote {
    /// Line where the record holding the quote starts.
    pub record_line: u64,
    /// Line of the opening `"`.
    pub quote_line: u64,
    /// Physical lines from the quote's line to the end of the file, both included.
    pub lines_swallowed: u64,
}

/// A file read as text records, before validation.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RawTable {
    pub file: String,
    pub encoding: Encoding,
    pub dialect: Dialect,
    /// Column names from the header row, or `column_1`, `column_2`, … without one.
    pub columns: Vec<String>,
    pub records: Records,
    /// Leading lines starting with `#` (before the header), skipped and reported: the provenance
    /// lines of the page's and `imr`'s CSV exports. Record line numbers still count them.
    pub metadata: Vec<MetadataLine>,
    /// Roles guessed from the column names; the user may change them before validation.
    pub guessed_roles: ColumnRoles,
    /// The last record's unclosed quote, if it has one (then that record is excluded).
    pub unterminated_quote: Option<UnterminatedQuote>,
    /// Physical lines of the file (a last line without a line end counts).
    pub physical_lines: u64,
    /// The year of every row of this table when it has no time column, given for this table
    /// alone: the year in its file's or sheet's name ([`year_in_name`]) or the reader's choice
    /// for this file (`imr --time-value FILE=YEAR`). It wins over
    /// [`super::IngestOptions::time_value`], the year of every such table; a table with a time
    /// column keeps its own years. `None` from the readers: the caller decides.
    #[serde(default)]
    pub time_given: Option<i64>,
}

impl RawTable {
    /// Decodes, sniffs and splits a file. Fails only when the file cannot be read at all. Copies
    /// the bytes: [`RawTable::from_vec`] keeps a file the caller gives away without a copy.
    pub fn from_bytes(file: &str, bytes: &[u8]) -> Result<RawTable, IngestError> {
        Self::from_vec(file, bytes.to_vec())
    }

    /// [`RawTable::from_bytes`] for bytes the caller gives away: a UTF-8 file becomes the
    /// table's text in place, so the peak is the file and the field positions, not two files.
    pub fn from_vec(file: &str, bytes: Vec<u8>) -> Result<RawTable, IngestError> {
        let (text, content_start, encoding) = decode_owned(file, bytes)?;
        let (_, data) = split_metadata(&text[content_start..]);
        let dialect = sniff(data.text);
        Self::from_text(file, text, content_start, encoding, dialect)
    }

    /// Splits decoded text with a known dialect (used when the user overrides the guess); the
    /// content starts at byte `content_start` of `text` (after a byte-order mark).
    pub fn from_text(
        file: &str,
        text: String,
        content_start: usize,
        encoding: Encoding,
        dialect: Dialect,
    ) -> Result<RawTable, IngestError> {
        Self::split(file, text, content_start, encoding, dialect, true)
    }

    /// [`RawTable::from_text`]; `by_lines` lets a text without a `"` be read by lines
    /// ([`Lines`], [`read_by_lines`]); without it every text goes through the `csv` crate
    /// ([`read_by_csv`]; the tests compare the two readings).
    pub(super) fn split(
        file: &str,
        text: String,
        content_start: usize,
        encoding: Encoding,
        dialect: Dialect,
        by_lines: bool,
    ) -> Result<RawTable, IngestError> {
        let content = text.get(content_start..).unwrap_or("");
        let (metadata, data) = split_metadata(content);
        let data_start = text.len() - data.text.len();
        let (bytes, skipped) = (data.text.as_bytes(), data.lines_before);
        let data = DataBytes {
            bytes,
            start: data_start,
            lines_before: skipped,
        };
        // Without a `"` a record is a run of bytes between line ends, split at each delimiter:
        // read so, at memchr's speed, rather than by the csv crate's state machine (half the
        // split of a numeric panel).
        let unquoted = by_lines
            && !matches!(dialect.delimiter, b'"' | b'\n' | b'\r')
            && memchr::memchr(b'"', bytes).is_none();
        let DataRead {
            mut records,
            columns,
            unterminated_quote,
        } = if unquoted {
            read_by_lines(file, &data, dialect)?
        } else {
            read_by_csv(file, &data, dialect)?
        };
        let physical_lines = skipped + count_lines(bytes);
        records.set_text(text);
        let columns = columns.unwrap_or_else(|| {
            let width = records.iter().map(|r| r.len()).max().unwrap_or(0);
            (1..=width).map(|i| format!("column_{i}")).collect()
        });
        if columns.is_empty() || (records.is_empty() && !dialect.has_header) {
            return Err(IngestError::Empty { file: file.into() });
        }
        if let Some(q) = unterminated_quote {
            if records
                .get(records.len().wrapping_sub(1))
                .is_none_or(|r| r.line != q.record_line)
            {
                return Err(IngestError::Malformed {
                    file: file.into(),
                    line: q.quote_line,
                    why: Malformed::HeaderQuoteNeverClosed {
                        quote_line: q.quote_line,
                        lines_swallowed: q.lines_swallowed,
                    },
                });
            }
        }
        let guessed_roles = guess_roles(&columns);
        Ok(RawTable {
            file: file.into(),
            encoding,
            dialect,
            columns,
            records,
            metadata,
            guessed_roles,
            unterminated_quote,
            physical_lines,
            time_given: None,
        })
    }

    /// Whether column `index` holds numbers: at least one value, and at least half of its
    /// non-missing values parse as numbers in the file's decimal convention.
    pub fn column_is_numeric(&self, index: usize) -> bool {
        let (mut numbers, mut present) = (0usize, 0usize);
        for (read, r) in self.records.iter().enumerate() {
            // Decided once the numbers are at least half even if every record still to read
            // held a non-number (a numeric column is read half, not whole).
            let unread = self.records.len() - read;
            if numbers > 0 && numbers * 2 >= present + unread {
                return true;
            }
            let Some(v) = r.field(index) else {
                continue;
            };
            if is_missing_token(v) {
                continue;
            }
            present += 1;
            if parse_number(v, self.dialect.decimal).is_some() {
                numbers += 1;
            }
        }
        present > 0 && numbers * 2 >= present
    }

    pub fn decimal(&self) -> Decimal {
        self.dialect.decimal
    }
}

/// The year a file's or sheet's name holds (`defunciones_2022.csv` → 2022, sheet "2010" →
/// 2010, `INE 2015 (rev).xlsx` → 2015): the one run of exactly four digits from 1800 to 2199
/// not touching other digits, or `None` when there is none or more than one (`2010_2015.csv`
/// names a period, not a year). The folders of a path are not read.
pub fn year_in_name(name: &str) -> Option<i64> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let mut years = base
        .split(|c: char| !c.is_ascii_digit())
        .filter(|run| run.len() == 4)
        .filter_map(|run| run.parse::<i64>().ok())
        .filter(|y| (1800..=2199).contains(y));
    let year = years.next()?;
    years.next().is_none().then_some(year)
}

/// The data part of a file as bytes: where it starts in the decoded text and how many physical
/// lines (metadata) are before it.
struct DataBytes<'a> {
    bytes: &'a [u8],
    start: usize,
    lines_before: u64,
}

/// What a reading of the data part gives: the records in the store, the header's names (when
/// the dialect has a header) and the last record's unclosed quote, if it has one.
struct DataRead {
    records: Records,
    columns: Option<Vec<String>>,
    unterminated_quote: Option<UnterminatedQuote>,
}

/// The error of a record of 4 GiB or more on physical line `line` of `file`.
fn too_long(file: &str, line: u64) -> IngestError {
    IngestError::Malformed {
        file: file.into(),
        line,
        why: Malformed::RecordTooLong,
    }
}

/// Reads a text without `"` by lines: the header's names (when the dialect has a header), then
/// per record only its length (and a mark every `STRIDE` records) in the store.
fn read_by_lines(file: &str, data: &DataBytes, dialect: Dialect) -> Result<DataRead, IngestError> {
    let (bytes, data_start, skipped) = (data.bytes, data.start, data.lines_before);
    let mut columns: Option<Vec<String>> = None;
    // By lines: the header, then per record only its length (and a mark every STRIDE).
    let delimiter = dialect.delimiter;
    let mut lines = Lines::new(delimiter);
    let (mut at, mut line) = (0usize, 1u64);
    while let Some((start, end, record_line)) = next_line_record(bytes, at, line, delimiter) {
        (at, line) = (end, record_line);
        if columns.is_none() && dialect.has_header {
            let header = &bytes[start..end];
            columns = Some(header_names(
                header.split(|&b| b == delimiter).map(field_str),
            ));
            continue;
        }
        let length =
            u32::try_from(end - start).map_err(|_| too_long(file, record_line + skipped))?;
        lines.push((data_start + start) as u64, record_line + skipped, length);
    }
    Ok(DataRead {
        records: Records::from_lines(lines),
        columns,
        unterminated_quote: None,
    })
}

/// Reads any text with the `csv` crate: the header's names (when the dialect has a header),
/// each record in place (without `"`) or unquoted into the store, and the last record's
/// unclosed quote if it has one.
fn read_by_csv(file: &str, data: &DataBytes, dialect: Dialect) -> Result<DataRead, IngestError> {
    let (bytes, data_start, skipped) = (data.bytes, data.start, data.lines_before);
    let mut records = Records::default();
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(dialect.delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut columns: Option<Vec<String>> = None;
    // One reused record: no allocation per record. Byte records: the text is
    // valid UTF-8 and split at ASCII bytes only, so each field is too.
    let mut record = csv::ByteRecord::new();
    let mut unterminated_quote = None;
    // Spans (of a text read by the csv crate) sized once from the text (a record per line
    // at most, and a record that is not blank takes two bytes): growing them by doubling
    // copied and faulted in pages several times over. Only a guess, so `try_reserve`: a
    // guess the memory cannot hold (a file of blank lines in wasm32) leaves the buffers to
    // grow as they fill, never aborts.
    let record_guess = (count_lines(bytes) as usize).min(bytes.len() / 2 + 1);
    records.reserve_spans(record_guess);
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(err) => {
                let line = err.position().map(|p| p.line() + skipped).unwrap_or(0);
                return Err(IngestError::Malformed {
                    file: file.into(),
                    line,
                    why: Malformed::Reader {
                        detail: err.to_string(),
                    },
                });
            }
        }
        let (start, end) = (
            record.position().map(|p| start_of(bytes, p)),
            reader.position().byte() as usize,
        );
        // A record without a `"` cannot span lines: its line ends are counted only when
        // it has one (a pass over every record's bytes was a tenth of the split).
        let (line, more_lines, raw) = match start {
            Some((line, byte)) => {
                let raw = trim_line_end(&bytes[byte.min(end)..end]);
                let quoted = memchr::memchr(b'"', raw).is_some();
                let more_lines = if quoted { count_newlines(raw) } else { 0 };
                (line + skipped, more_lines, Some((byte, raw, quoted)))
            }
            None => (0, 0, None),
        };
        if record.len() == 1 && field_str(&record[0]).trim().is_empty() {
            continue;
        }
        if end >= bytes.len() {
            if let Some((byte, _, _)) = raw {
                if let Some(quote_at) = unclosed_quote(&bytes[byte..], dialect.delimiter) {
                    let quote_line = line + count_newlines(&bytes[byte..byte + quote_at]);
                    unterminated_quote = Some(UnterminatedQuote {
                        record_line: line,
                        quote_line,
                        lines_swallowed: line + more_lines - quote_line + 1,
                    });
                }
            }
        }
        if columns.is_none() && dialect.has_header {
            columns = Some(header_names(record.iter().map(field_str)));
            // A field takes at least its delimiter in the text, so a quarter of the text
            // bounds the guess for a wide header (669,249 names) over many lines.
            let fields = record_guess.saturating_mul(record.len() + 1);
            records.reserve_ends(fields.min(bytes.len() / 4));
            continue;
        }
        // Without a `"` the csv reader reads the record's bytes as they are, split at each
        // delimiter (and the line end trimmed), so field `i` ends `i` delimiters after the
        // end of the first `i + 1` fields concatenated.
        let pushed = match raw {
            Some((byte, _, false)) => {
                let end = |i: usize| record.range(i).map_or(0, |r| r.end) + i;
                let text_len = record.len().checked_sub(1).map_or(0, end);
                let ends = (0..record.len()).map(end);
                records.push_span(line, data_start + byte, true, text_len, ends)
            }
            _ => records.push_unquoted(
                line,
                more_lines,
                field_str(record.as_slice()),
                (0..record.len()).map(|i| record.range(i).map_or(0, |r| r.end)),
            ),
        };
        if pushed.is_err() {
            return Err(too_long(file, line));
        }
    }
    Ok(DataRead {
        records,
        columns,
        unterminated_quote,
    })
}

/// The data part of a text after its leading metadata lines.
struct DataPart<'a> {
    text: &'a str,
    /// Physical lines before `text` starts.
    lines_before: u64,
}

/// Splits off the leading lines that start with `#` (blank lines among them included). A `#`
/// after the first other line is data, as in any CSV.
fn split_metadata(text: &str) -> (Vec<MetadataLine>, DataPart<'_>) {
    let mut metadata = Vec::new();
    let (mut offset, mut line, mut data_at) = (0usize, 0u64, (0usize, 0u64));
    while offset < text.len() {
        let end = text[offset..]
            .find('\n')
            .map(|i| offset + i + 1)
            .unwrap_or(text.len());
        let content = text[offset..end].trim_end_matches(['\n', '\r']);
        line += 1;
        if content.starts_with('#') {
            metadata.push(MetadataLine {
                line,
                text: content.to_owned(),
            });
            data_at = (end, line);
        } else if !content.trim().is_empty() {
            break;
        }
        offset = end;
    }
    (
        metadata,
        DataPart {
            text: &text[data_at.0..],
            lines_before: data_at.1,
        },
    )
}

/// The physical line and byte where a record starts. The `csv` crate reports the position before
/// the blank lines it skips, so those are counted here from the record's byte offset.
fn start_of(text: &[u8], position: &csv::Position) -> (u64, usize) {
    let mut line = position.line();
    let mut byte = position.byte() as usize;
    while byte < text.len() && (text[byte] == b'\n' || text[byte] == b'\r') {
        if text[byte] == b'\n' {
            line += 1;
        }
        byte += 1;
    }
    (line, byte)
}

fn count_newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// Physical lines of a text: its line ends, plus one for a last line without one.
fn count_lines(bytes: &[u8]) -> u64 {
    count_newlines(bytes) + u64::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

/// `bytes` without the line end(s) that terminate a record.
fn trim_line_end(bytes: &[u8]) -> &[u8] {
    let mut end = bytes.len();
    while end > 0 && (bytes[end - 1] == b'\n' || bytes[end - 1] == b'\r') {
        end -= 1;
    }
    &bytes[..end]
}

/// The offset of a `"` that opens a quoted field of the record at the start of `bytes` and is
/// still open at the end of `bytes`, following the `csv` crate's rules: a quote opens a field
/// only as its first byte, `""` inside is an escaped quote, a quote elsewhere is literal.
fn unclosed_quote(bytes: &[u8], delimiter: u8) -> Option<usize> {
    let (mut at_field_start, mut open) = (true, None);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match open {
            Some(_) if b == b'"' => {
                if bytes.get(i + 1) == Some(&b'"') {
                    i += 2;
                    continue;
                }
                open = None;
                at_field_start = false;
            }
            Some(_) => {}
            None if b == b'"' && at_field_start => {
                open = Some(i);
                at_field_start = false;
            }
            None => at_field_start = b == delimiter || b == b'\n' || b == b'\r',
        }
        i += 1;
    }
    open
}

/// Header names, trimmed; blank or repeated names get a position suffix (`name_3`, then
/// `name_3_2`, … if that is taken too) so each is unique. Linear in the number of names: a
/// hash set of the names given so far (a 5 MB header of 669,249 names hung the former
/// quadratic search).
pub(super) fn header_names<'r>(record: impl Iterator<Item = &'r str> + Clone) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(record.size_hint().0);
    let mut taken: std::collections::HashSet<String> =
        record.clone().map(|raw| raw.trim().to_owned()).collect();
    let mut given: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (i, raw) in record.enumerate() {
        let mut name = raw.trim().to_owned();
        if name.is_empty() {
            name = format!("column_{}", i + 1);
        }
        if given.contains(&name) {
            let base = format!("{name}_{}", i + 1);
            name = base.clone();
            let mut k = 2;
            while taken.contains(&name) || given.contains(&name) {
                name = format!("{base}_{k}");
                k += 1;
            }
        }
        taken.insert(name.clone());
        given.insert(name.clone());
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_physical_and_count_the_header_as_line_one() {
        let text = b"code;births\n01101;10\n\n01107;\"two\nlines\"\n01401;5\n";
        let t = RawTable::from_bytes("x.csv", text).unwrap();
        let lines: Vec<u64> = t.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![2, 4, 6]);
        assert_eq!(t.records.get(1).unwrap().field(1), Some("two\nlines"));
    }

    #[test]
    fn a_file_without_header_gets_positional_names() {
        let t = RawTable::from_bytes("x.csv", b"2019;01101;3;1\n2020;01101;4;0\n").unwrap();
        assert_eq!(
            t.columns,
            vec!["column_1", "column_2", "column_3", "column_4"]
        );
        assert_eq!(t.records.get(0).unwrap().line, 1);
    }

    #[test]
    fn leading_comment_lines_are_metadata_and_lines_stay_physical() {
        let text = b"# Source: x.csv\n# imr-atlas engine 0.1.0\n\n# Generated: 2026-11-30\ncode;births\n01101;10\n\n01107;5\n";
        let t = RawTable::from_bytes("x.csv", text).unwrap();
        assert_eq!(t.columns, vec!["code", "births"]);
        assert!(t.dialect.has_header);
        assert_eq!(t.dialect.delimiter, b';');
        let meta: Vec<(u64, &str)> = t
            .metadata
            .iter()
            .map(|m| (m.line, m.text.as_str()))
            .collect();
        assert_eq!(
            meta,
            vec![
                (1, "# Source: x.csv"),
                (2, "# imr-atlas engine 0.1.0"),
                (4, "# Generated: 2026-11-30")
            ]
        );
        let lines: Vec<u64> = t.records.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![6, 8]);
    }

    #[test]
    fn a_split_error_after_comment_lines_names_the_true_line() {
        let text = b"# a\r\n# b\r\ncode,name\r\n01101,\"ok\"\r\n01107,\"x\"y\"\r\n";
        let t = RawTable::from_bytes("x.csv", text).unwrap();
        assert_eq!(t.metadata.len(), 2);
        assert_eq!(
            t.records.iter().map(|r| r.line).collect::<Vec<_>>(),
            vec![4, 5]
        );
    }

    #[test]
    fn a_hash_inside_the_data_is_data() {
        let t = RawTable::from_bytes("x.csv", b"code,note\n01101,a\n#2,b\n").unwrap();
        assert!(t.metadata.is_empty());
        assert_eq!(t.records.len(), 2);
        assert_eq!(t.records.get(1).unwrap().field(0), Some("#2"));
    }

    #[test]
    fn a_header_only_file_has_no_records() {
        let t = RawTable::from_bytes("x.csv", b"code,year,births,deaths\n").unwrap();
        assert!(t.records.is_empty());
        assert_eq!(t.columns.len(), 4);
    }

    #[test]
    fn repeated_names_get_a_suffix_that_no_other_column_has() {
        let t = RawTable::from_bytes("x.csv", b"a,a,a_2,,column_4\n1,2,3,4,5\n").unwrap();
        assert_eq!(
            t.columns,
            vec!["a", "a_2_2", "a_2", "column_4", "column_4_5"]
        );
    }

    #[test]
    fn physical_lines_count_a_last_line_without_a_line_end() {
        let t = RawTable::from_bytes("x.csv", b"# m\n\ncode,n\n1,2\n\n3,4").unwrap();
        assert_eq!(t.physical_lines, 6);
        let t = RawTable::from_bytes("x.csv", b"code,n\r\n1,\"a\r\nb\"\r\n").unwrap();
        assert_eq!(t.physical_lines, 3);
        let r = t.records.get(0).unwrap();
        assert_eq!((r.line, r.end_line), (2, 3));
    }

    /// The early decision of `column_is_numeric` gives the count's answer on every table.
    #[test]
    fn numeric_columns_are_decided_as_by_counting() {
        let by_counting = |t: &RawTable, i: usize| {
            let values: Vec<&str> = t
                .records
                .iter()
                .filter_map(|r| r.field(i))
                .filter(|v| !is_missing_token(v))
                .collect();
            let numbers = values
                .iter()
                .filter(|v| parse_number(v, t.decimal()).is_some())
                .count();
            !values.is_empty() && numbers * 2 >= values.len()
        };
        let cells = ["1", "x", "", "NA", "2.5", "y"];
        for n in 0..6usize.pow(4) {
            let mut text = String::from("a,b\n");
            let mut k = n;
            for _ in 0..4 {
                text.push_str(&format!("{},0\n", cells[k % 6]));
                k /= 6;
            }
            let t = RawTable::from_bytes("x.csv", text.as_bytes()).unwrap();
            assert_eq!(t.column_is_numeric(0), by_counting(&t, 0), "{text:?}");
        }
    }

    #[test]
    fn the_year_of_a_name_is_its_one_four_digit_year() {
        for (name, year) in [
            ("defunciones_2022.csv", Some(2022)),
            ("2010", Some(2010)),
            ("data/2019/INE 2015 (rev).xlsx", Some(2015)),
            ("nacimientos-1999.CSV", Some(1999)),
            ("defunciones_2010_2015.csv", None),
            ("comunas.csv", None),
            ("codigo_01101.csv", None),
            ("serie_20221.csv", None),
            ("anio_3000.csv", None),
        ] {
            assert_eq!(year_in_name(name), year, "{name}");
        }
    }

    /// Blank lines are counted, not records, and the buffers guessed from the line count hold
    /// only what is read.
    #[test]
    fn a_file_of_blank_lines_has_its_lines_and_no_records() {
        let mut text = b"code,n\n".to_vec();
        text.extend(std::iter::repeat_n(b'\n', 100_000));
        text.extend_from_slice(b"1,2\n");
        let t = RawTable::from_bytes("x.csv", &text).unwrap();
        assert_eq!(t.records.len(), 1);
        assert_eq!(t.records.get(0).unwrap().line, 100_002);
        assert_eq!(t.physical_lines, 100_002);
    }
}
