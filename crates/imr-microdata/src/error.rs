//! Why a microdata file or job cannot be read at all, as values: the page words them in its
//! language ([`MicrodataError::text`], [`JobFailure::text`]), the worker sends them as JSON, and
//! `Display` is the English the `imr microdata` command prints. Row-level problems are not
//! errors: they are exclusions counted in the aggregate.

use imr_lang::Lang;
use serde::{Deserialize, Serialize};

/// A file that cannot be aggregated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum MicrodataError {
    Empty,
    /// The first line is neither the deaths header nor a deaths row in the official order.
    NotDeathsFile {
        first_line: String,
        why: NotDeaths,
    },
    /// `columns`: the header's names, as written, joined with `, `.
    MissingColumn {
        column: String,
        columns: String,
    },
    NoHeader {
        column: String,
        first_line: String,
    },
    FirstLineTooLong,
}

/// Why a first line without a header is not a deaths row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum NotDeaths {
    TooFewFields {
        expected: usize,
        found: usize,
    },
    /// Field `field` (1-based; official name `column`) holds `value`, which is not `expected`.
    Field {
        field: usize,
        column: String,
        value: String,
        expected: Expected,
    },
}

/// What a field of a deaths row must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expected {
    Year,
    Date,
    AgeUnit,
    Age,
    CommuneCode,
}

impl Expected {
    fn text(self, lang: Lang) -> &'static str {
        match self {
            Expected::Year => lang.pick("un año de cuatro cifras", "a four-digit year"),
            Expected::Date => lang.pick("una fecha", "a date"),
            Expected::AgeUnit => lang.pick(
                "una unidad de edad 1, 2, 3, 4 o 9",
                "an age unit 1, 2, 3, 4 or 9",
            ),
            Expected::Age => lang.pick("una edad (un número)", "an age (a number)"),
            Expected::CommuneCode => {
                lang.pick("un código de comuna (cifras)", "a commune code (digits)")
            }
        }
    }
}

impl NotDeaths {
    fn text(&self, lang: Lang) -> String {
        match self {
            NotDeaths::TooFewFields { expected, found } => match lang {
                Lang::En => format!(
                    "expected a header with ANO_DEF and EDAD_TIPO, or at least {expected} `;`-separated fields, found {found}"
                ),
                Lang::Es => format!(
                    "se esperaba un encabezado con ANO_DEF y EDAD_TIPO, o al menos {expected} campos separados por `;`, y hay {found}"
                ),
            },
            NotDeaths::Field {
                field,
                column,
                value,
                expected,
            } => {
                let expected = expected.text(lang);
                match lang {
                    Lang::En => format!(
                        "no header, and field {field} ({column}) is \"{value}\", not {expected}"
                    ),
                    Lang::Es => format!(
                        "sin encabezado, y el campo {field} ({column}) dice \"{value}\", no {expected}"
                    ),
                }
            }
        }
    }
}

impl MicrodataError {
    /// The error in `lang`; English is the `Display` text.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            MicrodataError::Empty => lang.pick("el archivo está vacío", "the file is empty").into(),
            MicrodataError::NotDeathsFile { first_line, why } => match lang {
                Lang::En => format!(
                    "line 1: this is not the health ministry's deaths microdata: {} (first line: \"{first_line}\")",
                    why.text(lang)
                ),
                Lang::Es => format!(
                    "línea 1: no son los microdatos de defunciones del Ministerio de Salud: {} (primera línea: \"{first_line}\")",
                    why.text(lang)
                ),
            },
            MicrodataError::MissingColumn { column, columns } => match lang {
                Lang::En => format!("the header has no column `{column}` (columns are: {columns})"),
                Lang::Es => format!(
                    "el encabezado no tiene la columna «{column}» (las columnas son: {columns})"
                ),
            },
            MicrodataError::NoHeader { column, first_line } => match lang {
                Lang::En => format!(
                    "column {column} is chosen by name, but the first line is not a header: \"{first_line}\""
                ),
                Lang::Es => format!(
                    "la columna {column} está elegida por nombre, pero la primera línea no es un encabezado: \"{first_line}\""
                ),
            },
            MicrodataError::FirstLineTooLong => lang
                .pick(
                    "línea 1: la primera línea pasa de 1 MiB; ¿es un archivo de texto?",
                    "line 1: the first line is longer than 1 MiB; is this a text file?",
                )
                .into(),
        }
    }
}

impl std::fmt::Display for MicrodataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for MicrodataError {}

/// A births column as typed that cannot be used ([`crate::ColumnRef::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ColumnError {
    Blank,
    PositionZero,
    DelimiterNotAscii { delimiter: char },
}

impl ColumnError {
    pub fn text(self, lang: Lang) -> String {
        match self {
            ColumnError::Blank => lang
                .pick(
                    "hace falta una columna: una posición desde 1 o un nombre del encabezado",
                    "a column is needed: a 1-based position or a header name",
                )
                .into(),
            ColumnError::PositionZero => lang
                .pick(
                    "las posiciones de columna empiezan en 1",
                    "column positions start at 1",
                )
                .into(),
            ColumnError::DelimiterNotAscii { delimiter } => match lang {
                Lang::En => {
                    format!("the births delimiter must be one ASCII character, not {delimiter:?}")
                }
                Lang::Es => format!(
                    "el separador de nacimientos debe ser un carácter ASCII, no {delimiter:?}"
                ),
            },
        }
    }
}

impl std::fmt::Display for ColumnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// Why an aggregation job stopped (sent to the page in `WorkerEvent::Failed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum JobFailure {
    /// Neither a deaths nor a births file.
    NoFile,
    /// A chunk came before its file was started (a caller's mistake).
    NotStarted,
    /// The job's options are missing or not understood (a page/worker mismatch).
    BadOptions {
        detail: String,
    },
    /// A births file without its year and commune columns.
    BirthsColumnsNotChosen,
    BirthsColumns {
        why: ColumnError,
    },
    /// The file cannot be read; `detail` is the reader's error.
    Unreadable {
        file: String,
        detail: String,
    },
    /// The file gave fewer bytes than its size said (changed while read).
    EndedEarly {
        file: String,
        at: u64,
        size: u64,
    },
    /// The bytes are not microdata this crate can aggregate.
    Microdata {
        file: String,
        error: MicrodataError,
    },
}

impl JobFailure {
    /// The failure in `lang`; English is the `Display` text the `imr microdata` command prints.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            JobFailure::NoFile => lang
                .pick("no hay archivo que agregar", "no file to aggregate")
                .into(),
            JobFailure::NotStarted => lang.pick("ningún archivo iniciado", "no file started").into(),
            JobFailure::BadOptions { detail } => match lang {
                Lang::En => format!("the job's options are not understood: {detail}"),
                Lang::Es => format!("las opciones de la tarea no se entienden: {detail}"),
            },
            JobFailure::BirthsColumnsNotChosen => lang
                .pick(
                    "elija las columnas del año y de la comuna de la madre del archivo de nacimientos",
                    "choose the year and the mother's commune columns of the births file",
                )
                .into(),
            JobFailure::BirthsColumns { why } => why.text(lang),
            JobFailure::Unreadable { file, detail } => match lang {
                Lang::En => format!("{file}: cannot read the file: {detail}"),
                Lang::Es => format!("{file}: no se puede leer el archivo: {detail}"),
            },
            JobFailure::EndedEarly { file, at, size } => match lang {
                Lang::En => format!("{file}: the file ended at byte {at} of {size} while reading"),
                Lang::Es => {
                    format!("{file}: el archivo terminó en el byte {at} de {size} durante la lectura")
                }
            },
            JobFailure::Microdata { file, error } => format!("{file}: {}", error.text(lang)),
        }
    }
}

impl std::fmt::Display for JobFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

// Its texts for people are [`imr_lang::Words`], checked as every engine value's are.
imr_lang::words_by_text!(NotDeaths, MicrodataError, JobFailure);

#[cfg(test)]
mod tests {
    use super::*;

    fn every_failure() -> Vec<JobFailure> {
        let file = || "d.csv".to_owned();
        let microdata = |error| JobFailure::Microdata {
            file: file(),
            error,
        };
        vec![
            JobFailure::NoFile,
            JobFailure::NotStarted,
            JobFailure::BadOptions {
                detail: "missing field `deaths`".into(),
            },
            JobFailure::BirthsColumnsNotChosen,
            JobFailure::BirthsColumns {
                why: ColumnError::Blank,
            },
            JobFailure::BirthsColumns {
                why: ColumnError::PositionZero,
            },
            JobFailure::BirthsColumns {
                why: ColumnError::DelimiterNotAscii { delimiter: 'ñ' },
            },
            JobFailure::Unreadable {
                file: file(),
                detail: "NotReadableError".into(),
            },
            JobFailure::EndedEarly {
                file: file(),
                at: 4,
                size: 9,
            },
            microdata(MicrodataError::Empty),
            microdata(MicrodataError::NotDeathsFile {
                first_line: "a;b".into(),
                why: NotDeaths::TooFewFields {
                    expected: 9,
                    found: 2,
                },
            }),
            microdata(MicrodataError::NotDeathsFile {
                first_line: "x;…".into(),
                why: NotDeaths::Field {
                    field: 1,
                    column: "ANO_DEF".into(),
                    value: "x".into(),
                    expected: Expected::Year,
                },
            }),
            microdata(MicrodataError::MissingColumn {
                column: "EDAD_CANT".into(),
                columns: "ANO_DEF, EDAD_TIPO".into(),
            }),
            microdata(MicrodataError::NoHeader {
                column: "COMUNA".into(),
                first_line: "2019;13101".into(),
            }),
            microdata(MicrodataError::FirstLineTooLong),
        ]
    }

    #[test]
    fn english_is_the_text_the_command_printed() {
        let texts: Vec<String> = every_failure().iter().map(ToString::to_string).collect();
        assert_eq!(
            texts[11],
            "d.csv: line 1: this is not the health ministry's deaths microdata: no header, and field 1 (ANO_DEF) is \"x\", not a four-digit year (first line: \"x;…\")"
        );
        assert_eq!(
            texts[3],
            "choose the year and the mother's commune columns of the births file"
        );
    }

    #[test]
    fn spanish_has_no_english_words_and_json_round_trips() {
        // Not `a` or `no`: Spanish words too.
        const ENGLISH: [&str; 11] = [
            "the", "file", "not", "is", "and", "column", "line", "header", "year", "choose",
            "cannot",
        ];
        for failure in every_failure() {
            let text = failure.text(Lang::Es);
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                // `no` is Spanish too; it is checked through the sentences it would start.
                assert!(
                    word == "no" || !ENGLISH.contains(&word),
                    "{word:?} in {text:?}"
                );
            }
            assert_ne!(text, failure.to_string());
            let json = serde_json::to_string(&failure).unwrap();
            assert_eq!(serde_json::from_str::<JobFailure>(&json).unwrap(), failure);
        }
    }
}
