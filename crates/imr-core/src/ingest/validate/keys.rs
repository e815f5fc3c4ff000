//! Phase "keys": the (entity, time) key of each record. Decides whether entities are Chilean
//! CUT codes ([`EntityCodes::choose`]), normalises each entity value (padding, Ñuble
//! recoding, unknown codes excluded), gives each distinct entity of the main data its id once
//! ([`EntityIds`]) and reads a record's raw entity and year ([`record_key`]). Hands on keys, or
//! the reason a record has none.

use super::super::codes::CutCodes;
use super::super::columns::{normalise_name, ColumnRoles};
use super::super::number::is_missing_token;
use super::super::store::RawRecord;
use super::super::table::RawTable;
use super::super::ExclusionReason;
use super::values::{whole_year, ParsedExtras, NO_YEAR};
use crate::panel::PanelBuilder;
use std::collections::{HashMap, HashSet};

/// How entity codes are treated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeSystem {
    /// Chilean CUT codes when at least 80% of the distinct entity values are (after
    /// normalisation) in the 2018 list; otherwise any text identifier.
    #[default]
    Auto,
    /// Always validate as Chilean CUT codes (unknown codes are excluded).
    ChileCut,
    /// Any identifier, trimmed of spaces.
    Generic,
}

/// How the entity values of every table become entities: Chilean CUT codes (normalised by
/// [`CutCodes::normalise`], a code not in the 2018 list excluded) or any identifier, trimmed.
#[derive(Debug, Clone, Copy)]
pub(super) struct EntityCodes {
    /// Whether entities are CUT codes.
    pub chile: bool,
    codes: &'static CutCodes,
}

impl EntityCodes {
    /// The treatment `system` asks for; [`CodeSystem::Auto`] decides on the distinct entity
    /// values the walk of each main table listed ([`looks_like_cut`]).
    pub fn choose(system: CodeSystem, parsed: &[ParsedExtras]) -> EntityCodes {
        let codes = CutCodes::embedded();
        let chile = match system {
            CodeSystem::ChileCut => true,
            CodeSystem::Generic => false,
            CodeSystem::Auto => looks_like_cut(parsed, codes),
        };
        EntityCodes { chile, codes }
    }

    /// The entity of a raw value and whether it was recoded (a pre-2018 Ñuble code), or, when
    /// entities are CUT codes, [`ExclusionReason::UnknownCode`] for a code not in the list.
    pub fn entity_of(&self, raw: &str) -> Result<(String, bool), ExclusionReason> {
        if !self.chile {
            return Ok((raw.trim().to_owned(), false));
        }
        let (entity, recoded) = self.codes.normalise(raw);
        if !self.codes.contains(&entity) {
            return Err(ExclusionReason::UnknownCode {
                code: raw.trim().to_owned(),
            });
        }
        Ok((entity, recoded))
    }
}

/// True when at least 80% of the distinct non-empty entity values of the main tables are CUT
/// codes after normalisation; the values as the walk that parsed each main table listed them.
fn looks_like_cut(parsed: &[ParsedExtras], codes: &CutCodes) -> bool {
    // Totals and notes rows ("Total País") are not areas: they do not vote.
    let distinct: HashSet<&str> = parsed
        .iter()
        .flat_map(|p| p.entities.iter().copied())
        .filter(|v| summary_or_note_text(v.trim()).is_none())
        .collect();
    if distinct.is_empty() {
        return false;
    }
    // A code of one of DEIS's older systems (INE's 2000 sheet has three-digit codes) is a
    // Chilean code too, read in its year's system by the stacking.
    #[cfg(feature = "historical-codes")]
    let chilean = |v: &str| {
        codes.contains(&codes.normalise(v).0)
            || imr_data::historical::HistoricalCodes::embedded().knows_raw(v)
    };
    #[cfg(not(feature = "historical-codes"))]
    let chilean = |v: &str| codes.contains(&codes.normalise(v).0);
    let known = distinct.iter().filter(|v| chilean(v)).count();
    known * 5 >= distinct.len() * 4
}

/// A raw entity value read before: its entity id and whether it was recoded, or why it is not
/// an entity.
type KnownEntity = Result<(u32, bool), ExclusionReason>;

/// The entity ids of the main data's raw entity values: each distinct value as written is
/// normalised and interned once, and rows of one entity, which usually follow each other, cost
/// no hash.
#[derive(Debug, Default)]
pub(super) struct EntityIds<'t> {
    known: HashMap<&'t str, KnownEntity>,
    last: Option<(&'t str, KnownEntity)>,
}

impl<'t> EntityIds<'t> {
    /// The id in `rows` of the entity written `raw` and whether it was recoded, or why `raw` is
    /// not an entity.
    pub fn id_of(
        &mut self,
        raw: &'t str,
        codes: &EntityCodes,
        rows: &mut PanelBuilder,
    ) -> KnownEntity {
        if let Some((last, known)) = &self.last {
            if *last == raw {
                return known.clone();
            }
        }
        let known = self
            .known
            .entry(raw)
            .or_insert_with(|| {
                codes
                    .entity_of(raw)
                    .map(|(entity, recoded)| (rows.entity_id(&entity), recoded))
            })
            .clone();
        self.last = Some((raw, known.clone()));
        known
    }
}

/// Words that open a row of totals, normalised ([`normalise_name`]'s form): "Total País",
/// "TOTAL", "Total Región", "Subtotal", "Totales".
const TOTALS_WORDS: [&str; 3] = ["total", "totales", "subtotal"];

/// Words that open a note under or above an agency's table, normalised: "Fuente: INE",
/// "Nota: …", "Notas", "Source", "Elaboración propia".
const NOTE_WORDS: [&str; 7] = [
    "fuente",
    "fuentes",
    "nota",
    "notas",
    "source",
    "note",
    "elaboracion",
];

/// Whether a record is a row of totals or a note rather than an area ([`ExclusionReason::TotalsRow`],
/// [`ExclusionReason::NoteRow`]), from its first filled cell: its first word (accents and case
/// aside) is one of [`TOTALS_WORDS`] or [`NOTE_WORDS`], or it opens with a footnote mark (`*`,
/// `(*)`, `(1)`). A code such as `01101` or a name such as "Totoral" is neither. Checked before
/// the record's width, since a note is one cell of a wider table.
pub(super) fn summary_or_note(rec: &RawRecord<'_>) -> Option<ExclusionReason> {
    summary_or_note_text(rec.fields().map(str::trim).find(|v| !v.is_empty())?)
}

/// [`summary_or_note`] of a record whose first filled cell is `first` (trimmed).
fn summary_or_note_text(first: &str) -> Option<ExclusionReason> {
    // Codes and most names are neither: decided on the first character, without a copy (this
    // runs on every record of every file).
    let opening = first.chars().next()?.to_ascii_lowercase();
    if !matches!(opening, 't' | 's' | 'f' | 'n' | 'e' | '*' | '(') {
        return None;
    }
    let word: String = first
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .take(16)
        .collect();
    let word = normalise_name(&word);
    let shown = || first.chars().take(80).collect::<String>();
    if TOTALS_WORDS.contains(&word.as_str()) {
        return Some(ExclusionReason::TotalsRow { value: shown() });
    }
    let footnote = first.starts_with('*')
        || (first.starts_with('(')
            && first[1..]
                .split_once(')')
                .is_some_and(|(mark, _)| mark == "*" || mark.parse::<u8>().is_ok()));
    if NOTE_WORDS.contains(&word.as_str()) || footnote {
        return Some(ExclusionReason::NoteRow { value: shown() });
    }
    None
}

/// What the walk of [`super::values::parsed_extra_columns`] found of a record (all `None`: read it).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Known {
    /// Whether the record has the table's width.
    pub has_width: Option<bool>,
    /// Its year, when its time field reads as one.
    pub year: Option<i64>,
}

impl Known {
    /// What the walk found of record `read`, from its widths and years.
    pub fn walked(width_ok: &[bool], years: &[i32], read: usize) -> Known {
        Known {
            has_width: width_ok.get(read).copied(),
            year: years
                .get(read)
                .filter(|&&y| y != NO_YEAR)
                .map(|&y| i64::from(y)),
        }
    }
}

/// The raw entity and the year of a record, or why the record cannot be used: an unclosed
/// quote that swallowed the rest of the file, a wrong number of fields, a missing code, a
/// missing or non-integer year (when the table has a time column). `known`: what the walk of
/// the values phase found of the record already; the rest is read here.
pub(super) fn record_key<'a>(
    table: &RawTable,
    rec: &RawRecord<'a>,
    roles: &ColumnRoles,
    known: Known,
) -> Result<(&'a str, Option<i64>), ExclusionReason> {
    let Known { has_width, year } = known;
    if let Some(q) = table.unterminated_quote {
        if q.record_line == rec.line {
            return Err(ExclusionReason::UnterminatedQuote {
                quote_line: q.quote_line,
                lines_swallowed: q.lines_swallowed,
            });
        }
    }
    if let Some(reason) = summary_or_note(rec) {
        return Err(reason);
    }
    let width = table.columns.len();
    if !has_width.unwrap_or_else(|| rec.len() == width) {
        return Err(ExclusionReason::WrongFieldCount {
            expected: width,
            found: rec.len(),
        });
    }
    let entity_i = roles
        .entity
        .expect("every table has an entity column (checked)");
    let raw_entity = rec.field(entity_i).unwrap_or("");
    if raw_entity.trim().is_empty() {
        return Err(ExclusionReason::MissingEntity {
            column: table.columns[entity_i].clone(),
        });
    }
    let Some(time_i) = roles.time else {
        return Ok((raw_entity, None));
    };
    if let Some(year) = year {
        return Ok((raw_entity, Some(year)));
    }
    let raw_time = rec.field(time_i).unwrap_or("");
    if is_missing_token(raw_time) {
        return Err(ExclusionReason::MissingTime {
            column: table.columns[time_i].clone(),
        });
    }
    match whole_year(raw_time, table.decimal()) {
        Some(year) => Ok((raw_entity, Some(year))),
        None => Err(ExclusionReason::NotAYear {
            column: table.columns[time_i].clone(),
            value: raw_time.trim().to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn table(text: &str) -> RawTable {
        RawTable::from_bytes("t.csv", text.as_bytes()).unwrap()
    }

    fn keys<'t>(
        t: &'t RawTable,
        roles: &ColumnRoles,
    ) -> Vec<Result<(&'t str, Option<i64>), ExclusionReason>> {
        t.records
            .iter()
            .map(|rec| record_key(t, &rec, roles, Known::default()))
            .collect()
    }

    /// Totals and notes rows, as agencies' CSV exports end, are excluded with their reason
    /// whatever their width; names that merely start like the words are areas.
    #[test]
    fn totals_and_notes_rows_are_not_areas() {
        let t = table(
            "comuna,year,x\nTotoral,2019,1\nTOTAL PAÍS,2019,9\nSubtotal región,2019,3\n\
             Fuente: DEIS\n(*) cifras provisorias\n\"Notas: a, b\",,\nSanta Bárbara,2019,2\n\
             Elaboración propia\n",
        );
        let roles = ColumnRoles {
            entity: Some(0),
            time: Some(1),
            ..ColumnRoles::default()
        };
        let read = keys(&t, &roles);
        assert_eq!(read[0], Ok(("Totoral", Some(2019))));
        let reason = |i: usize| read[i].as_ref().err().cloned();
        for (i, value) in [(1, "TOTAL PAÍS"), (2, "Subtotal región")] {
            assert_eq!(
                reason(i),
                Some(ExclusionReason::TotalsRow {
                    value: value.into()
                })
            );
        }
        for (i, value) in [
            (3, "Fuente: DEIS"),
            (4, "(*) cifras provisorias"),
            (5, "Notas: a, b"),
            (7, "Elaboración propia"),
        ] {
            assert_eq!(
                reason(i),
                Some(ExclusionReason::NoteRow {
                    value: value.into()
                })
            );
        }
        assert_eq!(read[6], Ok(("Santa Bárbara", Some(2019))));
    }

    #[test]
    fn a_record_key_is_its_entity_and_year_or_why_not() {
        let t = table("code,year,x\n1101,2019,1\n,2019,1\n1101,,1\n1101,2019.5,1\n1101,2019\n");
        let roles = ColumnRoles {
            entity: Some(0),
            time: Some(1),
            ..ColumnRoles::default()
        };
        let read = keys(&t, &roles);
        assert_eq!(read[0], Ok(("1101", Some(2019))));
        assert!(
            matches!(&read[1], Err(ExclusionReason::MissingEntity { column }) if column == "code")
        );
        assert!(
            matches!(&read[2], Err(ExclusionReason::MissingTime { column }) if column == "year")
        );
        assert!(
            matches!(&read[3], Err(ExclusionReason::NotAYear { value, .. }) if value == "2019.5")
        );
        assert_eq!(
            read[4],
            Err(ExclusionReason::WrongFieldCount {
                expected: 3,
                found: 2
            })
        );
        // Without a time column, the key has no year; the walk's findings are taken as read.
        let cross = ColumnRoles {
            time: None,
            ..roles
        };
        assert_eq!(keys(&t, &cross)[2], Ok(("1101", None)));
        let rec = t.records.get(3).unwrap();
        let walked = Known {
            has_width: Some(true),
            year: Some(2020),
        };
        assert_eq!(
            record_key(&t, &rec, &roles, walked),
            Ok(("1101", Some(2020)))
        );
        assert_eq!(
            Known::walked(&[true, false], &[2019, NO_YEAR], 1).year,
            None
        );
    }

    #[test]
    fn cut_codes_are_padded_recoded_and_unknown_ones_excluded() {
        let chile = EntityCodes {
            chile: true,
            codes: CutCodes::embedded(),
        };
        assert_eq!(chile.entity_of(" 1101 "), Ok(("01101".to_owned(), false)));
        // Chillán before 2018 (Ñuble was part of Biobío) is 16101 now.
        assert_eq!(chile.entity_of("8401"), Ok(("16101".to_owned(), true)));
        assert_eq!(
            chile.entity_of(" 99999"),
            Err(ExclusionReason::UnknownCode {
                code: "99999".to_owned()
            })
        );
        let generic = EntityCodes {
            chile: false,
            ..chile
        };
        assert_eq!(generic.entity_of(" 1101 "), Ok(("1101".to_owned(), false)));
    }

    #[test]
    fn auto_takes_cut_codes_when_four_in_five_distinct_values_are_in_the_list() {
        let parsed = |entities: &[&'static str]| ParsedExtras {
            columns: Vec::new(),
            width_ok: Vec::new(),
            entities: entities.iter().copied().collect::<HashSet<_>>(),
            years: Vec::new(),
        };
        let four_of_five = [parsed(&["1101", "1107"]), parsed(&["13101", "8401", "x"])];
        assert!(EntityCodes::choose(CodeSystem::Auto, &four_of_five).chile);
        let three_of_five = [parsed(&["1101", "1107", "13101", "x", "y"])];
        assert!(!EntityCodes::choose(CodeSystem::Auto, &three_of_five).chile);
        assert!(EntityCodes::choose(CodeSystem::ChileCut, &three_of_five).chile);
        assert!(!EntityCodes::choose(CodeSystem::Generic, &four_of_five).chile);
        assert!(!EntityCodes::choose(CodeSystem::Auto, &[]).chile);
    }

    #[test]
    fn each_raw_entity_gets_one_id_and_an_unknown_code_its_reason() {
        let codes = EntityCodes {
            chile: true,
            codes: CutCodes::embedded(),
        };
        let mut rows = PanelBuilder::new(Vec::new(), Vec::new(), false, false, 0);
        let mut ids = EntityIds::default();
        let first = ids.id_of("1101", &codes, &mut rows);
        assert_eq!(first, Ok((0, false)));
        // Written otherwise, the same commune; Ñuble's old code is a new one, recoded.
        assert_eq!(ids.id_of("01101", &codes, &mut rows), Ok((0, false)));
        assert_eq!(ids.id_of("8401", &codes, &mut rows), Ok((1, true)));
        assert_eq!(ids.id_of("1101", &codes, &mut rows), first);
        assert!(matches!(
            ids.id_of("x", &codes, &mut rows),
            Err(ExclusionReason::UnknownCode { .. })
        ));
        assert_eq!(rows.find_entity("16101"), Some(1));
    }
}
