//! Data of one year without a year column (the year only in the file's name, as agencies publish
//! yearly files): `--time-value YEAR` gives every row of such a file that year, every command
//! reads it, the JSON says which file took the year, and a saved analysis of the page brings the
//! year chosen there. Without it the error names the file and says how to go on.

mod common;
use common::{fails_in, json_in, stdout_in};
use imr_core::analysis::SavedAnalysis;
use imr_core::ingest::RawTable;

const DEATHS_2023: &str =
    "comuna;nacimientos;defunciones\n01101;1500;6\n05101;900;3\n13101;2000;4\n";
const SERIES: &str = "comuna,anio,nacimientos,defunciones\n01101,2022,1480,5\n05101,2022,910,4\n";

/// A folder of the test's own holding these files.
fn folder(name: &str, files: &[(&str, &[u8])]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("imr-one-year-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    dir
}

#[test]
fn without_the_year_the_error_names_the_file_and_the_way_on() {
    let dir = folder(
        "error",
        &[
            ("defunciones.csv", DEATHS_2023.as_bytes()),
            ("defunciones_2023.csv", DEATHS_2023.as_bytes()),
        ],
    );
    let stderr = fails_in(&dir, 1, &["rates", "defunciones.csv"]);
    assert!(
        stderr.contains("defunciones.csv: no column for the year")
            && stderr.contains("--time-value 2023")
            && stderr.contains("Year of files without a year column"),
        "{stderr}"
    );
    // A file whose name holds its year takes it (`time_given`).
    let rates = json_in(&dir, &["rates", "defunciones_2023.csv"]);
    assert_eq!(rates["input"]["files"][0]["time_given"], 2023);
    // A year out of the range a year column may hold is refused by the parser (exit 2).
    let stderr = fails_in(
        &dir,
        2,
        &["rates", "defunciones_2023.csv", "--time-value", "1000000"],
    );
    assert!(stderr.contains("--time-value"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_year_given_dates_the_rows_of_files_without_a_year_column_only() {
    let dir = folder(
        "given",
        &[
            ("defunciones_2023.csv", DEATHS_2023.as_bytes()),
            ("serie.csv", SERIES.as_bytes()),
        ],
    );
    let files = ["defunciones_2023.csv", "serie.csv"];
    let mut args = vec!["rates"];
    args.extend(files);
    args.extend(["--time-value", "2023", "--format", "json"]);
    let rates = json_in(&dir, &args);
    let rows = rates["rows"].as_array().unwrap();
    let keys: Vec<(String, i64)> = rows
        .iter()
        .map(|r| {
            (
                r["entity"].as_str().unwrap().to_string(),
                r["time"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        keys,
        vec![
            ("01101".into(), 2022),
            ("01101".into(), 2023),
            ("05101".into(), 2022),
            ("05101".into(), 2023),
            ("13101".into(), 2023)
        ]
    );
    // 6 deaths / 1500 births in 2023 = 4 per 1,000.
    let r01101_2023 = rows
        .iter()
        .find(|r| r["entity"] == "01101" && r["time"] == 2023);
    assert_eq!(r01101_2023.unwrap()["rate"], 4.0);
    let reports = rates["input"]["files"].as_array().unwrap();
    assert_eq!(reports[0]["time_given"], 2023);
    assert!(
        reports[1].get("time_given").is_none(),
        "serie.csv keeps its years"
    );

    // Inequality per year and the map of the given year read the same rows.
    let inequality = json_in(
        &dir,
        &[
            "inequality",
            files[0],
            files[1],
            "--time-value",
            "2023",
            "--bootstrap",
            "0",
        ],
    );
    let years: Vec<i64> = inequality["years"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["time"].as_i64().unwrap())
        .collect();
    assert_eq!(years, vec![2022, 2023]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_saved_analysis_brings_the_year_chosen_on_the_page() {
    let table = RawTable::from_bytes("defunciones_2023.csv", DEATHS_2023.as_bytes()).unwrap();
    let mut roles = table.guessed_roles.clone();
    assert_eq!(roles.time, None);
    roles.entity = Some(0);
    let analysis = SavedAnalysis::new(
        &[(
            "defunciones_2023.csv",
            DEATHS_2023.as_bytes(),
            &table,
            &roles,
        )],
        "view=data&time-value=2023",
        "2026-12-04T12:00:00Z",
    );
    let dir = folder("saved", &[("analisis.json", analysis.to_json().as_bytes())]);
    let csv = stdout_in(&dir, &["rates", "analisis.json", "--format", "csv"]);
    let data: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(data.len(), 1 + 3);
    assert!(data[1..].iter().all(|l| l.contains(",2023,")), "{csv}");
    // The flag wins over the saved year.
    let csv = stdout_in(
        &dir,
        &[
            "rates",
            "analisis.json",
            "--time-value",
            "2021",
            "--format",
            "csv",
        ],
    );
    assert!(csv.contains("01101,2021,"), "{csv}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A saved analysis of yearly files without a year column: each file takes its name's year, as
/// the page read it, or the year the reader gave it there (the file's `year`).
#[test]
fn a_saved_analysis_dates_each_file_as_the_page_did() {
    const DEATHS_2022: &str = "comuna;nacimientos;defunciones\n01101;1400;7\n05101;800;2\n";
    let files = [
        ("defunciones_2022.csv", DEATHS_2022),
        ("defunciones_2023.csv", DEATHS_2023),
    ];
    let tables: Vec<RawTable> = files
        .iter()
        .map(|(name, text)| RawTable::from_bytes(name, text.as_bytes()).unwrap())
        .collect();
    let entries: Vec<_> = files
        .iter()
        .zip(&tables)
        .map(|((name, text), t)| (*name, text.as_bytes(), t, &t.guessed_roles))
        .collect();
    let years = |analysis: SavedAnalysis| -> Vec<String> {
        let dir = folder("dated", &[("analisis.json", analysis.to_json().as_bytes())]);
        let csv = stdout_in(&dir, &["rates", "analisis.json", "--format", "csv"]);
        std::fs::remove_dir_all(&dir).unwrap();
        let mut years: Vec<String> = csv
            .lines()
            .filter(|l| l.starts_with("01101,"))
            .map(|l| l.split(',').nth(1).unwrap().to_owned())
            .collect();
        years.sort();
        years
    };
    let by_name = SavedAnalysis::new(&entries, "view=data", "2026-12-05T12:00:00Z");
    assert_eq!(years(by_name.clone()), vec!["2022", "2023"]);
    assert_eq!(
        years(by_name.with_years(&[Some(2021), None])),
        vec!["2021", "2023"]
    );
}
