//! Reading numbers written with a decimal point or a decimal comma, as Chilean agencies publish,
//! and in scientific notation, as pandas, R and spreadsheets write small or large values.

/// The decimal mark of numbers in a file (a [`super::Dialect`] field, guessed by
/// [`super::sniff::sniff`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Decimal {
    #[serde(rename = ".")]
    Point,
    #[serde(rename = ",")]
    Comma,
}

impl Decimal {
    /// The mark as written: `.` or `,`.
    pub fn as_char(self) -> char {
        match self {
            Decimal::Point => '.',
            Decimal::Comma => ',',
        }
    }
}

/// Tokens read as a missing value rather than as text: empty cells and the usual placeholders
/// of statistical offices ("NA", "n/a", "s/i" = sin información, "-", "..").
pub fn is_missing_token(field: &str) -> bool {
    const TOKENS: [&str; 11] = [
        "na", "n/a", "nan", "null", "-", ".", "..", "...", "s/i", "sin dato", "sd",
    ];
    let f = trim(field);
    // Compared in place, case-insensitively (a lower-cased copy per cell was a heap allocation
    // per cell of every numeric column).
    f.is_empty() || (f.len() <= 8 && TOKENS.iter().any(|t| f.eq_ignore_ascii_case(t)))
}

/// Splits `body` (without its sign) into mantissa and exponent digits at an `e`/`E`, when the
/// exponent is an optionally signed run of digits; `Err` when an `e` is there but malformed.
fn split_exponent(body: &str) -> Result<(&str, Option<&str>), ()> {
    match body.find(['e', 'E']) {
        None => Ok((body, None)),
        Some(at) => {
            let exponent = &body[at + 1..];
            let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(());
            }
            Ok((&body[..at], Some(exponent)))
        }
    }
}

/// Parses a number in the file's decimal convention; `None` when the field is not a number.
///
/// With a decimal comma, `.` is accepted as a thousands separator only in groups of three
/// ("1.234,5"); with a decimal point, `,` likewise ("1,234.5"). A leading `+`/`-` and surrounding
/// spaces are allowed. Scientific notation is read in either convention, with the file's decimal
/// mark in the mantissa and no thousands separator: `1.712078436289678e-05`, `1.5E+03`,
/// `-2.5e-3`, `1e-05` (decimal point) or `1,5e-3` (decimal comma). Anything else (units, percent
/// signs, letters, `inf`, `NaN`) is not a number, and neither is a value that overflows `f64`.
pub fn parse_number(field: &str, decimal: Decimal) -> Option<f64> {
    let f = trim(field);
    if f.is_empty() {
        return None;
    }
    if decimal == Decimal::Point {
        if let Some(value) = by_rust_syntax(f) {
            return value;
        }
    }
    match plain_shape(f.as_bytes(), decimal) {
        Shape::Plain => parse_plain(f, decimal),
        Shape::NotANumber => None,
        Shape::Thousands => parse_by_parts(f, decimal),
    }
}

/// The full rules on a trimmed, non-empty field: sign, whole part (with thousands separators in
/// groups of three, and then no exponent), decimal mark, fraction, exponent; each part checked,
/// then read by [`finish`].
fn parse_by_parts(f: &str, decimal: Decimal) -> Option<f64> {
    let (thousands, mark) = match decimal {
        Decimal::Point => (',', '.'),
        Decimal::Comma => ('.', ','),
    };
    let (sign, body) = match f.as_bytes().first() {
        Some(b'-') => ("-", &f[1..]),
        Some(b'+') => ("", &f[1..]),
        _ => ("", f),
    };
    let (body, exponent) = split_exponent(body).ok()?;
    let (whole, frac) = match body.split_once(mark) {
        Some((w, fr)) => (w, Some(fr)),
        None => (body, None),
    };
    if let Some(fr) = frac {
        if fr.is_empty() || !fr.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let whole_digits: &str = if whole.contains(thousands) {
        let groups: Vec<&str> = whole.split(thousands).collect();
        let ok = exponent.is_none()
            && !groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3)
            && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
        if !ok {
            return None;
        }
        return finish(sign, &groups.concat(), frac, exponent);
    } else {
        if whole.is_empty() && frac.is_none() {
            return None;
        }
        if !whole.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        whole
    };
    finish(sign, whole_digits, frac, exponent)
}

/// `field.trim()`, without its Unicode scan when the field starts and ends with an ASCII byte
/// that is not a space (nearly every cell: `str::trim` was 3% of an ingest).
fn trim(field: &str) -> &str {
    let plain_edge =
        |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && !char::from(b).is_whitespace());
    let bytes = field.as_bytes();
    if plain_edge(bytes.first()) && plain_edge(bytes.last()) {
        field
    } else {
        field.trim()
    }
}

/// What a quick scan of a trimmed field says about it.
#[derive(Debug, PartialEq, Eq)]
enum Shape {
    /// `[+-]digits[mark digits][(e|E)[+-]digits]` with at least one mantissa digit, no
    /// thousands separator: the syntax [`parse_number`] accepts, read without splitting.
    Plain,
    /// Has the thousands separator of the convention before any exponent: the full rules decide.
    Thousands,
    /// Not a number in any reading of [`parse_number`].
    NotANumber,
}

/// One pass over the bytes of a trimmed field (the fast path: almost every cell of
/// a numeric column is a plain decimal, and splitting it into parts cost allocations).
fn plain_shape(bytes: &[u8], decimal: Decimal) -> Shape {
    let (thousands, mark) = match decimal {
        Decimal::Point => (b',', b'.'),
        Decimal::Comma => (b'.', b','),
    };
    let digits_from = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let whole_end = digits_from(i);
    let has_whole = whole_end > i;
    i = whole_end;
    if bytes.get(i) == Some(&thousands) {
        return Shape::Thousands;
    }
    let mut has_frac = false;
    if bytes.get(i) == Some(&mark) {
        let frac_end = digits_from(i + 1);
        if frac_end == i + 1 {
            return Shape::NotANumber;
        }
        has_frac = true;
        i = frac_end;
    }
    if !has_whole && !has_frac {
        return Shape::NotANumber;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exponent_end = digits_from(i);
        if exponent_end == i {
            return Shape::NotANumber;
        }
        i = exponent_end;
    }
    if i == bytes.len() {
        Shape::Plain
    } else {
        Shape::NotANumber
    }
}

/// A trimmed field with a decimal point read by Rust's `f64` syntax first (a full-
/// precision float as pandas writes it, `-2.6419029990316214`, was scanned by [`plain_shape`],
/// then by [`short_decimal`], then by `str::parse`). Rust's decimal syntax is
/// `[+-](digits[.digits*]|.digits)[(e|E)[+-]digits]` plus `inf`, `infinity` and `nan`: the
/// [`Shape::Plain`] syntax but for a mark without a digit after it (`5.`, `5.e3`) and those
/// words, which the two checks below refuse; a thousands separator it does not read at all.
/// `Some(answer)` when that decides, `None` when the full rules must ([`plain_shape`]).
fn by_rust_syntax(f: &str) -> Option<Option<f64>> {
    let bytes = f.as_bytes();
    if let Some(value) = short_decimal(bytes, b'.') {
        return Some(Some(value));
    }
    let value = f.parse::<f64>().ok()?;
    let last_is_digit = bytes.last().is_some_and(u8::is_ascii_digit);
    let mark_then_digit = match bytes.iter().position(|&b| b == b'.') {
        Some(at) => bytes.get(at + 1).is_some_and(u8::is_ascii_digit),
        None => true,
    };
    Some((last_is_digit && mark_then_digit && value.is_finite()).then_some(value))
}

/// Parses a field of [`Shape::Plain`]: as written with a decimal point (Rust's `f64` syntax
/// accepts it, rounding correctly), or with its comma made a point in a stack buffer.
fn parse_plain(f: &str, decimal: Decimal) -> Option<f64> {
    let mark = match decimal {
        Decimal::Point => b'.',
        Decimal::Comma => b',',
    };
    if let Some(value) = short_decimal(f.as_bytes(), mark) {
        return Some(value);
    }
    let value = match decimal {
        Decimal::Point => f.parse::<f64>().ok()?,
        Decimal::Comma => {
            let mut buffer = [0u8; 64];
            if f.len() <= buffer.len() {
                let buffer = &mut buffer[..f.len()];
                buffer.copy_from_slice(f.as_bytes());
                buffer
                    .iter_mut()
                    .filter(|b| **b == b',')
                    .for_each(|b| *b = b'.');
                std::str::from_utf8(buffer).ok()?.parse::<f64>().ok()?
            } else {
                f.replace(',', ".").parse::<f64>().ok()?
            }
        }
    };
    value.is_finite().then_some(value)
}

/// A field of [`Shape::Plain`] with at most 15 digits and no exponent (years, counts, rates with
/// a few decimals: most cells of agency files), read exactly without `str::parse`: the digits
/// as an integer below 10¹⁵ < 2⁵³ and one division by an exact power of ten ≤ 10¹⁵, which IEEE 754
/// rounds correctly — Clinger's fast path (W. D. Clinger, "How to read floating point numbers
/// accurately", PLDI 1990), the one Rust's own parser takes first. `None` for anything else.
fn short_decimal(bytes: &[u8], mark: u8) -> Option<f64> {
    const POWERS_OF_TEN: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (negative, body) = match bytes.first() {
        Some(b'-') => (true, &bytes[1..]),
        Some(b'+') => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    // More than 15 digits and a mark: not for this path (full-precision floats, as pandas
    // writes them, go straight to `str::parse`).
    if body.len() > 16 {
        return None;
    }
    let (mut mantissa, mut digits, mut decimals, mut after_mark) = (0u64, 0usize, 0usize, false);
    for &b in body {
        if b == mark && !after_mark {
            after_mark = true;
            continue;
        }
        if !b.is_ascii_digit() || digits == 15 {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(b - b'0');
        digits += 1;
        decimals += usize::from(after_mark);
    }
    // A mark needs a digit after it (`5.` is not a number).
    if digits == 0 || body.last() == Some(&mark) {
        return None;
    }
    let value = mantissa as f64 / POWERS_OF_TEN[decimals];
    Some(if negative { -value } else { value })
}

/// Parses the checked parts in Rust's own syntax (which `str::parse::<f64>` rounds correctly).
fn finish(sign: &str, whole: &str, frac: Option<&str>, exponent: Option<&str>) -> Option<f64> {
    let whole = if whole.is_empty() { "0" } else { whole };
    let mut text = String::with_capacity(sign.len() + whole.len() + 24);
    text.push_str(sign);
    text.push_str(whole);
    if let Some(fr) = frac {
        text.push('.');
        text.push_str(fr);
    }
    if let Some(e) = exponent {
        text.push('e');
        text.push_str(e);
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_commas_and_thousands_points_are_read() {
        assert_eq!(parse_number("7,5", Decimal::Comma), Some(7.5));
        assert_eq!(parse_number("1.234,5", Decimal::Comma), Some(1234.5));
        assert_eq!(parse_number("-0,25", Decimal::Comma), Some(-0.25));
        assert_eq!(parse_number("12", Decimal::Comma), Some(12.0));
    }

    #[test]
    fn decimal_points_and_thousands_commas_are_read() {
        assert_eq!(parse_number("7.5", Decimal::Point), Some(7.5));
        assert_eq!(parse_number("1,234.5", Decimal::Point), Some(1234.5));
        assert_eq!(parse_number("1e3", Decimal::Point), Some(1000.0));
    }

    #[test]
    fn text_and_malformed_numbers_are_not_numbers() {
        for s in ["n/a", "12%", "abc", "1.2.3", "1,23,4", "", "-", "7,5"] {
            assert_eq!(parse_number(s, Decimal::Point), None, "{s}");
        }
        assert_eq!(parse_number("7.5", Decimal::Comma), None);
    }

    #[test]
    fn placeholders_count_as_missing() {
        assert!(is_missing_token(" NA "));
        assert!(is_missing_token("s/i"));
        assert!(!is_missing_token("0"));
    }

    /// As pandas (`repr` of a float), R (`format`) and Rust write small and large values; the
    /// issue's pandas panel lost 390 of 1,000,000 rows to `1.712078436289678e-05` read as missing.
    #[test]
    fn scientific_notation_with_a_decimal_mark_is_read() {
        let p = Decimal::Point;
        assert_eq!(
            parse_number("1.712078436289678e-05", p),
            Some(1.712078436289678e-05)
        );
        assert_eq!(parse_number("1.5E+03", p), Some(1500.0));
        assert_eq!(parse_number("-2.5e-3", p), Some(-0.0025));
        assert_eq!(parse_number("+2.5e3", p), Some(2500.0));
        assert_eq!(parse_number("1e-05", p), Some(1e-5));
        assert_eq!(parse_number(".5e1", p), Some(5.0));
        assert_eq!(parse_number(" 7.1e2 ", p), Some(710.0));
        let c = Decimal::Comma;
        assert_eq!(parse_number("1,5e-3", c), Some(0.0015));
        assert_eq!(parse_number("-2,5E+02", c), Some(-250.0));
        assert_eq!(parse_number("1e3", c), Some(1000.0));
        // The other convention's mark in the mantissa is not a number.
        assert_eq!(parse_number("1.5e-3", c), None);
        assert_eq!(parse_number("1,5e-3", p), None);
    }

    #[test]
    fn malformed_exponents_and_overflow_are_not_numbers() {
        for s in [
            "1e",
            "1e+",
            "e5",
            "1.5e3.2",
            "1,234e5",
            "1e5e5",
            "1.5e-",
            "inf",
            "-inf",
            "NaN",
            "infinity",
            "1e309",
            "-1e400",
            "1.7976931348623157e309",
            "0x10",
            "1_000",
        ] {
            assert_eq!(parse_number(s, Decimal::Point), None, "{s}");
        }
        assert_eq!(parse_number("1e308", Decimal::Point), Some(1e308));
    }

    /// The full rules of [`parse_number`] without the fast path, to check that the fast path
    /// changes no result.
    fn parse_number_by_parts(field: &str, decimal: Decimal) -> Option<f64> {
        let f = field.trim();
        (!f.is_empty())
            .then(|| parse_by_parts(f, decimal))
            .flatten()
    }

    #[test]
    fn missing_tokens_ignore_case_and_spaces() {
        for s in [
            "NA", "n/A", "NaN", " NULL ", "-", ".", "..", "...", "S/I", "Sin Dato", "SD", "", "  ",
        ] {
            assert!(is_missing_token(s), "{s}");
        }
        for s in ["0", "nan1", "sin datos", "n", "--", "...."] {
            assert!(!is_missing_token(s), "{s}");
        }
    }

    proptest::proptest! {
        /// The fast path reads every field as the rules by parts do: signs, marks, thousands
        /// separators, exponents, spaces and stray bytes in any order, in both conventions.
        #[test]
        fn the_fast_path_agrees_with_the_rules_by_parts(field in "[ +\\-0-9.,eE1a\\u{a0}\\t\\u{b}]{0,14}|[+\\-]?(inf|infinity|nan|NaN|INF)|[+\\-]?[0-9]{0,20}\\.?[0-9]{0,20}([eE][+\\-]?[0-9]{0,4})?") {
            for decimal in [Decimal::Point, Decimal::Comma] {
                let fast = parse_number(&field, decimal).map(f64::to_bits);
                let by_parts = parse_number_by_parts(&field, decimal).map(f64::to_bits);
                proptest::prop_assert_eq!(fast, by_parts, "{:?} {:?}", field, decimal);
            }
        }

        /// The short-decimal path gives `str::parse`'s bits for every field it takes: up to 15
        /// digits, signs, a mark anywhere, leading zeros.
        #[test]
        fn short_decimals_are_read_as_rust_reads_them(field in "[+\\-]?[0-9]{0,9}(\\.[0-9]{0,9})?") {
            if let Some(v) = short_decimal(field.as_bytes(), b'.') {
                proptest::prop_assert_eq!(Some(v.to_bits()), field.parse::<f64>().ok().map(f64::to_bits), "{:?}", field);
            }
            let comma = field.replace('.', ",");
            if let Some(v) = short_decimal(comma.as_bytes(), b',') {
                proptest::prop_assert_eq!(Some(v.to_bits()), field.parse::<f64>().ok().map(f64::to_bits), "{:?}", comma);
            }
        }

        /// What parses as a number is never a missing token, in either convention: the ingest
        /// checks for a token only when a field does not parse.
        #[test]
        fn a_number_is_never_a_missing_token(field in "[ \\-0-9.,/naNAulsdiS]{0,9}") {
            for decimal in [Decimal::Point, Decimal::Comma] {
                if parse_number(&field, decimal).is_some() {
                    proptest::prop_assert!(!is_missing_token(&field), "{:?}", field);
                }
            }
        }

        /// Every finite `f64` as Rust writes it (`Display`, `Debug`, `{:e}`, `{:E}`) and as Python
        /// writes it (`repr`: `1.5e-07`, `1e+20`, a two-digit signed exponent) reads back exactly.
        #[test]
        fn rust_and_pandas_float_formatting_round_trips(bits in proptest::num::f64::NORMAL
            | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO
            | proptest::num::f64::NEGATIVE | proptest::num::f64::POSITIVE) {
            let v: f64 = bits;
            let sci = format!("{v:e}");
            let (mantissa, exponent) = sci.split_once('e').unwrap();
            let exponent: i32 = exponent.parse().unwrap();
            let python = format!("{mantissa}e{}{:02}", if exponent < 0 { '-' } else { '+' }, exponent.abs());
            for text in [format!("{v}"), format!("{v:?}"), sci.clone(), format!("{v:E}"), python.clone()] {
                proptest::prop_assert_eq!(parse_number(&text, Decimal::Point), Some(v), "{}", text);
                // The same number with a decimal comma (as a Spanish-locale export writes it).
                let comma = text.replace('.', ",");
                proptest::prop_assert_eq!(parse_number(&comma, Decimal::Comma), Some(v), "{}", comma);
            }
        }
    }
}
