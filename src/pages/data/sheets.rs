//! Spreadsheets on the Data view: a workbook chosen or dropped is read by the worker
//! (src/components/csv_upload/workbook.rs: the main wasm has no spreadsheet reader), as `imr`
//! reads it. A workbook of one sheet loads as a file; one of several waits here for the
//! reader's choice — one sheet, or every sheet as `imr --sheets all` reads them — and each
//! sheet read joins her files as `file [sheet]`, the name `imr` gives its rows. The sheets
//! `--sheets all` leaves out are listed, each with why.

use crate::components::csv_upload::{read_workbook, CsvUpload, Stop, UploadStatus, WorkbookRead};
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::{AppState, BlobKey, LoadedFile};
use imr_core::ingest::{RawTable, SheetChoice, SheetOrigin};
use imr_worker::WordedFailure;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A workbook waiting for the reader's choice of sheets (its `File` in [`WAITING_FILES`]).
#[derive(Debug, Clone, PartialEq)]
struct Waiting {
    id: u32,
    name: String,
    sheets: Vec<String>,
}

/// The workbooks waiting for a choice and the sheets last left out, provided through context
/// by the Data view.
#[derive(Clone, Copy)]
pub(super) struct SheetPicks {
    waiting: RwSignal<Vec<Waiting>>,
    left_out: RwSignal<Vec<WordedFailure>>,
}

impl SheetPicks {
    pub(super) fn new() -> SheetPicks {
        SheetPicks {
            waiting: RwSignal::new(Vec::new()),
            left_out: RwSignal::new(Vec::new()),
        }
    }
}

thread_local! {
    /// The `File`s of the waiting workbooks (a `File` is not `Send`: it cannot sit in a signal).
    static WAITING_FILES: RefCell<BTreeMap<u32, web_sys::File>> = const { RefCell::new(BTreeMap::new()) };
    static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The sheet a table of workbook `workbook` was read from: its name is `workbook [sheet]`
/// (`imr_core::ingest::sheet::sheet_label`).
fn sheet_of<'a>(workbook: &str, table: &'a str) -> Option<&'a str> {
    table
        .strip_prefix(workbook)?
        .strip_prefix(" [")?
        .strip_suffix(']')
}

/// The loaded files of a workbook's tables: each named `file [sheet]`, with where it came from
/// (`all`: read as every sheet), all keeping the one `File` (kept once in the browser's store;
/// read again by the worker, its sheet by name, after a reload).
pub(super) fn sheet_files(
    file: &web_sys::File,
    tables: Vec<RawTable>,
    all: bool,
) -> Vec<LoadedFile> {
    let workbook = file.name();
    let blob = BlobKey::keep(file.clone());
    tables
        .into_iter()
        .map(|table| {
            let sheet = sheet_of(&workbook, &table.file)
                .unwrap_or_default()
                .to_owned();
            LoadedFile {
                name: table.file.clone(),
                bytes: Default::default(),
                blob: Some(blob),
                table: Ok(Arc::new(table)),
                sheet: Some(SheetOrigin {
                    workbook: workbook.clone(),
                    sheet,
                    all,
                }),
            }
        })
        .collect()
}

/// Reads a workbook chosen or dropped: its loaded files when it has one sheet, else it waits
/// for the reader's choice (empty); `None` when the read was cancelled. A failure is shown under
/// the upload, as a big CSV's.
pub(super) async fn read_dropped_workbook(
    file: web_sys::File,
    upload: CsvUpload,
    picks: SheetPicks,
) -> Option<Vec<LoadedFile>> {
    match read_workbook(&file, upload, &SheetChoice::Unspecified).await {
        Ok(WorkbookRead::Tables { tables, left_out }) => {
            picks.left_out.set(left_out);
            Some(sheet_files(&file, tables, false))
        }
        Ok(WorkbookRead::Choose(sheets)) => {
            let id = NEXT_ID.with(|n| {
                n.set(n.get().wrapping_add(1));
                n.get()
            });
            let name = file.name();
            WAITING_FILES.with(|w| w.borrow_mut().insert(id, file));
            picks
                .waiting
                .update(|w| w.push(Waiting { id, name, sheets }));
            Some(Vec::new())
        }
        Err(Stop::Cancelled) => None,
        Err(Stop::Failed(why)) => {
            upload.status.set(UploadStatus::Failed(why));
            Some(Vec::new())
        }
    }
}

/// Forgets a waiting workbook.
fn dismiss(picks: SheetPicks, id: u32) {
    WAITING_FILES.with(|w| w.borrow_mut().remove(&id));
    picks.waiting.update(|w| w.retain(|x| x.id != id));
}

/// Reads the chosen sheets of waiting workbook `id` and adds them to the reader's files.
fn read_chosen(
    state: AppState,
    upload: CsvUpload,
    picks: SheetPicks,
    id: u32,
    choice: SheetChoice,
) {
    let Some(file) = WAITING_FILES.with(|w| w.borrow().get(&id).cloned()) else {
        return;
    };
    upload.status.set(UploadStatus::Idle);
    spawn_local(async move {
        match read_workbook(&file, upload, &choice).await {
            Ok(WorkbookRead::Tables { tables, left_out }) => {
                dismiss(picks, id);
                picks.left_out.set(left_out);
                for loaded in sheet_files(&file, tables, choice == SheetChoice::All) {
                    state.add(loaded);
                }
            }
            // A choice was given: the worker does not ask again.
            Ok(WorkbookRead::Choose(_)) | Err(Stop::Cancelled) => {}
            Err(Stop::Failed(why)) => upload.status.set(UploadStatus::Failed(why)),
        }
    });
}

/// One waiting workbook: its sheets in a list, "Read this sheet", "Read every sheet", and
/// "Do not read this file".
#[component]
fn Picker(waiting: Waiting) -> impl IntoView {
    let state = expect_context::<AppState>();
    let upload = expect_context::<CsvUpload>();
    let picks = expect_context::<SheetPicks>();
    let Waiting { id, name, sheets } = waiting;
    let chosen = RwSignal::new(sheets.first().cloned().unwrap_or_default());
    let select_id = format!("sheet-select-{id}");
    let count = sheets.len().to_string();
    let file = name.clone();
    let options = sheets
        .into_iter()
        .map(|s| view! { <option value=s.clone()>{s.clone()}</option> })
        .collect_view();
    view! {
        <div
            class="sheet-picker"
            data-testid="sheet-picker"
            data-file=file
            role="group"
            aria-labelledby=format!("sheet-question-{id}")
        >
            <p id=format!(
                "sheet-question-{id}",
            )>{move || (messages(lang().get()).data.sheet_pick_question)(&name, &count)}</p>
            <label for=select_id.clone()>{msg(|m| m.data.sheet_pick_label)}</label>
            " "
            <select
                id=select_id
                data-testid="sheet-select"
                on:change=move |ev| chosen.set(event_target_value(&ev))
            >
                {options}
            </select>
            " "
            <button
                data-testid="sheet-read-one"
                on:click=move |_| {
                    read_chosen(
                        state,
                        upload,
                        picks,
                        id,
                        SheetChoice::Named(vec![chosen.get_untracked()]),
                    )
                }
            >
                {msg(|m| m.data.sheet_read_one)}
            </button>
            " "
            <button
                data-testid="sheet-read-all"
                on:click=move |_| { read_chosen(state, upload, picks, id, SheetChoice::All) }
            >
                {msg(|m| m.data.sheet_read_all)}
            </button>
            " "
            <button
                class="secondary"
                data-testid="sheet-dismiss"
                on:click=move |_| dismiss(picks, id)
            >
                {msg(|m| m.data.sheet_pick_dismiss)}
            </button>
            <p class="note">{msg(|m| m.data.sheet_read_all_hint)}</p>
        </div>
    }
}

/// The waiting workbooks' pickers and the sheets last left out.
#[component]
pub(super) fn SheetPickers() -> impl IntoView {
    let picks = expect_context::<SheetPicks>();
    view! {
        {move || {
            picks
                .waiting
                .get()
                .into_iter()
                .map(|waiting| view! { <Picker waiting /> })
                .collect_view()
        }}
        {move || {
            let left_out = picks.left_out.get();
            (!left_out.is_empty())
                .then(|| {
                    view! {
                        <div class="note" data-testid="sheets-left-out">
                            {msg(|m| m.data.sheets_left_out)}
                            <ul>
                                {left_out
                                    .into_iter()
                                    .map(|l| {
                                        view! { <li>{move || l.text(lang().get()).to_owned()}</li> }
                                    })
                                    .collect_view()}
                            </ul>
                        </div>
                    }
                })
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::sheet_of;

    #[test]
    fn a_table_s_name_gives_its_sheet() {
        assert_eq!(sheet_of("ine.xlsx", "ine.xlsx [2010]"), Some("2010"));
        assert_eq!(
            sheet_of("a [b].xlsx", "a [b].xlsx [Hoja 1]"),
            Some("Hoja 1")
        );
        assert_eq!(sheet_of("ine.xlsx", "otro.xlsx [2010]"), None);
    }
}
