//! The first line of a one-row-per-birth file as the page offers its columns: the delimiter,
//! each column as a header name or (without a header) a 1-based position with the first row's
//! value, and a guess of the year and commune columns. The page reads only the file's first
//! 64 KiB for this; the aggregator ([`crate::BirthsAggregator`]) reads the whole file.

use crate::job::BirthsColumns;

/// The choices for the births columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BirthsHead {
    /// The delimiter of the first line: the most frequent of `;`, `,`, tab and `|` (`;` first
    /// on a tie, the ministry's).
    pub delimiter: char,
    /// Each column as (the value sent as the column: its header name or 1-based position, the
    /// label shown: the name, or `#3 (13101)` with the first row's value).
    pub columns: Vec<(String, String)>,
    /// Index in `columns` of the guessed year column.
    pub year_guess: usize,
    /// Index in `columns` of the guessed commune column.
    pub commune_guess: usize,
}

/// The delimiter of a first line: the most frequent of `;`, `,`, tab and `|`.
fn sniff_delimiter(line: &str) -> char {
    let mut best = (';', 0);
    for d in [';', ',', '\t', '|'] {
        let n = line.matches(d).count();
        if n > best.1 {
            best = (d, n);
        }
    }
    best.0
}

impl BirthsHead {
    /// Reads the first line of `head` (Latin-1, a leading BOM skipped). A header is a first
    /// line with a field that is not all digits. The year column is the first whose name holds
    /// `ANO`, `AÑO` or `YEAR`, or whose value is a four-digit number starting with 1 or 2; the
    /// commune column the first whose name holds `COMUNA` (not `GLOSA` or `NOMBRE`: those are
    /// names, not codes) or, without a header, the first other 4- or 5-digit value; failing
    /// that the first column that is not the year's.
    pub fn read(head: &[u8]) -> BirthsHead {
        let text: String = head.iter().map(|&b| b as char).collect();
        let first = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches('\u{feff}')
            // A BOM read as Latin-1.
            .trim_start_matches("\u{ef}\u{bb}\u{bf}");
        let delimiter = sniff_delimiter(first);
        let fields: Vec<&str> = first.split(delimiter).map(str::trim).collect();
        let numeric = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        let has_header = fields.iter().any(|f| !numeric(f));
        let columns: Vec<(String, String)> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                if has_header {
                    (f.to_string(), f.to_string())
                } else {
                    ((i + 1).to_string(), format!("#{} ({f})", i + 1))
                }
            })
            .collect();
        let upper: Vec<String> = fields.iter().map(|f| f.to_uppercase()).collect();
        let find = |pred: &dyn Fn(&str, &str) -> bool| {
            upper.iter().zip(&fields).position(|(u, raw)| pred(u, raw))
        };
        let year_guess = find(&|u, raw| {
            u.contains("ANO")
                || u.contains("AÑO")
                || u.contains("YEAR")
                || (raw.len() == 4 && numeric(raw) && raw.starts_with(['1', '2']))
        })
        .unwrap_or(0);
        let commune_guess =
            find(&|u, _| u.contains("COMUNA") && !u.contains("GLOSA") && !u.contains("NOMBRE"))
                .or_else(|| {
                    (!has_header)
                        .then(|| {
                            fields.iter().enumerate().position(|(i, raw)| {
                                i != year_guess
                                    && (raw.len() == 4 || raw.len() == 5)
                                    && numeric(raw)
                            })
                        })
                        .flatten()
                })
                .unwrap_or(if year_guess == 0 { 1 } else { 0 });
        BirthsHead {
            delimiter,
            columns,
            year_guess,
            commune_guess,
        }
    }

    /// The value sent for the column at `index`, if there is one.
    pub fn column_value(&self, index: usize) -> Option<&str> {
        self.columns.get(index).map(|(value, _)| value.as_str())
    }

    /// The job's births columns for the chosen `year` and `commune` values.
    pub fn job_columns(&self, year: &str, commune: &str) -> BirthsColumns {
        BirthsColumns {
            year: year.to_owned(),
            commune: commune.to_owned(),
            delimiter: self.delimiter,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn births_columns_are_guessed_from_a_header_or_from_values() {
        let h = BirthsHead::read(b"ANO_NAC;SEXO;COMUNA;GLOSA_COMUNA\n2019;1;13101;Santiago\n");
        assert_eq!(h.delimiter, ';');
        assert_eq!((h.year_guess, h.commune_guess), (0, 2));
        assert_eq!(h.columns[2], ("COMUNA".to_owned(), "COMUNA".to_owned()));
        assert_eq!(h.column_value(2), Some("COMUNA"));
        let h = BirthsHead::read(b"1;2019;5101\n");
        assert_eq!((h.year_guess, h.commune_guess), (1, 2));
        assert_eq!(h.columns[2], ("3".to_owned(), "#3 (5101)".to_owned()));
        assert_eq!(h.column_value(9), None);
    }

    #[test]
    fn the_delimiter_is_the_most_frequent_and_a_bom_is_skipped() {
        let h = BirthsHead::read(b"\xef\xbb\xbfyear,comuna,sexo\n2019,13101,1\n");
        assert_eq!(h.delimiter, ',');
        assert_eq!(h.columns[0].0, "year");
        assert_eq!((h.year_guess, h.commune_guess), (0, 1));
        let h = BirthsHead::read(b"a\tb|c\td\n");
        assert_eq!(h.delimiter, '\t');
        // Nothing to split: `;`, one column, the commune guessed next to the year.
        let h = BirthsHead::read(b"");
        assert_eq!(h.delimiter, ';');
        assert_eq!((h.year_guess, h.commune_guess), (0, 1));
        let columns = h.job_columns("1", "2");
        assert_eq!((columns.year.as_str(), columns.delimiter), ("1", ';'));
    }
}
