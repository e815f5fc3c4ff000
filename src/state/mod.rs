//! Application state, provided through context: [`AppState`], the loaded files (files.rs), the
//! column roles chosen for each, and the validated panel and rates derived from them; and
//! [`AnalysisState`] (analysis.rs), what every view's analysis shares beside the data. The
//! views' results are kept by [`cache::RequestCache`]. Core results are wrapped in [`Shared`]
//! so memos compare by identity instead of deep equality.

use crate::assets;
use imr_core::ingest::sheet_choice::workbook_inputs;
use imr_core::ingest::SheetOrigin;
use imr_core::ingest::{ColumnRoles, IngestError, IngestOptions};
use imr_core::panel::Panel;
use imr_core::rates::RateTable;
use imr_core::request::InputSpec;
use leptos::prelude::*;
use std::sync::Arc;

mod analysis;
pub mod cache;
mod files;
mod panel;
mod shared;

pub use analysis::AnalysisState;
pub use files::{read_file, read_owned_file, BlobKey, FileError, LoadedFile};
pub use panel::panel_from;
pub use shared::Shared;

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
    /// The year the reader gave each readable file (same order as `roles`) for its rows when it
    /// has no year column (`imr --time-value FILE=YEAR`); `None`: the year its name holds, or
    /// [`AppState::time_value`] (the rule of [`table_year`](imr_core::ingest::table_year)).
    pub years: RwSignal<Vec<Option<i64>>>,
    /// The year of the rows of data files without a year column (data of one year), kept in
    /// the link and the saved analysis as `time-value`; `None` until the reader gives one, and
    /// again when other files are uploaded or the bundled data loaded.
    pub time_value: RwSignal<Option<i64>>,
    /// The publication lag of the rate column in years, 0 for none
    /// ([`IngestOptions::rate_lag`]), kept in the link and the saved analysis as `rate-lag`; 0
    /// again when other files are uploaded or the bundled data loaded.
    pub rate_lag: RwSignal<u32>,
    /// True while the bundled dataset is the data shown (or being read to be shown).
    pub bundled: RwSignal<bool>,
    /// True while the bundled dataset's file is being read (fetched, the first time on a page).
    pub bundled_loading: RwSignal<bool>,
    pub view: RwSignal<View>,
    pub panel: Memo<Option<Result<Shared<Panel>, IngestError>>>,
    /// The rates of the panel; `None` also when the panel has none (its error is shown).
    pub rates: Memo<Option<Shared<RateTable>>>,
}

impl AppState {
    /// The state of a page whose view is kept in the URL fragment.
    pub fn new(fragment: &crate::fragment::Fragment) -> Self {
        let files = RwSignal::new(Vec::<LoadedFile>::new());
        let roles = RwSignal::new(Vec::<ColumnRoles>::new());
        let years = RwSignal::new(Vec::<Option<i64>>::new());
        let time_value =
            fragment.synced_with("time-value", None, write_time_value, read_time_value);
        let rate_lag = fragment.synced_with("rate-lag", 0, write_rate_lag, read_rate_lag);
        // `with`, not `get`: the memo reads the files and roles in place (no clone of the list).
        let panel = Memo::new(move |_| {
            let options = IngestOptions {
                time_value: time_value.get(),
                rate_lag: Some(rate_lag.get()).filter(|&k| k > 0),
                ..IngestOptions::default()
            };
            files
                .with(|files| {
                    roles
                        .with(|roles| years.with(|years| panel_from(files, roles, years, &options)))
                })
                .map(|r| r.map(|p| Shared(Arc::new(p))))
        });
        let rates = Memo::new(move |_| {
            let panel = panel.get()?.ok()?;
            RateTable::from_panel(&panel)
                .ok()
                .map(|t| Shared(Arc::new(t)))
        });
        AppState {
            files,
            roles,
            years,
            time_value,
            rate_lag,
            bundled: RwSignal::new(false),
            bundled_loading: RwSignal::new(false),
            // The study's answers first.
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
        // Forget the `File` handles of files no longer loaded.
        let kept: std::collections::BTreeSet<BlobKey> =
            loaded.iter().filter_map(|f| f.blob).collect();
        BlobKey::keep_only(&kept);
        self.years.set(vec![None; roles.len()]);
        self.roles.set(roles);
        self.files.set(loaded);
    }

    /// Adds a file to the reader's loaded files (a pasted table), its roles guessed; in place
    /// of the bundled data, as an upload (and then without a year for every file or a rates'
    /// lag, given for other data).
    pub fn add(&self, file: LoadedFile) {
        if self.bundled.get_untracked() || self.files.with_untracked(Vec::is_empty) {
            self.bundled.set(false);
            self.time_value.set(None);
            self.rate_lag.set(0);
            self.load(vec![file], None);
            return;
        }
        if let Ok(table) = &file.table {
            let guessed = table.guessed_roles.clone();
            self.years.update(|y| y.push(None));
            self.roles.update(|r| r.push(guessed));
        }
        self.files.update(|f| f.push(file));
    }

    /// The names of the loaded files that were read (a file that failed is not data), joined by
    /// ", ": what "Your data" and the sources notice name (tracks `files`).
    pub fn read_file_names(&self) -> String {
        self.files.with(|files| {
            let names: Vec<&str> = files
                .iter()
                .filter(|f| f.table.is_ok())
                .map(|f| f.name.as_str())
                .collect();
            names.join(", ")
        })
    }

    /// Removes the loaded file at `index` (of `files`) with its roles and year; the bundled
    /// data load when it was the last.
    pub fn remove(&self, index: usize) {
        let Some((readable, removed_readable)) = self.files.with_untracked(|files| {
            let file = files.get(index)?;
            let before = files[..index].iter().filter(|f| f.table.is_ok()).count();
            Some((before, file.table.is_ok()))
        }) else {
            return;
        };
        if self.files.with_untracked(|f| f.len()) == 1 {
            self.load_bundled();
            return;
        }
        if removed_readable {
            fn drop_at<T>(v: &mut Vec<T>, at: usize) {
                if at < v.len() {
                    v.remove(at);
                }
            }
            self.years.update(|y| drop_at(y, readable));
            self.roles.update(|r| drop_at(r, readable));
        }
        self.files.update(|f| {
            let removed = f.remove(index);
            // A sheet of those read by "every sheet" removed: the others are no longer every
            // sheet (the shown command names them one by one).
            if let Some(origin) = removed.sheet.filter(|o| o.all) {
                for file in f.iter_mut() {
                    if let Some(o) = file
                        .sheet
                        .as_mut()
                        .filter(|o| o.workbook == origin.workbook)
                    {
                        o.all = false;
                    }
                }
            }
        });
        let kept: std::collections::BTreeSet<BlobKey> = self
            .files
            .with_untracked(|f| f.iter().filter_map(|f| f.blob).collect());
        BlobKey::keep_only(&kept);
    }

    /// The input of a shown `imr` command: the readable files (the bundled one by its path in
    /// the source tree, `public/data/…`, so the command runs from a checkout), and for each role
    /// the column chosen in the Data view for the first file that has one (one flag names one
    /// column in every file). Tracked: a command made in a reactive closure follows the files
    /// and their roles.
    pub fn input_spec(&self) -> InputSpec {
        let bundled = self.bundled.get();
        self.files.with(|files| {
            self.roles.with(|roles| {
                let readable = files.iter().filter(|f| f.table.is_ok());
                let named: Vec<(String, Option<SheetOrigin>)> = readable
                    .clone()
                    .map(|f| match bundled && f.name == BUNDLED_NAME {
                        true => (format!("public/data/{BUNDLED_NAME}"), None),
                        false => (f.name.clone(), f.sheet.clone()),
                    })
                    .collect();
                // A spreadsheet's sheets: the workbook once, and `--sheet`/`--sheets all`.
                let (names, sheets) = workbook_inputs(&named);
                let tables: Vec<(&[String], &ColumnRoles)> = readable
                    .filter_map(|f| f.table.as_ref().ok())
                    .zip(roles)
                    .map(|(t, r)| (t.columns.as_slice(), r))
                    .collect();
                // The year of files without a year column, when one of them reads it.
                let time_value = self
                    .time_value
                    .get()
                    .filter(|_| imr_core::ingest::time_value_applies(roles));
                // The rates' lag, when the data have a rate column it moves.
                let rate_lag = Some(self.rate_lag.get())
                    .filter(|&k| k > 0 && imr_core::ingest::rate_lag_applies(roles));
                InputSpec::of_tables(names, &tables)
                    .with_sheets(sheets)
                    .with_time_value(time_value)
                    .with_rate_lag(rate_lag)
            })
        })
    }
}

/// Whether the loaded panel's deaths are derived from a published rate (tracked; the
/// [`AppState`] from context).
pub fn deaths_derived() -> bool {
    expect_context::<AppState>()
        .panel
        .with(|p| matches!(p, Some(Ok(p)) if p.deaths_derived))
}

/// The bundled dataset: Chile's 345 communes, 2001–2021 (see `public/data/SOURCES.md`).
pub const BUNDLED_NAME: &str = imr_core::data::BUNDLED_PANEL_FILE;
/// The births and infant deaths of the bundled dataset (`public/data/SOURCES.md`). Their names
/// are guessed; the preset names them anyway, so that no other column is ever taken for them.
pub const BUNDLED_BIRTHS: &str = "nacidos_vivos";
pub const BUNDLED_DEATHS: &str = "defunciones_infantiles";

impl AppState {
    /// Loads the bundled dataset with its column preset: entity `codigo_comuna`, time `anio`,
    /// births `nacidos_vivos`, deaths `defunciones_infantiles` (counts; the published rate beside
    /// them, `tmi_sinim`, is guessed as the rate and not read where deaths are given).
    ///
    /// The file is the page's own (src/assets.rs), read the first time it is needed:
    /// until it arrives `bundled_loading` is true, and if other data are loaded meanwhile
    /// (`bundled` false again) it is not shown. A file the browser cannot read is shown as
    /// the Data view shows an unreadable upload.
    pub fn load_bundled(&self) {
        self.bundled.set(true);
        // The bundled data have their year column, and their rates are read as published.
        self.time_value.set(None);
        self.rate_lag.set(0);
        if let Some(bytes) = assets::cached(assets::BUNDLED_PANEL) {
            self.show_bundled(Ok(&bytes));
            return;
        }
        self.bundled_loading.set(true);
        let state = *self;
        leptos::task::spawn_local(async move {
            let read = assets::load(assets::BUNDLED_PANEL).await;
            state.bundled_loading.set(false);
            if state.bundled.get_untracked() {
                state.show_bundled(read.as_deref().map_err(String::clone));
            }
        });
    }

    fn show_bundled(&self, read: Result<&[u8], String>) {
        let file = match read {
            Ok(bytes) => read_file(BUNDLED_NAME, bytes),
            Err(detail) => LoadedFile {
                name: BUNDLED_NAME.to_owned(),
                bytes: Arc::new(Vec::new()),
                blob: None,
                table: Err(FileError::Unreadable {
                    name: BUNDLED_NAME.to_owned(),
                    detail,
                }),
                sheet: None,
            },
        };
        let preset = file.table.as_ref().ok().map(|t| {
            let mut roles = t.guessed_roles.clone();
            roles.births = t.columns.iter().position(|c| c == BUNDLED_BIRTHS);
            roles.deaths = t.columns.iter().position(|c| c == BUNDLED_DEATHS);
            vec![roles]
        });
        self.load(vec![file], preset);
    }
}

/// The year of files without a year column in the link: empty when none was given.
fn write_time_value(year: &Option<i64>) -> String {
    year.map(|y| y.to_string()).unwrap_or_default()
}

/// A year from the link (`None`: not a year within the range a year column may hold, ignored).
fn read_time_value(s: &str) -> Option<Option<i64>> {
    if s.is_empty() {
        return Some(None);
    }
    imr_core::ingest::parse_year(s).map(Some)
}

/// The rates' lag in the link: empty for none.
fn write_rate_lag(lag: &u32) -> String {
    if *lag == 0 {
        String::new()
    } else {
        lag.to_string()
    }
}

/// A rate lag from the link (`None`: not a lag `imr --rate-lag` takes, ignored).
fn read_rate_lag(s: &str) -> Option<u32> {
    if s.is_empty() {
        return Some(0);
    }
    imr_core::ingest::parse_rate_lag(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rates_lag_round_trips_through_the_link() {
        for lag in [0, 1, 2, imr_core::ingest::MAX_RATE_LAG] {
            assert_eq!(read_rate_lag(&write_rate_lag(&lag)), Some(lag));
        }
        assert_eq!(write_rate_lag(&0), "");
        for bad in ["11", "-1", "2.0", "x", " 2"] {
            assert_eq!(read_rate_lag(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_year_of_files_without_a_year_column_round_trips_through_the_link() {
        for year in [None, Some(2023), Some(-5), Some(imr_core::ingest::MAX_YEAR)] {
            assert_eq!(read_time_value(&write_time_value(&year)), Some(year));
        }
        assert_eq!(write_time_value(&None), "");
        // Not a year a year column may hold: ignored (the default stays).
        for bad in ["20.5", "x", "1000000", " 2023"] {
            assert_eq!(read_time_value(bad), None, "{bad}");
        }
    }
}
