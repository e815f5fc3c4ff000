//! The births file's year and mother's-commune columns, offered from its first line
//! ([`BirthsHead`]) with the engine's guesses selected.

use crate::i18n::lang;
use crate::messages::messages;
use imr_microdata::BirthsHead;
use leptos::prelude::*;

/// One column choice: the head's columns, `value` the one chosen.
fn column_select(
    head: RwSignal<Option<BirthsHead>>,
    id: &'static str,
    label: fn() -> &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <span>
            <label for=id>{label}</label>
            <select id=id data-testid=id on:change=move |ev| value.set(event_target_value(&ev))>
                {move || {
                    head.get()
                        .map(|h| {
                            h.columns
                                .into_iter()
                                .map(|(v, shown)| {
                                    let selected = value.get_untracked() == v;
                                    view! {
                                        <option value=v.clone() selected=selected>
                                            {shown}
                                        </option>
                                    }
                                })
                                .collect_view()
                        })
                }}
            </select>
        </span>
    }
}

/// The two column choices, once a births file's first line is read.
#[component]
pub(super) fn BirthsColumnChoices(
    head: RwSignal<Option<BirthsHead>>,
    year: RwSignal<String>,
    commune: RwSignal<String>,
) -> impl IntoView {
    move || {
        head.get().is_some().then(|| {
            view! {
                <div class="roles" data-testid="microdata-births-columns">
                    {column_select(
                        head,
                        "microdata-births-year",
                        || messages(lang().get_untracked()).microdata.year_column,
                        year,
                    )}
                    {column_select(
                        head,
                        "microdata-births-commune",
                        || messages(lang().get_untracked()).microdata.commune_column,
                        commune,
                    )}
                </div>
            }
        })
    }
}
