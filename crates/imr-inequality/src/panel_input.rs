//! From the rows of a validated panel to a [`Subject`]: the one adaptation that the `imr
//! inequality` command and the page's Inequality view share, so that both measure the same areas.
//!
//! The panel type lives in `imr-core`, which depends on this crate; the adapter therefore takes
//! the few fields it needs as plain slices ([`PanelRowRef`] and [`Column`]).

use crate::input::{AreaObservation, RateInput, Subject, ValueInput, ValueObservation};
use imr_stats::Lang;
use serde::Serialize;

/// The fields of one panel row that the adaptation reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PanelRowRef<'a> {
    /// File and 1-based line the row came from (for messages and the list of rows left out).
    pub file: &'a str,
    pub line: u64,
    pub entity: &'a str,
    pub time: i64,
    pub births: Option<f64>,
    pub deaths: Option<f64>,
    /// The least and greatest whole deaths consistent with the sources, when the data give a
    /// range (deaths reconstructed from a rounded rate); `None`: the deaths are exact.
    pub deaths_range: Option<[f64; 2]>,
}

/// A named column, one cell per panel row (same order as the rows).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Column<'a, T> {
    pub name: &'a str,
    pub cells: &'a [Option<T>],
}

/// What is measured: the infant mortality rate (deaths over births), or a value column with a
/// weight column (`--of COL --weight COL`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SubjectColumns<'a> {
    Rates {
        /// Deaths were computed from a published rate (intervals approximate).
        deaths_derived: bool,
    },
    Values {
        values: Column<'a, f64>,
        weights: Column<'a, f64>,
    },
}

/// A panel row that is not an area of the analysis, and why.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct NotMeasured {
    pub file: String,
    pub line: u64,
    pub entity: String,
    pub time: i64,
    /// Worded per language; the JSON's `rows_not_measured` carries the English text.
    pub reason: NotMeasuredReason,
}

/// Why a panel row is not an area of the analysis ([`NotMeasured::reason`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum NotMeasuredReason {
    /// The row has no deaths.
    DeathsMissing,
    /// The row has no births.
    BirthsMissing,
    /// The row has no value in this column (the value or its weight).
    ColumnMissing { column: String },
    /// Flagged as implausible by the caller (imr-core's plausibility rules), whose reasons come
    /// worded in both languages.
    Flagged { reasons: imr_stats::Worded },
}

impl NotMeasuredReason {
    /// The reason in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (NotMeasuredReason::DeathsMissing, _) => lang
                .pick("faltan las defunciones", "deaths are missing")
                .into(),
            (NotMeasuredReason::BirthsMissing, _) => lang
                .pick("faltan los nacidos vivos", "births are missing")
                .into(),
            (NotMeasuredReason::ColumnMissing { column }, Lang::En) => {
                format!("`{column}` is missing")
            }
            (NotMeasuredReason::ColumnMissing { column }, Lang::Es) => {
                format!("falta el valor de «{column}»")
            }
            (NotMeasuredReason::Flagged { reasons }, Lang::En) => {
                format!("flagged as implausible: {}", reasons.text(lang))
            }
            (NotMeasuredReason::Flagged { reasons }, Lang::Es) => {
                format!("marcada como inverosímil: {}", reasons.text(lang))
            }
        }
    }
}

impl std::fmt::Display for NotMeasuredReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl Serialize for NotMeasuredReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Which optional key a row lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    Group,
    Rank,
}

impl KeyRole {
    /// The command-line flag that names the column (`group` or `rank`).
    pub fn flag(self) -> &'static str {
        match self {
            KeyRole::Group => "group",
            KeyRole::Rank => "rank",
        }
    }
}

/// A row without a value in the group column, or in the rank column while other rows of its year
/// have one. Leaving such a row out would silently change the decomposition or the gradient, so
/// it is an error rather than a row left out. (A year where no row has a rank — a covariate
/// published for some years only — has no rank measures; that is no error.)
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}, line {line}, column `{column}`: the {} column needs a value in every row, found none", role.flag())]
pub struct MissingKey {
    pub file: String,
    pub line: u64,
    pub column: String,
    pub role: KeyRole,
}

/// The subject of the analysis from the panel rows, and the rows left out with reasons.
///
/// A row missing its group, or its rank in a year where other rows have one, is an error
/// ([`MissingKey`], the first such row, group checked before rank); a year where no row has a
/// rank has no rank measures. A row missing births, deaths, the value or the weight is listed in
/// the returned [`NotMeasured`] and left out. `group` and `rank` cells must have one entry per
/// row.
pub fn subject_from_rows(
    rows: &[PanelRowRef],
    subject: SubjectColumns,
    group: Option<Column<String>>,
    rank: Option<Column<f64>>,
) -> Result<(Subject, Vec<NotMeasured>), MissingKey> {
    let ranked_years: std::collections::BTreeSet<i64> = match &rank {
        Some(r) => rows
            .iter()
            .zip(r.cells)
            .filter(|(_, cell)| cell.is_some())
            .map(|(row, _)| row.time)
            .collect(),
        None => Default::default(),
    };
    for (i, row) in rows.iter().enumerate() {
        let missing = match (&group, &rank) {
            (Some(g), _) if g.cells[i].is_none() => Some((KeyRole::Group, g.name)),
            (_, Some(r)) if r.cells[i].is_none() && ranked_years.contains(&row.time) => {
                Some((KeyRole::Rank, r.name))
            }
            _ => None,
        };
        if let Some((role, column)) = missing {
            return Err(MissingKey {
                file: row.file.to_string(),
                line: row.line,
                column: column.to_string(),
                role,
            });
        }
    }
    let group_of = |i: usize| group.as_ref().and_then(|g| g.cells[i].clone());
    let rank_of = |i: usize| rank.as_ref().and_then(|r| r.cells[i]);
    let mut left_out = Vec::new();
    let mut leave = |row: &PanelRowRef, reason: NotMeasuredReason| {
        left_out.push(NotMeasured {
            file: row.file.to_string(),
            line: row.line,
            entity: row.entity.to_string(),
            time: row.time,
            reason,
        });
    };
    let subject = match subject {
        SubjectColumns::Values { values, weights } => {
            let mut observations = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                match (values.cells[i], weights.cells[i]) {
                    (Some(value), Some(weight)) => observations.push(ValueObservation {
                        entity: row.entity.to_string(),
                        time: row.time,
                        value,
                        weight,
                        group: group_of(i),
                        rank: rank_of(i),
                    }),
                    (None, _) => leave(
                        row,
                        NotMeasuredReason::ColumnMissing {
                            column: values.name.to_string(),
                        },
                    ),
                    (_, None) => leave(
                        row,
                        NotMeasuredReason::ColumnMissing {
                            column: weights.name.to_string(),
                        },
                    ),
                }
            }
            Subject::Values(ValueInput {
                observations,
                value_name: values.name.to_string(),
                weight_name: weights.name.to_string(),
                unit: String::new(),
            })
        }
        SubjectColumns::Rates { deaths_derived } => {
            let mut observations = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                match (row.deaths, row.births) {
                    (Some(events), Some(exposure)) => observations.push(AreaObservation {
                        entity: row.entity.to_string(),
                        time: row.time,
                        events,
                        exposure,
                        group: group_of(i),
                        rank: rank_of(i),
                        events_range: row.deaths_range,
                    }),
                    (None, _) => leave(row, NotMeasuredReason::DeathsMissing),
                    (_, None) => leave(row, NotMeasuredReason::BirthsMissing),
                }
            }
            Subject::Rates(RateInput::per_1000(observations, deaths_derived))
        }
    };
    Ok((subject, left_out))
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(NotMeasuredReason);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_a_row_is_not_measured_is_worded_in_spanish_without_english_words() {
        let reasons = [
            NotMeasuredReason::DeathsMissing,
            NotMeasuredReason::BirthsMissing,
            NotMeasuredReason::ColumnMissing {
                column: "poblacion".into(),
            },
            NotMeasuredReason::Flagged {
                reasons: imr_stats::Worded {
                    es: "tasa sobre 200 por 1.000".into(),
                    en: "rate above 200 per 1,000".into(),
                },
            },
        ];
        for reason in reasons {
            let (es, en) = (reason.text(Lang::Es), reason.text(Lang::En));
            assert_ne!(es, en);
            assert_eq!(reason.to_string(), en);
            assert_eq!(
                imr_lang::spanish_problems(&reason),
                Vec::<String>::new(),
                "{es}"
            );
        }
    }

    fn row(
        line: u64,
        entity: &'static str,
        births: Option<f64>,
        deaths: Option<f64>,
    ) -> PanelRowRef<'static> {
        PanelRowRef {
            file: "f.csv",
            line,
            entity,
            time: 2019,
            births,
            deaths,
            deaths_range: None,
        }
    }

    /// A rank published for some years (poverty of 2006–2012 and 2019–2021 in the bundled data):
    /// a year where no row has it has no rank measures, a year where some rows lack it is an
    /// error naming the first such row.
    #[test]
    fn a_rank_missing_in_a_whole_year_is_no_error_and_in_part_of_a_year_is() {
        let at = |line, entity, time| PanelRowRef {
            time,
            ..row(line, entity, Some(100.0), Some(1.0))
        };
        let rows = [
            at(2, "01101", 2005),
            at(3, "01107", 2005),
            at(4, "01101", 2006),
            at(5, "01107", 2006),
        ];
        let rates = SubjectColumns::Rates {
            deaths_derived: false,
        };
        let whole_years = [None, None, Some(3.0), Some(5.0)];
        let rank = Column {
            name: "pobreza",
            cells: &whole_years,
        };
        assert!(subject_from_rows(&rows, rates, None, Some(rank)).is_ok());
        let part_of_a_year = [None, None, Some(3.0), None];
        let rank = Column {
            name: "pobreza",
            cells: &part_of_a_year,
        };
        let error = subject_from_rows(&rows, rates, None, Some(rank)).unwrap_err();
        assert_eq!((error.line, error.role), (5, KeyRole::Rank));
        assert_eq!(
            error.to_string(),
            "f.csv, line 5, column `pobreza`: the rank column needs a value in every row, found none"
        );
    }

    #[test]
    fn rows_without_births_are_listed_with_their_line_and_left_out() {
        let rows = [
            row(2, "01101", Some(100.0), Some(1.0)),
            row(3, "01107", None, Some(0.0)),
        ];
        let (subject, left_out) = subject_from_rows(
            &rows,
            SubjectColumns::Rates {
                deaths_derived: false,
            },
            None,
            None,
        )
        .unwrap();
        let Subject::Rates(input) = subject else {
            panic!("rates expected")
        };
        assert_eq!(input.observations.len(), 1);
        assert_eq!(left_out.len(), 1);
        assert_eq!(left_out[0].line, 3);
        assert_eq!(left_out[0].reason.to_string(), "births are missing");
    }

    #[test]
    fn a_missing_group_is_an_error_naming_file_line_and_column() {
        let rows = [
            row(2, "01101", Some(100.0), Some(1.0)),
            row(3, "01107", Some(50.0), Some(0.0)),
        ];
        let groups = [Some("A".to_string()), None];
        let err = subject_from_rows(
            &rows,
            SubjectColumns::Rates {
                deaths_derived: false,
            },
            Some(Column {
                name: "region",
                cells: &groups,
            }),
            None,
        )
        .unwrap_err();
        assert_eq!(
            (err.line, err.column.as_str(), err.role),
            (3, "region", KeyRole::Group)
        );
    }

    #[test]
    fn values_missing_their_weight_are_left_out_with_the_weight_named() {
        let rows = [row(2, "01101", None, None), row(3, "01107", None, None)];
        let values = [Some(1.0), Some(2.0)];
        let weights = [Some(10.0), None];
        let (subject, left_out) = subject_from_rows(
            &rows,
            SubjectColumns::Values {
                values: Column {
                    name: "income",
                    cells: &values,
                },
                weights: Column {
                    name: "pop",
                    cells: &weights,
                },
            },
            None,
            None,
        )
        .unwrap();
        let Subject::Values(input) = subject else {
            panic!("values expected")
        };
        assert_eq!(input.observations.len(), 1);
        assert_eq!(left_out[0].reason.to_string(), "`pop` is missing");
    }
}
