//! Rates per commune and year with their exact intervals (searchable, sortable, with the CSV
//! that `imr rates --format csv` prints and the command), and the national pooled rate.

use super::year_marks::{note as year_note, year_cell};
use super::HowCalculated;
use crate::components::download::download_csv;
use crate::i18n::{format_number, format_opt, lang, Lang};
use crate::messages::{messages, msg};
use crate::state::AnalysisState;
use crate::state::AppState;
use imr_core::escape::shell_join;
use imr_core::rates::{rates_csv, RateEstimate};
use imr_core::request::{command_line, RatesRequest};
use imr_core::view::{commune_name, search_rates, RateSort, RatesExtent};
use leptos::prelude::*;

/// Rows shown at once; the search narrows the rest.
const PAGE_ROWS: usize = 400;

/// Rows shown before the table is expanded: the table answers first, the rest is one click away.
/// Collapsed rows stay in the page (hidden), so their text and attributes remain readable.
const PREVIEW_ROWS: usize = 10;

/// File name of the rates download.
const RATES_FILE: &str = "tasas_imr.csv";

/// The `imr rates` command that prints the rates download: the loaded files and their roles
/// ([`AppState::input_spec`]), on the Spanish page with `--csv-lang es` (its CSV is Spanish).
fn rates_command(state: &AppState, l: Lang) -> String {
    let input = state.input_spec();
    let mut args = RatesRequest::default().to_args();
    args.extend(["--format".to_string(), "csv".to_string()]);
    args.extend(imr_core::spreadsheet_csv::csv_lang_args(l));
    shell_join(command_line(RatesRequest::SUBCOMMAND, &input, args))
}

/// A count for reading: whole numbers without decimals, derived (fractional) counts with two.
fn fmt_count(lang: Lang, v: f64) -> String {
    format_number(lang, v, if v.fract() == 0.0 { 0 } else { 2 })
}

/// The births, deaths, rate and 95% interval cells of a rates row (a commune's or the nation's),
/// each named by `data-field`; `derived` deaths are marked as such
/// ([`crate::i18n::format_deaths`]).
pub(super) fn count_and_rate_cells(l: Lang, e: &RateEstimate, derived: bool) -> impl IntoView {
    let title = derived.then(|| messages(l).page.derived_deaths_title);
    view! {
        <td data-field="births">{fmt_count(l, e.births)}</td>
        <td data-field="deaths" data-derived=derived.then_some("true") title=title>
            {crate::i18n::format_deaths(l, e.deaths, derived)}
        </td>
        <td data-field="rate">{format_opt(l, e.rate, 2)}</td>
        <td data-field="ci_low">{format_opt(l, e.ci_low, 2)}</td>
        <td data-field="ci_high">{format_opt(l, e.ci_high, 2)}</td>
    }
}

#[component]
pub(super) fn RatesTable() -> impl IntoView {
    let state = expect_context::<AppState>();
    let analysis = expect_context::<AnalysisState>();
    // The search and the sort are in the link (`rates-q`, `rates-sort=-rate_per_1000`).
    let fragment = crate::fragment::fragment();
    let search = fragment.synced("rates-q", String::new());
    let sort = fragment.synced_with(
        "rates-sort",
        (RateSort::Entity, true),
        RateSort::write,
        RateSort::read,
    );
    let expanded = RwSignal::new(false);
    move || {
        let table = state.rates.get()?;
        let approximate = table.approximate_intervals;
        // Counts known within a range: the intervals are the union over it, and say so.
        let ranged = table.deaths_range.clone().filter(|r| r.ranged_rows > 0);
        let derived = approximate;
        let csv_table = table.clone();
        let body = move || {
            let l = lang().get();
            let (key, ascending) = sort.get();
            let rows = search_rates(&table, &search.get(), key, ascending);
            let extent = RatesExtent::of(&rows);
            let (total, communes, span) = (extent.rows, extent.areas, extent.years_text());
            let flagged = analysis.flags.get();
            let marks = analysis.year_marks.get();
            let shown = rows
                .into_iter()
                .take(PAGE_ROWS)
                .enumerate()
                .map(|(i, r)| {
                    let beyond_preview = i >= PREVIEW_ROWS;
                    let is_flagged = flagged
                        .as_ref()
                        .is_some_and(|f| f.is_flagged(&r.entity, r.time));
                    view! {
                        <tr
                            data-entity=r.entity.clone()
                            data-time=r.time.to_string()
                            data-flagged=is_flagged.then_some("true")
                            class:flagged=is_flagged
                            hidden=move || beyond_preview && !expanded.get()
                        >
                            <td class="text">{r.entity.clone()}</td>
                            <td class="text">{commune_name(&r.entity).unwrap_or_default()}</td>
                            {year_cell(r.time, &marks, l)}
                            {count_and_rate_cells(l, &r.estimate, derived)}
                        </tr>
                    }
                })
                .collect_view();
            // Only when the table is open: collapsed, it shows the first rows and says so in its
            // footer (the button that opens it).
            let more = (total > PAGE_ROWS).then(|| {
                view! {
                    <p class="note" data-testid="rates-shown" hidden=move || !expanded.get()>
                        {move || {
                            let l = lang().get();
                            (messages(l)
                                .data
                                .showing_first)(
                                &format_number(l, PAGE_ROWS as f64, 0),
                                &format_number(l, total as f64, 0),
                            )
                        }}
                    </p>
                }
            });
            let toggle =
                (total > PREVIEW_ROWS).then(|| toggle_foot((total, communes), span, expanded));
            (shown, more, toggle)
        };
        Some(view! {
            <section aria-labelledby="rates-h">
                <h3 id="rates-h">{msg(|m| m.data.rates_heading)}</h3>
                {move || {
                    year_note(&analysis.year_marks.get(), &[], lang().get())
                        .map(|text| {
                            view! {
                                <p class="note" data-testid="rates-years-note">
                                    {text}
                                </p>
                            }
                        })
                }}
                <HowCalculated testid="rates-method">
                    <p class="note">
                        {msg(|m| m.data.rates_formula_note)}
                        {approximate.then(|| msg(|m| m.data.rates_approximate_note))}
                        {ranged
                            .map(|r| {
                                view! {
                                    <span data-testid="rates-range-note">
                                        {move || (messages(lang().get())
                                            .data
                                            .rates_range_note)(
                                            &format_number(lang().get(), r.ranged_rows as f64, 0),
                                            &r.low,
                                            &r.high,
                                        )}
                                    </span>
                                }
                            })}
                    </p>
                </HowCalculated>
                <label for="rates-search">{msg(|m| m.data.search_commune_year)}</label>
                <input
                    id="rates-search"
                    type="search"
                    data-testid="rates-search"
                    prop:value=move || search.get()
                    on:input=move |ev| search.set(event_target_value(&ev))
                />
                <button
                    class="secondary"
                    data-testid="rates-csv-download"
                    on:click=move |_| download_csv(&state, RATES_FILE, &rates_csv(&csv_table))
                >
                    {msg(|m| m.common.download_csv)}
                </button>
                <p class="note">
                    {msg(|m| m.data.rates_command_label)}
                    <code data-testid="rates-command">
                        {move || rates_command(&state, lang().get())}
                    </code>
                </p>
                {move || {
                    let (shown, more, toggle) = body();
                    view! {
                        <div class="scroll">
                            <table data-testid="rates-table" id="rates-table">
                                <thead>{header_row(sort, derived)}</thead>
                                <tbody>{shown}</tbody>
                                {toggle}
                            </table>
                        </div>
                        {more}
                    }
                }}
            </section>
        })
    }
}

/// The table's foot when it has more rows than its preview: how many rows, communes and years
/// it holds, and the button that shows them all (or only the preview again).
fn toggle_foot(
    (total, communes): (usize, usize),
    span: String,
    expanded: RwSignal<bool>,
) -> impl IntoView {
    let label = move || {
        let l = lang().get();
        let rows_w = messages(l).common.rows;
        // "1 comuna", never "1 comunas".
        let communes_w = match communes {
            1 => l.pick("comuna", "commune"),
            _ => messages(l).data.communes_word,
        };
        let action = if expanded.get() {
            (messages(l).data.show_only)(&PREVIEW_ROWS.to_string())
        } else {
            messages(l).data.show_all.to_owned()
        };
        format!(
            "{} {rows_w} · {} {communes_w} · {span} — {action}",
            format_number(l, total as f64, 0),
            format_number(l, communes as f64, 0)
        )
    };
    view! {
        <tfoot>
            <tr class="summary-row">
                <td colspan="8" class="text">
                    <button
                        class="link"
                        data-testid="rates-toggle"
                        aria-controls="rates-table"
                        aria-expanded=move || { if expanded.get() { "true" } else { "false" } }
                        on:click=move |_| expanded.update(|e| *e = !*e)
                    >
                        {label}
                    </button>
                </td>
            </tr>
        </tfoot>
    }
}

/// The header row: each column sorts the table but the commune's name.
fn header_row(sort: RwSignal<(RateSort, bool)>, derived: bool) -> impl IntoView {
    view! {
        <tr>
            {sort_header(sort, msg(|m| m.common.code), RateSort::Entity)}
            <th class="text">{msg(|m| m.common.commune)}</th>
            {sort_header(sort, msg(|m| m.common.year), RateSort::Time)}
            {sort_header(sort, msg(|m| m.common.births), RateSort::Births)}
            {sort_header(sort, move || deaths_header(derived)(), RateSort::Deaths)}
            {sort_header(sort, msg(|m| m.data.rate), RateSort::Rate)}
            {sort_header(sort, msg(|m| m.data.ci95_low), RateSort::CiLow)}
            {sort_header(sort, msg(|m| m.data.ci95_high), RateSort::CiHigh)}
        </tr>
    }
}

/// The deaths column's header: "Deaths", or "Derived deaths" when they are derived from a
/// published rate.
pub(super) fn deaths_header(
    derived: bool,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let lang = lang();
    move || {
        let m = messages(lang.get());
        if derived {
            m.page.derived_deaths
        } else {
            m.common.deaths
        }
    }
}

/// A column header that sorts the table by `key` (toggling the direction on a second click).
fn sort_header(
    sort: RwSignal<(RateSort, bool)>,
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    key: RateSort,
) -> impl IntoView {
    let aria = move || match sort.get() {
        (k, true) if k == key => "ascending",
        (k, false) if k == key => "descending",
        _ => "none",
    };
    view! {
        <th aria-sort=aria class:text=key == RateSort::Entity>
            <button on:click=move |_| {
                sort.update(|s| *s = if s.0 == key { (key, !s.1) } else { (key, true) })
            }>{label}</button>
        </th>
    }
}
