//! The sheets a choice reads (`read_sheets`, shared by `imr` and the page's worker), and the
//! workbook the end-to-end tests upload (`e2e/fixtures/defunciones_hojas.xlsx`), written here
//! from the rows below and checked against them.

use super::*;
use crate::ingest::sheet_choice::SheetChoice;
use crate::ingest::{build_panel, ColumnRoles, ExclusionReason, IngestOptions};
use rust_xlsxwriter::Workbook as XlsxWriter;

/// A commune's row: code, name, births, deaths.
type Commune = (u32, &'static str, u32, u32);

/// The rows of each yearly sheet of the e2e workbook: code (a number, as INE writes it), name,
/// births, deaths. 2023's are `e2e/fixtures/defunciones_2023.csv`'s; 2022's those of
/// `e2e/file-years.test.mjs`'s `defunciones_2022.csv` and two more communes.
const YEARS: [(&str, [Commune; 4]); 2] = [
    (
        "2022",
        [
            (1101, "Iquique", 1400, 7),
            (5101, "Valparaíso", 800, 2),
            (13101, "Santiago", 1900, 5),
            (13120, "Ñuñoa", 1100, 1),
        ],
    ),
    (
        "2023",
        [
            (1101, "Iquique", 1500, 6),
            (5101, "Valparaíso", 900, 3),
            (13101, "Santiago", 2000, 4),
            (13120, "Ñuñoa", 1200, 0),
        ],
    ),
];

/// The e2e workbook: per year a sheet named by it, laid out as INE lays its sheets out (a
/// title row, an empty row, the header, codes as numbers, a "Total País" row and a source
/// note), and a sheet of notes that `--sheets all` leaves out.
fn e2e_workbook() -> Vec<u8> {
    let mut book = XlsxWriter::new();
    for (year, rows) in YEARS {
        let sheet = book.add_worksheet();
        sheet.set_name(year).unwrap();
        sheet
            .write_string(
                0,
                0,
                format!("NACIMIENTOS Y DEFUNCIONES INFANTILES POR COMUNA, AÑO {year}"),
            )
            .unwrap();
        for (c, name) in ["Comuna", "Nombre", "Nacimientos", "Defunciones"]
            .iter()
            .enumerate()
        {
            sheet.write_string(2, c as u16, *name).unwrap();
        }
        let (mut births, mut deaths) = (0, 0);
        for (r, (code, name, b, d)) in rows.iter().enumerate() {
            let r = r as u32 + 3;
            sheet.write_number(r, 0, *code).unwrap();
            sheet.write_string(r, 1, *name).unwrap();
            sheet.write_number(r, 2, *b).unwrap();
            sheet.write_number(r, 3, *d).unwrap();
            births += b;
            deaths += d;
        }
        sheet.write_string(7, 0, "Total País").unwrap();
        sheet.write_number(7, 2, births).unwrap();
        sheet.write_number(7, 3, deaths).unwrap();
        sheet
            .write_string(9, 0, "Fuente: datos de prueba de imr-atlas")
            .unwrap();
    }
    let notes = book.add_worksheet();
    notes.set_name("Notas").unwrap();
    notes
        .write_string(0, 0, "Hoja de notas: no es una tabla de datos.")
        .unwrap();
    book.save_to_buffer().unwrap()
}

const E2E_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../e2e/fixtures/defunciones_hojas.xlsx"
);

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn tables_of(read: SheetsRead) -> (Vec<RawTable>, Vec<LeftOut>) {
    match read {
        SheetsRead::Tables { tables, left_out } => (tables, left_out),
        SheetsRead::Choose { sheets } => panic!("asked to choose among {sheets:?}"),
    }
}

#[test]
fn a_choice_reads_its_sheets_named_and_dated_as_imr_reads_them() {
    let bytes = e2e_workbook();
    let mut book = Workbook::open("libro.xlsx", bytes.clone()).unwrap();
    match read_sheets(&mut book, &SheetChoice::Unspecified).unwrap() {
        SheetsRead::Choose { sheets } => assert_eq!(sheets, names(&["2022", "2023", "Notas"])),
        SheetsRead::Tables { .. } => panic!("three sheets and no choice: the reader chooses"),
    }
    let (tables, left_out) = tables_of(read_sheets(&mut book, &SheetChoice::All).unwrap());
    let labels: Vec<&str> = tables.iter().map(|t| t.file.as_str()).collect();
    assert_eq!(labels, ["libro.xlsx [2022]", "libro.xlsx [2023]"]);
    assert_eq!(
        tables.iter().map(|t| t.time_given).collect::<Vec<_>>(),
        [Some(2022), Some(2023)]
    );
    assert_eq!(
        left_out,
        [LeftOut::NotAYear {
            file: "libro.xlsx".into(),
            sheet: "Notas".into()
        }]
    );
    assert!(left_out[0].text(crate::Lang::Es).contains("«Notas»"));
    // One sheet by name, whatever its name: the notes sheet too.
    let (tables, left_out) =
        tables_of(read_sheets(&mut book, &SheetChoice::Named(names(&["2023"]))).unwrap());
    assert_eq!((tables.len(), left_out.len()), (1, 0));
    assert_eq!(tables[0].file, "libro.xlsx [2023]");
    // A sheet that is not there: an error listing the workbook's sheets.
    let missing = read_sheets(&mut book, &SheetChoice::Named(names(&["2099"]))).unwrap_err();
    assert!(missing.to_string().contains("2099"), "{missing}");
    assert!(missing.to_string().contains("Notas"), "{missing}");
    // A workbook of one sheet needs no choice; its file's year dates it.
    let mut one = XlsxWriter::new();
    let sheet = one.add_worksheet();
    sheet.write_string(0, 0, "comuna").unwrap();
    sheet.write_string(0, 1, "nacimientos").unwrap();
    sheet.write_number(1, 0, 1101).unwrap();
    sheet.write_number(1, 1, 10).unwrap();
    let mut one = Workbook::open("defunciones_2021.xlsx", one.save_to_buffer().unwrap()).unwrap();
    let (tables, _) = tables_of(read_sheets(&mut one, &SheetChoice::Unspecified).unwrap());
    assert_eq!(tables[0].file, "defunciones_2021.xlsx [Sheet1]");
    assert_eq!(tables[0].time_given, Some(2021));
}

#[test]
fn a_workbook_cut_short_is_a_message_naming_it() {
    let mut bytes = e2e_workbook();
    bytes.truncate(bytes.len() / 2);
    let error = Workbook::open("rota.xlsx", bytes).unwrap_err();
    let text = error.to_string();
    assert!(text.starts_with("rota.xlsx: "), "{text}");
    assert!(matches!(error, IngestError::Workbook { .. }), "{error:?}");
}

/// The committed e2e workbook reads as the rows above: each sheet's four communes used, its
/// "Total País" and source rows excluded naming sheet and row. `UPDATE_FIXTURES=1` writes it
/// again (rust_xlsxwriter stamps the time it was written, so its bytes change; its cells do not).
#[test]
fn the_e2e_workbook_holds_the_rows_it_is_made_of() {
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(E2E_FIXTURE, e2e_workbook()).unwrap();
    }
    let bytes = std::fs::read(E2E_FIXTURE).unwrap();
    let mut book = Workbook::open("defunciones_hojas.xlsx", bytes).unwrap();
    let (tables, _) = tables_of(read_sheets(&mut book, &SheetChoice::All).unwrap());
    let roles: Vec<ColumnRoles> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    let panel = build_panel(&tables, &roles, &IngestOptions::default()).unwrap();
    let report = &panel.report;
    assert_eq!((report.rows_used, report.rows_excluded), (8, 4));
    let excluded: Vec<(String, u64, bool)> = report
        .excluded
        .iter()
        .map(|e| {
            let totals = matches!(e.kind, ExclusionReason::TotalsRow { .. });
            (e.file.clone(), e.line, totals)
        })
        .collect();
    assert_eq!(
        excluded,
        [
            ("defunciones_hojas.xlsx [2022]".to_owned(), 8, true),
            ("defunciones_hojas.xlsx [2022]".to_owned(), 10, false),
            ("defunciones_hojas.xlsx [2023]".to_owned(), 8, true),
            ("defunciones_hojas.xlsx [2023]".to_owned(), 10, false),
        ]
    );
    for (year, rows) in YEARS {
        let year: i64 = year.parse().unwrap();
        for (code, _, births, deaths) in rows {
            let code = format!("{code:05}");
            let row = panel
                .rows()
                .find(|r| r.entity == code && r.time == year)
                .unwrap_or_else(|| panic!("{code} {year} not in the panel"));
            assert_eq!(row.births, Some(f64::from(births)), "{code} {year}");
            assert_eq!(row.deaths, Some(f64::from(deaths)), "{code} {year}");
        }
    }
}
