//! `imr inequality`: inequality of area rates (or of any weighted column) per year, with
//! bootstrap intervals, trends and notes; as JSON, CSV, or one of the page's SVG charts.

use super::input::{load_panel, InputArgs};
use super::rates::OutputHead;
use super::CliError;
use imr_core::inequality::adjusted::AdjustedCorrelation;
use imr_core::inequality::{InequalityReport, Measure, DEFAULT_REPLICATES, DEFAULT_SEED};
use imr_core::request::{
    ExportChoices, ExportError, InequalityExport, InequalityRequest, InequalitySubject,
    RequestError, SecondSeries,
};
use serde::Serialize;
use std::io::Write;

export_format!(
    /// What `imr inequality` writes: the JSON document, or one of the files the Inequality view
    /// downloads ([`InequalityExport`]).
    Format,
    InequalityExport,
    "One JSON document: input report, years (measures and `ci`), trend, notes"
);

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    /// Measure this numeric column instead of the infant mortality rate (e.g. health income per
    /// capita); needs --weight. Intervals then come from resampling areas
    #[arg(long, value_name = "COL", requires = "weight")]
    pub of: Option<String>,
    /// Weight of --of (e.g. population); areas are rows with weight > 0
    #[arg(long, value_name = "COL", requires = "of")]
    pub weight: Option<String>,
    /// Correlate the adjusted Gini of infant mortality over the years with the Gini of this
    /// column (e.g. ingreso_salud_pc): adds `correlation_adjusted` to the JSON; needs
    /// --against-weight
    #[arg(
        long,
        value_name = "COL",
        requires = "against_weight",
        conflicts_with = "of"
    )]
    pub against: Option<String>,
    /// Weight of --against (e.g. births)
    #[arg(long, value_name = "COL", requires = "against")]
    pub against_weight: Option<String>,
    /// Group column (e.g. region) for the Theil between/within decomposition
    #[arg(long, value_name = "COL")]
    pub group: Option<String>,
    /// Rank column (e.g. poverty), ascending, for the concentration index, SII/RII and quintiles
    #[arg(long, value_name = "COL")]
    pub rank: Option<String>,
    /// Bootstrap replicates for the percentile intervals (0: none)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_REPLICATES)]
    pub bootstrap: usize,
    /// Seed of the bootstrap: the same seed gives the same intervals
    #[arg(long, value_name = "S", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Measure drawn by --format svg-trend (a JSON key, e.g. gini, theil_t, pooled_rate)
    #[arg(long, value_name = "KEY", default_value = "gini")]
    pub measure: String,
    /// Language of the SVG charts' texts: en or es (JSON and CSV are always English)
    #[arg(long, value_name = "LANG", default_value = "en")]
    pub lang: imr_core::Lang,
    /// Years drawn by --format svg-lorenz, comma-separated
    #[arg(long, value_name = "YEARS", value_delimiter = ',')]
    pub years: Vec<i64>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    #[command(flatten)]
    pub flags: super::flags::AnalysisFlags,
}

pub use imr_core::inequality::panel_input::NotMeasured;

#[derive(Serialize)]
struct Output<'a> {
    #[serde(flatten)]
    head: OutputHead<'a>,
    /// Panel rows left out of the measures (births or the value missing, or flagged as
    /// implausible), with file, line and reason.
    rows_not_measured: &'a [NotMeasured],
    #[serde(flatten)]
    report: &'a InequalityReport,
    /// With --against: the adjusted Gini's correlation with the other column's Gini.
    #[serde(skip_serializing_if = "Option::is_none")]
    correlation_adjusted: Option<Option<AdjustedCorrelation>>,
    /// With --against: panel rows left out of the --against series (value or weight missing).
    #[serde(skip_serializing_if = "Option::is_none")]
    against_rows_not_measured: Option<&'a [NotMeasured]>,
}

impl From<&Args> for InequalityRequest {
    /// The request of the parsed arguments (the input and the output options aside: format,
    /// chart measure, language and Lorenz years).
    fn from(args: &Args) -> InequalityRequest {
        InequalityRequest {
            subject: match (&args.of, &args.weight) {
                (Some(of), Some(weight)) => InequalitySubject::Values {
                    of: of.clone(),
                    weight: weight.clone(),
                },
                _ => InequalitySubject::Rates,
            },
            against: match (&args.against, &args.against_weight) {
                (Some(column), Some(weight)) => Some(SecondSeries {
                    column: column.clone(),
                    weight: weight.clone(),
                }),
                _ => None,
            },
            group: args.group.clone(),
            rank: args.rank.clone(),
            bootstrap: args.bootstrap,
            seed: args.seed,
            include_flagged: args.flags.include_flagged,
            include_repeated_years: args.flags.include_repeated_years,
            births_ratio: args.flags.births_ratio,
        }
    }
}

/// A request error in the words of the command line: the flag that names the column.
fn cli_error(err: RequestError) -> CliError {
    match err {
        RequestError::NoRates => CliError::Usage(
            "the data have no births and deaths (or rate) columns: name them with --births and \
             --deaths, or measure a column with --of COL --weight COL"
                .into(),
        ),
        RequestError::MissingKey(e) => CliError::Input(format!(
            "{}, line {}, column `{}`: --{} needs a value in every row, found none",
            e.file,
            e.line,
            e.column,
            e.role.flag()
        )),
        RequestError::SecondSeriesAnalysis { column, error } => {
            CliError::Input(format!("--against {column}: {error}"))
        }
        other => super::request_error(other),
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let measure = Measure::from_key(&args.measure).ok_or_else(|| {
        CliError::Usage(format!(
            "--measure: unknown measure `{}` (use a key of the JSON output, e.g. gini, theil_t, pooled_rate)",
            args.measure
        ))
    })?;
    let export = match args.format {
        Format::Json => None,
        Format::File(export) => Some(export),
    };
    let against_chart = export.is_some_and(InequalityExport::needs_second_series);
    let needs_against = || {
        CliError::Usage(
            "--format svg-against and csv-against need --against COL --against-weight COL".into(),
        )
    };
    if against_chart && args.against.is_none() {
        return Err(needs_against());
    }
    let panel = load_panel(&args.input)?;
    let request = InequalityRequest::from(&args);
    let result = request.run(&panel).map_err(cli_error)?;
    // The second series measured on its own, with intervals, for the two-series chart.
    let second = match request.second_series().filter(|_| against_chart) {
        Some(r) => Some(r.run(&panel).map_err(cli_error)?),
        None => None,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let Some(export) = export else {
        let (correlation_adjusted, against_rows_not_measured) = match &result.against {
            Some((c, left)) => (Some(c.clone()), Some(left.as_slice())),
            None => (None, None),
        };
        let doc = Output {
            head: OutputHead::new(&panel),
            rows_not_measured: &result.rows_not_measured(),
            report: &result.analysis.report,
            correlation_adjusted,
            against_rows_not_measured,
        };
        out.write_all(super::json_text(&doc)?.as_bytes())?;
        return Ok(());
    };
    let choices = ExportChoices {
        measure,
        years: &args.years,
    };
    let text = export
        .write(&result, second.as_ref(), &choices, &caption(&args))
        .map_err(|ExportError::NeedsSecondSeries| needs_against())?;
    if export.is_svg() {
        out.write_all(text.as_bytes())?;
    } else {
        out.write_all(args.input.with_csv_header(&text).as_bytes())?;
    }
    Ok(())
}

/// A chart's language, provenance line (input files, today's date) and engine (in its
/// metadata).
fn caption(args: &Args) -> imr_core::Caption {
    imr_core::provenance::caption(args.lang, &args.input.source(), &super::input::today())
}
