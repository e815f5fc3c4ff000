//! The adjusted (true-rate) inequality (its answer sentence leads the view, above the
//! settings): the adjusted Gini chart with its band, the table of adjusted measures with
//! intervals, the excess-variation test and the noise share, the trend of each adjusted measure
//! with the split of its change, and the method behind a disclosure. Nothing for a value column.

use super::table::year_tr;
use crate::components::scroll_region::ScrollRegion;
use crate::i18n::{format_number, Lang};
use crate::messages::{messages, msg};
use imr_core::inequality::adjusted::{method_note, AdjustedMeasure};
use imr_core::inequality::answer::{adjusted_svg_with, zero_cell_words};
use imr_core::inequality::words::excess_variation_detail;
use imr_core::inequality::{table_interval, InequalityReport, YearResult};
use leptos::prelude::*;

/// The cells of one year: each adjusted measure with its interval and noise share, or why there
/// is none; then the excess-variation test.
fn year_row(lang: Lang, y: &YearResult) -> impl IntoView {
    let f = |x: f64, d: usize| format_number(lang, x, d);
    let cells = match &y.adjusted {
        Some(Ok(a)) => AdjustedMeasure::ALL
            .iter()
            .map(|m| {
                let d = m.display_decimals();
                let [lo, hi] = a.interval(*m);
                // An interval reaching zero ("0,000 / 0,000 – 0,115" read as "no inequality";
                // "0,038 / 0,000 – 0,123" stood beside the answer's words): said in words.
                let (value_text, ci_text) =
                    match zero_cell_words(lang, [lo, hi], d, m.of_theta(0.0)) {
                        Some((head, limit)) => (head, limit),
                        None => (f(a.value(*m), d), table_interval(lang, [lo, hi], d)),
                    };
                // The share with the range the adjusted interval allows: "33%" alone read as
                // a finding beside an interval reaching zero inequality (issue 42).
                let range = y
                    .noise_share_interval(*m)
                    .map_or(String::new(), |[lo, hi]| {
                        format!(" ({}–{}%)", f(100.0 * lo, 0), f(100.0 * hi, 0))
                    });
                let noise = y
                    .noise_share(*m)
                    .zip(y.noise_share_percent(*m))
                    .map(|(s, percent)| {
                        let label = messages(lang).inequality.noise_observed;
                        view! {
                            <br />
                            <small class="noise" data-noise=s.to_string()>
                                {format!("{label}: {}%{range}", f(percent, 0))}
                            </small>
                        }
                    });
                view! {
                    <td
                        data-adjusted=m.key()
                        data-value=a.value(*m).to_string()
                        data-ci-low=lo.to_string()
                        data-ci-high=hi.to_string()
                        style="white-space: nowrap"
                    >
                        <span class="value">{value_text}</span>
                        <br />
                        <small class="ci">{ci_text}</small>
                        {noise}
                    </td>
                }
            })
            .collect_view()
            .into_any(),
        Some(Err(why)) => view! {
            <td colspan="7" class="note" data-adjusted-unavailable="true">
                {why.text(lang)}
            </td>
        }
        .into_any(),
        None => ().into_any(),
    };
    let test = y.adjusted_year().map(|a| {
        let p = a.excess_variation.p_value;
        let statistic = a.excess_variation.statistic;
        view! {
            <td
                data-field="excess_variation"
                data-statistic=statistic.to_string()
                data-p-value=p.to_string()
                title=excess_variation_detail(lang, statistic)
            >
                {a.excess_variation_words(lang)}
            </td>
        }
    });
    year_tr(lang, y, (cells, test))
}

/// The trend rows of the adjusted measures, with the split of the observed change.
fn trend_rows(lang: Lang, report: &InequalityReport) -> impl IntoView {
    let f = |x: f64, d: usize| format_number(lang, x, d);
    report
        .trend_adjusted
        .iter()
        .map(|(m, t)| {
            let split = report.change_split_of(*m).map(|c| {
                let (o, t, n) = (
                    f(c.observed_change, 3),
                    f(c.true_change, 3),
                    f(c.noise_change, 3),
                );
                (messages(lang).inequality.change_split)(
                    &c.first_time.to_string(),
                    &c.last_time.to_string(),
                    &o,
                    &t,
                    &n,
                )
            });
            view! {
                <tr
                    data-adjusted=m.key()
                    data-slope=t.slope.to_string()
                    data-ci-low=t.ci_low.to_string()
                    data-ci-high=t.ci_high.to_string()
                >
                    <td class="text">{m.label(lang)}</td>
                    <td data-field="slope">{f(t.slope, 4)}</td>
                    <td data-field="slope_ci">
                        {format!("{} – {}", f(t.ci_low, 4), f(t.ci_high, 4))}
                    </td>
                    <td data-field="change_split">{split.unwrap_or_else(|| "—".into())}</td>
                </tr>
            }
        })
        .collect_view()
}

/// The adjusted section of `report`; `None` for a value column.
pub fn adjusted_section(
    lang: Lang,
    report: &InequalityReport,
    caption: imr_core::Caption,
    bundled_data: bool,
    marks: &imr_core::inequality::YearMarks,
) -> Option<impl IntoView> {
    let method = report.adjusted_method.as_ref()?;
    // Every copy drawn as one, also an included one (the result's marks, not the report's),
    // and every reconstructed year.
    let chart = adjusted_svg_with(report, AdjustedMeasure::Gini, &caption, marks);
    let header = AdjustedMeasure::ALL
        .iter()
        .map(|m| view! { <th data-adjusted=m.key()>{m.label(lang)}</th> })
        .collect_view();
    let rows = report
        .years
        .iter()
        .map(|y| year_row(lang, y))
        .collect_view();
    let approximate = method.approximate.then(|| {
        view! {
            <p class="warn" data-testid="ineq-adjusted-approximate">
                {messages(lang).inequality.adjusted_approximate_warning}
            </p>
        }
    });
    let methods = method_note(method.approximate, lang);
    // On the bundled data: what its births are and what that means for this answer (the
    // Findings' inequality caveat, word for word).
    let births_note = bundled_data.then(|| {
        view! {
            <p class="note" data-testid="bundled-births-note">
                {imr_findings::bundled_births_note(lang)}
            </p>
        }
    });
    Some(view! {
        <section aria-labelledby="ineq-adjusted-h" data-testid="ineq-adjusted">
            <h3 id="ineq-adjusted-h">{msg(|m| m.inequality.adjusted_heading)}</h3>
            {approximate}
            {births_note}
            {chart
                .map(|svg| {
                    view! {
                        <div
                            class="chart"
                            data-testid="ineq-adjusted-chart"
                            role="img"
                            aria-label=msg(|m| m.inequality.adjusted_chart_heading)
                            inner_html=svg
                        ></div>
                    }
                })}
            <ScrollRegion label=|m| m.inequality.adjusted_table_label>
                <table data-testid="adjusted-table">
                    <thead>
                        <tr>
                            <th>{msg(|m| m.common.year)}</th>
                            {header}
                            <th>{msg(|m| m.inequality.beyond_chance)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </ScrollRegion>
            // With one year there is no trend: no empty table's header.
            {(!report.trend_adjusted.is_empty())
                .then(|| {
                    let trend_body = trend_rows(lang, report);
                    view! {
                        <p class="note" data-testid="adjusted-trend-note">
                            {imr_core::inequality::words::adjusted_trend_note(
                                lang,
                                report
                                    .trend_adjusted
                                    .iter()
                                    .map(|(_, t)| t.n_years)
                                    .max()
                                    .unwrap_or(0),
                            )}
                        </p>
                        <ScrollRegion label=|m| m.inequality.adjusted_trend_table_label>
                            <table data-testid="adjusted-trend">
                                <thead>
                                    <tr>
                                        <th class="text">
                                            {msg(|m| m.inequality.adjusted_measure)}
                                        </th>
                                        <th>{msg(|m| m.inequality.slope_per_year)}</th>
                                        <th>{msg(|m| m.common.ci95)}</th>
                                        <th>{msg(|m| m.inequality.change_split_heading)}</th>
                                    </tr>
                                </thead>
                                <tbody>{trend_body}</tbody>
                            </table>
                        </ScrollRegion>
                    }
                })}
            <details data-testid="ineq-adjusted-method">
                <summary>{msg(|m| m.common.how_this_calculated)}</summary>
                <p>{methods}</p>
            </details>
        </section>
    })
}
