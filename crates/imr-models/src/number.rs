//! Numbers written for reading: about four significant digits, the tables' and the diagnostics'
//! one rule (below the report and the diagnostics, which both use it).

use imr_stats::Lang;

/// A number with about four significant digits, in plain notation unless very small or large.
pub fn format_number(x: f64) -> String {
    if !x.is_finite() {
        return "NA".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&magnitude) {
        return format!("{x:.3e}");
    }
    let decimals = (3 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// `x` with about four significant digits ([`format_number`]) as the page
/// writes numbers: plain notation with the reader's decimal mark and minus sign (`−0,1392`), a
/// power of ten only when very small or large (`1,392e-5`). The JSON keeps Rust's `{:.4e}`.
pub(crate) fn significant(lang: Lang, x: f64) -> String {
    let plain = format_number(x);
    if plain.contains('e') || !x.is_finite() {
        return lang
            .with_decimal_mark(plain)
            .replacen('-', "−", usize::from(x < 0.0));
    }
    let decimals = plain.split_once('.').map_or(0, |(_, f)| f.len());
    lang.grouped(x, decimals)
}
