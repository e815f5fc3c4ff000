//! The one error type of the command line; each error is reported once, in `main`.

/// What went wrong, with the exit status it maps to.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The input cannot be read or analysed (exit 1). The message names file, line and column.
    #[error("{0}")]
    Input(String),
    /// Arguments that parse but do not make sense together (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed (exit 1).
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Input(_) | CliError::Io(_) => 1,
        }
    }
}
