//! Phase "accounting": every record used or excluded with its reason. An exclusion is recorded
//! with its file and line ([`exclude`]), each file gets its [`FileReport`] (rows read, used and
//! excluded, how it was read, its roles), and [`finish`] totals the report
//! (`rows_read = rows_used + rows_excluded`), orders the exclusions by file and line and hands on
//! the [`Panel`], or [`IngestError::NoUsableRows`] when no row is left.

use super::super::columns::{ColumnRoles, Role};
use super::super::table::RawTable;
use super::super::{
    delimiter_label, Exclusion, ExclusionReason, FileReport, IngestError, IngestReport,
};
use super::roles::Plan;
use crate::panel::{Panel, PanelBuilder, PanelMeta};

/// Records line `line` of `file` as excluded for `kind` (its words are the reason).
pub(super) fn exclude(report: &mut IngestReport, file: &str, line: u64, kind: ExclusionReason) {
    report.excluded.push(Exclusion {
        file: file.to_owned(),
        line,
        reason: kind.to_string(),
        kind,
    });
}

/// How `table` was read: its dialect, encoding and lines, its roles `r`, whether it is "main"
/// or "characteristics" (`kind`, with its `join`: "entity" or "entity and time"), and its rows,
/// `excluded` of them excluded and the others used.
pub(super) fn file_report(
    table: &RawTable,
    r: &ColumnRoles,
    kind: &'static str,
    excluded: usize,
    join: Option<&'static str>,
) -> FileReport {
    let roles = Role::ALL
        .into_iter()
        .filter_map(|role| {
            r.get(role)
                .map(|i| (role.label(), table.columns[i].clone()))
        })
        .collect();
    FileReport {
        file: table.file.clone(),
        kind,
        delimiter: delimiter_label(table.dialect.delimiter),
        decimal: table.dialect.decimal.as_char().to_string(),
        encoding: table.encoding.label(),
        has_header: table.dialect.has_header,
        physical_lines: table.physical_lines,
        metadata_lines: table.metadata.clone(),
        rows_read: table.records.len(),
        rows_used: table.records.len() - excluded,
        rows_excluded: excluded,
        roles,
        join,
        time_given: None,
        rate_lag: None,
    }
}

/// The report's totals over `tables` (every record of every table read, each used or
/// excluded) and its exclusions in the order of file and line.
fn total(report: &mut IngestReport, tables: &[&RawTable]) {
    report.rows_read = tables.iter().map(|t| t.records.len()).sum();
    report.rows_excluded = report.excluded.len();
    report.rows_used = report.rows_read - report.rows_excluded;
    report
        .excluded
        .sort_by(|a, b| a.file.cmp(&b.file).then(a.line.cmp(&b.line)));
}

/// The panel of `rows` with its `report` totalled, its entity and time column names those of
/// the first main table; [`IngestError::NoUsableRows`] (naming the first main file and the
/// first exclusion) when every record was excluded.
pub(super) fn finish(
    rows: PanelBuilder,
    mut report: IngestReport,
    (tables, roles): (&[&RawTable], &[ColumnRoles]),
    plan: &Plan,
    chile_codes: bool,
    time_value: Option<i64>,
) -> Result<Panel, IngestError> {
    total(&mut report, tables);
    let first_main = plan.main[0];
    if rows.is_empty() {
        let first = report.excluded.first();
        return Err(IngestError::NoUsableRows {
            file: tables[first_main].file.clone(),
            rows_read: report.rows_read,
            first_line: first.map(|e| e.line).unwrap_or(0),
            first_reason: first.map(|e| e.kind.clone()),
        });
    }
    let (table, r) = (tables[first_main], &roles[first_main]);
    Ok(rows.finish(PanelMeta {
        entity_column: table.columns[r.entity.expect("checked")].clone(),
        // Without a time column: `year` for the year given, none for a cross-section.
        time_column: match (r.time, table.time_given.or(time_value)) {
            (Some(t), _) => table.columns[t].clone(),
            (None, Some(_)) => "year".into(),
            (None, None) => String::new(),
        },
        deaths_derived: plan.deaths_derived,
        chile_codes,
        report,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::roles::TableKind;
    use super::*;
    use crate::panel::NewRow;
    use crate::test_support::counts_roles;

    fn plan() -> Plan {
        Plan {
            kinds: vec![TableKind::Main, TableKind::Main],
            main: vec![0, 1],
            has_births: true,
            has_deaths: false,
            deaths_derived: false,
        }
    }

    #[test]
    fn a_file_report_splits_its_rows_into_used_and_excluded() {
        let t = RawTable::from_bytes(
            "b.csv",
            b"# source: x\ncode;year;births\n1;2000;3,5\n2;2000;4\n",
        )
        .unwrap();
        let f = file_report(&t, &counts_roles(), "main", 1, None);
        assert_eq!((f.rows_read, f.rows_used, f.rows_excluded), (2, 1, 1));
        assert_eq!((f.delimiter.as_str(), f.decimal.as_str()), (";", ","));
        assert_eq!(f.metadata_lines.len(), 1);
        assert_eq!(f.physical_lines, 4);
        assert_eq!(
            f.roles.into_iter().collect::<Vec<_>>(),
            [
                ("births", "births".to_owned()),
                ("entity", "code".to_owned()),
                ("time", "year".to_owned())
            ]
        );
    }

    #[test]
    fn every_record_is_used_or_excluded_and_exclusions_go_by_file_and_line() {
        let a = RawTable::from_bytes("a.csv", b"code,year,births\n1,2000,1\n1,2001,x\n").unwrap();
        let b = RawTable::from_bytes("b.csv", b"code,year,births\n2,2000,-1\n").unwrap();
        let mut report = IngestReport::default();
        let negative = ExclusionReason::NegativeCount {
            column: "births".into(),
            value: -1.0,
        };
        exclude(&mut report, "b.csv", 2, negative.clone());
        let not_a_number = ExclusionReason::NonNumeric {
            column: "births".into(),
            value: "x".into(),
        };
        exclude(&mut report, "a.csv", 3, not_a_number);
        let mut rows = PanelBuilder::new(Vec::new(), Vec::new(), true, false, 1);
        let (entity, file) = (rows.entity_id("1"), rows.add_file("a.csv"));
        rows.push(NewRow {
            entity,
            time: 2000,
            births: Some(1.0),
            deaths: None,
            file,
            line: 2,
        });
        let both = [counts_roles(), counts_roles()];
        let panel = finish(
            rows,
            report.clone(),
            (&[&a, &b], &both),
            &plan(),
            false,
            None,
        )
        .unwrap();
        let r = &panel.report;
        assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (3, 1, 2));
        let places: Vec<(&str, u64)> = r
            .excluded
            .iter()
            .map(|e| (e.file.as_str(), e.line))
            .collect();
        assert_eq!(places, [("a.csv", 3), ("b.csv", 2)]);
        assert_eq!(r.excluded[1].reason, negative.to_string());
        assert_eq!(
            (panel.entity_column.as_str(), panel.time_column.as_str()),
            ("code", "year")
        );

        // No row left: the error names the first main file and the first exclusion.
        let empty = PanelBuilder::new(Vec::new(), Vec::new(), true, false, 0);
        let err = finish(empty, report, (&[&a, &b], &both), &plan(), false, None).unwrap_err();
        assert_eq!(
            err,
            IngestError::NoUsableRows {
                file: "a.csv".into(),
                rows_read: 3,
                first_line: 3,
                first_reason: Some(ExclusionReason::NonNumeric {
                    column: "births".into(),
                    value: "x".into()
                }),
            }
        );
    }
}
