//! The funnel plot of the year (the engine's file, [`imr_core::request::MapExport::Funnel`]),
//! linked to the map through the selection.

use super::selection::Selection;
use super::{BoundaryError, Drawn, Geometry, MapError};
use crate::components::download::{download_text, shown_width};
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::escape::CsvOptions;
use imr_core::request::MapExport;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The funnel plot of the year, linked to the map through the selection: drawn at the width it
/// is shown at ([`shown_width`]: its text 10 px or more on a phone, no sideways scroll), its
/// download the file `imr map --funnel` writes, at its own 640 px.
#[component]
pub(super) fn FunnelPanel(
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    result: Signal<Option<Shared<Drawn>>>,
    selected: Selection,
) -> impl IntoView {
    let lang = lang();
    let svg = Memo::new(move |_| -> Option<Result<String, MapError>> {
        let r = result.get()?;
        let geo = geometry.get().ok()?;
        let figure = r.figure(&geo.prepared, &r.colouring);
        Some((figure.funnel_at(Some(shown_width()))).map_err(MapError::Request))
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let code = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("[data-code]").ok().flatten())
            .and_then(|e| e.get_attribute("data-code"));
        if let (Some(code), Ok(geo)) = (code, geometry.get_untracked()) {
            selected.set(geo.prepared.layer.index_of(&code));
        }
    };
    // The selected commune stands out in the plot (a style rule, so it survives re-rendering).
    let highlight = move || {
        let code = selected.get().and_then(|a| {
            geometry.with(|g| g.as_ref().ok().map(|g| g.prepared.layout.codes[a].clone()))
        })?;
        Some(format!(
            "[data-testid=\"funnel-box\"] circle[data-code=\"{code}\"] {{ r: 7px; stroke: #000000; stroke-width: 2px; }}"
        ))
    };
    let download = move |_| {
        let (Some(r), Ok(geo)) = (result.get_untracked(), geometry.get_untracked()) else {
            return;
        };
        let figure = r.figure(&geo.prepared, &r.colouring);
        if let Ok(svg) = MapExport::Funnel.write(&figure, CsvOptions::default()) {
            let file = MapExport::Funnel.file_name(r.map.request(), r.map.measure());
            download_text(&file, "image/svg+xml", &svg);
        }
    };
    view! {
        <section aria-labelledby="funnel-h">
            <h3 id="funnel-h">{msg(|m| m.map.funnel_plot)}</h3>
            <p class="note">{msg(|m| m.map.funnel_hint)}</p>
            <style>{highlight}</style>
            {move || {
                svg.get()
                    .map(|s| match s {
                        Ok(s) => {
                            view! {
                                <div
                                    data-testid="funnel-box"
                                    class="chart"
                                    tabindex="0"
                                    role="region"
                                    aria-labelledby="funnel-h"
                                    style="max-width:640px;cursor:pointer"
                                    on:click=on_click
                                    inner_html=s
                                ></div>
                            }
                                .into_any()
                        }
                        Err(e) => {
                            view! {
                                <p class="warn">
                                    {move || {
                                        format!(
                                            "{}: {}",
                                            messages(lang.get()).map.funnel_plot_not_available,
                                            e.text(lang.get()),
                                        )
                                    }}
                                </p>
                            }
                                .into_any()
                        }
                    })
            }}
            <button class="secondary" data-testid="download-funnel" on:click=download>
                {msg(|m| m.map.download_funnel_svg)}
            </button>
            {move || {
                selected
                    .get()
                    .and_then(|a| {
                        let r = result.get()?;
                        let geo = geometry.get().ok()?;
                        let name = geo.prepared.layout.names.get(a)?.clone();
                        let code = geo.prepared.layout.codes.get(a)?.clone();
                        let v = r.values.get(a).copied().flatten();
                        Some(
                            view! {
                                <p data-testid="map-selection">
                                    {format!(
                                        "{}: {name} ({code}) — {}",
                                        messages(lang.get()).map.selected,
                                        v
                                            .map(|v| crate::i18n::format_number(
                                                lang.get_untracked(),
                                                v,
                                                2,
                                            ))
                                            .unwrap_or_else(|| {
                                                messages(lang.get_untracked()).map.no_data.into()
                                            }),
                                    )} " "
                                    <button class="secondary" on:click=move |_| selected.set(None)>
                                        {msg(|m| m.map.clear)}
                                    </button>
                                </p>
                            },
                        )
                    })
            }}
        </section>
    }
}
