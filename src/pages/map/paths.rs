//! The map's communes: one SVG path per shape, written once per geometry; only their fill and
//! data attributes follow the colouring. A primary shape is a button (hover, focus, click,
//! Enter) that shows the commune's tooltip and selects it.

use super::gestures::MapView;
use super::selection::Selection;
use super::tooltip::Hover;
use super::Geometry;
use crate::i18n::lang;
use crate::messages::messages;
use crate::state::Shared;
use imr_core::map::colour::NO_DATA_FILL;
use imr_core::map::focus::Focus;
use imr_core::map::placement::{inset_label, label_font_shown};
use imr_core::map::projection::Rect;
use imr_core::map::svg::{format_value, Colouring};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Each area's attributes under the current colouring (no colouring yet: no data), on a map
/// of part of the country when the data cover a small part of it (`focus`).
#[derive(Clone, Copy)]
struct Paint {
    colouring: Memo<Option<Shared<Colouring>>>,
    focus: Memo<Option<Shared<Focus>>>,
}

impl Paint {
    fn fill(&self, area: usize) -> String {
        self.focus.with(|f| {
            self.colouring.with(|c| {
                c.as_ref()
                    .map(|c| c.fill_in(area, f.as_ref().map(|f| &*f.0)).to_string())
                    .unwrap_or_else(|| NO_DATA_FILL.to_string())
            })
        })
    }

    /// `data-class`: the class, `flagged` (left out) or `none`.
    fn class(&self, area: usize) -> String {
        self.colouring.with(|c| {
            c.as_ref()
                .map(|c| c.class_name(area))
                .unwrap_or_else(|| "none".into())
        })
    }

    fn flagged(&self, area: usize) -> bool {
        self.colouring.with(|c| {
            c.as_ref()
                .is_some_and(|c| c.flagged.get(area).copied().unwrap_or(false))
        })
    }

    fn value(&self, area: usize) -> Option<f64> {
        self.colouring.with(|c| {
            c.as_ref()
                .and_then(|c| c.values.get(area).copied().flatten())
        })
    }

    /// What a screen reader hears: "Santiago (13101): 6.12", or why there is no value.
    fn label(&self, area: usize, name: &str, code: &str) -> String {
        let lang = lang().get_untracked();
        let shown = match self.value(area) {
            Some(v) => crate::i18n::format_number(lang, v, 2),
            None => self.colouring.with(|c| match c {
                Some(c) if c.is_left_out(area) => c.left_out_label.clone(),
                _ => messages(lang).map.no_data.into(),
            }),
        };
        format!("{name} ({code}): {shown}")
    }
}

/// The map's colouring and, on data of part of the country, the communes it shows.
type Painting = (Memo<Option<Shared<Colouring>>>, Memo<Option<Shared<Focus>>>);

/// The panels of the map (main and insets, boxed ones framed and titled) with their communes.
/// An inset's title keeps its size on screen under zoom and stays within the view, shortened to
/// its last words when the whole does not fit ([`inset_label`]), and at least 10 px on screen
/// ([`label_font_shown`]).
pub(super) fn map_panels(
    geo: &Geometry,
    (colouring, focus): Painting,
    hover: Hover,
    selected: Selection,
    view: MapView,
) -> impl IntoView {
    let paint = Paint { colouring, focus };
    let layout = &geo.prepared.layout;
    layout
        .panels
        .iter()
        .enumerate()
        .map(|(p, panel)| {
            let frame = panel.boxed.then(|| {
                let r = panel.rect.inset(-4.0);
                let (title, rect) = (panel.title.clone().unwrap_or_default(), panel.rect);
                let label = Memo::new(move |_| {
                    let vb = view.view_box.get();
                    let font = label_font_shown(view.page.0, vb.2, view.shown_px.get());
                    let frame = Rect::new(vb.0, vb.1, vb.2, vb.3);
                    let (text, (x, y)) = inset_label(&title, rect, font, frame).unwrap_or_default();
                    (text, x, y, font)
                });
                view! {
                    <text
                        x=move || label.get().1
                        y=move || label.get().2
                        font-size=move || label.get().3
                        fill="#333333"
                    >
                        {move || label.get().0}
                    </text>
                    <rect
                        x=r.x
                        y=r.y
                        width=r.width
                        height=r.height
                        fill="none"
                        stroke="#666666"
                        stroke-width="0.8"
                    />
                }
            });
            let shapes = layout
                .shapes
                .iter()
                .filter(|s| s.panel == p)
                .map(|shape| {
                    let (area, d) = (shape.area, shape.d.clone());
                    if shape.primary {
                        commune_path(geo, area, d, paint, hover, selected).into_any()
                    } else {
                        view! { <path data-of=layout.codes[area].clone() fill=move || paint.fill(area) d=d /> }.into_any()
                    }
                })
                .collect_view();
            view! {
                {frame}
                <g
                    data-panel=panel.id.clone()
                    stroke="#ffffff"
                    stroke-width=if panel.boxed { "0.6" } else { "0.25" }
                    stroke-linejoin="round"
                >
                    {shapes}
                </g>
            }
        })
        .collect_view()
}

/// The primary path of a commune: its data attributes, the flagged outline, and the events that
/// show its tooltip and select it.
fn commune_path(
    geo: &Geometry,
    area: usize,
    d: String,
    paint: Paint,
    hover: Hover,
    selected: Selection,
) -> impl IntoView {
    let code = geo.prepared.layout.codes[area].clone();
    let name = geo.prepared.layout.names[area].clone();
    let label = {
        let code = code.clone();
        move || paint.label(area, &name, &code)
    };
    let flagged = move || paint.flagged(area);
    // Hover follows a pointer that hovers (mouse, pen) through its pointer events. Not the mouse
    // events: a browser sends them for a touch too, and after a tap Chromium moves its emulated
    // mouse back to where a real mouse last was (the tab clicked to get here), so a mouseleave
    // would hide the tooltip the tap just opened. A touch's tooltip follows its tap
    // (super::figure) and goes with a tap elsewhere.
    let hovering = |ev: &leptos::ev::PointerEvent| ev.pointer_type() != "touch";
    let place = move |ev: leptos::ev::PointerEvent| {
        if hovering(&ev) && !hover.after_tap() {
            hover.place(area, ev.client_x() as f64, ev.client_y() as f64)
        }
    };
    view! {
        <path
            data-code=code
            data-class=move || paint.class(area)
            data-value=move || paint.value(area).map(format_value).unwrap_or_default()
            data-flagged=move || flagged().then_some("true")
            stroke=move || flagged().then_some("#1a1a1a")
            stroke-width=move || flagged().then_some("1.2")
            fill=move || paint.fill(area)
            d=d
            tabindex="0"
            role="button"
            aria-label=label
            aria-pressed=move || (selected.get() == Some(area)).to_string()
            on:pointerenter=place
            on:pointermove=place
            on:pointerleave=move |ev| {
                if hovering(&ev) {
                    hover.clear()
                }
            }
            on:focus=move |ev: leptos::ev::FocusEvent| {
                if hover.after_tap() {
                    return;
                }
                if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                    let r = el.get_bounding_client_rect();
                    hover.place(area, r.right(), r.top() + r.height() / 2.0);
                }
            }
            on:blur=move |_| hover.clear()
            on:click=move |_| {
                if !hover.after_tap() {
                    selected.set(Some(area))
                }
            }
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    selected.set(Some(area));
                }
            }
        />
    }
}
