//! The spreadsheet readers on workbooks written here (rust_xlsxwriter for `.xlsx`, zip for
//! `.ods`, text for XML Spreadsheet 2003) and on DEIS's historical code table (`.xls`, BIFF8;
//! `tests/data/deis_dpa`), and their bounds on hostile workbooks.

use super::*;
use crate::ingest::{build_panel, ColumnRoles, ExclusionReason, IngestOptions};
use rust_xlsxwriter::{ExcelDateTime, Format, Formula, Workbook as XlsxWriter};

/// INE's layout (SAIP4026): a title merged across, an empty row, a super-header, the header
/// `Comuna | Men de 1 año | 1 | 2 | Total`, codes as numbers, empty cells for zeros, a "Total
/// País" row and a source note; one cell a formula, one a number stored as text, one a date.
fn ine_like_xlsx() -> Vec<u8> {
    let mut book = XlsxWriter::new();
    let sheet = book.add_worksheet();
    sheet.set_name("2010").unwrap();
    sheet
        .merge_range(
            0,
            0,
            0,
            4,
            "DEFUNCIONES POR EDAD DEL FALLECIDO, AÑO 2010",
            &Format::new(),
        )
        .unwrap();
    sheet.write_string(2, 1, "Edad simple").unwrap();
    for (c, name) in ["Comuna", "Men de 1 año", "1", "2", "Total"]
        .iter()
        .enumerate()
    {
        if let Ok(n) = name.parse::<f64>() {
            sheet.write_number(3, c as u16, n).unwrap();
        } else {
            sheet.write_string(3, c as u16, *name).unwrap();
        }
    }
    // 1101: 3 infant deaths, none at 1, one at 2: total 4 (the empty cell is a zero).
    sheet.write_number(4, 0, 1101).unwrap();
    sheet.write_number(4, 1, 3).unwrap();
    sheet.write_number(4, 3, 1).unwrap();
    sheet
        .write_formula(4, 4, Formula::new("=B5+C5+D5").set_result("4"))
        .unwrap();
    // 1107: nothing under one, two at age 2 (its total a number stored as text).
    sheet.write_number(5, 0, 1107).unwrap();
    sheet.write_number(5, 3, 2).unwrap();
    sheet.write_string(5, 4, "2").unwrap();
    // 1401: a count that does not add up to its total: its empty cell stays missing.
    sheet.write_number(6, 0, 1401).unwrap();
    sheet.write_number(6, 3, 1).unwrap();
    sheet.write_number(6, 4, 5).unwrap();
    sheet.write_string(7, 0, "Total País").unwrap();
    sheet.write_number(7, 1, 3).unwrap();
    sheet.write_number(7, 4, 11).unwrap();
    sheet
        .write_string(9, 0, "Fuente: INE, Estadísticas Vitales")
        .unwrap();
    let dates = book.add_worksheet();
    dates.set_name("Fechas").unwrap();
    for (c, name) in ["fecha", "valor", "sí"].iter().enumerate() {
        dates.write_string(0, c as u16, *name).unwrap();
    }
    let date = ExcelDateTime::from_ymd(2010, 3, 31).unwrap();
    dates
        .write_datetime_with_format(1, 0, &date, &Format::new().set_num_format("dd/mm/yyyy"))
        .unwrap();
    dates.write_number(1, 1, 0.1).unwrap();
    dates.write_boolean(1, 2, true).unwrap();
    book.save_to_buffer().unwrap()
}

fn texts(table: &RawTable) -> Vec<(u64, Vec<String>)> {
    table
        .records
        .iter()
        .map(|r| (r.line, r.fields().map(str::to_owned).collect()))
        .collect()
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

#[test]
fn an_ine_layout_reads_as_its_table_with_title_rows_as_metadata() {
    let mut book = Workbook::open("ine.xlsx", ine_like_xlsx()).unwrap();
    assert_eq!(book.format(), WorkbookFormat::Xlsx);
    assert_eq!(book.sheet_names(), ["2010", "Fechas"]);
    let table = book.table("2010").unwrap();
    assert_eq!(table.file, "ine.xlsx [2010]");
    assert_eq!(table.columns, ["Comuna", "Men de 1 año", "1", "2", "Total"]);
    let meta: Vec<(u64, &str)> = table
        .metadata
        .iter()
        .map(|m| (m.line, m.text.as_str()))
        .collect();
    assert_eq!(
        meta,
        [
            (1, "DEFUNCIONES POR EDAD DEL FALLECIDO, AÑO 2010"),
            (3, "Edad simple")
        ]
    );
    assert_eq!(
        (table.guessed_roles.entity, table.guessed_roles.deaths),
        (Some(0), Some(1))
    );
    assert_eq!(
        texts(&table),
        [
            (5, row(&["1101", "3", "0", "1", "4"])),
            (6, row(&["1107", "0", "0", "2", "2"])),
            (7, row(&["1401", "", "", "1", "5"])),
            (8, row(&["Total País", "3", "", "", "11"])),
            (
                10,
                row(&["Fuente: INE, Estadísticas Vitales", "", "", "", ""])
            ),
        ]
    );
    assert_eq!(table.physical_lines, 10);
    let dates = book.table("Fechas").unwrap();
    assert_eq!(dates.columns, ["fecha", "valor", "sí"]);
    assert_eq!(texts(&dates), [(2, row(&["2010-03-31", "0.1", "TRUE"]))]);
}

/// The sheet's rows through the validation: the communes used, the total, the note and the
/// count that does not add up excluded, each naming the file, sheet and row.
#[test]
fn every_row_of_a_sheet_is_used_or_excluded_naming_file_sheet_and_row() {
    let mut book = Workbook::open("ine.xlsx", ine_like_xlsx()).unwrap();
    let mut deaths = book.table("2010").unwrap();
    deaths.time_given = Some(2010);
    let births = RawTable::from_bytes(
        "nacimientos.csv",
        b"codigo_comuna,anio,nacimientos\n01101,2010,300\n01107,2010,200\n01401,2010,50\n",
    )
    .unwrap();
    let roles: Vec<ColumnRoles> = [&deaths, &births]
        .iter()
        .map(|t| t.guessed_roles.clone())
        .collect();
    let panel = build_panel(&[deaths, births], &roles, &IngestOptions::default()).unwrap();
    let report = &panel.report;
    let excluded: Vec<(&str, u64, &ExclusionReason)> = report
        .excluded
        .iter()
        .map(|e| (e.file.as_str(), e.line, &e.kind))
        .collect();
    assert_eq!(excluded.len(), 3, "{excluded:?}");
    assert!(matches!(
        excluded[0],
        ("ine.xlsx [2010]", 7, ExclusionReason::MissingValue { column }) if column == "Men de 1 año"
    ));
    assert!(matches!(
        excluded[1],
        ("ine.xlsx [2010]", 8, ExclusionReason::TotalsRow { value }) if value == "Total País"
    ));
    assert!(matches!(
        excluded[2],
        ("ine.xlsx [2010]", 10, ExclusionReason::NoteRow { value })
            if value == "Fuente: INE, Estadísticas Vitales"
    ));
    assert_eq!(
        report.excluded[1].reason,
        "a totals row (\"Total País\"), not an area"
    );
    let deaths_of = |code: &str| {
        panel
            .rows()
            .find(|r| r.entity == code)
            .and_then(|r| r.deaths)
    };
    assert_eq!(deaths_of("01101"), Some(3.0));
    assert_eq!(deaths_of("01107"), Some(0.0));
    assert_eq!(deaths_of("01401"), None);
    assert_eq!(panel.time_column, "year");
}

/// SINIM's export format: two worksheets, `ss:Index` skipping rows and cells, a cell merged
/// across, a date, formatting inside a `Data`, a comment (not the value), entities, and the
/// encoding its declaration names.
#[test]
fn spreadsheetml_2003_reads_as_excel_shows_it() {
    let xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n\
<?mso-application progid=\"Excel.Sheet\"?>\n\
<Workbook xmlns=\"urn:schemas-microsoft-com:office:spreadsheet\"\n\
 xmlns:ss=\"urn:schemas-microsoft-com:office:spreadsheet\" xmlns:html=\"http://www.w3.org/TR/REC-html40\">\n\
 <Styles><Style ss:ID=\"s1\"/></Styles>\n\
 <Worksheet ss:Name=\"Tasa 2019\"><Table>\n\
  <Row><Cell ss:MergeAcross=\"2\"><Data ss:Type=\"String\">Indicadores de Salud</Data></Cell></Row>\n\
  <Row ss:Index=\"3\"><Cell><Data ss:Type=\"String\">C\u{f3}digo</Data></Cell><Cell><Data ss:Type=\"String\">Municipio</Data></Cell>\
<Cell><Data ss:Type=\"String\">TMI</Data></Cell><Cell><Data ss:Type=\"String\">Fecha</Data></Cell></Row>\n\
  <Row><Cell><Data ss:Type=\"Number\">1101</Data></Cell><Cell><ss:Data ss:Type=\"String\"><html:B>Iquique</html:B> &amp; co</ss:Data>\
<Comment><ss:Data>revisar</ss:Data></Comment></Cell>\
<Cell ss:Formula=\"=1+1\"><Data ss:Type=\"Number\">7.5</Data></Cell><Cell><Data ss:Type=\"DateTime\">2019-12-31T00:00:00.000</Data></Cell></Row>\n\
  <Row><Cell><Data ss:Type=\"Number\">1107</Data></Cell><Cell ss:Index=\"3\"><Data ss:Type=\"Number\">1.2E1</Data></Cell></Row>\n\
 </Table></Worksheet>\n\
 <Worksheet ss:Name=\"Vac\u{ed}a\"/>\n\
</Workbook>\n";
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(xml);
    let mut book = Workbook::open("sinim.xls", bytes.into_owned()).unwrap();
    assert_eq!(book.format(), WorkbookFormat::SpreadsheetMl2003);
    assert_eq!(book.sheet_names(), ["Tasa 2019", "Vacía"]);
    let table = book.table("Tasa 2019").unwrap();
    assert_eq!(table.columns, ["Código", "Municipio", "TMI", "Fecha"]);
    assert_eq!(table.metadata[0].line, 1);
    assert_eq!(table.metadata[0].text, "Indicadores de Salud");
    assert_eq!(
        texts(&table),
        [
            (4, row(&["1101", "Iquique & co", "7.5", "2019-12-31"])),
            (5, row(&["1107", "", "12", ""])),
        ]
    );
    assert!(matches!(
        book.table("Vacía"),
        Err(IngestError::Empty { file }) if file == "sinim.xls [Vacía]"
    ));
}

/// An `.ods` written here (the parts calamine reads: the `mimetype` entry first, stored, and
/// `content.xml`), with a repeated cell.
fn ods_bytes(content_rows: &str) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("mimetype", stored).unwrap();
    zip.write_all(b"application/vnd.oasis.opendocument.spreadsheet")
        .unwrap();
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("META-INF/manifest.xml", deflated).unwrap();
    zip.write_all(
        br#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#,
    )
    .unwrap();
    zip.start_file("content.xml", deflated).unwrap();
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="2022">{content_rows}</table:table></office:spreadsheet></office:body></office:document-content>"#
    );
    zip.write_all(content.as_bytes()).unwrap();
    zip.finish().unwrap().into_inner()
}

#[test]
fn an_ods_sheet_reads_with_its_repeated_cells() {
    let cell = |v: &str| {
        format!(
            r#"<table:table-cell office:value-type="string"><text:p>{v}</text:p></table:table-cell>"#
        )
    };
    let number = |v: f64| {
        format!(
            r#"<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>"#
        )
    };
    let rows = format!(
        "<table:table-row>{}{}{}</table:table-row><table:table-row>{}{}{}</table:table-row>",
        cell("cut"),
        cell("nacimientos"),
        cell("defunciones"),
        number(13101.0),
        r#"<table:table-cell table:number-columns-repeated="2" office:value-type="float" office:value="4"><text:p>4</text:p></table:table-cell>"#,
        ""
    );
    let mut book = Workbook::open("d.ods", ods_bytes(&rows)).unwrap();
    assert_eq!(book.format(), WorkbookFormat::Ods);
    assert_eq!(book.sheet_names(), ["2022"]);
    let table = book.table("2022").unwrap();
    assert_eq!(table.columns, ["cut", "nacimientos", "defunciones"]);
    assert_eq!(texts(&table), [(2, row(&["13101", "4", "4"]))]);
}

/// DEIS's historical code table as published (BIFF8, an OLE compound file).
#[test]
fn a_biff_xls_reads_with_its_header() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/deis_dpa/Division-Politico-Administrativa-y-Servicios-de-Salud-Historico.xls"
    ))
    .unwrap();
    let mut book = Workbook::open("dpa.xls", bytes).unwrap();
    assert_eq!(book.format(), WorkbookFormat::Xls);
    assert_eq!(book.sheet_names(), ["DPA2011"]);
    let table = book.table("DPA2011").unwrap();
    assert_eq!(table.columns[0], "Código Comuna hasta 1999");
    assert_eq!(table.columns[4], "Nombre Comuna");
    let first = texts(&table).remove(0);
    assert_eq!(first.0, 2);
    assert_eq!(
        first.1[..5],
        row(&["201", "1201", "15101", "15101", "Arica"])
    );
}

#[test]
fn text_of_reads_cells_as_a_person_does() {
    assert_eq!(text_of(&Data::Float(12.0)), "12");
    assert_eq!(text_of(&Data::Float(-0.25)), "-0.25");
    assert_eq!(text_of(&Data::Float(1e20)), "100000000000000000000");
    assert_eq!(text_of(&Data::Float(f64::NAN)), "");
    assert_eq!(text_of(&Data::Int(7)), "7");
    assert_eq!(text_of(&Data::Bool(false)), "FALSE");
    assert_eq!(
        text_of(&Data::Error(calamine::CellErrorType::Div0)),
        "#DIV/0!"
    );
    let date = |v: f64| {
        Data::DateTime(calamine::ExcelDateTime::new(
            v,
            calamine::ExcelDateTimeType::DateTime,
            false,
        ))
    };
    assert_eq!(text_of(&date(40268.0)), "2010-03-31");
    assert_eq!(text_of(&date(40268.5)), "2010-03-31 12:00:00");
    let duration = Data::DateTime(calamine::ExcelDateTime::new(
        1.5,
        calamine::ExcelDateTimeType::TimeDelta,
        false,
    ));
    assert_eq!(text_of(&duration), "36:00:00");
}

#[test]
fn the_header_is_the_first_full_row_with_text() {
    let rows = |list: &[&[&str]]| -> Vec<(u64, Vec<String>)> {
        list.iter()
            .enumerate()
            .map(|(i, r)| (i as u64 + 1, row(r)))
            .collect()
    };
    // Title, super-header, header with numeric age names, data.
    let ine = rows(&[
        &["TÍTULO"],
        &["", "Edad simple"],
        &["Comuna", "Men 1 año", "1", "2"],
        &["1101", "1", "", "2"],
    ]);
    assert_eq!(header_row(&ine), Some(2));
    // Numbers only: no header.
    assert_eq!(header_row(&rows(&[&["1101", "3"], &["1107", "4"]])), None);
    // A header on the first row.
    assert_eq!(header_row(&rows(&[&["cut", "n"], &["1101", "3"]])), Some(0));
    assert_eq!(header_row(&[]), None);
}

#[test]
fn empty_counts_are_zeros_only_where_the_total_says_so() {
    let columns = row(&["Comuna", "Men 1 año", "1", "2", "Total"]);
    let mut adds_up = row(&["1101", "", "2", "", "2"]);
    assert_eq!(zeros_by_total(&columns, &mut adds_up), 2);
    assert_eq!(adds_up, row(&["1101", "0", "2", "0", "2"]));
    let mut does_not = row(&["1101", "", "2", "", "9"]);
    assert_eq!(zeros_by_total(&columns, &mut does_not), 0);
    let mut no_total = row(&["1101", "", "2", "", ""]);
    assert_eq!(zeros_by_total(&columns, &mut no_total), 0);
    let mut text = row(&["1101", "n/a", "", "", "0"]);
    assert_eq!(zeros_by_total(&columns, &mut text), 2);
    assert_eq!(text, row(&["1101", "n/a", "0", "0", "0"]));
    let without = row(&["Comuna", "Men 1 año", "1"]);
    let mut cells = row(&["1101", "", "2"]);
    assert_eq!(zeros_by_total(&without, &mut cells), 0);
}

fn problem(result: Result<impl std::fmt::Debug, IngestError>) -> (Option<String>, Problem) {
    match result {
        Err(IngestError::Workbook { sheet, why, .. }) => (sheet, *why),
        other => panic!("expected a workbook error, got {other:?}"),
    }
}

/// A zip bomb: 64 MiB of zeros deflated to a few kilobytes, refused from the archive's
/// directory before anything is unpacked.
#[test]
fn a_zip_bomb_is_refused_before_it_is_unpacked() {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("xl/worksheets/sheet1.xml", deflated)
        .unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        zip.write_all(&zeros).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    assert!(bytes.len() < 1 << 20, "{}", bytes.len());
    let limits = Limits {
        max_unpacked_bytes: 32 << 20,
        ..Limits::default()
    };
    let (sheet, why) = problem(Workbook::open_with("bomb.xlsx", bytes, limits));
    assert_eq!(sheet, None);
    assert_eq!(
        why,
        Problem::UnpacksTooLarge {
            unpacked_bytes: 64 << 20,
            max_bytes: 32 << 20
        }
    );
}

/// A shared-string table that declares more strings than it can hold (calamine reserves room
/// for the declared count before reading one) is refused before calamine reads it.
#[test]
fn a_shared_string_count_beyond_its_part_is_refused() {
    use std::io::{Read, Write};
    let honest = ine_like_xlsx();
    let mut zin = zip::ZipArchive::new(Cursor::new(&honest)).unwrap();
    let mut zout = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for i in 0..zin.len() {
        let mut f = zin.by_index(i).unwrap();
        let mut data = String::new();
        f.read_to_string(&mut data).unwrap();
        let name = f.name().unwrap().into_owned();
        if name == "xl/sharedStrings.xml" {
            let at = data.find("uniqueCount=\"").unwrap() + "uniqueCount=\"".len();
            let end = at + data[at..].find('"').unwrap();
            data.replace_range(at..end, "999999999999");
        }
        zout.start_file(name, deflated).unwrap();
        zout.write_all(data.as_bytes()).unwrap();
    }
    let hostile = zout.finish().unwrap().into_inner();
    let (sheet, why) = problem(Workbook::open("sst.xlsx", hostile));
    assert_eq!(sheet, None);
    assert!(
        matches!(&why, Problem::Reader { detail } if detail.contains("declares 999999999999 strings")),
        "{why:?}"
    );
}

#[test]
fn a_sheet_above_the_cell_bound_is_refused_naming_it() {
    // 11 distinct strings in the workbook, 22 filled cells in sheet "2010", 6 in "Fechas".
    let small = Limits {
        max_sheet_cells: 12,
        ..Limits::default()
    };
    let mut book = Workbook::open_with("ine.xlsx", ine_like_xlsx(), small).unwrap();
    let (sheet, why) = problem(book.table("2010"));
    assert_eq!(sheet.as_deref(), Some("2010"));
    assert_eq!(why, Problem::TooManyCells { max_cells: 12 });
    assert!(book.table("Fechas").is_ok());
    let big = Limits::default();
    let error = Workbook::open_with(
        "big.xlsx",
        vec![0; 64],
        Limits {
            max_workbook_bytes: 63,
            ..big
        },
    );
    assert_eq!(
        problem(error).1,
        Problem::FileTooLarge {
            bytes: 64,
            max_bytes: 63
        }
    );
}

/// Broken and hostile XML Spreadsheet 2003: each a message naming the sheet, no panic, no
/// hang.
#[test]
fn broken_or_hostile_spreadsheetml_gets_a_message() {
    let book = |body: &str| {
        format!(
            "<?xml version=\"1.0\"?><Workbook xmlns=\"urn:schemas-microsoft-com:office:spreadsheet\" \
             xmlns:ss=\"urn:schemas-microsoft-com:office:spreadsheet\">{body}</Workbook>"
        )
        .into_bytes()
    };
    let sheet = |rows: &str| {
        book(&format!(
            "<Worksheet ss:Name=\"S\"><Table>{rows}</Table></Worksheet>"
        ))
    };
    let open = |bytes: Vec<u8>| Workbook::open("s.xml", bytes).map(|_| ());
    // Mismatched end tag.
    let (at, why) = problem(open(sheet("<Row><Cell></Row>")));
    assert_eq!(at.as_deref(), Some("S"));
    assert!(matches!(why, Problem::Reader { .. }), "{why:?}");
    // Cut off inside a sheet.
    let mut cut = sheet("<Row><Cell><Data ss:Type=\"Number\">1</Data></Cell></Row>");
    cut.truncate(cut.len() - 40);
    assert!(matches!(problem(open(cut)).1, Problem::Reader { .. }));
    // Past the grid, and an index that goes back.
    assert_eq!(
        problem(open(sheet("<Row ss:Index=\"1048577\"/>"))).1,
        Problem::CellOutsideGrid {
            row: 1_048_577,
            column: 1
        }
    );
    assert_eq!(
        problem(open(sheet(
            "<Row><Cell ss:Index=\"3\"/><Cell ss:Index=\"2\"/></Row>"
        )))
        .1,
        Problem::CellOutsideGrid { row: 1, column: 2 }
    );
    assert!(matches!(
        problem(open(sheet(
            "<Row><Cell ss:MergeDown=\"99999999999\"/></Row>"
        )))
        .1,
        Problem::CellOutsideGrid { .. }
    ));
    // "Billion laughs": entities are not expanded.
    let laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \
                  \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]>\
                  <Workbook xmlns=\"urn:schemas-microsoft-com:office:spreadsheet\"><Worksheet><Table><Row><Cell>\
                  <Data>&lol2;</Data></Cell></Row></Table></Worksheet></Workbook>";
    assert!(matches!(
        problem(open(laughs.as_bytes().to_vec())).1,
        Problem::Reader { .. }
    ));
    // No worksheet.
    assert_eq!(problem(open(book(""))).1, Problem::NoSheets);
    // Broken containers.
    let mut xlsx = ine_like_xlsx();
    xlsx.truncate(xlsx.len() / 2);
    assert!(matches!(
        problem(Workbook::open("cut.xlsx", xlsx)).1,
        Problem::Reader { .. }
    ));
    let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    ole.extend([0xFF; 600]);
    assert!(matches!(
        problem(Workbook::open("x.xls", ole)).1,
        Problem::Reader { .. }
    ));
    assert_eq!(
        problem(Workbook::open("x.csv", b"a,b\n1,2\n".to_vec())).1,
        Problem::NotAWorkbook
    );
    let mut ok = Workbook::open("ine.xlsx", ine_like_xlsx()).unwrap();
    assert!(matches!(
        problem(ok.table("2031")),
        (None, Problem::NoSuchSheet { sheet, .. }) if sheet == "2031"
    ));
}

/// The communes created in 2004, the only ones of the period whose codes in the older systems
/// belong to their parent ("hasta 1999") or to no commune yet: Alto Hospicio (from Iquique),
/// Hualpén (Talcahuano), Alto Biobío (Santa Bárbara), Cholchol (Nueva Imperial). INE's sheets
/// list them from 2004 (`tests/data/ine_saip4026/PROVENANCE-counts.md` in imr-cli).
const CREATED_2004: [&str; 4] = ["01107", "08112", "08314", "09121"];

/// `imr-data`'s `cut_historico.csv` is DEIS's DPA2011 sheet as published
/// (`tests/data/deis_dpa`): per commune, its 2018 CUT code (the "desde 2010" code, Ñuble's
/// 084xx recoded), its name, its code in each of DEIS's four systems, and the year it was
/// created when within the period (2004).
#[test]
fn the_historical_crosswalk_is_deis_table_as_published() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/deis_dpa/Division-Politico-Administrativa-y-Servicios-de-Salud-Historico.xls"
    ))
    .unwrap();
    let table = Workbook::open("dpa.xls", bytes)
        .unwrap()
        .table("DPA2011")
        .unwrap();
    let cut = crate::ingest::codes::CutCodes::embedded();
    let mut derived = String::from(
        "codigo_comuna_2018,nombre_comuna,hasta_1999,desde_2000,desde_2008,desde_2010,creada\n",
    );
    let mut rows: Vec<(String, String)> = Vec::new();
    for r in table.records.iter() {
        let f: Vec<&str> = r.fields().collect();
        if f[3] == "99999" {
            continue; // "Ignorada": no commune.
        }
        let (code_2018, _) = cut.normalise(f[3]);
        assert!(cut.contains(&code_2018), "{f:?}");
        let created = if CREATED_2004.contains(&code_2018.as_str()) {
            "2004"
        } else {
            ""
        };
        rows.push((
            code_2018.clone(),
            format!(
                "{code_2018},{},{},{},{},{},{created}\n",
                f[4], f[0], f[1], f[2], f[3]
            ),
        ));
    }
    rows.sort();
    for (_, line) in &rows {
        derived.push_str(line);
    }
    assert_eq!(rows.len(), cut.codes().len());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../imr-data/data/cut_historico.csv"
    );
    if std::env::var_os("IMR_WRITE_CROSSWALK").is_some() {
        std::fs::write(path, &derived).unwrap();
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), derived);
}
