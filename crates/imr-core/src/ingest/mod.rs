//! From uploaded files to a validated panel: decode, sniff, split, guess column roles, validate
//! every row, join characteristics.
//!
//! Every data record of every file ends either used or in [`IngestReport::excluded`] with its
//! file, line and reason; `rows_read = rows_used + rows_excluded` always holds.

pub mod codes;
pub mod columns;
pub mod decode;
pub mod number;
pub mod sniff;
pub mod table;
mod validate;

pub use columns::{ColumnRoles, Role};
pub use decode::Encoding;
pub use sniff::{Decimal, Dialect};
pub use table::{MetadataLine, RawRecord, RawTable};
pub use validate::{build_panel, CodeSystem, IngestOptions};

use serde::Serialize;

/// A file that cannot be read or used at all. Row-level problems are not errors: they are
/// exclusions in the report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum IngestError {
    #[error("{file}: the file is empty")]
    Empty { file: String },
    #[error("{file}: this looks like a binary file, not text (a zero byte at offset {byte_offset}); export it as CSV")]
    Binary { file: String, byte_offset: usize },
    #[error("{file}, line {line}: cannot split the file into fields: {message}")]
    Malformed {
        file: String,
        line: u64,
        message: String,
    },
    #[error("{file}: no column for the {role} (columns are: {columns}); choose one")]
    MissingRole {
        file: String,
        role: &'static str,
        columns: String,
    },
    #[error("no file has a column named `{column}` (columns are: {columns})")]
    UnknownColumn { column: String, columns: String },
    #[error("no files to read")]
    NoFiles,
    #[error("{file}: no usable rows: all {rows_read} rows were excluded (first: line {first_line}, {first_reason})")]
    NoUsableRows {
        file: String,
        rows_read: usize,
        first_line: u64,
        first_reason: String,
    },
}

/// Why a row was not used.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExclusionReason {
    NonNumeric {
        column: String,
        value: String,
    },
    NotAYear {
        column: String,
        value: String,
    },
    NegativeCount {
        column: String,
        value: f64,
    },
    DeathsExceedBirths {
        deaths: f64,
        births: f64,
    },
    MissingValue {
        column: String,
    },
    MissingEntity {
        column: String,
    },
    MissingTime {
        column: String,
    },
    DuplicateEntityTime {
        entity: String,
        time: i64,
        first_line: u64,
        /// The file of the first row, when it is another file.
        first_file: Option<String>,
    },
    DuplicateEntity {
        entity: String,
        first_line: u64,
    },
    UnknownCode {
        code: String,
    },
    WrongFieldCount {
        expected: usize,
        found: usize,
    },
    NotJoined {
        entity: String,
        time: Option<i64>,
    },
}

impl ExclusionReason {
    /// The reason in `lang`: English is the `Display` text (the JSON's `reason`), Spanish for
    /// the page in Spanish.
    pub fn text(&self, lang: crate::Lang) -> String {
        use ExclusionReason::*;
        if lang == crate::Lang::En {
            return self.to_string();
        }
        match self {
            NonNumeric { column, value } => {
                format!("columna `{column}`: se esperaba un número y dice \"{value}\"")
            }
            NotAYear { column, value } => {
                format!("columna `{column}`: se esperaba un año entero y dice \"{value}\"")
            }
            NegativeCount { column, value } => {
                format!("columna `{column}`: conteo negativo {value}")
            }
            DeathsExceedBirths { deaths, births } => {
                format!("las defunciones ({deaths}) superan a los nacimientos ({births})")
            }
            MissingValue { column } => format!("columna `{column}`: valor faltante"),
            MissingEntity { column } => format!("columna `{column}`: falta el código"),
            MissingTime { column } => format!("columna `{column}`: falta el año"),
            DuplicateEntityTime {
                entity,
                time,
                first_line,
                first_file: None,
            } => format!("duplicado de la línea {first_line} ({entity}, {time})"),
            DuplicateEntityTime {
                entity,
                time,
                first_line,
                first_file: Some(file),
            } => format!("duplicado de {file}, línea {first_line} ({entity}, {time})"),
            DuplicateEntity { entity, first_line } => {
                format!("duplicado de la línea {first_line} ({entity})")
            }
            UnknownCode { code } => {
                format!("código de comuna desconocido \"{code}\" (no está en la lista CUT 2018)")
            }
            WrongFieldCount { expected, found } => {
                format!("se esperaban {expected} campos y hay {found}")
            }
            NotJoined {
                entity,
                time: Some(t),
            } => format!("ninguna fila de los datos principales para {entity} en {t}"),
            NotJoined { entity, time: None } => {
                format!("ninguna fila de los datos principales para {entity}")
            }
        }
    }
}

impl std::fmt::Display for ExclusionReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use ExclusionReason::*;
        match self {
            NonNumeric { column, value } => {
                write!(f, "column `{column}`: expected a number, found \"{value}\"")
            }
            NotAYear { column, value } => write!(
                f,
                "column `{column}`: expected a whole year, found \"{value}\""
            ),
            NegativeCount { column, value } => {
                write!(f, "column `{column}`: negative count {value}")
            }
            DeathsExceedBirths { deaths, births } => {
                write!(f, "deaths ({deaths}) exceed births ({births})")
            }
            MissingValue { column } => write!(f, "column `{column}`: missing value"),
            MissingEntity { column } => write!(f, "column `{column}`: missing code"),
            MissingTime { column } => write!(f, "column `{column}`: missing year"),
            DuplicateEntityTime {
                entity,
                time,
                first_line,
                first_file: None,
            } => {
                write!(f, "duplicate of line {first_line} ({entity}, {time})")
            }
            DuplicateEntityTime {
                entity,
                time,
                first_line,
                first_file: Some(file),
            } => {
                write!(
                    f,
                    "duplicate of {file}, line {first_line} ({entity}, {time})"
                )
            }
            DuplicateEntity { entity, first_line } => {
                write!(f, "duplicate of line {first_line} ({entity})")
            }
            UnknownCode { code } => write!(
                f,
                "unknown commune code \"{code}\" (not in the 2018 CUT list)"
            ),
            WrongFieldCount { expected, found } => {
                write!(f, "expected {expected} fields, found {found}")
            }
            NotJoined {
                entity,
                time: Some(t),
            } => write!(f, "no row of the main data for {entity} in {t}"),
            NotJoined { entity, time: None } => write!(f, "no row of the main data for {entity}"),
        }
    }
}

/// One excluded row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exclusion {
    pub file: String,
    pub line: u64,
    /// The reason in words, e.g. `column `deaths`: expected a number, found "n/a"`.
    pub reason: String,
    #[serde(skip)]
    pub kind: ExclusionReason,
}

/// A cell read as missing although it was not empty (text in a numeric covariate column).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellWarning {
    pub file: String,
    pub line: u64,
    pub column: String,
    pub value: String,
}

/// How one file was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileReport {
    pub file: String,
    /// "main" (rows of the panel) or "characteristics" (joined onto it).
    pub kind: &'static str,
    pub delimiter: String,
    pub decimal: String,
    pub encoding: &'static str,
    pub has_header: bool,
    /// Leading `#` lines (an export's source, engine and date): skipped, not data rows, not
    /// counted in `rows_read`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metadata_lines: Vec<MetadataLine>,
    pub rows_read: usize,
    pub rows_used: usize,
    pub rows_excluded: usize,
    /// Column name per role, as used.
    pub roles: std::collections::BTreeMap<&'static str, String>,
    /// How the key was joined for characteristics files: "entity" or "entity and time".
    pub join: Option<&'static str>,
}

/// What happened to every row of every file.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IngestReport {
    pub rows_read: usize,
    pub rows_used: usize,
    pub rows_excluded: usize,
    pub excluded: Vec<Exclusion>,
    pub files: Vec<FileReport>,
    /// Pre-2018 Ñuble codes (084xx) re-coded to 16xxx.
    pub recoded_codes: usize,
    /// Rows of a main file merged into the row of the same area and time from another main
    /// file because they carry the counts it lacks (births in one file, deaths in the other, as
    /// the health ministry publishes them). They count as used.
    pub merged_rows: usize,
    pub cell_warnings: Vec<CellWarning>,
}

/// The printable name of a delimiter byte.
pub fn delimiter_label(delimiter: u8) -> String {
    match delimiter {
        b'\t' => "\\t".into(),
        d => (d as char).to_string(),
    }
}
