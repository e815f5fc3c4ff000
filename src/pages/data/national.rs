//! The pooled rate per year of the loaded communes (national when they are the whole country),
//! with its years as what they are (reconstructed, missing: [`super::year_marks`]).

use super::rates::{count_and_rate_cells, deaths_header};
use super::year_marks::{note as year_note, year_cell};
use crate::i18n::{format_number, lang};
use crate::messages::{messages, msg};
use crate::state::{AnalysisState, AppState, Shared};
use imr_core::rates::RateTable;
use leptos::prelude::*;
use std::sync::Arc;

/// The pooled rate per year with one definition on every view: every commune with data, the
/// flagged rows left out unless the reader includes them (as the Findings do), named national
/// only when the data are the whole country ([`imr_findings::compute::whole_country`]).
#[component]
pub(super) fn NationalRates() -> impl IntoView {
    let state = expect_context::<AppState>();
    let analysis = expect_context::<AnalysisState>();
    let pooled = Memo::new(move |_| {
        let Some(Ok(panel)) = state.panel.get() else {
            return None;
        };
        let flags = analysis.flags.get();
        let left_out = flags
            .as_ref()
            .filter(|f| !analysis.include.get() && !f.is_empty());
        let table = match left_out {
            Some(f) => RateTable::from_panel(&f.without_flagged(&panel)),
            None => RateTable::from_panel(&panel),
        }
        .ok()?;
        let whole_country = imr_findings::compute::whole_country(&panel);
        Some((
            Shared(Arc::new(table)),
            whole_country,
            left_out.map_or(0, |f| f.len()),
        ))
    });
    move || {
        let (table, whole_country, left_out) = pooled.get()?;
        let l = lang().get();
        let derived = table.approximate_intervals;
        let marks = analysis.year_marks.get();
        let mut present: Vec<i64> = table.national.iter().map(|n| n.time).collect();
        present.sort_unstable();
        // The charts' rule: the years on the data's step that it lacks (2016 and 2020 in the
        // bundled data; none between five-yearly data).
        let missing = imr_core::stats::years::missing_years(&present);
        // Every year of data and every missing one: one without data says so in its row.
        let mut years: Vec<i64> = present.iter().chain(&missing).copied().collect();
        years.sort_unstable();
        let no_data = messages(l).map.no_data;
        let rows = years
            .into_iter()
            .map(|t| match table.national.iter().find(|n| n.time == t) {
                Some(n) => view! {
                    <tr data-time=n
                        .time
                        .to_string()>
                        {year_cell(n.time, &marks, l)}
                        {count_and_rate_cells(l, &n.estimate, derived)} <td>{n.n_areas}</td>
                    </tr>
                }
                .into_any(),
                None => view! {
                    <tr data-time=t.to_string() data-missing="true">
                        <td>{t}</td>
                        <td colspan="6" class="text note">
                            {no_data}
                        </td>
                    </tr>
                }
                .into_any(),
            })
            .collect_view();
        let years_note = year_note(&marks, &missing, l);
        let m = &messages(l).data;
        let heading = if whole_country {
            m.national_rate_heading
        } else {
            m.loaded_rate_heading
        };
        let note = match left_out {
            0 => m.national_rate_note.to_string(),
            n => m
                .national_rate_note_flagged
                .replace("{n}", &format_number(l, n as f64, 0)),
        };
        Some(view! {
            <section aria-labelledby="national-h">
                <h3 id="national-h" data-testid="national-rate-heading">
                    {heading}
                </h3>
                <p class="note" data-testid="national-rate-note">
                    {note}
                </p>
                {years_note
                    .map(|text| {
                        view! {
                            <p class="note" data-testid="national-years-note">
                                {text}
                            </p>
                        }
                    })}
                <div class="scroll-x" tabindex="0" role="region" aria-labelledby="national-h">
                    <table data-testid="national-rate">
                        <thead>
                            <tr>
                                <th>{msg(|m| m.common.year)}</th>
                                <th>{msg(|m| m.common.births)}</th>
                                <th>{deaths_header(derived)}</th>
                                <th>{msg(|m| m.data.rate)}</th>
                                <th>{msg(|m| m.data.ci95_low)}</th>
                                <th>{msg(|m| m.data.ci95_high)}</th>
                                <th>{msg(|m| m.data.communes_column)}</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        })
    }
}
