//! The Data view: choose or drop CSV files, check how they were read, fix column roles, see every
//! excluded row, and read rates per commune and year with their exact intervals.
//!
//! Components: [`upload`] (files in, big ones through the worker), [`saved`] (save and reopen an
//! analysis), the microdata section (src/components/microdata/), [`files`] (dialect and roles),
//! [`report`] (validation), [`flagged`] (implausible values), [`rates`] (the tables, their CSV
//! and command). What they count, search and sort is in the engine
//! (`imr_core::request::{search_rates, RatesExtent, LineAccount}`), tested natively.

mod files;
mod flagged;
mod rates;
mod report;
mod saved;
mod upload;

use crate::components::csv_upload::UploadProgress;
use crate::components::microdata::Microdata;
use crate::i18n::{format_number, lang, tr, Lang};
use crate::state::AppState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn DataPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section aria-labelledby="upload-h">
            <h2 id="upload-h">{tr("Datos", "Data")}</h2>
            <crate::pages::findings::Takeaway question="rates"/>
            <upload::Upload/>
            <UploadProgress/>
            <button class="secondary" data-testid="save-analysis" on:click=move |_| saved::save_analysis(state)>{tr("Guardar análisis (JSON)", "Save analysis (JSON)")}</button>
            " "
            <button class="secondary" data-testid="load-bundled" on:click=move |_| state.load_bundled()>{tr("Usar datos incluidos de Chile", "Use the bundled Chilean data")}</button>
        </section>
        {move || state.bundled.get().then(|| view! {
            <p class="note" data-testid="bundled-note">{tr("Mostrando el conjunto incluido: 345 comunas de Chile, 2019–2023 (ver fuentes al pie). Suba sus propios archivos para reemplazarlo.", "Showing the bundled dataset: 345 Chilean communes, 2019–2023 (sources below). Upload your own files to replace it.")}</p>
        })}
        <Microdata/>
        <files::FilesAndRoles/>
        <report::Report/>
        <flagged::FlaggedRows/>
        <rates::NationalRates/>
        <rates::RatesTable/>
        {move || state.files.with(|f| f.is_empty()).then(|| view! {
            <p class="note">{tr("Elija uno o más archivos CSV para comenzar.", "Choose one or more CSV files to begin.")}</p>
        })}
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
        <details class="how" data-testid=testid
            prop:open=move || open.is_some_and(|o| o.get()) on:toggle=on_toggle>
            <summary>{tr("Cómo se calcula", "How this is calculated")}</summary>
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
                <summary>{move || { let l = lang().get(); summary(l, format_number(l, n as f64, 0)) }}</summary>
                {list}
            </details>
        }
        .into_any()
    } else {
        list.into_any()
    }
}
