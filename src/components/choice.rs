//! A `<select>` of one of the engine's enumerations (a smoothing, a classification, a kind of
//! standard errors): each option's value is the choice's name, as the URL fragment and the
//! command line write it, and its text the page's words for it in the current language.

use crate::i18n::{lang, Lang};
use crate::messages::{msg, Text};
use leptos::prelude::*;

/// A labelled `<select id=id data-testid=testid>` of `choices`, showing and setting `value`;
/// disabled while `disabled()` holds.
#[allow(clippy::too_many_arguments)]
pub fn choice_select<T>(
    id: &'static str,
    testid: &'static str,
    label: Text,
    choices: &'static [T],
    name: fn(T) -> &'static str,
    text: fn(Lang, T) -> &'static str,
    value: RwSignal<T>,
    disabled: impl Fn() -> bool + Send + Sync + 'static,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let language = lang();
    view! {
        <span>
            <label for=id>{msg(label)}</label>
            <select
                id=id
                data-testid=testid
                disabled=disabled
                on:change=move |ev| {
                    let chosen = event_target_value(&ev);
                    if let Some(c) = choices.iter().copied().find(|c| name(*c) == chosen) {
                        value.set(c)
                    }
                }
            >
                {choices
                    .iter()
                    .copied()
                    .map(|c| {
                        view! {
                            <option value=name(c) selected=move || value.get() == c>
                                {move || text(language.get(), c)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </span>
    }
}
