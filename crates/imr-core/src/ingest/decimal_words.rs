//! The decimal mark of a read file as the Data view reports it: the mark only when the file has
//! a number with a fractional part — a journalist's Spanish file of whole counts was reported
//! "decimal «.»", which read as a misreading of her file.

use super::number::Decimal;
use super::RawTable;
use imr_stats::Lang;

impl Decimal {
    /// Whether `field` is a number with a fractional part written with this mark ("5,8",
    /// "-0,25", "1.480,97" for the comma): digits (and the other mark, for thousands) before
    /// one mark, digits after it.
    pub fn has_fraction_in(self, field: &str) -> bool {
        let mark = self.as_char();
        let body = field.trim().trim_start_matches('-');
        let Some((whole, fraction)) = body.rsplit_once(mark) else {
            return false;
        };
        let other = match self {
            Decimal::Point => ',',
            Decimal::Comma => '.',
        };
        whole.starts_with(|c: char| c.is_ascii_digit())
            && whole.chars().all(|c| c.is_ascii_digit() || c == other)
            && !fraction.is_empty()
            && fraction.chars().all(|c| c.is_ascii_digit())
    }
}

impl RawTable {
    /// The file's decimal mark in words: "decimal «,»" when a field is a number with a
    /// fraction in it ([`Decimal::has_fraction_in`]), else "sin decimales" ("no decimals"): a
    /// file of whole numbers has no mark to report. Scans until the first such field.
    pub fn decimal_words(&self, lang: Lang) -> String {
        let decimal = self.dialect.decimal;
        let seen =
            (self.records.iter()).any(|record| record.fields().any(|f| decimal.has_fraction_in(f)));
        match seen {
            true => format!("decimal «{}»", decimal.as_char()),
            false => lang.pick("sin decimales", "no decimals").to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fraction_is_a_number_with_the_mark_between_digits() {
        for f in ["5,8", "-0,25", "1.480,97", " 12,0 "] {
            assert!(Decimal::Comma.has_fraction_in(f), "{f}");
        }
        for f in [
            "58", "5.8", "13101", "Santiago", ",5", "5,", "1,2,3a", "-", "",
        ] {
            assert!(!Decimal::Comma.has_fraction_in(f), "{f}");
        }
        assert!(Decimal::Point.has_fraction_in("9.47"));
        assert!(!Decimal::Point.has_fraction_in("9,47"));
    }

    /// Her file of whole counts says it has no decimals; a file with "5,8" names its comma.
    #[test]
    fn a_file_of_whole_numbers_reports_no_decimal_mark() {
        let whole =
            RawTable::from_bytes("a.csv", b"codigo;anio;nacimientos\n13101;2021;5930\n").unwrap();
        assert_eq!(whole.decimal_words(Lang::Es), "sin decimales");
        assert_eq!(whole.decimal_words(Lang::En), "no decimals");
        let comma = RawTable::from_bytes("b.csv", b"codigo;anio;tasa\n13101;2021;5,8\n").unwrap();
        assert_eq!(comma.decimal_words(Lang::Es), "decimal «,»");
    }
}
