//! Choosing or dropping files: CSV files are read here (big ones in the worker), spreadsheets
//! in the worker with their sheets chosen ([`super::sheets`]), a deaths microdata file goes to
//! the microdata section, and a saved analysis reopens.

use super::saved::open_saved_analysis;
use super::sheets::{read_dropped_workbook, SheetPicks};
use crate::components::csv_upload::{
    parse_in_worker, CsvUpload, Stop, UploadStatus, WORKER_THRESHOLD_BYTES,
};
use crate::components::microdata::{read_head, MicrodataInputs};
use crate::messages::msg;
use crate::state::{read_owned_file, AppState, BlobKey, FileError, LoadedFile};
use imr_core::analysis::is_saved_analysis;
use imr_core::ingest::workbook_format;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// Reads every file of a `FileList` (input or drop) and loads them. A file that starts like the
/// health ministry's deaths microdata is not read whole: it goes to the microdata section, whose
/// worker streams it. A file larger than [`WORKER_THRESHOLD_BYTES`] is parsed in the worker
/// (progress and Cancel under the upload); Cancel leaves the loaded data as they were.
fn load_file_list(state: AppState, list: Option<web_sys::FileList>) {
    let microdata = expect_context::<MicrodataInputs>();
    let upload = expect_context::<CsvUpload>();
    let picks = expect_context::<SheetPicks>();
    // Taken here: the task below does not see the context (a saved analysis restores it).
    let frag = crate::fragment::fragment();
    let Some(list) = list else { return };
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.item(i)).collect();
    if files.is_empty() {
        return;
    }
    upload.status.set(UploadStatus::Idle);
    spawn_local(async move {
        let mut loaded: Vec<LoadedFile> = Vec::with_capacity(files.len());
        for file in files {
            let name = file.name();
            let head = read_head(&file).await;
            if imr_microdata::looks_like_deaths_microdata(&head) {
                microdata.deaths.set(Some(file));
                focus_microdata();
                continue;
            }
            // A spreadsheet, told by its bytes (SINIM's `.xls` is XML): read by the worker, its
            // sheets chosen there when it has several.
            if workbook_format(&head).is_some() {
                match read_dropped_workbook(file, upload, picks).await {
                    Some(files) => loaded.extend(files),
                    None => return,
                }
                continue;
            }
            if file.size() > WORKER_THRESHOLD_BYTES && !is_saved_analysis(&head) {
                match parse_in_worker(&file, upload).await {
                    Ok(table) => loaded.push(LoadedFile {
                        name,
                        bytes: Default::default(),
                        blob: Some(BlobKey::keep(file)),
                        table: Ok(Arc::new(table)),
                        sheet: None,
                    }),
                    Err(Stop::Cancelled) => return,
                    // Shown under the upload; the loaded data stay unless other files of this
                    // choice load.
                    Err(Stop::Failed(message)) => upload.status.set(UploadStatus::Failed(message)),
                }
                continue;
            }
            let gloo = gloo_file::File::from(file);
            match gloo_file::futures::read_as_bytes(&gloo).await {
                Ok(bytes) if is_saved_analysis(&bytes) => {
                    open_saved_analysis(state, upload, frag, &name, &bytes);
                    return;
                }
                Ok(bytes) => loaded.push(read_owned_file(&name, bytes)),
                Err(e) => loaded.push(LoadedFile {
                    name: name.clone(),
                    bytes: Default::default(),
                    blob: None,
                    table: Err(FileError::Unreadable {
                        name: name.clone(),
                        detail: e.to_string(),
                    }),
                    sheet: None,
                }),
            }
        }
        if loaded.is_empty() {
            return;
        }
        state.bundled.set(false);
        // The year of files without a year column was given for the files it replaced: new
        // files start without one (never a year read silently into another file).
        state.time_value.set(None);
        // So is the rates' lag: new data are read as published until the reader says otherwise.
        state.rate_lag.set(0);
        state.load(loaded, None);
    });
}

/// Brings the microdata section into view with its start button focused.
fn focus_microdata() {
    let button = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("[data-testid=microdata-start]")
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = button {
        button.scroll_into_view();
        let _ = button.focus();
    }
}

#[component]
pub(super) fn Upload() -> impl IntoView {
    let state = expect_context::<AppState>();
    let over = RwSignal::new(false);
    let on_change = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        load_file_list(state, input.as_ref().and_then(|i| i.files()));
        // The files were taken (load_file_list lists them before it awaits anything): emptied,
        // the input fires `change` again when the same file is chosen again, as after fixing it
        // in a spreadsheet; the browser fires nothing for an unchanged choice.
        if let Some(input) = input {
            input.set_value("");
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        over.set(false);
        load_file_list(state, ev.data_transfer().and_then(|d| d.files()));
    };
    view! {
        <div
            class="dropzone"
            class:over=move || over.get()
            on:dragover=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                over.set(true);
            }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <label for="file-input">{msg(|m| m.data.upload_files_label)}</label>
            <input
                id="file-input"
                type="file"
                multiple
                accept=".csv,.txt,.tsv,.json,.xlsx,.xls,.ods,.xml,text/csv,text/plain,application/json"
                data-testid="file-input"
                on:change=on_change
            />
            <p class="note">{msg(|m| m.data.upload_drop_hint)}</p>
            <p class="note">{msg(|m| m.data.upload_sheets_hint)}</p>
            <p class="privacy">{msg(|m| m.data.upload_privacy_note)}</p>
        </div>
    }
}
