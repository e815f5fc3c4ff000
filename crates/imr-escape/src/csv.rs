//! The one CSV writer of every export (page downloads and `imr` output).

use std::borrow::Cow;

/// Options of [`CsvWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsvOptions {
    /// Neutralise cells a spreadsheet would run as a formula ([`csv_cell`]). On by default;
    /// `imr --no-formula-guard` turns it off for files that only programs will read.
    pub formula_guard: bool,
}

impl Default for CsvOptions {
    fn default() -> Self {
        CsvOptions {
            formula_guard: true,
        }
    }
}

impl CsvOptions {
    /// Options with the formula guard off: cells are written exactly as they are.
    pub const RAW: CsvOptions = CsvOptions {
        formula_guard: false,
    };
}

/// A plain decimal number as programs write it: optional sign, digits with at most one decimal
/// point, optional exponent (`-1.5`, `+3`, `.5`, `1e-3`, `-2.5E+03`). Not `inf` or `NaN`.
fn is_plain_number(cell: &str) -> bool {
    let b = cell.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let mut digits = 0;
    let mut point = false;
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => digits += 1,
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// A cell that cannot run as a spreadsheet formula: a cell starting with `=`, `+`, `-`, `@`, tab
/// or carriage return gets a leading `'` (which spreadsheets show as text), unless it is a plain
/// number (`-1.5`, `+3`, `1e-3`), which is kept as it is so numbers stay numbers.
///
/// Rule: OWASP, "CSV Injection" (owasp.org/www-community/attacks/CSV_Injection): "prepend each
/// cell field \[starting with `=`, `+`, `-`, `@`, tab (0x09) or carriage return (0x0D)\] with a
/// single quote". Programs reading the file see the `'`; `imr --no-formula-guard` turns this
/// off.
pub fn csv_cell(cell: &str) -> Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') if !is_plain_number(cell) => {
            Cow::Owned(format!("'{cell}"))
        }
        _ => Cow::Borrowed(cell),
    }
}

/// The CSV writer of every export: RFC 4180 through the `csv` crate's [`csv::Writer`]
/// (comma, `\n` line ends, a field quoted when it holds a comma, a quote, `\r` or `\n`, quotes
/// doubled), each cell through [`csv_cell`] when [`CsvOptions::formula_guard`] is on.
pub struct CsvWriter {
    writer: csv::Writer<Vec<u8>>,
    options: CsvOptions,
}

impl CsvWriter {
    /// An empty table.
    pub fn new(options: CsvOptions) -> Self {
        CsvWriter {
            writer: csv::WriterBuilder::new()
                .flexible(true)
                .from_writer(Vec::new()),
            options,
        }
    }

    /// Writes one record (the header row or a data row).
    pub fn record<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let guard = self.options.formula_guard;
        let cells = cells.into_iter().map(|c| {
            let c = c.as_ref();
            if guard {
                csv_cell(c).into_owned()
            } else {
                c.to_owned()
            }
        });
        // Writing to a Vec cannot fail, and flexible records rule out unequal lengths, the
        // only other error of `write_record`.
        self.writer
            .write_record(cells)
            .expect("csv::Writer into a Vec with flexible records cannot fail");
    }

    /// The CSV text.
    pub fn into_string(self) -> String {
        let bytes = self
            .writer
            .into_inner()
            .unwrap_or_else(|e| e.into_inner().get_ref().clone());
        // Every cell was a &str and the writer adds only ASCII: valid UTF-8.
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formulas_are_neutralised_and_numbers_kept() {
        for formula in [
            "=1+1",
            "=HYPERLINK(\"http://x\",\"y\")",
            "+a",
            "-a",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "-",
            "+",
            "-inf",
            "-1e",
            "--1",
        ] {
            assert_eq!(csv_cell(formula), format!("'{formula}"), "{formula:?}");
        }
        for plain in [
            "-1.5", "+3", "1e-3", "-2.5E+03", "-.5", "abc", "", "1=1", "0",
        ] {
            assert_eq!(csv_cell(plain), plain, "{plain:?}");
        }
    }

    #[test]
    fn the_writer_quotes_carriage_returns_and_guards_by_default() {
        let mut w = CsvWriter::new(CsvOptions::default());
        w.record(["entity", "note"]);
        w.record(["a\rb", "=cmd|' /C calc'!A0"]);
        w.record(["x,y", "say \"hi\""]);
        assert_eq!(
            w.into_string(),
            "entity,note\n\"a\rb\",'=cmd|' /C calc'!A0\n\"x,y\",\"say \"\"hi\"\"\"\n"
        );
        let mut raw = CsvWriter::new(CsvOptions::RAW);
        raw.record(["=1+1", "-2"]);
        assert_eq!(raw.into_string(), "=1+1,-2\n");
    }

    proptest! {
        #[test]
        fn the_csv_crate_reads_back_every_cell(rows in proptest::collection::vec(proptest::collection::vec(any::<String>(), 1..4), 1..4)) {
            let mut w = CsvWriter::new(CsvOptions::default());
            for r in &rows {
                w.record(r);
            }
            let text = w.into_string();
            let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
            let back: Vec<Vec<String>> = reader
                .records()
                .map(|r| r.unwrap().iter().map(str::to_owned).collect())
                .collect();
            let expected: Vec<Vec<String>> = rows
                .iter()
                .map(|r| r.iter().map(|c| csv_cell(c).into_owned()).collect())
                .collect();
            // a record of one empty field is written as `""` and read back as one empty field;
            // the csv reader skips nothing else
            prop_assert_eq!(back, expected);
        }

        #[test]
        fn guarded_cells_never_start_a_formula(s in any::<String>()) {
            let c = csv_cell(&s);
            let starts_formula = c.starts_with(['=', '+', '-', '@', '\t', '\r']);
            prop_assert!(!starts_formula || is_plain_number(&c));
        }
    }
}
