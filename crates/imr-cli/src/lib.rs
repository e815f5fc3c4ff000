//! The `imr` command line as a library: the argument parser ([`Cli`]) and one module per
//! subcommand. The binary (`src/main.rs`) parses, runs and maps errors to exit statuses; the
//! tests parse arguments with the same [`Cli`] (the round trip of the engine's requests).

pub mod commands;
pub mod memory;
mod same_math;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "imr",
    version = imr_core::ENGINE_VERSION,
    about = "Infant mortality rates, their inequality across areas, panel models and maps",
    long_about = "imr: the engine of imr-atlas on the command line.\n\n\
        Reads CSV files (delimiter, decimal comma, encoding and header are detected) and \
        spreadsheets (.xlsx, .xls, .ods, XML Spreadsheet 2003: --sheet NAME, --sheet FILE=NAME or \
        --sheets all), \
        validates every row (each is used or reported as excluded with its file, sheet, line and \
        reason) and computes infant \
        mortality rates per 1,000 births with exact Poisson intervals, inequality measures per year, \
        panel-data models and choropleth maps. The web page runs the same engine.",
    after_help = "Environment:\n  \
        SOURCE_DATE_EPOCH  Fixes the date line of every export (\"# Generated:\", a chart's foot):\n                     \
        seconds since 1970-01-01 UTC, as `date +%s` prints them. Unset, exports carry\n                     \
        today's date in UTC; set, runs on different days write the same bytes."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Write CSV cells exactly as they are. By default a text cell starting with =, +, -, @, tab or
    /// carriage return (a spreadsheet formula; plain numbers such as -1.5 excepted) gets a
    /// leading ' so that a spreadsheet shows it as text (OWASP "CSV injection" guidance)
    #[arg(long, global = true)]
    pub no_formula_guard: bool,
    /// Language of every CSV written: `es` writes it as the Spanish page downloads it, for a
    /// spreadsheet in es-CL (cells separated by `;`, decimal comma, no thousands separator,
    /// column names and the provenance lines in Spanish, UTF-8 with a byte-order mark); `en`
    /// writes the machine CSV (`,`, decimal point, English column names)
    #[arg(long, global = true, value_name = "LANG", default_value = "en")]
    pub csv_lang: imr_core::Lang,
}

#[derive(Subcommand)]
pub enum Command {
    /// Rates per 1,000 births by entity and time, with exact Poisson (Garwood) 95% intervals
    Rates(commands::rates::Args),
    /// Inequality of area rates (or any column) per year, its trend, and bootstrap intervals
    Inequality(commands::inequality::Args),
    /// Panel-data models: pooled, fe, twfe, re, be, fd, cre, poisson-fe
    Fit(commands::fit::Args),
    /// Choropleth map of a year as SVG
    Map(commands::map::Args),
    /// The five answers of the page's Findings view, as its printable report (HTML) or JSON
    Findings(commands::findings::Args),
    /// Build the bundled Chilean dataset from the raw extracts in data/raw
    Dataset(commands::dataset::Args),
    /// Aggregate the health ministry's deaths (and births) microdata to commune-year counts
    Microdata(commands::microdata::Args),
    /// Simulation study of the adjusted inequality measures on the births of a data file
    Simulate(commands::simulate::Args),
}

impl Command {
    /// Runs the subcommand.
    pub fn run(self) -> Result<(), commands::CliError> {
        match self {
            Command::Rates(args) => commands::rates::run(args),
            Command::Inequality(args) => commands::inequality::run(args),
            Command::Fit(args) => commands::fit::run(args),
            Command::Map(args) => commands::map::run(args),
            Command::Findings(args) => commands::findings::run(args),
            Command::Dataset(args) => commands::dataset::run(args),
            Command::Microdata(args) => commands::microdata::run(args),
            Command::Simulate(args) => commands::simulate::run(args),
        }
    }
}
