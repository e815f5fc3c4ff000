//! `imr fit`: panel-data models (pooled, fe, twfe, re, be, fd, cre, poisson-fe) of an outcome on
//! commune characteristics, printed as the JSON contract (README, "The `imr` command"), as a coefficient CSV, or as
//! the R code, Stata code, Markdown table or LaTeX table the page's Models view offers (the same
//! `imr_models::report` functions).
//!
//! The arguments become an [`imr_core::request::FitRequest`], which the page's Models view
//! builds from its controls too; this module parses, runs the request and prints the result.

use super::input::{load_panel_with, InputArgs};
use super::rates::InputSummary;
use super::CliError;
use imr_core::ingest::{IngestOptions, IngestReport};
use imr_core::models::{report, Estimator, Fit, VcovKind};
use imr_core::request::{FitExport, FitRequest, RequestError, DEFAULT_LEVEL};
use serde::Serialize;
use std::io::Write;

export_format!(
    /// What `imr fit` writes: the JSON document, or one of the files the Models view downloads
    /// ([`FitExport`]), for the one fit.
    Format,
    FitExport,
    "The fit as one JSON document (coefficients, dropped terms, R², variance components, tests)"
);

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    /// Outcome column (e.g. rate, deaths, or any numeric column)
    #[arg(long, value_name = "COL")]
    pub y: String,
    /// Regressor columns: repeat the flag (--x A --x B) or separate them by commas (--x A,B). A
    /// value that is exactly a column's name is that one column, so a name holding a comma is
    /// given whole (--x 'income, 2017')
    #[arg(long, value_name = "COL[,COL…]", required = true)]
    pub x: Vec<String>,
    /// Estimator
    #[arg(long, value_enum, default_value_t = Estimator::Fe)]
    pub model: Estimator,
    /// Standard errors
    #[arg(long, value_enum, default_value_t = VcovKind::Cluster)]
    pub vcov: VcovKind,
    /// Weights column for the linear models (e.g. births)
    #[arg(long, value_name = "COL")]
    pub weights: Option<String>,
    /// Exposure column for poisson-fe (e.g. births), entering as log offset
    #[arg(long, value_name = "COL")]
    pub exposure: Option<String>,
    /// Fixed effects to absorb (with --model fe, or poisson-fe as pyfixest's fepois),
    /// comma-separated; `^` interacts columns as in fixest, e.g. `--fe commune,year,region^year`
    /// (any column of the input, text or numeric, or `entity`/`time`). Removed by alternating
    /// projections; singletons (rows alone in a level) and, for poisson-fe, levels whose
    /// outcome is zero in every row are removed repeatedly and listed; standard errors as
    /// pyfixest (CR1 by entity, effects nested in the clusters not counted in the small-sample
    /// factor). Rows that repeat an (entity, time) key are kept: absorbed effects do not need
    /// the key unique
    #[arg(long, value_name = "COL[^COL][,…]")]
    pub fe: Option<String>,
    /// Cluster the standard errors of a fit with absorbed effects (--fe) by this column (any
    /// column, text or numeric, or `entity`/`time`) instead of the entity; two columns `a,b`
    /// cluster two-way as fixest's `cluster = ~a + b` (Cameron, Gelbach & Miller 2011). Small-
    /// sample factor as pyfixest: G/(G−1)·(N−1)/(N−K), G the smaller number of clusters
    #[arg(long, value_name = "COL[,COL]")]
    pub cluster: Option<String>,
    /// Confidence level of the intervals
    #[arg(long, default_value_t = DEFAULT_LEVEL)]
    pub level: f64,
    /// Keep the rows flagged as implausible (e.g. a rate of 1000 per 1,000 on 9 births); by
    /// default, as in `imr inequality`, `imr findings` and the page, they are left out and
    /// listed in `excluded_rows` with their reasons
    #[arg(long)]
    pub include_flagged: bool,
    /// Keep a year whose values repeat the previous year's in nearly every area (a year the
    /// source copied); by default, as in `imr inequality`'s trends and `imr findings`' models,
    /// its rows are left out and listed in `excluded_rows` (a copy is not a second observation),
    /// and the R and Stata code drop them too
    #[arg(long)]
    pub include_repeated_years: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Language of the Markdown and LaTeX tables (words, and in Spanish numbers with a decimal
    /// comma and thousands point): en or es. JSON, CSV, R and Stata are the same in both (the
    /// CSV's language is the global --csv-lang)
    #[arg(long, value_name = "LANG", default_value = "en")]
    pub lang: imr_core::Lang,
}

impl From<&Args> for FitRequest {
    /// The request of the parsed arguments (the output format and the input aside).
    fn from(args: &Args) -> FitRequest {
        FitRequest {
            y: args.y.clone(),
            x: args.x.clone(),
            model: args.model,
            vcov: args.vcov,
            weights: args.weights.clone(),
            exposure: args.exposure.clone(),
            fe: args.fe.clone(),
            cluster: args.cluster.clone(),
            level: args.level,
            include_flagged: args.include_flagged,
            include_repeated_years: args.include_repeated_years,
        }
    }
}

/// A request error in the words of the command line: the flag that names the column or option.
fn cli_error(err: RequestError) -> CliError {
    match err {
        RequestError::FixedEffects(error) => CliError::Usage(format!("--fe: {error}")),
        RequestError::NoRates => CliError::Input(
            "poisson-fe model: the data have no births and deaths (or rate) columns: name them \
             with --births and --deaths, or give --y and --exposure"
                .into(),
        ),
        RequestError::NoRegressors => CliError::Usage("give at least one regressor (--x)".into()),
        RequestError::Level(level) => CliError::Input(format!(
            "--level: the confidence level must be between 0 and 1, got {level}"
        )),
        RequestError::AbsorbedNeedsWithin { model } => CliError::Input(format!(
            "{model} model: absorbed fixed effects (--fe) go with the within model and \
             poisson-fe; `{model}` does not take them (use --model fe or --model poisson-fe)"
        )),
        RequestError::ClusterNeedsAbsorbedAndClustered { cluster } => CliError::Usage(format!(
            "--cluster {cluster}: clusters other than the entity go with absorbed fixed effects \
             (--fe) and --vcov cluster"
        )),
        RequestError::WeightsNotSupported { model } => CliError::Input(format!(
            "{model} model: weights are available for pooled, fe and twfe; `{model}` is fitted \
             unweighted in R plm and Stata, so drop --weights{}",
            if model == Estimator::PoissonFe {
                " (for rates use --exposure, which enters as a log offset)"
            } else {
                ""
            }
        )),
        other => super::request_error(other),
    }
}

/// What became of every data row of the input files in a fit: each is excluded on reading
/// (`input.excluded`: file, line, reason, and for a repeated key the line it repeats), merged
/// into the row of the same area and time of another main file, a row of a characteristics
/// file joined onto the panel, excluded by the model (`excluded_rows`: missing values,
/// singletons, groups whose outcome cannot vary), or used by the model, so
/// `rows_read = excluded_at_input + merged_rows + characteristics_rows + excluded_by_model +
/// used_by_model`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FitRows {
    pub rows_read: usize,
    pub excluded_at_input: usize,
    pub merged_rows: usize,
    pub characteristics_rows: usize,
    /// Rows of the panel handed to the model (`excluded_by_model + used_by_model`).
    pub panel_rows: usize,
    pub excluded_by_model: usize,
    pub used_by_model: usize,
}

impl FitRows {
    /// The accounting of a fit on a panel of `panel_rows` rows read as `report` says.
    pub fn new(report: &IngestReport, panel_rows: usize, fit: &Fit) -> FitRows {
        let characteristics_rows = report
            .files
            .iter()
            .filter(|f| f.kind == "characteristics")
            .map(|f| f.rows_used)
            .sum();
        FitRows {
            rows_read: report.rows_read,
            excluded_at_input: report.rows_excluded,
            merged_rows: report.merged_rows,
            characteristics_rows,
            panel_rows,
            excluded_by_model: fit.rows_excluded,
            used_by_model: panel_rows.saturating_sub(fit.rows_excluded),
        }
    }
}

/// The JSON document of `imr fit --format json`: the fit's fields, then the input report
/// (every file's rows, every exclusion with its line and reason) and the row accounting.
#[derive(Serialize)]
pub struct FitDocument<'a> {
    #[serde(flatten)]
    pub fit: &'a Fit,
    pub input: InputSummary<'a>,
    pub rows: FitRows,
}

impl FitDocument<'_> {
    /// The document's text (pretty JSON and a final newline).
    pub fn to_json(&self) -> Result<String, CliError> {
        super::json_text(self)
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let request = FitRequest::from(&args);
    // Absorbed effects need no unique (entity, time) key: rows that repeat one are kept
    // (pyfixest and fixest keep them too); every other model reads one row per key, and a
    // repeat is excluded naming the line it repeats.
    // Data without a time column are a cross-section (one period): pooled OLS, or absorbed
    // effects and clusters of other columns.
    let options = IngestOptions {
        keep_repeated_keys: request.fe.is_some(),
        time_optional: true,
        ..IngestOptions::default()
    };
    let mut panel = load_panel_with(&args.input, &options)?;
    let rate_lag = panel.report.files.iter().find_map(|f| f.rate_lag);
    if let (Format::File(export), Some(lag)) = (args.format, rate_lag) {
        if export.is_code() {
            return Err(CliError::Usage(format!(
                "--format {}: the R and Stata code derive each row's deaths from the rate in its own row and do not move the rates by --rate-lag {lag}; write the code for the Models view's analysis data (imr_modelos_datos.csv, whose deaths carry the lag), or leave out --rate-lag",
                export.format()
            )));
        }
    }
    let validated = request.validate(&panel).map_err(cli_error)?;
    let copies_left_out = validated.copies_left_out().to_vec();
    // What the code exports need of the panel; the panel itself is dropped before the fit,
    // which holds the model's own copy of the columns (peak memory).
    let (entity_column, time_column) = (panel.entity_column.clone(), panel.time_column.clone());
    let first_file = panel.report.files.first();
    let comment_lines = first_file.map_or(0, |f| f.metadata_lines.len());
    let role = |name: &str| first_file.and_then(|f| f.roles.get(name).cloned());
    let (births, deaths, rate) = (role("births"), role("deaths"), role("rate"));
    // the year given to the rows of a first file without a year column (`--time-value`); a
    // cross-section (no year column, no year given) is read as one period, time 0, and its
    // code makes that column, named `year`, the same way (the command then says
    // `--time-value 0`, which reads the file alike)
    let (time_column, time_value) = match first_file.and_then(|f| f.time_given) {
        None if time_column.is_empty() => ("year".to_string(), Some(0)),
        given => (time_column, given),
    };
    // the report writes a tab as `\t`
    let delimiter = first_file.map_or(',', |f| match f.delimiter.as_str() {
        "\\t" => '\t',
        other => other.chars().next().unwrap_or(','),
    });
    let decimal = first_file.map_or('.', |f| f.decimal.chars().next().unwrap_or('.'));
    let input_report = std::mem::take(&mut panel.report);
    let (panel_rows, deaths_derived) = (panel.len(), panel.deaths_derived);
    drop(panel);
    let fit = validated.run().map_err(cli_error)?;
    // The code runs from the folder holding the data file: it names the file alone.
    let csv_file = args
        .input
        .files
        .first()
        .map(|f| {
            f.file_name().map_or_else(
                || f.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .unwrap_or_default();
    let ctx = report::CodeContext {
        csv_file: &csv_file,
        entity: &entity_column,
        time: &time_column,
        time_value,
        comment_lines,
        delimiter,
        decimal,
        births: births.as_deref(),
        deaths: deaths.as_deref(),
        rate: rate.as_deref(),
        drop_flagged: !request.include_flagged,
        drop_years: &copies_left_out,
    };
    if matches!(args.format, Format::File(e) if e.is_code()) && args.input.files.len() > 1 {
        eprintln!(
            "imr fit: the code reads {csv_file} only; the other files' columns must be joined into it first"
        );
    }
    let text = match args.format {
        Format::Json => FitDocument {
            fit: &fit,
            input: InputSummary::of(&input_report, deaths_derived),
            rows: FitRows::new(&input_report, panel_rows, &fit),
        }
        .to_json()?,
        Format::File(export) => {
            let text = export.write(
                std::slice::from_ref(&fit),
                &ctx,
                super::csv_options(),
                args.lang,
            );
            if export.is_csv() {
                args.input.with_csv_header(&text)
            } else {
                text
            }
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
