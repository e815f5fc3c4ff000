//! The main tables stacked into the panel's rows, record by record through the phases: keys,
//! values (counts and covariates), conflicts (a repeated key) and accounting (each record a
//! row, merged into one, or excluded with its reason). The panel's columns are filled with no
//! allocation per row, each numeric column being the one the values phase parsed, compacted in
//! place to the rows kept.

use super::super::columns::{ColumnRoles, Role};
use super::super::store::RawRecord;
use super::super::table::RawTable;
use super::super::{ExclusionReason, FileReport, IngestReport};
use super::accounting::{exclude, file_report};
use super::conflicts::{on_repeated_key, Incoming, KeysSeen, Repeat};
use super::keys::{record_key, EntityCodes, EntityIds, Known};
use super::lagged::RateCells;
use super::roles::Plan;
use super::values::{read_count, read_counts, ExtraColumn, ParsedExtras, RowCells};
use super::IngestOptions;
use crate::panel::{NewRow, PanelBuilder};
use std::collections::HashMap;

/// A main table's non-role columns as the values phase parsed them, and the panel slot of each.
struct MainColumns {
    extras: Vec<ExtraColumn>,
    /// Per column of `extras`, its numeric or text slot (as the column is).
    slots: Vec<usize>,
    /// Per column of `extras`, its parsed values (empty for a text column).
    values: Vec<Vec<f64>>,
    /// Per record, whether it has the table's width (from the walk).
    width_ok: Vec<bool>,
    /// Per record, its year from the walk ([`super::values::NO_YEAR`]: read it).
    years: Vec<i32>,
}

/// The covariate names of the main tables, numeric and text, matched by name across stacked
/// files, and each table's columns with their slots. Each column's slot is found once per
/// table through a map (not per cell: that made ingest O(rows × columns²)).
fn place_columns(parsed: Vec<ParsedExtras>) -> (Vec<String>, Vec<String>, Vec<MainColumns>) {
    let mut names: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut slot_of: [HashMap<String, usize>; 2] = [HashMap::new(), HashMap::new()];
    let tables = parsed
        .into_iter()
        .map(|p| {
            let (extras, values): (Vec<ExtraColumn>, Vec<Vec<f64>>) = p.columns.into_iter().unzip();
            let slots = extras
                .iter()
                .map(|c| {
                    // 0: numeric, 1: text
                    let kind = usize::from(!c.numeric);
                    let list = &mut names[kind];
                    *slot_of[kind].entry(c.name.clone()).or_insert_with(|| {
                        list.push(c.name.clone());
                        list.len() - 1
                    })
                })
                .collect();
            MainColumns {
                extras,
                slots,
                values,
                width_ok: p.width_ok,
                years: p.years,
            }
        })
        .collect();
    let [numeric, text] = names;
    (numeric, text, tables)
}

/// The main tables of `plan` stacked into a [`PanelBuilder`], with each table's
/// [`super::super::FileReport`], exclusions, merges, conflicts, recoded codes and cell warnings
/// in `report`. `parsed`: the values phase's reading of each main table, in the plan's order.
/// When deaths are derived from a rate, also what the lag phase needs of the rates
/// ([`RateCells`]).
pub(super) fn stack_main_tables<'t>(
    (tables, roles): (&[&'t RawTable], &[ColumnRoles]),
    plan: &Plan,
    parsed: Vec<ParsedExtras<'t>>,
    codes: &EntityCodes,
    options: &IngestOptions,
    report: &mut IngestReport,
) -> (PanelBuilder, Option<RateCells>) {
    let (numeric_names, text_names, columns) = place_columns(parsed);
    let main_records: usize = plan.main.iter().map(|&t| tables[t].records.len()).sum();
    let cells = RowCells::new(numeric_names.len(), text_names.len());
    let mut stack = Stack {
        rows: PanelBuilder::new(
            numeric_names,
            text_names,
            plan.has_births,
            plan.has_deaths,
            main_records,
        ),
        entities: EntityIds::default(),
        keys: KeysSeen::new(main_records),
        cells,
        plan,
        codes,
        keep_repeated_keys: options.keep_repeated_keys,
        time_given: options.time_value,
        rates: plan
            .deaths_derived
            .then(|| RateCells::new(options.rate_lag)),
    };
    for (&t, columns) in plan.main.iter().zip(columns) {
        let table = tables[t];
        // File ids are the main tables' order.
        let file = stack.rows.add_file(&table.file);
        let mut main = MainTable {
            index: t,
            table,
            roles: &roles[t],
            file,
            columns,
            #[cfg(feature = "historical-codes")]
            systems: codes.chile.then(|| {
                super::historical::TableSystems::choose(
                    table,
                    &roles[t],
                    table.time_given.or(options.time_value),
                )
            }),
        };
        stack.add_table(&mut main, report);
    }
    (stack.rows, stack.rates)
}

/// A main table being stacked: its index among all tables, the table, its roles, its file id
/// in the panel and its parsed columns.
struct MainTable<'t, 'a> {
    index: usize,
    table: &'t RawTable,
    roles: &'a ColumnRoles,
    file: u32,
    columns: MainColumns,
    /// The years whose codes are read in DEIS's system of the year (chosen per table when
    /// entities are Chilean codes).
    #[cfg(feature = "historical-codes")]
    systems: Option<super::historical::TableSystems>,
}

/// The stacking's state across the main tables.
struct Stack<'t, 'a> {
    rows: PanelBuilder,
    entities: EntityIds<'t>,
    keys: KeysSeen,
    /// Scratch of one record's covariates, reused.
    cells: RowCells<'t>,
    plan: &'a Plan,
    codes: &'a EntityCodes,
    keep_repeated_keys: bool,
    /// The year of the rows of a table without a time column ([`IngestOptions::time_value`])
    /// unless the table gives its own ([`RawTable::time_given`]).
    time_given: Option<i64>,
    /// When deaths are derived from a rate: the rates and births as read, for the lag phase.
    rates: Option<RateCells>,
}

impl<'t> Stack<'t, '_> {
    /// Every record of `main` used, merged or excluded; then the table's numeric columns join
    /// the panel's (its rows lack the others) and its file report is added.
    fn add_table(&mut self, main: &mut MainTable<'t, '_>, report: &mut IngestReport) {
        let excluded_before = report.excluded.len();
        let owners = self.owners(&main.columns);
        let mut kept = 0usize;
        let table = main.table;
        for (read, rec) in table.records.iter().enumerate() {
            let line = rec.line;
            if let Some(rates) = &mut self.rates {
                rates.start_record();
            }
            match self.add_record(main, read, rec, report) {
                Err(kind) => {
                    if let Some(rates) = &mut self.rates {
                        rates.excluded_record(&table.file, line);
                    }
                    exclude(report, &table.file, line, kind)
                }
                Ok(Repeat::Merged) => {}
                Ok(_) => {
                    // Row `kept` from record `read ≥ kept`, read before it is written.
                    for &(slot, k) in &owners {
                        main.columns.values[k][kept] = self.cells.numeric[slot].unwrap_or(f64::NAN);
                    }
                    kept += 1;
                }
            }
        }
        for &(slot, k) in &owners {
            let mut column = std::mem::take(&mut main.columns.values[k]);
            column.truncate(kept);
            self.rows.append_numeric(slot, column);
        }
        main.columns.values.clear();
        self.rows.pad_numeric();
        #[cfg(feature = "historical-codes")]
        if let Some(systems) = main.systems.take() {
            let (read, recodings) = systems.finish(&table.file);
            report.code_systems.extend(read);
            report.historical_recodings.extend(recodings);
        }
        let excluded = report.excluded.len() - excluded_before;
        report.files.push(FileReport {
            time_given: main
                .table
                .time_given
                .or(self.time_given)
                .filter(|_| main.roles.time.is_none()),
            ..file_report(main.table, main.roles, "main", excluded, None)
        });
    }

    /// The numeric slots of a table, each with the first of its columns (a name may come
    /// twice): that column's parsed values are overwritten, in place, by the values of the rows
    /// kept.
    fn owners(&self, columns: &MainColumns) -> Vec<(usize, usize)> {
        let mut owners: Vec<(usize, usize)> = Vec::new();
        let mut owned = vec![false; self.rows.numeric_names().len()];
        for (k, (c, &slot)) in columns.extras.iter().zip(&columns.slots).enumerate() {
            if c.numeric && !std::mem::replace(&mut owned[slot], true) {
                owners.push((slot, k));
            }
        }
        owners
    }

    /// Record `read` of `main` through the phases: its key, its counts, its entity, its
    /// covariates (in `self.cells`), then a repeated key merged or excluded, else a new row
    /// ([`Repeat::KeptApart`] stands for both a new key and a repeat kept apart).
    fn add_record(
        &mut self,
        main: &mut MainTable<'t, '_>,
        read: usize,
        rec: RawRecord<'t>,
        report: &mut IngestReport,
    ) -> Result<Repeat, ExclusionReason> {
        let (table, columns) = (main.table, &main.columns);
        let known = Known::walked(&columns.width_ok, &columns.years, read);
        let (raw_entity, time) = record_key(table, &rec, main.roles, known)?;
        // No time column: the year given to this table, else to every such table
        // (`time_value`), else a cross-section (`time_optional`): one period, time 0.
        let time = time.unwrap_or(table.time_given.or(self.time_given).unwrap_or(0));
        // A code of the system of its year, recoded to 2018's (a 'static code of the table).
        #[cfg(feature = "historical-codes")]
        let raw_entity: &'t str = match &mut main.systems {
            Some(systems) => systems
                .read(&table.file, raw_entity, time)?
                .unwrap_or(raw_entity),
            None => raw_entity,
        };
        let (births, deaths, rate) = match &mut self.rates {
            None => {
                let (births, deaths) = read_counts(table, &rec, main.roles)?;
                (births, deaths, None)
            }
            // Deaths derived from a rate: births and rate read apart, noted for the lag test
            // (whatever becomes of the record), then combined, or kept apart with a lag.
            Some(rates) => {
                let births = read_count(table, &rec, main.roles, Role::Births);
                let rate = read_count(table, &rec, main.roles, Role::Rate);
                if let Ok((entity, _)) = self.entities.id_of(raw_entity, self.codes, &mut self.rows)
                {
                    rates.observe(entity, time, &births, &rate);
                }
                rates.counts(births, rate)?
            }
        };
        let (entity, recoded) = self
            .entities
            .id_of(raw_entity, self.codes, &mut self.rows)?;
        self.cells.fill(
            &columns.extras,
            &columns.slots,
            &columns.values,
            read,
            &rec,
            &table.file,
        );
        if let Some(first) = self.keys.first_row_of((entity, time), &self.rows) {
            let first_table = self.plan.main[self.rows.file_of(first) as usize];
            let incoming = Incoming {
                time,
                births,
                deaths,
                cells: &self.cells,
                file: &table.file,
                line: rec.line,
                other_table: first_table != main.index,
            };
            let conflicts = &mut report.conflicts;
            match on_repeated_key(
                &mut self.rows,
                first,
                &incoming,
                self.keep_repeated_keys,
                conflicts,
            ) {
                Repeat::Merged => {
                    if let Some(rates) = &mut self.rates {
                        rates.merged(first, main.file, &table.file, rec.line, rate);
                    }
                    report.cell_warnings.append(&mut self.cells.warnings);
                    report.merged_rows += 1;
                    return Ok(Repeat::Merged);
                }
                Repeat::Excluded(kind) => return Err(kind),
                Repeat::KeptApart => {}
            }
        }
        if recoded {
            report.recoded_codes += 1;
        }
        report.cell_warnings.append(&mut self.cells.warnings);
        let index = self.rows.push_without_numeric(NewRow {
            entity,
            time,
            births,
            deaths,
            file: main.file,
            line: rec.line,
        });
        if let Some(rates) = &mut self.rates {
            rates.push_row(rate);
        }
        for (slot, &value) in self.cells.text.iter().enumerate() {
            if value.is_some() {
                self.rows.set_text(index, slot, value);
            }
        }
        Ok(Repeat::KeptApart)
    }
}

#[cfg(test)]
mod tests {
    use super::super::roles::TableKind;
    use super::super::values::parsed_extra_columns;
    use super::*;
    use crate::panel::PanelMeta;
    use crate::test_support::counts_roles;

    #[test]
    fn covariates_of_one_name_share_a_slot_across_tables() {
        let a = RawTable::from_bytes("a.csv", b"id,year,x,t\n1,2000,1,p\n").unwrap();
        let b = RawTable::from_bytes("b.csv", b"id,year,t,x,y\n1,2001,q,2,3\n").unwrap();
        let r = ColumnRoles {
            entity: Some(0),
            time: Some(1),
            ..ColumnRoles::default()
        };
        let parsed = vec![parsed_extra_columns(&a, &r), parsed_extra_columns(&b, &r)];
        let (numeric, text, columns) = place_columns(parsed);
        assert_eq!(
            (numeric, text),
            (vec!["x".to_owned(), "y".to_owned()], vec!["t".to_owned()])
        );
        assert_eq!(columns[0].slots, [0, 0]);
        assert_eq!(columns[1].slots, [0, 0, 1]);
    }

    #[test]
    fn records_become_rows_merges_or_exclusions_and_each_is_counted() {
        let births = RawTable::from_bytes(
            "births.csv",
            b"code,year,births,x\n13101,2000,100,1\n13101,2000,90,1\n13102,2000,-5,1\n8401,2000,50,oops\n",
        )
        .unwrap();
        let deaths = RawTable::from_bytes(
            "deaths.csv",
            b"code,year,deaths,x\n13101,2000,3,2\n13103,2000,1,\n",
        )
        .unwrap();
        let tables = [&births, &deaths];
        let roles = [
            counts_roles(),
            ColumnRoles {
                births: None,
                deaths: Some(2),
                ..counts_roles()
            },
        ];
        let plan = Plan {
            kinds: vec![TableKind::Main, TableKind::Main],
            main: vec![0, 1],
            has_births: true,
            has_deaths: true,
            deaths_derived: false,
        };
        let parsed = vec![
            parsed_extra_columns(&births, &roles[0]),
            parsed_extra_columns(&deaths, &roles[1]),
        ];
        let codes = EntityCodes::choose(super::super::CodeSystem::ChileCut, &parsed);
        let mut report = IngestReport::default();
        let (rows, _) = stack_main_tables(
            (&tables, &roles),
            &plan,
            parsed,
            &codes,
            &IngestOptions::default(),
            &mut report,
        );
        // 13101 births, Chillán (recoded) births, 13103 deaths; 13101's deaths merged in.
        assert_eq!(rows.len(), 3);
        assert_eq!((report.merged_rows, report.recoded_codes), (1, 1));
        let reasons: Vec<(&str, u64)> = report
            .excluded
            .iter()
            .map(|e| (e.file.as_str(), e.line))
            .collect();
        // The repeated 13101 (a duplicate of line 2) and the negative count.
        assert_eq!(reasons, [("births.csv", 3), ("births.csv", 4)]);
        assert!(matches!(
            &report.excluded[0].kind,
            ExclusionReason::DuplicateEntityTime {
                first_line: 2,
                first_file: None,
                ..
            }
        ));
        // x differs between the merged rows: 1 kept, 2 reported; "oops" is a warning.
        assert_eq!(report.conflicts.len(), 1);
        assert_eq!(report.cell_warnings.len(), 1);
        let files: Vec<(usize, usize, usize)> = report
            .files
            .iter()
            .map(|f| (f.rows_read, f.rows_used, f.rows_excluded))
            .collect();
        assert_eq!(files, [(4, 2, 2), (2, 2, 0)]);
        let panel = rows.finish(PanelMeta {
            entity_column: "code".into(),
            time_column: "year".into(),
            deaths_derived: false,
            chile_codes: true,
            report,
        });
        let santiago = panel.rows().find(|r| r.entity == "13101").unwrap();
        assert_eq!(
            (santiago.births, santiago.deaths, santiago.numeric(0)),
            (Some(100.0), Some(3.0), Some(1.0))
        );
        let chillan = panel.rows().find(|r| r.entity == "16101").unwrap();
        assert_eq!(chillan.numeric(0), None);
    }
}
