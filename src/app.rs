//! The page: header, view tabs, the active view, and the sources footer.

use crate::fragment::Fragment;
use crate::i18n::{lang, Lang};
use crate::messages::{messages, msg};
use crate::pages::data::DataPage;
use crate::pages::findings::{FindingsPage, FlagState};
use crate::pages::inequality::InequalityPage;
use crate::pages::map::MapPage;
use crate::pages::models::ModelsPage;
use crate::state::{AppState, View};

use leptos::prelude::*;

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
    provide_context(FlagState::new(state));
    provide_context(crate::components::microdata::MicrodataInputs::new());
    provide_context(crate::components::csv_upload::CsvUpload::new());
    state.load_bundled();
    view! {
        <header class="top">
            <h1>"imr-atlas"</h1>
            <p>{msg(|m| m.app.page_title)}</p>
            <LanguageSwitch/>
        </header>
        <nav class="tabs" role="tablist" aria-label=msg(|m| m.app.tabs_label)>
            {tab(state, View::Findings, msg(|m| m.common.view_findings), "tab-findings")}
            {tab(state, View::Data, msg(|m| m.common.view_data), "tab-data")}
            {tab(state, View::Inequality, msg(|m| m.common.view_inequality), "tab-inequality")}
            {tab(state, View::Models, msg(|m| m.common.view_models), "tab-models")}
            {tab(state, View::Map, msg(|m| m.common.view_map), "tab-map")}
        </nav>
        <main>
            {move || match state.view.get() {
                View::Findings => view! { <FindingsPage/> }.into_any(),
                View::Data => view! { <DataPage/> }.into_any(),
                View::Inequality => view! { <InequalityPage/> }.into_any(),
                View::Models => view! { <ModelsPage/> }.into_any(),
                View::Map => view! { <MapPage/> }.into_any(),
            }}
        </main>
        <footer>
            <DataSources/>
            <p>{move || (messages(lang.get()).app.footer)(imr_core::ENGINE_VERSION)}</p>
        </footer>
    }
}

/// The attribution notice of the bundled data (full details: `public/data/SOURCES.md`).
#[component]
fn DataSources() -> impl IntoView {
    view! {
        <section data-testid="data-sources" aria-labelledby="sources-h">
            <h2 id="sources-h">{msg(|m| m.app.sources_heading)}</h2>
            {move || (lang().get() == Lang::Es).then(|| view! { <p>"Datos incluidos (2001–2021, cada fila el año en que ocurrieron las defunciones): defunciones de menores de un año por comuna de residencia publicadas por el INE (2001–2015) y "
            <strong>"reconstruidas de la tasa de mortalidad infantil de SINIM–SUBDERE, que la publica con dos años de rezago,"</strong>
            " con los nacidos vivos del INE (2017–2019 y 2021); nacidos vivos: microdatos DEIS–MINSAL (2001–2009) y anuarios del INE (2010–2021); "
            <strong>"2016 y 2020 no tienen datos comunales publicados"</strong>
            ". Covariables: SINIM–SUBDERE (2006–2012 y 2019–2021), Censo 2017 (INE), directorio de establecimientos MINSAL (CC0). Mapas: chilemapas (M. Vargas et al.), con datos de INE, SUBDERE y BCN (GPL-3)."</p> })}
            {move || (lang().get() == Lang::En).then(|| view! { <p>"Bundled data (2001–2021, each row the year the deaths happened): infant deaths by commune of residence published by INE (2001–2015) and "
            <strong>"reconstructed from the infant mortality rate of SINIM–SUBDERE, which publishes it two years late,"</strong>
            " with INE's births (2017–2019 and 2021); live births: DEIS–MINSAL microdata (2001–2009) and INE's yearbooks (2010–2021); "
            <strong>"2016 and 2020 have no published commune figures"</strong>
            ". Covariates: SINIM–SUBDERE (2006–2012 and 2019–2021), Census 2017 (INE), MINSAL establishment directory (CC0). Maps: chilemapas (M. Vargas et al.), with data from INE, SUBDERE and BCN (GPL-3)."</p> })}
        </section>
    }
}

/// One tab of the view switcher.
fn tab(
    state: AppState,
    view: View,
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <button role="tab" data-testid=testid aria-selected=move || (state.view.get() == view).to_string()
            on:click=move |_| state.view.set(view)>{label}</button>
    }
}

/// Switches the interface between Spanish and English.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let lang = lang();
    view! {
        <button class="secondary" data-testid="lang-switch"
            aria-label=move || messages(lang.get()).app.language_switch_label
            on:click=move |_| lang.update(|l| *l = if *l == Lang::Es { Lang::En } else { Lang::Es })>
            {move || messages(lang.get()).app.language_switch_button}
        </button>
    }
}
