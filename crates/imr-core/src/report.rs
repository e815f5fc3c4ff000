//! What happened to every row of every file: the report the ingest writes and the panel
//! carries ([`IngestReport`]), each excluded row with its file, line and reason. Apart from the
//! ingest (which re-exports it) so that the panel depends on the report, not on the reading.

use serde::{Deserialize, Serialize};

/// The largest births or deaths count accepted for one area and year: 1,000,000,000. The
/// world has about 130 million births a year, so a larger count is an error in the file (a
/// misplaced column, `1e308`); the limit also keeps sums over 345 communes and many years far
/// below 2^53, where every integer is exact in `f64`.
pub const MAX_COUNT: f64 = 1e9;

/// A leading `#` line of a file (source, engine and date of an export), kept out of the data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetadataLine {
    /// 1-based physical line in the file.
    pub line: u64,
    /// The line as written, with its `#`.
    pub text: String,
}

/// Why a row was not used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ExclusionReason {
    NonNumeric {
        column: String,
        value: String,
    },
    /// A `"` that opens a field and is never closed: the rest of the file read as one field.
    UnterminatedQuote {
        quote_line: u64,
        lines_swallowed: u64,
    },
    /// A count above [`MAX_COUNT`] (`value` as written: `1e308` stays short).
    CountTooLarge {
        column: String,
        value: String,
    },
    /// A negative rate.
    NegativeRate {
        column: String,
        value: f64,
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
    /// With a rate lag ([`crate::ingest::IngestOptions::rate_lag`]): the rate describing the
    /// row's year `time` is published `lag` years later, in the row of the same area and year
    /// `published_in`, and `found` says why that row gives none.
    NoLaggedRate {
        lag: u32,
        time: i64,
        published_in: i64,
        found: LaggedRateSource,
    },
    /// A row of totals ("Total País", "Total", "TOTAL REGIÓN", "Subtotal"): its first filled
    /// cell, `value`, starts with such a word. Agencies' tables end or interleave them; read as
    /// an area they would count every death twice.
    TotalsRow {
        value: String,
    },
    /// A note under or above a table ("Fuente: …", "Nota: …", "(*) …"): its first filled cell,
    /// `value` (the first 80 characters), starts so.
    NoteRow {
        value: String,
    },
    /// A code read in DEIS's code system of its year that is the code of a commune created
    /// after that year: the commune did not exist then, and its code is not matched to another.
    /// Boxed: the largest reason, it would widen every exclusion. Feature `historical-codes`.
    #[cfg(feature = "historical-codes")]
    NotYetCreated(Box<NotYetCreated>),
    /// A code read in DEIS's code system of its year that no commune had in that system.
    /// Feature `historical-codes`.
    #[cfg(feature = "historical-codes")]
    UnknownCodeOfSystem {
        code: String,
        system: String,
        time: i64,
    },
}

/// A code of a commune not yet created in the year of its row ([`ExclusionReason::NotYetCreated`]).
#[cfg(feature = "historical-codes")]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotYetCreated {
    /// The code as written.
    pub code: String,
    /// DEIS's system it was read in ("desde 2000").
    pub system: String,
    /// The row's year.
    pub time: i64,
    /// The commune whose code it is, its 2018 code, and the year it was created.
    pub commune: String,
    pub code_2018: String,
    pub created: i64,
}

/// Why the row that publishes a lagged rate gives none ([`ExclusionReason::NoLaggedRate`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum LaggedRateSource {
    /// The data have no row of that area and year.
    NoRow,
    /// The row (its file and line) has no rate: the rate cell is empty, or its file has no
    /// rate column.
    NoRate { file: String, line: u64 },
    /// The row (its file and line) is excluded for a reason of its own.
    Excluded { file: String, line: u64 },
}

/// "1 year", "2 years" in `lang`.
fn years_word(n: u32, lang: crate::Lang) -> String {
    match (lang, n) {
        (crate::Lang::En, 1) => "1 year".into(),
        (crate::Lang::En, n) => format!("{n} years"),
        (crate::Lang::Es, 1) => "1 año".into(),
        (crate::Lang::Es, n) => format!("{n} años"),
    }
}

impl LaggedRateSource {
    /// ", which the data do not have", ", which has none", … in `lang` (after "the row of Y").
    fn text(&self, lang: crate::Lang) -> String {
        use crate::Lang::{En, Es};
        match (self, lang) {
            (Self::NoRow, En) => ", which the data do not have".into(),
            (Self::NoRow, Es) => ", que los datos no tienen".into(),
            (Self::NoRate { file, line }, En) => format!(" ({file}, line {line}), which has none"),
            (Self::NoRate { file, line }, Es) => {
                format!(" ({file}, línea {line}), que no tiene tasa")
            }
            (Self::Excluded { file, line }, En) => {
                format!(" ({file}, line {line}), which is excluded")
            }
            (Self::Excluded { file, line }, Es) => {
                format!(" ({file}, línea {line}), que está excluida")
            }
        }
    }
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
                format!("columna «{column}»: se esperaba un número y dice \"{value}\"")
            }
            UnterminatedQuote {
                quote_line,
                lines_swallowed,
            } => format!(
                "la comilla «\"» abierta en la línea {quote_line} nunca se cierra: el resto del archivo ({lines_swallowed} líneas físicas) se leyó como un solo campo"
            ),
            CountTooLarge { column, value } => format!(
                "columna «{column}»: conteo {value} mayor que el límite {}",
                MAX_COUNT
            ),
            NegativeRate { column, value } => {
                format!("columna «{column}»: tasa negativa {value}")
            }
            NotAYear { column, value } => {
                format!("columna «{column}»: se esperaba un año entero y dice \"{value}\"")
            }
            NegativeCount { column, value } => {
                format!("columna «{column}»: conteo negativo {value}")
            }
            DeathsExceedBirths { deaths, births } => {
                format!("las defunciones ({deaths}) superan a los nacimientos ({births})")
            }
            MissingValue { column } => format!("columna «{column}»: valor faltante"),
            MissingEntity { column } => format!("columna «{column}»: falta el código"),
            MissingTime { column } => format!("columna «{column}»: falta el año"),
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
            NoLaggedRate {
                lag,
                time,
                published_in,
                found,
            } => format!(
                "sin tasa: con un desfase de {}, la tasa de {time} se publica en la fila de {published_in}{}",
                years_word(*lag, lang),
                found.text(lang)
            ),
            TotalsRow { value } => {
                format!("fila de totales (\"{value}\"), no una comuna")
            }
            NoteRow { value } => format!("nota al pie o encabezado (\"{value}\"), no un dato"),
            #[cfg(feature = "historical-codes")]
            NotYetCreated(n) => {
                let self::NotYetCreated {
                    code,
                    system,
                    time,
                    commune,
                    code_2018,
                    created,
                } = n.as_ref();
                format!(
                "el código {code} (sistema DEIS «{system}», el de {time}) es de {commune} \
                 ({code_2018}), creada en {created}: no existía en {time} y no se asigna a otra comuna"
                )
            }
            #[cfg(feature = "historical-codes")]
            UnknownCodeOfSystem { code, system, time } => format!(
                "código de comuna desconocido \"{code}\" en el sistema DEIS «{system}» (el de {time})"
            ),
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
            UnterminatedQuote {
                quote_line,
                lines_swallowed,
            } => write!(
                f,
                "the `\"` opened on line {quote_line} is never closed: the rest of the file ({lines_swallowed} physical lines) was read as one field"
            ),
            CountTooLarge { column, value } => write!(
                f,
                "column `{column}`: count {value} above the limit {}",
                MAX_COUNT
            ),
            NegativeRate { column, value } => {
                write!(f, "column `{column}`: negative rate {value}")
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
            NoLaggedRate {
                lag,
                time,
                published_in,
                found,
            } => write!(
                f,
                "no rate: with a lag of {} the rate of {time} is published in the row of {published_in}{}",
                years_word(*lag, crate::Lang::En),
                found.text(crate::Lang::En)
            ),
            TotalsRow { value } => write!(f, "a totals row (\"{value}\"), not an area"),
            NoteRow { value } => write!(f, "a note (\"{value}\"), not a data row"),
            #[cfg(feature = "historical-codes")]
            NotYetCreated(n) => {
                let self::NotYetCreated {
                    code,
                    system,
                    time,
                    commune,
                    code_2018,
                    created,
                } = n.as_ref();
                write!(
                f,
                "code {code} (DEIS system \"{system}\", that of {time}) is {commune} \
                 ({code_2018}), created in {created}: it did not exist in {time}, and the code is \
                 not matched to another commune"
                )
            }
            #[cfg(feature = "historical-codes")]
            UnknownCodeOfSystem { code, system, time } => write!(
                f,
                "unknown commune code \"{code}\" in DEIS's \"{system}\" system (that of {time})"
            ),
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
    /// Physical lines of the file: metadata, header, blank lines and every line of every record
    /// (a quoted field may span lines).
    pub physical_lines: u64,
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
    /// The year every row of a main file without a time column was given
    /// (`IngestOptions::time_value`); absent for a file with its own years.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_given: Option<i64>,
    /// The lag by which the published rates of this main file were moved
    /// (`IngestOptions::rate_lag`): the rate in its row of year Y was paired with the births of
    /// the same area in year Y − lag. Absent without a lag or without a rate column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_lag: Option<u32>,
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
    /// The years of main files whose codes were read in DEIS's code system of the year (the
    /// engine's feature `historical-codes`; `imr`), not as 2018 codes.
    #[cfg(feature = "historical-codes")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub code_systems: Vec<CodeSystemRead>,
    /// Every code read in its year's system whose 2018 code differs, with the rows read so.
    #[cfg(feature = "historical-codes")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub historical_recodings: Vec<HistoricalRecoding>,
    /// Rows of a main file merged into the row of the same area and time from another main
    /// file because they carry the counts it lacks (births in one file, deaths in the other, as
    /// the health ministry publishes them). They count as used.
    pub merged_rows: usize,
    pub cell_warnings: Vec<CellWarning>,
    /// Covariate values that disagree between two rows merged into one (births in one file,
    /// deaths in another, both with the covariate): the first file's value is kept.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<CellConflict>,
    /// With a rate lag: the published rates that describe a year of which their area has no
    /// row, so no births to pair with (not exclusions: the row of each is used or excluded by
    /// the rate published after it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unplaced_rates: Vec<UnplacedRate>,
    /// Which year's births the published rates fit ([`crate::lag::detect`] on the rates and
    /// births as read, before any lag is applied); absent when deaths are not derived from a
    /// rate column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_lag: Option<crate::lag::LagReport>,
}

/// A year of a main file whose codes were read in DEIS's code system of that year
/// ([`IngestReport::code_systems`]).
#[cfg(feature = "historical-codes")]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodeSystemRead {
    pub file: String,
    pub time: i64,
    /// DEIS's name of the system: "hasta 1999", "desde 2000", "desde 2008".
    pub system: &'static str,
}

/// A code of a year's system recoded to a different 2018 code
/// ([`IngestReport::historical_recodings`]): in `file`, the rows of `time` with `code` (as
/// written) are `commune`, `code_2018` today; `rows` of them were read.
#[cfg(feature = "historical-codes")]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoricalRecoding {
    pub file: String,
    pub time: i64,
    pub system: &'static str,
    pub code: String,
    pub code_2018: String,
    pub commune: String,
    pub rows: usize,
}

/// A published rate that a rate lag moves to a year of which its area has no row
/// ([`IngestReport::unplaced_rates`]): the rate in `file`, line `line`, of `entity` in `time`
/// describes `describes`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnplacedRate {
    pub file: String,
    pub line: u64,
    pub entity: String,
    pub time: i64,
    pub describes: i64,
}

impl UnplacedRate {
    /// "a.csv, line 5: the rate of 01101 in 2019 describes 2017, a year without a row of
    /// 01101; it is not used", in `lang`.
    pub fn text(&self, lang: crate::Lang) -> String {
        let UnplacedRate {
            file,
            line,
            entity,
            time,
            describes,
        } = self;
        match lang {
            crate::Lang::En => format!(
                "{file}, line {line}: the rate of {entity} in {time} describes {describes}, a year without a row of {entity}; it is not used"
            ),
            crate::Lang::Es => format!(
                "{file}, línea {line}: la tasa de {entity} en {time} describe {describes}, un año sin fila de {entity}; no se usa"
            ),
        }
    }
}

impl std::fmt::Display for UnplacedRate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(crate::Lang::En))
    }
}

impl IngestReport {
    /// The physical lines of all the files (each file's header, metadata, rows, blank lines
    /// and lines inside quoted fields), the total the line accounting adds up to.
    pub fn physical_lines(&self) -> u64 {
        self.files.iter().map(|f| f.physical_lines).sum()
    }
}

/// One cell of a merged row whose two files disagree; the value of `kept_file` is used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellConflict {
    pub column: String,
    pub entity: String,
    pub time: i64,
    pub kept_file: String,
    pub kept_line: u64,
    pub kept_value: String,
    pub other_file: String,
    pub other_line: u64,
    pub other_value: String,
}

impl std::fmt::Display for CellConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "column `{}` of {} in {}: {} line {} says \"{}\", {} line {} says \"{}\"; the first is used",
            self.column,
            self.entity,
            self.time,
            self.kept_file,
            self.kept_line,
            self.kept_value,
            self.other_file,
            self.other_line,
            self.other_value
        )
    }
}
