//! The tooltip of a commune on the map.

use super::{Drawn, Geometry};
use crate::i18n::lang;
use crate::messages::messages;
use crate::state::Shared;
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
    area: usize,
    x: f64,
    y: f64,
) -> impl IntoView {
    let lang = lang();
    let name = geo.prepared.layout.names[area].clone();
    let code = geo.prepared.layout.codes[area].clone();
    let flags = expect_context::<crate::pages::findings::FlagState>().flags;
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
        let measure_line = match &r.measure {
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
            _ => messages(lang.get()).map.tooltip_rate_no_data.into(),
        };
        let count = |v: Option<f64>| {
            v.map(|v| {
                crate::i18n::format_number(lang.get(), v, if v.fract() == 0.0 { 0 } else { 2 })
            })
            .unwrap_or_else(|| "—".into())
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
            <div data-field="year">{format!("{}", r.year)}</div>
            {flagged_line.map(|l| view! { <div data-field="flagged">{l}</div> })}
            <div data-field="rate">{rate_line}</div>
            {measure_line.map(|l| view! { <div data-field="shown">{l}</div> })}
            <div data-field="births">{format!("{}: {}", messages(lang.get()).common.births, count(births))}</div>
            <div data-field="deaths">{format!("{}: {}", messages(lang.get()).common.infant_deaths, count(deaths))}</div>
        })
    };
    view! {
        <div data-testid="map-tooltip" role="tooltip"
            style=format!("position:absolute;left:{}px;top:{}px;transform:translate(12px,-50%);background:#fff;border:1px solid #4a5562;border-radius:4px;padding:0.4rem 0.6rem;font-size:0.85rem;pointer-events:none;box-shadow:0 2px 6px rgba(0,0,0,0.2);z-index:5;min-width:14rem", x, y)>
            <strong data-field="name">{format!("{name} ({code})")}</strong>
            {body}
        </div>
    }
}

/// The commune under the pointer or focus, with the tooltip's place in the figure (CSS pixels
/// from the figure's top left).
#[derive(Clone, Copy)]
pub(super) struct Hover {
    pub at: RwSignal<Option<(usize, f64, f64)>>,
    pub container: NodeRef<leptos::html::Div>,
}

impl Hover {
    pub fn new() -> Self {
        Hover {
            at: RwSignal::new(None),
            container: NodeRef::new(),
        }
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
