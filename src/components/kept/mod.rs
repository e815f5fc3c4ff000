//! The reader's files kept in this browser, so that a reload (phones reload background tabs)
//! brings back the data she uploaded instead of silently returning to the bundled dataset.
//!
//! The page's own storage, IndexedDB (database `imr-atlas`, store `kept`): nothing is sent
//! anywhere (the page's Content-Security-Policy forbids any other connection). What is kept:
//!
//! - a file read on the page's thread (≤ 4 MiB): its exact bytes;
//! - a spreadsheet's sheet: the workbook's `File` object (once for its sheets), with the sheet
//!   and how it was chosen; on reload the worker reads that sheet of the copy again;
//! - a big file read by the worker (> 4 MiB): its `File` object, which IndexedDB stores by
//!   copying the file's contents into the browser's storage (the handle alone would not survive
//!   a reload); on reload the worker reads that copy again, with its progress bar;
//! - health-ministry microdata: not the file of hundreds of MB but the counts the worker
//!   aggregated from it (`imr_microdata_conteos.csv`, a loaded file like any other);
//!
//! with each file's column roles (by position in its header, the same file gives the same
//! header), the year the reader gave it (for its rows without a year column) and the year of
//! files without a year column. One record `meta` lists the files by
//! key; each file is its own record, written once (a role change rewrites `meta` only).
//!
//! When the bundled data are loaded (the "remove my data" button, "Use bundled data", or no
//! file readable) the store is emptied. A `localStorage` hint says whether files are kept, so
//! that a visit with nothing kept loads the bundled data at once, without waiting for the
//! store to open. A browser that keeps nothing for this page (a file
//! opened from disk in some browsers, private windows, a full disk) says so above the views:
//! the data stay loaded until the page is reloaded.

use crate::components::csv_upload::{
    parse_in_worker, read_workbook, CsvUpload, Stop, UploadStatus, WorkbookRead,
};
use crate::state::{read_owned_file, AppState, BlobKey, LoadedFile};
use imr_core::ingest::{ColumnRoles, SheetChoice};
use js_sys::{Array, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use store::{forget, keep, Identity, KeptFile};
use wasm_bindgen::JsCast;

mod store;

/// What the page says about the reader's kept data, above the views.
#[derive(Debug, Clone, PartialEq)]
pub enum KeptStatus {
    /// Nothing to add to the names of the files (or the bundled data are shown).
    Quiet,
    /// The kept files are being read again after a reload.
    Restoring,
    /// The reader removed her data.
    Removed,
    /// The files could not be kept: the browser's reason, or `None` when this browser keeps
    /// nothing for this page.
    NotKept(Option<String>),
}

/// The kept data's status, provided through context.
#[derive(Clone, Copy)]
pub struct Kept {
    pub status: RwSignal<KeptStatus>,
}

/// The `localStorage` key that says files are kept: read synchronously at start, so that a
/// page with nothing kept (the usual visit) loads the bundled data at once, as it always did,
/// instead of after the store has opened.
const HINT: &str = "imr-atlas-kept";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the last write kept files (the hint; the store itself decides).
fn hinted() -> bool {
    local_storage().is_some_and(|s| s.get_item(HINT).ok().flatten().is_some())
}

fn set_hint(kept: bool) {
    if let Some(storage) = local_storage() {
        let _ = match kept {
            true => storage.set_item(HINT, "1"),
            false => storage.remove_item(HINT),
        };
    }
}

/// Opens the store and loads what it keeps, or the bundled data when it keeps nothing; from
/// then on keeps every change of the loaded files. Called once, by the app. With nothing kept
/// (no hint) the bundled data load at once and the store opens behind them.
pub fn start(state: AppState, upload: CsvUpload) -> Kept {
    let kept = Kept {
        status: RwSignal::new(KeptStatus::Quiet),
    };
    let hinted = hinted();
    if !hinted {
        state.load_bundled();
    }
    spawn_local(async move {
        let opened = store::open_store().await;
        // Whether data are shown: the bundled data loaded at once, or the kept files restored.
        let shown = match opened {
            Ok(()) => {
                if hinted {
                    kept.status.set(KeptStatus::Restoring);
                    let restored = restore(state, upload).await;
                    kept.status.set(KeptStatus::Quiet);
                    restored
                } else {
                    true
                }
            }
            Err(_) => {
                kept.status.set(KeptStatus::NotKept(None));
                !hinted
            }
        };
        if !shown {
            state.load_bundled();
        }
        // From now on every change of the loaded files is kept.
        Effect::new(move |_| {
            let bundled = state.bundled.get();
            let time_value = state.time_value.get();
            let outcome = state.files.with(|files| {
                state.roles.with(|roles| {
                    state.years.with(|years| match bundled {
                        true => forget(),
                        false => keep(files, roles, years, time_value),
                    })
                })
            });
            if let Some(pending) = outcome {
                spawn_local(async move {
                    let written = pending.await;
                    if written.is_ok() {
                        set_hint(!bundled);
                    }
                    match (written, bundled) {
                        (Ok(()), _) => kept.status.update(|s| {
                            if matches!(s, KeptStatus::NotKept(Some(_))) {
                                *s = KeptStatus::Quiet;
                            }
                        }),
                        (Err(reason), false) => kept.status.set(KeptStatus::NotKept(Some(reason))),
                        (Err(_), true) => {}
                    }
                });
            }
        });
    });
    kept
}

/// "Remove my data": the store emptied (by the bundled data's load) and the bundled data shown.
pub fn remove_my_data(state: AppState, kept: Kept) {
    state.load_bundled();
    kept.status.set(KeptStatus::Removed);
}

/// Loads the kept files with their roles and year; false when there are none (or none can be
/// read again), and then the store is emptied of what it held.
async fn restore(state: AppState, upload: CsvUpload) -> bool {
    let Some((kept, time_value)) = store::kept_files().await else {
        return false;
    };
    let mut loaded: Vec<LoadedFile> = Vec::new();
    let mut roles: Vec<ColumnRoles> = Vec::new();
    let mut years: Vec<Option<i64>> = Vec::new();
    let mut stored: Vec<(Identity, String)> = Vec::new();
    for KeptFile {
        key,
        name,
        roles: file_roles,
        year,
        data,
        sheet,
    } in kept
    {
        let file = if let Some(bytes) = data.dyn_ref::<Uint8Array>() {
            read_owned_file(&name, bytes.to_vec())
        } else if let Some(blob) = data.dyn_ref::<web_sys::Blob>() {
            let handle = match blob.dyn_ref::<web_sys::File>() {
                Some(f) => f.clone(),
                None => match web_sys::File::new_with_blob_sequence(
                    &Array::of1(blob),
                    sheet.as_ref().map_or(&name, |o| &o.workbook),
                ) {
                    Ok(f) => f,
                    Err(_) => continue,
                },
            };
            let read = match &sheet {
                // A spreadsheet's sheet: the workbook read again, that sheet by name.
                Some(origin) => {
                    let choice = SheetChoice::Named(vec![origin.sheet.clone()]);
                    match read_workbook(&handle, upload, &choice).await {
                        Ok(WorkbookRead::Tables { tables, .. }) => {
                            tables.into_iter().next().ok_or(Stop::Cancelled)
                        }
                        Ok(WorkbookRead::Choose(_)) => Err(Stop::Cancelled),
                        Err(stop) => Err(stop),
                    }
                }
                None => parse_in_worker(&handle, upload).await,
            };
            match read {
                Ok(table) => LoadedFile {
                    name,
                    bytes: Default::default(),
                    blob: Some(BlobKey::keep(handle)),
                    table: Ok(Arc::new(table)),
                    sheet,
                },
                Err(Stop::Cancelled) => continue,
                Err(Stop::Failed(failure)) => {
                    upload.status.set(UploadStatus::Failed(failure));
                    continue;
                }
            }
        } else {
            continue;
        };
        if file.table.is_err() {
            continue;
        }
        roles.push(file_roles);
        years.push(year);
        stored.push((Identity::of(&file), key));
        loaded.push(file);
    }
    if loaded.is_empty() {
        if let Some(pending) = forget() {
            let _ = pending.await;
        }
        return false;
    }
    store::remember(stored);
    state.bundled.set(false);
    state.time_value.set(time_value);
    state.load(loaded, Some(roles));
    state.years.set(years);
    true
}
