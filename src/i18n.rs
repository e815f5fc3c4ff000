//! The interface in Spanish and English: the language signal and number formatting per language
//! (decimal comma and thousands point in Spanish). Downloads never use these (no grouping in a
//! file; a Spanish CSV's decimal comma is `imr_core::spreadsheet_csv`'s). The page's own texts
//! are in `crate::messages`.

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
/// English ([`Lang::grouped`]). Not for downloads.
pub fn format_number(lang: Lang, value: f64, decimals: usize) -> String {
    lang.grouped(value, decimals)
}

/// Deaths for reading: a count as a whole number (with decimals only if it has some); deaths
/// `derived` from a published rate (rate × births / 1,000: not a count, and not whole) rounded
/// and marked "≈" — the exact values are in the downloads.
pub fn format_deaths(lang: Lang, value: f64, derived: bool) -> String {
    match derived {
        true => format!("≈{}", format_number(lang, value, 0)),
        false => format_number(lang, value, if value.fract() == 0.0 { 0 } else { 2 }),
    }
}

/// [`format_number`] for an optional value ("—" when missing).
pub fn format_opt(lang: Lang, value: Option<f64>, decimals: usize) -> String {
    value
        .map(|v| format_number(lang, v, decimals))
        .unwrap_or_else(|| "—".to_owned())
}
