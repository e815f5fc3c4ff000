//! `imr simulate`: the simulation study of the adjusted inequality measures on the
//! births of a data file: known true rates, Poisson deaths, and how the observed, the
//! bootstrap bias-corrected and the adjusted measures recover the true inequality.

use super::input::{load_panel, InputArgs};
use super::CliError;
use imr_core::inequality::simulate::{
    inputs_grid, run as run_scenario, standard_grid, ScenarioResult,
};
use std::io::Write;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// A Markdown table (the README's)
    #[default]
    Markdown,
    /// One JSON document with every scenario's results
    Json,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Grid {
    /// Counted deaths: true CV 0–0.6, births ×1, ×10, ×¼, 5 years of falling births
    #[default]
    Standard,
    /// What the inputs do: births given as a proxy for the true births (ratio 0.91, 0.73),
    /// published rates rounded to 1 or 0.1 and deaths derived back, a falling ratio over 5
    /// years, and a two-point mixture of true rates against a gamma of the same CV
    Inputs,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    /// Year whose births (of every area with births) are used
    #[arg(long, value_name = "YEAR")]
    pub year: i64,
    /// Simulated datasets (replicates) per scenario
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub replicates: usize,
    /// Bootstrap replicates per year for the existing bias-corrected value and `ci` (0: skip)
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub bootstrap: usize,
    /// Seed: the same seed gives the same table
    #[arg(long, value_name = "S", default_value_t = 20_190_101)]
    pub seed: u64,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub format: Format,
    /// Which grid of scenarios
    #[arg(long, value_enum, default_value_t = Grid::Standard)]
    pub grid: Grid,
}

fn pct(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{:.0}%", 100.0 * x)
    }
}

fn num(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        // A truth of 0 computed as −1e−17 prints as 0.000, not −0.000.
        let text = format!("{x:.3}");
        if text == "-0.000" {
            "0.000".into()
        } else {
            text
        }
    }
}

/// A share as a percentage, "–" when there is none (a trend not measured).
fn pct_or_dash(x: Option<f64>) -> String {
    x.map(pct).unwrap_or_else(|| "–".into())
}

/// One row of a results table: the scenario's name and true CV and the measure's name, then
/// the row's `cells`, between Markdown's bars. Both grids' tables write their rows here.
fn table_row(r: &ScenarioResult, measure: &str, cells: &[String]) -> String {
    format!(
        "| {} | {:.2} | {measure} | {} |\n",
        r.scenario.name,
        r.scenario.true_cv,
        cells.join(" | ")
    )
}

fn markdown(results: &[ScenarioResult]) -> String {
    let mut out = String::from(
        "| scenario | true CV | measure | truth | observed | bias-corrected | bias-corrected `ci` covers | adjusted | adjusted bias | adjusted CI covers | excess test rejects | adjusted trend CI covers 0 | observed trend CI excludes 0 |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in results {
        for (name, m) in [("Gini", r.gini), ("Theil T", r.theil_t)] {
            out.push_str(&table_row(
                r,
                name,
                &[
                    num(m.truth_mean),
                    num(m.observed_mean),
                    num(m.bias_corrected_mean),
                    pct(m.bias_corrected_ci_coverage),
                    num(m.adjusted_mean),
                    if m.truth_mean > 1e-9 {
                        format!("{:+.1}%", 100.0 * m.adjusted_relative_bias)
                    } else {
                        "–".into()
                    },
                    pct(m.adjusted_coverage),
                    pct(r.excess_rejects_5pct),
                    pct_or_dash(r.adjusted_trend_covers_zero),
                    pct_or_dash(r.observed_trend_excludes_zero),
                ],
            ));
        }
    }
    out
}

/// The inputs grid's table: the answer as shown is the adjusted value with the range over the
/// births ratio (0.7–1.0) and the rounding bound, and the interval of both together.
fn markdown_inputs(results: &[ScenarioResult]) -> String {
    let mut out = String::from(
        "| scenario | true CV | measure | truth | adjusted (c = 1) | adjusted bias | adjusted CI covers | range over c (mean) | range midpoint bias | CI as shown covers | excess test rejects (c = 1) | rejects at every c | adjusted trend CI covers truth |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let bias = |truth: f64, rel: f64| {
        if truth > 1e-9 && rel.is_finite() {
            format!("{:+.1}%", 100.0 * rel)
        } else {
            "–".into()
        }
    };
    for r in results {
        for (name, m) in [("Gini", r.gini), ("CoV", r.cov)] {
            let range = if m.range_low_mean.is_nan() {
                "–".to_string()
            } else {
                format!("{}–{}", num(m.range_low_mean), num(m.range_high_mean))
            };
            out.push_str(&table_row(
                r,
                name,
                &[
                    num(m.truth_mean),
                    num(m.adjusted_mean),
                    bias(m.truth_mean, m.adjusted_relative_bias),
                    pct(m.adjusted_coverage),
                    range,
                    bias(m.truth_mean, m.range_mid_relative_bias),
                    pct(m.shown_coverage),
                    pct(r.excess_rejects_5pct),
                    pct(r.excess_rejects_5pct_every_ratio),
                    pct_or_dash(r.adjusted_trend_covers_truth),
                ],
            ));
        }
    }
    out
}

pub fn run(args: Args) -> Result<(), CliError> {
    let panel = load_panel(&args.input)?;
    let births: Vec<f64> = panel
        .rows()
        .filter(|r| r.time == args.year)
        .filter_map(|r| r.births)
        .filter(|b| *b > 0.0)
        .collect();
    if births.len() < imr_core::inequality::adjusted::MIN_AREAS {
        return Err(CliError::Usage(format!(
            "--year {}: {} areas with births in the data; at least {} are needed",
            args.year,
            births.len(),
            imr_core::inequality::adjusted::MIN_AREAS
        )));
    }
    let grid = match args.grid {
        Grid::Standard => standard_grid(&births),
        Grid::Inputs => inputs_grid(&births),
    };
    let results: Vec<ScenarioResult> = grid
        .iter()
        .enumerate()
        .map(|(k, s)| run_scenario(s, args.replicates, args.bootstrap, args.seed + k as u64))
        .collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Markdown => {
            let table = match args.grid {
                Grid::Standard => markdown(&results),
                Grid::Inputs => markdown_inputs(&results),
            };
            out.write_all(table.as_bytes())?
        }
        Format::Json => {
            out.write_all(super::json_text(&results)?.as_bytes())?;
        }
    }
    Ok(())
}
