//! Splitting one line into fields, and reading the few fields the aggregators need.

use memchr::{memchr, memchr_iter};

/// Field boundaries of one line: the first `keep` fields as byte ranges, and the number of
/// fields in the whole line. Reused from line to line, so splitting allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    ranges: Vec<(usize, usize)>,
    count: usize,
}

impl Fields {
    /// Splits `line` on `delimiter`. Quoted fields (`"a;b"`) keep their delimiters; the quotes
    /// themselves are trimmed by [`field`].
    pub fn split(&mut self, line: &[u8], delimiter: u8, keep: usize) {
        self.ranges.clear();
        if memchr(b'"', line).is_some() {
            self.split_quoted(line, delimiter, keep);
            return;
        }
        let mut start = 0;
        let mut count = 1;
        for end in memchr_iter(delimiter, line) {
            if self.ranges.len() < keep {
                self.ranges.push((start, end));
            } else {
                // Only the count is still needed: the fields after this delimiter.
                self.count = count + 1 + memchr_iter(delimiter, &line[end + 1..]).count();
                return;
            }
            start = end + 1;
            count += 1;
        }
        if self.ranges.len() < keep {
            self.ranges.push((start, line.len()));
        }
        self.count = count;
    }

    fn split_quoted(&mut self, line: &[u8], delimiter: u8, keep: usize) {
        let mut start = 0;
        let mut count = 1;
        let mut quoted = false;
        for (i, &b) in line.iter().enumerate() {
            if b == b'"' {
                quoted = !quoted;
            } else if b == delimiter && !quoted {
                if self.ranges.len() < keep {
                    self.ranges.push((start, i));
                }
                start = i + 1;
                count += 1;
            }
        }
        if self.ranges.len() < keep {
            self.ranges.push((start, line.len()));
        }
        self.count = count;
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// Field `index` (one of the first `keep`), trimmed of spaces and surrounding quotes; empty
    /// when the line has fewer fields.
    pub fn get<'a>(&self, line: &'a [u8], index: usize) -> &'a [u8] {
        match self.ranges.get(index) {
            Some(&(start, end)) => field(&line[start..end]),
            None => b"",
        }
    }
}

/// Trims ASCII spaces and one pair of surrounding double quotes.
pub(crate) fn field(raw: &[u8]) -> &[u8] {
    let trimmed = raw.trim_ascii();
    match trimmed {
        [b'"', inner @ .., b'"'] => inner.trim_ascii(),
        _ => trimmed,
    }
}

/// A whole number made only of ASCII digits (at most 9 of them).
pub(crate) fn parse_digits(value: &[u8]) -> Option<u32> {
    if value.is_empty() || value.len() > 9 {
        return None;
    }
    let mut n: u32 = 0;
    for &b in value {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(b - b'0');
    }
    Some(n)
}

/// A calendar year written with four digits, 1800 to 2200.
pub(crate) fn parse_year(value: &[u8]) -> Option<u16> {
    match parse_digits(value) {
        Some(y) if value.len() == 4 && (1800..=2200).contains(&y) => Some(y as u16),
        _ => None,
    }
}

/// Latin-1 bytes as text (every byte is the code point of the same number).
pub(crate) fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_fields_are_kept_and_all_are_counted() {
        let mut f = Fields::default();
        let line = b"2019; 2019-01-02 ;Hombre;3;5;\"1101\";x;y";
        f.split(line, b';', 3);
        assert_eq!(f.count(), 8);
        assert_eq!(f.get(line, 0), b"2019");
        assert_eq!(f.get(line, 1), b"2019-01-02");
        assert_eq!(f.get(line, 2), b"Hombre");
        f.split(line, b';', 20);
        assert_eq!(f.count(), 8);
        assert_eq!(f.get(line, 5), b"1101");
        assert_eq!(f.get(line, 9), b"");
    }

    #[test]
    fn a_quoted_delimiter_does_not_split() {
        let mut f = Fields::default();
        let line = b"a;\"b;c\";d";
        f.split(line, b';', 3);
        assert_eq!(f.count(), 3);
        assert_eq!(f.get(line, 1), b"b;c");
        assert_eq!(f.get(line, 2), b"d");
    }

    #[test]
    fn counting_with_fewer_kept_fields_matches_counting_all() {
        let line = b"1;2;3;4;5;6";
        for keep in 0..8 {
            let mut f = Fields::default();
            f.split(line, b';', keep);
            assert_eq!(f.count(), 6, "keep {keep}");
        }
    }

    #[test]
    fn years_have_four_digits() {
        assert_eq!(parse_year(b"2019"), Some(2019));
        assert_eq!(parse_year(b"19"), None);
        assert_eq!(parse_year(b"20X9"), None);
        assert_eq!(parse_year(b"9999"), None);
    }
}
