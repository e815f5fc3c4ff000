//! Why a file cannot be read or used at all, as a value: the page renders it in its language
//! ([`IngestError::text`]), the worker sends it to the page worded in each language, and `Display`
//! is the English text the `imr` command prints.

use super::{ExclusionReason, Role};
use crate::Lang;

/// A file that cannot be read or used at all. Row-level problems are not errors: they are
/// exclusions in the report.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum IngestError {
    Empty {
        file: String,
    },
    /// A zero byte at `byte_offset`: a spreadsheet or other binary file, not text.
    Binary {
        file: String,
        byte_offset: usize,
    },
    /// The file cannot be split into records.
    Malformed {
        file: String,
        line: u64,
        why: Malformed,
    },
    MissingRole {
        file: String,
        role: Role,
        columns: ColumnNames,
    },
    UnknownColumn {
        column: String,
        columns: ColumnNames,
    },
    SameColumnForTwoRoles {
        file: String,
        column: String,
        first: Role,
        second: Role,
    },
    NoFiles,
    /// Every row was excluded; `first_reason` is the first exclusion's (none when the file has
    /// no data rows at all).
    NoUsableRows {
        file: String,
        rows_read: usize,
        first_line: u64,
        first_reason: Option<ExclusionReason>,
    },
    /// A spreadsheet, or one of its sheets (`sheet`), that cannot be read: a broken or hostile
    /// workbook, or one above the bounds of `docs/INPUT-CONTRACT.md` ([`Workbook`]). Feature
    /// `sheets`: the page's main wasm, which reads no spreadsheet, carries none of these words.
    #[cfg(feature = "sheets")]
    Workbook {
        file: String,
        sheet: Option<String>,
        /// Boxed: the largest of the reasons, it would double every `Result` of the ingest.
        why: Box<Workbook>,
    },
    /// A rate lag ([`super::IngestOptions::rate_lag`], `imr --rate-lag`) for data whose deaths
    /// are not derived from a published rate: no main file has a rate column (`deaths: None`),
    /// or deaths are counted in a column (`deaths`: its file and column), which wins over a rate.
    RateLagWithoutRate {
        lag: u32,
        deaths: Option<(String, String)>,
    },
}

/// Why a file cannot be split into records.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Malformed {
    /// A record of 4 GiB or more: the csv crate's positions cannot hold it.
    RecordTooLong,
    /// A `"` in the header that is never closed: the rest of the file would be one column name.
    HeaderQuoteNeverClosed {
        quote_line: u64,
        lines_swallowed: u64,
    },
    /// The csv reader's own error, as it words it.
    Reader { detail: String },
}

/// Why a spreadsheet or one of its sheets cannot be read ([`IngestError::Workbook`]).
#[cfg(feature = "sheets")]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Workbook {
    /// The file is larger than a workbook may be.
    FileTooLarge { bytes: u64, max_bytes: u64 },
    /// A zip container (`.xlsx`, `.ods`) that would unpack to more than the bound: a zip bomb
    /// or a workbook too large to read here.
    UnpacksTooLarge {
        unpacked_bytes: u128,
        max_bytes: u64,
    },
    /// A sheet with more cells than the bound (filled cells, merged areas and the empty cells
    /// between them on a row counted).
    TooManyCells { max_cells: usize },
    /// A cell outside the largest grid a spreadsheet may have (1,048,576 rows × 16,384
    /// columns), or a row or cell index that goes back; row and column 1-based.
    CellOutsideGrid { row: u64, column: u64 },
    /// No sheet of that name; the workbook's sheets listed.
    NoSuchSheet { sheet: String, sheets: ColumnNames },
    /// The workbook has no sheet with data.
    NoSheets,
    /// `imr --sheet` or `--sheets all` given for a file that is not a spreadsheet.
    NotAWorkbook,
    /// The reader's own words (calamine's, the zip or XML parser's), with the byte offset in
    /// the XML when the parser gives one.
    Reader { detail: String },
    /// This build reads no spreadsheets (the page's first screen; the reader is in the worker
    /// and in `imr`).
    NotBuiltIn,
}

#[cfg(feature = "sheets")]
impl Workbook {
    pub fn text(&self, lang: Lang) -> String {
        use Workbook::*;
        match (self, lang) {
            (FileTooLarge { bytes, max_bytes }, Lang::En) => format!(
                "the workbook has {bytes} bytes, above the {max_bytes} a workbook may have here; export the sheet as CSV"
            ),
            (FileTooLarge { bytes, max_bytes }, Lang::Es) => format!(
                "el libro tiene {bytes} bytes, más que los {max_bytes} admitidos; exporte la hoja como CSV"
            ),
            (UnpacksTooLarge { unpacked_bytes, max_bytes }, Lang::En) => format!(
                "the workbook would unpack to {unpacked_bytes} bytes, above the {max_bytes} allowed (a zip bomb, or a workbook to export as CSV)"
            ),
            (UnpacksTooLarge { unpacked_bytes, max_bytes }, Lang::Es) => format!(
                "el libro se descomprimiría en {unpacked_bytes} bytes, más que los {max_bytes} admitidos (una bomba zip, o un libro que conviene exportar como CSV)"
            ),
            (TooManyCells { max_cells }, Lang::En) => format!(
                "the sheet has more than {max_cells} cells, the most a sheet may have here; export it as CSV"
            ),
            (TooManyCells { max_cells }, Lang::Es) => format!(
                "la hoja tiene más de {max_cells} celdas, el máximo admitido; expórtela como CSV"
            ),
            (CellOutsideGrid { row, column }, Lang::En) => format!(
                "a cell at row {row}, column {column} is outside a spreadsheet's grid (1,048,576 rows × 16,384 columns) or goes back"
            ),
            (CellOutsideGrid { row, column }, Lang::Es) => format!(
                "una celda en la fila {row}, columna {column} está fuera de la cuadrícula de una planilla (1.048.576 filas × 16.384 columnas) o retrocede"
            ),
            (NoSuchSheet { sheet, sheets }, Lang::En) => format!(
                "no sheet named \"{sheet}\" (sheets: {})",
                sheets.text(lang)
            ),
            (NoSuchSheet { sheet, sheets }, Lang::Es) => format!(
                "no hay una hoja llamada \"{sheet}\" (hojas: {})",
                sheets.text(lang)
            ),
            (NoSheets, Lang::En) => "the workbook has no sheet with cells".into(),
            (NoSheets, Lang::Es) => "el libro no tiene hojas con celdas".into(),
            (NotAWorkbook, Lang::En) => {
                "not a spreadsheet (xlsx, xls, ods or XML Spreadsheet 2003): a sheet cannot be chosen".into()
            }
            (NotAWorkbook, Lang::Es) => {
                "no es una planilla (xlsx, xls, ods o XML Spreadsheet 2003): no se puede elegir una hoja".into()
            }
            (Reader { detail }, Lang::En) => format!("cannot read the workbook: {detail}"),
            (Reader { detail }, Lang::Es) => format!("no se puede leer el libro: {detail}"),
            (NotBuiltIn, Lang::En) => {
                "spreadsheets are not read here; export the sheet as CSV".into()
            }
            (NotBuiltIn, Lang::Es) => {
                "aquí no se leen planillas; exporte la hoja como CSV".into()
            }
        }
    }
}

/// The columns of a file as an error shows them: the first [`ColumnNames::SHOWN`] and how many
/// more there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnNames {
    pub shown: Vec<String>,
    pub more: usize,
}

impl ColumnNames {
    pub const SHOWN: usize = 20;

    pub fn of(columns: &[String]) -> ColumnNames {
        ColumnNames {
            shown: columns.iter().take(Self::SHOWN).cloned().collect(),
            more: columns.len().saturating_sub(Self::SHOWN),
        }
    }

    /// `a, b, c` and, past the first twenty, `… and 5 more` (`… y 5 más`).
    pub fn text(&self, lang: Lang) -> String {
        let mut list = self.shown.join(", ");
        if self.more > 0 {
            list.push_str(&match lang {
                Lang::En => format!(" … and {} more", self.more),
                Lang::Es => format!(" … y {} más", self.more),
            });
        }
        list
    }
}

/// A role as an error names it: `commune code (entity)`, `código de comuna (entidad)`.
pub fn role_name(role: Role, lang: Lang) -> &'static str {
    match (role, lang) {
        (Role::Entity, Lang::En) => "commune code (entity)",
        (Role::Entity, Lang::Es) => "código de comuna (entidad)",
        (Role::Time, Lang::En) => "year (time)",
        (Role::Time, Lang::Es) => "año (tiempo)",
        (Role::Births, Lang::En) => "births",
        (Role::Births, Lang::Es) => "nacimientos",
        (Role::Deaths, Lang::En) => "deaths",
        (Role::Deaths, Lang::Es) => "defunciones",
        (Role::Rate, Lang::En) => "rate",
        (Role::Rate, Lang::Es) => "tasa",
    }
}

/// The short role word of "chosen for both the births and the deaths": the role's
/// [`Role::label`] in English.
pub fn role_word(role: Role, lang: Lang) -> &'static str {
    match lang {
        Lang::En => role.label(),
        Lang::Es => match role {
            Role::Entity => "entidad",
            Role::Time => "tiempo",
            Role::Births => "nacimientos",
            Role::Deaths => "defunciones",
            Role::Rate => "tasa",
        },
    }
}

impl Malformed {
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Malformed::RecordTooLong, Lang::En) => {
                "a record of 4 GiB or more (an unclosed quote?)".into()
            }
            (Malformed::RecordTooLong, Lang::Es) => {
                "un registro de 4 GiB o más (¿una comilla sin cerrar?)".into()
            }
            (
                Malformed::HeaderQuoteNeverClosed {
                    quote_line,
                    lines_swallowed,
                },
                Lang::En,
            ) => format!(
                "the header's `\"` opened on line {quote_line} is never closed, so the rest of the file ({lines_swallowed} physical lines) reads as one column name; close or remove it"
            ),
            (
                Malformed::HeaderQuoteNeverClosed {
                    quote_line,
                    lines_swallowed,
                },
                Lang::Es,
            ) => format!(
                "la comilla «\"» del encabezado abierta en la línea {quote_line} nunca se cierra, así que el resto del archivo ({lines_swallowed} líneas físicas) se lee como un solo nombre de columna; ciérrela o quítela"
            ),
            (Malformed::Reader { detail }, _) => detail.clone(),
        }
    }
}

/// "1 year", "2 years" ("1 año", "2 años").
fn lag_years(lag: u32, lang: Lang) -> String {
    match (lang, lag) {
        (Lang::En, 1) => "1 year".into(),
        (Lang::En, n) => format!("{n} years"),
        (Lang::Es, 1) => "1 año".into(),
        (Lang::Es, n) => format!("{n} años"),
    }
}

impl IngestError {
    /// The error in `lang`; English is the `Display` text the `imr` command prints.
    pub fn text(&self, lang: Lang) -> String {
        use IngestError::*;
        match (self, lang) {
            (Empty { file }, Lang::En) => format!("{file}: the file is empty"),
            (Empty { file }, Lang::Es) => format!("{file}: el archivo está vacío"),
            (Binary { file, byte_offset }, Lang::En) => format!(
                "{file}: this looks like a binary file, not text (a zero byte at offset {byte_offset}); export it as CSV"
            ),
            (Binary { file, byte_offset }, Lang::Es) => format!(
                "{file}: parece un archivo binario, no texto (un byte cero en la posición {byte_offset}); expórtelo como CSV"
            ),
            (Malformed { file, line, why }, Lang::En) => format!(
                "{file}, line {line}: cannot split the file into fields: {}",
                why.text(lang)
            ),
            (Malformed { file, line, why }, Lang::Es) => format!(
                "{file}, línea {line}: no se puede dividir el archivo en campos: {}",
                why.text(lang)
            ),
            (
                MissingRole {
                    file,
                    role,
                    columns,
                },
                Lang::En,
            ) => format!(
                "{file}: no column for the {} (columns are: {}); choose one{}",
                role_name(*role, lang),
                columns.text(lang),
                if *role == Role::Time {
                    ", or, when the file holds one year, give that year (imr --time-value 2023; \
                     in the Data view, \"Year of files without a year column\")"
                } else {
                    ""
                }
            ),
            (
                MissingRole {
                    file,
                    role,
                    columns,
                },
                Lang::Es,
            ) => format!(
                "{file}: ninguna columna para {} (las columnas son: {}); elija una{}",
                role_name(*role, lang),
                columns.text(lang),
                if *role == Role::Time {
                    ", o, si el archivo es de un solo año, indique ese año (imr --time-value 2023; \
                     en la vista Datos, «Año de los archivos sin columna de año»)"
                } else {
                    ""
                }
            ),
            (UnknownColumn { column, columns }, Lang::En) => format!(
                "no file has a column named `{column}` (columns are: {})",
                columns.text(lang)
            ),
            (UnknownColumn { column, columns }, Lang::Es) => format!(
                "ningún archivo tiene una columna «{column}» (las columnas son: {})",
                columns.text(lang)
            ),
            (
                SameColumnForTwoRoles {
                    file,
                    column,
                    first,
                    second,
                },
                Lang::En,
            ) => format!(
                "{file}: column `{column}` is chosen for both the {} and the {}; each role needs its own column",
                role_word(*first, lang),
                role_word(*second, lang)
            ),
            (
                SameColumnForTwoRoles {
                    file,
                    column,
                    first,
                    second,
                },
                Lang::Es,
            ) => format!(
                "{file}: la columna «{column}» está elegida a la vez para {} y para {}; cada rol necesita su propia columna",
                role_word(*first, lang),
                role_word(*second, lang)
            ),
            (NoFiles, Lang::En) => "no files to read".into(),
            (NoFiles, Lang::Es) => "no hay archivos que leer".into(),
            (
                NoUsableRows {
                    file,
                    rows_read,
                    first_line,
                    first_reason,
                },
                Lang::En,
            ) => format!(
                "{file}: no usable rows: all {rows_read} rows were excluded (first: line {first_line}, {})",
                first_reason
                    .as_ref()
                    .map_or_else(|| "no data rows".into(), |r| r.text(lang))
            ),
            (
                NoUsableRows {
                    file,
                    rows_read,
                    first_line,
                    first_reason,
                },
                Lang::Es,
            ) => format!(
                "{file}: ninguna fila utilizable: se excluyeron todas las filas leídas ({rows_read}) (la primera: línea {first_line}, {})",
                first_reason
                    .as_ref()
                    .map_or_else(|| "sin filas de datos".into(), |r| r.text(lang))
            ),
            #[cfg(feature = "sheets")]
            (Workbook { file, sheet, why }, _) => {
                let place = match sheet {
                    Some(sheet) => format!("{file} [{sheet}]"),
                    None => file.clone(),
                };
                format!("{place}: {}", why.text(lang))
            }
            (RateLagWithoutRate { lag, deaths: None }, Lang::En) => format!(
                "a rate lag of {} moves published rates to the year they describe, and no data file has a rate column: choose the rate column, or give no lag (imr: leave out --rate-lag; in the Data view, \"The rates describe the year\": \"the same\")",
                lag_years(*lag, lang)
            ),
            (RateLagWithoutRate { lag, deaths: None }, Lang::Es) => format!(
                "un desfase de las tasas de {} mueve las tasas publicadas al año que describen, y ningún archivo de datos tiene una columna de tasa: elija la columna de tasa, o no indique desfase (imr: sin --rate-lag; en la vista Datos, «Las tasas describen el año»: «el mismo»)",
                lag_years(*lag, lang)
            ),
            (RateLagWithoutRate { lag, deaths: Some((file, column)) }, Lang::En) => format!(
                "a rate lag of {} moves published rates to the year they describe, and the deaths here are counted ({file}, column `{column}`), not derived from a rate: give no lag (imr: leave out --rate-lag; in the Data view, \"The rates describe the year\": \"the same\"), or choose no deaths column to derive them from the rate",
                lag_years(*lag, lang)
            ),
            (RateLagWithoutRate { lag, deaths: Some((file, column)) }, Lang::Es) => format!(
                "un desfase de las tasas de {} mueve las tasas publicadas al año que describen, y aquí las defunciones se cuentan ({file}, columna «{column}»), no se derivan de una tasa: no indique desfase (imr: sin --rate-lag; en la vista Datos, «Las tasas describen el año»: «el mismo»), o no elija columna de defunciones para derivarlas de la tasa",
                lag_years(*lag, lang)
            ),
        }
    }
}

impl std::fmt::Display for IngestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for IngestError {}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(ColumnNames, Malformed, IngestError);
#[cfg(feature = "sheets")]
imr_stats::words_by_text!(Workbook);

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<IngestError> {
        let columns = ColumnNames::of(&(1..=23).map(|i| format!("c{i}")).collect::<Vec<_>>());
        #[allow(unused_mut)]
        let mut kinds = vec![
            IngestError::Empty {
                file: "a.csv".into(),
            },
            IngestError::Binary {
                file: "a.xlsx".into(),
                byte_offset: 3,
            },
            IngestError::Malformed {
                file: "a.csv".into(),
                line: 2,
                why: Malformed::RecordTooLong,
            },
            IngestError::Malformed {
                file: "a.csv".into(),
                line: 1,
                why: Malformed::HeaderQuoteNeverClosed {
                    quote_line: 1,
                    lines_swallowed: 9,
                },
            },
            IngestError::MissingRole {
                file: "a.csv".into(),
                role: Role::Entity,
                columns: columns.clone(),
            },
            IngestError::UnknownColumn {
                column: "#4".into(),
                columns,
            },
            IngestError::SameColumnForTwoRoles {
                file: "a.csv".into(),
                column: "n".into(),
                first: Role::Births,
                second: Role::Deaths,
            },
            IngestError::NoFiles,
            IngestError::NoUsableRows {
                file: "a.csv".into(),
                rows_read: 2,
                first_line: 2,
                first_reason: Some(ExclusionReason::MissingValue {
                    column: "nac".into(),
                }),
            },
            IngestError::NoUsableRows {
                file: "a.csv".into(),
                rows_read: 0,
                first_line: 0,
                first_reason: None,
            },
            IngestError::RateLagWithoutRate {
                lag: 2,
                deaths: None,
            },
            IngestError::RateLagWithoutRate {
                lag: 1,
                deaths: Some(("a.csv".into(), "defunciones".into())),
            },
        ];
        #[cfg(feature = "sheets")]
        kinds.extend(workbook_kinds());
        kinds
    }

    #[cfg(feature = "sheets")]
    fn workbook_kinds() -> Vec<IngestError> {
        vec![
            IngestError::Workbook {
                file: "a.xlsx".into(),
                sheet: Some("2010".into()),
                why: Box::new(Workbook::TooManyCells { max_cells: 9 }),
            },
            IngestError::Workbook {
                file: "a.xlsx".into(),
                sheet: None,
                why: Box::new(Workbook::NoSuchSheet {
                    sheet: "2030".into(),
                    sheets: ColumnNames::of(&["2010".into(), "Códigos".into()]),
                }),
            },
            IngestError::Workbook {
                file: "a.xlsx".into(),
                sheet: None,
                why: Box::new(Workbook::UnpacksTooLarge {
                    unpacked_bytes: 9,
                    max_bytes: 1,
                }),
            },
            IngestError::Workbook {
                file: "a.xlsx".into(),
                sheet: Some("x".into()),
                why: Box::new(Workbook::CellOutsideGrid { row: 1, column: 2 }),
            },
            IngestError::Workbook {
                file: "a.xlsx".into(),
                sheet: None,
                why: Box::new(Workbook::FileTooLarge {
                    bytes: 9,
                    max_bytes: 1,
                }),
            },
            IngestError::Workbook {
                file: "a.xml".into(),
                sheet: None,
                why: Box::new(Workbook::NotAWorkbook),
            },
            IngestError::Workbook {
                file: "a.xml".into(),
                sheet: None,
                why: Box::new(Workbook::NoSheets),
            },
            IngestError::Workbook {
                file: "a.xml".into(),
                sheet: None,
                why: Box::new(Workbook::NotBuiltIn),
            },
        ]
    }

    #[test]
    fn english_is_the_display_text_the_cli_printed_before_errors_were_values() {
        let texts: Vec<String> = every_kind().iter().map(ToString::to_string).collect();
        assert_eq!(texts[0], "a.csv: the file is empty");
        assert_eq!(
            texts[4],
            "a.csv: no column for the commune code (entity) (columns are: c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20 … and 3 more); choose one"
        );
        assert_eq!(
            texts[6],
            "a.csv: column `n` is chosen for both the births and the deaths; each role needs its own column"
        );
        assert_eq!(
            texts[8],
            "a.csv: no usable rows: all 2 rows were excluded (first: line 2, column `nac`: missing value)"
        );
        assert_eq!(
            texts[9],
            "a.csv: no usable rows: all 0 rows were excluded (first: line 0, no data rows)"
        );
        assert_eq!(
            texts[11],
            "a rate lag of 1 year moves published rates to the year they describe, and the deaths \
             here are counted (a.csv, column `defunciones`), not derived from a rate: give no lag \
             (imr: leave out --rate-lag; in the Data view, \"The rates describe the year\": \"the same\"), or choose no deaths \
             column to derive them from the rate"
        );
    }

    #[cfg(feature = "sheets")]
    #[test]
    fn workbook_errors_name_the_file_and_sheet() {
        let texts: Vec<String> = workbook_kinds().iter().map(ToString::to_string).collect();
        assert_eq!(
            texts[0],
            "a.xlsx [2010]: the sheet has more than 9 cells, the most a sheet may have here; export it as CSV"
        );
        assert_eq!(
            texts[1],
            "a.xlsx: no sheet named \"2030\" (sheets: 2010, Códigos)"
        );
    }

    #[test]
    fn spanish_texts_have_no_english_words() {
        const ENGLISH: [&str; 14] = [
            "the", "file", "column", "columns", "line", "rows", "and", "more", "data", "births",
            "deaths", "choose", "excluded", "empty",
        ];
        for error in every_kind() {
            let text = error.text(Lang::Es);
            assert_eq!(
                imr_lang::spanish_problems(&error),
                Vec::<String>::new(),
                "{text}"
            );
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                assert!(!ENGLISH.contains(&word), "{word:?} in {text:?}");
            }
            assert_ne!(text, error.to_string());
        }
    }
}
