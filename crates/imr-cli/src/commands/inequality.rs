//! `imr inequality`: inequality of area rates (or of any weighted column) per year, with
//! bootstrap intervals, trends and notes; as JSON, CSV, or one of the page's SVG charts.

use super::input::{load_panel, InputArgs};
use super::rates::InputSummary;
use super::CliError;
use imr_core::inequality::chart::{box_plot_svg, lorenz_svg, measure_over_years_svg};
use imr_core::inequality::{
    csv::years_csv, AreaObservation, BootstrapSpec, InequalityReport, InequalitySpec, Measure,
    RateInput, Subject, ValueInput, ValueObservation, DEFAULT_REPLICATES, DEFAULT_SEED,
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
    /// Years drawn by --format svg-lorenz, comma-separated
    #[arg(long, value_name = "YEARS", value_delimiter = ',')]
    pub years: Vec<i64>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// A panel row that is not an area of the analysis, and why.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct NotMeasured {
    pub file: String,
    pub line: u64,
    pub entity: String,
    pub time: i64,
    pub reason: String,
}

#[derive(Serialize)]
struct Output<'a> {
    engine_version: &'static str,
    input: InputSummary<'a>,
    /// Panel rows left out of the measures (births or the value missing), with file and line.
    rows_not_measured: &'a [NotMeasured],
    #[serde(flatten)]
    report: &'a InequalityReport,
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

/// The subject of the analysis from the validated panel, and the rows left out with reasons.
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
    for (i, row) in panel.rows.iter().enumerate() {
        let missing = match (&groups, &ranks) {
            (Some(g), _) if g[i].is_none() => Some(("group", args.group.as_deref())),
            (_, Some(r)) if r[i].is_none() => Some(("rank", args.rank.as_deref())),
            _ => None,
        };
        if let Some((flag, Some(col))) = missing {
            return Err(CliError::Input(format!(
                "{}, line {}, column `{col}`: --{flag} needs a value in every row, found none",
                row.file, row.line
            )));
        }
    }
    let group_of = |i: usize| groups.as_ref().and_then(|g| g[i].clone());
    let rank_of = |i: usize| ranks.as_ref().and_then(|r| r[i]);
    let mut left_out = Vec::new();
    let mut leave = |i: usize, reason: String| {
        let row = &panel.rows[i];
        left_out.push(NotMeasured {
            file: row.file.to_string(),
            line: row.line,
            entity: row.entity.clone(),
            time: row.time,
            reason,
        });
    };
    let subject = match (&args.of, &args.weight) {
        (Some(of), Some(weight)) => {
            let values = column(panel, of, "of")?;
            let weights = column(panel, weight, "weight")?;
            let mut observations = Vec::new();
            for (i, row) in panel.rows.iter().enumerate() {
                match (values[i], weights[i]) {
                    (Some(value), Some(w)) => observations.push(ValueObservation {
                        entity: row.entity.clone(),
                        time: row.time,
                        value,
                        weight: w,
                        group: group_of(i),
                        rank: rank_of(i),
                    }),
                    (None, _) => leave(i, format!("`{of}` is missing")),
                    (_, None) => leave(i, format!("`{weight}` is missing")),
                }
            }
            Subject::Values(ValueInput {
                observations,
                value_name: of.clone(),
                weight_name: weight.clone(),
                unit: String::new(),
            })
        }
        _ => {
            if !(panel.has_births && panel.has_deaths) {
                return Err(CliError::Usage(
                    "the data have no births and deaths (or rate) columns: name them with \
                     --births and --deaths, or measure a column with --of COL --weight COL"
                        .into(),
                ));
            }
            let mut observations = Vec::new();
            for (i, row) in panel.rows.iter().enumerate() {
                match (row.deaths, row.births) {
                    (Some(events), Some(exposure)) => observations.push(AreaObservation {
                        entity: row.entity.clone(),
                        time: row.time,
                        events,
                        exposure,
                        group: group_of(i),
                        rank: rank_of(i),
                    }),
                    (None, _) => leave(i, "deaths are missing".into()),
                    (_, None) => leave(i, "births are missing".into()),
                }
            }
            Subject::Rates(RateInput::per_1000(observations, panel.deaths_derived))
        }
    };
    Ok((subject, left_out))
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
        analysis.report.notes.push(format!(
            "{} row(s) were left out of the measures; `rows_not_measured` lists each with its file, line and reason.",
            left_out.len()
        ));
    }
    let report = &analysis.report;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Json => {
            let doc = Output {
                engine_version: imr_core::ENGINE_VERSION,
                input: InputSummary::new(&panel),
                rows_not_measured: &left_out,
                report,
            };
            serde_json::to_writer_pretty(&mut out, &doc).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Csv => out.write_all(years_csv(report).as_bytes())?,
        Format::SvgTrend => out.write_all(measure_over_years_svg(report, measure).as_bytes())?,
        Format::SvgLorenz => {
            out.write_all(lorenz_svg(&analysis.lorenz, &args.years, &report.subject).as_bytes())?
        }
        Format::SvgBox => {
            out.write_all(box_plot_svg(&analysis.box_plots, &report.subject).as_bytes())?
        }
    }
    Ok(())
}
