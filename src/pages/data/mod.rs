//! The Data view: choose or drop CSV files, check how they were read, fix column roles, see every
//! excluded row, and read rates per commune and year with their exact intervals.
//!
//! Components: [`upload`] (files in, big ones through the worker), [`sheets`] (spreadsheets,
//! read by the worker, and the sheet picker), [`paste`] (a pasted table,
//! read as a file), [`saved`] (save and reopen an analysis), the microdata section
//! (src/components/microdata/), [`files`] (dialect, roles, the year of a file's rows, removal),
//! [`rate_lag`] (the year published rates describe), [`report`] (validation), [`flagged`]
//! (implausible values), [`rates`] (the tables, their CSV and command). What they count, search and sort is in the engine
//! (`imr_core::request::{search_rates, RatesExtent, LineAccount}`), tested natively.

mod files;
mod flagged;
mod national;
mod paste;
mod rate_lag;
mod rates;
mod report;
mod saved;
mod sheets;
mod upload;
mod year_marks;

use crate::components::csv_upload::UploadProgress;
use crate::components::microdata::Microdata;
use crate::i18n::{format_number, lang, Lang};
use crate::messages::msg;
use crate::state::AppState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn DataPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    provide_context(sheets::SheetPicks::new());
    view! {
        <section aria-labelledby="upload-h">
            <h2 id="upload-h">{msg(|m| m.common.view_data)}</h2>
            <crate::components::takeaway::Takeaway question="rates" />
            <upload::Upload />
            <sheets::SheetPickers />
            <paste::Paste />
            <UploadProgress />
            <button
                class="secondary"
                data-testid="save-analysis"
                on:click=move |_| saved::save_analysis(state)
            >
                {msg(|m| m.data.save_analysis_json)}
            </button>
            " "
            <button
                class="secondary"
                data-testid="load-bundled"
                on:click=move |_| state.load_bundled()
            >
                {msg(|m| m.data.use_bundled_data)}
            </button>
        </section>
        {move || {
            state
                .bundled
                .get()
                .then(|| {
                    view! {
                        <p class="note" data-testid="bundled-note">
                            {msg(|m| m.data.bundled_dataset_note)}
                        </p>
                    }
                })
        }}
        <Microdata />
        <files::FilesAndRoles />
        <report::Report />
        <flagged::FlaggedRows />
        <national::NationalRates />
        <rates::RatesTable />
        {move || {
            state
                .files
                .with(|f| f.is_empty())
                .then(|| view! { <p class="note">{msg(|m| m.data.choose_files_prompt)}</p> })
        }}
    }
}

/// Lists longer than this are collapsed behind a summary that names their length.
const LONG_LIST: usize = 20;

/// Methods and long notes, closed by default behind a native (keyboard-accessible) disclosure.
/// With `open`, the reader's choice survives a re-render of the content around it.
#[component]
pub(crate) fn HowCalculated(
    testid: &'static str,
    #[prop(optional)] open: Option<RwSignal<bool>>,
    children: Children,
) -> impl IntoView {
    let on_toggle = move |ev: leptos::ev::Event| {
        let now_open = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| e.has_attribute("open"));
        if let Some(open) = open {
            open.set(now_open);
        }
    };
    view! {
        <details
            class="how"
            data-testid=testid
            prop:open=move || open.is_some_and(|o| o.get())
            on:toggle=on_toggle
        >
            <summary>{msg(|m| m.common.how_this_calculated)}</summary>
            {children()}
        </details>
    }
}

/// A list shown as is when short, or inside a closed `<details>` whose summary gives its length.
pub(super) fn collapse_if_long(
    n: usize,
    summary: impl Fn(Lang, String) -> String + Send + Sync + 'static,
    list: impl IntoView + 'static,
) -> AnyView {
    if n > LONG_LIST {
        view! {
            <details class="long-list">
                <summary>
                    {move || {
                        let l = lang().get();
                        summary(l, format_number(l, n as f64, 0))
                    }}
                </summary>
                {list}
            </details>
        }
        .into_any()
    } else {
        list.into_any()
    }
}
