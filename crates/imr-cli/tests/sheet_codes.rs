//! The page's workbook of historical commune codes (`e2e/fixtures/ine_codigos_2003_2010.xlsx`,
//! issue 45), written here from INE's counts and checked as `imr` reads it: 2003's sheet in
//! DEIS's "desde 2000" codes recoded to 2018's, each recoding reported, a commune not yet
//! created in 2003 excluded naming it; 2010's sheet in 2018's codes kept. The page's e2e test
//! (e2e/sheet-codes.test.mjs) compares its rates with `imr rates` on this file. With another
//! workbook beside it, `--sheet FILE=NAME` chooses the sheets of each.

mod common;
use common::{fails_in, json_in};
use rust_xlsxwriter::Workbook;

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(name: &str) -> String {
    format!("{CRATE_DIR}/../../e2e/fixtures/{name}")
}

/// A commune's row of a sheet: code, infant deaths, deaths at every age.
type Row = (u32, u32, u32);

/// Per sheet (its year), each row: INE's code in the system of the year, infant deaths ("Men de
/// 1 año") and deaths at every age ("Total") — INE's SAIP4026 counts
/// (`tests/data/ine_saip4026`), except 2003's row 1107 (Alto Hospicio, created in 2004), added
/// to be reported as not yet created.
const SHEETS: [(&str, &[Row]); 2] = [
    (
        "2010",
        &[
            (1101, 20, 995),
            (1107, 11, 203),
            (1401, 2, 30),
            (5801, 8, 1053),
            (13101, 26, 1527),
            (14101, 16, 1085),
            (15101, 21, 1128),
        ],
    ),
    (
        "2003",
        &[
            (1101, 34, 965),
            (1106, 0, 37),
            (1107, 0, 0),
            (1201, 27, 921),
            (5106, 9, 839),
            (10501, 21, 885),
            (13101, 24, 1470),
        ],
    ),
];

/// The workbook, laid out as INE's sheets are: a title row, an empty row, the super-header
/// "Edad simple", the header, the communes, "Total País" and a source note.
fn workbook() -> Vec<u8> {
    let mut book = Workbook::new();
    for (year, rows) in SHEETS {
        let sheet = book.add_worksheet();
        sheet.set_name(year).unwrap();
        let title = format!(
            "DEFUNCIONES POR EDAD DEL FALLECIDO, SEGÚN COMUNA DE RESIDENCIA HABITUAL DEL \
             FALLECIDO, AÑO {year}"
        );
        sheet.write_string(0, 0, title).unwrap();
        sheet.write_string(2, 1, "Edad simple").unwrap();
        for (c, name) in ["Comuna", "Men de 1 año", "Total"].iter().enumerate() {
            sheet.write_string(3, c as u16, *name).unwrap();
        }
        let (mut infant, mut all) = (0, 0);
        for (r, &(code, under_1, total)) in rows.iter().enumerate() {
            let r = r as u32 + 4;
            sheet.write_number(r, 0, code).unwrap();
            sheet.write_number(r, 1, under_1).unwrap();
            sheet.write_number(r, 2, total).unwrap();
            (infant, all) = (infant + under_1, all + total);
        }
        let last = rows.len() as u32 + 4;
        sheet.write_string(last, 0, "Total País").unwrap();
        sheet.write_number(last, 1, infant).unwrap();
        sheet.write_number(last, 2, all).unwrap();
        let note = "Fuente: INE, SAIP4026 (extracto de prueba de imr-atlas)";
        sheet.write_string(last + 2, 0, note).unwrap();
    }
    book.save_to_buffer().unwrap()
}

/// The committed workbook reads in `imr` as the rows above: 2003's codes recoded (Arica's
/// 1201 is 15101), Alto Hospicio's 1107 of 2003 excluded as not yet created, the totals and
/// source rows excluded, every row accounted for. `UPDATE_FIXTURES=1` writes it again.
#[test]
fn the_page_workbook_of_historical_codes_reads_as_its_rows() {
    let book = fixture("ine_codigos_2003_2010.xlsx");
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&book, workbook()).unwrap();
    }
    let dir = std::path::Path::new(&book).parent().unwrap();
    let doc = json_in(
        dir,
        &[
            "rates",
            "ine_codigos_2003_2010.xlsx",
            "--sheets",
            "all",
            "nacidos_2003_2010.csv",
        ],
    );
    let input = &doc["input"];
    let rows_used = input["rows_used"].as_u64().unwrap();
    assert_eq!(
        input["rows_read"].as_u64().unwrap(),
        rows_used + input["rows_excluded"].as_u64().unwrap()
    );
    let row = |code: &str, year: i64| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["entity"] == code && r["time"] == year)
            .map(|r| (r["deaths"].as_f64(), r["births"].as_f64()))
    };
    assert_eq!(row("15101", 2003), Some((Some(27.0), Some(3130.0))));
    assert_eq!(row("14101", 2003), Some((Some(21.0), Some(2002.0))));
    assert_eq!(row("05801", 2003), Some((Some(9.0), Some(1803.0))));
    assert_eq!(row("15101", 2010), Some((Some(21.0), Some(3639.0))));
    assert_eq!(row("01107", 2003), None);
    let systems = input["code_systems"].as_array().unwrap();
    assert_eq!(systems.len(), 1);
    assert_eq!(systems[0]["file"], "ine_codigos_2003_2010.xlsx [2003]");
    assert_eq!(systems[0]["system"], "desde 2000");
    let recoded: Vec<(&str, &str)> = input["historical_recodings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["code"].as_str().unwrap(),
                r["code_2018"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        recoded,
        [
            ("10501", "14101"),
            ("1106", "01401"),
            ("1201", "15101"),
            ("5106", "05801")
        ]
    );
    let excluded: Vec<(&str, u64, String)> = input["excluded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let reason = e["reason"].as_str().unwrap();
            let file = e["file"].as_str().unwrap();
            (
                file,
                e["line"].as_u64().unwrap(),
                reason.chars().take(24).collect(),
            )
        })
        .collect();
    assert_eq!(
        excluded,
        [
            (
                "ine_codigos_2003_2010.xlsx [2003]",
                7,
                "code 1107 (DEIS system \"".into()
            ),
            (
                "ine_codigos_2003_2010.xlsx [2003]",
                12,
                "a totals row (\"Total Paí".into()
            ),
            (
                "ine_codigos_2003_2010.xlsx [2003]",
                14,
                "a note (\"Fuente: INE, SA".into()
            ),
            (
                "ine_codigos_2003_2010.xlsx [2010]",
                12,
                "a totals row (\"Total Paí".into()
            ),
            (
                "ine_codigos_2003_2010.xlsx [2010]",
                14,
                "a note (\"Fuente: INE, SA".into()
            ),
        ]
    );
}

/// The sheet files and years of `imr rates ARGS` run in the fixtures' folder.
fn sheets_read(args: &[&str]) -> Vec<(String, i64)> {
    let dir = fixture("");
    let mut all = vec!["rates"];
    all.extend_from_slice(args);
    let doc = json_in(&dir, &all);
    doc["input"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap().to_owned();
            (file, f["time_given"].as_i64().unwrap_or(0))
        })
        .collect()
}

/// Two workbooks on one command line, a sheet of each: `--sheet FILE=NAME` chooses for its
/// workbook alone (by name or path as typed), beside `--sheets all` for the others; a plain
/// `--sheet NAME` still chooses in every workbook; contradictions are usage errors.
#[test]
fn sheet_file_equals_name_chooses_the_sheets_of_each_workbook() {
    let (hojas, ine) = ("defunciones_hojas.xlsx", "ine_codigos_2003_2010.xlsx");
    // The second workbook given as ./FILE and chosen by its name.
    let typed = format!("./{ine}");
    let per_file = sheets_read(&[
        hojas,
        &typed,
        "--sheet",
        &format!("{hojas}=2022"),
        "--sheet",
        &format!("{ine}=2003"),
    ]);
    assert_eq!(
        per_file,
        [
            (format!("{hojas} [2022]"), 2022),
            (format!("./{ine} [2003]"), 2003)
        ]
    );
    let beside_all = sheets_read(&[
        hojas,
        ine,
        "--sheets",
        "all",
        "--sheet",
        &format!("{hojas}=2023"),
    ]);
    assert_eq!(
        beside_all,
        [
            (format!("{hojas} [2023]"), 2023),
            (format!("{ine} [2010]"), 2010),
            (format!("{ine} [2003]"), 2003)
        ]
    );
    // A plain name chooses in every workbook, as before: 2022 is only in the first.
    let dir = fixture("");
    let stderr = fails_in(&dir, 1, &["rates", hojas, ine, "--sheet", "2022"]);
    assert!(stderr.contains("no sheet named \"2022\""), "{stderr}");
    assert_eq!(
        sheets_read(&[hojas, "--sheet", "2022"]),
        [(format!("{hojas} [2022]"), 2022)]
    );
    let stderr = fails_in(
        &dir,
        2,
        &["rates", hojas, ine, "--sheets", "all", "--sheet", "2010"],
    );
    assert!(
        stderr.contains("--sheet FILE=NAME for one workbook"),
        "{stderr}"
    );
    let births = "nacidos_2003_2010.csv";
    let value = format!("{births}=2010");
    let stderr = fails_in(
        &dir,
        2,
        &["rates", ine, births, "--sheets", "all", "--sheet", &value],
    );
    assert!(
        stderr.contains(&format!("--sheet {value}: {births} is not a spreadsheet")),
        "{stderr}"
    );
    let stderr = fails_in(&dir, 2, &["rates", hojas, ine]);
    assert!(
        stderr.contains(&format!("--sheet {hojas}=NAME")),
        "{stderr}"
    );
    let help = String::from_utf8_lossy(&common::imr(&["rates", "--help"]).stdout).into_owned();
    assert!(
        help.contains("FILE=NAME for one workbook only") && help.contains("--sheet a.xlsx=2010"),
        "{help}"
    );
}
