//! The observed measures by year: a table with each value, its bias-corrected value and
//! interval, a ⚠ on values the bootstrap finds shifted (with the numbers behind it), the rows
//! not measured, the calculation notes, and the table's CSV (as `imr inequality --format csv`).

use super::downloads::export_csv_download;
use crate::components::scroll_region::ScrollRegion;
use crate::i18n::{format_number, Lang};
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::inequality::words::Unit;
use imr_core::inequality::{no_interval_note, table_interval, Measure, YearResult};
use imr_core::request::{InequalityExport, InequalityRequest, InequalityResult};
use leptos::prelude::*;

/// Why a cell is flagged, in the interface language, with the engine's numbers
/// ([`YearResult::bias_reading`]): the tooltip and accessible name of the ⚠ mark.
fn bias_explanation(lang: Lang, y: &YearResult, m: Measure, d: usize) -> String {
    let f = |x: f64| format_number(lang, x, d);
    let r = y.bias_reading(m);
    let observed = r.observed.map(f).unwrap_or_default();
    let corrected = r.corrected.map(f).unwrap_or_default();
    let bias_text = format!("{}{}", if r.bias > 0.0 { "+" } else { "" }, f(r.bias));
    let relative = r
        .relative_percent
        .map(|p| format!(" ({}%)", format_number(lang, p, 0)))
        .unwrap_or_default();
    let percentile = r
        .percentile
        .map(|[a, b]| format!("{} – {}", f(a), f(b)))
        .unwrap_or_default();
    let texts = &messages(lang).inequality;
    let explain = if r.inflated {
        texts.bias_inflated
    } else {
        texts.bias_shifted
    };
    explain(&bias_text, &relative, &observed, &percentile, &corrected)
}

/// One cell: the value, its flag, the bias-corrected value and the interval.
fn cell(lang: Lang, y: &YearResult, m: Measure, unit: &Unit) -> impl IntoView {
    let kind = y.measures.kind;
    let d = m.display_decimals(unit);
    let value = y.measures.get(m);
    let reason = y.measures.reason(m).map(|r| r.text(lang));
    let text = value
        .map(|v| format_number(lang, v, d))
        .unwrap_or_else(|| "—".into());
    let ci_text = y.interval(m).map(|ci| table_interval(lang, ci, d));
    // A count's bias-corrected value is not a whole number.
    let bc_decimals = if m.is_count() { 1 } else { d };
    let corrected = y.bias_corrected(m).map(|bc| {
        let label = messages(lang).inequality.bias_corrected;
        view! {
            <br />
            <small class="bias-corrected" data-value=bc.to_string()>
                {format!("{label}: {}", format_number(lang, bc, bc_decimals))}
            </small>
        }
    });
    let biased = y.is_noticeably_biased(m);
    let flag = biased.then(|| {
        let explanation = bias_explanation(lang, y, m, d);
        view! {
            " "
            <span
                class="bias-flag warn"
                data-testid="ineq-bias-flag"
                role="img"
                aria-label=explanation.clone()
                title=explanation
            >
                "⚠"
            </span>
        }
    });
    view! {
        <td
            data-measure=m.key(kind)
            data-value=value.map(|v| v.to_string())
            data-biased=biased.then_some("true")
            title=reason
            style="white-space: nowrap"
        >
            <span class="value">{text}</span>
            {flag}
            {corrected}
            {ci_text
                .map(|t| {
                    view! {
                        <br />
                        <small class="ci">{t}</small>
                    }
                })}
        </td>
    }
}

/// A year's row of the observed and the adjusted tables: the year (marked when it repeats the
/// previous one: shown, while the trends leave it out), then `cells`.
pub(super) fn year_tr(lang: Lang, y: &YearResult, cells: impl IntoView + 'static) -> impl IntoView {
    let repeat = y.repeat_of.map(|of| {
        let text = (messages(lang).inequality.repeat_of)(&of.to_string());
        view! {
            <br />
            <small class="warn" data-testid="ineq-repeat-mark">
                {text}
            </small>
        }
    });
    view! {
        <tr data-time=y.time().to_string() data-repeat-of=y.repeat_of.map(|t| t.to_string())>
            <th scope="row">{y.time()}{repeat}</th>
            {cells}
        </tr>
    }
}

/// The warning above the table when some value is flagged.
fn bias_warning(lang: Lang, inflated: bool) -> String {
    let inflation = if inflated {
        messages(lang).inequality.inflated_inequality_note
    } else {
        ""
    };
    let rest = messages(lang).inequality.flagged_cells_note;
    format!("⚠ {inflation}{rest}")
}

/// The rows left out of the measures, with file, line and reason.
fn left_out(lang: Lang, outcome: &InequalityResult) -> Option<impl IntoView> {
    let n = outcome.left_out.len() + outcome.flagged.len();
    (n > 0).then(|| {
        let line = messages(lang).common.line;
        let item = |file: &str, number: u64, entity: &str, time: i64, reason: String| {
            format!("{file}, {line} {number}: {entity} {time} — {reason}")
        };
        let items = outcome
            .left_out
            .iter()
            .map(|r| {
                let text = item(&r.file, r.line, &r.entity, r.time, r.reason.text(lang));
                view! { <li>{text}</li> }
            })
            .collect_view();
        // The rows flagged as implausible, with their reasons in the interface language.
        let flagged = outcome
            .flagged
            .iter()
            .map(|r| {
                let text = item(&r.file, r.line, &r.entity, r.time, r.left_out_reason(lang));
                view! { <li data-testid="ineq-flagged-row">{text}</li> }
            })
            .collect_view();
        let items = view! {
            {items}
            {flagged}
        };
        let summary = (messages(lang).inequality.rows_not_measured_summary)(&n.to_string());
        view! {
            <details>
                <summary>{summary}</summary>
                <ol
                    class="excluded"
                    tabindex="0"
                    aria-label=msg(|m| m.inequality.rows_not_measured)
                >
                    {items}
                </ol>
            </details>
        }
    })
}

/// The observed measures' section.
pub fn observed_table(
    lang: Lang,
    outcome: Shared<InequalityResult>,
    request: InequalityRequest,
) -> impl IntoView {
    let report = &outcome.analysis.report;
    let unit = report.subject.unit.clone();
    let present = report.measures_present();
    let kind = report.subject.kind;
    let header = present
        .iter()
        .map(|m| view! { <th data-measure=m.key(kind)>{m.label_in(lang)}</th> })
        .collect_view();
    let rows = report
        .years
        .iter()
        .map(|y| {
            let cells = present
                .iter()
                .map(|m| cell(lang, y, *m, &unit))
                .collect_view();
            year_tr(lang, y, cells)
        })
        .collect_view();
    let notes = report
        .notes
        .iter()
        .map(|n| view! { <li data-testid="ineq-note">{n.render(lang)}</li> })
        .collect_view();
    let flags = report.bias_flags();
    let warning = flags.any.then(|| {
        view! {
            <p class="warn" data-testid="ineq-bias-warning">
                {bias_warning(lang, flags.inflated)}
            </p>
        }
    });
    let no_interval = no_interval_note(lang, &present, kind).map(|text| {
        view! {
            <p class="note" data-testid="ineq-no-interval-note">
                {text}
            </p>
        }
    });
    let unit = unit.text(lang);
    let heading = (messages(lang).inequality.observed_heading)(&unit);
    let left_out = left_out(lang, &outcome);
    let download = export_csv_download(
        (
            "desigualdad_por_anio",
            "inequality-table-csv-download",
            |m| m.common.download_csv,
        ),
        InequalityExport::Table,
        outcome.clone(),
        request,
        lang,
    );
    view! {
        <section aria-labelledby="ineq-table-h">
            <h3 id="ineq-table-h">{heading}</h3>
            {warning}
            <ScrollRegion label=|m| m.inequality.observed_table_label>
                <table data-testid="inequality-table">
                    <thead>
                        <tr>
                            <th>{msg(|m| m.common.year)}</th>
                            {header}
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </ScrollRegion>
            {no_interval}
            {download}
            {left_out}
            <details>
                <summary>{msg(|m| m.inequality.calculation_notes)}</summary>
                <ul>{notes}</ul>
            </details>
        </section>
    }
}
