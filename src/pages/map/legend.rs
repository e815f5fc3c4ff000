//! The map's legend, beside the map.

use super::Drawn;
use crate::messages::msg;
use crate::state::Shared;
use imr_core::map::svg::Colouring;
use leptos::prelude::*;

/// The legend: class limits and counts (highest first), then the hatched no-data entry.
#[component]
pub(super) fn Legend(
    colouring: Memo<Option<Shared<Colouring>>>,
    result: Memo<Option<Shared<Drawn>>>,
) -> impl IntoView {
    move || {
        let c = colouring.get()?;
        let r = result.get()?;
        let rows = c
            .legend
            .iter()
            .enumerate()
            .rev()
            .map(|(k, e)| {
                view! {
                    <li data-legend-class=k.to_string() style="display:flex;align-items:center;gap:0.5rem;margin:0.2rem 0">
                        <span aria-hidden="true" style=format!("display:inline-block;width:24px;height:16px;border:1px solid #777;background:{}", e.fill)></span>
                        <span>{e.label.clone()}" "<span class="note">{format!("({})", e.count)}</span></span>
                    </li>
                }
            })
            .collect_view();
        Some(view! {
            <div data-testid="map-legend" style="flex:0 1 18rem">
                <p style="margin:0 0 0.2rem"><strong data-testid="map-title">{r.text.title.clone()}</strong>" "<strong data-testid="map-year-label" style="font-size:1.4rem">{r.year}</strong></p>
                <p class="note" style="margin:0 0 0.4rem">{r.text.subtitle.clone()}</p>
                <p style="margin:0.2rem 0;font-weight:600">{r.text.legend_title.clone()}</p>
                <ul style="list-style:none;padding:0;margin:0">
                    {rows}
                    <li data-legend-class="none" style="display:flex;align-items:center;gap:0.5rem;margin:0.2rem 0">
                        <span aria-hidden="true" style="display:inline-block;width:24px;height:16px;border:1px solid #777;background:repeating-linear-gradient(45deg,#fff 0 2px,#8c8c8c 2px 3.5px)"></span>
                        <span>{msg(|m| m.map.legend_no_data)}<span class="note">{format!("({})", c.no_data)}</span></span>
                    </li>
                </ul>
                <p class="note">{c.method_note.clone()}</p>
                {(!c.flagged_note.is_empty()).then(|| view! { <p class="note" data-testid="map-flagged-note">{c.flagged_note.clone()}</p> })}
                <p class="note">{msg(|m| m.map.select_commune_hint)}</p>
            </div>
        })
    }
}
