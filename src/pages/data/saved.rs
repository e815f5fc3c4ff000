//! "Save analysis" (input files, chosen roles, view options, engine version in one JSON) and
//! reopening one.

use crate::components::download::download_text;
use crate::fragment::fragment;
use crate::state::{read_file, AppState, FileError, LoadedFile};
use imr_core::analysis::SavedAnalysis;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

/// Opens a saved analysis: its files with the roles chosen then, and its view options.
pub(super) fn open_saved_analysis(state: AppState, name: &str, bytes: &[u8]) {
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
            fragment().restore(&analysis.options);
        }
        Err(e) => {
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
    }
}

/// Downloads the current analysis: input files, chosen roles, the year given each file, view
/// options, engine version. A
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
        let now = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default();
        let saved = SavedAnalysis::new(&entries, &options, &now).with_years(&years);
        download_text(
            "imr-atlas-analysis.json",
            "application/json",
            &saved.to_json(),
        );
    });
}
