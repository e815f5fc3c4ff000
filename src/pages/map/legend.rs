//! The map's legend, drawn on the map (on a phone the map and its legend are one screen, and a
//! screenshot of the map has its legend) where it covers no commune with data
//! ([`super::legend_spot`]: the layout's legend box on the whole country), and its notes under
//! the map: what the colours show, how the
//! classes were made, and the communes flagged as implausible and left out.

use super::legend_spot::LegendSpot;
use super::{Drawn, Geometry};
use crate::i18n::{format_number, lang};
use crate::messages::{messages, msg};
use crate::state::AnalysisState;
use crate::state::Shared;
use imr_core::map::focus::{outside_note, Focus};
use imr_core::map::svg::Colouring;
use leptos::prelude::*;

/// The swatch of the flagged, left-out areas: the SVG's purple cross-hatch on lilac.
const FLAGGED_SWATCH: &str =
    "display:inline-block;width:24px;height:16px;border:1px solid #1a1a1a;\
     background:repeating-linear-gradient(45deg,transparent 0 3px,#5e3c99 3px 4px),\
     repeating-linear-gradient(-45deg,#efe6f5 0 3px,#5e3c99 3px 4px)";

/// The legend on the map: title and year, the legend's heading (the unit), class limits and
/// counts (highest first), the hatched no-data entry and the flagged-and-left-out entry when
/// there is one; placed at `spot` (in percent of the map, so it follows the map's size), as
/// wide as the layout's legend box at most, and letting taps through to the map.
#[component]
pub(super) fn Legend(
    geo: Shared<Geometry>,
    colouring: Memo<Option<Shared<Colouring>>>,
    result: Memo<Option<Shared<Drawn>>>,
    spot: LegendSpot,
) -> impl IntoView {
    let layout = &geo.prepared.layout;
    let max_width = 100.0 * layout.legend.width / layout.width;
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
                    <li data-legend-class=k.to_string()>
                        <span
                            aria-hidden="true"
                            class="swatch"
                            style=format!("background:{}", e.fill)
                        ></span>
                        <span>
                            {e.label.clone()}" "
                            <span class="note">
                                {format!("({})", format_number(lang().get(), e.count as f64, 0))}
                            </span>
                        </span>
                    </li>
                }
            })
            .collect_view();
        // A copied year, or one whose deaths were reconstructed, says so beside the year, where
        // a screenshot of the map keeps it (the engine's mark, as the exported map has it).
        let copy_mark = (!r.text.year_note.is_empty()).then(|| {
            view! {
                " "
                <span class="warn" data-testid="map-copy-mark">
                    {r.text.year_note.clone()}
                </span>
            }
        });
        let left_out = c.left_out_count();
        let flagged_row = (left_out > 0).then(|| {
            view! {
                <li data-legend-class="flagged">
                    <span aria-hidden="true" class="swatch" style=FLAGGED_SWATCH></span>
                    <span>
                        {c.left_out_label.clone()}" "
                        <span class="note">{format!("({left_out})")}</span>
                    </span>
                </li>
            }
        });
        Some(view! {
            <div
                class="map-legend"
                data-testid="map-legend"
                node_ref=spot.node
                style=move || spot.style(max_width)
                data-view=move || spot.view()
            >
                <p class="map-legend-title">
                    <strong data-testid="map-title">{r.text.title.clone()}</strong>
                    " "
                    <strong data-testid="map-year-label" class="map-year">
                        {r.year}
                    </strong>
                    {copy_mark}
                </p>
                <p class="map-legend-heading">{r.text.legend_title.clone()}</p>
                <ul>
                    {rows} <li data-legend-class="none">
                        <span
                            aria-hidden="true"
                            class="swatch"
                            style="background:repeating-linear-gradient(45deg,#fff 0 2px,#8c8c8c 2px 3.5px)"
                        ></span>
                        <span>
                            {msg(|m| m.map.legend_no_data)}" "
                            <span class="note">
                                {format!("({})", format_number(lang().get(), c.no_data as f64, 0))}
                            </span>
                        </span>
                    </li> {flagged_row}
                </ul>
            </div>
        })
    }
}

/// The legend's notes, under the map: what the colours show, how the classes were made, what
/// the plain grey around a map of part of the country is, the flagged rows' line and the
/// left-out communes named, and how to pick a commune.
#[component]
pub(super) fn LegendNotes(
    geo: Shared<Geometry>,
    colouring: Memo<Option<Shared<Colouring>>>,
    result: Memo<Option<Shared<Drawn>>>,
    /// The communes shown when the data cover part of the country: a note says what the plain
    /// grey around them is.
    focus: Memo<Option<Shared<Focus>>>,
) -> impl IntoView {
    move || {
        let c = colouring.get()?;
        let r = result.get()?;
        let outside = focus.get().map(|f| {
            view! {
                <p class="note" data-testid="map-outside-note">
                    {outside_note(lang().get(), f.outside_count())}
                </p>
            }
        });
        Some(view! {
            <div class="map-notes" data-testid="map-legend-notes">
                <p class="note" data-testid="map-subtitle">
                    {r.text.subtitle.clone()}
                </p>
                <p class="note">{c.method_note.clone()}</p>
                {outside}
                {(!c.flagged_note.is_empty())
                    .then(|| {
                        view! {
                            <p class="note" data-testid="map-flagged-note">
                                {c.flagged_note.clone()}
                            </p>
                        }
                    })}
                {(!c.uncertainty_note.is_empty())
                    .then(|| {
                        view! {
                            <p class="note caution" data-testid="map-uncertainty-note">
                                {c.uncertainty_note.clone()}
                            </p>
                        }
                    })}
                {(!c.year_caution.is_empty())
                    .then(|| {
                        view! {
                            <p class="note caution" data-testid="map-copy-note">
                                {c.year_caution.clone()}
                            </p>
                        }
                    })}
                <LeftOutList geo=geo.clone() colouring=c.clone() year=r.year />
                <p class="note">{msg(|m| m.map.select_commune_hint)}</p>
            </div>
        })
    }
}

/// The communes left out as flagged, by name and code, each with its reasons (the rules of
/// `imr_core::plausibility` it breaks) as its title; nothing when none is left out.
#[component]
fn LeftOutList(geo: Shared<Geometry>, colouring: Shared<Colouring>, year: i64) -> impl IntoView {
    let lang = lang();
    let flags = expect_context::<AnalysisState>().flags;
    let areas: Vec<usize> = (0..geo.prepared.layout.codes.len())
        .filter(|&a| colouring.is_left_out(a))
        .collect();
    (!areas.is_empty()).then(|| {
        let items = move || {
            let plausibility = flags.get();
            areas
                .iter()
                .map(|&a| {
                    let code = geo.prepared.layout.codes[a].clone();
                    let reasons = plausibility
                        .as_ref()
                        .and_then(|p| {
                            p.flagged
                                .iter()
                                .find(|f| f.entity == code && f.time == year)
                        })
                        .map(|f| f.reasons_text(lang.get()))
                        .unwrap_or_default();
                    view! {
                        <li data-code=code.clone() title=reasons>
                            {format!("{} ({code})", geo.prepared.layout.names[a])}
                        </li>
                    }
                })
                .collect_view()
        };
        view! {
            <div class="note" data-testid="map-flagged-list">
                {move || {
                    format!(
                        "{} ({}):",
                        messages(lang.get()).map.flagged_left_out_list,
                        colouring.left_out_count(),
                    )
                }}
                <ul style="margin:0.2rem 0;padding-left:1.2rem">{items}</ul>
            </div>
        }
    })
}
