//! A spreadsheet read in the worker: the page's main wasm has no spreadsheet reader, so every
//! workbook, whatever its size, goes to the worker with the reader's sheet choice.

use super::decode::decode_received_tables;
use super::{run_job, CsvUpload, Stop, UploadFailure, UploadStatus};
use imr_core::ingest::{RawTable, SheetChoice};
use imr_worker::{CsvEvent, WordedFailure};

/// What a spreadsheet gave: the chosen sheets' tables and the sheets left out (worded in both
/// languages), or its sheets when it has several and no choice was given.
#[derive(Debug)]
pub enum WorkbookRead {
    Tables {
        tables: Vec<RawTable>,
        left_out: Vec<WordedFailure>,
    },
    Choose(Vec<String>),
}

/// Reads the sheets `choice` chooses of the spreadsheet `file` in the worker, with the same
/// progress, Cancel and failures as a big CSV upload.
pub async fn read_workbook(
    file: &web_sys::File,
    upload: CsvUpload,
    choice: &SheetChoice,
) -> Result<WorkbookRead, Stop> {
    let mut answer = run_job(file, upload, Some(choice)).await?;
    let received = answer.received.clone();
    match answer.event.take() {
        Some(CsvEvent::Sheets { sheets }) => {
            answer.status.set(UploadStatus::Idle);
            Ok(WorkbookRead::Choose(sheets))
        }
        Some(CsvEvent::Done { left_out, .. }) => {
            let tables = answer.finish(|| decode_received_tables(&file.name(), &received))?;
            Ok(WorkbookRead::Tables { tables, left_out })
        }
        _ => Err(Stop::Failed(UploadFailure::Page {
            name: answer.name,
            detail: "no answer".into(),
        })),
    }
}
