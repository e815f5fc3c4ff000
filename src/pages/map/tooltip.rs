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
/// and deaths.
#[component]
pub(super) fn Tooltip(
    geo: Shared<Geometry>,
    result: Memo<Option<Shared<Drawn>>>,
    area: usize,
    x: f64,
    y: f64,
) -> impl IntoView {
    let lang = lang();
    let name = geo.layout.names[area].clone();
    let code = geo.layout.codes[area].clone();
    let body = move || {
        let r = result.get()?;
        let births = r.data.births[area];
        let deaths = r.data.deaths[area];
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
        Some(view! {
            <div data-field="year">{format!("{}", r.year)}</div>
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
