//! The page: header, view tabs (the ARIA tabs pattern: arrow keys, Home and End), the reader's
//! data named above every view (kept in this browser: [`crate::components::kept`]), the active
//! view, and the sources footer (the bundled data's sources, or the reader's files).

use crate::fragment::Fragment;
use crate::i18n::{lang, Lang};
use crate::messages::{messages, msg};
use crate::pages::data::DataPage;
use crate::pages::findings::FindingsPage;
use crate::pages::inequality::InequalityPage;
use crate::pages::map::MapPage;
use crate::pages::models::ModelsPage;
use crate::state::AnalysisState;
use crate::state::{AppState, View};

use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn App() -> impl IntoView {
    let fragment = Fragment::from_location();
    provide_context(fragment);
    // The language of a shared link wins over the browser's.
    let lang = fragment.synced("lang", crate::i18n::browser_lang());
    provide_context(lang);
    // The document's language follows the interface (screen readers, hyphenation).
    Effect::new(move |_| {
        if let Some(html) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = html.set_attribute("lang", lang.get().tag());
        }
    });
    let state = AppState::new(&fragment);
    provide_context(state);
    provide_context(AnalysisState::new(state));
    provide_context(crate::components::microdata::MicrodataInputs::new());
    let upload = crate::components::csv_upload::CsvUpload::new();
    provide_context(upload);
    // The reader's files kept in this browser come back, or the bundled data load.
    let kept = crate::components::kept::start(state, upload);
    provide_context(kept);
    // The prerendered Findings, if shown, give way once the app shows the same.
    crate::prerender::take_over(state);
    view! {
        <header class="top">
            <h1>"imr-atlas"</h1>
            <p>{msg(|m| m.app.page_title)}</p>
            <LanguageSwitch />
        </header>
        <nav class="tabs" role="tablist" aria-label=msg(|m| m.app.tabs_label)>
            {VIEWS.into_iter().map(|(view, label)| tab(state, view, label)).collect_view()}
        </nav>
        <YourData />
        <main
            id="view-panel"
            role="tabpanel"
            tabindex="-1"
            aria-labelledby=move || format!("tab-{}", state.view.get())
        >
            {move || match state.view.get() {
                View::Findings => view! { <FindingsPage /> }.into_any(),
                View::Data => view! { <DataPage /> }.into_any(),
                View::Inequality => view! { <InequalityPage /> }.into_any(),
                View::Models => view! { <ModelsPage /> }.into_any(),
                View::Map => view! { <MapPage /> }.into_any(),
            }}
        </main>
        <footer>
            <DataSources />
            <p>{move || (messages(lang.get()).app.footer)(imr_core::ENGINE_VERSION)}</p>
        </footer>
    }
}

/// The reader's files named above every view, kept in this browser only, with the button that
/// removes them; or what the page says of them (being restored, removed, or not kept).
#[component]
fn YourData() -> impl IntoView {
    let state = expect_context::<AppState>();
    let kept = expect_context::<crate::components::kept::Kept>();
    let names = move || state.read_file_names();
    let status = move || {
        use crate::components::kept::KeptStatus;
        let page = &messages(lang().get()).page;
        match kept.status.get() {
            KeptStatus::Quiet => None,
            KeptStatus::Restoring => Some(page.restoring.to_owned()),
            KeptStatus::Removed => Some(page.removed.to_owned()),
            // Said of the reader's own files only.
            KeptStatus::NotKept(_) if state.bundled.get() => None,
            KeptStatus::NotKept(reason) => Some((page.not_kept)(
                reason.as_deref().unwrap_or(page.no_storage_here),
            )),
        }
    };
    view! {
        <div class="your-data" data-testid="your-data" role="status">
            {move || {
                (!state.bundled.get() && !names().is_empty())
                    .then(|| {
                        view! {
                            <p>
                                <strong>{msg(|m| m.page.your_data)}</strong>
                                " "
                                <span data-testid="your-data-files">{names}</span>
                                " "
                                {move || {
                                    (!matches!(
                                        kept.status.get(),
                                        crate::components::kept::KeptStatus::NotKept(_)
                                    ))
                                        .then(|| {
                                            view! {
                                                <span class="note">{msg(|m| m.page.kept_here)}</span>
                                            }
                                        })
                                }}
                                " "
                                <button
                                    class="secondary"
                                    data-testid="remove-my-data"
                                    on:click=move |_| crate::components::kept::remove_my_data(
                                        state,
                                        kept,
                                    )
                                >
                                    {msg(|m| m.page.remove_my_data)}
                                </button>
                            </p>
                        }
                    })
            }}
            {move || {
                status()
                    .map(|text| {
                        view! {
                            <p class="note" data-testid="your-data-status">
                                {text}
                            </p>
                        }
                    })
            }}
            {move || {
                state
                    .bundled_loading
                    .get()
                    .then(|| {
                        view! {
                            <p class="note" data-testid="loading-bundled">
                                {msg(|m| m.app.loading_bundled)}
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// The attribution notice of the data shown: the bundled data's (full details:
/// `public/data/SOURCES.md`), or, under the reader's own files, those files by name (their
/// sources are the reader's, not the bundled data's).
#[component]
fn DataSources() -> impl IntoView {
    let state = expect_context::<AppState>();
    let user_files = move || (!state.bundled.get()).then(|| state.read_file_names());
    view! {
        <section data-testid="data-sources" aria-labelledby="sources-h">
            <h2 id="sources-h">{msg(|m| m.app.sources_heading)}</h2>
            {move || {
                user_files()
                    .filter(|f| !f.is_empty())
                    .map(|files| {
                        view! {
                            <p data-testid="user-data-source">
                                {move || (messages(lang().get()).page.user_data_source)(&files)}
                            </p>
                        }
                    })
            }}
            {move || {
                (state.bundled.get() && lang().get() == Lang::Es)
                    .then(|| {
                        view! {
                            <p>
                                "Datos incluidos (2001–2021, cada fila el año en que ocurrieron las defunciones): defunciones de menores de un año por comuna de residencia publicadas por el INE (2001–2015) y "
                                <strong>
                                    "reconstruidas de la tasa de mortalidad infantil de SINIM–SUBDERE, que la publica con dos años de rezago,"
                                </strong>
                                " con los nacidos vivos del INE (2017–2019 y 2021); nacidos vivos: microdatos DEIS–MINSAL (2001–2009) y anuarios del INE (2010–2021); "
                                <strong>"2016 y 2020 no tienen datos comunales publicados"</strong>
                                ". Covariables: SINIM–SUBDERE (2006–2012 y 2019–2021), Censo 2017 (INE), directorio de establecimientos MINSAL (CC0). Mapas: chilemapas (M. Vargas et al.), con datos de INE, SUBDERE y BCN (GPL-3)."
                            </p>
                        }
                    })
            }}
            {move || {
                (state.bundled.get() && lang().get() == Lang::En)
                    .then(|| {
                        view! {
                            <p>
                                "Bundled data (2001–2021, each row the year the deaths happened): infant deaths by commune of residence published by INE (2001–2015) and "
                                <strong>
                                    "reconstructed from the infant mortality rate of SINIM–SUBDERE, which publishes it two years late,"
                                </strong>
                                " with INE's births (2017–2019 and 2021); live births: DEIS–MINSAL microdata (2001–2009) and INE's yearbooks (2010–2021); "
                                <strong>"2016 and 2020 have no published commune figures"</strong>
                                ". Covariates: SINIM–SUBDERE (2006–2012 and 2019–2021), Census 2017 (INE), MINSAL establishment directory (CC0). Maps: chilemapas (M. Vargas et al.), with data from INE, SUBDERE and BCN (GPL-3)."
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// The views in the order of their tabs, with their names.
const VIEWS: [(View, crate::messages::Text); 5] = [
    (View::Findings, |m| m.common.view_findings),
    (View::Data, |m| m.common.view_data),
    (View::Inequality, |m| m.common.view_inequality),
    (View::Models, |m| m.common.view_models),
    (View::Map, |m| m.common.view_map),
];

/// One tab of the view switcher (WAI-ARIA tabs, automatic activation): only the selected tab
/// is a tab stop; the arrow keys move to the previous or next tab (wrapping), Home and End to
/// the first and last, each selecting its view and taking the focus.
fn tab(state: AppState, view: View, label: crate::messages::Text) -> impl IntoView {
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let at = VIEWS.iter().position(|(v, _)| *v == view).unwrap_or(0);
        let next = match ev.key().as_str() {
            "ArrowRight" => (at + 1) % VIEWS.len(),
            "ArrowLeft" => (at + VIEWS.len() - 1) % VIEWS.len(),
            "Home" => 0,
            "End" => VIEWS.len() - 1,
            _ => return,
        };
        ev.prevent_default();
        let target = VIEWS[next].0;
        state.view.set(target);
        let button = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&format!("tab-{target}")))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(button) = button {
            let _ = button.focus();
        }
    };
    let selected = move || state.view.get() == view;
    view! {
        <button
            role="tab"
            id=format!("tab-{view}")
            data-testid=format!("tab-{view}")
            aria-selected=move || selected().to_string()
            aria-controls="view-panel"
            tabindex=move || if selected() { "0" } else { "-1" }
            on:keydown=on_keydown
            on:click=move |_| state.view.set(view)
        >
            {msg(label)}
        </button>
    }
}

/// Switches the interface between Spanish and English.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let lang = lang();
    view! {
        <button
            class="secondary"
            data-testid="lang-switch"
            aria-label=move || messages(lang.get()).app.language_switch_label
            on:click=move |_| lang.update(|l| *l = if *l == Lang::Es { Lang::En } else { Lang::Es })
        >
            {move || messages(lang.get()).app.language_switch_button}
        </button>
    }
}
