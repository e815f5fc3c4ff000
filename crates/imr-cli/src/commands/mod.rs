//! One module per subcommand; each has `Args` (clap) and `run(Args) -> Result<(), CliError>`.

pub mod dataset;
pub mod error;
pub mod findings;
pub mod fit;
pub mod inequality;
pub mod input;
pub mod map;
pub mod microdata;
pub mod rates;
pub mod simulate;

pub use error::CliError;

use imr_core::escape::CsvOptions;
use std::sync::OnceLock;

static CSV_OPTIONS: OnceLock<CsvOptions> = OnceLock::new();

/// Sets the CSV options of this run (from `--no-formula-guard`); called once, by `main`.
pub fn set_csv_options(options: CsvOptions) {
    let _ = CSV_OPTIONS.set(options);
}

/// The CSV options of this run: the formula guard is on unless `--no-formula-guard` was given.
pub fn csv_options() -> CsvOptions {
    CSV_OPTIONS.get().copied().unwrap_or_default()
}

/// `value` as pretty-printed JSON ending in a newline: the JSON output of every command.
pub fn json_text(value: &impl serde::Serialize) -> Result<String, CliError> {
    Ok(serde_json::to_string_pretty(value).map_err(std::io::Error::from)? + "\n")
}
