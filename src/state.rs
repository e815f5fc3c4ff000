//! Application state: the loaded files, the column roles chosen for each, and the validated panel
//! and rates derived from them. Core results are wrapped in [`Shared`] so memos compare by
//! identity instead of deep equality.

use imr_core::ingest::{build_panel, ColumnRoles, IngestOptions, RawTable};
use imr_core::panel::Panel;
use imr_core::rates::RateTable;
use leptos::prelude::*;
use std::sync::Arc;

/// An `Arc` whose equality is identity: a memo holding it notifies only when recomputed.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// One file the user gave: its bytes (kept for "save analysis") and the table read from them, or
/// the reason it cannot be read.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub name: String,
    pub bytes: Arc<Vec<u8>>,
    pub table: Result<Arc<RawTable>, String>,
}

/// The views of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Findings,
    Data,
    Inequality,
    Models,
    Map,
}

impl std::fmt::Display for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            View::Findings => "findings",
            View::Data => "data",
            View::Inequality => "inequality",
            View::Models => "models",
            View::Map => "map",
        })
    }
}

impl std::str::FromStr for View {
    type Err = ();
    fn from_str(s: &str) -> Result<View, ()> {
        match s {
            "findings" => Ok(View::Findings),
            "data" => Ok(View::Data),
            "inequality" => Ok(View::Inequality),
            "models" => Ok(View::Models),
            "map" => Ok(View::Map),
            _ => Err(()),
        }
    }
}

/// Everything the views share, provided through context.
#[derive(Clone, Copy)]
pub struct AppState {
    pub files: RwSignal<Vec<LoadedFile>>,
    /// Column roles of each readable file, same order as `files`.
    pub roles: RwSignal<Vec<ColumnRoles>>,
    /// True while the bundled dataset is the data shown.
    pub bundled: RwSignal<bool>,
    pub view: RwSignal<View>,
    pub panel: Memo<Option<Result<Shared<Panel>, String>>>,
    pub rates: Memo<Option<Result<Shared<RateTable>, String>>>,
}

impl AppState {
    /// The state of a page whose view is kept in the URL fragment.
    pub fn new(fragment: &crate::fragment::Fragment) -> Self {
        let files = RwSignal::new(Vec::<LoadedFile>::new());
        let roles = RwSignal::new(Vec::<ColumnRoles>::new());
        let panel = Memo::new(move |_| {
            let files = files.get();
            let roles = roles.get();
            panel_from(&files, &roles).map(|r| r.map(|p| Shared(Arc::new(p))))
        });
        let rates = Memo::new(move |_| {
            panel.get().map(|p| {
                p.and_then(|p| {
                    RateTable::from_panel(&p)
                        .map(|t| Shared(Arc::new(t)))
                        .map_err(|e| e.to_string())
                })
            })
        });
        AppState {
            files,
            roles,
            bundled: RwSignal::new(false),
            // The study's answers first (issue 16).
            view: fragment.synced("view", View::Findings),
            panel,
            rates,
        }
    }

    /// Replaces the loaded files; roles start from the guesses (or `preset` when given).
    pub fn load(&self, loaded: Vec<LoadedFile>, preset: Option<Vec<ColumnRoles>>) {
        let roles = preset.unwrap_or_else(|| {
            loaded
                .iter()
                .filter_map(|f| f.table.as_ref().ok())
                .map(|t| t.guessed_roles.clone())
                .collect()
        });
        self.roles.set(roles);
        self.files.set(loaded);
    }
}

/// The bundled dataset: Chile's 345 communes, 2019–2023 (see `public/data/SOURCES.md`).
pub const BUNDLED_NAME: &str = "chile_imr_2019_2023.csv";
const BUNDLED_CSV: &[u8] = include_bytes!("../public/data/chile_imr_2019_2023.csv");
/// The births proxy of the bundled dataset: INE population aged 0. It is not named like births,
/// so it is never guessed; the bundled preset chooses it.
pub const BUNDLED_BIRTHS: &str = "poblacion_0";

impl AppState {
    /// Loads the bundled dataset with its column preset: entity `codigo_comuna`, time `anio`,
    /// births `poblacion_0`, rate `tmi` (deaths derived from it, and marked so).
    pub fn load_bundled(&self) {
        let file = read_file(BUNDLED_NAME, BUNDLED_CSV);
        let preset = file.table.as_ref().ok().map(|t| {
            let mut roles = t.guessed_roles.clone();
            roles.births = t.columns.iter().position(|c| c == BUNDLED_BIRTHS);
            vec![roles]
        });
        self.bundled.set(true);
        self.load(vec![file], preset);
    }
}

/// Reads bytes into a loaded file.
pub fn read_file(name: &str, bytes: &[u8]) -> LoadedFile {
    LoadedFile {
        name: name.to_owned(),
        bytes: Arc::new(bytes.to_vec()),
        table: RawTable::from_bytes(name, bytes)
            .map(Arc::new)
            .map_err(|e| e.to_string()),
    }
}

/// The validated panel of the readable files, `None` when there are none.
pub fn panel_from(files: &[LoadedFile], roles: &[ColumnRoles]) -> Option<Result<Panel, String>> {
    let tables: Vec<RawTable> = files
        .iter()
        .filter_map(|f| f.table.as_ref().ok())
        .map(|t| (**t).clone())
        .collect();
    if tables.is_empty() || tables.len() != roles.len() {
        return None;
    }
    Some(build_panel(&tables, roles, &IngestOptions::default()).map_err(|e| e.to_string()))
}
