//! Reading numbers written with a decimal point or a decimal comma, as Chilean agencies publish.

use super::sniff::Decimal;

/// Tokens read as a missing value rather than as text: empty cells and the usual placeholders
/// of statistical offices ("NA", "n/a", "s/i" = sin información, "-", "..").
pub fn is_missing_token(field: &str) -> bool {
    let f = field.trim();
    f.is_empty()
        || matches!(
            f.to_ascii_lowercase().as_str(),
            "na" | "n/a" | "nan" | "null" | "-" | "." | ".." | "..." | "s/i" | "sin dato" | "sd"
        )
}

/// Parses a number in the file's decimal convention; `None` when the field is not a number.
///
/// With a decimal comma, `.` is accepted as a thousands separator only in groups of three
/// ("1.234,5"); with a decimal point, `,` likewise ("1,234.5"). A leading `+`/`-` and surrounding
/// spaces are allowed; anything else (units, percent signs, letters) is not a number.
pub fn parse_number(field: &str, decimal: Decimal) -> Option<f64> {
    let f = field.trim();
    if f.is_empty() {
        return None;
    }
    let (thousands, mark) = match decimal {
        Decimal::Point => (',', '.'),
        Decimal::Comma => ('.', ','),
    };
    let (sign, body) = match f.as_bytes()[0] {
        b'-' => ("-", &f[1..]),
        b'+' => ("", &f[1..]),
        _ => ("", f),
    };
    let (whole, frac) = match body.split_once(mark) {
        Some((w, fr)) => (w, Some(fr)),
        None => (body, None),
    };
    if let Some(fr) = frac {
        if fr.is_empty() || !fr.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let whole_digits: String = if whole.contains(thousands) {
        let groups: Vec<&str> = whole.split(thousands).collect();
        let ok = !groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3)
            && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
        if !ok {
            return None;
        }
        groups.concat()
    } else {
        if whole.is_empty() && frac.is_none() {
            return None;
        }
        if !whole.bytes().all(|b| b.is_ascii_digit()) {
            // Scientific notation with a decimal point ("1.5e-3") is accepted as Rust parses it.
            if decimal == Decimal::Point {
                return f.parse::<f64>().ok().filter(|v| v.is_finite());
            }
            return None;
        }
        whole.to_owned()
    };
    let text = match frac {
        Some(fr) => format!(
            "{sign}{}.{fr}",
            if whole_digits.is_empty() {
                "0"
            } else {
                &whole_digits
            }
        ),
        None => format!("{sign}{whole_digits}"),
    };
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
}
