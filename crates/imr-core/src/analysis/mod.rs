//! A saved analysis: one JSON file with the input files (their exact bytes), the column roles
//! chosen for each, the view options (the URL fragment) and the engine version, so that the page
//! and `imr` can open it again and reproduce every number.
//!
//! The files are stored as base64 of their original bytes, so encoding and dialect detection run
//! again exactly as they did; roles are stored by column name.

use crate::ingest::{
    role_word, ColumnRoles, IngestError, RawTable, Role, SheetOrigin, MAX_YEAR, MIN_YEAR,
};
use crate::Lang;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod sheets;

/// The marker and format version of a saved analysis.
pub const FORMAT: &str = "imr-atlas-analysis/1";

/// One input file of a saved analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedFile {
    pub name: String,
    /// The file's bytes, base64 (standard alphabet, padded).
    pub bytes_base64: String,
    /// Column name per role (`entity`, `time`, `births`, `deaths`, `rate`); absent = no column.
    pub roles: BTreeMap<String, String>,
    /// The year the reader gave this file's rows when it has no year column (the Data view's
    /// year of a file, as `imr --time-value FILE=YEAR`); absent: its name's year, or the
    /// analysis' `time-value` (the rule of [`crate::ingest::table_year`]). A year outside
    /// [`crate::ingest::MIN_YEAR`]..=[`crate::ingest::MAX_YEAR`] is not read (as in a link).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i64>,
    /// When the file is a sheet of a spreadsheet: its workbook, the sheet and whether it was
    /// read as every sheet; `bytes_base64` is then the workbook's (empty for a later sheet of a
    /// workbook stored before: see [`SavedAnalysis::with_sheets`]). Absent: a CSV file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<SheetOrigin>,
}

/// The whole saved analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedAnalysis {
    pub format: String,
    pub engine_version: String,
    /// When it was saved (ISO 8601, as the saving program's clock said).
    pub saved_at: String,
    /// The view options, as in the page's URL fragment (`view=map&year=2021…`).
    pub options: String,
    pub files: Vec<SavedFile>,
}

/// Why a saved analysis cannot be opened, as a value rendered in a language by
/// [`AnalysisError::text`]; `Display` is the English text.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AnalysisError {
    NotAnAnalysis {
        file: String,
        why: NotAnAnalysis,
    },
    BadBytes {
        file: String,
        inner: String,
    },
    MissingColumn {
        file: String,
        inner: String,
        role: Role,
        column: String,
    },
    SameColumnForTwoRoles {
        file: String,
        inner: String,
        column: String,
        first: Role,
        second: Role,
    },
    /// A sheet of a spreadsheet that this build cannot read again (no spreadsheet reader: the
    /// page reads it in its worker) or whose workbook no longer gives it.
    SheetUnread {
        file: String,
        inner: String,
    },
    Ingest(IngestError),
}

/// Why a file is not a saved analysis.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum NotAnAnalysis {
    /// Not JSON of the analysis' shape; `detail` is serde_json's message (line and column).
    Json {
        detail: String,
    },
    /// A saved analysis of another format version.
    OtherVersion {
        format: String,
    },
    UnknownFormat {
        format: String,
    },
}

impl NotAnAnalysis {
    fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (NotAnAnalysis::Json { detail }, _) => detail.clone(),
            (NotAnAnalysis::OtherVersion { format }, Lang::En) => format!(
                "it is in format `{format}`, and this version of imr-atlas ({}) reads only `{FORMAT}`",
                crate::ENGINE_VERSION
            ),
            (NotAnAnalysis::OtherVersion { format }, Lang::Es) => format!(
                "está en el formato «{format}», y esta versión de imr-atlas ({}) solo lee «{FORMAT}»",
                crate::ENGINE_VERSION
            ),
            (NotAnAnalysis::UnknownFormat { format }, Lang::En) => {
                format!("unknown format `{format}` (expected `{FORMAT}`)")
            }
            (NotAnAnalysis::UnknownFormat { format }, Lang::Es) => {
                format!("formato desconocido `{format}` (se esperaba `{FORMAT}`)")
            }
        }
    }
}

impl AnalysisError {
    /// The error in `lang`; English is the `Display` text the `imr` command prints.
    pub fn text(&self, lang: Lang) -> String {
        use AnalysisError::*;
        match (self, lang) {
            (NotAnAnalysis { file, why }, Lang::En) => {
                format!("{file}: not a saved imr-atlas analysis: {}", why.text(lang))
            }
            (NotAnAnalysis { file, why }, Lang::Es) => format!(
                "{file}: no es un análisis guardado de imr-atlas: {}",
                why.text(lang)
            ),
            (BadBytes { file, inner }, Lang::En) => {
                format!("{file}: file `{inner}` of the analysis is not valid base64")
            }
            (BadBytes { file, inner }, Lang::Es) => {
                format!("{file}: el archivo «{inner}» del análisis no es base64 válido")
            }
            (
                MissingColumn {
                    file,
                    inner,
                    role,
                    column,
                },
                _,
            ) => {
                let role = role_word(*role, lang);
                match lang {
                    Lang::En => {
                        format!("{file}: file `{inner}` has no column `{column}` for the {role}")
                    }
                    Lang::Es => format!(
                        "{file}: el archivo «{inner}» no tiene la columna «{column}» para {role}"
                    ),
                }
            }
            (
                SameColumnForTwoRoles {
                    file,
                    inner,
                    column,
                    first,
                    second,
                },
                _,
            ) => {
                let (first, second) = (role_word(*first, lang), role_word(*second, lang));
                match lang {
                    Lang::En => format!(
                        "{file}: file `{inner}` gives column `{column}` both the {first} and the {second} role; each role needs its own column"
                    ),
                    Lang::Es => format!(
                        "{file}: el archivo «{inner}» da a la columna «{column}» a la vez el rol de {first} y el de {second}; cada rol necesita su propia columna"
                    ),
                }
            }
            (SheetUnread { file, inner }, Lang::En) => {
                format!("{file}: the sheet `{inner}` of the analysis cannot be read here")
            }
            (SheetUnread { file, inner }, Lang::Es) => {
                format!("{file}: la hoja «{inner}» del análisis no se puede leer aquí")
            }
            (Ingest(error), _) => error.text(lang),
        }
    }
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for AnalysisError {}

impl From<IngestError> for AnalysisError {
    fn from(error: IngestError) -> AnalysisError {
        AnalysisError::Ingest(error)
    }
}

/// Whether bytes look like a saved analysis (a JSON object naming the format), cheaply.
pub fn is_saved_analysis(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(200)];
    let text = String::from_utf8_lossy(head);
    text.trim_start().starts_with('{') && text.contains("imr-atlas-analysis/")
}

impl SavedAnalysis {
    /// Builds the record of an analysis from its files (name, original bytes, chosen roles).
    pub fn new(
        files: &[(&str, &[u8], &RawTable, &ColumnRoles)],
        options: &str,
        saved_at: &str,
    ) -> SavedAnalysis {
        let files = files
            .iter()
            .map(|(name, bytes, table, roles)| SavedFile {
                name: (*name).to_owned(),
                bytes_base64: base64::engine::general_purpose::STANDARD.encode(bytes),
                roles: Role::ALL
                    .into_iter()
                    .filter_map(|r| {
                        roles
                            .get(r)
                            .map(|i| (r.label().to_owned(), table.columns[i].clone()))
                    })
                    .collect(),
                year: None,
                sheet: None,
            })
            .collect();
        SavedAnalysis {
            format: FORMAT.to_owned(),
            engine_version: crate::ENGINE_VERSION.to_owned(),
            saved_at: saved_at.to_owned(),
            options: options.to_owned(),
            files,
        }
    }

    /// This analysis with the year the reader gave each file (same order as the files; `None`
    /// for a file without one).
    pub fn with_years(mut self, years: &[Option<i64>]) -> SavedAnalysis {
        for (file, year) in self.files.iter_mut().zip(years) {
            file.year = *year;
        }
        self
    }

    /// The year the reader gave each file, within the years a year column may hold.
    pub fn years(&self) -> Vec<Option<i64>> {
        self.files
            .iter()
            .map(|f| f.year.filter(|y| (MIN_YEAR..=MAX_YEAR).contains(y)))
            .collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a saved analysis always serialises")
    }

    /// Parses a saved analysis; `file` names it in errors.
    pub fn from_json(file: &str, bytes: &[u8]) -> Result<SavedAnalysis, AnalysisError> {
        let parsed: SavedAnalysis =
            serde_json::from_slice(bytes).map_err(|e| AnalysisError::NotAnAnalysis {
                file: file.to_owned(),
                why: NotAnAnalysis::Json {
                    detail: e.to_string(),
                },
            })?;
        if parsed.format != FORMAT {
            let format = parsed.format.chars().take(80).collect::<String>();
            let why = if parsed.format.starts_with("imr-atlas-analysis/") {
                NotAnAnalysis::OtherVersion { format }
            } else {
                NotAnAnalysis::UnknownFormat { format }
            };
            return Err(AnalysisError::NotAnAnalysis {
                file: file.to_owned(),
                why,
            });
        }
        Ok(parsed)
    }

    /// The original bytes of each file.
    pub fn file_bytes(&self, file: &str) -> Result<Vec<(String, Vec<u8>)>, AnalysisError> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                base64::engine::general_purpose::STANDARD
                    .decode(self.stored_base64(i))
                    .map(|b| (f.name.clone(), b))
                    .map_err(|_| AnalysisError::BadBytes {
                        file: file.to_owned(),
                        inner: f.name.clone(),
                    })
            })
            .collect()
    }

    /// Reads every file again and applies the saved roles; each table's
    /// [`RawTable::time_given`] is the year the reader gave it ([`SavedAnalysis::years`]), for
    /// the caller to complete by [`crate::ingest::table_year`] (a name's year, a year for
    /// every file).
    pub fn tables_and_roles(
        &self,
        file: &str,
    ) -> Result<Vec<(RawTable, ColumnRoles)>, AnalysisError> {
        let bytes = self.file_bytes(file)?;
        let mut out = Vec::with_capacity(bytes.len());
        for (i, ((name, data), year)) in bytes.iter().zip(self.years()).enumerate() {
            let sheet = self.files[i].sheet.as_ref();
            let mut table = sheets::read_table(file, name, data, sheet)?;
            table.time_given = year;
            let roles = self.saved_roles(file, i, &table)?;
            out.push((table, roles));
        }
        Ok(out)
    }

    /// The roles saved for file `index` as columns of `table` (that file read again); `file`
    /// names the analysis in errors.
    pub fn saved_roles(
        &self,
        file: &str,
        index: usize,
        table: &RawTable,
    ) -> Result<ColumnRoles, AnalysisError> {
        let saved = &self.files[index];
        let mut roles = ColumnRoles::default();
        let mut role_of_column: BTreeMap<&str, Role> = BTreeMap::new();
        for role in Role::ALL {
            if let Some(column) = saved.roles.get(role.label()) {
                if let Some(first) = role_of_column.insert(column, role) {
                    return Err(AnalysisError::SameColumnForTwoRoles {
                        file: file.to_owned(),
                        inner: saved.name.clone(),
                        column: column.clone(),
                        first,
                        second: role,
                    });
                }
            }
        }
        for role in Role::ALL {
            if let Some(column) = saved.roles.get(role.label()) {
                let column_index =
                    table
                        .columns
                        .iter()
                        .position(|c| c == column)
                        .ok_or_else(|| AnalysisError::MissingColumn {
                            file: file.to_owned(),
                            inner: saved.name.clone(),
                            role,
                            column: column.clone(),
                        })?;
                roles.set(role, Some(column_index));
            }
        }
        Ok(roles)
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(NotAnAnalysis, AnalysisError);

#[cfg(test)]
mod tests;
