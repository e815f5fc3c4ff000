//! The rows the plausibility pass flagged, with their reasons, and the years that repeat the
//! previous year (`imr_core::repeats`).

use super::HowCalculated;
use crate::components::flag_choices::{IncludeFlagged, IncludeRepeated};
use crate::i18n::{format_opt, lang};
use crate::messages::{messages, msg};
use crate::state::AnalysisState;
use imr_core::view::commune_name;
use leptos::prelude::*;

/// The rows the plausibility pass flagged (`imr_core::plausibility`), with their reasons: they
/// stay in the data and the downloads, and are kept out of chart scales, map classes and the
/// Findings unless included.
#[component]
pub(super) fn FlaggedRows() -> impl IntoView {
    let analysis = expect_context::<AnalysisState>();
    move || {
        let f = analysis.flags.get()?;
        let repeats: Vec<_> = analysis
            .repeats
            .get()
            .map(|r| r.0.as_ref().clone())
            .unwrap_or_default();
        if f.is_empty() && repeats.is_empty() {
            return None;
        }
        let l = lang().get();
        // A year the source copied from the previous one: kept, marked, out of the trends.
        let repeated = (!repeats.is_empty()).then(|| {
            let items = repeats
                .iter()
                .map(|r| view! { <li data-time=r.time.to_string()>{r.text(l)}</li> })
                .collect_view();
            view! {
                <ul class="warn" data-testid="repeated-years">
                    {items}
                </ul>
                <IncludeRepeated />
            }
        });
        let n = f.len();
        let worst: Vec<String> = f
            .flagged
            .iter()
            .filter(|r| r.rate_too_high())
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.entity,
                    commune_name(&r.entity).unwrap_or_default(),
                    r.time
                )
            })
            .collect();
        let texts = &messages(l).data;
        let worst = if worst.is_empty() {
            String::new()
        } else {
            (texts.flagged_worst)(&worst.join(", "))
        };
        let summary = (texts.flagged_summary)(&n.to_string(), &worst);
        let rows = f
            .flagged
            .iter()
            .map(|r| {
                view! {
                    <tr data-entity=r.entity.clone() data-time=r.time.to_string()>
                        <td class="text">{r.entity.clone()}</td>
                        <td class="text">{commune_name(&r.entity).unwrap_or_default()}</td>
                        <td>{r.time}</td>
                        <td>{format_opt(l, r.births, 0)}</td>
                        <td>{format_opt(l, r.rate_per_1000, 1)}</td>
                        <td class="text">{r.reasons_text(l)}</td>
                        <td class="text">{format!("{}:{}", r.file, r.line)}</td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="flagged-h" data-testid="flagged-rows">
                <h3 id="flagged-h">{msg(|m| m.data.flagged_heading)}</h3>
                {repeated}
                {(!f.is_empty())
                    .then(|| {
                        view! {
                            <HowCalculated testid="flagged-method">
                                <p class="note">{msg(|m| m.data.flagged_rules_note)}</p>
                            </HowCalculated>
                            <IncludeFlagged />
                            <details>
                                <summary data-testid="flagged-summary">{summary}</summary>
                                <div class="scroll">
                                    <table data-testid="flagged-table">
                                        <thead>
                                            <tr>
                                                <th class="text">{msg(|m| m.common.code)}</th>
                                                <th class="text">{msg(|m| m.common.commune)}</th>
                                                <th>{msg(|m| m.common.year)}</th>
                                                <th>{msg(|m| m.common.births)}</th>
                                                <th>{msg(|m| m.data.rate)}</th>
                                                <th class="text">{msg(|m| m.data.reasons)}</th>
                                                <th class="text">{msg(|m| m.data.file_line)}</th>
                                            </tr>
                                        </thead>
                                        <tbody>{rows}</tbody>
                                    </table>
                                </div>
                            </details>
                        }
                    })}
            </section>
        })
    }
}
