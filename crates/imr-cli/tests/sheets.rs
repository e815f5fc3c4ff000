//! Agency files as they come (issue 45): INE's workbook SAIP4026 read as it is — sixteen yearly
//! sheets, each in the commune code system of its year — gives the infant deaths 2000–2015 by
//! commune of the project's checked extract; a sheet chosen by name; yearly files without a
//! year column stacked by the year in their names or given per file; errors naming file and
//! sheet.

mod common;
use common::{fails_in, imr_in, json_in};
use std::collections::BTreeMap;
use std::path::PathBuf;

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// INE's workbook as delivered (`tests/data/ine_saip4026/PROVENANCE.md`).
fn workbook() -> String {
    format!("{CRATE_DIR}/tests/data/ine_saip4026/SAIP4026.xlsx")
}

/// The checked extract of the same workbook: per (2018 code, year), the infant deaths (`None`
/// where the commune had not been created, counted in its parent) and the note.
fn extract() -> BTreeMap<(String, i64), (Option<f64>, String)> {
    let path =
        format!("{CRATE_DIR}/tests/data/ine_saip4026/defunciones_comuna_residencia_2000_2015.csv");
    let mut rows = BTreeMap::new();
    for rec in csv::Reader::from_path(path).unwrap().records() {
        let rec = rec.unwrap();
        rows.insert(
            (rec[0].to_owned(), rec[1].parse::<i64>().unwrap()),
            (rec[2].parse::<f64>().ok(), rec[6].to_owned()),
        );
    }
    rows
}

/// A folder of the test's own holding these files.
fn folder(name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("imr-sheets-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    dir
}

/// Births of 100,000 for every commune and year of the extract: the deaths file needs births
/// beside it to be rates; the deaths are what is compared.
fn births_csv() -> String {
    let mut csv = String::from("codigo_comuna,anio,nacimientos\n");
    for (code, year) in extract().keys() {
        csv.push_str(&format!("{code},{year},100000\n"));
    }
    csv
}

#[test]
fn ines_workbook_as_it_is_gives_the_checked_infant_deaths_of_2000_to_2015() {
    let dir = folder("golden", &[("nacimientos.csv", births_csv().as_bytes())]);
    let book = workbook();
    let out = imr_in(
        &dir,
        &["rates", &book, "--sheets", "all", "nacimientos.csv"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("sheet \"Codigos Comuna\" left out"),
        "{stderr}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let deaths: BTreeMap<(String, i64), Option<f64>> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["entity"].as_str().unwrap().to_owned(),
                    r["time"].as_i64().unwrap(),
                ),
                r["deaths"].as_f64(),
            )
        })
        .collect();
    let mut compared = 0;
    for (key, (want, note)) in extract() {
        let got = deaths.get(&key).copied().flatten();
        match (want, note.as_str()) {
            // Not yet created (2000–2003): no row of INE's, counted in the parent.
            (None, _) => assert_eq!(got, None, "{key:?} {note}"),
            // No row in INE's sheet: no deaths at any age; the extract writes 0.
            (Some(w), "absent_in_source_table_set_0") => {
                assert!(got.is_none() || got == Some(w), "{key:?} {got:?}")
            }
            (Some(w), _) => {
                assert_eq!(got, Some(w), "{key:?} {note}");
                compared += 1;
            }
        }
    }
    assert!(compared > 5_400, "{compared}");
    // Every year's communes add up to INE's "Total País" row.
    let totals = csv::Reader::from_path(format!(
        "{CRATE_DIR}/tests/data/ine_saip4026/totales_nacionales.csv"
    ))
    .unwrap()
    .records()
    .map(|r| {
        let r = r.unwrap();
        (r[0].parse::<i64>().unwrap(), r[1].parse::<f64>().unwrap())
    })
    .collect::<Vec<_>>();
    assert_eq!(totals.len(), 16);
    for (year, total) in totals {
        let sum: f64 = deaths
            .iter()
            .filter(|((_, y), _)| *y == year)
            .filter_map(|(_, d)| *d)
            .sum();
        assert_eq!(sum, total, "{year}");
    }
    // Every row accounted for: the sixteen "Total País" rows excluded as totals, naming file,
    // sheet and row; nothing else.
    let input = &doc["input"];
    assert_eq!(
        input["rows_read"].as_u64().unwrap(),
        input["rows_used"].as_u64().unwrap() + input["rows_excluded"].as_u64().unwrap()
    );
    let excluded = input["excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 16);
    for e in excluded {
        assert!(
            e["file"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{book} [")),
            "{e}"
        );
        assert_eq!(e["reason"], "a totals row (\"Total País\"), not an area");
    }
    assert!(excluded
        .iter()
        .any(|e| e["file"] == format!("{book} [2015]") && e["line"] == 344));
    // Each year's code system named, and every code that changed reported.
    let systems: Vec<(i64, &str)> = input["code_systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["time"].as_i64().unwrap(), s["system"].as_str().unwrap()))
        .collect();
    let mut expected: Vec<(i64, &str)> = vec![(2000, "hasta 1999")];
    expected.extend((2001..=2006).map(|y| (y, "desde 2000")));
    expected.extend((2007..=2009).map(|y| (y, "desde 2008")));
    let mut sorted = systems.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
    let recodings = input["historical_recodings"].as_array().unwrap();
    let recoded = |year: i64, code: &str| {
        recodings
            .iter()
            .find(|r| r["time"] == year && r["code"] == code)
            .map(|r| {
                (
                    r["code_2018"].as_str().unwrap(),
                    r["commune"].as_str().unwrap(),
                )
            })
    };
    assert_eq!(recoded(2000, "210"), Some(("01101", "Iquique")));
    assert_eq!(recoded(2003, "1201"), Some(("15101", "Arica")));
    assert_eq!(recoded(2005, "10501"), Some(("14101", "Valdivia")));
    assert_eq!(recoded(2008, "5106"), Some(("05801", "Quilpué")));
    assert_eq!(
        recoded(2008, "15101"),
        None,
        "unchanged codes are not recodings"
    );
    // 2004's new communes: in their parents until 2003, their own from 2004.
    for (code, parent) in [
        ("01107", "01101"),
        ("08112", "08110"),
        ("08314", "08311"),
        ("09121", "09111"),
    ] {
        assert_eq!(
            deaths.get(&(code.to_owned(), 2003)).copied().flatten(),
            None
        );
        assert!(deaths
            .get(&(code.to_owned(), 2004))
            .copied()
            .flatten()
            .is_some());
        assert!(deaths
            .get(&(parent.to_owned(), 2003))
            .copied()
            .flatten()
            .is_some());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sheet_chosen_by_name_takes_its_name_as_the_year() {
    let dir = folder("one-sheet", &[("nacimientos.csv", births_csv().as_bytes())]);
    let book = workbook();
    let doc = json_in(
        &dir,
        &["rates", &book, "--sheet", "2010", "nacimientos.csv"],
    );
    let files = doc["input"]["files"].as_array().unwrap();
    assert_eq!(files[0]["file"], format!("{book} [2010]"));
    assert_eq!(files[0]["time_given"], 2010);
    let metadata = files[0]["metadata_lines"].as_array().unwrap();
    assert_eq!(metadata[0]["line"], 1);
    assert!(metadata[0]["text"]
        .as_str()
        .unwrap()
        .contains("SEGÚN COMUNA DE RESIDENCIA HABITUAL DEL FALLECIDO, AÑO 2010"));
    let with_deaths: Vec<&serde_json::Value> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["deaths"].is_number())
        .collect();
    assert!(with_deaths.len() > 330);
    assert!(with_deaths.iter().all(|r| r["time"] == 2010));
    // The same sheet with its year given otherwise.
    let doc = json_in(
        &dir,
        &[
            "rates",
            &book,
            "--sheet",
            "2010",
            "nacimientos.csv",
            "--time-value",
            "SAIP4026.xlsx=2011",
        ],
    );
    assert_eq!(doc["input"]["files"][0]["time_given"], 2011);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The command the page shows for two workbooks read with different sheets (its
/// `workbook_inputs`) runs, and reads of each workbook its own sheets only.
#[test]
fn the_pages_command_for_two_workbooks_of_different_sheets_reads_each_its_own() {
    use imr_core::ingest::sheet_choice::{workbook_inputs, SheetOrigin};
    let book = std::fs::read(workbook()).unwrap();
    let dir = folder(
        "two-books",
        &[
            ("a.xlsx", &book),
            ("b.xlsx", &book),
            ("nacimientos.csv", births_csv().as_bytes()),
        ],
    );
    let sheet = |workbook: &str, sheet: &str| {
        (
            format!("{workbook} [{sheet}]"),
            Some(SheetOrigin {
                workbook: workbook.into(),
                sheet: sheet.into(),
                all: false,
            }),
        )
    };
    let loaded = [
        sheet("a.xlsx", "2010"),
        sheet("b.xlsx", "2012"),
        ("nacimientos.csv".to_owned(), None),
    ];
    let (files, choice) = workbook_inputs(&loaded);
    let mut args = vec!["rates".to_owned()];
    args.extend(files);
    args.extend(choice.to_args());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let doc = json_in(&dir, &args);
    let read: Vec<&str> = doc["input"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(read, ["a.xlsx [2010]", "b.xlsx [2012]", "nacimientos.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_yearly_files_without_a_year_column_are_a_two_year_panel() {
    let dir = folder(
        "yearly",
        &[
            (
                "defunciones_2022.csv",
                b"comuna;nacimientos;defunciones\n01101;1500;6\n05101;900;3\n",
            ),
            (
                "defunciones_2023.csv",
                b"comuna;nacimientos;defunciones\n01101;1400;7\n05101;950;2\n",
            ),
        ],
    );
    let doc = json_in(
        &dir,
        &["rates", "defunciones_2022.csv", "defunciones_2023.csv"],
    );
    let keys: Vec<(String, i64, f64)> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["entity"].as_str().unwrap().to_owned(),
                r["time"].as_i64().unwrap(),
                r["deaths"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("01101".into(), 2022, 6.0),
            ("01101".into(), 2023, 7.0),
            ("05101".into(), 2022, 3.0),
            ("05101".into(), 2023, 2.0)
        ]
    );
    let given: Vec<i64> = doc["input"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["time_given"].as_i64().unwrap())
        .collect();
    assert_eq!(given, [2022, 2023]);
    // Per file, by name; one year for every file overrides the names.
    let doc = json_in(
        &dir,
        &[
            "rates",
            "defunciones_2022.csv",
            "defunciones_2023.csv",
            "--time-value",
            "defunciones_2023.csv=2021",
        ],
    );
    assert_eq!(doc["input"]["files"][1]["time_given"], 2021);
    // One year for every file wins over the names: both files are then 2020, and the second
    // file's rows repeat the first's keys.
    let doc = json_in(
        &dir,
        &[
            "rates",
            "defunciones_2022.csv",
            "defunciones_2023.csv",
            "--time-value",
            "2020",
        ],
    );
    let excluded = doc["input"]["excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 2);
    assert!(excluded.iter().all(|e| e["file"] == "defunciones_2023.csv"
        && e["reason"]
            .as_str()
            .unwrap()
            .starts_with("duplicate of defunciones_2022.csv")));
    // A FILE=YEAR naming no input file, and two years for every file, are usage errors.
    let stderr = fails_in(
        &dir,
        2,
        &[
            "rates",
            "defunciones_2022.csv",
            "--time-value",
            "otro.csv=2020",
        ],
    );
    assert!(stderr.contains("no input file is otro.csv"), "{stderr}");
    let stderr = fails_in(
        &dir,
        2,
        &[
            "rates",
            "defunciones_2022.csv",
            "--time-value",
            "2020",
            "--time-value",
            "2021",
        ],
    );
    assert!(stderr.contains("more than once"), "{stderr}");
    fails_in(
        &dir,
        2,
        &["rates", "defunciones_2022.csv", "--time-value", "x=20.5"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_workbook_without_a_sheet_choice_or_a_broken_one_gets_a_message() {
    let dir = folder(
        "errors",
        &[
            ("roto.xlsx", b"PK\x03\x04 not really a zip"),
            (
                "datos.csv",
                b"comuna,anio,nacimientos,defunciones\n01101,2020,10,1\n",
            ),
        ],
    );
    let book = workbook();
    let stderr = fails_in(&dir, 2, &["rates", &book]);
    assert!(
        stderr.contains("has 17 sheets (2015, 2014")
            && stderr.contains("--sheet NAME")
            && stderr.contains("--sheets all"),
        "{stderr}"
    );
    let stderr = fails_in(&dir, 1, &["rates", &book, "--sheet", "2030"]);
    assert!(stderr.contains("no sheet named \"2030\""), "{stderr}");
    let stderr = fails_in(&dir, 1, &["rates", "roto.xlsx"]);
    assert!(
        stderr.contains("roto.xlsx: cannot read the workbook"),
        "{stderr}"
    );
    let stderr = fails_in(&dir, 2, &["rates", "datos.csv", "--sheet", "2010"]);
    assert!(stderr.contains("no file is a spreadsheet"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_help_says_how_to_choose_sheets_and_years() {
    let out = common::imr(&["rates", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    for words in [
        "--sheet <NAME>",
        "--sheets <all>",
        "--time-value <YEAR|FILE=YEAR>",
        "XML Spreadsheet 2003",
        "Men de 1 año",
    ] {
        assert!(help.contains(words), "{words}: {help}");
    }
    let out = common::imr(&["--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--sheets all"));
}
