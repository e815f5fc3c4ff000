//! The years of the Data view's tables as what they are: a year whose deaths were reconstructed
//! from a published rate is marked ◆ beside it, a year without data between the first and the
//! last has a row saying so, and a note under the table says both in words
//! ([`imr_core::reconstructed::table_note`]). The tables showed reconstructed rows as published
//! counts and skipped 2016 and 2020 without a word (issue 42).

use imr_core::reconstructed::{table_note, TABLE_MARK};
use leptos::prelude::*;

/// The years between the first and the last of `present` that it lacks.
pub(super) fn missing_years(present: &[i64]) -> Vec<i64> {
    match (present.iter().min(), present.iter().max()) {
        (Some(&first), Some(&last)) => (first..=last).filter(|t| !present.contains(t)).collect(),
        _ => Vec::new(),
    }
}

/// A year's cell: the year, marked ◆ when its deaths are reconstructed.
pub(super) fn year_cell(time: i64, reconstructed: &[i64]) -> impl IntoView {
    let marked = reconstructed.contains(&time);
    view! {
        <td data-reconstructed=marked
            .then_some("true")>{time} {marked.then(|| format!(" {TABLE_MARK}"))}</td>
    }
}

/// The note of a table with these reconstructed and missing years, if any.
pub(super) fn note(
    reconstructed: &[i64],
    missing: &[i64],
    lang: crate::i18n::Lang,
) -> Option<String> {
    table_note(reconstructed, missing, lang)
}
