//! Phase "conflicts": records that repeat a key. In the main data, [`KeysSeen`] finds the row
//! an (entity, time) key was first given to, and [`on_repeated_key`] decides: a row of another
//! file that carries the counts the first lacks is merged into it (cells both give that
//! disagree are listed as [`CellConflict`]s), any other repeat is excluded as a duplicate
//! naming the first line, or kept as a row of its own with
//! [`super::IngestOptions::keep_repeated_keys`]. In a characteristics file, [`FirstLines`]
//! excludes a key met before in the same file. Hands on the decision; the stacking records it.

use super::super::{CellConflict, ExclusionReason};
use super::values::RowCells;
use crate::panel::PanelBuilder;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// The (entity, time) keys of the main rows so far, to find a repeated one. While every key is
/// above the one before (ids are given in order of appearance, so data grouped by entity with
/// rising times — the usual layout — stays so) no key can repeat and no map is needed; the
/// first key that is not makes the map of every key so far → its first row, kept from then on.
/// (A map of every row was a tenth of the build and ~70 MB for a million rows.)
#[derive(Debug)]
pub(super) struct KeysSeen {
    last: Option<(u32, i64)>,
    first_rows: Option<HashMap<(u32, i64), usize>>,
    /// Rows the map is made for (the main tables' records).
    capacity: usize,
}

impl KeysSeen {
    /// No key seen yet, for main tables of `capacity` records in all.
    pub fn new(capacity: usize) -> KeysSeen {
        KeysSeen {
            last: None,
            first_rows: None,
            capacity,
        }
    }

    /// The row of `rows` that has `key` already, or `None` when the key is new: it is then
    /// taken for the row `rows` will push next (`rows.len()`).
    pub fn first_row_of(&mut self, key: (u32, i64), rows: &PanelBuilder) -> Option<usize> {
        match &mut self.first_rows {
            None if self.last.is_none_or(|last| key > last) => {
                self.last = Some(key);
                None
            }
            _ => {
                let capacity = self.capacity;
                let map = self.first_rows.get_or_insert_with(|| {
                    let mut map = HashMap::with_capacity(capacity);
                    map.extend((0..rows.len()).map(|i| (rows.key_of(i), i)));
                    map
                });
                // One hash per row: the slot is taken now when the key is new.
                match map.entry(key) {
                    Entry::Occupied(first) => Some(*first.get()),
                    Entry::Vacant(slot) => {
                        slot.insert(rows.len());
                        None
                    }
                }
            }
        }
    }
}

/// A main record whose key a row has already: its time, counts, covariates and place.
pub(super) struct Incoming<'c, 't> {
    pub time: i64,
    pub births: Option<f64>,
    pub deaths: Option<f64>,
    pub cells: &'c RowCells<'t>,
    pub file: &'c str,
    pub line: u64,
    /// Whether the row of the key came from another main table.
    pub other_table: bool,
}

/// What becomes of a record whose key a row has already.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Repeat {
    /// Merged into that row (it counts as used).
    Merged,
    /// Excluded, for this reason.
    Excluded(ExclusionReason),
    /// A row of its own ([`super::IngestOptions::keep_repeated_keys`]).
    KeptApart,
}

/// What becomes of `incoming`, whose key row `first` of `rows` has. A row of another file with
/// the counts the first lacks (births in one file, deaths in another, as the ministry publishes
/// them) is merged into it — unless the merged deaths exceed the births —, its covariates
/// filling the first row's missing ones; a covariate both give that disagrees keeps the first
/// row's value and is pushed on `conflicts` with both places. Any other repeat is excluded as
/// a duplicate of the first row's line, or kept apart when `keep_repeated_keys`.
pub(super) fn on_repeated_key(
    rows: &mut PanelBuilder,
    first: usize,
    incoming: &Incoming,
    keep_repeated_keys: bool,
    conflicts: &mut Vec<CellConflict>,
) -> Repeat {
    let existing = rows.row(first);
    let (births, deaths) = (incoming.births, incoming.deaths);
    let complementary = incoming.other_table
        && ((existing.births.is_none() && births.is_some() && deaths.is_none())
            || (existing.deaths.is_none() && deaths.is_some() && births.is_none()));
    if complementary {
        let merged_births = existing.births.or(births);
        let merged_deaths = existing.deaths.or(deaths);
        if let (Some(d), Some(b)) = (merged_deaths, merged_births) {
            if d > b {
                return Repeat::Excluded(ExclusionReason::DeathsExceedBirths {
                    deaths: d,
                    births: b,
                });
            }
        }
        rows.set_counts(first, merged_births, merged_deaths);
        merge_cells(rows, first, incoming, conflicts);
        return Repeat::Merged;
    }
    if keep_repeated_keys {
        return Repeat::KeptApart;
    }
    Repeat::Excluded(ExclusionReason::DuplicateEntityTime {
        entity: existing.entity.to_owned(),
        time: incoming.time,
        first_line: existing.line,
        first_file: incoming.other_table.then(|| existing.file.to_owned()),
    })
}

/// The covariates of `incoming` merged into row `first`: each fills a missing value; one that
/// disagrees with the row's is a [`CellConflict`] (the row's value is kept).
fn merge_cells(
    rows: &mut PanelBuilder,
    first: usize,
    incoming: &Incoming,
    conflicts: &mut Vec<CellConflict>,
) {
    let existing = rows.row(first);
    let (kept_file, kept_line) = (existing.file.to_owned(), existing.line);
    let entity = existing.entity.to_owned();
    let mut conflict = |column: &str, kept: String, other: String| {
        conflicts.push(CellConflict {
            column: column.to_owned(),
            entity: entity.clone(),
            time: incoming.time,
            kept_file: kept_file.clone(),
            kept_line,
            kept_value: kept,
            other_file: incoming.file.to_owned(),
            other_line: incoming.line,
            other_value: other,
        });
    };
    for (slot, &value) in incoming.cells.numeric.iter().enumerate() {
        match (rows.row(first).numeric(slot), value) {
            (Some(a), Some(b)) if a != b => {
                conflict(&rows.numeric_names()[slot], a.to_string(), b.to_string())
            }
            (None, v) => rows.set_numeric(first, slot, v),
            _ => {}
        }
    }
    for (slot, &value) in incoming.cells.text.iter().enumerate() {
        match (rows.row(first).text(slot), value) {
            (Some(a), Some(b)) if a != b => {
                let a = a.to_owned();
                conflict(&rows.text_names()[slot], a, b.to_owned())
            }
            (None, v) => rows.set_text(first, slot, v),
            _ => {}
        }
    }
}

/// The keys of one characteristics file so far, each with its first line: a key met again is
/// excluded as a duplicate of that line.
#[derive(Debug, Default)]
pub(super) struct FirstLines(HashMap<(String, Option<i64>), u64>);

impl FirstLines {
    /// Takes the key (`entity`, `time`) of line `line`, or the duplicate reason when a line
    /// before had it ([`ExclusionReason::DuplicateEntity`] for a file joined by entity alone).
    pub fn take(
        &mut self,
        entity: &str,
        time: Option<i64>,
        line: u64,
    ) -> Result<(), ExclusionReason> {
        match self.0.entry((entity.to_owned(), time)) {
            Entry::Occupied(first) => {
                let first_line = *first.get();
                let entity = entity.to_owned();
                Err(match time {
                    Some(time) => ExclusionReason::DuplicateEntityTime {
                        entity,
                        time,
                        first_line,
                        first_file: None,
                    },
                    None => ExclusionReason::DuplicateEntity { entity, first_line },
                })
            }
            Entry::Vacant(slot) => {
                slot.insert(line);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panel::NewRow;

    /// A panel of one covariate `x` and one text `t` with a row of entity "a" in 2000 from
    /// `a.csv` line 2: births 10, no deaths, x = 1, t = "p".
    fn one_row() -> PanelBuilder {
        let mut rows = PanelBuilder::new(vec!["x".into()], vec!["t".into()], true, true, 4);
        let file = rows.add_file("a.csv");
        let entity = rows.entity_id("a");
        rows.push(NewRow {
            entity,
            time: 2000,
            births: Some(10.0),
            deaths: None,
            file,
            line: 2,
        });
        rows.set_numeric(0, 0, Some(1.0));
        rows.set_text(0, 0, Some("p"));
        rows
    }

    fn cells<'t>(x: Option<f64>, t: Option<&'t str>) -> RowCells<'t> {
        let mut cells = RowCells::new(1, 1);
        cells.numeric = vec![x];
        cells.text = vec![t];
        cells
    }

    fn incoming<'c>(
        cells: &'c RowCells<'c>,
        births: Option<f64>,
        deaths: Option<f64>,
    ) -> Incoming<'c, 'c> {
        Incoming {
            time: 2000,
            births,
            deaths,
            cells,
            file: "b.csv",
            line: 7,
            other_table: true,
        }
    }

    #[test]
    fn keys_need_no_map_while_they_rise_and_find_their_first_row_after() {
        let mut rows = one_row();
        let mut seen = KeysSeen::new(4);
        assert_eq!(seen.first_row_of((0, 2000), &rows), None);
        assert!(seen.first_rows.is_none());
        let b = rows.entity_id("b");
        rows.push(NewRow {
            entity: b,
            time: 1999,
            births: None,
            deaths: None,
            file: 0,
            line: 3,
        });
        assert_eq!(seen.first_row_of((1, 1999), &rows), None);
        // Out of order: the map of every key so far is made and finds the first row.
        assert_eq!(seen.first_row_of((0, 2000), &rows), Some(0));
        assert!(seen.first_rows.is_some());
        assert_eq!(seen.first_row_of((1, 1999), &rows), Some(1));
        // A new key out of order takes the next row.
        assert_eq!(seen.first_row_of((0, 1990), &rows), None);
        assert_eq!(seen.first_row_of((0, 1990), &rows), Some(2));
    }

    #[test]
    fn deaths_from_another_file_merge_and_disagreeing_cells_are_conflicts() {
        let mut rows = one_row();
        let cells = cells(Some(2.0), Some("p"));
        let mut conflicts = Vec::new();
        let repeat = on_repeated_key(
            &mut rows,
            0,
            &incoming(&cells, None, Some(1.0)),
            false,
            &mut conflicts,
        );
        assert_eq!(repeat, Repeat::Merged);
        let row = rows.row(0);
        assert_eq!(
            (row.births, row.deaths, row.numeric(0), row.text(0)),
            (Some(10.0), Some(1.0), Some(1.0), Some("p"))
        );
        assert_eq!(
            conflicts,
            [CellConflict {
                column: "x".into(),
                entity: "a".into(),
                time: 2000,
                kept_file: "a.csv".into(),
                kept_line: 2,
                kept_value: "1".into(),
                other_file: "b.csv".into(),
                other_line: 7,
                other_value: "2".into(),
            }]
        );
    }

    #[test]
    fn a_repeat_that_completes_nothing_is_a_duplicate_or_kept_apart() {
        let mut rows = one_row();
        let cells = cells(None, None);
        let mut conflicts = Vec::new();
        // Births again, from another file: a duplicate naming the first file.
        let again = incoming(&cells, Some(10.0), None);
        assert_eq!(
            on_repeated_key(&mut rows, 0, &again, false, &mut conflicts),
            Repeat::Excluded(ExclusionReason::DuplicateEntityTime {
                entity: "a".into(),
                time: 2000,
                first_line: 2,
                first_file: Some("a.csv".into()),
            })
        );
        assert_eq!(
            on_repeated_key(&mut rows, 0, &again, true, &mut conflicts),
            Repeat::KeptApart
        );
        // Deaths from the same file do not merge.
        let same_file = Incoming {
            other_table: false,
            ..incoming(&cells, None, Some(1.0))
        };
        assert!(matches!(
            on_repeated_key(&mut rows, 0, &same_file, false, &mut conflicts),
            Repeat::Excluded(ExclusionReason::DuplicateEntityTime {
                first_file: None,
                ..
            })
        ));
        // Merged deaths above the births exclude the record.
        assert!(matches!(
            on_repeated_key(
                &mut rows,
                0,
                &incoming(&cells, None, Some(11.0)),
                false,
                &mut conflicts
            ),
            Repeat::Excluded(ExclusionReason::DeathsExceedBirths { .. })
        ));
        assert!(conflicts.is_empty());
        assert_eq!(rows.row(0).deaths, None);
    }

    #[test]
    fn a_characteristics_key_met_again_is_a_duplicate_of_its_first_line() {
        let mut lines = FirstLines::default();
        assert_eq!(lines.take("a", Some(2000), 2), Ok(()));
        assert_eq!(lines.take("a", None, 3), Ok(()));
        assert_eq!(
            lines.take("a", Some(2000), 4),
            Err(ExclusionReason::DuplicateEntityTime {
                entity: "a".into(),
                time: 2000,
                first_line: 2,
                first_file: None
            })
        );
        assert_eq!(
            lines.take("a", None, 5),
            Err(ExclusionReason::DuplicateEntity {
                entity: "a".into(),
                first_line: 3
            })
        );
    }
}
