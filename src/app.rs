//! The page: header, view tabs, the active view, and the sources footer.

use crate::pages::data::DataPage;
use crate::pages::inequality::InequalityPage;
use crate::pages::map::MapPage;
use crate::pages::models::ModelsPage;
use crate::state::{AppState, View};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    state.load_bundled();
    let tab = move |view: View, label: &'static str, testid: &'static str| {
        view! {
            <button role="tab" data-testid=testid aria-selected=move || (state.view.get() == view).to_string()
                on:click=move |_| state.view.set(view)>{label}</button>
        }
    };
    view! {
        <header class="top">
            <h1>"imr-atlas"</h1>
            <p>"Mortalidad infantil y su desigualdad entre comunas / Infant mortality and its inequality across communes"</p>
        </header>
        <nav class="tabs" role="tablist" aria-label="Vistas / views">
            {tab(View::Data, "Datos / Data", "tab-data")}
            {tab(View::Inequality, "Desigualdad / Inequality", "tab-inequality")}
            {tab(View::Models, "Modelos / Models", "tab-models")}
            {tab(View::Map, "Mapa / Map", "tab-map")}
        </nav>
        <main>
            {move || match state.view.get() {
                View::Data => view! { <DataPage/> }.into_any(),
                View::Inequality => view! { <InequalityPage/> }.into_any(),
                View::Models => view! { <ModelsPage/> }.into_any(),
                View::Map => view! { <MapPage/> }.into_any(),
            }}
        </main>
        <footer>
            <DataSources/>
            <p>{format!("imr-atlas, motor {} — todo el cálculo ocurre en su navegador; ningún dato sale de él.", imr_core::ENGINE_VERSION)}</p>
        </footer>
    }
}

/// The attribution notice of the bundled data (full details: `public/data/SOURCES.md`).
#[component]
fn DataSources() -> impl IntoView {
    view! {
        <section data-testid="data-sources" aria-labelledby="sources-h">
            <h2 id="sources-h">"Fuentes de datos / Data sources"</h2>
            <p>"Datos incluidos: tasa de mortalidad infantil publicada por SINIM–SUBDERE (cifra del Ministerio de Salud, copiada con rezago), 2019–2023; población de edad 0: INE (aproximación a los nacidos vivos); covariables: SINIM–SUBDERE, Censo 2017 (INE), directorio de establecimientos MINSAL (CC0). "
            <strong>"Las defunciones son derivadas (tasa × población de edad 0 / 1.000), no un recuento"</strong>
            ", por lo que sus intervalos son aproximados. Mapas: chilemapas (M. Vargas et al.), con datos de INE, SUBDERE y BCN (GPL-3)."</p>
            <p lang="en">"Bundled data: infant mortality rate as published by SINIM–SUBDERE (the health ministry's figure, copied with a lag), 2019–2023; population aged 0: INE (a proxy for live births); covariates: SINIM–SUBDERE, Census 2017 (INE), MINSAL establishment directory (CC0). Deaths are derived (rate × population aged 0 / 1,000), not counted, so their intervals are approximate. Maps: chilemapas (M. Vargas et al.), with data from INE, SUBDERE and BCN (GPL-3)."</p>
        </section>
    }
}
