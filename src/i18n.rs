//! The interface in Spanish and English: the language signal and number formatting per language
//! (decimal comma and thousands point in Spanish). Downloads never use these: they stay
//! machine-readable (decimal point, no grouping). The page's own texts are in `crate::messages`.

use leptos::prelude::*;

/// The interface language: the engines' own [`imr_core::Lang`] (crate `imr-lang`), so a view
/// hands it to an engine text as it is.
pub use imr_core::Lang;

/// The browser's preferred language ([`Lang::from_tag`] of `navigator.language`): English when
/// it starts with "en", Spanish otherwise (the page's home audience).
pub fn browser_lang() -> Lang {
    let preferred = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    Lang::from_tag(&preferred)
}

/// The current language from context.
pub fn lang() -> RwSignal<Lang> {
    expect_context::<RwSignal<Lang>>()
}

/// Formats `value` with `decimals` decimals for reading: "1.234,56" in Spanish, "1,234.56" in
/// English. Not for downloads.
pub fn format_number(lang: Lang, value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".to_owned();
    }
    let plain = format!("{:.*}", decimals, value.abs());
    let negative = value < 0.0 && plain.chars().any(|c| c.is_ascii_digit() && c != '0');
    let (whole, frac) = match plain.split_once('.') {
        Some((w, f)) => (w.to_owned(), Some(f.to_owned())),
        None => (plain, None),
    };
    let (group, mark) = match lang {
        Lang::Es => ('.', ','),
        Lang::En => (',', '.'),
    };
    let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(group);
        }
        grouped.push(c);
    }
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    out.push_str(&grouped);
    if let Some(f) = frac {
        out.push(mark);
        out.push_str(&f);
    }
    out
}

/// [`format_number`] for an optional value ("—" when missing).
pub fn format_opt(lang: Lang, value: Option<f64>, decimals: usize) -> String {
    value
        .map(|v| format_number(lang, v, decimals))
        .unwrap_or_else(|| "—".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_uses_a_decimal_comma_and_thousands_points() {
        assert_eq!(format_number(Lang::Es, 1234567.891, 2), "1.234.567,89");
        assert_eq!(format_number(Lang::En, 1234567.891, 2), "1,234,567.89");
        assert_eq!(format_number(Lang::Es, -0.5, 1), "-0,5");
        assert_eq!(format_number(Lang::Es, -0.001, 1), "0,0");
        assert_eq!(format_number(Lang::En, 999.0, 0), "999");
    }
}
