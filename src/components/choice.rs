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

/// The `<option>`s of a select of the data's columns: each of `columns()` valued by its name,
/// shown as `label` gives it in the current language, and selected while `chosen(name)` holds.
/// The column selects of the Models, Map and Inequality views (outcome, weights, cluster,
/// variable, group, rank) differ only in these three.
pub fn column_options(
    columns: impl Fn() -> Vec<String> + Send + Sync + 'static,
    chosen: impl Fn(&str) -> bool + Copy + Send + Sync + 'static,
    label: fn(Lang, &str) -> String,
) -> impl IntoView {
    let language = lang();
    move || {
        columns()
            .into_iter()
            .map(|name| {
                let value = name.clone();
                let shown = name.clone();
                view! {
                    <option value=value selected=move || chosen(&name)>
                        {move || label(language.get(), &shown)}
                    </option>
                }
            })
            .collect_view()
    }
}

/// A labelled `<select id=id data-testid=testid>` of `columns` choosing one into `chosen`, each
/// shown as `words` gives it (the Models view's outcome, the Map view's variable).
pub fn column_select(
    (id, testid): (&'static str, &'static str),
    label: impl IntoView + 'static,
    chosen: RwSignal<String>,
    columns: Memo<Vec<String>>,
    words: fn(Lang, &str) -> String,
) -> impl IntoView {
    view! {
        <span>
            <label for=id>{label}</label>
            <select
                id=id
                data-testid=testid
                on:change=move |ev| chosen.set(event_target_value(&ev))
            >
                {column_options(move || columns.get(), move |c| chosen.with(|v| v == c), words)}
            </select>
        </span>
    }
}
