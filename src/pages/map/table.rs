//! The map as a table: every commune with its raw and smoothed rates ([`AreaRates`]), the mapped
//! value and its class.

use super::selection::Selection;
use super::{BoundaryError, Drawn, Geometry};
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::request::AreaRates;
use leptos::prelude::*;

/// The accessible alternative to the map: every commune with raw and smoothed rates.
#[component]
pub(super) fn DataTable(
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    result: Signal<Option<Shared<Drawn>>>,
    selected: Selection,
) -> impl IntoView {
    let lang = lang();
    let open = RwSignal::new(false);
    let body = move || {
        if !open.get() {
            return None;
        }
        let r = result.get()?;
        let geo = geometry.get().ok()?;
        let n = geo.prepared.layer.areas.len();
        let (d, b) = (&r.slice.data.deaths, &r.slice.data.births);
        let rates = AreaRates::of(&r.slice, geo.prepared.weights(r.map.request().contiguity));
        // Numbers and words in the page's language (decimal comma in Spanish).
        let l = lang.get();
        let derived = crate::state::deaths_derived();
        let f = move |v: Option<f64>, dec: usize| {
            v.map(|v| crate::i18n::format_number(l, v, dec))
                .unwrap_or_else(|| "—".into())
        };
        let rows = (0..n)
            .map(|a| {
                let class = r.classification.class_of.get(a).copied().flatten();
                view! {
                    <tr
                        data-code=geo.prepared.layout.codes[a].clone()
                        aria-selected=move || (selected.get() == Some(a)).to_string()
                        style=move || {
                            if selected.get() == Some(a) { "background:#fff3c4" } else { "" }
                        }
                        on:click=move |_| selected.set(Some(a))
                    >
                        <td class="text">{geo.prepared.layout.codes[a].clone()}</td>
                        <td class="text">{geo.prepared.layout.names[a].clone()}</td>
                        <td>{f(b[a], 0)}</td>
                        <td data-field="deaths">
                            {d[a]
                                .map(|v| crate::i18n::format_deaths(l, v, derived))
                                .unwrap_or_else(|| "—".into())}
                        </td>
                        <td data-field="raw">{f(rates.rate_per_1000[a], 2)}</td>
                        <td>
                            {format!("{}–{}", f(rates.ci95_low[a], 2), f(rates.ci95_high[a], 2))}
                        </td>
                        <td data-field="eb">{f(rates.eb_global[a], 2)}</td>
                        <td data-field="seb">{f(rates.eb_spatial[a], 2)}</td>
                        <td data-field="er">{f(rates.excess_risk[a], 2)}</td>
                        <td data-field="value">{f(r.values.get(a).copied().flatten(), 2)}</td>
                        <td data-field="class">
                            {match class {
                                Some(k) => k.to_string(),
                                None if r.slice.left_out[a] => r.colouring.left_out_label.clone(),
                                None => messages(l).map.no_data.into(),
                            }}
                        </td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <div class="scroll">
                <table data-testid="map-table">
                    <caption class="note">{format!("{} — {}", r.text.title, r.year)}</caption>
                    <thead>
                        <tr>
                            <th class="text">{msg(|m| m.common.code)}</th>
                            <th class="text">{msg(|m| m.common.commune)}</th>
                            <th>{msg(|m| m.common.births)}</th>
                            <th>
                                {move || {
                                    if crate::state::deaths_derived() {
                                        messages(lang.get()).page.derived_deaths
                                    } else {
                                        messages(lang.get()).common.deaths
                                    }
                                }}
                            </th>
                            <th>{msg(|m| m.map.table_raw_rate)}</th>
                            <th>{msg(|m| m.map.table_ci95)}</th>
                            <th>{msg(|m| m.map.table_global_eb)}</th>
                            <th>{msg(|m| m.map.table_spatial_eb)}</th>
                            <th>"O/E"</th>
                            <th>{msg(|m| m.map.table_mapped)}</th>
                            <th>{msg(|m| m.map.table_class)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        })
    };
    view! {
        <section aria-labelledby="map-table-h">
            <h3 id="map-table-h">{msg(|m| m.map.table_caption)}</h3>
            <button
                class="secondary"
                data-testid="map-table-toggle"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {move || {
                    if open.get() {
                        messages(lang.get()).map.hide_table
                    } else {
                        messages(lang.get()).map.show_table
                    }
                }}
            </button>
            {body}
        </section>
    }
}
