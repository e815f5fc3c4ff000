//! The years of the Data view's tables as what they are: a year whose deaths were reconstructed
//! from a published rate is marked ◆ beside it, a year the source copied says so beside it, a
//! year without data on the data's step between the first and the last (the charts' one rule,
//! `imr_stats::years::missing_years`) has a row saying so, and a note under the
//! table says the reconstructed and missing ones in words
//! ([`imr_core::reconstructed::table_note`]). The tables showed reconstructed rows as published
//! counts and skipped 2016 and 2020 without a word (issue 42).

use crate::i18n::Lang;
use imr_core::inequality::{RepeatedYear, YearMarks};
use imr_core::reconstructed::{table_note, TABLE_MARK};
use leptos::prelude::*;

/// A year's cell: the year, marked ◆ when its deaths are reconstructed and "(copia de 2019)"
/// when the source copied it from the year before (`marks`, the views' one reading of both; this
/// table showed 2020's rate equal to 2019's without a word, issue 42).
pub(super) fn year_cell(time: i64, marks: &YearMarks, lang: Lang) -> impl IntoView {
    let marked = marks.is_reconstructed(time);
    let copy = marks
        .copy_of(time)
        .map(|repeat_of| RepeatedYear { time, repeat_of });
    view! {
        <td
            data-reconstructed=marked.then_some("true")
            data-repeat-of=copy.map(|r| r.repeat_of.to_string())
        >
            {time}
            {marked.then(|| format!(" {TABLE_MARK}"))}
            {copy
                .map(|r| {
                    view! {
                        " "
                        <small class="warn">{r.mark(lang)}</small>
                    }
                })}
        </td>
    }
}

/// The note of a table with these reconstructed and missing years, if any.
pub(super) fn note(marks: &YearMarks, missing: &[i64], lang: Lang) -> Option<String> {
    table_note(&marks.reconstructed, missing, lang)
}
