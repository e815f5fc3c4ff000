//! The tooltip of a commune on the map.

use super::{Drawn, Geometry};
use crate::i18n::lang;
use crate::messages::messages;
use crate::state::Shared;
use imr_core::map::focus::{outside_words, Focus};
use imr_core::map::smoothing::Smoothing;
use imr_core::map::year_map::Measure;
use imr_core::rates::rate_with_interval;
use leptos::prelude::*;

/// The tooltip of one commune: name, the value shown, the raw rate with its 95% interval, births
/// and deaths, and whether its row is flagged as implausible (left out or kept, with the
/// reasons).
#[component]
pub(super) fn Tooltip(
    geo: Shared<Geometry>,
    result: Memo<Option<Shared<Drawn>>>,
    /// The part of the country shown, when the data cover only part of it.
    focus: Memo<Option<Shared<Focus>>>,
    area: usize,
    x: f64,
    y: f64,
) -> impl IntoView {
    let lang = lang();
    let name = geo.prepared.layout.names[area].clone();
    let code = geo.prepared.layout.codes[area].clone();
    let flags = expect_context::<crate::state::AnalysisState>().flags;
    let code_for_flags = code.clone();
    let body = move || {
        let r = result.get()?;
        let births = r.slice.data.births[area];
        let deaths = r.slice.data.deaths[area];
        let (rate, low, high) = match (deaths, births) {
            (Some(d), Some(b)) => rate_with_interval(d, b),
            _ => (None, None, None),
        };
        let shown = r.values.get(area).copied().flatten();
        let measure_line = match r.map.measure() {
            Measure::Rate(Smoothing::None) => None,
            Measure::Rate(_) => Some(format!(
                "{}: {} ‰",
                messages(lang.get()).map.tooltip_smoothed,
                shown
                    .map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2))
                    .unwrap_or_else(|| "—".into())
            )),
            Measure::ExcessRisk => Some(format!(
                "{}: {}",
                messages(lang.get()).map.excess_risk,
                shown
                    .map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2))
                    .unwrap_or_else(|| "—".into())
            )),
            Measure::Column(c) => Some(format!(
                "{c}: {}",
                shown
                    .map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2))
                    .unwrap_or_else(|| messages(lang.get()).map.no_data.into())
            )),
        };
        let rate_line = match (rate, low, high) {
            (Some(r), Some(l), Some(h)) => format!(
                "{}: {} ‰ ({} {}–{})",
                messages(lang.get()).map.tooltip_rate,
                crate::i18n::format_number(lang.get_untracked(), r, 2),
                messages(lang.get()).common.ci95,
                crate::i18n::format_number(lang.get_untracked(), l, 2),
                crate::i18n::format_number(lang.get_untracked(), h, 2)
            ),
            // the plain grey around a map of part of the country is not the hatched "no data"
            _ if focus.with(|f| f.as_ref().is_some_and(|f| f.is_outside(area))) => {
                outside_words(lang.get()).to_owned()
            }
            _ => messages(lang.get()).map.tooltip_rate_no_data.into(),
        };
        let count = |v: Option<f64>| {
            v.map(|v| {
                crate::i18n::format_number(lang.get(), v, if v.fract() == 0.0 { 0 } else { 2 })
            })
            .unwrap_or_else(|| "—".into())
        };
        let derived = crate::state::deaths_derived();
        // A year that is a copy, or whose deaths were reconstructed, says so beside the year
        // and the deaths (the engine's words, as under the map's legend).
        let reconstructed = r.map.reconstructed().filter(|_| r.map.copy_of().is_none());
        let deaths_text = deaths
            .map(|v| {
                let text = crate::i18n::format_deaths(lang.get(), v, derived);
                match reconstructed {
                    Some(year) => format!("{text} {}", year.deaths_mark(lang.get())),
                    None => text,
                }
            })
            .unwrap_or_else(|| "—".into());
        let year_text = match (r.map.copy_of(), reconstructed) {
            (Some(copy), _) => copy.label(lang.get()),
            (None, Some(year)) => format!("{} {}", r.year, year.mark(lang.get())),
            (None, None) => r.year.to_string(),
        };
        let deaths_label = if derived {
            messages(lang.get()).page.derived_deaths
        } else {
            messages(lang.get()).common.infant_deaths
        };
        let flagged_line = r.slice.flagged[area].then(|| {
            let m = messages(lang.get());
            let state = if r.slice.left_out[area] {
                m.map.tooltip_flagged_left_out
            } else {
                m.map.tooltip_flagged_included
            };
            let reasons = flags.with(|f| {
                f.as_ref()
                    .and_then(|p| {
                        p.flagged
                            .iter()
                            .find(|f| f.entity == code_for_flags && f.time == r.year)
                    })
                    .map(|f| f.reasons_text(lang.get()))
                    .unwrap_or_default()
            });
            format!("{state}: {reasons}")
        });
        Some(view! {
            <div data-field="year">{year_text}</div>
            {flagged_line.map(|l| view! { <div data-field="flagged">{l}</div> })}
            <div data-field="rate">{rate_line}</div>
            {measure_line.map(|l| view! { <div data-field="shown">{l}</div> })}
            <div data-field="births">
                {format!("{}: {}", messages(lang.get()).common.births, count(births))}
            </div>
            <div data-field="deaths">{format!("{deaths_label}: {deaths_text}")}</div>
        })
    };
    let node = NodeRef::<leptos::html::Div>::new();
    // Once drawn (its size known), the tooltip is moved inside the window.
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            keep_inside_window(&el, x, y);
        }
    });
    view! {
        <div
            class="map-tooltip"
            data-testid="map-tooltip"
            role="tooltip"
            node_ref=node
            style=format!("left:{}px;top:{}px", x + GAP, y)
        >
            <strong data-field="name">{format!("{name} ({code})")}</strong>
            {body}
        </div>
    }
}

/// Pixels between the point and the tooltip, and between the tooltip and the window's edges.
const GAP: f64 = 12.0;
const MARGIN: f64 = 4.0;

/// Places the tooltip `el` (absolutely positioned in its container) beside the point (`x`, `y`)
/// of the container: to its right and centred on it, or to its left when the right side has no
/// room, and then within the window (the visible width of the page, its height) with a small
/// margin, so that it is never cut off at an edge nor makes the page wider than the screen.
fn keep_inside_window(el: &web_sys::HtmlDivElement, x: f64, y: f64) {
    let (Some(window), Some(container)) = (web_sys::window(), el.offset_parent()) else {
        return;
    };
    let root = window.document().and_then(|d| d.document_element());
    let (width, height) = match root {
        Some(r) => (r.client_width() as f64, r.client_height() as f64),
        None => return,
    };
    let c = container.get_bounding_client_rect();
    let t = el.get_bounding_client_rect();
    let (w, h) = (t.width(), t.height());
    // In the window's coordinates.
    let mut left = c.left() + x + GAP;
    if left + w > width - MARGIN {
        left = c.left() + x - GAP - w;
    }
    left = left.min(width - MARGIN - w).max(MARGIN);
    let top = (c.top() + y - h / 2.0).min(height - MARGIN - h).max(MARGIN);
    let style = web_sys::HtmlElement::style(el);
    let _ = style.set_property("left", &format!("{}px", left - c.left()));
    let _ = style.set_property("top", &format!("{}px", top - c.top()));
    let _ = style.set_property("visibility", "visible");
}

/// The commune under the pointer or focus, with the tooltip's place in the figure (CSS pixels
/// from the figure's top left).
#[derive(Clone, Copy)]
pub(super) struct Hover {
    pub at: RwSignal<Option<(usize, f64, f64)>>,
    pub container: NodeRef<leptos::html::Div>,
    /// When (ms, `Date.now()`) a tap last zoomed instead of selecting: the mouse events a
    /// browser sends after a tap (hover, click) are not the reader's for a moment.
    tap_zoomed_at: StoredValue<f64>,
}

/// How long after a zooming tap the browser's compatibility mouse events are ignored (ms).
const AFTER_TAP_MS: f64 = 800.0;

impl Hover {
    pub fn new() -> Self {
        Hover {
            at: RwSignal::new(None),
            container: NodeRef::new(),
            tap_zoomed_at: StoredValue::new(f64::NEG_INFINITY),
        }
    }

    /// A tap zoomed to a commune instead of selecting it: hides the tooltip, and the mouse
    /// events the browser sends for that tap ([`Hover::after_tap`]: hover, the focus of its
    /// mouse press, click) neither show nor select.
    pub fn tap_zoomed(&self) {
        self.tap_zoomed_at.set_value(js_sys::Date::now());
        self.clear();
    }

    /// A new pointer went down on the map: what follows is not the echo of an earlier tap.
    pub fn next_pointer(&self) {
        self.tap_zoomed_at.set_value(f64::NEG_INFINITY);
    }

    /// Whether a mouse event is the browser's echo of a tap that zoomed (until the next
    /// pointer goes down, for at most [`AFTER_TAP_MS`]).
    pub fn after_tap(&self) -> bool {
        js_sys::Date::now() - self.tap_zoomed_at.get_value() < AFTER_TAP_MS
    }

    /// Shows the tooltip of `area` at the client point (`client_x`, `client_y`).
    pub fn place(&self, area: usize, client_x: f64, client_y: f64) {
        let Some(div) = self.container.get_untracked() else {
            return;
        };
        let r = div.get_bounding_client_rect();
        self.at
            .set(Some((area, client_x - r.left(), client_y - r.top())));
    }

    /// Hides the tooltip.
    pub fn clear(&self) {
        self.at.set(None);
    }
}
