//! The one error type of the dataset build. Every message names the file and, where there is
//! one, the line and column, like "data/raw/sinim/x.csv, line 18, column `v839`: expected a
//! number, found "n/a"".

use std::path::PathBuf;

/// Why the bundled dataset could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DatasetError {
    /// A raw file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A CSV record is malformed (wrong number of fields, bad UTF-8).
    #[error("{path}: {source}")]
    Csv {
        path: PathBuf,
        #[source]
        source: csv::Error,
    },
    /// A header lacks a column the build needs.
    #[error("{path}: missing column `{column}`")]
    MissingColumn { path: PathBuf, column: String },
    /// A value cannot be interpreted.
    #[error("{path}, line {line}, column `{column}`: {message}")]
    Value {
        path: PathBuf,
        line: u64,
        column: String,
        message: String,
    },
    /// The inputs disagree with each other (a commune-year missing, a duplicate, a code unknown).
    #[error("{0}")]
    Inconsistent(String),
    /// The boundary file is not the TopoJSON the build expects.
    #[error("{path}: {message}")]
    Topology { path: PathBuf, message: String },
}
