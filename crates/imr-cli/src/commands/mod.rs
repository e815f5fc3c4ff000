//! One module per subcommand; each has `Args` (clap) and `run(Args) -> Result<(), CliError>`.

pub mod dataset;
pub mod error;
pub mod fit;
pub mod inequality;
pub mod input;
pub mod map;
pub mod microdata;
pub mod rates;
pub mod simulate;

pub use error::CliError;
