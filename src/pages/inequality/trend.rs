//! The linear trend of every observed measure over the years (slope per year with its 95%
//! interval, change from the first to the last year), and its CSV (as `imr inequality --format
//! csv-trends`).

use super::downloads::export_csv_download;
use crate::components::scroll_region::ScrollRegion;
use crate::i18n::{format_number, Lang};
use crate::messages::msg;
use crate::state::Shared;
use imr_core::inequality::table_interval;
use imr_core::request::{InequalityExport, InequalityRequest, InequalityResult};
use leptos::prelude::*;

/// The trend section.
pub fn trend_table(
    lang: Lang,
    outcome: Shared<InequalityResult>,
    request: InequalityRequest,
) -> impl IntoView {
    let report = &outcome.analysis.report;
    let kind = report.subject.kind;
    // The most years a trend has: its interval needs 3; with no trend, the years measured.
    let years = report
        .trend
        .iter()
        .map(|(_, t)| t.n_years)
        .max()
        .unwrap_or(report.years.len());
    let rows = report
        .trend
        .iter()
        .map(|(m, t)| {
            let d = m.slope_display_decimals(&report.subject.unit);
            let f = |x: f64| format_number(lang, x, d);
            let ci = match (t.ci_low, t.ci_high) {
                // a bound above zero never written as zero ("0,0 – 0,3" for 0,017)
                (Some(a), Some(b)) => table_interval(lang, [a, b], d),
                _ => "—".into(),
            };
            view! {
                <tr data-measure=m.key(kind)>
                    <td class="text">{m.label_in(lang)}</td>
                    <td data-field="slope">{f(t.slope)}</td>
                    <td data-field="slope_ci">{ci}</td>
                    <td data-field="change">
                        {format!("{} → {}: {}", t.first_time, t.last_time, f(t.change))}
                    </td>
                </tr>
            }
        })
        .collect_view();
    let download = export_csv_download(
        (
            "desigualdad_tendencia",
            "inequality-trend-csv-download",
            |m| m.common.download_csv,
        ),
        InequalityExport::Trends,
        outcome.clone(),
        request,
        lang,
    );
    view! {
        <section aria-labelledby="ineq-trend-h">
            <h3 id="ineq-trend-h">{msg(|m| m.inequality.trend_heading)}</h3>
            <p class="note">{imr_core::inequality::words::trend_method_note(lang, years)}</p>
            // With one year there is no trend: the note says so, not an empty table's header.
            {(!report.trend.is_empty()).then(|| table(rows, download))}
        </section>
    }
}

/// The trend table and its download.
fn table(rows: impl IntoView + 'static, download: impl IntoView + 'static) -> impl IntoView {
    view! {
        <ScrollRegion label=|m| m.inequality.trend_table_label>
            <table data-testid="inequality-trend">
                <thead>
                    <tr>
                        <th class="text">{msg(|m| m.inequality.measure_column)}</th>
                        <th>{msg(|m| m.inequality.slope_per_year)}</th>
                        <th>{msg(|m| m.common.ci95)}</th>
                        <th>{msg(|m| m.inequality.change_column)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </ScrollRegion>
        {download}
    }
}
