//! The interactive map: the communes ([`super::paths`]) in an SVG whose view box follows zoom
//! (wheel, [`super::zoom`]'s buttons and regions), drag, two-finger pinch and taps
//! ([`super::gestures`]); the selected commune's outline, the tooltip, the legend drawn on the
//! map ([`super::legend`]), the commune search ([`super::search`]) and the link that skips the
//! communes' tab stops.
//!
//! The map is as tall as the screen allows (its width follows from the layout's aspect), so
//! that on a phone the map and its legend are the view's first screen.

use super::gestures::{Gestures, MapView};
use super::legend::{Legend, LegendNotes};
use super::legend_spot::LegendSpot;
use super::pan_zoom::{data_view_box, tap_zoom, ViewBox};
use super::paths::map_panels;
use super::search::CommuneSearch;
use super::selection::Selection;
use super::tooltip::{Hover, Tooltip};
use super::zoom::ZoomBar;
use super::{Drawn, Geometry};
use crate::messages::msg;
use crate::state::Shared;
use imr_core::map::focus::Focus;
use imr_core::map::svg::Colouring;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The interactive map, its legend and tooltip. Paths are written once per geometry; only their
/// fill and data attributes follow the colouring.
#[component]
pub(super) fn MapFigure(
    geo: Shared<Geometry>,
    result: Memo<Option<Shared<Drawn>>>,
    colouring: Memo<Option<Shared<Colouring>>>,
    /// The communes shown when the data cover a small part of the country (the rest plain).
    focus: Memo<Option<Shared<Focus>>>,
    selected: Selection,
) -> impl IntoView {
    let view = MapView::new(geo.prepared.layout.width, geo.prepared.layout.height);
    view.follow_shown_width();
    let gestures = Gestures::new(view);
    let hover = Hover::new();
    // A tap shows the commune's tooltip and selects it (the mouse's hover and click); a tap
    // elsewhere on the map hides the tooltip. Touch pointers are captured by the element they
    // went down on. A commune too small for a finger (the Santiago inset's on a phone) is
    // zoomed to first, about the finger; the next tap selects it.
    let geo_tap = geo.clone();
    let pointer_up = move |ev: leptos::ev::PointerEvent| {
        if !gestures.up(&ev) {
            return;
        }
        let path = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("path[data-code]").ok().flatten());
        let (x, y) = (ev.client_x() as f64, ev.client_y() as f64);
        if let Some(path) = &path {
            let r = path.get_bounding_client_rect();
            if let (Some(factor), Some((mx, my))) =
                (tap_zoom(r.width(), r.height()), view.map_point(x, y))
            {
                let before = view.view_box.get_untracked();
                view.zoom_by(factor, mx, my);
                if view.view_box.get_untracked() != before {
                    hover.tap_zoomed();
                    return;
                }
            }
        }
        let area = path
            .and_then(|e| e.get_attribute("data-code"))
            .and_then(|code| geo_tap.prepared.layer.index_of(&code));
        match area {
            Some(area) => {
                hover.place(area, x, y);
                selected.set(Some(area));
            }
            None => hover.clear(),
        }
    };
    let on_wheel = move |ev: leptos::ev::WheelEvent| {
        ev.prevent_default();
        if let Some((x, y)) = view.map_point(ev.client_x() as f64, ev.client_y() as f64) {
            view.zoom_by(if ev.delta_y() < 0.0 { 0.8 } else { 1.25 }, x, y);
        }
    };
    // The selected commune outlined on top of its neighbours.
    let layout = &geo.prepared.layout;
    let outline_paths: Vec<String> = layout
        .primary_shape
        .iter()
        .map(|s| s.map(|s| layout.shapes[s].d.clone()).unwrap_or_default())
        .collect();
    // Data that cover part of the country (an upload of a few communes) are zoomed to, once
    // per set of communes; "Whole country" goes back, "Communes with data" returns.
    let geo_fit = geo.clone();
    let data_box = Memo::new(move |_| {
        result.with(|r| {
            let r = r.as_ref()?;
            let has_data: Vec<bool> = r.values.iter().map(Option::is_some).collect();
            data_view_box(&geo_fit.prepared.layout, &has_data)
        })
    });
    let fitted = StoredValue::new(None::<ViewBox>);
    Effect::new(move |_| {
        if let Some(vb) = data_box.get() {
            if fitted.get_value() != Some(vb) {
                fitted.set_value(Some(vb));
                view.view_box.set(vb);
            }
        }
    });
    let panels = map_panels(&geo, (colouring, focus), hover, selected, view);
    let legend_spot = LegendSpot::follow(geo.clone(), view, colouring, result, data_box);
    let geo_tooltip = geo.clone();
    // As wide as the column, and no taller than the window under the map's top (less the
    // legend when it is under the map) once measured (before: the screen less the header and
    // tabs).
    let aspect = layout.width / layout.height;
    let map_px = move || match view.room_px.get() - legend_spot.below_px() {
        room if room > 0.0 => Some(room.max(240.0) * aspect),
        _ => None,
    };
    let canvas_style = move || match map_px() {
        Some(px) => format!("width:min(100%, {px:.1}px)"),
        None => format!("width:min(100%, calc((100svh - 10rem) * {aspect:.4}))"),
    };
    // The column as wide as the map (and a legend beside it): the notes next to it.
    let column_style = move || legend_spot.column_style(map_px());

    view! {
        <div class="map-figure">
            <div class="map" style=column_style node_ref=hover.container>
                <button
                    class="skip-link"
                    data-testid="skip-map"
                    on:click=move |_| skip_to_downloads()
                >
                    {msg(|m| m.page.skip_map)}
                </button>
                <div class="map-canvas" style=canvas_style>
                    <svg
                        node_ref=view.svg_ref
                        data-testid="choropleth"
                        xmlns="http://www.w3.org/2000/svg"
                        viewBox=move || {
                            let vb = view.view_box.get();
                            format!("{} {} {} {}", vb.0, vb.1, vb.2, vb.3)
                        }
                        role="group"
                        aria-label=move || {
                            result
                                .with(|r| {
                                    r.as_ref()
                                        .map(|r| format!("{} {}", r.text.title, r.year))
                                        .unwrap_or_default()
                                })
                        }
                        style="width:100%;height:auto;display:block;border:1px solid #c9d1da;touch-action:none;cursor:grab;background:#fff"
                        font-family="Helvetica, Arial, sans-serif"
                        on:wheel=on_wheel
                        on:pointerdown=move |ev| {
                            hover.next_pointer();
                            gestures.down(&ev)
                        }
                        on:pointermove=move |ev| gestures.moved(&ev)
                        on:pointerup=pointer_up
                        on:pointercancel=move |ev| gestures.end(&ev)
                        on:pointerleave=move |ev| gestures.end(&ev)
                    >
                        <Patterns view=view />
                        {panels}
                        <path
                            data-testid="map-selected"
                            fill="none"
                            stroke="#000000"
                            stroke-width="1.6"
                            pointer-events="none"
                            d=move || {
                                selected
                                    .get()
                                    .and_then(|a| outline_paths.get(a).cloned())
                                    .unwrap_or_default()
                            }
                        />
                    </svg>
                    <Legend geo=geo.clone() colouring=colouring result=result spot=legend_spot />
                </div>
                {move || {
                    hover
                        .at
                        .get()
                        .map(|(area, x, y)| {
                            view! {
                                <Tooltip
                                    geo=geo_tooltip.clone()
                                    result=result
                                    focus=focus
                                    area=area
                                    x=x
                                    y=y
                                />
                            }
                        })
                }}
                <ZoomBar view=view regions=layout.regions.clone() data_box=data_box />
                <CommuneSearch geo=geo.clone() view=view hover=hover selected=selected />
            </div>
            <LegendNotes geo=geo.clone() colouring=colouring result=result focus=focus />
        </div>
    }
}

/// The skip link's target: the map's first download button, focused (the communes are one tab
/// stop each).
fn skip_to_downloads() {
    let button = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("[data-testid=download-svg]")
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = button {
        let _ = button.focus();
    }
}

/// The fills that are patterns, as the engine's SVG defines them: the grey hatch of no data
/// (`url(#no-data)`) and the purple cross-hatch of the flagged areas left out
/// (`url(#flagged)`, `imr_core::map::svg::FLAGGED_PATTERN`).
#[component]
fn Patterns(view: MapView) -> impl IntoView {
    // The hatches keep their on-screen size under zoom: scaled by the view box's share of the
    // page (they are in the map's units, which zooming in enlarges).
    let scale = move || {
        let vb = view.view_box.get();
        (vb.2 / view.page.0).clamp(1e-3, 1.0)
    };
    view! {
        <defs>
            <pattern
                id="no-data"
                patternUnits="userSpaceOnUse"
                width="5"
                height="5"
                patternTransform=move || format!("rotate(45) scale({:.4})", scale())
            >
                <rect width="5" height="5" fill="#ffffff" />
                <line x1="0" y1="0" x2="0" y2="5" stroke="#8c8c8c" stroke-width="1.6" />
            </pattern>
            <pattern
                id="flagged"
                patternUnits="userSpaceOnUse"
                width="6"
                height="6"
                patternTransform=move || format!("scale({:.4})", scale())
            >
                <rect width="6" height="6" fill="#efe6f5" />
                <path d="M0,0L6,6M6,0L0,6" stroke="#5e3c99" stroke-width="1" />
            </pattern>
        </defs>
    }
}
