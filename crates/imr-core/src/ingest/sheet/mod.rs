//! Spreadsheets as tables: `.xlsx`, `.xls` (BIFF8), `.ods` and XML Spreadsheet 2003, each
//! sheet read into a [`RawTable`] that the rest of the ingest reads as it reads a CSV file.
//!
//! - The container is recognised by its bytes ([`super::sniff::workbook_format`]), not by the
//!   file's extension: SINIM's `.xls` export is XML Spreadsheet 2003, which the same file
//!   becomes a BIFF `.xls` once saved in Excel.
//! - `.xlsx`, `.xls` and `.ods` are read by [calamine](https://docs.rs/calamine/0.38.0) (the
//!   cached value of every formula, as Excel last computed it; calamine computes none).
//!   calamine 0.38 has no reader of XML Spreadsheet 2003 (its `open_workbook_auto` tries xls,
//!   xlsx, xlsb and ods only), so that format is read here with quick-xml (module `xml2003`),
//!   the XML parser calamine itself uses.
//! - Each sheet becomes a grid of texts, each cell as a person reads it ([`text_of`]: whole
//!   numbers without a decimal point, dates as `YYYY-MM-DD`, errors as `#DIV/0!`), then a table
//!   laid out as people lay them out ([`header_row`], [`zeros_by_total`]: title rows and a
//!   super-header above the header row, empty count cells that the row's total shows to be
//!   zeros).
//! - A record's line is the sheet's row number (1-based, as the spreadsheet shows it); its file
//!   is `file [sheet]` ([`sheet_label`]), so every exclusion and error names file, sheet and
//!   row, and the cell's column by its header.
//!
//! Bounds against hostile workbooks (`docs/INPUT-CONTRACT.md`): the file's size
//! ([`MAX_WORKBOOK_BYTES`]), what a zip container would unpack to ([`MAX_UNPACKED_BYTES`],
//! checked on the archive's directory before any entry is read; the zip reader fails on an
//! entry that unpacks to more than it declared), the cells of a sheet ([`MAX_SHEET_CELLS`]) and
//! the spreadsheet grid ([`MAX_ROWS`] × [`MAX_COLUMNS`]). Each is an
//! [`IngestError::Workbook`] naming the file and sheet, never a panic or an unbounded wait.

mod layout;
mod read;
mod xml2003;

pub use layout::{header_row, zeros_by_total, HEADER_SEARCH_ROWS};
pub use read::{read_sheets, sheet_list, LeftOut, SheetsRead};

use super::error::{ColumnNames, Workbook as Problem};
use super::sniff::{workbook_format, WorkbookFormat};
use super::table::RawTable;
use super::IngestError;
use calamine::{Data, DataRef, Reader};
use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::Path;

/// The largest workbook file read: 256 MiB. INE's workbook of 16 yearly sheets is 1.4 MB;
/// larger exports belong in CSV, which has no such bound.
pub const MAX_WORKBOOK_BYTES: u64 = 256 << 20;
/// The most a zip container (`.xlsx`, `.ods`) may unpack to, summed over its entries as its
/// central directory declares them: 1 GiB. A zip bomb declares its true size or fails when an
/// entry unpacks to more than it declared (the zip crate's reader checks it).
pub const MAX_UNPACKED_BYTES: u64 = 1 << 30;
/// The most cells one sheet may have: 2^24 (16,777,216: an `.xls` sheet's whole grid of
/// 65,536 × 256). Counted: the cells read, the cells a merged area fills, and the empty cells
/// between the filled ones of a row (the table keeps them).
pub const MAX_SHEET_CELLS: usize = 1 << 24;
/// Rows of the largest spreadsheet grid (Excel 2007 and later; ECMA-376 Part 1, §18.3.1.73).
pub const MAX_ROWS: u64 = 1 << 20;
/// Columns of the largest spreadsheet grid (`XFD`).
pub const MAX_COLUMNS: u64 = 1 << 14;

/// The bounds a workbook is read within; [`Limits::default`] is the documented bounds
/// ([`MAX_WORKBOOK_BYTES`], [`MAX_UNPACKED_BYTES`], [`MAX_SHEET_CELLS`]). Smaller limits let
/// tests and the fuzz target reach every bound with small inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_workbook_bytes: u64,
    pub max_unpacked_bytes: u64,
    pub max_sheet_cells: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_workbook_bytes: MAX_WORKBOOK_BYTES,
            max_unpacked_bytes: MAX_UNPACKED_BYTES,
            max_sheet_cells: MAX_SHEET_CELLS,
        }
    }
}

/// How a sheet is named in every report and error: `file [sheet]`.
pub fn sheet_label(file: &str, sheet: &str) -> String {
    format!("{file} [{sheet}]")
}

/// A spreadsheet opened: its format and sheet names, each sheet read on demand
/// ([`Workbook::table`]).
pub struct Workbook {
    file: String,
    limits: Limits,
    format: WorkbookFormat,
    sheets: Vec<String>,
    book: Book,
}

enum Book {
    Calamine(Box<calamine::Sheets<Cursor<Vec<u8>>>>),
    Xml(xml2003::Book),
}

impl std::fmt::Debug for Workbook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workbook")
            .field("file", &self.file)
            .field("format", &self.format)
            .field("sheets", &self.sheets)
            .finish_non_exhaustive()
    }
}

/// One sheet's cells as texts, by row: only rows with a filled cell, each with its 1-based row
/// number and its cells from column A to its last filled one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Grid {
    pub rows: Vec<(u64, Vec<String>)>,
    /// Merged areas, 0-based and inclusive: (first row, first column, last row, last column).
    pub merged: Vec<(u64, u64, u64, u64)>,
}

/// Cells gathered in any order into a [`Grid`], within [`MAX_SHEET_CELLS`] and the grid's bounds.
pub(crate) struct GridBuilder {
    cells: BTreeMap<u64, BTreeMap<u64, String>>,
    count: usize,
    max_cells: usize,
    merged: Vec<(u64, u64, u64, u64)>,
}

impl GridBuilder {
    pub fn new(max_cells: usize) -> GridBuilder {
        GridBuilder {
            cells: BTreeMap::new(),
            count: 0,
            max_cells,
            merged: Vec::new(),
        }
    }

    fn too_many(&self) -> Problem {
        Problem::TooManyCells {
            max_cells: self.max_cells,
        }
    }

    /// Cell (`row`, `column`), 0-based; an empty text is no cell.
    pub fn put(&mut self, row: u64, column: u64, text: String) -> Result<(), Problem> {
        if row >= MAX_ROWS || column >= MAX_COLUMNS {
            return Err(Problem::CellOutsideGrid {
                row: row + 1,
                column: column + 1,
            });
        }
        if text.is_empty() {
            return Ok(());
        }
        self.count += 1;
        if self.count > self.max_cells {
            return Err(self.too_many());
        }
        self.cells.entry(row).or_default().insert(column, text);
        Ok(())
    }

    /// A merged area, 0-based and inclusive.
    pub fn merge(&mut self, area: (u64, u64, u64, u64)) -> Result<(), Problem> {
        let (r0, c0, r1, c1) = area;
        if r1 >= MAX_ROWS || c1 >= MAX_COLUMNS || r0 > r1 || c0 > c1 {
            return Err(Problem::CellOutsideGrid {
                row: r1.max(r0) + 1,
                column: c1.max(c0) + 1,
            });
        }
        self.count += 1;
        if self.count > self.max_cells {
            return Err(self.too_many());
        }
        self.merged.push(area);
        Ok(())
    }

    /// The grid, each row dense up to its last filled cell (the empty cells counted).
    pub fn finish(self) -> Result<Grid, Problem> {
        let too_many = self.too_many();
        let mut rows = Vec::with_capacity(self.cells.len());
        let mut total = 0usize;
        for (row, cells) in self.cells {
            let width = cells.keys().next_back().map_or(0, |&c| c as usize + 1);
            total = total.saturating_add(width);
            if total > self.max_cells {
                return Err(too_many);
            }
            let mut dense = vec![String::new(); width];
            for (column, text) in cells {
                dense[column as usize] = text;
            }
            rows.push((row + 1, dense));
        }
        Ok(Grid {
            rows,
            merged: self.merged,
        })
    }
}

impl Workbook {
    /// Opens a workbook of any of the four formats, recognised by its bytes. Fails with an
    /// [`IngestError::Workbook`] naming `file` when it is not a spreadsheet, is above the
    /// bounds or cannot be read.
    pub fn open(file: &str, bytes: Vec<u8>) -> Result<Workbook, IngestError> {
        Self::open_with(file, bytes, Limits::default())
    }

    /// [`Workbook::open`] within `limits`.
    pub fn open_with(file: &str, bytes: Vec<u8>, limits: Limits) -> Result<Workbook, IngestError> {
        let error = |why: Problem| IngestError::Workbook {
            file: file.into(),
            sheet: None,
            why: Box::new(why),
        };
        if bytes.len() as u64 > limits.max_workbook_bytes {
            return Err(error(Problem::FileTooLarge {
                bytes: bytes.len() as u64,
                max_bytes: limits.max_workbook_bytes,
            }));
        }
        let format = workbook_format(&bytes).ok_or_else(|| error(Problem::NotAWorkbook))?;
        let reader = |e: &dyn std::fmt::Display| {
            error(Problem::Reader {
                detail: e.to_string(),
            })
        };
        let book = match format {
            WorkbookFormat::SpreadsheetMl2003 => Book::Xml(
                xml2003::Book::parse(&bytes, limits.max_sheet_cells).map_err(|(sheet, why)| {
                    IngestError::Workbook {
                        file: file.into(),
                        sheet,
                        why: Box::new(why),
                    }
                })?,
            ),
            WorkbookFormat::Xlsx | WorkbookFormat::Ods => {
                // The sizes the central directory declares (the zip reader fails on an entry
                // that unpacks to more than its declared size, data descriptor or not).
                let mut archive =
                    zip::ZipArchive::new(Cursor::new(bytes.as_slice())).map_err(|e| reader(&e))?;
                let mut unpacked = 0u128;
                for i in 0..archive.len() {
                    let entry = archive.by_index_raw(i).map_err(|e| reader(&e))?;
                    unpacked += u128::from(entry.size());
                }
                if unpacked > u128::from(limits.max_unpacked_bytes) {
                    return Err(error(Problem::UnpacksTooLarge {
                        unpacked_bytes: unpacked,
                        max_bytes: limits.max_unpacked_bytes,
                    }));
                }
                if format == WorkbookFormat::Xlsx {
                    check_shared_strings(&mut archive, limits).map_err(error)?;
                }
                let cursor = Cursor::new(bytes);
                let sheets = if format == WorkbookFormat::Xlsx {
                    calamine::open_workbook_from_rs(cursor)
                        .map(calamine::Sheets::Xlsx)
                        .map_err(|e| reader(&e))
                } else {
                    calamine::open_workbook_from_rs(cursor)
                        .map(calamine::Sheets::Ods)
                        .map_err(|e| reader(&e))
                };
                Book::Calamine(Box::new(sheets?))
            }
            WorkbookFormat::Xls => Book::Calamine(Box::new(
                calamine::open_workbook_from_rs(Cursor::new(clean_ole(&bytes).map_err(error)?))
                    .map(calamine::Sheets::Xls)
                    .map_err(|e| reader(&e))?,
            )),
        };
        let sheets = match &book {
            Book::Calamine(b) => b
                .sheets_metadata()
                .iter()
                .filter(|s| s.typ == calamine::SheetType::WorkSheet)
                .map(|s| s.name.clone())
                .collect(),
            Book::Xml(b) => b.sheet_names(),
        };
        Ok(Workbook {
            file: file.into(),
            limits,
            format,
            sheets,
            book,
        })
    }

    pub fn format(&self) -> WorkbookFormat {
        self.format
    }

    /// The worksheets' names, in the workbook's order (chart sheets and macro sheets left out).
    pub fn sheet_names(&self) -> &[String] {
        &self.sheets
    }

    /// The cells of sheet `sheet`, as texts.
    pub fn grid(&mut self, sheet: &str) -> Result<Grid, IngestError> {
        let error = |why: Problem| IngestError::Workbook {
            file: self.file.clone(),
            sheet: Some(sheet.into()),
            why: Box::new(why),
        };
        if !self.sheets.iter().any(|s| s == sheet) {
            return Err(IngestError::Workbook {
                file: self.file.clone(),
                sheet: None,
                why: Box::new(Problem::NoSuchSheet {
                    sheet: sheet.into(),
                    sheets: ColumnNames::of(&self.sheets),
                }),
            });
        }
        let grid = match &mut self.book {
            Book::Xml(book) => book.grid(sheet),
            Book::Calamine(book) => calamine_grid(book, sheet, self.limits.max_sheet_cells),
        };
        grid.map_err(error)
    }

    /// Sheet `sheet` as a table laid out as agencies lay them out (the module's documentation,
    /// [`header_row`], [`zeros_by_total`]): named `file [sheet]`, its records the rows below its
    /// header row, each with its row number as its line.
    pub fn table(&mut self, sheet: &str) -> Result<RawTable, IngestError> {
        let grid = self.grid(sheet)?;
        layout::table_of(&self.file, sheet, grid, self.limits.max_sheet_cells)
    }
}

/// A BIFF workbook's OLE container read by the `cfb` crate (which checks every sector chain)
/// and written again, stream by stream: calamine then reads a container it cannot misread.
/// calamine 0.38's own container reader panics on truncated or corrupted sector chains (a
/// short sector's length asserted a multiple of four, a slice starting past the file's end;
/// imr-fuzz's workbook target found both), and a panic is an abort in the page's and `imr`'s
/// release builds. Every stream and storage is kept (calamine reads the workbook stream and
/// expects the small streams that make a mini stream, as Excel writes them); their total is
/// within the file's size.
fn clean_ole(bytes: &[u8]) -> Result<Vec<u8>, Problem> {
    use std::io::{Read, Write};
    let reader = |e: std::io::Error| Problem::Reader {
        detail: format!("the OLE container: {e}"),
    };
    let mut ole = cfb::CompoundFile::open(Cursor::new(bytes)).map_err(reader)?;
    let entries: Vec<(std::path::PathBuf, bool)> = ole
        .walk()
        .filter(|e| !e.is_root())
        .map(|e| (e.path().to_path_buf(), e.is_storage()))
        .collect();
    if !entries
        .iter()
        .any(|(p, storage)| !storage && (p == Path::new("/Workbook") || p == Path::new("/Book")))
    {
        return Err(Problem::Reader {
            detail: "the OLE container has no Workbook stream: not an Excel workbook".into(),
        });
    }
    let mut clean = cfb::CompoundFile::create(Cursor::new(Vec::new())).map_err(reader)?;
    let mut budget = bytes.len() as u64;
    for (path, storage) in entries {
        if storage {
            clean.create_storage(&path).map_err(reader)?;
            continue;
        }
        let mut stream = Vec::new();
        ole.open_stream(&path)
            .map_err(reader)?
            .take(budget)
            .read_to_end(&mut stream)
            .map_err(reader)?;
        budget -= stream.len() as u64;
        clean
            .create_stream(&path)
            .and_then(|mut s| s.write_all(&stream))
            .map_err(reader)?;
    }
    clean.flush().map_err(reader)?;
    Ok(clean.into_inner().into_inner())
}

/// The shared-string table's declared `uniqueCount` (ECMA-376 Part 1, §18.4.9), which calamine
/// reserves room for before reading a string: a count above [`Limits::max_sheet_cells`], or
/// above what the part's size can hold (an empty `<si/>` takes 5 bytes), is refused here, so
/// that `uniqueCount="999999999999"` cannot make the reader allocate without bound.
fn check_shared_strings(
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    limits: Limits,
) -> Result<(), Problem> {
    use std::io::Read;
    let Ok(entry) = archive.by_name("xl/sharedStrings.xml") else {
        return Ok(());
    };
    let size = entry.size();
    let mut head = Vec::new();
    // The `sst` element opens the part: its attributes are within the first 4 KiB.
    entry
        .take(4096)
        .read_to_end(&mut head)
        .map_err(|e| Problem::Reader {
            detail: e.to_string(),
        })?;
    let head = String::from_utf8_lossy(&head);
    let Some(at) = head.find("uniqueCount=") else {
        return Ok(());
    };
    let digits: String = head[at + "uniqueCount=".len()..]
        .chars()
        .skip(1)
        .take_while(char::is_ascii_digit)
        .collect();
    let count = digits.parse::<u64>().unwrap_or(u64::MAX);
    if count > limits.max_sheet_cells as u64 || count.saturating_mul(5) > size {
        return Err(Problem::Reader {
            detail: format!(
                "the shared-string table declares {digits} strings, more than its {size} bytes or \
                 the {} cells of a sheet can hold",
                limits.max_sheet_cells
            ),
        });
    }
    Ok(())
}

/// A calamine sheet's cells: an `.xlsx` sheet streamed cell by cell (its bounds checked as it
/// goes, before any grid is allocated), an `.xls` or `.ods` sheet from the range calamine read
/// (BIFF8 bounds a sheet to 65,536 × 256 cells; calamine bounds an `.ods` sheet's repeated
/// cells), and the merged areas of `.xlsx` and `.xls`.
fn calamine_grid(
    book: &mut calamine::Sheets<Cursor<Vec<u8>>>,
    sheet: &str,
    max_cells: usize,
) -> Result<Grid, Problem> {
    let reader = |e: &dyn std::fmt::Display| Problem::Reader {
        detail: e.to_string(),
    };
    let mut grid = GridBuilder::new(max_cells);
    match book {
        calamine::Sheets::Xlsx(xlsx) => {
            {
                let mut cells = xlsx.worksheet_cells_reader(sheet).map_err(|e| reader(&e))?;
                while let Some(cell) = cells.next_cell().map_err(|e| reader(&e))? {
                    let (row, column) = cell.get_position();
                    grid.put(
                        u64::from(row),
                        u64::from(column),
                        text_of_ref(cell.get_value()),
                    )?;
                }
            }
            for d in xlsx
                .merge_cells_by_sheet_name(sheet)
                .map_err(|e| reader(&e))?
            {
                grid.merge(area_of(&d))?;
            }
        }
        calamine::Sheets::Xls(xls) => {
            for d in xls
                .merge_cells_by_sheet_name(sheet)
                .map_err(|e| reader(&e))?
            {
                grid.merge(area_of(&d))?;
            }
            put_range(
                &mut grid,
                &xls.worksheet_range(sheet).map_err(|e| reader(&e))?,
            )?;
        }
        other => {
            put_range(
                &mut grid,
                &other.worksheet_range(sheet).map_err(|e| reader(&e))?,
            )?;
        }
    }
    grid.finish()
}

fn area_of(d: &calamine::Dimensions) -> (u64, u64, u64, u64) {
    (
        u64::from(d.start.0),
        u64::from(d.start.1),
        u64::from(d.end.0),
        u64::from(d.end.1),
    )
}

fn put_range(grid: &mut GridBuilder, range: &calamine::Range<Data>) -> Result<(), Problem> {
    for (row, column, value) in range.used_cells() {
        let (r0, c0) = range.start().unwrap_or((0, 0));
        grid.put(
            u64::from(r0) + row as u64,
            u64::from(c0) + column as u64,
            text_of(value),
        )?;
    }
    Ok(())
}

/// A cell as a person reads it: a whole number without a decimal point (`12`, not `12.0`),
/// other numbers in the shortest form that reads back the same (`0.1`), a date as
/// `YYYY-MM-DD` (with ` HH:MM:SS` when it has a time of day), a duration as `HH:MM:SS`,
/// `TRUE`/`FALSE`, an error as Excel shows it (`#DIV/0!`), text as written.
pub fn text_of(value: &Data) -> String {
    match value {
        Data::Int(i) => i.to_string(),
        Data::Float(f) => number_text(*f),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        Data::DateTime(d) => {
            let (y, mo, day, h, mi, s, _) = d.to_ymd_hms_milli();
            if d.is_duration() {
                let seconds = (d.as_f64() * 86_400.0).round();
                let total = if seconds.is_finite() {
                    seconds as i64
                } else {
                    0
                };
                format!(
                    "{:02}:{:02}:{:02}",
                    total / 3600,
                    (total / 60) % 60,
                    total % 60
                )
            } else if (h, mi, s) == (0, 0, 0) {
                format!("{y:04}-{mo:02}-{day:02}")
            } else {
                format!("{y:04}-{mo:02}-{day:02} {h:02}:{mi:02}:{s:02}")
            }
        }
        Data::Error(e) => e.to_string(),
        Data::Empty => String::new(),
    }
}

fn text_of_ref(value: &DataRef<'_>) -> String {
    match value {
        DataRef::SharedString(s) => (*s).to_owned(),
        other => text_of(&Data::from(other.clone())),
    }
}

/// A number as a person reads it: whole numbers below 2^53 without a decimal point, others in
/// Rust's shortest round-trip form (never an exponent), non-finite numbers empty.
pub fn number_text(f: f64) -> String {
    if !f.is_finite() {
        return String::new();
    }
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        return format!("{}", f as i64);
    }
    format!("{f}")
}

#[cfg(test)]
mod read_tests;
#[cfg(test)]
mod tests;
