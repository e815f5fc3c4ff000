//! The validation report: every line of every file accounted for, rows used and excluded with
//! their reasons, derived deaths, recoded codes (Ñuble's, and codes of
//! their year's system), joined rows and conflicting cells.

use super::collapse_if_long;
use crate::i18n::{format_number, lang, Lang};
use crate::messages::{messages, msg};
use crate::state::AppState;
use imr_core::view::LineAccount;
use leptos::prelude::*;

#[component]
pub(super) fn Report() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let panel = state.panel.get()?;
        Some(match panel {
            Err(error) => view! {
                <section>
                    <p class="error" data-testid="panel-error" role="alert">
                        {move || error.text(lang().get())}
                    </p>
                </section>
            }
            .into_any(),
            Ok(panel) => {
                let r = &panel.report;
                let n_excluded = r.excluded.len();
                let excluded = r
                    .excluded
                    .iter()
                    .map(|e| view! {
                        <li data-line=e
                            .line
                            .to_string()>
                            {
                                let (file, line, kind) = (e.file.clone(), e.line, e.kind.clone());
                                move || {
                                    let l = lang().get();
                                    format!(
                                        "{file}, {} {line}: {}",
                                        messages(l).common.line,
                                        kind.text(l),
                                    )
                                }
                            }
                        </li>
                    })
                    .collect_view();
                let warnings = (!r.cell_warnings.is_empty()).then(|| {
                    let n = r.cell_warnings.len();
                    let first = r
                        .cell_warnings
                        .iter()
                        .take(20)
                        .cloned()
                        .map(|w| {
                            view! {
                                <li>
                                    {move || {
                                        let l = lang().get();
                                        format!(
                                            "{}, {} {}, {} `{}`: «{}»",
                                            w.file,
                                            messages(l).common.line,
                                            w.line,
                                            messages(l).data.column_word,
                                            w.column,
                                            w.value,
                                        )
                                    }}
                                </li>
                            }
                        })
                        .collect_view();
                    view! {
                        <details>
                            <summary class="warn">
                                {move || (messages(lang().get())
                                    .data
                                    .text_cells_missing)(&n.to_string())}
                            </summary>
                            <ul>{first}</ul>
                        </details>
                    }
                });
                let derived = panel.deaths_derived.then(|| {
                    view! {
                        <p class="warn" data-testid="approximate-note">
                            {msg(|m| m.data.report_derived_deaths_note)}
                        </p>
                    }
                });
                let recoded = (r.recoded_codes > 0).then(|| {
                    view! {
                        <p class="note">
                            {
                                let n = r.recoded_codes;
                                move || (messages(lang().get()).data.recoded_codes)(&n.to_string())
                            }
                        </p>
                    }
                });
                let historical = historical_codes(r);
                let merged = (r.merged_rows > 0).then(|| {
                    view! {
                        <p class="note" data-testid="merged-note">
                            {
                                let n = r.merged_rows as f64;
                                move || {
                                    let l = lang().get();
                                    (messages(l).data.merged_rows)(&format_number(l, n, 0))
                                }
                            }
                        </p>
                    }
                });
                // Cells on which two joined files disagree (the first file's value is used):
                // listed with both places, so no value is dropped unseen.
                let conflicts =
                    (!r.conflicts.is_empty()).then(|| {
                        let n = r.conflicts.len();
                        let items = r
                        .conflicts
                        .iter()
                        .take(50)
                        .cloned()
                        .map(|c| view! {
                            <li>
                                {move || {
                                    let l = lang().get();
                                    let line = messages(l).common.line;
                                    format!(
                                        "{} {}, `{}`: {} ({}, {line} {}) / {} ({}, {line} {})",
                                        c.entity,
                                        c.time,
                                        c.column,
                                        c.kept_value,
                                        c.kept_file,
                                        c.kept_line,
                                        c.other_value,
                                        c.other_file,
                                        c.other_line,
                                    )
                                }}
                            </li>
                        })
                        .collect_view();
                        view! {
                            <details data-testid="conflicts">
                                <summary class="warn">
                                    {move || (messages(lang().get())
                                        .data
                                        .conflicting_cells)(&n.to_string())}
                                </summary>
                                <ul>{items}</ul>
                            </details>
                        }
                    });
                let total_lines = r.physical_lines();
                let file_lines = r.files.iter().map(file_lines_item).collect_view();
                view! {
                    <section aria-labelledby="report-h">
                        <h3 id="report-h">{msg(|m| m.data.validation)}</h3>
                        <div class="counts">
                            <div>{msg(|m| m.data.lines)}{count("physical-lines", total_lines)}</div>
                            <div>
                                {msg(|m| m.data.rows_read)}{count("rows-read", r.rows_read as u64)}
                            </div>
                            <div>
                                {msg(|m| m.data.used)}{count("rows-used", r.rows_used as u64)}
                            </div>
                            <div>
                                {msg(|m| m.data.excluded)}
                                {count("rows-excluded", r.rows_excluded as u64)}
                            </div>
                        </div>
                        <ul class="note" data-testid="line-accounting">
                            {file_lines}
                        </ul>
                        {derived}
                        {recoded}
                        {historical}
                        {merged}
                        {conflicts}
                        {warnings}
                        {collapse_if_long(
                            n_excluded,
                            move |l: Lang, n: String| (messages(l).data.excluded_show_all)(&n),
                            view! {
                                <ol
                                    class="excluded"
                                    data-testid="excluded-list"
                                    aria-label=msg(|m| m.data.excluded_rows)
                                >
                                    {excluded}
                                </ol>
                            },
                        )}
                    </section>
                }
                .into_any()
            }
        })
    }
}

/// The years read in the code system of their year and every code recoded to a different 2018
/// code (as `imr`'s `code_systems` and `historical_recodings`); a commune not yet created in
/// its year is an exclusion, listed with the others.
fn historical_codes(r: &imr_core::ingest::IngestReport) -> Option<impl IntoView> {
    use imr_core::view::code_systems::code_systems_summary;
    if r.code_systems.is_empty() {
        return None;
    }
    let (years, recoded) = (r.code_systems.len(), r.historical_recodings.len());
    let items = r
        .code_systems
        .iter()
        .cloned()
        .map(|s| {
            let (file, time) = (s.file.clone(), s.time.to_string());
            view! {
                <li data-file=file data-time=time>
                    {move || s.text(lang().get())}
                </li>
            }
        })
        .collect_view();
    let recodings = r
        .historical_recodings
        .iter()
        .cloned()
        .map(|c| {
            let (code, code_2018, time) = (c.code.clone(), c.code_2018.clone(), c.time.to_string());
            view! {
                <li data-code=code data-code-2018=code_2018 data-time=time>
                    {move || c.text(lang().get())}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <details class="note" data-testid="historical-codes">
            <summary>{move || code_systems_summary(lang().get(), years, recoded)}</summary>
            <ul data-testid="code-systems">{items}</ul>
            <ul data-testid="historical-recodings">{recodings}</ul>
        </details>
    })
}

/// A count of the validation, in the language's number format ("1.725", "1,725"; the same
/// number the line accounting and the rates table write), with the plain number as
/// `data-count`.
fn count(testid: &'static str, n: u64) -> impl IntoView {
    view! {
        <strong data-testid=testid data-count=n.to_string()>
            {move || format_number(lang().get(), n as f64, 0)}
        </strong>
    }
}

/// One file's line accounting ([`LineAccount`]): its physical lines are the header, the
/// metadata (`#`) lines, the rows read (used or excluded), and the rest — blank lines and the
/// extra lines of quoted fields that span lines, including the lines an unterminated quote
/// swallowed.
fn file_lines_item(f: &imr_core::ingest::FileReport) -> impl IntoView {
    let LineAccount {
        file,
        lines,
        header,
        metadata,
        read,
        used,
        excluded,
        other,
    } = LineAccount::of(f);
    let file_attr = file.clone();
    view! {
        <li
            data-file=file_attr
            data-lines=lines.to_string()
            data-rows-read=read.to_string()
            data-other-lines=other.to_string()
        >
            {move || {
                let l = lang().get();
                let n = |v: u64| format_number(l, v as f64, 0);
                (messages(l)
                    .data
                    .line_account)(
                    &file,
                    &n(lines),
                    &n(header),
                    &n(metadata),
                    &n(read),
                    &n(used),
                    &n(excluded),
                    &n(other),
                )
            }}
        </li>
    }
}
