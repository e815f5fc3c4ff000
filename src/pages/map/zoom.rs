//! The zoom bar above the map: zoom in and out, the whole country, and zoom to a region.

use super::gestures::MapView;
use super::pan_zoom::{fit_aspect, ViewBox};
use crate::messages::msg;
use imr_core::map::layout::RegionBox;
use leptos::prelude::*;

/// Buttons to zoom about the centre, back to the whole country, and a select of the regions
/// (each fitted to the page's aspect).
#[component]
pub(super) fn ZoomBar(
    view: MapView,
    regions: Vec<RegionBox>,
    /// The view of the communes with data when they are part of the country
    /// ([`super::pan_zoom::data_view_box`]): a button returns to it.
    data_box: Memo<Option<ViewBox>>,
) -> impl IntoView {
    let (page_w, page_h) = view.page;
    let options = regions
        .iter()
        .map(|r| view! { <option value=r.code.clone()>{format!("{} {}", r.code, r.name)}</option> })
        .collect_view();
    let on_region = move |ev| {
        let code = event_target_value(&ev);
        match regions.iter().find(|r| r.code == code) {
            Some(r) => view.view_box.set(fit_aspect(
                r.rect.x,
                r.rect.y,
                r.rect.width,
                r.rect.height,
                page_w,
                page_h,
            )),
            None => view.view_box.set(view.full()),
        }
    };
    view! {
        <div
            class="map-zoom"
            role="group"
            aria-label="Zoom"
            style="display:flex;flex-wrap:wrap;gap:0.3rem;margin-bottom:0.3rem"
        >
            <button
                class="secondary"
                data-testid="zoom-in"
                aria-label=msg(|m| m.map.zoom)
                on:click=move |_| view.zoom_centre(0.6)
            >
                "+"
            </button>
            <button
                class="secondary"
                data-testid="zoom-out"
                aria-label=msg(|m| m.map.zoom_out)
                on:click=move |_| view.zoom_centre(1.0 / 0.6)
            >
                "−"
            </button>
            <button
                class="secondary"
                data-testid="zoom-reset"
                on:click=move |_| view.view_box.set(view.full())
            >
                {msg(|m| m.map.whole_country)}
            </button>
            {move || {
                data_box
                    .get()
                    .map(|vb| {
                        view! {
                            <button
                                class="secondary"
                                data-testid="zoom-data"
                                on:click=move |_| view.view_box.set(vb)
                            >
                                {msg(|m| m.map.zoom_data)}
                            </button>
                        }
                    })
            }}
            <label for="map-region">{msg(|m| m.map.zoom_region)}</label>
            <select id="map-region" data-testid="region-select" on:change=on_region>
                <option value="">{msg(|m| m.map.all_regions)}</option>
                {options}
            </select>
        </div>
    }
}
