//! `imr`: the imr-atlas engine on the command line, for scripts and reproducible output.
//!
//! Exit status: 0 on success (also when the reader of the output goes away, as `imr … | head`
//! does: the closed pipe ends the run quietly); 1 when the input cannot be read or analysed (the
//! message on stderr names the file, line and column) or an output cannot be written; 2 for bad
//! arguments (clap's own convention). Nothing else: an internal error (a bug) also exits 1, with
//! a message asking for a report, instead of the abort signal of a panic.

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
    /// Write CSV cells exactly as they are. By default a text cell starting with =, +, -, @, tab or
    /// carriage return (a spreadsheet formula; plain numbers such as -1.5 excepted) gets a
    /// leading ' so that a spreadsheet shows it as text (OWASP "CSV injection" guidance)
    #[arg(long, global = true)]
    no_formula_guard: bool,
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
    // A panic is a bug, never an answer to an input: report it and exit 1 (the release profile
    // aborts on panic, which would end with SIGABRT, status 134).
    std::panic::set_hook(Box::new(|info| {
        eprintln!("imr: internal error, please report it with the command and input: {info}");
        std::process::exit(1);
    }));
    let cli = Cli::parse();
    commands::set_csv_options(imr_core::escape::CsvOptions {
        formula_guard: !cli.no_formula_guard,
    });
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
        // The reader closed the pipe (`imr … | head`): nothing more to say, not a failure.
        Err(commands::CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("imr: {err}");
            ExitCode::from(err.exit_code())
        }
    }
}
