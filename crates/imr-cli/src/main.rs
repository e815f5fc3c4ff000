//! `imr`: the imr-atlas engine on the command line, for scripts and reproducible output.
//!
//! Exit status: 0 on success; 1 when the input cannot be read or analysed (the message on
//! stderr names the file, line and column); 2 for bad arguments (clap's own convention).

mod commands;

/// mimalloc instead of glibc's allocator: large fits free and reallocate multi-MB vectors, which
/// glibc hands back to the OS each time (see crates/imr-cli/Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "imr",
    version = imr_core::ENGINE_VERSION,
    about = "Infant mortality rates, their inequality across areas, panel models and maps",
    long_about = "imr: the engine of imr-atlas on the command line.\n\n\
        Reads CSV files (delimiter, decimal comma, encoding and header are detected), validates every \
        row (each is used or reported as excluded with its line and reason) and computes infant \
        mortality rates per 1,000 births with exact Poisson intervals, inequality measures per year, \
        panel-data models and choropleth maps. The web page runs the same engine."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rates per 1,000 births by entity and time, with exact Poisson (Garwood) 95% intervals
    Rates(commands::rates::Args),
    /// Inequality of area rates (or any column) per year, its trend, and bootstrap intervals
    Inequality(commands::inequality::Args),
    /// Panel-data models: pooled, fe, twfe, re, be, fd, cre, poisson-fe
    Fit(commands::fit::Args),
    /// Choropleth map of a year as SVG
    Map(commands::map::Args),
    /// Build the bundled Chilean dataset from the raw extracts in data/raw
    Dataset(commands::dataset::Args),
    /// Aggregate the health ministry's deaths (and births) microdata to commune-year counts
    Microdata(commands::microdata::Args),
    /// Simulation study of the adjusted inequality measures on the births of a data file
    Simulate(commands::simulate::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rates(args) => commands::rates::run(args),
        Command::Inequality(args) => commands::inequality::run(args),
        Command::Fit(args) => commands::fit::run(args),
        Command::Map(args) => commands::map::run(args),
        Command::Dataset(args) => commands::dataset::run(args),
        Command::Microdata(args) => commands::microdata::run(args),
        Command::Simulate(args) => commands::simulate::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("imr: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}
