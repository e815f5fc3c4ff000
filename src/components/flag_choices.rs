//! The choices about rows the data flag, shown wherever they change what a view shows: include
//! the rows flagged as implausible, keep the repeated years, and the note on the years left out.
//! Each reads and sets the app's [`AnalysisState`].

use crate::components::checkbox::Checkbox;
use crate::i18n::lang;
use crate::messages::messages;
use crate::state::AnalysisState;
use imr_core::repeats::RepeatedYear;
use leptos::prelude::*;

/// The checkbox that includes flagged rows, with the count, shown where flags matter.
#[component]
pub fn IncludeFlagged() -> impl IntoView {
    let analysis = expect_context::<AnalysisState>();
    move || {
        let n = analysis.flags.get().map_or(0, |f| f.len());
        (n > 0).then(|| {
            view! {
                <p class="flag-toggle">
                    <Checkbox id="include-flagged" checked=analysis.include>
                        {move || (messages(lang().get()).findings.include_flagged)(&n.to_string())}
                    </Checkbox>
                </p>
            }
        })
    }
}

/// The checkbox that keeps the repeated years in trends and correlations, shown when the data
/// have one.
#[component]
pub fn IncludeRepeated() -> impl IntoView {
    let analysis = expect_context::<AnalysisState>();
    move || {
        let years = analysis.repeats.get().filter(|r| !r.is_empty())?;
        let list = years
            .iter()
            .map(|r| r.time.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        Some(view! {
            <p class="flag-toggle">
                <Checkbox id="include-repeated-years" checked=analysis.include_repeated>
                    {move || (messages(lang().get()).findings.include_repeated)(&list)}
                </Checkbox>
            </p>
        })
    }
}

/// The one sentence saying which repeated years the trends and correlations leave out and why,
/// when they leave some out.
#[component]
pub fn RepeatedNote() -> impl IntoView {
    let analysis = expect_context::<AnalysisState>();
    move || {
        if analysis.include_repeated.get() {
            return None;
        }
        let years = analysis.repeats.get().filter(|r| !r.is_empty())?;
        RepeatedYear::left_out_text(&years, lang().get()).map(|note| {
            view! {
                <p class="note" data-testid="repeated-note">
                    {note}
                </p>
            }
        })
    }
}
