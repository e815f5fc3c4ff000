//! The Data view's texts: files and roles, rates, validation, implausible values, the CSV
//! upload and the microdata reader.

/// The Data view: files, column roles, rates table, validation report, implausible values.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct DataMessages {
    pub files_columns: &'static str,
    pub covariates_note: &'static str,
    pub commune_code: &'static str,
    pub rate: &'static str,
    pub flagged_heading: &'static str,
    pub flagged_rules_note: &'static str,
    pub reasons: &'static str,
    pub file_line: &'static str,
    pub save_analysis_json: &'static str,
    pub use_bundled_data: &'static str,
    pub bundled_dataset_note: &'static str,
    pub choose_files_prompt: &'static str,
    pub national_rate_heading: &'static str,
    /// The same table when the data are not the whole country.
    pub loaded_rate_heading: &'static str,
    /// Under the table: which rows it pools (`{n}`: flagged rows left out).
    pub national_rate_note: &'static str,
    pub national_rate_note_flagged: &'static str,
    pub ci95_low: &'static str,
    pub ci95_high: &'static str,
    pub communes_column: &'static str,
    pub communes_word: &'static str,
    pub rates_heading: &'static str,
    pub rates_formula_note: &'static str,
    pub rates_approximate_note: &'static str,
    /// (rows with a range, the low column, the high column) The intervals of counts known within
    /// a range of whole numbers.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rates_range_note: fn(&str, &str, &str) -> String,
    pub search_commune_year: &'static str,
    pub rates_command_label: &'static str,
    pub column_word: &'static str,
    pub report_derived_deaths_note: &'static str,
    pub validation: &'static str,
    pub lines: &'static str,
    pub rows_read: &'static str,
    pub used: &'static str,
    pub excluded: &'static str,
    pub excluded_rows: &'static str,
    pub upload_files_label: &'static str,
    pub upload_drop_hint: &'static str,
    pub upload_privacy_note: &'static str,
    pub show_all: &'static str,
    pub time_value_label: &'static str,
    pub time_value_hint: &'static str,
    pub time_value_invalid: &'static str,
    /// (year, the files whose rows are of that year)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub time_value_applied: fn(&str, &str) -> String,
    pub rate_lag_label: &'static str,
    pub rate_lag_same: &'static str,
    pub rate_lag_one_year: &'static str,
    /// (years, 2 or more)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rate_lag_years: fn(&str) -> String,
    pub rate_lag_hint: &'static str,
    /// (the lag found, as its option reads: "2 years before")
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rate_lag_accept: fn(&str) -> String,
    /// (the lag applied as its option reads, the files whose rates were moved)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rate_lag_applied: fn(&str, &str) -> String,
    /// (rates that describe a year without a row of their area)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rate_lag_unplaced: fn(&str) -> String,
    /// (rows, delimiter, decimal mark, encoding, header, metadata note or nothing)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub file_summary: fn(&str, &str, &str, &str, &str, &str) -> String,
    /// (metadata lines)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub metadata_skipped: fn(&str) -> String,
    /// (rows flagged, the rates-above-200 note or nothing)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub flagged_summary: fn(&str, &str) -> String,
    /// (the rows above 200 per 1,000)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub flagged_worst: fn(&str) -> String,
    /// (cells)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub text_cells_missing: fn(&str) -> String,
    /// (codes)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub recoded_codes: fn(&str) -> String,
    /// (rows)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub merged_rows: fn(&str) -> String,
    /// (cells)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub conflicting_cells: fn(&str) -> String,
    /// (rows)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub excluded_show_all: fn(&str) -> String,
    /// (file, lines, header, metadata, rows read, used, excluded, other lines)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub line_account: fn(&str, &str, &str, &str, &str, &str, &str, &str) -> String,
    /// (rows shown, rows found)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub showing_first: fn(&str, &str) -> String,
    /// (rows)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub show_only: fn(&str) -> String,
    /// (file, the browser's error)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub cannot_read_file: fn(&str, &str) -> String,
    // A pasted table, read as a file (pages/data/paste.rs).
    pub paste_label: &'static str,
    pub paste_hint: &'static str,
    pub paste_read: &'static str,
    /// The name of a pasted table in the file list (a file name: no spaces, `.txt` added).
    pub pasted_name: &'static str,
    // One file of the list: removing it, the year of its rows (pages/data/files.rs).
    pub remove_file: &'static str,
    /// (file) The remove button's accessible name.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub remove_file_named: fn(&str) -> String,
    pub file_year_label: &'static str,
    pub file_year_given: &'static str,
    pub file_year_from_name: &'static str,
    pub file_year_for_all: &'static str,
    pub file_year_missing: &'static str,
    // Spreadsheets, read in the background reader; the sheet picker (pages/data/sheets.rs).
    pub upload_sheets_hint: &'static str,
    /// (workbook, how many sheets) The picker's question.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub sheet_pick_question: fn(&str, &str) -> String,
    pub sheet_pick_label: &'static str,
    pub sheet_read_one: &'static str,
    pub sheet_read_all: &'static str,
    pub sheet_read_all_hint: &'static str,
    pub sheet_pick_dismiss: &'static str,
    pub sheets_left_out: &'static str,
}

/// The CSV upload (Data view): reading in the background, progress, memory errors.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct UploadMessages {
    /// (file, MB, seconds in the background reader, seconds loading the table)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub done: fn(&str, &str, &str, &str) -> String,
    /// (file)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub cancelled: fn(&str) -> String,
    /// (file, MB read, MB in all)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub reading: fn(&str, &str, &str) -> String,
    /// (file, MB in all)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub parsing: fn(&str, &str) -> String,
    /// (file)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub receiving: fn(&str) -> String,
    /// (file, MB read)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub no_memory: fn(&str, &str) -> String,
    /// (file, the reader's error)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub reader_stopped: fn(&str, &str) -> String,
    /// (file, what went wrong between the page and its background reader)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub page_failed: fn(&str, &str) -> String,
}

/// The health ministry microdata reader (Data view).
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct MicrodataMessages {
    pub year_column: &'static str,
    pub commune_column: &'static str,
    pub heading: &'static str,
    pub deaths_file_note: &'static str,
    pub deaths_file_label: &'static str,
    pub births_file_label: &'static str,
    pub is_deaths_microdata: &'static str,
    pub not_deaths_microdata: &'static str,
    pub breakdowns_legend: &'static str,
    pub breakdown_neonatal: &'static str,
    pub breakdown_cause_chapter: &'static str,
    pub aggregate_button: &'static str,
    pub starting: &'static str,
    pub deaths_word: &'static str,
    pub births_word: &'static str,
    pub same_result_from_command: &'static str,
    pub download_counts_csv: &'static str,
    pub unknown_commune_codes: &'static str,
    pub lines_word: &'static str,
    /// (MB read, MB in all, rows, rows per second, MB per second)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub progress: fn(&str, &str, &str, &str, &str) -> String,
    /// (MB read, MB in all)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub cancelled: fn(&str, &str) -> String,
    /// (what went wrong between the page and its background reader)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub worker_failed: fn(&str) -> String,
    /// (seconds, MB per second, rows per second, counts file)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub done: fn(&str, &str, &str, &str) -> String,
    /// (rows read, header, years, infant deaths counted, aged one or more, excluded, codes recoded)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub deaths_summary: fn(&str, &str, &str, &str, &str, &str, &str) -> String,
    /// (rows read, header, years, births counted, excluded, codes recoded)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub births_summary: fn(&str, &str, &str, &str, &str, &str) -> String,
}
