//! Ingest from files to a validated panel: dialects of real agency files and the accounting of
//! every row.

use imr_core::ingest::{
    build_panel, table_year, time_value_applies, undated_tables, year_in_name, ExclusionReason,
    IngestOptions, RawTable,
};
use imr_core::panel::Panel;
use imr_core::rates::RateTable;

/// The panel's row of this area and year.
fn row_of<'p>(panel: &'p Panel, code: &str, year: i64) -> imr_core::panel::Row<'p> {
    panel
        .rows()
        .find(|row| row.entity == code && row.time == year)
        .unwrap_or_else(|| panic!("no row of {code} in {year}"))
}

fn load(files: &[(&str, &[u8])]) -> Panel {
    let tables: Vec<RawTable> = files
        .iter()
        .map(|(name, bytes)| RawTable::from_bytes(name, bytes).unwrap())
        .collect();
    let roles: Vec<_> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    build_panel(&tables, &roles, &IngestOptions::default()).unwrap()
}

#[test]
fn a_latin1_semicolon_file_with_decimal_commas_and_crlf_is_read_whole() {
    let bytes = std::fs::read("tests/data/latin1_semicolon.csv").unwrap();
    let panel = load(&[("latin1_semicolon.csv", &bytes)]);
    let f = &panel.report.files[0];
    assert_eq!(
        (f.delimiter.as_str(), f.decimal.as_str(), f.encoding),
        (";", ",", "windows-1252")
    );
    assert_eq!(panel.time_column, "Año");
    assert_eq!(panel.report.rows_read, 4);
    assert_eq!(panel.report.rows_used, 4);
    // "3.000" is three thousand in a decimal-comma file; 1107 is padded; 8401 is Ñuble's 16101.
    let iquique = panel
        .rows()
        .find(|r| r.entity == "01101" && r.time == 2019)
        .unwrap();
    assert_eq!(iquique.births, Some(3000.0));
    assert!(panel.rows().any(|r| r.entity == "01107"));
    assert!(panel.rows().any(|r| r.entity == "16101"));
    assert_eq!(panel.report.recoded_codes, 1);
    assert_eq!(panel.numeric_column("Pobreza").unwrap()[0], Some(10.5));
    // "n/a" in a covariate is missing, not an exclusion.
    let chillan = panel.rows().position(|r| r.entity == "16101").unwrap();
    assert_eq!(panel.numeric_column("pobreza").unwrap()[chillan], None);
}

#[test]
fn every_kind_of_bad_row_is_excluded_with_its_line_and_reason() {
    let bytes = std::fs::read("tests/data/broken.csv").unwrap();
    let panel = load(&[("broken.csv", &bytes)]);
    let r = &panel.report;
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (10, 2, 8));
    let by_line: Vec<(u64, &ExclusionReason)> =
        r.excluded.iter().map(|e| (e.line, &e.kind)).collect();
    assert!(matches!(
        by_line[0],
        (3, ExclusionReason::NonNumeric { .. })
    ));
    assert!(matches!(
        by_line[1],
        (4, ExclusionReason::NegativeCount { .. })
    ));
    assert!(matches!(
        by_line[2],
        (5, ExclusionReason::DeathsExceedBirths { .. })
    ));
    assert!(matches!(
        by_line[3],
        (6, ExclusionReason::MissingEntity { .. })
    ));
    assert!(matches!(
        by_line[4],
        (7, ExclusionReason::MissingTime { .. })
    ));
    assert!(matches!(
        by_line[5],
        (
            8,
            ExclusionReason::DuplicateEntityTime { first_line: 2, .. }
        )
    ));
    assert!(matches!(
        by_line[6],
        (9, ExclusionReason::UnknownCode { .. })
    ));
    assert!(matches!(
        by_line[7],
        (
            10,
            ExclusionReason::WrongFieldCount {
                expected: 4,
                found: 3
            }
        )
    ));
    assert_eq!(
        r.excluded[0].reason,
        "column `nacimientos`: expected a number, found \"abc\""
    );
}

#[test]
fn a_characteristics_file_joins_by_code_and_reports_what_it_cannot_join() {
    let main = b"codigo_comuna,anio,nacimientos,defunciones\n01101,2019,3000,21\n01101,2020,2950,19\n01107,2019,2500,15\n";
    let chars = b"cut;pobreza;region\n1101;10,5;Tarapaca\n13101;7,2;RM\n";
    let panel = load(&[("rates.csv", main), ("chars.csv", chars)]);
    assert_eq!(
        panel.numeric_column("pobreza").unwrap(),
        vec![Some(10.5), Some(10.5), None]
    );
    assert_eq!(
        panel.key_column("region").unwrap()[0].as_deref(),
        Some("Tarapaca")
    );
    let r = &panel.report;
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (5, 4, 1));
    assert_eq!(r.excluded[0].file, "chars.csv");
    assert_eq!(r.excluded[0].line, 3);
    assert_eq!(r.files[1].join, Some("entity"));
}

#[test]
fn a_rate_without_deaths_gives_derived_deaths_and_approximate_intervals() {
    let panel = load(&[("r.csv", b"cut,anio,tmi,nacimientos\n01101,2019,7,3000\n")]);
    assert!(panel.deaths_derived);
    assert_eq!(panel.row(0).deaths, Some(21.0));
    let rates = RateTable::from_panel(&panel).unwrap();
    assert!(rates.approximate_intervals);
    assert!((rates.rows[0].estimate.rate.unwrap() - 7.0).abs() < 1e-12);
}

#[test]
fn a_generic_panel_needs_its_entity_chosen_and_keeps_its_identifiers() {
    let tables = [RawTable::from_bytes(
        "g.csv",
        b"firm,year,invest\nGeneral Motors,1935,317.6\nUS Steel,1935,209.9\n",
    )
    .unwrap()];
    let guessed = tables[0].guessed_roles.clone();
    let err = build_panel(
        &tables,
        std::slice::from_ref(&guessed),
        &IngestOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "g.csv: no column for the commune code (entity) (columns are: firm, year, invest); choose one"
    );
    let mut roles = guessed;
    roles.entity = Some(0);
    let p = build_panel(&tables, &[roles], &IngestOptions::default()).unwrap();
    assert!(!p.chile_codes);
    assert_eq!(p.entities(), vec!["General Motors", "US Steel"]);
}

#[test]
fn national_rates_pool_births_and_deaths_per_year() {
    let panel = load(&[("n.csv", b"code,year,births,deaths\n01101,2019,1000,8\n01107,2019,200,4\n01401,2019,50,0\n01402,2019,3000,15\n")]);
    let rates = RateTable::from_panel(&panel).unwrap();
    let n = &rates.national[0];
    // Reference fixture (tests/reference/README.md): pooled rate 27/4250·1000 = 6.352941.
    assert!((n.estimate.rate.unwrap() - 6.352941).abs() < 1e-6);
    assert_eq!(n.n_areas, 4);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn cell() -> impl Strategy<Value = String> {
        prop_oneof![
            (0u32..5000).prop_map(|v| v.to_string()),
            Just(String::new()),
            Just("n/a".to_owned()),
            Just("-3".to_owned()),
            Just("1,5".to_owned()),
            Just("\"x;y\"".to_owned()),
        ]
    }

    fn code() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("01101"),
            Just("1107"),
            Just("8401"),
            Just("99999"),
            Just(""),
            Just("13101")
        ]
        .prop_map(str::to_owned)
    }

    proptest! {
        #[test]
        fn every_row_is_used_or_excluded(
            rows in proptest::collection::vec((code(), 2018i32..2022, cell(), cell(), cell()), 1..40),
            delimiter in prop_oneof![Just(','), Just(';')],
            short_row in 0usize..50,
        ) {
            let d = delimiter;
            // As a CSV writer would: a cell holding the delimiter is quoted.
            let q = |c: &String| if c.contains(d) && !c.starts_with('"') { format!("\"{c}\"") } else { c.clone() };
            let mut text = format!("codigo_comuna{d}anio{d}nacimientos{d}defunciones{d}pobreza\n");
            for (i, (c, y, b, de, p)) in rows.iter().enumerate() {
                if i == short_row {
                    text.push_str(&format!("{c}{d}{y}\n"));
                } else {
                    text.push_str(&format!("{c}{d}{y}{d}{}{d}{}{d}{}\n", q(b), q(de), q(p)));
                }
            }
            let table = RawTable::from_bytes("p.csv", text.as_bytes()).unwrap();
            let mut roles = table.guessed_roles.clone();
            roles.entity = Some(0);
            roles.time = Some(1);
            roles.births = Some(2);
            roles.deaths = Some(3);
            // the default, repeated keys kept (`imr fit --fe`), a cross-section without the
            // year (`imr fit`) and the year column left out with a year given
            // (`--time-value`): every row used or excluded either way
            for (keep_repeated_keys, time_optional, time_value) in [
                (false, false, None),
                (true, false, None),
                (false, true, None),
                (true, true, None),
                (false, false, Some(2023)),
                (true, false, Some(2023)),
            ] {
                let mut roles = roles.clone();
                if time_optional || time_value.is_some() {
                    roles.time = None;
                }
                let options = IngestOptions {
                    keep_repeated_keys,
                    time_optional,
                    time_value,
                    ..IngestOptions::default()
                };
                match build_panel(std::slice::from_ref(&table), &[roles], &options) {
                    Ok(panel) => {
                        let r = &panel.report;
                        prop_assert_eq!(r.rows_read, table.records.len());
                        prop_assert_eq!(r.rows_read, r.rows_used + r.rows_excluded);
                        prop_assert_eq!(r.rows_used, panel.len());
                        prop_assert_eq!(r.rows_excluded, r.excluded.len());
                        if let Some(year) = time_value {
                            prop_assert!(panel.times().iter().all(|&t| t == year));
                        }
                    }
                    Err(imr_core::ingest::IngestError::NoUsableRows { rows_read, .. }) => {
                        prop_assert_eq!(rows_read, table.records.len());
                    }
                    Err(e) => prop_assert!(false, "unexpected error {e}"),
                }
            }
        }

        /// Published rates read with a lag (`--rate-lag`), alone or beside a births file whose
        /// rows merge into theirs, with repeated keys kept or not: every row is still used or
        /// excluded, each file's counts add up, and every row left without a rate names the lag
        /// and the year it looked in.
        #[test]
        fn every_row_is_used_or_excluded_with_a_rate_lag(
            rows in proptest::collection::vec((code(), 2015i32..2022, cell(), cell()), 1..40),
            births in proptest::collection::vec((code(), 2015i32..2022, cell()), 0..12),
            lag in 0u32..4,
            keep_repeated_keys in proptest::bool::ANY,
        ) {
            let q = |c: &String| if c.contains(',') && !c.starts_with('"') { format!("\"{c}\"") } else { c.clone() };
            let mut rates = String::from("codigo_comuna,anio,tmi,nacimientos\n");
            for (c, y, r, b) in &rows {
                rates.push_str(&format!("{c},{y},{},{}\n", q(r), q(b)));
            }
            let mut births_text = String::from("codigo_comuna,anio,nacimientos\n");
            for (c, y, b) in &births {
                births_text.push_str(&format!("{c},{y},{}\n", q(b)));
            }
            let tables = [
                RawTable::from_bytes("tasas.csv", rates.as_bytes()).unwrap(),
                RawTable::from_bytes("nacimientos.csv", births_text.as_bytes()).unwrap(),
            ];
            let mut roles = [tables[0].guessed_roles.clone(), tables[1].guessed_roles.clone()];
            (roles[0].entity, roles[0].time, roles[0].rate, roles[0].births) = (Some(0), Some(1), Some(2), Some(3));
            (roles[1].entity, roles[1].time, roles[1].births) = (Some(0), Some(1), Some(2));
            let options = IngestOptions {
                rate_lag: Some(lag),
                keep_repeated_keys,
                ..IngestOptions::default()
            };
            let records = tables[0].records.len() + tables[1].records.len();
            match build_panel(&tables, &roles, &options) {
                Ok(panel) => {
                    let r = &panel.report;
                    prop_assert_eq!(r.rows_read, records);
                    prop_assert_eq!(r.rows_read, r.rows_used + r.rows_excluded);
                    prop_assert_eq!(r.rows_used, panel.len() + r.merged_rows);
                    prop_assert_eq!(r.rows_excluded, r.excluded.len());
                    for (f, t) in r.files.iter().zip(&tables) {
                        prop_assert_eq!(f.rows_read, t.records.len());
                        prop_assert_eq!(f.rows_read, f.rows_used + f.rows_excluded);
                        let excluded = r.excluded.iter().filter(|e| e.file == f.file).count();
                        prop_assert_eq!(f.rows_excluded, excluded);
                    }
                    prop_assert_eq!(r.files[0].rate_lag, (lag > 0).then_some(lag));
                    prop_assert_eq!(r.files[1].rate_lag, None);
                    prop_assert!(r.rate_lag.is_some());
                    for e in &r.excluded {
                        if let ExclusionReason::NoLaggedRate { lag: l, time, published_in, .. } = &e.kind {
                            prop_assert_eq!(*l, lag);
                            prop_assert!(lag > 0);
                            prop_assert_eq!(*published_in, time + i64::from(lag));
                        }
                    }
                    for u in &r.unplaced_rates {
                        prop_assert_eq!(u.describes, u.time - i64::from(lag));
                        prop_assert!(!panel.rows().any(|row| row.entity == u.entity && row.time == u.describes));
                    }
                }
                Err(imr_core::ingest::IngestError::NoUsableRows { rows_read, .. }) => {
                    prop_assert_eq!(rows_read, records);
                }
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
        }
    }
}

#[test]
fn births_in_one_file_and_deaths_in_another_join_into_one_row_per_commune_and_year() {
    // As the ministry publishes them: a births table and an infant-deaths table (here the
    // counts written by `imr microdata deaths`), each with its own commune-year rows.
    let deaths = b"codigo_comuna,anio,defunciones\n01101,2019,3\n01101,2020,0\n05101,2019,2\n";
    let births = b"codigo_comuna;anio;nacimientos\n1101;2019;1500\n01101;2020;1400\n05101;2019;1\n01101;2019;9\n13101;2019;800\n";
    let panel = load(&[("conteos.csv", deaths), ("nacimientos.csv", births)]);
    let r = &panel.report;
    // 3 + 5 rows read: 3 deaths rows, 2 births rows joined to them, 1 births-only row (13101),
    // and 2 excluded: 05101 has 2 deaths for 1 birth, and 01101-2019 comes twice in births.
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (8, 6, 2));
    assert_eq!(r.merged_rows, 2);
    let row = |code: &str, year: i64| row_of(&panel, code, year);
    assert_eq!(
        (row("01101", 2019).births, row("01101", 2019).deaths),
        (Some(1500.0), Some(3.0))
    );
    assert_eq!(
        (row("01101", 2020).births, row("01101", 2020).deaths),
        (Some(1400.0), Some(0.0))
    );
    assert_eq!(
        (row("05101", 2019).births, row("05101", 2019).deaths),
        (None, Some(2.0))
    );
    assert_eq!(row("13101", 2019).births, Some(800.0));
    let kinds: Vec<(&str, u64, &ExclusionReason)> = r
        .excluded
        .iter()
        .map(|e| (e.file.as_str(), e.line, &e.kind))
        .collect();
    assert!(matches!(
        kinds[0],
        (
            "nacimientos.csv",
            4,
            ExclusionReason::DeathsExceedBirths { .. }
        )
    ));
    assert!(matches!(
        kinds[1],
        (
            "nacimientos.csv",
            5,
            ExclusionReason::DuplicateEntityTime { first_line: 2, .. }
        )
    ));
    // Rates come from the joined rows: 3 / 1,500 × 1,000 = 2.
    let rates = RateTable::from_panel(&panel).unwrap();
    let iquique = rates
        .rows
        .iter()
        .find(|r| r.entity == "01101" && r.time == 2019)
        .unwrap();
    assert_eq!(iquique.estimate.rate, Some(2.0));
}

#[test]
fn a_downloaded_csv_with_provenance_lines_reads_whole_and_reports_them() {
    let body = "codigo_comuna,anio,nacimientos,defunciones\n01101,2019,3000,20\n01107,2019,abc,3\n01401,2019,500,2\n";
    let csv = imr_core::provenance::with_csv_header("x.csv", "2026-11-30", body);
    let panel = load(&[("tasas.csv", csv.as_bytes())]);
    let r = &panel.report;
    let f = &r.files[0];
    assert_eq!(
        f.metadata_lines.len(),
        imr_core::provenance::CSV_HEADER_LINES
    );
    assert_eq!(f.metadata_lines[2].line, 3);
    assert_eq!(f.metadata_lines[2].text, "# Generated: 2026-11-30");
    // Metadata lines are neither data rows nor exclusions.
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (3, 2, 1));
    // The bad row is on physical line 6: three comment lines, the header, two rows before it.
    assert_eq!(r.excluded[0].line, 6);
    assert!(r.excluded[0].reason.contains("\"abc\""));
}

#[test]
fn exclusion_reasons_read_in_spanish_and_in_english() {
    let bytes = std::fs::read("tests/data/broken.csv").unwrap();
    let panel = load(&[("broken.csv", &bytes)]);
    for e in &panel.report.excluded {
        // English is the reason of the JSON report.
        assert_eq!(e.kind.text(imr_core::Lang::En), e.reason);
        assert_ne!(e.kind.text(imr_core::Lang::Es), e.reason, "{}", e.reason);
    }
    let duplicate = &panel.report.excluded[5].kind;
    assert_eq!(
        duplicate.text(imr_core::Lang::Es),
        duplicate
            .to_string()
            .replace("duplicate of line", "duplicado de la línea")
    );
}

mod duplicates {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    proptest! {
        /// Duplicate (entity, time) keys are found whatever the order of the rows: sorted input
        /// (checked without a map), unsorted input (the map made at the first key out of order)
        /// and both in one file. Each key keeps its first row; every later one is excluded
        /// naming the first line, and the panel holds exactly the first rows with their values.
        #[test]
        fn each_key_keeps_its_first_row_and_reports_the_others(
            keys in proptest::collection::vec((0u8..6, 2000i64..2004), 1..60),
            sort_first in 0usize..60,
        ) {
            // The first `sort_first` keys in order (the fast path), the rest as drawn.
            let mut keys = keys;
            let cut = sort_first.min(keys.len());
            keys[..cut].sort_unstable();
            let mut text = String::from("id,year,value,region\n");
            let mut first: HashMap<(String, i64), (u64, usize)> = HashMap::new();
            let mut expected_excluded: Vec<(u64, u64)> = Vec::new();
            for (i, (e, y)) in keys.iter().enumerate() {
                let line = i as u64 + 2;
                let entity = format!("e{e}");
                text.push_str(&format!("{entity},{y},{i},r{}\n", e % 2));
                match first.get(&(entity.clone(), *y)) {
                    Some(&(first_line, _)) => expected_excluded.push((line, first_line)),
                    None => {
                        first.insert((entity, *y), (line, i));
                    }
                }
            }
            let table = RawTable::from_bytes("d.csv", text.as_bytes()).unwrap();
            let mut roles = table.guessed_roles.clone();
            roles.entity = Some(0);
            roles.time = Some(1);
            roles.births = None;
            roles.deaths = None;
            roles.rate = None;
            let options = IngestOptions {
                code_system: imr_core::ingest::CodeSystem::Generic,
                ..IngestOptions::default()
            };
            let panel = build_panel(&[table], &[roles], &options).unwrap();
            let excluded: Vec<(u64, u64)> = panel
                .report
                .excluded
                .iter()
                .map(|x| match &x.kind {
                    ExclusionReason::DuplicateEntityTime { first_line, first_file: None, .. } => {
                        (x.line, *first_line)
                    }
                    other => panic!("unexpected exclusion {other:?}"),
                })
                .collect();
            prop_assert_eq!(excluded, expected_excluded);
            let mut kept: Vec<((String, i64), (u64, usize))> = first.into_iter().collect();
            kept.sort();
            prop_assert_eq!(panel.len(), kept.len());
            for (row, ((entity, year), (line, i))) in panel.rows().zip(&kept) {
                prop_assert_eq!(row.entity, entity.as_str());
                prop_assert_eq!(row.time, *year);
                prop_assert_eq!(row.line, *line);
                prop_assert_eq!(row.numeric(0), Some(*i as f64));
                let region = format!("r{}", &entity[1..].parse::<u8>().unwrap() % 2);
                prop_assert_eq!(row.text(0), Some(region.as_str()));
            }
        }
    }
}

/// The panel of `files` with repeated (entity, time) keys kept (`imr fit --fe`).
fn load_keeping_repeats(files: &[(&str, &[u8])]) -> Panel {
    let tables: Vec<RawTable> = files
        .iter()
        .map(|(name, bytes)| RawTable::from_bytes(name, bytes).unwrap())
        .collect();
    let roles: Vec<_> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    let options = IngestOptions {
        keep_repeated_keys: true,
        ..IngestOptions::default()
    };
    build_panel(&tables, &roles, &options).unwrap()
}

#[test]
fn repeated_keys_are_kept_as_rows_when_asked_and_characteristics_join_every_one() {
    let data: &[u8] =
        b"code,year,y,x\na,2001,1.0,2.0\na,2001,1.5,2.5\na,2002,2.0,3.0\nb,2001,0.5,1.0\n";
    let chars: &[u8] = b"code,year,size\na,2001,10\na,2002,20\nb,2001,30\n";
    // the default: the repeat is excluded naming the line it repeats
    let panel = load(&[("d.csv", data), ("c.csv", chars)]);
    assert_eq!(panel.len(), 3);
    assert!(matches!(
        panel.report.excluded[0].kind,
        ExclusionReason::DuplicateEntityTime { first_line: 2, .. }
    ));
    // kept: four rows, nothing excluded, and the characteristic of (a, 2001) on both rows
    let panel = load_keeping_repeats(&[("d.csv", data), ("c.csv", chars)]);
    assert_eq!(panel.len(), 4);
    assert_eq!(panel.report.rows_excluded, 0);
    assert_eq!(
        panel.report.rows_read,
        panel.report.rows_used + panel.report.rows_excluded
    );
    let size = panel.numeric_column("size").unwrap();
    let a2001: Vec<Option<f64>> = panel
        .rows()
        .zip(size)
        .filter(|(r, _)| r.entity == "a" && r.time == 2001)
        .map(|(_, v)| v)
        .collect();
    assert_eq!(a2001, vec![Some(10.0), Some(10.0)]);
}

/// Data of one year whose year is not a column (the year in the file's name, as agencies
/// publish yearly files): with `time_value` every row of such a file is of that year, the file's
/// report says so and the panel's time is `year`; a file with its own year column keeps its
/// years; a characteristics file without a year joins by code as always. Without the option
/// the file is the error naming the missing year column.
#[test]
fn a_file_of_one_year_without_a_year_column_takes_the_year_given() {
    let deaths_2023 = b"comuna;nacimientos;defunciones\n01101;1500;6\n05101;900;3\n13101;2000;4\n";
    let with_years = b"comuna,anio,nacimientos,defunciones\n01101,2022,1480,5\n05101,2022,910,4\n";
    let poverty = b"comuna,pobreza\n01101,12.5\n05101,9.1\n13101,5.0\n";
    let files: [(&str, &[u8]); 3] = [
        ("defunciones_2023.csv", deaths_2023),
        ("serie.csv", with_years),
        ("pobreza.csv", poverty),
    ];
    let tables: Vec<RawTable> = files
        .iter()
        .map(|(name, bytes)| RawTable::from_bytes(name, bytes).unwrap())
        .collect();
    let roles: Vec<_> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    assert_eq!(roles[0].time, None, "no column of the first file is a year");
    // The year given dates the first file; not the series (its own years) nor the poverty
    // file (characteristics, joined by code).
    assert!(time_value_applies(&roles));
    assert!(!time_value_applies(&roles[1..]));
    assert!(!time_value_applies(&[roles[1].clone(), roles[2].clone()]));
    // Without any outcome role the first table is the data: a year is needed there.
    assert!(time_value_applies(&roles[2..]));
    // Table by table: only the first file takes a year (the Data view's year per file).
    assert_eq!(undated_tables(&roles), vec![true, false, false]);
    assert_eq!(undated_tables(&roles[2..]), vec![true]);

    let err = build_panel(&tables, &roles, &IngestOptions::default()).unwrap_err();
    assert!(err.to_string().contains("defunciones_2023.csv"), "{err}");
    assert!(err.to_string().contains("year"), "{err}");

    let options = IngestOptions {
        time_value: Some(2023),
        ..IngestOptions::default()
    };
    let panel = build_panel(&tables, &roles, &options).unwrap();
    let r = &panel.report;
    // 3 + 2 main rows and 3 characteristics rows, all used.
    assert_eq!(
        (r.rows_read, r.rows_excluded),
        (3 + 2 + 3, 0),
        "{:?}",
        r.excluded
    );
    assert_eq!(panel.times(), vec![2022, 2023]);
    let row = |code: &str, year: i64| row_of(&panel, code, year);
    assert_eq!(
        (row("01101", 2023).births, row("01101", 2023).deaths),
        (Some(1500.0), Some(6.0))
    );
    assert_eq!(
        (row("01101", 2022).births, row("01101", 2022).deaths),
        (Some(1480.0), Some(5.0))
    );
    assert_eq!(row("13101", 2023).deaths, Some(4.0));
    // Characteristics join by code onto both years.
    assert_eq!(
        panel
            .numeric_column("pobreza")
            .unwrap()
            .iter()
            .flatten()
            .count(),
        5
    );
    // The report says which file took the year; the other keeps its own.
    let given: Vec<Option<i64>> = r.files.iter().map(|f| f.time_given).collect();
    assert_eq!(given, vec![Some(2023), None, None]);
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["files"][0]["time_given"], 2023);
    assert!(json["files"][1].get("time_given").is_none());
    assert_eq!(panel.time_column, "year");
}

/// The year typed for `time_value` (flag, field, link): a plain whole number within the range a
/// year column may hold.
#[test]
fn a_year_given_is_a_plain_whole_number_within_the_years_a_column_may_hold() {
    use imr_core::ingest::{parse_year, MAX_YEAR, MIN_YEAR};
    assert_eq!(parse_year("2023"), Some(2023));
    assert_eq!(parse_year("-5"), Some(-5));
    assert_eq!(parse_year(&MAX_YEAR.to_string()), Some(MAX_YEAR));
    assert_eq!(parse_year(&MIN_YEAR.to_string()), Some(MIN_YEAR));
    for bad in ["", " 2023", "20.5", "x", "1000000", "-1000000"] {
        assert_eq!(parse_year(bad), None, "{bad:?}");
    }
}

/// The year of each yearly file without a year column, as `imr` and the Data view decide it:
/// the year given for the file, else (unless a year is given for every such file) the year its
/// name holds; two such files make a panel of two years, and the year given for one file wins
/// over its name's.
#[test]
fn yearly_files_without_a_year_column_take_their_own_years() {
    // The rule, case by case: given, for every file, named.
    assert_eq!(table_year(Some(2021), None, Some(2022)), Some(2021));
    assert_eq!(table_year(Some(2021), Some(2020), Some(2022)), Some(2021));
    assert_eq!(table_year(None, None, Some(2022)), Some(2022));
    // A year for every file wins over the names' (left to `time_value`).
    assert_eq!(table_year(None, Some(2020), Some(2022)), None);
    assert_eq!(table_year(None, None, None), None);

    let files: [(&str, &[u8]); 2] = [
        (
            "defunciones_2022.csv",
            b"comuna;nacimientos;defunciones\n01101;1400;7\n05101;800;2\n",
        ),
        (
            "defunciones_2023.csv",
            b"comuna;nacimientos;defunciones\n01101;1500;6\n05101;900;3\n",
        ),
    ];
    let read = |given: [Option<i64>; 2]| -> Vec<RawTable> {
        files
            .iter()
            .zip(given)
            .map(|((name, bytes), given)| {
                let mut table = RawTable::from_bytes(name, bytes).unwrap();
                table.time_given = table_year(given, None, year_in_name(name));
                table
            })
            .collect()
    };
    let tables = read([None, None]);
    let roles: Vec<_> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    assert_eq!(undated_tables(&roles), vec![true, true]);
    let panel = build_panel(&tables, &roles, &IngestOptions::default()).unwrap();
    assert_eq!(panel.times(), vec![2022, 2023]);
    assert_eq!(
        panel
            .report
            .files
            .iter()
            .map(|f| f.time_given)
            .collect::<Vec<_>>(),
        vec![Some(2022), Some(2023)]
    );
    assert_eq!(row_of(&panel, "01101", 2022).deaths, Some(7.0));
    // The first file's year changed: the panel follows.
    let panel = build_panel(&read([Some(2021), None]), &roles, &IngestOptions::default()).unwrap();
    assert_eq!(panel.times(), vec![2021, 2023]);
    assert_eq!(row_of(&panel, "01101", 2021).deaths, Some(7.0));
}
