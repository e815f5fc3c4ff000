//! The commune search: a field with the list of communes ("Santiago (13101)"), which reaches
//! the communes too small to tap (Santiago's, a few pixels wide in the region inset on a
//! phone). A commune chosen there is selected, zoomed to and shown with its tooltip, as a tap
//! on it would.

use super::gestures::MapView;
use super::pan_zoom::fit_aspect;
use super::selection::Selection;
use super::tooltip::Hover;
use super::Geometry;
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::view::{find_place, place_choice};
use leptos::prelude::*;
use std::time::Duration;

/// How much of the map around a found commune the zoom shows: its box grown this many times.
const CONTEXT: f64 = 6.0;

#[component]
pub(super) fn CommuneSearch(
    geo: Shared<Geometry>,
    view: MapView,
    hover: Hover,
    selected: Selection,
) -> impl IntoView {
    let lang = lang();
    let layout = &geo.prepared.layout;
    let mut choices: Vec<String> = (0..layout.codes.len())
        .map(|a| place_choice(&layout.names[a], &layout.codes[a]))
        .collect();
    choices.sort();
    let options = choices
        .into_iter()
        .map(|c| view! { <option value=c></option> })
        .collect_view();
    let not_found = RwSignal::new(None::<String>);
    let find = move |text: String| {
        let layout = &geo.prepared.layout;
        match find_place(&layout.codes, &layout.names, &text) {
            Some(area) => {
                not_found.set(None);
                show(&geo, view, hover, selected, area);
            }
            None if text.trim().is_empty() => not_found.set(None),
            None => not_found.set(Some(text)),
        }
    };
    let on_change = move |ev: leptos::ev::Event| find(event_target_value(&ev));
    view! {
        <div class="commune-search">
            <label for="map-find">{msg(|m| m.page.find_commune)}</label>
            <input
                id="map-find"
                type="search"
                list="map-find-list"
                data-testid="commune-search"
                autocomplete="off"
                placeholder=msg(|m| m.page.find_commune_placeholder)
                on:change=on_change
            />
            <datalist id="map-find-list">{options}</datalist>
            {move || {
                not_found
                    .get()
                    .map(|text| {
                        view! {
                            <p class="warn" role="status" data-testid="commune-not-found">
                                {move || (messages(lang.get()).page.commune_not_found)(&text)}
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// Selects `area`, zooms to it (its shape where it is drawn largest, with its surroundings) and
/// shows its tooltip once the zoomed map is drawn.
fn show(geo: &Geometry, view: MapView, hover: Hover, selected: Selection, area: usize) {
    let layout = &geo.prepared.layout;
    selected.set(Some(area));
    if let Some(shape) = layout.primary_shape.get(area).copied().flatten() {
        let b = layout.shapes[shape].bounds;
        let (w, h) = (b.width.max(4.0) * CONTEXT, b.height.max(4.0) * CONTEXT);
        let (cx, cy) = (b.x + b.width / 2.0, b.y + b.height / 2.0);
        let (page_w, page_h) = view.page;
        view.view_box
            .set(fit_aspect(cx - w / 2.0, cy - h / 2.0, w, h, page_w, page_h));
    }
    let code = layout.codes[area].clone();
    // The tooltip goes where the commune is drawn after the zoom (the next task).
    set_timeout(
        move || {
            let path = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.query_selector(&format!(
                    "svg[data-testid=choropleth] path[data-code=\"{code}\"]"
                ))
                .ok()
                .flatten()
            });
            if let Some(path) = path {
                let r = path.get_bounding_client_rect();
                hover.place(area, r.left() + r.width() / 2.0, r.top() + r.height() / 2.0);
            }
        },
        Duration::from_millis(0),
    );
}
