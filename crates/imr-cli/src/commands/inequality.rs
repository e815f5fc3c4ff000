//! `imr inequality`: inequality of area rates (or of any weighted column) per year, with
//! bootstrap intervals, trends and notes; as JSON, CSV, or one of the page's SVG charts.

use super::input::{load_panel, InputArgs};
use super::rates::InputSummary;
use super::CliError;
use imr_core::inequality::adjusted::AdjustedCorrelation;
use imr_core::inequality::chart::two_series_report_svg_in;
use imr_core::inequality::chart::{box_plot_svg_flagged, lorenz_svg_in, measure_over_years_svg_in};
use imr_core::inequality::csv::{
    box_plot_csv, box_plot_outliers_csv, lorenz_csv_of_years, measure_series_csv, trend_csv,
    two_series_report_csv, years_csv,
};
use imr_core::inequality::{InequalityReport, Measure, DEFAULT_REPLICATES, DEFAULT_SEED};
use imr_core::request::{InequalityRequest, InequalitySubject, RequestError, SecondSeries};
use serde::Serialize;
use std::io::Write;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One JSON document: input report, years (measures and `ci`), trend, notes
    #[default]
    Json,
    /// The per-year table: one row per year, a column per measure and its interval
    Csv,
    /// SVG line chart of `--measure` over the years with its interval band
    SvgTrend,
    /// SVG Lorenz curves of `--years` (all years when absent)
    SvgLorenz,
    /// SVG box plots of the area values per year
    SvgBox,
    /// The linear trend of every measure over the years (slope, interval, change) as CSV
    CsvTrends,
    /// The series drawn by svg-trend: `--measure` per year with its interval, as CSV
    CsvMeasure,
    /// The Lorenz curve points of `--years` (all years when absent), as CSV
    CsvLorenz,
    /// The box-plot statistics per year, as CSV
    CsvBox,
    /// The box plots' outliers (area, year, value), as CSV
    CsvOutliers,
    /// SVG of `--measure` of the infant mortality rate and of the --against column (weighted by
    /// --against-weight, bootstrapped the same way) over the years, with their correlation
    SvgAgainst,
    /// The two series of svg-against side by side, as CSV
    CsvAgainst,
}

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
    /// Keep the rows flagged as implausible (e.g. a rate of 1000 per 1,000 on 9 births) in the
    /// measures; by default, as in `imr fit`, `imr findings` and the page, they are left out and
    /// listed in `rows_not_measured` with their reasons
    #[arg(long)]
    pub include_flagged: bool,
    /// Keep a year whose values repeat the previous year's in nearly every area (a year the
    /// source copied) in the trends and correlations; by default it is measured and shown
    /// (`repeat_of`) but left out of them (`left_out_of_trends`)
    #[arg(long)]
    pub include_repeated_years: bool,
}

pub use imr_core::inequality::panel_input::NotMeasured;

#[derive(Serialize)]
struct Output<'a> {
    engine_version: &'static str,
    input: InputSummary<'a>,
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
            include_flagged: args.include_flagged,
            include_repeated_years: args.include_repeated_years,
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
    let against_chart = matches!(args.format, Format::SvgAgainst | Format::CsvAgainst);
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
    let left_out = &result.rows_not_measured();
    let analysis = &result.analysis;
    let report = &analysis.report;
    let (correlation_adjusted, against_left_out) = match &result.against {
        Some((c, left)) => (Some(c.clone()), Some(left.as_slice())),
        None => (None, None),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Json => {
            let doc = Output {
                engine_version: imr_core::ENGINE_VERSION,
                input: InputSummary::new(&panel),
                rows_not_measured: left_out,
                report,
                correlation_adjusted,
                against_rows_not_measured: against_left_out,
            };
            out.write_all(super::json_text(&doc)?.as_bytes())?;
        }
        Format::Csv => out.write_all(args.input.with_csv_header(&years_csv(report)).as_bytes())?,
        Format::SvgTrend => {
            out.write_all(measure_over_years_svg_in(report, measure, &caption(&args)).as_bytes())?
        }
        Format::SvgLorenz => out.write_all(
            lorenz_svg_in(
                &analysis.lorenz,
                &args.years,
                &report.subject,
                &caption(&args),
            )
            .as_bytes(),
        )?,
        Format::SvgBox => {
            // Flagged rows are left out of the measures unless --include-flagged; kept, they
            // stay off the axis scale as on the page (rates only).
            let flags = (!args.include_flagged && args.of.is_none())
                .then(|| imr_core::plausibility::Plausibility::check(&panel));
            let is_flagged = |entity: &str, time: i64| {
                flags.as_ref().is_some_and(|f| f.is_flagged(entity, time))
            };
            let svg = box_plot_svg_flagged(
                &analysis.box_plots,
                &report.subject,
                &caption(&args),
                &is_flagged,
            );
            out.write_all(svg.as_bytes())?
        }
        Format::CsvTrends => {
            out.write_all(args.input.with_csv_header(&trend_csv(report)).as_bytes())?
        }
        Format::CsvMeasure => out.write_all(
            args.input
                .with_csv_header(&measure_series_csv(report, measure))
                .as_bytes(),
        )?,
        Format::CsvLorenz => out.write_all(
            args.input
                .with_csv_header(&lorenz_csv_of_years(&analysis.lorenz, &args.years))
                .as_bytes(),
        )?,
        Format::CsvBox => out.write_all(
            args.input
                .with_csv_header(&box_plot_csv(&analysis.box_plots))
                .as_bytes(),
        )?,
        Format::CsvOutliers => out.write_all(
            args.input
                .with_csv_header(&box_plot_outliers_csv(&analysis.box_plots))
                .as_bytes(),
        )?,
        Format::SvgAgainst | Format::CsvAgainst => {
            let other = &second.as_ref().ok_or_else(needs_against)?.analysis.report;
            let text = if args.format == Format::SvgAgainst {
                two_series_report_svg_in(report, other, measure, &caption(&args))
            } else {
                args.input
                    .with_csv_header(&two_series_report_csv(report, other, measure))
            };
            out.write_all(text.as_bytes())?
        }
    }
    Ok(())
}

/// A chart's language and provenance line (input files, engine, today's date).
fn caption(args: &Args) -> imr_core::Caption {
    imr_core::Caption::new(
        args.lang,
        imr_core::provenance::footer_line(args.lang, &args.input.source(), &super::input::today()),
    )
}
