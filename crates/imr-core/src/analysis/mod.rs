//! A saved analysis: one JSON file with the input files (their exact bytes), the column roles
//! chosen for each, the view options (the URL fragment) and the engine version, so that the page
//! and `imr` can open it again and reproduce every number.
//!
//! The files are stored as base64 of their original bytes, so encoding and dialect detection run
//! again exactly as they did; roles are stored by column name.

use crate::ingest::{role_word, ColumnRoles, IngestError, RawTable, Role, MAX_YEAR, MIN_YEAR};
use crate::Lang;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
                "está en el formato `{format}`, y esta versión de imr-atlas ({}) solo lee `{FORMAT}`",
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
                format!("{file}: el archivo `{inner}` del análisis no es base64 válido")
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
                        "{file}: el archivo `{inner}` no tiene la columna `{column}` para {role}"
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
                        "{file}: el archivo `{inner}` da a la columna `{column}` a la vez el rol de {first} y el de {second}; cada rol necesita su propia columna"
                    ),
                }
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
            .map(|f| {
                base64::engine::general_purpose::STANDARD
                    .decode(&f.bytes_base64)
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
        for (((name, data), saved), year) in bytes.iter().zip(&self.files).zip(self.years()) {
            let mut table = RawTable::from_bytes(name, data)?;
            table.time_given = year;
            let mut roles = ColumnRoles::default();
            let mut role_of_column: BTreeMap<&str, Role> = BTreeMap::new();
            for role in Role::ALL {
                if let Some(column) = saved.roles.get(role.label()) {
                    if let Some(first) = role_of_column.insert(column, role) {
                        return Err(AnalysisError::SameColumnForTwoRoles {
                            file: file.to_owned(),
                            inner: name.clone(),
                            column: column.clone(),
                            first,
                            second: role,
                        });
                    }
                }
            }
            for role in Role::ALL {
                if let Some(column) = saved.roles.get(role.label()) {
                    let index =
                        table
                            .columns
                            .iter()
                            .position(|c| c == column)
                            .ok_or_else(|| AnalysisError::MissingColumn {
                                file: file.to_owned(),
                                inner: name.clone(),
                                role,
                                column: column.clone(),
                            })?;
                    roles.set(role, Some(index));
                }
            }
            out.push((table, roles));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{build_panel, IngestOptions};

    #[test]
    fn a_saved_analysis_reopens_to_the_same_panel() {
        let bytes: &[u8] =
            b"Comuna;A\xf1o;Nacimientos;Tasa\n01101;2019;3.000;7\n01107;2019;2500;6\n";
        let table = RawTable::from_bytes("x.csv", bytes).unwrap();
        let mut roles = table.guessed_roles.clone();
        roles.deaths = None;
        let saved = SavedAnalysis::new(
            &[("x.csv", bytes, &table, &roles)],
            "view=map&year=2019",
            "2026-11-30",
        );
        let json = saved.to_json();
        assert!(is_saved_analysis(json.as_bytes()));
        let reopened = SavedAnalysis::from_json("a.json", json.as_bytes()).unwrap();
        assert_eq!(reopened, saved);
        let (tables, roles2): (Vec<_>, Vec<_>) = reopened
            .tables_and_roles("a.json")
            .unwrap()
            .into_iter()
            .unzip();
        assert_eq!(roles2[0], roles);
        let before = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
        let after = build_panel(&tables, &roles2, &IngestOptions::default()).unwrap();
        assert!(before.rows().eq(after.rows()));
        assert_eq!(after.report.files[0].encoding, "windows-1252");
    }

    /// The year the reader gave a file without a year column travels with it: absent from the
    /// JSON when none was given (older analyses read as before), a year out of range not read.
    #[test]
    fn the_year_given_a_file_is_saved_with_it() {
        let bytes: &[u8] = b"comuna;nacimientos;defunciones\n01101;1500;6\n";
        let table = RawTable::from_bytes("defunciones_2022.csv", bytes).unwrap();
        let roles = table.guessed_roles.clone();
        let entries = [("defunciones_2022.csv", bytes, &table, &roles)];
        let plain = SavedAnalysis::new(&entries, "", "x");
        assert!(!plain.to_json().contains("\"year\""));
        let given = plain.clone().with_years(&[Some(2021)]);
        let reopened = SavedAnalysis::from_json("a.json", given.to_json().as_bytes()).unwrap();
        assert_eq!(reopened.years(), vec![Some(2021)]);
        let tables = reopened.tables_and_roles("a.json").unwrap();
        assert_eq!(tables[0].0.time_given, Some(2021));
        let none = SavedAnalysis::from_json("a.json", plain.to_json().as_bytes()).unwrap();
        assert_eq!(
            none.tables_and_roles("a.json").unwrap()[0].0.time_given,
            None
        );
        let far = plain.with_years(&[Some(MAX_YEAR + 1)]);
        assert_eq!(far.years(), vec![None]);
    }

    #[test]
    fn other_json_is_refused_with_the_file_name() {
        assert!(!is_saved_analysis(b"{\"a\": 1}"));
        let err = SavedAnalysis::from_json("b.json", b"{\"a\": 1}").unwrap_err();
        assert!(err
            .to_string()
            .starts_with("b.json: not a saved imr-atlas analysis"));
    }

    fn saved_json(format: &str, roles: &str) -> String {
        let bytes = base64::engine::general_purpose::STANDARD
            .encode(b"code,year,births,deaths\n01101,2019,100,1\n");
        format!(
            r#"{{"format":"{format}","engine_version":"0.1.0","saved_at":"x","options":"","files":[{{"name":"a.csv","bytes_base64":"{bytes}","roles":{roles}}}]}}"#
        )
    }

    #[test]
    fn only_the_exact_format_version_is_opened() {
        let roles = r#"{"entity":"code","time":"year","births":"births","deaths":"deaths"}"#;
        assert!(SavedAnalysis::from_json("a.json", saved_json(FORMAT, roles).as_bytes()).is_ok());
        for other in [
            "imr-atlas-analysis/2",
            "imr-atlas-analysis/1.1",
            "imr-atlas-analysis/",
            "imr-atlas-analysis/10",
        ] {
            let err = SavedAnalysis::from_json("a.json", saved_json(other, roles).as_bytes())
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("a.json: not a saved imr-atlas analysis: it is in format"),
                "{err}"
            );
            assert!(err.contains("reads only `imr-atlas-analysis/1`"), "{err}");
        }
        let err = SavedAnalysis::from_json("a.json", saved_json("other/1", roles).as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown format `other/1` (expected `imr-atlas-analysis/1`)"),
            "{err}"
        );
    }

    #[test]
    fn two_roles_on_one_column_are_refused() {
        let roles = r#"{"entity":"code","time":"year","births":"births","deaths":"births"}"#;
        let saved =
            SavedAnalysis::from_json("a.json", saved_json(FORMAT, roles).as_bytes()).unwrap();
        let err = saved.tables_and_roles("a.json").unwrap_err().to_string();
        assert_eq!(
            err,
            "a.json: file `a.csv` gives column `births` both the births and the deaths role; each role needs its own column"
        );
    }

    #[test]
    fn every_error_is_worded_in_spanish_without_english_words() {
        let file = || "a.json".to_owned();
        let errors = [
            AnalysisError::NotAnAnalysis {
                file: file(),
                why: NotAnAnalysis::OtherVersion {
                    format: "imr-atlas-analysis/9".into(),
                },
            },
            AnalysisError::NotAnAnalysis {
                file: file(),
                why: NotAnAnalysis::UnknownFormat { format: "x".into() },
            },
            AnalysisError::BadBytes {
                file: file(),
                inner: "a.csv".into(),
            },
            AnalysisError::MissingColumn {
                file: file(),
                inner: "a.csv".into(),
                role: Role::Births,
                column: "nac".into(),
            },
            AnalysisError::SameColumnForTwoRoles {
                file: file(),
                inner: "a.csv".into(),
                column: "n".into(),
                first: Role::Births,
                second: Role::Deaths,
            },
            AnalysisError::Ingest(IngestError::NoFiles),
        ];
        for error in errors {
            let text = error.text(Lang::Es);
            assert_ne!(text, error.to_string());
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                assert!(
                    !["the", "file", "has", "for", "role", "not", "and", "format", "files"]
                        .contains(&word),
                    "{word:?} in {text:?}"
                );
            }
        }
    }
}
