//! `imr`: the imr-atlas engine on the command line, for scripts and reproducible output.
//!
//! Exit status: 0 on success (also when the reader of the output goes away, as `imr … | head`
//! does: the closed pipe ends the run quietly); 1 when the input cannot be read or analysed (the
//! message on stderr names the file, line and column) or an output cannot be written; 2 for bad
//! arguments (clap's own convention). Nothing else: an internal error (a bug) also exits 1, with
//! a message asking for a report, instead of the abort signal of a panic.

use clap::Parser;
use imr_cli::{commands, Cli};
use std::process::ExitCode;

/// mimalloc instead of glibc's allocator: large fits free and reallocate multi-MB vectors, which
/// glibc hands back to the OS each time (see crates/imr-cli/Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    imr_cli::memory::return_freed_memory_at_once();
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
    commands::set_csv_lang(cli.csv_lang);
    match commands::input::fixed_date(
        std::env::var_os(commands::input::SOURCE_DATE_EPOCH).as_deref(),
    ) {
        Ok(Some(date)) => commands::input::set_fixed_date(date),
        Ok(None) => {}
        Err(err) => {
            eprintln!("imr: {err}");
            return ExitCode::from(err.exit_code());
        }
    }
    let result = cli.command.run();
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
