//! The files the reader gave, as the page keeps them: each file's bytes or browser `File`
//! handle, and the table read from them or why there is none.

use imr_core::analysis::AnalysisError;
use imr_core::ingest::{year_in_name, IngestError, RawTable, SheetOrigin};
use std::sync::Arc;

/// One file the user gave: its bytes (kept for "save analysis") and the table read from them, or
/// the reason it cannot be read. Cloning it clones `Arc`s only: no table or bytes are copied.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub name: String,
    /// The file's bytes; empty when `blob` keeps the file instead.
    pub bytes: Arc<Vec<u8>>,
    /// A big upload parsed in the worker (src/components/csv_upload/) keeps the browser's
    /// `File` handle instead of its bytes, read again only when the analysis is saved.
    pub blob: Option<BlobKey>,
    pub table: Result<Arc<RawTable>, FileError>,
    /// A sheet of a spreadsheet (read in the worker, src/components/csv_upload/workbook.rs):
    /// its workbook, the sheet and how it was chosen, for the shown `imr` command (`--sheet`,
    /// `--sheets all`) and to read it again after a reload. `name` is then `file [sheet]`.
    pub sheet: Option<SheetOrigin>,
}

impl LoadedFile {
    /// The year its name holds, for its rows when it has no year column: a sheet's, else its
    /// workbook's (`sheet_year`, as `imr` reads a sheet), else the file's ([`year_in_name`]).
    pub fn name_year(&self) -> Option<i64> {
        match &self.sheet {
            Some(o) => imr_core::ingest::sheet_choice::sheet_year(&o.workbook, &o.sheet),
            None => year_in_name(&self.name),
        }
    }
}

/// Why a file gave no table: a value, worded in the page's language where it is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum FileError {
    Ingest(IngestError),
    Analysis(AnalysisError),
    /// The browser could not read the file; `detail` is its error.
    Unreadable {
        name: String,
        detail: String,
    },
}

impl FileError {
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        match self {
            FileError::Ingest(e) => e.text(lang),
            FileError::Analysis(e) => e.text(lang),
            FileError::Unreadable { name, detail } => {
                (crate::messages::messages(lang).data.cannot_read_file)(name, detail)
            }
        }
    }
}

/// A `File` the page keeps in [`BLOBS`] (a `File` is not `Send`, so it cannot sit in a signal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlobKey(u32);

thread_local! {
    /// The `File` handles of loaded big uploads; pruned by [`crate::state::AppState::load`] to those loaded.
    static BLOBS: std::cell::RefCell<std::collections::BTreeMap<BlobKey, web_sys::File>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
    static NEXT_BLOB: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

impl BlobKey {
    /// Keeps `file` and returns its key.
    pub fn keep(file: web_sys::File) -> BlobKey {
        let key = BlobKey(NEXT_BLOB.with(|n| {
            let key = n.get();
            n.set(key.wrapping_add(1));
            key
        }));
        BLOBS.with(|b| b.borrow_mut().insert(key, file));
        key
    }

    /// Forgets the kept files whose keys are not in `loaded`.
    pub fn keep_only(loaded: &std::collections::BTreeSet<BlobKey>) {
        BLOBS.with(|b| b.borrow_mut().retain(|key, _| loaded.contains(key)));
    }

    /// The kept file, if it is still loaded.
    pub fn file(self) -> Option<web_sys::File> {
        BLOBS.with(|b| b.borrow().get(&self).cloned())
    }
}

/// Reads bytes into a loaded file (copying them: for bytes the caller keeps).
pub fn read_file(name: &str, bytes: &[u8]) -> LoadedFile {
    read_owned_file(name, bytes.to_vec())
}

/// Reads bytes into a loaded file, which keeps them (no copy).
/// The table is dated by the year its name holds ([`year_in_name`]), as `imr` reads it: the
/// panel then reads it in place unless the reader gives another year (see
/// [`crate::state::panel_from`]).
pub fn read_owned_file(name: &str, bytes: Vec<u8>) -> LoadedFile {
    let table = RawTable::from_bytes(name, &bytes)
        .map(|mut table| {
            table.time_given = year_in_name(name);
            Arc::new(table)
        })
        .map_err(FileError::Ingest);
    LoadedFile {
        name: name.to_owned(),
        bytes: Arc::new(bytes),
        blob: None,
        table,
        sheet: None,
    }
}
