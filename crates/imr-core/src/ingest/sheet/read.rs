//! The sheets a [`SheetChoice`] chooses, read into tables: one function for `imr` and the
//! page's worker, so both read the same sheets, date them alike and leave out the same ones.

use super::Workbook;
use crate::ingest::sheet_choice::{plan, sheet_year, SheetChoice, SheetPlan};
use crate::ingest::{ColumnNames, IngestError, RawTable};
use crate::Lang;

/// A sheet `--sheets all` did not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeftOut {
    /// Other sheets are named by a year and this one is not (INE's sheet of codes).
    NotAYear { file: String, sheet: String },
    /// The sheet has no cells.
    Empty { file: String, sheet: String },
}

impl LeftOut {
    /// Why the sheet was left out, naming workbook and sheet, in `lang` (the page's words;
    /// `imr` names its own flags on stderr).
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (LeftOut::NotAYear { file, sheet }, Lang::En) => format!(
                "{file}: sheet \"{sheet}\" left out: with every sheet, only the sheets named by \
                 a year are read (choose it alone to read it)"
            ),
            (LeftOut::NotAYear { file, sheet }, Lang::Es) => format!(
                "{file}: la hoja «{sheet}» no se leyó: con todas las hojas se leen solo las que \
                 llevan un año por nombre (elíjala sola para leerla)"
            ),
            (LeftOut::Empty { file, sheet }, Lang::En) => {
                format!("{file}: sheet \"{sheet}\" left out: it has no cells")
            }
            (LeftOut::Empty { file, sheet }, Lang::Es) => {
                format!("{file}: la hoja «{sheet}» no se leyó: no tiene celdas")
            }
        }
    }
}

/// What a choice gave: the tables of the sheets read (each named `file [sheet]`, dated by
/// [`sheet_year`] for rows without a year column) and the sheets left out, or the workbook's
/// sheets when it has several and no choice was given.
#[derive(Debug)]
pub enum SheetsRead {
    Tables {
        tables: Vec<RawTable>,
        left_out: Vec<LeftOut>,
    },
    Choose {
        sheets: Vec<String>,
    },
}

/// Reads the sheets `choice` chooses of `book` ([`plan`]). A named sheet that is missing or
/// cannot be read is an error naming workbook and sheet; with `--sheets all` a sheet without
/// cells is left out, and no sheet with cells at all is an error.
pub fn read_sheets(book: &mut Workbook, choice: &SheetChoice) -> Result<SheetsRead, IngestError> {
    let all = book.sheet_names().to_vec();
    let (sheets, not_years) = match plan(&all, choice) {
        SheetPlan::Choose => return Ok(SheetsRead::Choose { sheets: all }),
        SheetPlan::Read { sheets, not_years } => (sheets, not_years),
    };
    let file = book.file.clone();
    let mut left_out: Vec<LeftOut> = not_years
        .into_iter()
        .map(|sheet| LeftOut::NotAYear {
            file: file.clone(),
            sheet,
        })
        .collect();
    let mut tables = Vec::with_capacity(sheets.len());
    for sheet in &sheets {
        match book.table(sheet) {
            Ok(mut table) => {
                table.time_given = sheet_year(&file, sheet);
                tables.push(table);
            }
            Err(IngestError::Empty { .. }) if *choice == SheetChoice::All => {
                left_out.push(LeftOut::Empty {
                    file: file.clone(),
                    sheet: sheet.clone(),
                });
            }
            Err(e) => return Err(e),
        }
    }
    if tables.is_empty() {
        return Err(IngestError::Workbook {
            file,
            sheet: None,
            why: Box::new(super::Problem::NoSheets),
        });
    }
    Ok(SheetsRead::Tables { tables, left_out })
}

/// The workbook's sheets listed for a message (`"2015", "2014" and 1 more…`).
pub fn sheet_list(sheets: &[String], lang: Lang) -> String {
    ColumnNames::of(sheets).text(lang)
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(LeftOut);
