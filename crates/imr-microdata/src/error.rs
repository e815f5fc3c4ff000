//! Why a microdata file cannot be read at all. Row-level problems are not errors: they are
//! exclusions counted in the aggregate.

/// A file that cannot be aggregated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MicrodataError {
    #[error("the file is empty")]
    Empty,
    #[error(
        "line 1: this is not the health ministry's deaths microdata: {why} (first line: \"{first_line}\")"
    )]
    NotDeathsFile { first_line: String, why: String },
    #[error("the header has no column `{column}` (columns are: {columns})")]
    MissingColumn { column: String, columns: String },
    #[error(
        "column {column} is chosen by name, but the first line is not a header: \"{first_line}\""
    )]
    NoHeader { column: String, first_line: String },
    #[error("line 1: the first line is longer than 1 MiB; is this a text file?")]
    FirstLineTooLong,
}
