//! `imr rates`: rates per 1,000 births with exact Poisson intervals, and the national pooled rate.

use super::input::{load_panel, InputArgs};
use super::CliError;
use imr_core::ingest::IngestReport;
use imr_core::panel::Panel;
use imr_core::request::RatesRequest;
use serde::Serialize;
use std::io::Write;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum Format {
    #[default]
    Json,
    Csv,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format: one JSON document (input report, rows, national), or CSV of the rows
    /// (their last columns mark a year that copies the one before, `copy_of_year`, deaths
    /// reconstructed from a published rate, `deaths_reconstructed`, and a row the plausibility
    /// rules flag, `flagged_implausible`)
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// The `input` block of the JSON output: what happened to every row of every file.
#[derive(Serialize)]
pub struct InputSummary<'a> {
    pub rows_read: usize,
    pub rows_used: usize,
    pub rows_excluded: usize,
    pub excluded: &'a [imr_core::ingest::Exclusion],
    pub delimiter: &'a str,
    pub decimal: &'a str,
    pub encoding: &'a str,
    pub files: &'a [imr_core::ingest::FileReport],
    pub recoded_codes: usize,
    /// The years of files whose commune codes were read in DEIS's code system of the year
    /// (INE's sheets of 2000–2009), and each code so recoded to a different 2018 code.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub code_systems: &'a [imr_core::ingest::CodeSystemRead],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub historical_recodings: &'a [imr_core::ingest::HistoricalRecoding],
    /// Rows joined to the same area and time of another main file (births + deaths files).
    pub merged_rows: usize,
    pub cell_warnings: &'a [imr_core::ingest::CellWarning],
    pub deaths_derived: bool,
    /// With --rate-lag: rates that describe a year of which their area has no row (not used).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub unplaced_rates: &'a [imr_core::ingest::UnplacedRate],
}

impl<'a> InputSummary<'a> {
    pub fn new(panel: &'a Panel) -> Self {
        InputSummary::of(&panel.report, panel.deaths_derived)
    }

    /// The summary of an ingest report (when the panel itself is gone: `imr fit` frees it
    /// before the fit).
    pub fn of(report: &'a IngestReport, deaths_derived: bool) -> Self {
        let first = &report.files[0];
        InputSummary {
            rows_read: report.rows_read,
            rows_used: report.rows_used,
            rows_excluded: report.rows_excluded,
            excluded: &report.excluded,
            delimiter: &first.delimiter,
            decimal: &first.decimal,
            encoding: first.encoding,
            files: &report.files,
            recoded_codes: report.recoded_codes,
            code_systems: &report.code_systems,
            historical_recodings: &report.historical_recodings,
            merged_rows: report.merged_rows,
            cell_warnings: &report.cell_warnings,
            deaths_derived,
            unplaced_rates: &report.unplaced_rates,
        }
    }
}

/// The fields a panel's JSON document opens with (`imr rates`, `imr inequality`): the engine's
/// version, what became of every input row and, with a rate column, which year's births the
/// published rates fit. One struct, flattened into each document, so the two open alike.
#[derive(Serialize)]
pub struct OutputHead<'a> {
    engine_version: &'static str,
    input: InputSummary<'a>,
    /// Which year's births the published rates fit (with a rate column).
    #[serde(skip_serializing_if = "Option::is_none")]
    rate_lag: Option<&'a imr_core::lag::LagReport>,
}

impl<'a> OutputHead<'a> {
    /// The head of `panel`'s document.
    pub fn new(panel: &'a Panel) -> Self {
        OutputHead {
            engine_version: imr_core::ENGINE_VERSION,
            input: InputSummary::new(panel),
            rate_lag: panel.report.rate_lag.as_ref(),
        }
    }
}

#[derive(Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    head: OutputHead<'a>,
    approximate_intervals: bool,
    /// The columns of the deaths' ranges the intervals carry, when the data give ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    deaths_range: Option<&'a imr_core::rates::RangeColumns>,
    rows: &'a [imr_core::rates::AreaRate],
    national: &'a [imr_core::rates::NationalRate],
}

impl From<&Args> for RatesRequest {
    /// The request of the parsed arguments (it has no options: the input and the format aside).
    fn from(_: &Args) -> RatesRequest {
        RatesRequest::default()
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let panel = load_panel(&args.input)?;
    let table = RatesRequest::from(&args)
        .run(&panel)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Json => {
            let doc = Output {
                head: OutputHead::new(&panel),
                approximate_intervals: table.approximate_intervals,
                deaths_range: table.deaths_range.as_ref(),
                rows: &table.rows,
                national: &table.national,
            };
            out.write_all(super::json_text(&doc)?.as_bytes())?;
        }
        Format::Csv => {
            out.write_all(
                args.input
                    .with_csv_header(&imr_core::rates::rates_csv_with(
                        &table,
                        super::csv_options(),
                    ))
                    .as_bytes(),
            )?;
        }
    }
    Ok(())
}
