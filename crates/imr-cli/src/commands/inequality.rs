//! `imr inequality`: inequality of area rates (or of any weighted column) per year, with
//! bootstrap intervals, trends and notes; as JSON, CSV, or one of the page's SVG charts.

use super::input::{load_panel, InputArgs};
use super::rates::InputSummary;
use super::CliError;
use imr_core::inequality::adjusted::AdjustedCorrelation;
use imr_core::inequality::chart::{box_plot_svg_flagged, lorenz_svg_in, measure_over_years_svg_in};
use imr_core::inequality::panel_input::{subject_from_rows, Column, SubjectColumns};
use imr_core::inequality::{
    correlate_reports_adjusted, csv::years_csv, BootstrapSpec, InequalityReport, InequalitySpec,
    Measure, Subject, DEFAULT_REPLICATES, DEFAULT_SEED,
};
use imr_core::panel::Panel;
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
    /// Scale the box plot's axis (--format svg-box) to the rates flagged as implausible too (by
    /// default, as on the page, flagged outliers stay off the axis and are drawn at its edge as
    /// "off scale")
    #[arg(long)]
    pub include_flagged: bool,
}

pub use imr_core::inequality::panel_input::NotMeasured;

#[derive(Serialize)]
struct Output<'a> {
    engine_version: &'static str,
    input: InputSummary<'a>,
    /// Panel rows left out of the measures (births or the value missing), with file and line.
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

fn column(panel: &Panel, name: &str, flag: &str) -> Result<Vec<Option<f64>>, CliError> {
    panel.numeric_column(name).ok_or_else(|| {
        CliError::Usage(format!(
            "--{flag}: no numeric column named `{name}` (numeric columns are: {})",
            panel.numeric_variables().join(", ")
        ))
    })
}

fn keys(panel: &Panel, name: &str, flag: &str) -> Result<Vec<Option<String>>, CliError> {
    panel.key_column(name).ok_or_else(|| {
        CliError::Usage(format!(
            "--{flag}: no column named `{name}` (columns are: {}, {})",
            panel.numeric_variables().join(", "),
            panel.text_names.join(", ")
        ))
    })
}

/// The subject of the analysis from the validated panel, and the rows left out with reasons
/// (the shared adaptation of [`subject_from_rows`], which the page calls too).
/// A row missing its group or rank is an error (it would silently change the decomposition or
/// the gradient); a row missing births, deaths, the value or the weight is listed and left out.
pub fn subject_from_panel(
    panel: &Panel,
    args: &Args,
) -> Result<(Subject, Vec<NotMeasured>), CliError> {
    let groups = args
        .group
        .as_deref()
        .map(|g| keys(panel, g, "group"))
        .transpose()?;
    let ranks = args
        .rank
        .as_deref()
        .map(|r| column(panel, r, "rank"))
        .transpose()?;
    let values = match (&args.of, &args.weight) {
        (Some(of), Some(weight)) => {
            Some((column(panel, of, "of")?, column(panel, weight, "weight")?))
        }
        _ => None,
    };
    let subject = match (&values, &args.of, &args.weight) {
        (Some((values, weights)), Some(of), Some(weight)) => SubjectColumns::Values {
            values: Column {
                name: of,
                cells: values,
            },
            weights: Column {
                name: weight,
                cells: weights,
            },
        },
        _ => {
            if !(panel.has_births && panel.has_deaths) {
                return Err(CliError::Usage(
                    "the data have no births and deaths (or rate) columns: name them with \
                     --births and --deaths, or measure a column with --of COL --weight COL"
                        .into(),
                ));
            }
            SubjectColumns::Rates {
                deaths_derived: panel.deaths_derived,
            }
        }
    };
    let rows = panel.inequality_rows();
    let group = match (&args.group, &groups) {
        (Some(name), Some(cells)) => Some(Column { name, cells }),
        _ => None,
    };
    let rank = match (&args.rank, &ranks) {
        (Some(name), Some(cells)) => Some(Column { name, cells }),
        _ => None,
    };
    subject_from_rows(&rows, subject, group, rank).map_err(|e| {
        CliError::Input(format!(
            "{}, line {}, column `{}`: --{} needs a value in every row, found none",
            e.file,
            e.line,
            e.column,
            e.role.flag()
        ))
    })
}

pub fn run(args: Args) -> Result<(), CliError> {
    let measure = Measure::from_key(&args.measure).ok_or_else(|| {
        CliError::Usage(format!(
            "--measure: unknown measure `{}` (use a key of the JSON output, e.g. gini, theil_t, pooled_rate)",
            args.measure
        ))
    })?;
    let panel = load_panel(&args.input)?;
    let (subject, left_out) = subject_from_panel(&panel, &args)?;
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: args.bootstrap,
            seed: args.seed,
            level: 0.95,
        },
    };
    let mut analysis = spec
        .analyse(&subject)
        .map_err(|e| CliError::Input(e.to_string()))?;
    if !left_out.is_empty() {
        analysis
            .report
            .notes
            .push(imr_core::inequality::Note::RowsLeftOut {
                count: left_out.len(),
            });
    }
    let report = &analysis.report;
    let (correlation_adjusted, against_left_out) = match (&args.against, &args.against_weight) {
        (Some(against), Some(weight)) => {
            let (c, left) = correlation_against(&panel, &args, &spec, report, against, weight)?;
            (Some(c), Some(left))
        }
        _ => (None, None),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Json => {
            let doc = Output {
                engine_version: imr_core::ENGINE_VERSION,
                input: InputSummary::new(&panel),
                rows_not_measured: &left_out,
                report,
                correlation_adjusted,
                against_rows_not_measured: against_left_out.as_deref(),
            };
            serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::from)?;
            writeln!(out)?;
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
            // The page's rule: rows flagged as implausible (rates only) stay off the axis scale.
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
    }
    Ok(())
}

/// The adjusted correlation of `report` (infant mortality) with the Gini of `against` weighted
/// by `weight`: the second series is measured like `--of against --weight weight` without
/// bootstrap (the correlation uses its point values). `None` (JSON null) when the IMR has no
/// adjusted Gini in at least 4 common years. Also the rows the second series left out.
fn correlation_against(
    panel: &Panel,
    args: &Args,
    spec: &InequalitySpec,
    report: &InequalityReport,
    against: &str,
    weight: &str,
) -> Result<(Option<AdjustedCorrelation>, Vec<NotMeasured>), CliError> {
    let second = Args {
        of: Some(against.to_string()),
        weight: Some(weight.to_string()),
        group: None,
        rank: None,
        against: None,
        against_weight: None,
        input: args.input.clone(),
        bootstrap: 0,
        seed: args.seed,
        measure: args.measure.clone(),
        lang: args.lang,
        years: Vec::new(),
        format: args.format,
        include_flagged: args.include_flagged,
    };
    let (subject, left_out) = subject_from_panel(panel, &second)?;
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 0,
            ..spec.bootstrap
        },
    };
    let other = spec
        .analyse(&subject)
        .map_err(|e| CliError::Input(format!("--against {against}: {e}")))?;
    Ok((correlate_reports_adjusted(report, &other.report), left_out))
}

/// A chart's language and provenance line (input files, engine, today's date).
fn caption(args: &Args) -> imr_core::Caption {
    imr_core::Caption::new(
        args.lang,
        imr_core::provenance::footer_line(args.lang, &args.input.source(), &super::input::today()),
    )
}
