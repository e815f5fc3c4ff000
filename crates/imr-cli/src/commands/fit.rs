//! `imr fit`: panel-data models (pooled, fe, twfe, re, be, fd, cre, poisson-fe) of an outcome on
//! commune characteristics, printed as the JSON contract of issue 5, as a coefficient CSV, or as
//! the R code, Stata code, Markdown table or LaTeX table the page's Models view offers (the same
//! `imr_models::report` functions).
//!
//! The numbers come from `imr_core::models` (the crate `imr-models`); this module only maps
//! the validated panel to the engine's plain data and prints the result.

use super::input::{load_panel, InputArgs};
use super::CliError;
use imr_core::models::{
    parse_fixed_effects, report, Estimator, FixedEffect, ModelColumns, PanelData, PanelSpec,
    VcovKind,
};
use imr_core::panel::Panel;
use std::io::Write;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum Format {
    /// The fit as one JSON document (coefficients, dropped terms, R², variance components, tests)
    #[default]
    Json,
    /// The coefficient table as CSV
    Csv,
    /// R code (fixest/plm) that reproduces the fit from the (first) input file
    R,
    /// Stata code that reproduces the fit from the (first) input file
    Stata,
    /// The regression table as Markdown (GitHub pipe table)
    Markdown,
    /// The regression table as a LaTeX tabular (booktabs)
    Latex,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum Model {
    /// Pooled OLS with intercept
    Pooled,
    /// Entity fixed effects (within)
    #[default]
    Fe,
    /// Entity and year fixed effects
    Twfe,
    /// Random effects, Swamy–Arora
    Re,
    /// Between (OLS on entity means)
    Be,
    /// First differences, no intercept
    Fd,
    /// Mundlak correlated random effects (re + entity means)
    Cre,
    /// Poisson with entity effects; --exposure enters as log offset
    #[value(name = "poisson-fe")]
    PoissonFe,
}

impl Model {
    fn estimator(self) -> Estimator {
        match self {
            Model::Pooled => Estimator::Pooled,
            Model::Fe => Estimator::Fe,
            Model::Twfe => Estimator::Twfe,
            Model::Re => Estimator::Re,
            Model::Be => Estimator::Be,
            Model::Fd => Estimator::Fd,
            Model::Cre => Estimator::Cre,
            Model::PoissonFe => Estimator::PoissonFe,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum Vcov {
    /// Classical (fe: s² = SSR/(N − G − k), as Stata xtreg, fe and plm)
    Iid,
    /// White heteroskedasticity-robust, n/(n − K)
    Hc1,
    /// Clustered by entity, CR1: G/(G−1)·(N−1)/(N−K), as Stata vce(cluster); t with G − 1 df
    #[default]
    Cluster,
}

impl Vcov {
    fn kind(self) -> VcovKind {
        match self {
            Vcov::Iid => VcovKind::Iid,
            Vcov::Hc1 => VcovKind::Hc1,
            Vcov::Cluster => VcovKind::Cluster,
        }
    }
}

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
    #[arg(long, value_enum, default_value_t = Model::Fe)]
    pub model: Model,
    /// Standard errors
    #[arg(long, value_enum, default_value_t = Vcov::Cluster)]
    pub vcov: Vcov,
    /// Weights column for the linear models (e.g. births)
    #[arg(long, value_name = "COL")]
    pub weights: Option<String>,
    /// Exposure column for poisson-fe (e.g. births), entering as log offset
    #[arg(long, value_name = "COL")]
    pub exposure: Option<String>,
    /// Fixed effects to absorb (with --model fe), comma-separated; `^` interacts columns as in
    /// fixest, e.g. `--fe commune,year,region^year` (any column of the input, text or numeric,
    /// or `entity`/`time`). Removed by alternating projections; singletons (rows alone in a level)
    /// are removed repeatedly and counted; standard errors as pyfixest (CR1 by entity, effects
    /// nested in the entities not counted in the small-sample factor)
    #[arg(long, value_name = "COL[^COL][,…]")]
    pub fe: Option<String>,
    /// Confidence level of the intervals
    #[arg(long, default_value_t = 0.95)]
    pub level: f64,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

/// The engine's plain data from the validated panel, through the adapter the page shares
/// ([`ModelColumns::panel_data`]); rows are labelled by their line number.
fn panel_data(panel: &Panel, args: &Args) -> Result<PanelData, CliError> {
    let columns = ModelColumns {
        y: args.y.clone(),
        x: regressors(panel, &args.x),
        weights: args.weights.clone(),
        exposure: args.exposure.clone(),
    };
    panel.model_data(&columns).map_err(|missing| {
        CliError::Usage(format!(
            "{missing} (numeric columns: {})",
            panel.numeric_names.join(", ")
        ))
    })
}

/// Adds the `--fe` fixed effects: each term's columns as keys, interacted when joined by `^`.
fn absorb(panel: &Panel, spec: &str, mut data: PanelData) -> Result<PanelData, CliError> {
    let terms = parse_fixed_effects(spec).map_err(|e| CliError::Usage(e.to_string()))?;
    for term in terms {
        let mut parts = Vec::with_capacity(term.len());
        for name in &term {
            let keys = panel.key_column(name).ok_or_else(|| {
                let mut columns = vec![panel.entity_column.clone(), panel.time_column.clone()];
                columns.extend(panel.text_names.iter().cloned());
                columns.extend(panel.numeric_names.iter().cloned());
                CliError::Usage(format!(
                    "--fe {name}: no column `{name}` in the input (columns: {})",
                    columns.join(", ")
                ))
            })?;
            parts.push(FixedEffect::from_keys(name.as_str(), keys));
        }
        data = data.absorb(if parts.len() == 1 {
            parts.remove(0)
        } else {
            FixedEffect::interact(&parts)
        });
    }
    Ok(data)
}

/// The regressor names of the `--x` values: a value naming a column is that column; any other
/// value is split at its commas.
fn regressors(panel: &Panel, values: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    for value in values {
        if panel.numeric_column(value).is_some() {
            names.push(value.clone());
        } else {
            names.extend(value.split(',').map(str::to_string));
        }
    }
    names
}

pub fn run(args: Args) -> Result<(), CliError> {
    let panel = load_panel(&args.input)?;
    let mut data = panel_data(&panel, &args)?;
    if let Some(spec) = &args.fe {
        data = absorb(&panel, spec, data)?;
    }
    let spec = PanelSpec::new(args.model.estimator())
        .with_vcov(args.vcov.kind())
        .with_conf_level(args.level);
    let fit = spec
        .fit(&data)
        .map_err(|e| CliError::Input(format!("{} model: {e}", args.model.estimator())))?;
    let csv_file = args
        .input
        .files
        .first()
        .map(|f| f.display().to_string())
        .unwrap_or_default();
    let ctx = report::CodeContext {
        csv_file: &csv_file,
        entity: &panel.entity_column,
        time: &panel.time_column,
        comment_lines: panel
            .report
            .files
            .first()
            .map_or(0, |f| f.metadata_lines.len()),
    };
    if matches!(args.format, Format::R | Format::Stata) && args.input.files.len() > 1 {
        eprintln!(
            "imr fit: the code reads {csv_file} only; the other files' columns must be joined into it first"
        );
    }
    let text = match args.format {
        Format::Json => fit.to_json() + "\n",
        Format::Csv => args
            .input
            .with_csv_header(&report::coefficients_csv_with(&fit, super::csv_options())),
        Format::R => report::r_code(&fit, &ctx),
        Format::Stata => report::stata_code(&fit, &ctx),
        Format::Markdown => report::markdown_table(std::slice::from_ref(&fit)),
        Format::Latex => report::latex_table(std::slice::from_ref(&fit)),
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
