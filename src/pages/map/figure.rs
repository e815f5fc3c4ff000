//! The interactive map: one SVG path per commune written once per geometry, only their fill and
//! data attributes following the colouring; zoom (wheel, buttons, region), drag, two-finger pinch
//! and taps (pointer events), the selected commune's outline, the tooltip and the legend.

use super::legend::Legend;
use super::pan_zoom::{fit_aspect, pinched, Pinch, ViewBox, TAP_SLOP_PX};
use super::selection::Selection;
use super::tooltip::Tooltip;
use super::{Drawn, Geometry};
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::map::colour::NO_DATA_FILL;
use imr_core::map::svg::{format_value, Colouring};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The interactive map, its legend and tooltip. Paths are written once per geometry; only their
/// fill and data attributes follow the colouring.
#[component]
pub(super) fn MapFigure(
    geo: Shared<Geometry>,
    result: Memo<Option<Shared<Drawn>>>,
    colouring: Memo<Option<Shared<Colouring>>>,
    selected: Selection,
) -> impl IntoView {
    let lang = lang();
    let (page_w, page_h) = (geo.layout.width, geo.layout.height);
    let full: ViewBox = (0.0, 0.0, page_w, page_h);
    let view_box = RwSignal::new(full);
    let hover = RwSignal::new(None::<(usize, f64, f64)>);
    let drag = StoredValue::new(None::<(f64, f64, ViewBox)>);
    let container = NodeRef::<leptos::html::Div>::new();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    let fill_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .map(|c| c.fill_of(area).to_string())
                .unwrap_or_else(|| NO_DATA_FILL.to_string())
        })
    };
    let class_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .and_then(|c| c.classes.get(area).copied().flatten())
                .map(|k| k.to_string())
                .unwrap_or_else(|| "none".into())
        })
    };
    let flagged_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .is_some_and(|c| c.flagged.get(area).copied().unwrap_or(false))
        })
    };
    let value_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .and_then(|c| c.values.get(area).copied().flatten())
                .map(format_value)
                .unwrap_or_default()
        })
    };

    // Tooltip placement relative to the figure.
    let place = move |area: usize, client_x: f64, client_y: f64| {
        let Some(div) = container.get_untracked() else {
            return;
        };
        let r = div.get_bounding_client_rect();
        hover.set(Some((area, client_x - r.left(), client_y - r.top())));
    };
    let zoom_by = move |factor: f64, cx: f64, cy: f64| {
        view_box.update(|vb| {
            let w = (vb.2 * factor).clamp(page_w / 40.0, page_w);
            let h = w * page_h / page_w;
            let x = cx - (cx - vb.0) * w / vb.2;
            let y = cy - (cy - vb.1) * h / vb.3;
            *vb = (x, y, w, h);
        })
    };
    // Client coordinates to the map's units (the viewBox keeps the page's aspect ratio).
    let to_map = move |client_x: f64, client_y: f64| -> Option<(f64, f64)> {
        let svg = svg_ref.get_untracked()?;
        let r = svg.get_bounding_client_rect();
        let vb = view_box.get_untracked();
        (r.width() > 0.0).then(|| {
            (
                vb.0 + (client_x - r.left()) / r.width() * vb.2,
                vb.1 + (client_y - r.top()) / r.height() * vb.3,
            )
        })
    };

    // Pointers on the map by id (mouse, pen or fingers): one drags the view, two pinch it, and a
    // touch that barely moves is a tap, which shows the commune's tooltip and selects it (the
    // mouse's hover and click). `touch-action: none` on the map gives these gestures to the page.
    let pointers = StoredValue::new(Vec::<(i32, f64, f64)>::new());
    let pinch = StoredValue::new(None::<Pinch>);
    let tap = StoredValue::new(None::<(i32, f64, f64)>);
    let pointer_down = move |ev: leptos::ev::PointerEvent| {
        let (id, x, y) = (ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64);
        pointers.update_value(|ps| {
            ps.retain(|p| p.0 != id);
            ps.push((id, x, y));
        });
        let ps = pointers.get_value();
        match ps.as_slice() {
            [_] => {
                drag.set_value(Some((x, y, view_box.get_untracked())));
                tap.set_value((ev.pointer_type() == "touch").then_some((id, x, y)));
            }
            [a, b, ..] => {
                drag.set_value(None);
                tap.set_value(None);
                let distance = (a.1 - b.1).hypot(a.2 - b.2);
                let anchor = to_map((a.1 + b.1) / 2.0, (a.2 + b.2) / 2.0);
                pinch.set_value(anchor.filter(|_| distance > 0.0).map(|anchor| Pinch {
                    distance,
                    view_box: view_box.get_untracked(),
                    anchor,
                }));
            }
            [] => {}
        }
    };
    let pointer_move = move |ev: leptos::ev::PointerEvent| {
        let (id, x, y) = (ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64);
        pointers.update_value(|ps| {
            if let Some(p) = ps.iter_mut().find(|p| p.0 == id) {
                (p.1, p.2) = (x, y);
            }
        });
        if tap
            .get_value()
            .is_some_and(|t| t.0 == id && (x - t.1).hypot(y - t.2) > TAP_SLOP_PX)
        {
            tap.set_value(None);
        }
        if let Some(p) = pinch.get_value() {
            let ps = pointers.get_value();
            let (Some(a), Some(b), Some(svg)) = (ps.first(), ps.get(1), svg_ref.get_untracked())
            else {
                return;
            };
            let r = svg.get_bounding_client_rect();
            let distance = (a.1 - b.1).hypot(a.2 - b.2);
            if distance > 0.0 && r.width() > 0.0 && r.height() > 0.0 {
                view_box.set(pinched(
                    &p,
                    distance,
                    ((a.1 + b.1) / 2.0 - r.left()) / r.width(),
                    ((a.2 + b.2) / 2.0 - r.top()) / r.height(),
                    page_w,
                    page_h,
                ));
            }
            return;
        }
        let Some((x0, y0, vb)) = drag.get_value() else {
            return;
        };
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let r = svg.get_bounding_client_rect();
        let (dx, dy) = (x - x0, y - y0);
        if dx.abs() + dy.abs() > 3.0 && r.width() > 0.0 {
            view_box.set((
                vb.0 - dx / r.width() * vb.2,
                vb.1 - dy / r.height() * vb.3,
                vb.2,
                vb.3,
            ));
        }
    };
    // A pointer lifted, cancelled or gone: the pinch ends (a finger left on the map drags on
    // from where it is), a single pointer's drag ends.
    let pointer_end = move |ev: leptos::ev::PointerEvent| {
        let id = ev.pointer_id();
        pointers.update_value(|ps| ps.retain(|p| p.0 != id));
        if tap.get_value().is_some_and(|t| t.0 == id) {
            tap.set_value(None);
        }
        if pinch.get_value().is_some() {
            pinch.set_value(None);
            let rest = pointers.get_value().first().copied();
            drag.set_value(rest.map(|p| (p.1, p.2, view_box.get_untracked())));
        } else {
            drag.set_value(None);
        }
    };
    let geo_tap = geo.clone();
    let pointer_up = move |ev: leptos::ev::PointerEvent| {
        let tapped =
            ev.pointer_type() == "touch" && tap.get_value().is_some_and(|t| t.0 == ev.pointer_id());
        pointer_end(ev.clone());
        if !tapped {
            return;
        }
        // The commune under the finger (touch pointers are captured by the element they went
        // down on); a tap elsewhere on the map hides the tooltip.
        let area = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("path[data-code]").ok().flatten())
            .and_then(|e| e.get_attribute("data-code"))
            .and_then(|code| geo_tap.layer.index_of(&code));
        match area {
            Some(area) => {
                place(area, ev.client_x() as f64, ev.client_y() as f64);
                selected.set(Some(area));
            }
            None => hover.set(None),
        }
    };

    let layout = &geo.layout;
    let panels = layout
        .panels
        .iter()
        .enumerate()
        .map(|(p, panel)| {
            let frame = panel.boxed.then(|| {
                let r = panel.rect.inset(-4.0);
                view! {
                    <text x=panel.rect.x y=panel.rect.y - 6.0 font-size="11" fill="#333333">{panel.title.clone().unwrap_or_default()}</text>
                    <rect x=r.x y=r.y width=r.width height=r.height fill="none" stroke="#666666" stroke-width="0.8"/>
                }
            });
            let shapes = layout
                .shapes
                .iter()
                .filter(|s| s.panel == p)
                .map(|shape| {
                    let area = shape.area;
                    let d = shape.d.clone();
                    if !shape.primary {
                        return view! { <path data-of=layout.codes[area].clone() fill=move || fill_of(area) d=d/> }.into_any();
                    }
                    let code = layout.codes[area].clone();
                    let name = layout.names[area].clone();
                    let label = move || {
                        let v = colouring.with(|c| c.as_ref().and_then(|c| c.values.get(area).copied().flatten()));
                        format!("{name} ({}): {}", code, v.map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2)).unwrap_or_else(|| messages(lang.get_untracked()).map.no_data.into()))
                    };
                    view! {
                        <path data-code=layout.codes[area].clone() data-class=move || class_of(area) data-value=move || value_of(area)
                            data-flagged=move || flagged_of(area).then_some("true")
                            stroke=move || flagged_of(area).then_some("#1a1a1a")
                            stroke-width=move || flagged_of(area).then_some("1.2")
                            fill=move || fill_of(area) d=d tabindex="0" role="button"
                            aria-label=label
                            aria-pressed=move || (selected.get() == Some(area)).to_string()
                            on:mouseenter=move |ev: leptos::ev::MouseEvent| place(area, ev.client_x() as f64, ev.client_y() as f64)
                            on:mousemove=move |ev: leptos::ev::MouseEvent| place(area, ev.client_x() as f64, ev.client_y() as f64)
                            on:mouseleave=move |_| hover.set(None)
                            on:focus=move |ev: leptos::ev::FocusEvent| {
                                if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                                    let r = el.get_bounding_client_rect();
                                    place(area, r.right(), r.top() + r.height() / 2.0);
                                }
                            }
                            on:blur=move |_| hover.set(None)
                            on:click=move |_| selected.set(Some(area))
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); selected.set(Some(area)); }
                            }/>
                    }
                    .into_any()
                })
                .collect_view();
            view! {
                {frame}
                <g data-panel=panel.id.clone() stroke="#ffffff" stroke-width=if panel.boxed { "0.6" } else { "0.25" } stroke-linejoin="round">{shapes}</g>
            }
        })
        .collect_view();
    // The selected commune outlined on top of its neighbours.
    let outline_paths: Vec<String> = layout
        .primary_shape
        .iter()
        .map(|s| s.map(|s| layout.shapes[s].d.clone()).unwrap_or_default())
        .collect();
    let regions = layout.regions.clone();
    let regions_for_select = regions.clone();
    let geo_tooltip = geo.clone();

    view! {
        <div class="map-figure" style="display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start">
            <div class="map" node_ref=container style="position:relative;flex:1 1 420px;max-width:620px">
                <div class="map-zoom" role="group" aria-label="Zoom" style="display:flex;flex-wrap:wrap;gap:0.3rem;margin-bottom:0.3rem">
                    <button class="secondary" data-testid="zoom-in" aria-label=msg(|m| m.map.zoom)
                        on:click=move |_| { let vb = view_box.get_untracked(); zoom_by(0.6, vb.0 + vb.2 / 2.0, vb.1 + vb.3 / 2.0) }>"+"</button>
                    <button class="secondary" data-testid="zoom-out" aria-label=msg(|m| m.map.zoom_out)
                        on:click=move |_| { let vb = view_box.get_untracked(); zoom_by(1.0 / 0.6, vb.0 + vb.2 / 2.0, vb.1 + vb.3 / 2.0) }>"−"</button>
                    <button class="secondary" data-testid="zoom-reset" on:click=move |_| view_box.set(full)>{msg(|m| m.map.whole_country)}</button>
                    <label for="map-region">{msg(|m| m.map.zoom_region)}</label>
                    <select id="map-region" data-testid="region-select" on:change=move |ev| {
                        let code = event_target_value(&ev);
                        match regions.iter().find(|r| r.code == code) {
                            Some(r) => view_box.set(fit_aspect(r.rect.x, r.rect.y, r.rect.width, r.rect.height, page_w, page_h)),
                            None => view_box.set(full),
                        }
                    }>
                        <option value="">{msg(|m| m.map.all_regions)}</option>
                        {regions_for_select.into_iter().map(|r| view! { <option value=r.code.clone()>{format!("{} {}", r.code, r.name)}</option> }).collect_view()}
                    </select>
                </div>
                <svg node_ref=svg_ref data-testid="choropleth" xmlns="http://www.w3.org/2000/svg"
                    viewBox=move || { let vb = view_box.get(); format!("{} {} {} {}", vb.0, vb.1, vb.2, vb.3) }
                    role="group" aria-label=move || result.with(|r| r.as_ref().map(|r| format!("{} {}", r.text.title, r.year)).unwrap_or_default())
                    style="width:100%;height:auto;display:block;border:1px solid #c9d1da;touch-action:none;cursor:grab;background:#fff"
                    font-family="Helvetica, Arial, sans-serif"
                    on:wheel=move |ev: leptos::ev::WheelEvent| {
                        ev.prevent_default();
                        if let Some((x, y)) = to_map(ev.client_x() as f64, ev.client_y() as f64) {
                            zoom_by(if ev.delta_y() < 0.0 { 0.8 } else { 1.25 }, x, y);
                        }
                    }
                    on:pointerdown=pointer_down
                    on:pointermove=pointer_move
                    on:pointerup=pointer_up
                    on:pointercancel=pointer_end
                    on:pointerleave=pointer_end>
                    <defs><pattern id="no-data" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">
                        <rect width="5" height="5" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="5" stroke="#8c8c8c" stroke-width="1.6"/>
                    </pattern></defs>
                    {panels}
                    <path data-testid="map-selected" fill="none" stroke="#000000" stroke-width="1.6" pointer-events="none"
                        d=move || selected.get().and_then(|a| outline_paths.get(a).cloned()).unwrap_or_default()/>
                </svg>
                {move || hover.get().map(|(area, x, y)| view! {
                    <Tooltip geo=geo_tooltip.clone() result=result area=area x=x y=y/>
                })}
            </div>
            <Legend colouring=colouring result=result/>
        </div>
    }
}
