//! Hostile and broken CSV inputs (input side): numbers as people write them, quotes
//! that swallow lines, names that collide, implausible counts, huge headers. Every physical line
//! of a file is accounted for and every row is used or excluded with its reason.

use imr_core::ingest::{
    build_panel, ColumnRoles, ExclusionReason, IngestError, IngestOptions, RawTable, MAX_COUNT,
};
use imr_core::rates::RateTable;

fn table(name: &str, bytes: &[u8]) -> RawTable {
    RawTable::from_bytes(name, bytes).unwrap()
}

fn build(tables: &[RawTable]) -> Result<imr_core::panel::Panel, IngestError> {
    let roles: Vec<ColumnRoles> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    build_panel(tables, &roles, &IngestOptions::default())
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/data/hostile/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn a_pandas_written_panel_with_scientific_notation_loses_no_row() {
    let t = table("pandas.csv", &corpus("scientific_notation.csv"));
    let panel = build(&[t]).unwrap();
    let r = &panel.report;
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (4, 4, 0));
    assert!(r.cell_warnings.is_empty(), "{:?}", r.cell_warnings);
    let x1 = panel.numeric_column("x1").unwrap();
    assert_eq!(
        x1,
        vec![
            Some(1.712078436289678e-05),
            Some(1500.0),
            Some(-0.0025),
            Some(1e-05)
        ]
    );
}

#[test]
fn an_unterminated_quote_is_excluded_naming_its_line_and_the_lines_it_swallowed() {
    let t = table("quote.csv", &corpus("unterminated_quote.csv"));
    assert_eq!(t.physical_lines, 6);
    let q = t.unterminated_quote.expect("the quote is seen");
    assert_eq!((q.record_line, q.quote_line, q.lines_swallowed), (3, 3, 4));
    let panel = build(&[t]).unwrap();
    let r = &panel.report;
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (2, 1, 1));
    assert_eq!(r.excluded[0].line, 3);
    assert_eq!(
        r.excluded[0].kind,
        ExclusionReason::UnterminatedQuote {
            quote_line: 3,
            lines_swallowed: 4
        }
    );
    assert_eq!(
        r.excluded[0].reason,
        "the `\"` opened on line 3 is never closed: the rest of the file (4 physical lines) was read as one field"
    );
    assert_eq!(r.files[0].physical_lines, 6);
    assert_eq!(r.physical_lines(), 6, "one file: its lines are the total");
}

#[test]
fn a_quote_opened_inside_a_later_line_of_a_record_names_that_line() {
    let text = b"code,year,births,deaths,note\n01101,2019,100,1,\"ok\nstill ok\"\n01107,2019,100,1,x\n01401,2019,50,0,\"never\nclosed\n";
    let t = table("q.csv", text);
    let q = t.unterminated_quote.unwrap();
    assert_eq!((q.record_line, q.quote_line, q.lines_swallowed), (5, 5, 2));
    assert_eq!(t.records.get(0).unwrap().end_line, 3);
    // A doubled quote inside a quoted field is not a closing one.
    let t = table(
        "q.csv",
        b"code,note\n01101,\"a \"\"b\"\" c\"\n01107,\"x \"\"\n",
    );
    assert_eq!(t.unterminated_quote.map(|q| q.quote_line), Some(3));
    // A quote inside an unquoted field is literal (5" of rain), not an opening one.
    let t = table("q.csv", b"code,note\n01101,5\" of rain\n01107,x\n");
    assert_eq!(t.unterminated_quote, None);
    assert_eq!(t.records.len(), 2);
}

#[test]
fn an_unterminated_quote_in_the_header_is_an_error_with_its_line() {
    let err = RawTable::from_bytes("h.csv", b"code,\"year,births\n01101,2019,3\n01107,2019,4\n")
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("h.csv, line 1: cannot split the file"),
        "{text}"
    );
    assert!(text.contains("3 physical lines"), "{text}");
}

#[test]
fn characteristics_files_with_the_same_stem_get_distinct_reachable_columns() {
    let main = table(
        "main.csv",
        b"code,year,births,deaths,pobreza\n01101,2019,100,1,5\n01107,2019,200,2,6\n",
    );
    let a = table("a/chars.csv", b"code,pobreza\n01101,10\n01107,11\n");
    let b = table("b/chars.csv", b"code,pobreza\n01101,20\n01107,21\n");
    let c = table("c/chars.csv", b"code,pobreza\n01101,30\n01107,31\n");
    let panel = build(&[main, a, b, c]).unwrap();
    assert_eq!(
        panel.numeric_names,
        [
            "pobreza",
            "pobreza (chars)",
            "pobreza (b/chars.csv)",
            "pobreza (c/chars.csv)"
        ]
    );
    for (name, first) in [
        ("pobreza", 5.0),
        ("pobreza (chars)", 10.0),
        ("pobreza (b/chars.csv)", 20.0),
        ("pobreza (c/chars.csv)", 30.0),
    ] {
        assert_eq!(
            panel.numeric_column(name).unwrap()[0],
            Some(first),
            "{name}"
        );
    }
}

#[test]
fn a_conflicting_covariate_in_a_births_deaths_merge_is_reported_with_both_places() {
    let births = table(
        "births.csv",
        b"code,year,births,region\n01101,2019,100,Tarapaca\n01107,2019,200,Tarapaca\n",
    );
    let deaths = table(
        "deaths.csv",
        b"code,year,deaths,region\n01101,2019,1,Tarapaca\n01107,2019,2,Antofagasta\n",
    );
    let panel = build(&[births, deaths]).unwrap();
    let r = &panel.report;
    assert_eq!((r.rows_read, r.rows_used, r.merged_rows), (4, 4, 2));
    assert_eq!(r.conflicts.len(), 1);
    let c = &r.conflicts[0];
    assert_eq!(
        (
            c.column.as_str(),
            c.entity.as_str(),
            c.kept_file.as_str(),
            c.kept_line,
            c.other_file.as_str(),
            c.other_line
        ),
        ("region", "01107", "births.csv", 3, "deaths.csv", 3)
    );
    assert_eq!(
        c.to_string(),
        "column `region` of 01107 in 2019: births.csv line 3 says \"Tarapaca\", deaths.csv line 3 says \"Antofagasta\"; the first is used"
    );
}

#[test]
fn implausible_counts_and_rates_are_excluded_with_column_and_reason() {
    let t = table("bounds.csv", &corpus("huge_counts.csv"));
    let panel = build(&[t]).unwrap();
    let reasons: Vec<(u64, String)> = panel
        .report
        .excluded
        .iter()
        .map(|e| (e.line, e.reason.clone()))
        .collect();
    assert_eq!(
        reasons,
        vec![
            (
                3,
                "column `deaths`: count 1e308 above the limit 1000000000".to_owned()
            ),
            (
                4,
                "column `births`: count 1000000001 above the limit 1000000000".to_owned()
            ),
            (
                6,
                "column `deaths`: expected a number, found \"inf\"".to_owned()
            ),
            (7, "column `deaths`: missing value".to_owned()),
            (
                8,
                "column `deaths`: expected a number, found \"1e400\"".to_owned()
            ),
        ]
    );
    // A fractional count is accepted (derived deaths are fractional): line 5's 2.5 births.
    assert_eq!(panel.len(), 3);
    assert_eq!(MAX_COUNT, 1e9);
    // The rates of what is left compute (the Garwood interval of 1e308 deaths panicked).
    RateTable::from_panel(&panel).unwrap();
}

#[test]
fn a_negative_rate_is_excluded_as_a_rate() {
    let t = table(
        "r.csv",
        b"code,year,births,tmi\n01101,2019,100,-3\n01107,2019,100,5\n",
    );
    let panel = build(&[t]).unwrap();
    assert_eq!(
        panel.report.excluded[0].reason,
        "column `tmi`: negative rate -3"
    );
}

#[test]
fn one_column_for_two_roles_is_refused() {
    let t = table("x.csv", b"code,year,births\n01101,2019,100\n");
    let mut roles = t.guessed_roles.clone();
    roles.deaths = roles.births;
    let err = build_panel(&[t], &[roles], &IngestOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.csv: column `births` is chosen for both the births and the deaths; each role needs its own column"
    );
}

#[test]
fn a_huge_header_of_repeated_names_is_read_and_made_unique() {
    // The case: 669,249 names in a 5 MB header hung ingest (quadratic de-duplication).
    let n = 669_249;
    let mut text = String::from("code,year,births,deaths");
    for i in 0..n {
        text.push_str(if i % 2 == 0 { ",x" } else { ",x_6" });
    }
    text.push('\n');
    text.push_str("01101,2019,100,1");
    text.push_str(&",1".repeat(n));
    text.push('\n');
    let t = table("wide.csv", text.as_bytes());
    assert_eq!(t.columns.len(), n + 4);
    let distinct: std::collections::HashSet<&String> = t.columns.iter().collect();
    assert_eq!(distinct.len(), t.columns.len());
    assert_eq!(
        &t.columns[4..10],
        ["x", "x_6", "x_7", "x_6_8", "x_9", "x_6_10"]
    );
    // An error listing the columns stays short.
    let mut roles = t.guessed_roles.clone();
    roles.entity = None;
    let tables = std::slice::from_ref(&t);
    let err = build_panel(tables, &[roles], &IngestOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.len() < 400, "{}", err.len());
    assert!(
        err.ends_with(&format!("… and {} more); choose one", n + 4 - 20)),
        "{err}"
    );
    let panel = build(tables).unwrap();
    assert_eq!(panel.numeric_names.len(), n);
}

#[test]
fn the_committed_hostile_corpus_never_panics_and_accounts_for_every_row() {
    let dir = format!("{}/tests/data/hostile", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            continue; // the seeds of the other input kinds (imr-fuzz)
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        seen += 1;
        let Ok(t) = RawTable::from_bytes(&name, &bytes) else {
            continue;
        };
        if let Ok(panel) = build(std::slice::from_ref(&t)) {
            let r = &panel.report;
            assert_eq!(r.rows_read, r.rows_used + r.rows_excluded, "{name}");
            assert_eq!(r.rows_read, t.records.len(), "{name}");
            let _ = RateTable::from_panel(&panel);
        }
    }
    assert!(seen >= 10, "{seen} corpus files");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => (0u32..500, 0u32..50).prop_map(|(b, d)| format!("01101,2019,{b},{d}")),
            1 => Just(String::new()),
            1 => Just("   ".to_owned()),
            1 => Just("01107,2019,\"1\n2\",3".to_owned()),
            1 => Just("01107,2019,\"unclosed,3".to_owned()),
            1 => Just("01107,\"a\"\"b\",3,4".to_owned()),
            1 => Just("5\" of rain,x,y,z".to_owned()),
            1 => Just("1.5e-3,1,5E+02,\"x\r\ny\"".to_owned()),
        ]
    }

    proptest! {
        /// Every physical line is the header, a metadata line, a blank line or a line of exactly
        /// one record; records do not overlap and are in order; an unclosed quote is seen when
        /// the last record reaches the end of the file inside quotes.
        #[test]
        fn every_physical_line_is_accounted_for(
            lines in proptest::collection::vec(line(), 0..30),
            metadata in 0usize..3,
            crlf in proptest::bool::ANY,
            final_newline in proptest::bool::ANY,
        ) {
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut text = String::new();
            for i in 0..metadata {
                text.push_str(&format!("# meta {i}{eol}"));
            }
            text.push_str("code,year,births,deaths");
            for l in &lines {
                text.push_str(eol);
                text.push_str(l);
            }
            if final_newline {
                text.push_str(eol);
            }
            let Ok(t) = RawTable::from_bytes("p.csv", text.as_bytes()) else {
                return Ok(());
            };
            let physical: Vec<&str> = text.split('\n').collect();
            let physical_count = if text.ends_with('\n') { physical.len() - 1 } else { physical.len() };
            prop_assert_eq!(t.physical_lines as usize, physical_count);
            let mut covered = vec![false; physical_count + 1];
            for m in &t.metadata {
                covered[m.line as usize] = true;
            }
            let header_line = t.metadata.len() + 1;
            if t.dialect.has_header {
                covered[header_line] = true;
            }
            let mut last_end = 0;
            for r in t.records.iter() {
                prop_assert!(r.line > last_end && r.end_line >= r.line, "{:?}", r);
                prop_assert!(r.end_line as usize <= physical_count);
                for l in r.line..=r.end_line {
                    prop_assert!(!covered[l as usize], "line {} twice", l);
                    covered[l as usize] = true;
                }
                last_end = r.end_line;
            }
            for (i, seen) in covered.iter().enumerate().skip(1) {
                if !seen {
                    prop_assert!(physical[i - 1].trim().is_empty(), "line {} not accounted: {:?}", i, physical[i - 1]);
                }
            }
            if let Ok(panel) = build(std::slice::from_ref(&t)) {
                let r = &panel.report;
                prop_assert_eq!(r.rows_read, r.rows_used + r.rows_excluded);
                prop_assert_eq!(r.rows_read, t.records.len());
                if let Some(q) = t.unterminated_quote {
                    let reported = r.excluded.iter().any(|e| {
                        e.line == q.record_line
                            && matches!(e.kind, ExclusionReason::UnterminatedQuote { .. })
                    });
                    prop_assert!(reported, "{:?}", q);
                }
            }
        }
    }
}
