//! Guessing the dialect of a delimited text file: delimiter, decimal mark and header row.
//!
//! The rules, in the spirit of Python's `csv.Sniffer` but quote-aware through the `csv` crate:
//! * delimiter: among `,` `;` tab `|`, the one that splits the first records into the same number
//!   (> 1) of fields most consistently; ties go to the order listed;
//! * decimal mark: a comma when numeric-looking fields of the form `12,5` outnumber those of the form
//!   `12.5` (only possible when the delimiter is not a comma);
//! * header: the first record is a header when it has no number in a column whose later values are
//!   mostly numbers, or when all its fields are non-numeric text while the rest are not.

use super::number::parse_number;
/// The decimal mark, defined with the number reading that depends on it (re-exported here, where
/// the dialect names it).
pub use super::number::Decimal;
use serde::Serialize;

/// Delimiter, decimal mark and header presence of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Dialect {
    pub delimiter: u8,
    pub decimal: Decimal,
    pub has_header: bool,
}

const CANDIDATES: [u8; 4] = [b',', b';', b'\t', b'|'];
/// Records inspected; enough to see through a few odd lines without reading a large file twice.
const SAMPLE_RECORDS: usize = 200;

/// Reads up to `SAMPLE_RECORDS` records of `text` with `delimiter`, quote-aware.
fn sample_records(text: &str, delimiter: u8) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    reader
        .records()
        .take(SAMPLE_RECORDS)
        .filter_map(Result::ok)
        .filter(|r| !(r.len() == 1 && r[0].trim().is_empty()))
        .map(|r| r.iter().map(str::to_owned).collect())
        .collect()
}

/// Guesses the dialect from the start of a decoded file.
pub fn sniff(text: &str) -> Dialect {
    // Only the first part of a large file is needed; cut at a line end.
    let head = head_of(text, 256 * 1024);
    let mut best: Option<(u8, f64, usize)> = None;
    for &delimiter in &CANDIDATES {
        let records = sample_records(head, delimiter);
        if records.is_empty() {
            continue;
        }
        let modal = modal_width(&records);
        if modal < 2 {
            continue;
        }
        let consistent = records.iter().filter(|r| r.len() == modal).count() as f64;
        // The first record (usually the header) must split like the rest: a delimiter that only
        // appears inside data values (a decimal comma) does not split the header.
        let first_matches = if records[0].len() == modal { 0.5 } else { 0.0 };
        let score = consistent / records.len() as f64 + first_matches;
        let better = match best {
            None => true,
            Some((_, best_score, best_width)) => {
                score > best_score + 1e-9
                    || ((score - best_score).abs() <= 1e-9 && modal > best_width)
            }
        };
        if better {
            best = Some((delimiter, score, modal));
        }
    }
    let delimiter = best.map(|b| b.0).unwrap_or(b',');
    let records = sample_records(head, delimiter);
    let decimal = guess_decimal(&records, delimiter);
    let has_header = guess_header(&records, decimal);
    Dialect {
        delimiter,
        decimal,
        has_header,
    }
}

fn head_of(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut cut = max_bytes;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    match text[..cut].rfind('\n') {
        Some(pos) => &text[..pos + 1],
        None => &text[..cut],
    }
}

fn modal_width(records: &[Vec<String>]) -> usize {
    let mut counts = std::collections::BTreeMap::new();
    for r in records {
        *counts.entry(r.len()).or_insert(0usize) += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(width, _)| width)
        .unwrap_or(0)
}

fn guess_decimal(records: &[Vec<String>], delimiter: u8) -> Decimal {
    if delimiter == b',' {
        return Decimal::Point;
    }
    let (mut comma, mut point) = (0usize, 0usize);
    for field in records.iter().flatten() {
        // A mantissa counts as its number does: `1,5e-3` for the comma, `1.5E+03` for the point.
        let f = strip_exponent(field.trim());
        let digits_around = |sep: char| {
            let mut parts = f.trim_start_matches('-').split(sep);
            let whole = parts.next().unwrap_or("");
            let frac = parts.next();
            parts.next().is_none()
                && !whole.is_empty()
                && whole
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
                && frac.is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
        };
        if f.contains(',') && digits_around(',') {
            comma += 1;
        } else if f.contains('.') && !f.contains(',') && digits_around('.') {
            // "1.234" alone is ambiguous (thousands or decimal); it counts for the point only
            // when the fraction is not exactly three digits.
            let frac_len = f.rsplit('.').next().map(str::len).unwrap_or(0);
            if frac_len != 3 {
                point += 1;
            }
        }
    }
    if comma > point {
        Decimal::Comma
    } else {
        Decimal::Point
    }
}

/// `f` without a trailing exponent (`e-05`, `E+3`), when it has one after at least one character.
fn strip_exponent(f: &str) -> &str {
    match f.rfind(['e', 'E']) {
        Some(at) if at > 0 => {
            let exponent = &f[at + 1..];
            let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                &f[..at]
            } else {
                f
            }
        }
        _ => f,
    }
}

fn guess_header(records: &[Vec<String>], decimal: Decimal) -> bool {
    let Some((first, rest)) = records.split_first() else {
        return false;
    };
    if rest.is_empty() {
        // A single line: a header when it holds no number at all.
        return first.iter().all(|f| parse_number(f, decimal).is_none());
    }
    for (col, name) in first.iter().enumerate() {
        let values: Vec<&String> = rest.iter().filter_map(|r| r.get(col)).collect();
        let numeric = values
            .iter()
            .filter(|v| parse_number(v, decimal).is_some())
            .count();
        let mostly_numeric = !values.is_empty() && numeric * 2 > values.len();
        if mostly_numeric && parse_number(name, decimal).is_none() && !name.trim().is_empty() {
            return true;
        }
    }
    let first_all_text = first
        .iter()
        .all(|f| !f.trim().is_empty() && parse_number(f, decimal).is_none());
    let later_numbers = rest
        .iter()
        .flatten()
        .any(|f| parse_number(f, decimal).is_some());
    if first_all_text && later_numbers {
        return true;
    }
    // A file of text only (a codebook, a list of names): the first record is a header when its
    // fields are short, distinct names that never occur again in their column.
    let distinct: std::collections::HashSet<&str> = first.iter().map(|f| f.trim()).collect();
    first_all_text
        && distinct.len() == first.len()
        && first.iter().all(|f| f.trim().chars().count() <= 64)
        && first.iter().enumerate().all(|(col, name)| {
            rest.iter()
                .all(|r| r.get(col).is_none_or(|v| v.trim() != name.trim()))
        })
}

/// The container of a spreadsheet, recognised by its bytes ([`workbook_format`]), whatever its
/// file's extension says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkbookFormat {
    /// Office Open XML (`.xlsx`, `.xlsm`): a zip archive (ECMA-376 Part 2).
    Xlsx,
    /// OpenDocument spreadsheet (`.ods`): a zip archive whose first entry, `mimetype`, says
    /// `application/vnd.oasis.opendocument.spreadsheet` (OASIS ODF 1.2 Part 3, §3.3).
    Ods,
    /// Excel 97–2003 binary (`.xls`, BIFF8): an OLE compound file ([MS-CFB] §2.2).
    Xls,
    /// XML Spreadsheet 2003 ("SpreadsheetML"): XML whose root `Workbook` is in the namespace
    /// `urn:schemas-microsoft-com:office:spreadsheet`; saved as `.xls` or `.xml` (SINIM's
    /// exports are this).
    SpreadsheetMl2003,
}

impl WorkbookFormat {
    /// The format's usual name, for messages and reports.
    pub fn label(self) -> &'static str {
        match self {
            WorkbookFormat::Xlsx => "xlsx",
            WorkbookFormat::Ods => "ods",
            WorkbookFormat::Xls => "xls (BIFF)",
            WorkbookFormat::SpreadsheetMl2003 => "XML Spreadsheet 2003",
        }
    }
}

/// The local file header signature that opens every zip archive (PKWARE APPNOTE 4.3.7).
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
/// The signature of an OLE compound file ([MS-CFB] §2.2, "Header Signature").
const OLE_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
/// The namespace of XML Spreadsheet 2003's elements.
pub const SPREADSHEETML_2003_NAMESPACE: &str = "urn:schemas-microsoft-com:office:spreadsheet";

/// The spreadsheet container `bytes` hold, by content: zip (then `.ods` by its `mimetype`
/// entry, else `.xlsx`), OLE (`.xls`), or XML naming SpreadsheetML 2003's namespace in its
/// first 4 KiB (after an optional byte-order mark; UTF-16 included); `None` for anything else,
/// a CSV above all. A zip that is not a spreadsheet (a `.docx`) is [`WorkbookFormat::Xlsx`] here
/// and fails to open as one, with a message.
pub fn workbook_format(bytes: &[u8]) -> Option<WorkbookFormat> {
    if bytes.starts_with(ZIP_MAGIC) {
        // The `mimetype` entry is stored first and uncompressed: its name at offset 30, its
        // content right after (ODF 1.2 Part 3, §3.3).
        let head = &bytes[..bytes.len().min(128)];
        let ods = head.get(30..38) == Some(b"mimetype".as_slice())
            && head
                .windows(b"opendocument.spreadsheet".len())
                .any(|w| w == b"opendocument.spreadsheet");
        return Some(if ods {
            WorkbookFormat::Ods
        } else {
            WorkbookFormat::Xlsx
        });
    }
    if bytes.starts_with(OLE_MAGIC) {
        return Some(WorkbookFormat::Xls);
    }
    let head = &bytes[..bytes.len().min(4096)];
    // UTF-16 (a BOM, then every other byte zero for ASCII): the ASCII bytes alone.
    let narrowed: Vec<u8>;
    let head = if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        narrowed = head.iter().copied().filter(|&b| b != 0).collect();
        &narrowed[2.min(narrowed.len())..]
    } else {
        head.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(head)
    };
    let start = head.iter().position(|b| !b.is_ascii_whitespace())?;
    let namespace = SPREADSHEETML_2003_NAMESPACE.as_bytes();
    (head[start] == b'<' && head.windows(namespace.len()).any(|w| w == namespace))
        .then_some(WorkbookFormat::SpreadsheetMl2003)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workbooks_are_told_by_their_bytes_not_their_names() {
        let mut ods = b"PK\x03\x04".to_vec();
        ods.extend([0u8; 26]);
        ods.extend(b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet");
        let mut xlsx = b"PK\x03\x04".to_vec();
        xlsx.extend([0u8; 26]);
        xlsx.extend(b"[Content_Types].xml");
        let xml = "<?xml version=\"1.0\"?>\n<?mso-application progid=\"Excel.Sheet\"?>\n\
                   <Workbook xmlns=\"urn:schemas-microsoft-com:office:spreadsheet\">";
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(xml.encode_utf16().flat_map(u16::to_le_bytes));
        let cases: [(&[u8], Option<WorkbookFormat>); 8] = [
            (&ods, Some(WorkbookFormat::Ods)),
            (&xlsx, Some(WorkbookFormat::Xlsx)),
            (
                &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0],
                Some(WorkbookFormat::Xls),
            ),
            (xml.as_bytes(), Some(WorkbookFormat::SpreadsheetMl2003)),
            (&utf16, Some(WorkbookFormat::SpreadsheetMl2003)),
            (b"<html><body>urn:other</body></html>", None),
            (b"codigo;anio\n01101;2020\n", None),
            (b"", None),
        ];
        for (bytes, format) in cases {
            assert_eq!(
                workbook_format(bytes),
                format,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    /// The dialect of a file with a header row.
    fn with_header(delimiter: u8, decimal: Decimal) -> Dialect {
        Dialect {
            delimiter,
            decimal,
            has_header: true,
        }
    }

    #[test]
    fn semicolons_with_decimal_commas_are_recognised() {
        let text = "comuna;año;tasa\n01101;2019;7,5\n01107;2019;10,25\n";
        assert_eq!(sniff(text), with_header(b';', Decimal::Comma));
    }

    #[test]
    fn commas_inside_quotes_do_not_fool_the_delimiter() {
        let text =
            "code,name,births\n01101,\"Iquique, Tarapacá\",3000\n01107,\"Alto Hospicio, X\",2000\n";
        let d = sniff(text);
        assert_eq!(d.delimiter, b',');
        assert!(d.has_header);
    }

    #[test]
    fn decimal_commas_in_a_semicolon_file_do_not_make_commas_the_delimiter() {
        let text = "a;b;c;d\n1;2;1,5;1,5\n1;2;0,5;\"x;y\"\n1;2\n";
        assert_eq!(sniff(text).delimiter, b';');
    }

    #[test]
    fn a_text_only_file_keeps_its_header() {
        let text = "column,label_es,notes\ntmi,Tasa de mortalidad infantil,\"SINIM, con rezago\"\nanio,Año,\n";
        assert!(sniff(text).has_header);
        assert!(!sniff("a,b\nc,d\na,b\n").has_header);
    }

    #[test]
    fn tabs_and_pipes_are_candidates() {
        assert_eq!(sniff("a\tb\tc\n1\t2\t3\n").delimiter, b'\t');
        assert_eq!(sniff("a|b|c\n1|2|3\n").delimiter, b'|');
    }

    #[test]
    fn a_file_without_a_header_row_is_recognised() {
        let d = sniff("2019;08401;3;1\n2019;01101;12;0\n2020;01101;9;1\n");
        assert!(!d.has_header);
        assert_eq!(d.delimiter, b';');
    }

    #[test]
    fn quoted_fields_with_embedded_newlines_keep_records_whole() {
        let text = "code;note;births\n01101;\"line one\nline two\";12\n01107;ok;3\n";
        let d = sniff(text);
        assert_eq!(d.delimiter, b';');
        assert!(d.has_header);
    }

    #[test]
    fn scientific_notation_counts_for_its_decimal_mark() {
        let comma = "code;year;x\n01101;2019;1,5e-3\n01107;2019;2,25E+02\n01401;2019;3,1e-05\n";
        assert_eq!(sniff(comma), with_header(b';', Decimal::Comma));
        let point = "code;year;x\n01101;2019;1.5e-3\n01107;2019;2.25E+02\n01401;2019;3.1e-05\n";
        assert_eq!(sniff(point), with_header(b';', Decimal::Point));
    }
}
