//! The files read, how each was read (dialect, encoding, metadata lines), the column role
//! chosen for each of its columns, the year of its rows when it has no year column, and its
//! removal.

use super::HowCalculated;
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::AppState;
use imr_core::ingest::{delimiter_label, table_year, Role, MAX_YEAR, MIN_YEAR};
use leptos::prelude::*;

#[component]
pub(super) fn FilesAndRoles() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let files = state.files.get();
        if files.is_empty() {
            return None;
        }
        let mut readable = 0usize;
        let items = files
            .into_iter()
            .enumerate()
            .map(|(at, f)| (at, f.name_year(), f))
            .map(|(at, named, f)| match f.table {
                Err(error) => view! {
                    <li class="error" data-testid="file-error">
                        {move || error.text(lang().get())}
                        " "
                        <RemoveFile at name=f.name.clone() />
                    </li>
                }
                .into_any(),
                Ok(table) => {
                    let idx = readable;
                    readable += 1;
                    let d = table.dialect;
                    let (n_records, delimiter, encoding) = (
                        table.records.len(),
                        delimiter_label(d.delimiter),
                        table.encoding,
                    );
                    let n_meta = table.metadata.len();
                    let decimal_table = table.clone();
                    let summary = move || {
                        let texts = messages(lang().get());
                        (texts.data.file_summary)(
                            &crate::i18n::format_number(lang().get(), n_records as f64, 0),
                            &delimiter,
                            &decimal_table.decimal_words(lang().get()),
                            encoding.reader_label(lang().get()),
                            if d.has_header {
                                texts.common.with_header
                            } else {
                                texts.common.no_header
                            },
                            &if n_meta > 0 {
                                (texts.data.metadata_skipped)(&n_meta.to_string())
                            } else {
                                String::new()
                            },
                        )
                    };
                    let selectors = Role::ALL
                        .into_iter()
                        .map(|role| {
                            let columns = table.columns.clone();
                            let id = format!("role-{idx}-{}", role.label());
                            let current =
                                move || state.roles.with(|r| r.get(idx).and_then(|r| r.get(role)));
                            let on_change = move |ev: leptos::ev::Event| {
                                let value = event_target_value(&ev);
                                let choice = value.parse::<usize>().ok();
                                state.roles.update(|r| {
                                    if let Some(roles) = r.get_mut(idx) {
                                        for other in Role::ALL {
                                            if choice.is_some() && roles.get(other) == choice {
                                                roles.set(other, None);
                                            }
                                        }
                                        roles.set(role, choice);
                                    }
                                });
                            };
                            let options = columns
                                .iter()
                                .enumerate()
                                .map(|(i, c)| {
                                    view! {
                                        <option
                                            value=i.to_string()
                                            selected=move || current() == Some(i)
                                        >
                                            {c.clone()}
                                        </option>
                                    }
                                })
                                .collect_view();
                            view! {
                                <span>
                                    <label for=id.clone()>{role_label(role)}</label>
                                    <select
                                        id=id
                                        data-testid=format!("role-{}", role.label())
                                        on:change=on_change
                                    >
                                        <option value="" selected=move || current().is_none()>
                                            {msg(|m| m.common.no_column)}
                                        </option>
                                        {options}
                                    </select>
                                </span>
                            }
                        })
                        .collect_view();
                    // The year of its rows, while it is a file of the main data without a year
                    // column (built again when the roles change, not when the year does).
                    let undated = move || {
                        state.roles.with(|r| {
                            imr_core::ingest::undated_tables(r)
                                .get(idx)
                                .copied()
                                .unwrap_or(false)
                        })
                    };
                    view! {
                        <li data-testid="file" data-file=f.name.clone()>
                            <strong data-testid="file-name">{f.name.clone()}</strong>
                            " — "
                            <span data-testid="file-summary">{summary}</span>
                            " "
                            <RemoveFile at name=f.name.clone() />
                            <div class="roles">{selectors}</div>
                            {move || undated().then(|| view! { <FileYear idx named /> })}
                        </li>
                    }
                    .into_any()
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="files-h">
                <h3 id="files-h">{msg(|m| m.data.files_columns)}</h3>
                <ul>{items}</ul>
                <TimeValue />
                <super::rate_lag::RateLag />
                <HowCalculated testid="files-method">
                    <p class="note">{msg(|m| m.data.covariates_note)}</p>
                </HowCalculated>
            </section>
        })
    }
}

fn role_label(role: Role) -> impl Fn() -> &'static str + Copy {
    match role {
        Role::Entity => msg(|m| m.data.commune_code),
        Role::Time => msg(|m| m.common.year),
        Role::Births => msg(|m| m.common.births),
        Role::Deaths => msg(|m| m.common.infant_deaths),
        Role::Rate => msg(|m| m.data.rate),
    }
}

/// The year of files without a year column ([`AppState::time_value`]): offered while a data
/// file has no year column (or once a year is given), with the files read as rows of that year.
/// A value that is not a year within the range a year column may hold is not applied, and the
/// field says so.
#[component]
fn TimeValue() -> impl IntoView {
    let state = expect_context::<AppState>();
    let invalid = RwSignal::new(false);
    // A memo: the field is built again only when it appears or goes, not on each year typed
    // (which would take the focus from it).
    let shown = Memo::new(move |_| {
        state.time_value.with(Option::is_some)
            || state
                .roles
                .with(|r| imr_core::ingest::time_value_applies(r))
    });
    let on_change = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let text = text.trim();
        if text.is_empty() {
            invalid.set(false);
            state.time_value.set(None);
            return;
        }
        match imr_core::ingest::parse_year(text) {
            Some(year) => {
                invalid.set(false);
                state.time_value.set(Some(year));
            }
            None => invalid.set(true),
        }
    };
    // The files that took the year, from the ingest report.
    let applied = move || {
        let year = state.time_value.get()?;
        let panel = state.panel.get()?.ok()?;
        let files: Vec<&str> = panel
            .report
            .files
            .iter()
            .filter(|f| f.time_given.is_some())
            .map(|f| f.file.as_str())
            .collect();
        (!files.is_empty()).then(|| (year.to_string(), files.join(", ")))
    };
    move || {
        shown.get().then(|| {
            view! {
                <div class="time-value">
                    <label for="time-value">{msg(|m| m.data.time_value_label)}</label>
                    " "
                    <input
                        id="time-value"
                        data-testid="time-value"
                        type="number"
                        step="1"
                        min=MIN_YEAR.to_string()
                        max=MAX_YEAR.to_string()
                        inputmode="numeric"
                        aria-describedby="time-value-hint"
                        aria-invalid=move || invalid.get().to_string()
                        prop:value=move || {
                            state.time_value.get().map(|y| y.to_string()).unwrap_or_default()
                        }
                        on:change=on_change
                    />
                    <p class="note" id="time-value-hint">
                        {msg(|m| m.data.time_value_hint)}
                    </p>
                    {move || {
                        invalid
                            .get()
                            .then(|| {
                                view! {
                                    <p class="error" role="alert" data-testid="time-value-invalid">
                                        {msg(|m| m.data.time_value_invalid)}
                                    </p>
                                }
                            })
                    }}
                    {move || {
                        applied()
                            .map(|(year, files)| {
                                view! {
                                    <p class="note" role="status" data-testid="time-value-applied">
                                        {move || (messages(lang().get())
                                            .data
                                            .time_value_applied)(&year, &files)}
                                    </p>
                                }
                            })
                    }}
                </div>
            }
        })
    }
}

/// The button that removes one of the reader's files (`at` in the loaded files) from the data;
/// none beside the bundled data, which are not the reader's to remove.
#[component]
fn RemoveFile(at: usize, name: String) -> impl IntoView {
    let state = expect_context::<AppState>();
    (!state.bundled.get_untracked()).then(|| {
        view! {
            <button
                class="secondary"
                data-testid="remove-file"
                aria-label=move || (messages(lang().get()).data.remove_file_named)(&name)
                on:click=move |_| state.remove(at)
            >
                {msg(|m| m.data.remove_file)}
            </button>
        }
    })
}

/// The year of the rows of one file without a year column (readable file `idx`,
/// [`AppState::years`]), shown with where it comes from: given here, its name's (`named`), that
/// of every file without a year column ([`AppState::time_value`]), or none yet. Changed, the
/// panel is read again; emptied, the file takes its name's year (or every file's) again.
#[component]
fn FileYear(idx: usize, named: Option<i64>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let invalid = RwSignal::new(false);
    let given = move || state.years.with(|y| y.get(idx).copied().flatten());
    let for_all = move || state.time_value.get();
    // The year its rows take, as the engine dates them (`state::panel_from`).
    let year = move || table_year(given(), for_all(), named).or_else(for_all);
    let source = move || {
        let texts = &messages(lang().get()).data;
        match (given(), for_all(), named) {
            (Some(_), _, _) => texts.file_year_given,
            (None, None, Some(_)) => texts.file_year_from_name,
            (None, Some(_), _) => texts.file_year_for_all,
            (None, None, None) => texts.file_year_missing,
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let text = text.trim();
        let chosen = match text.is_empty() {
            true => None,
            false => match imr_core::ingest::parse_year(text) {
                Some(year) => Some(year),
                None => {
                    invalid.set(true);
                    return;
                }
            },
        };
        invalid.set(false);
        state.years.update(|y| {
            if let Some(slot) = y.get_mut(idx) {
                *slot = chosen;
            }
        });
    };
    let (id, hint) = (
        format!("file-year-{idx}"),
        format!("file-year-{idx}-source"),
    );
    view! {
        <div class="file-year">
            <label for=id.clone()>{msg(|m| m.data.file_year_label)}</label>
            " "
            <input
                id=id
                data-testid="file-year"
                type="number"
                step="1"
                min=MIN_YEAR.to_string()
                max=MAX_YEAR.to_string()
                inputmode="numeric"
                aria-describedby=hint.clone()
                aria-invalid=move || invalid.get().to_string()
                prop:value=move || year().map(|y| y.to_string()).unwrap_or_default()
                on:change=on_change
            />
            " "
            <span class="note" id=hint data-testid="file-year-source">
                {source}
            </span>
            {move || {
                invalid
                    .get()
                    .then(|| {
                        view! {
                            <p class="error" role="alert" data-testid="file-year-invalid">
                                {msg(|m| m.data.time_value_invalid)}
                            </p>
                        }
                    })
            }}
        </div>
    }
}
