//! (in progress)
use super::CliError;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::Usage("this subcommand is not built yet".into()))
}
