//! One module per subcommand; each has `Args` (clap) and `run(Args) -> Result<(), CliError>`.

/// The `--format` of a command that writes its JSON document or one of the files of an export
/// list of the engine (`imr_core::request::FitExport`, `InequalityExport`): `$name::Json` or
/// `$name::File(export)`, the values and their help taken from the list (`ALL`, `format()`,
/// `description()`), so the command offers exactly the files the page downloads.
macro_rules! export_format {
    ($(#[$meta:meta])* $name:ident, $export:ty, $json_help:expr) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub enum $name {
            /// The command's JSON document.
            #[default]
            Json,
            /// A file of the page, written by the same engine function.
            File($export),
        }

        impl clap::ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                const FORMATS: [$name; 1 + <$export>::ALL.len()] = {
                    let mut all = [$name::Json; 1 + <$export>::ALL.len()];
                    let mut i = 0;
                    while i < <$export>::ALL.len() {
                        all[i + 1] = $name::File(<$export>::ALL[i]);
                        i += 1;
                    }
                    all
                };
                &FORMATS
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(match self {
                    $name::Json => clap::builder::PossibleValue::new("json").help($json_help),
                    $name::File(export) => clap::builder::PossibleValue::new(export.format())
                        .help(export.description()),
                })
            }
        }
    };
}

pub mod dataset;
pub mod error;
pub mod findings;
pub mod fit;
pub mod flags;
pub mod inequality;
pub mod input;
pub mod map;
pub mod microdata;
pub mod rates;
mod sheets;
pub mod simulate;

pub use error::CliError;

use imr_core::escape::CsvOptions;
use imr_core::request::{ColumnUse, RequestError};
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

static CSV_LANG: OnceLock<imr_core::Lang> = OnceLock::new();

/// Sets the language of this run's CSVs (from `--csv-lang`); called once, by `main`.
pub fn set_csv_lang(lang: imr_core::Lang) {
    let _ = CSV_LANG.set(lang);
}

/// The language of this run's CSVs: the machine CSV (English) unless `--csv-lang es` was given
/// ([`imr_core::spreadsheet_csv`]).
pub fn csv_lang() -> imr_core::Lang {
    CSV_LANG.get().copied().unwrap_or(imr_core::Lang::En)
}

/// `value` as pretty-printed JSON ending in a newline: the JSON output of every command.
pub fn json_text(value: &impl serde::Serialize) -> Result<String, CliError> {
    Ok(serde_json::to_string_pretty(value).map_err(std::io::Error::from)? + "\n")
}

/// The flag of `imr` that names a column of this use (without its `--`).
pub fn column_flag(role: ColumnUse) -> &'static str {
    match role {
        ColumnUse::Value => "of",
        ColumnUse::Weight => "weight",
        ColumnUse::Against => "against",
        ColumnUse::AgainstWeight => "against-weight",
        ColumnUse::Group => "group",
        ColumnUse::Rank => "rank",
        ColumnUse::Outcome => "y",
        ColumnUse::Regressor => "x",
        ColumnUse::Weights => "weights",
        ColumnUse::Exposure => "exposure",
        ColumnUse::FixedEffect => "fe",
        ColumnUse::Cluster => "cluster",
        ColumnUse::MapValue => "value",
        _ => "column",
    }
}

/// A request error in the words of the command line, for what every command words alike: a
/// column that is not there (named by its flag), else the engine's own message. Each command
/// words its own options first and hands the rest here.
pub fn request_error(err: RequestError) -> CliError {
    match err {
        RequestError::NoNumericColumn {
            role,
            name,
            available,
        } => CliError::Usage(format!(
            "--{} {name}: no numeric column `{name}` in the input (numeric columns: {})",
            column_flag(role),
            available.join(", ")
        )),
        RequestError::NoColumn {
            role,
            name,
            available,
        } => CliError::Usage(format!(
            "--{} {name}: no column `{name}` in the input (columns: {})",
            column_flag(role),
            available.join(", ")
        )),
        other => CliError::Input(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every column use is named by a flag that some subcommand of `imr` takes.
    #[test]
    fn every_column_flag_is_a_flag_of_imr() {
        let command = crate::Cli::command();
        let flags: Vec<String> = command
            .get_subcommands()
            .flat_map(|c| {
                c.get_arguments()
                    .filter_map(|a| a.get_long())
                    .map(str::to_owned)
            })
            .collect();
        for role in [
            ColumnUse::Value,
            ColumnUse::Weight,
            ColumnUse::Against,
            ColumnUse::AgainstWeight,
            ColumnUse::Group,
            ColumnUse::Rank,
            ColumnUse::Outcome,
            ColumnUse::Regressor,
            ColumnUse::Weights,
            ColumnUse::Exposure,
            ColumnUse::FixedEffect,
            ColumnUse::Cluster,
            ColumnUse::MapValue,
        ] {
            let flag = column_flag(role);
            assert!(flags.iter().any(|f| f == flag), "{role:?}: --{flag}");
        }
    }
}
