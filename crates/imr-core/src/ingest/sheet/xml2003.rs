//! XML Spreadsheet 2003 ("SpreadsheetML", Office XP/2003's XML format; SINIM's `.xls`
//! exports), read with quick-xml: calamine 0.38 reads xls, xlsx, xlsb and ods but not this
//! format, and quick-xml is the XML parser calamine already brings.
//!
//! What is read, from Microsoft's "XML Spreadsheet Reference" (Office 2003, `ss:` =
//! `urn:schemas-microsoft-com:office:spreadsheet`): each `Worksheet ss:Name` and its `Table`'s
//! `Row`s (`ss:Index`, 1-based, else the next row) and their `Cell`s (`ss:Index`, 1-based, else
//! the column after the previous cell and its merge; `ss:MergeAcross`, `ss:MergeDown`), each
//! cell's `Data` (`ss:Type` Number, String, DateTime, Boolean or Error; the text of any
//! formatting elements inside it, `html:B` and the like, joined). A cell's `ss:Formula` is not
//! computed: its `Data` is the value Excel saved, as in the other formats. Everything else
//! (styles, names, print settings) is skipped.
//!
//! Bounds: rows and columns within the grid ([`super::MAX_ROWS`] × [`super::MAX_COLUMNS`]) and
//! never going back, cells and merged areas within [`super::MAX_SHEET_CELLS`] per sheet, the
//! file within [`super::MAX_WORKBOOK_BYTES`] (checked by the caller). quick-xml reads without
//! recursion (no depth bound is needed), checks that end tags match, and expands no entity
//! beyond XML's five and character references (an entity declared in a DOCTYPE is an error,
//! so no "billion laughs").

use super::super::error::Workbook as Problem;
use super::{number_text, Grid, GridBuilder, MAX_COLUMNS, MAX_ROWS};
use quick_xml::events::{BytesStart, Event};
use quick_xml::XmlVersion;

/// A SpreadsheetML workbook read whole: each worksheet's name and grid.
pub(super) struct Book {
    sheets: Vec<(String, Grid)>,
}

/// An error of the book, with the sheet it arose in (when in one).
type Failure = (Option<String>, Problem);

impl Book {
    pub fn sheet_names(&self) -> Vec<String> {
        self.sheets.iter().map(|(n, _)| n.clone()).collect()
    }

    pub fn grid(&self, sheet: &str) -> Result<Grid, Problem> {
        self.sheets
            .iter()
            .find(|(n, _)| n == sheet)
            .map(|(_, g)| g.clone())
            .ok_or(Problem::NoSheets)
    }

    /// Reads the workbook's bytes: UTF-8 (with or without BOM), UTF-16 with BOM, or the
    /// encoding its XML declaration names (`ISO-8859-1`, `windows-1252`, …; WHATWG labels).
    pub fn parse(bytes: &[u8], max_cells: usize) -> Result<Book, Failure> {
        let text = decode(bytes).map_err(|why| (None, why))?;
        let mut reader = quick_xml::Reader::from_str(&text);
        reader.config_mut().check_end_names = true;
        let mut sheets: Vec<(String, Grid)> = Vec::new();
        let mut current: Option<SheetState> = None;
        loop {
            let at = reader.buffer_position();
            let event = reader.read_event().map_err(|e| {
                let sheet = current.as_ref().map(|s| s.name.clone());
                (
                    sheet,
                    Problem::Reader {
                        detail: format!("broken XML at byte {}: {e}", at),
                    },
                )
            })?;
            match event {
                Event::Eof => break,
                Event::Start(e) if local(&e) == "Worksheet" => {
                    current = Some(SheetState::new(sheet_name(&e, sheets.len())?, max_cells));
                }
                Event::Empty(e) if local(&e) == "Worksheet" => {
                    sheets.push((sheet_name(&e, sheets.len())?, Grid::default()));
                }
                Event::End(e) if e.local_name().as_ref() == "Worksheet" => {
                    if let Some(state) = current.take() {
                        let name = state.name.clone();
                        let grid = state
                            .grid
                            .finish()
                            .map_err(|why| (Some(name.clone()), why))?;
                        sheets.push((name, grid));
                    }
                }
                event => {
                    if let Some(state) = &mut current {
                        if let Err(why) = state.on(event, at) {
                            return Err((Some(state.name.clone()), why));
                        }
                    }
                }
            }
        }
        if let Some(state) = current {
            return Err((
                Some(state.name),
                Problem::Reader {
                    detail: "the XML ends inside a worksheet".into(),
                },
            ));
        }
        if sheets.is_empty() {
            return Err((None, Problem::NoSheets));
        }
        Ok(Book { sheets })
    }
}

/// A worksheet's `ss:Name`, or `Sheet{n}` (1-based) without one.
fn sheet_name(e: &BytesStart<'_>, before: usize) -> Result<String, Failure> {
    Ok(attr(e, "Name")
        .map_err(|why| (None, why))?
        .unwrap_or_else(|| format!("Sheet{}", before + 1)))
}

/// One of XML's five predefined entities (XML 1.0 §4.6).
fn predefined(r: &str) -> Option<char> {
    Some(match r {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => return None,
    })
}

fn local<'a>(e: &'a BytesStart<'_>) -> &'a str {
    e.local_name().into_inner()
}

/// The value of the attribute whose local name is `name` (`ss:Index` → `Index`), entities
/// resolved; `None` when absent.
fn attr(e: &BytesStart<'_>, name: &str) -> Result<Option<String>, Problem> {
    for a in e.attributes() {
        let a = a.map_err(|err| Problem::Reader {
            detail: format!("broken attribute: {err}"),
        })?;
        if a.key.local_name().as_ref() == name {
            let value =
                a.normalized_value(XmlVersion::Implicit1_0)
                    .map_err(|err| Problem::Reader {
                        detail: format!("broken attribute value: {err}"),
                    })?;
            return Ok(Some(value.into_owned()));
        }
    }
    Ok(None)
}

/// A 1-based index attribute (`ss:Index`, `ss:MergeAcross`, …) as a number, `None` when absent.
fn index_attr(
    e: &BytesStart<'_>,
    name: &str,
    row: u64,
    column: u64,
) -> Result<Option<u64>, Problem> {
    match attr(e, name)? {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .map(Some)
            .map_err(|_| Problem::CellOutsideGrid {
                row: row + 1,
                column: column + 1,
            }),
    }
}

/// A worksheet being read: the next row and column (0-based), the cell being read.
struct SheetState {
    name: String,
    grid: GridBuilder,
    row: u64,
    column: u64,
    /// The current cell's merge (rows down, columns across).
    merge: (u64, u64),
    data_type: String,
    value: String,
    in_data: bool,
    /// Inside a cell's `Comment`, whose own `Data` is a note, not the value.
    in_comment: bool,
    in_row: bool,
}

impl SheetState {
    fn new(name: String, max_cells: usize) -> SheetState {
        SheetState {
            name,
            grid: GridBuilder::new(max_cells),
            row: 0,
            column: 0,
            merge: (0, 0),
            data_type: String::new(),
            value: String::new(),
            in_data: false,
            in_comment: false,
            in_row: false,
        }
    }

    /// An event inside the worksheet (`at`: its byte offset, for messages).
    fn on(&mut self, event: Event<'_>, at: u64) -> Result<(), Problem> {
        match event {
            Event::Start(e) if local(&e) == "Row" => self.start_row(&e)?,
            Event::Empty(e) if local(&e) == "Row" => {
                self.start_row(&e)?;
                self.end_row();
            }
            Event::End(e) if e.local_name().as_ref() == "Row" => self.end_row(),
            Event::Start(e) if local(&e) == "Cell" => self.start_cell(&e)?,
            Event::Empty(e) if local(&e) == "Cell" => {
                self.start_cell(&e)?;
                self.end_cell()?;
            }
            Event::End(e) if e.local_name().as_ref() == "Cell" => self.end_cell()?,
            Event::Start(e) if local(&e) == "Comment" => self.in_comment = true,
            Event::End(e) if e.local_name().as_ref() == "Comment" => self.in_comment = false,
            Event::Start(e) if local(&e) == "Data" && !self.in_comment => {
                self.data_type = attr(&e, "Type")?.unwrap_or_default();
                self.in_data = true;
            }
            Event::End(e) if e.local_name().as_ref() == "Data" => self.in_data = false,
            Event::Text(t) if self.in_data => {
                self.value.push_str(&t.xml_content(XmlVersion::Implicit1_0))
            }
            Event::CData(t) if self.in_data => self.value.push_str(&t),
            Event::GeneralRef(r) if self.in_data => {
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) => Some(c),
                    Ok(None) => predefined(&r),
                    Err(_) => None,
                };
                let Some(c) = c else {
                    return Err(Problem::Reader {
                        detail: format!("unknown entity &{}; at byte {at}", &*r),
                    });
                };
                self.value.push(c);
            }
            _ => {}
        }
        Ok(())
    }

    /// A `Row`: at its `ss:Index` (1-based; never before the next row), else the next row.
    fn start_row(&mut self, e: &BytesStart<'_>) -> Result<(), Problem> {
        if let Some(index) = index_attr(e, "Index", self.row, 0)? {
            if index == 0 || index - 1 < self.row || index > MAX_ROWS {
                return Err(Problem::CellOutsideGrid {
                    row: index,
                    column: 1,
                });
            }
            self.row = index - 1;
        }
        if self.row >= MAX_ROWS {
            return Err(Problem::CellOutsideGrid {
                row: self.row + 1,
                column: 1,
            });
        }
        self.column = 0;
        self.in_row = true;
        Ok(())
    }

    fn end_row(&mut self) {
        if self.in_row {
            self.row += 1;
            self.in_row = false;
        }
    }

    /// A `Cell`: at its `ss:Index` (1-based; never before the next column), else the next
    /// column; its merge noted.
    fn start_cell(&mut self, e: &BytesStart<'_>) -> Result<(), Problem> {
        if let Some(index) = index_attr(e, "Index", self.row, self.column)? {
            if index == 0 || index - 1 < self.column || index > MAX_COLUMNS {
                return Err(Problem::CellOutsideGrid {
                    row: self.row + 1,
                    column: index,
                });
            }
            self.column = index - 1;
        }
        let across = index_attr(e, "MergeAcross", self.row, self.column)?.unwrap_or(0);
        let down = index_attr(e, "MergeDown", self.row, self.column)?.unwrap_or(0);
        self.merge = (down, across);
        self.data_type.clear();
        self.value.clear();
        Ok(())
    }

    /// The end of a cell: its value put in the grid as a person reads it, its merged area
    /// noted, the next column after it and its merge.
    fn end_cell(&mut self) -> Result<(), Problem> {
        let text = match self.data_type.as_str() {
            "Number" => match self.value.trim().parse::<f64>() {
                Ok(v) => number_text(v),
                Err(_) => self.value.trim().to_owned(),
            },
            "DateTime" => date_text(self.value.trim()),
            "Boolean" => match self.value.trim() {
                "1" => "TRUE".into(),
                "0" => "FALSE".into(),
                other => other.to_owned(),
            },
            _ => self.value.clone(),
        };
        let (down, across) = self.merge;
        let (r1, c1) = (
            self.row.saturating_add(down),
            self.column.saturating_add(across),
        );
        if down > 0 || across > 0 {
            self.grid.merge((self.row, self.column, r1, c1))?;
        }
        self.grid.put(self.row, self.column, text)?;
        self.column = c1.saturating_add(1);
        self.value.clear();
        self.data_type.clear();
        Ok(())
    }
}

/// A SpreadsheetML date (`2010-03-31T00:00:00.000`) as a person reads it: `2010-03-31`, with
/// ` HH:MM:SS` when it has a time of day; other texts as written.
fn date_text(value: &str) -> String {
    match value.split_once('T') {
        Some((date, time)) => {
            let time = time.split('.').next().unwrap_or("");
            if time.trim_start_matches(['0', ':']).is_empty() {
                date.to_owned()
            } else {
                format!("{date} {time}")
            }
        }
        None => value.to_owned(),
    }
}

/// The workbook's text: UTF-16 with a BOM, UTF-8 (a BOM stripped), or the encoding named by
/// the XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`), by its WHATWG label.
fn decode(bytes: &[u8]) -> Result<String, Problem> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return Ok(text.into_owned());
    }
    let head = &bytes[..bytes.len().min(200)];
    let declared = head
        .windows(9)
        .position(|w| w == b"encoding=")
        .and_then(|at| {
            let rest = &head[at + 9..];
            let quote = *rest.first()?;
            let end = rest[1..].iter().position(|&b| b == quote)?;
            encoding_rs::Encoding::for_label(&rest[1..1 + end])
        });
    match declared {
        Some(encoding) if encoding != encoding_rs::UTF_8 => {
            let (text, _) = encoding.decode_without_bom_handling(bytes);
            Ok(text.into_owned())
        }
        _ => String::from_utf8(bytes.to_vec()).map_err(|e| Problem::Reader {
            detail: format!(
                "not UTF-8 at byte {} and no other encoding declared",
                e.utf8_error().valid_up_to()
            ),
        }),
    }
}
