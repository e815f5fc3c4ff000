//! A saved analysis written and read back: bytes, roles, years, sheets, errors.
use super::*;
use crate::ingest::{build_panel, IngestOptions};

#[test]
fn a_saved_analysis_reopens_to_the_same_panel() {
    let bytes: &[u8] = b"Comuna;A\xf1o;Nacimientos;Tasa\n01101;2019;3.000;7\n01107;2019;2500;6\n";
    let table = RawTable::from_bytes("x.csv", bytes).unwrap();
    let mut roles = table.guessed_roles.clone();
    roles.deaths = None;
    let saved = SavedAnalysis::new(
        &[("x.csv", bytes, &table, &roles)],
        "view=map&year=2019",
        "2026-11-30",
    );
    let json = saved.to_json();
    assert!(is_saved_analysis(json.as_bytes()));
    let reopened = SavedAnalysis::from_json("a.json", json.as_bytes()).unwrap();
    assert_eq!(reopened, saved);
    let (tables, roles2): (Vec<_>, Vec<_>) = reopened
        .tables_and_roles("a.json")
        .unwrap()
        .into_iter()
        .unzip();
    assert_eq!(roles2[0], roles);
    let before = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    let after = build_panel(&tables, &roles2, &IngestOptions::default()).unwrap();
    assert!(before.rows().eq(after.rows()));
    assert_eq!(after.report.files[0].encoding, "windows-1252");
}

/// The year the reader gave a file without a year column travels with it: absent from the
/// JSON when none was given (older analyses read as before), a year out of range not read.
#[test]
fn the_year_given_a_file_is_saved_with_it() {
    let bytes: &[u8] = b"comuna;nacimientos;defunciones\n01101;1500;6\n";
    let table = RawTable::from_bytes("defunciones_2022.csv", bytes).unwrap();
    let roles = table.guessed_roles.clone();
    let entries = [("defunciones_2022.csv", bytes, &table, &roles)];
    let plain = SavedAnalysis::new(&entries, "", "x");
    assert!(!plain.to_json().contains("\"year\""));
    let given = plain.clone().with_years(&[Some(2021)]);
    let reopened = SavedAnalysis::from_json("a.json", given.to_json().as_bytes()).unwrap();
    assert_eq!(reopened.years(), vec![Some(2021)]);
    let tables = reopened.tables_and_roles("a.json").unwrap();
    assert_eq!(tables[0].0.time_given, Some(2021));
    let none = SavedAnalysis::from_json("a.json", plain.to_json().as_bytes()).unwrap();
    assert_eq!(
        none.tables_and_roles("a.json").unwrap()[0].0.time_given,
        None
    );
    let far = plain.with_years(&[Some(MAX_YEAR + 1)]);
    assert_eq!(far.years(), vec![None]);
}

#[test]
fn other_json_is_refused_with_the_file_name() {
    assert!(!is_saved_analysis(b"{\"a\": 1}"));
    let err = SavedAnalysis::from_json("b.json", b"{\"a\": 1}").unwrap_err();
    assert!(err
        .to_string()
        .starts_with("b.json: not a saved imr-atlas analysis"));
}

fn saved_json(format: &str, roles: &str) -> String {
    let bytes = base64::engine::general_purpose::STANDARD
        .encode(b"code,year,births,deaths\n01101,2019,100,1\n");
    format!(
        r#"{{"format":"{format}","engine_version":"0.1.0","saved_at":"x","options":"","files":[{{"name":"a.csv","bytes_base64":"{bytes}","roles":{roles}}}]}}"#
    )
}

#[test]
fn only_the_exact_format_version_is_opened() {
    let roles = r#"{"entity":"code","time":"year","births":"births","deaths":"deaths"}"#;
    assert!(SavedAnalysis::from_json("a.json", saved_json(FORMAT, roles).as_bytes()).is_ok());
    for other in [
        "imr-atlas-analysis/2",
        "imr-atlas-analysis/1.1",
        "imr-atlas-analysis/",
        "imr-atlas-analysis/10",
    ] {
        let err = SavedAnalysis::from_json("a.json", saved_json(other, roles).as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("a.json: not a saved imr-atlas analysis: it is in format"),
            "{err}"
        );
        assert!(err.contains("reads only `imr-atlas-analysis/1`"), "{err}");
    }
    let err = SavedAnalysis::from_json("a.json", saved_json("other/1", roles).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown format `other/1` (expected `imr-atlas-analysis/1`)"),
        "{err}"
    );
}

#[test]
fn two_roles_on_one_column_are_refused() {
    let roles = r#"{"entity":"code","time":"year","births":"births","deaths":"births"}"#;
    let saved = SavedAnalysis::from_json("a.json", saved_json(FORMAT, roles).as_bytes()).unwrap();
    let err = saved.tables_and_roles("a.json").unwrap_err().to_string();
    assert_eq!(
        err,
        "a.json: file `a.csv` gives column `births` both the births and the deaths role; each role needs its own column"
    );
}

#[test]
fn every_error_is_worded_in_spanish_without_english_words() {
    let file = || "a.json".to_owned();
    let errors = [
        AnalysisError::NotAnAnalysis {
            file: file(),
            why: NotAnAnalysis::OtherVersion {
                format: "imr-atlas-analysis/9".into(),
            },
        },
        AnalysisError::NotAnAnalysis {
            file: file(),
            why: NotAnAnalysis::UnknownFormat { format: "x".into() },
        },
        AnalysisError::BadBytes {
            file: file(),
            inner: "a.csv".into(),
        },
        AnalysisError::MissingColumn {
            file: file(),
            inner: "a.csv".into(),
            role: Role::Births,
            column: "nac".into(),
        },
        AnalysisError::SameColumnForTwoRoles {
            file: file(),
            inner: "a.csv".into(),
            column: "n".into(),
            first: Role::Births,
            second: Role::Deaths,
        },
        AnalysisError::SheetUnread {
            file: file(),
            inner: "b.xlsx [2010]".into(),
        },
        AnalysisError::Ingest(IngestError::NoFiles),
    ];
    for error in errors {
        let text = error.text(Lang::Es);
        assert_eq!(
            imr_lang::spanish_problems(&error),
            Vec::<String>::new(),
            "{text}"
        );
        assert_ne!(text, error.to_string());
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            assert!(
                !["the", "file", "has", "for", "role", "not", "and", "format", "files"]
                    .contains(&word),
                "{word:?} in {text:?}"
            );
        }
    }
}

/// The sheets of a workbook saved with it: the workbook's bytes once, each sheet's origin, and
/// read again by name to the same tables and roles (feature `sheets`, as `imr` reads it).
#[cfg(feature = "sheets")]
#[test]
fn sheets_are_saved_with_their_workbook_once_and_read_again_by_name() {
    use crate::ingest::sheet::{read_sheets, SheetsRead, Workbook};
    use crate::ingest::SheetChoice;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../e2e/fixtures/defunciones_hojas.xlsx"
    );
    let bytes = std::fs::read(path).unwrap();
    let mut book = Workbook::open("defunciones_hojas.xlsx", bytes.clone()).unwrap();
    let Ok(SheetsRead::Tables { tables, .. }) = read_sheets(&mut book, &SheetChoice::All) else {
        panic!("the e2e workbook reads");
    };
    let mut roles: Vec<ColumnRoles> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    roles[1].births = None;
    let entries: Vec<(&str, &[u8], &RawTable, &ColumnRoles)> = tables
        .iter()
        .zip(&roles)
        .map(|(t, r)| (t.file.as_str(), bytes.as_slice(), t, r))
        .collect();
    let origins: Vec<Option<SheetOrigin>> = ["2022", "2023"]
        .map(|sheet| {
            Some(SheetOrigin {
                workbook: "defunciones_hojas.xlsx".into(),
                sheet: sheet.into(),
                all: false,
            })
        })
        .to_vec();
    let saved = SavedAnalysis::new(&entries, "view=data", "t").with_sheets(&origins);
    assert!(!saved.files[0].bytes_base64.is_empty());
    assert!(
        saved.files[1].bytes_base64.is_empty(),
        "the workbook is stored once"
    );
    let reopened = SavedAnalysis::from_json("a.json", saved.to_json().as_bytes()).unwrap();
    assert_eq!(reopened.sheets(), origins);
    let files = reopened.file_bytes("a.json").unwrap();
    assert!(files.iter().all(|(_, b)| *b == bytes));
    let again = reopened.tables_and_roles("a.json").unwrap();
    assert_eq!(again.len(), 2);
    for ((table, role), (before, role_before)) in again.iter().zip(tables.iter().zip(&roles)) {
        assert_eq!(table.file, before.file);
        assert_eq!(table.columns, before.columns);
        assert_eq!(table.records.iter().count(), before.records.iter().count());
        assert_eq!(role, role_before);
    }
}

/// Without a spreadsheet reader (the page's main wasm) a saved sheet is an error naming it,
/// never its workbook's bytes read as a CSV file.
#[cfg(not(feature = "sheets"))]
#[test]
fn a_sheet_without_a_reader_is_an_error_naming_it() {
    let bytes: &[u8] = b"code,year,births,deaths\n01101,2019,100,1\n";
    let table = RawTable::from_bytes("b.xlsx [2019]", bytes).unwrap();
    let roles = table.guessed_roles.clone();
    let origin = SheetOrigin {
        workbook: "b.xlsx".into(),
        sheet: "2019".into(),
        all: false,
    };
    let saved = SavedAnalysis::new(&[("b.xlsx [2019]", bytes, &table, &roles)], "", "t")
        .with_sheets(&[Some(origin)]);
    let error = saved.tables_and_roles("a.json").unwrap_err();
    assert_eq!(
        error.text(Lang::Es),
        "a.json: la hoja «b.xlsx [2019]» del análisis no se puede leer aquí"
    );
}
