//! "Save analysis" (input files, chosen roles, view options, engine version in one JSON) and
//! reopening one. A sheet of a spreadsheet is saved with its workbook's bytes (once per
//! workbook) and where it came from, and reopened by the worker reading that sheet again (the
//! main wasm has no spreadsheet reader), as the kept files are after a reload.

use crate::components::csv_upload::{read_workbook, CsvUpload, Stop, UploadStatus, WorkbookRead};
use crate::components::download::download_text;
use crate::fragment::{fragment, Fragment};
use crate::state::{read_file, AppState, BlobKey, FileError, LoadedFile};
use imr_core::analysis::{AnalysisError, SavedAnalysis};
use imr_core::ingest::{ColumnRoles, SheetChoice, SheetOrigin};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

/// Opens a saved analysis: its files with the roles chosen then, and its view options (into
/// `frag`, the page's fragment, taken from the context by the caller: an upload's task does not
/// see the context); one with sheets of spreadsheets has them read again by the worker.
pub(super) fn open_saved_analysis(
    state: AppState,
    upload: CsvUpload,
    frag: Fragment,
    name: &str,
    bytes: &[u8],
) {
    match SavedAnalysis::from_json(name, bytes) {
        Ok(a) if a.files.iter().any(|f| f.sheet.is_some()) => {
            let name = name.to_owned();
            spawn_local(async move {
                match open_with_sheets(&a, &name, upload).await {
                    Ok(Some((loaded, roles))) => {
                        state.bundled.set(false);
                        state.load(loaded, Some(roles));
                        state.years.set(a.years());
                        frag.restore(&a.options);
                    }
                    // Cancelled, or failed with the worker's message under the upload.
                    Ok(None) => {}
                    Err(e) => show_error(state, &name, e),
                }
            });
            return;
        }
        _ => {}
    }
    let opened = SavedAnalysis::from_json(name, bytes).and_then(|a| {
        let files = a.file_bytes(name)?;
        let tables = a.tables_and_roles(name)?;
        Ok((a, files, tables))
    });
    match opened {
        Ok((analysis, files, tables)) => {
            let loaded = files.iter().map(|(n, b)| read_file(n, b)).collect();
            let roles = tables.into_iter().map(|(_, r)| r).collect();
            state.bundled.set(false);
            state.load(loaded, Some(roles));
            state.years.set(analysis.years());
            frag.restore(&analysis.options);
        }
        Err(e) => show_error(state, name, e),
    }
}

/// A saved analysis that cannot be opened, shown as a file that failed.
fn show_error(state: AppState, name: &str, e: AnalysisError) {
    state.bundled.set(false);
    state.load(
        vec![LoadedFile {
            name: name.to_owned(),
            bytes: Default::default(),
            blob: None,
            table: Err(FileError::Analysis(e)),
            sheet: None,
        }],
        None,
    );
}

/// The files of analysis `a` (saved as `name`) with their saved roles, its sheets read by the
/// worker from their workbook (one `File` per workbook, kept as an upload's); `None` when the
/// worker was cancelled or failed (its message shown under the upload).
async fn open_with_sheets(
    a: &SavedAnalysis,
    name: &str,
    upload: CsvUpload,
) -> Result<Option<(Vec<LoadedFile>, Vec<ColumnRoles>)>, AnalysisError> {
    let bytes = a.file_bytes(name)?;
    let (mut loaded, mut roles) = (Vec::new(), Vec::new());
    let mut workbooks: Vec<(String, web_sys::File)> = Vec::new();
    for (i, ((file, data), sheet)) in bytes.into_iter().zip(a.sheets()).enumerate() {
        let Some(origin) = sheet else {
            let f = read_file(&file, &data);
            if let Ok(table) = &f.table {
                roles.push(a.saved_roles(name, i, table)?);
            }
            loaded.push(f);
            continue;
        };
        let handle = match workbooks.iter().find(|(w, _)| *w == origin.workbook) {
            Some((_, h)) => h.clone(),
            None => {
                let Some(h) = workbook_file(&origin, &data) else {
                    return Err(AnalysisError::SheetUnread {
                        file: name.to_owned(),
                        inner: file,
                    });
                };
                workbooks.push((origin.workbook.clone(), h.clone()));
                h
            }
        };
        let choice = SheetChoice::Named(vec![origin.sheet.clone()]);
        let table = match read_workbook(&handle, upload, &choice).await {
            Ok(WorkbookRead::Tables { tables, .. }) => tables.into_iter().next(),
            Ok(WorkbookRead::Choose(_)) => None,
            Err(Stop::Cancelled) => return Ok(None),
            Err(Stop::Failed(failure)) => {
                upload.status.set(UploadStatus::Failed(failure));
                return Ok(None);
            }
        };
        let Some(table) = table else {
            return Err(AnalysisError::SheetUnread {
                file: name.to_owned(),
                inner: file,
            });
        };
        roles.push(a.saved_roles(name, i, &table)?);
        loaded.push(LoadedFile {
            name: file,
            bytes: Default::default(),
            blob: Some(BlobKey::keep(handle)),
            table: Ok(Arc::new(table)),
            sheet: Some(origin),
        });
    }
    Ok(Some((loaded, roles)))
}

/// A browser `File` of a saved workbook's bytes, named as the workbook (its sheets' tables are
/// named `workbook [sheet]` after it).
fn workbook_file(origin: &SheetOrigin, data: &[u8]) -> Option<web_sys::File> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(data));
    web_sys::File::new_with_u8_array_sequence(&parts, &origin.workbook).ok()
}

/// Downloads the current analysis: input files (a sheet as its workbook and sheet), chosen
/// roles, the year given each file, view options, engine version. A
/// big upload's bytes are read again from its `File` (they are not kept in memory).
pub(super) fn save_analysis(state: AppState) {
    let files = state.files.get_untracked();
    let roles = state.roles.get_untracked();
    let years = state.years.get_untracked();
    // Read before the task: the fragment comes from the context, which a task may not see.
    let options = fragment().text();
    spawn_local(async move {
        let readable: Vec<&LoadedFile> = files.iter().filter(|f| f.table.is_ok()).collect();
        let mut bytes: Vec<Arc<Vec<u8>>> = Vec::with_capacity(readable.len());
        for f in &readable {
            let reread = match f.blob.and_then(|key| key.file()) {
                Some(file) => gloo_file::futures::read_as_bytes(&gloo_file::File::from(file))
                    .await
                    .ok()
                    .map(Arc::new),
                None => None,
            };
            bytes.push(reread.unwrap_or_else(|| f.bytes.clone()));
        }
        let entries: Vec<(
            &str,
            &[u8],
            &imr_core::ingest::RawTable,
            &imr_core::ingest::ColumnRoles,
        )> = readable
            .iter()
            .zip(&bytes)
            .zip(&roles)
            .filter_map(|((f, b), r)| {
                f.table
                    .as_ref()
                    .ok()
                    .map(|t| (f.name.as_str(), b.as_slice(), &**t, r))
            })
            .collect();
        // Where each sheet came from (the readable files all have a table, so in step).
        let sheets: Vec<Option<SheetOrigin>> = readable.iter().map(|f| f.sheet.clone()).collect();
        let now = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default();
        let saved = SavedAnalysis::new(&entries, &options, &now)
            .with_years(&years)
            .with_sheets(&sheets);
        download_text(
            "imr-atlas-analysis.json",
            "application/json",
            &saved.to_json(),
        );
    });
}
