//! Sheets of spreadsheets in a saved analysis: a file that is a sheet keeps its workbook's
//! bytes and where it came from ([`SheetOrigin`]: workbook, sheet, read as every sheet), so the
//! page (through its worker) and `imr` (feature `sheets`) read that sheet again by name. A
//! workbook's bytes are stored once: the later sheets of the same workbook leave
//! `bytes_base64` empty and take the first one's.

use super::{AnalysisError, SavedAnalysis, SavedFile};
use crate::ingest::{RawTable, SheetOrigin};

impl SavedAnalysis {
    /// This analysis with where each file came from when it is a sheet (same order as the
    /// files; `None` for a file that is not), each workbook's bytes kept once.
    pub fn with_sheets(mut self, sheets: &[Option<SheetOrigin>]) -> SavedAnalysis {
        for (i, sheet) in sheets.iter().enumerate().take(self.files.len()) {
            let Some(origin) = sheet else { continue };
            let stored = self.files[..i]
                .iter()
                .any(|f| same_workbook(f, origin) && f.bytes_base64 == self.files[i].bytes_base64);
            self.files[i].sheet = Some(origin.clone());
            if stored {
                self.files[i].bytes_base64.clear();
            }
        }
        self
    }

    /// Where each file came from when it is a sheet of a spreadsheet.
    pub fn sheets(&self) -> Vec<Option<SheetOrigin>> {
        self.files.iter().map(|f| f.sheet.clone()).collect()
    }

    /// The base64 of file `index`: its own, or, for a later sheet of a workbook stored before,
    /// the first stored copy's.
    pub(super) fn stored_base64(&self, index: usize) -> &str {
        let file = &self.files[index];
        match &file.sheet {
            Some(origin) if file.bytes_base64.is_empty() => self.files[..index]
                .iter()
                .find(|f| same_workbook(f, origin) && !f.bytes_base64.is_empty())
                .map_or("", |f| f.bytes_base64.as_str()),
            _ => &file.bytes_base64,
        }
    }
}

/// Whether `file` is a sheet of the workbook `origin` names.
fn same_workbook(file: &SavedFile, origin: &SheetOrigin) -> bool {
    file.sheet
        .as_ref()
        .is_some_and(|o| o.workbook == origin.workbook)
}

/// The table of saved file `name` (`data` its bytes): a CSV read as one, a sheet read again by
/// name from its workbook (feature `sheets`; without it, an error saying so: the page reads
/// such a file in its worker).
pub(super) fn read_table(
    analysis: &str,
    name: &str,
    data: &[u8],
    sheet: Option<&SheetOrigin>,
) -> Result<RawTable, AnalysisError> {
    let Some(origin) = sheet else {
        return Ok(RawTable::from_bytes(name, data)?);
    };
    #[cfg(feature = "sheets")]
    {
        use crate::ingest::sheet::{read_sheets, SheetsRead, Workbook};
        use crate::ingest::SheetChoice;
        let _ = analysis;
        let mut book = Workbook::open(&origin.workbook, data.to_vec())?;
        let choice = SheetChoice::Named(vec![origin.sheet.clone()]);
        match read_sheets(&mut book, &choice)? {
            SheetsRead::Tables { tables, .. } => {
                tables
                    .into_iter()
                    .next()
                    .ok_or_else(|| AnalysisError::SheetUnread {
                        file: analysis.to_owned(),
                        inner: name.to_owned(),
                    })
            }
            SheetsRead::Choose { .. } => Err(AnalysisError::SheetUnread {
                file: analysis.to_owned(),
                inner: name.to_owned(),
            }),
        }
    }
    #[cfg(not(feature = "sheets"))]
    {
        let _ = (data, origin);
        Err(AnalysisError::SheetUnread {
            file: analysis.to_owned(),
            inner: name.to_owned(),
        })
    }
}
