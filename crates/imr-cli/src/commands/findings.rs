//! `imr findings`: the five answers of the page's Findings view on the given data — the printable
//! HTML report the view downloads, byte for byte, or the numbers behind the answers as JSON.

use super::input::{load_panel, today, InputArgs};
use super::CliError;
use imr_core::Lang;
use imr_findings::report::report_html_spanned;
use imr_findings::{FindingsRequest, YearSpan};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum Format {
    /// The printable report of the Findings view (self-contained HTML, no scripts)
    #[default]
    Html,
    /// The values behind the answers (rates, trends, inequality, coefficients, communes)
    Json,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub flags: super::flags::AnalysisFlags,
    /// The years the five answers cover, FIRST-LAST (e.g. 2001-2011, the reference study's
    /// period); by default every year of the data. The answer on the reference study always
    /// reads every year.
    #[arg(long, value_name = "FIRST-LAST", value_parser = str::parse::<YearSpan>)]
    pub years: Option<YearSpan>,
    /// Language of the report: en or es
    #[arg(long, value_name = "LANG", default_value = "en")]
    pub lang: Lang,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Html)]
    pub format: Format,
    /// Write the output to this file instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl From<&Args> for FindingsRequest {
    fn from(args: &Args) -> FindingsRequest {
        FindingsRequest {
            include_flagged: args.flags.include_flagged,
            include_repeated_years: args.flags.include_repeated_years,
            bundled_data: false,
            births_ratio: args.flags.births_ratio,
            years: args.years,
        }
    }
}

/// Whether the input is the bundled dataset, byte for byte (as the page opens it): the report
/// then names its sources, as the page's does.
fn is_bundled_data(files: &[std::path::PathBuf]) -> bool {
    match files {
        [only] => std::fs::read(only).is_ok_and(|bytes| bytes == imr_core::data::BUNDLED_PANEL_CSV),
        _ => false,
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let panel = load_panel(&args.input)?;
    let request = FindingsRequest {
        bundled_data: is_bundled_data(&args.input.files),
        ..FindingsRequest::from(&args)
    };
    let findings = request.run(&panel);
    let text = match args.format {
        Format::Html => {
            let line = imr_core::provenance::report_line(args.lang, &args.input.source(), &today());
            report_html_spanned(&findings, args.lang, &line, args.years.is_some())
        }
        Format::Json => {
            // each answer its values, or `{"unavailable": reason}` (`Findings`' own Serialize)
            let mut doc = serde_json::to_value(&findings).map_err(std::io::Error::from)?;
            doc["engine_version"] = imr_core::ENGINE_VERSION.into();
            doc["source"] = args.input.source().into();
            // every row of the input: used or excluded with its file, line and reason
            doc["input"] = serde_json::to_value(super::rates::InputSummary::new(&panel))
                .map_err(std::io::Error::from)?;
            super::json_text(&doc)?
        }
    };
    match &args.out {
        Some(path) => std::fs::write(path, text)?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}
