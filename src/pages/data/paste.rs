//! A table pasted from a spreadsheet or a web page (tab-separated text, the locale's decimal
//! mark): read exactly as an uploaded file (`read_owned_file`: the engine's decoding, sniffing
//! and ingest), added to the reader's files under a name of its own, kept and removed as they
//! are.

use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::{read_owned_file, AppState};
use leptos::prelude::*;

/// The name of a pasted table: `stem.txt`, or `stem_2.txt`, `stem_3.txt`, … when a loaded
/// file has that name (two pasted tables stay two files in the list and the store).
fn pasted_name(stem: &str, taken: &[String]) -> String {
    (1..)
        .map(|n| match n {
            1 => format!("{stem}.txt"),
            n => format!("{stem}_{n}.txt"),
        })
        .find(|name| !taken.contains(name))
        .unwrap_or_else(|| format!("{stem}.txt"))
}

#[component]
pub(super) fn Paste() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = RwSignal::new(String::new());
    let read = move |_| {
        let pasted = text.get_untracked();
        if pasted.trim().is_empty() {
            return;
        }
        let taken: Vec<String> = state.files.with_untracked(|files| {
            // The bundled data are replaced, so their name is free.
            match state.bundled.get_untracked() {
                true => Vec::new(),
                false => files.iter().map(|f| f.name.clone()).collect(),
            }
        });
        let name = pasted_name(messages(lang().get_untracked()).data.pasted_name, &taken);
        state.add(read_owned_file(&name, pasted.into_bytes()));
        text.set(String::new());
    };
    view! {
        <div class="paste">
            <label for="paste-table">{msg(|m| m.data.paste_label)}</label>
            <textarea
                id="paste-table"
                data-testid="paste-area"
                rows="4"
                spellcheck="false"
                aria-describedby="paste-hint"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            <p class="note" id="paste-hint">
                {msg(|m| m.data.paste_hint)}
            </p>
            <button
                class="secondary"
                data-testid="paste-read"
                disabled=move || text.with(|t| t.trim().is_empty())
                on:click=read
            >
                {msg(|m| m.data.paste_read)}
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::pasted_name;

    #[test]
    fn a_pasted_table_takes_a_name_no_loaded_file_has() {
        assert_eq!(pasted_name("tabla_pegada", &[]), "tabla_pegada.txt");
        let taken = vec![
            "tabla_pegada.txt".to_owned(),
            "tabla_pegada_2.txt".to_owned(),
        ];
        assert_eq!(pasted_name("tabla_pegada", &taken), "tabla_pegada_3.txt");
        // No year in the name: a pasted table has none of its own to give its rows.
        assert_eq!(
            imr_core::ingest::year_in_name(&pasted_name("pasted_table", &taken)),
            None
        );
    }
}
