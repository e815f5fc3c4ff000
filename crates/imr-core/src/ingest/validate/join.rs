//! The characteristics tables joined onto the stacked rows, record by record through the
//! phases: keys (by entity, or entity and time when the file has a time column), conflicts (a
//! key met before in the file), values (each cell set on every row of its key) and accounting
//! (a record joined, or excluded: duplicate, unknown code, no row of its key).

use super::super::columns::ColumnRoles;
use super::super::number::Decimal;
use super::super::store::RawRecord;
use super::super::table::RawTable;
use super::super::{CellWarning, ExclusionReason, IngestReport};
use super::accounting::{exclude, file_report};
use super::conflicts::FirstLines;
use super::keys::{record_key, EntityCodes, Known};
use super::roles::Plan;
use super::values::{characteristic_cell, extra_columns, Cell, ExtraColumn};
use crate::panel::PanelBuilder;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The stacked rows by key: (entity, time) → its rows (more than one only with
/// [`super::IngestOptions::keep_repeated_keys`]), and entity → its rows.
struct RowsByKey {
    by_key: HashMap<(u32, i64), Vec<usize>>,
    by_entity: BTreeMap<u32, Vec<usize>>,
}

impl RowsByKey {
    fn of(rows: &PanelBuilder) -> RowsByKey {
        let mut index = RowsByKey {
            by_key: HashMap::new(),
            by_entity: BTreeMap::new(),
        };
        for i in 0..rows.len() {
            let key = rows.key_of(i);
            index.by_key.entry(key).or_default().push(i);
            index.by_entity.entry(key.0).or_default().push(i);
        }
        index
    }

    /// The rows of entity `id` (none when the main data has not that entity) in `time`, or in
    /// every period when `time` is `None`.
    fn rows_of(&self, id: Option<u32>, time: Option<i64>) -> &[usize] {
        let rows = match (id, time) {
            (None, _) => None,
            (Some(id), Some(t)) => self.by_key.get(&(id, t)),
            (Some(id), None) => self.by_entity.get(&id),
        };
        rows.map_or(&[], Vec::as_slice)
    }
}

/// Every characteristics table of `plan` joined onto `rows`: its non-role columns become the
/// panel's (renamed when a column of that name exists, [`unique_name`]), its records are
/// joined or excluded in `report`, and its file report is added.
pub(super) fn join_characteristics(
    rows: &mut PanelBuilder,
    (tables, roles): (&[&RawTable], &[ColumnRoles]),
    plan: &Plan,
    codes: &EntityCodes,
    report: &mut IngestReport,
) {
    if plan.characteristics().next().is_none() {
        return;
    }
    let index = RowsByKey::of(rows);
    for t in plan.characteristics() {
        let (table, r) = (tables[t], &roles[t]);
        let excluded_before = report.excluded.len();
        let extras = extra_columns(table, r);
        let joining = Joining {
            table,
            roles: r,
            codes,
            slots: add_columns(rows, &extras, &table.file),
            extras,
            decimal: table.decimal(),
        };
        let mut first_lines = FirstLines::default();
        for rec in table.records.iter() {
            let line = rec.line;
            if let Err(kind) = joining.join_record(rows, &index, &mut first_lines, rec, report) {
                exclude(report, &table.file, line, kind);
            }
        }
        let excluded = report.excluded.len() - excluded_before;
        let join = if r.time.is_some() {
            "entity and time"
        } else {
            "entity"
        };
        let file = file_report(table, r, "characteristics", excluded, Some(join));
        report.files.push(file);
    }
}

/// The columns `extras` of the characteristics file `file` added to the panel, each named by
/// [`unique_name`]; per column, its slot and whether it is numeric.
fn add_columns(rows: &mut PanelBuilder, extras: &[ExtraColumn], file: &str) -> Vec<(usize, bool)> {
    let mut taken: HashSet<String> = rows
        .numeric_names()
        .iter()
        .chain(rows.text_names())
        .cloned()
        .collect();
    extras
        .iter()
        .map(|c| {
            let name = unique_name(&c.name, file, &taken);
            taken.insert(name.clone());
            let slot = if c.numeric {
                rows.add_numeric_column(name)
            } else {
                rows.add_text_column(name)
            };
            (slot, c.numeric)
        })
        .collect()
}

/// A name not in `taken`: `name`, else `name (stem)`, else `name (file)`, else `name (stem) 2`, 3, …
/// (two characteristics files may share a stem, as `a/x.csv` and `b/x.csv`, or a name).
fn unique_name(name: &str, file: &str, taken: &HashSet<String>) -> String {
    if !taken.contains(name) {
        return name.to_owned();
    }
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base);
    for candidate in [format!("{name} ({stem})"), format!("{name} ({file})")] {
        if !taken.contains(&candidate) {
            return candidate;
        }
    }
    (2u64..)
        .map(|k| format!("{name} ({stem}) {k}"))
        .find(|c| !taken.contains(c))
        .expect("an unbounded sequence has a free name")
}

/// One characteristics table being joined: the table, its roles, the entity codes, its
/// non-role columns with their panel slots (and whether numeric), its decimal mark.
struct Joining<'a> {
    table: &'a RawTable,
    roles: &'a ColumnRoles,
    codes: &'a EntityCodes,
    extras: Vec<ExtraColumn>,
    slots: Vec<(usize, bool)>,
    decimal: Decimal,
}

impl Joining<'_> {
    /// Record `rec` joined onto the rows of its key, or why it cannot be: no key, an unknown
    /// code, a key met before in the file, no row of the main data with its key.
    fn join_record(
        &self,
        rows: &mut PanelBuilder,
        index: &RowsByKey,
        first_lines: &mut FirstLines,
        rec: RawRecord<'_>,
        report: &mut IngestReport,
    ) -> Result<(), ExclusionReason> {
        let (raw_entity, time) = record_key(self.table, &rec, self.roles, Known::default())?;
        let (entity, recoded) = self.codes.entity_of(raw_entity)?;
        first_lines.take(&entity, time, rec.line)?;
        let targets = index.rows_of(rows.find_entity(&entity), time);
        if targets.is_empty() {
            return Err(ExclusionReason::NotJoined { entity, time });
        }
        if recoded {
            report.recoded_codes += 1;
        }
        for (c, &(slot, numeric)) in self.extras.iter().zip(&self.slots) {
            let raw = rec.field(c.index).unwrap_or("");
            match characteristic_cell(raw, numeric, self.decimal) {
                Cell::Nothing => {}
                Cell::Number(v) => targets
                    .iter()
                    .for_each(|&i| rows.set_numeric(i, slot, Some(v))),
                Cell::Text(v) => targets
                    .iter()
                    .for_each(|&i| rows.set_text(i, slot, Some(v))),
                Cell::NotANumber(value) => report.cell_warnings.push(CellWarning {
                    file: self.table.file.clone(),
                    line: rec.line,
                    column: c.name.clone(),
                    value: value.to_owned(),
                }),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::roles::TableKind;
    use super::super::CodeSystem;
    use super::*;
    use crate::panel::NewRow;

    #[test]
    fn a_taken_name_is_renamed_by_the_file_stem_then_the_file_then_a_number() {
        let mut taken: HashSet<String> = ["x".to_owned()].into();
        assert_eq!(unique_name("y", "a/p.csv", &taken), "y");
        assert_eq!(unique_name("x", "a/p.csv", &taken), "x (p)");
        taken.insert("x (p)".into());
        assert_eq!(unique_name("x", "a/p.csv", &taken), "x (a/p.csv)");
        taken.insert("x (a/p.csv)".into());
        assert_eq!(unique_name("x", "a/p.csv", &taken), "x (p) 2");
    }

    #[test]
    fn a_characteristics_file_sets_the_rows_of_its_keys_and_excludes_the_rest() {
        // Rows: 13101 in 2000 and 2001, 13102 in 2000.
        let mut rows = PanelBuilder::new(vec!["x".into()], Vec::new(), true, false, 3);
        let file = rows.add_file("main.csv");
        for (i, (code, time)) in [("13101", 2000), ("13101", 2001), ("13102", 2000)]
            .into_iter()
            .enumerate()
        {
            let entity = rows.entity_id(code);
            rows.push(NewRow {
                entity,
                time,
                births: Some(1.0),
                deaths: None,
                file,
                line: i as u64 + 2,
            });
        }
        let by_entity = RawTable::from_bytes(
            "poverty.csv",
            b"code,x,region\n13101,5,RM\n13101,6,RM\n13103,7,RM\n13102,many,RM\n",
        )
        .unwrap();
        let roles = ColumnRoles {
            entity: Some(0),
            ..ColumnRoles::default()
        };
        let plan = Plan {
            kinds: vec![TableKind::Main, TableKind::Characteristics],
            main: vec![0],
            has_births: true,
            has_deaths: false,
            deaths_derived: false,
        };
        let codes = EntityCodes::choose(CodeSystem::ChileCut, &[]);
        let mut report = IngestReport::default();
        let tables = [&by_entity, &by_entity];
        join_characteristics(
            &mut rows,
            (&tables, &[roles.clone(), roles]),
            &plan,
            &codes,
            &mut report,
        );
        // x exists: the file's is "x (poverty)", set on both years of 13101.
        assert_eq!(rows.numeric_names(), ["x", "x (poverty)"]);
        assert_eq!(
            (rows.row(0).numeric(1), rows.row(1).numeric(1)),
            (Some(5.0), Some(5.0))
        );
        assert_eq!(rows.row(2).numeric(1), None);
        assert_eq!(rows.row(2).text(0), Some("RM"));
        let kinds: Vec<&ExclusionReason> = report.excluded.iter().map(|e| &e.kind).collect();
        assert!(matches!(
            kinds[0],
            ExclusionReason::DuplicateEntity { first_line: 2, .. }
        ));
        assert!(matches!(
            kinds[1],
            ExclusionReason::NotJoined { time: None, .. }
        ));
        assert_eq!(report.cell_warnings.len(), 1);
        let f = &report.files[0];
        assert_eq!(
            (f.rows_read, f.rows_used, f.rows_excluded, f.join),
            (4, 2, 2, Some("entity"))
        );
    }
}
