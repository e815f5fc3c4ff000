//! The page ↔ worker protocol for a big CSV upload: the page posts
//! `{kind: "csv", file: File}` ([`CSV_JOB_KIND`]); the worker reads the file in chunks, posts a
//! [`CsvEvent`] as JSON text in the message's `event` field after every chunk, parses the bytes
//! with `RawTable::from_bytes` (the same reader as the page's synchronous path and `imr`), and
//! posts [`CsvEvent::Done`] with the table encoded by [`encode_table`] in the message's `table`
//! field, a `Uint8Array` whose buffer is transferred, not copied. The page decodes it with
//! [`decode_table`].
//!
//! Only `RawTable`'s serde derive is used here, never its fields, so the table's internal
//! representation may change freely.
//!
//! The encoding is postcard (compact binary serde), chosen by measurement over serde JSON: see
//! README.md, "Big files".
//!
//! A spreadsheet (`.xlsx`, `.xls`, `.ods`, XML Spreadsheet 2003) is a job of its own: the page
//! posts `{kind: "sheets", file: File, choice: SheetChoice as JSON}` ([`SHEETS_JOB_KIND`]); the
//! worker, built with imr-core's `sheets` feature (Trunk's `data-cargo-features`, index.html;
//! the page's main wasm has no spreadsheet reader), reads the file whole, opens it within the
//! workbook bounds of `docs/INPUT-CONTRACT.md` and reads the chosen sheets as `imr` does
//! (`imr_core::ingest::sheet::read_sheets`). It answers [`CsvEvent::Sheets`] when the workbook
//! has several sheets and no choice was given (the page shows its sheet picker), else
//! [`CsvEvent::Done`] with the sheets' tables encoded by [`encode_tables`] and the sheets left
//! out worded in each language, or [`CsvEvent::Failed`] naming file, sheet and row.

mod failure;

pub use failure::{check_size, CsvFailure, WordedFailure, MAX_FILE_BYTES};

use imr_core::ingest::RawTable;
use serde::{Deserialize, Serialize};

/// The `kind` field of the job message that asks the worker to read a CSV table; the message's
/// `file` field holds the `File` (posting a `File` passes a handle: the bytes are not copied).
pub const CSV_JOB_KIND: &str = "csv";

/// The `kind` field of the job message that asks the worker to read a spreadsheet's sheets;
/// the message's `file` field holds the `File`, its `choice` field the
/// [`imr_core::ingest::SheetChoice`] as JSON.
pub const SHEETS_JOB_KIND: &str = "sheets";

/// Bytes read per chunk (`File.slice` + `Blob.arrayBuffer()`): one progress event each.
pub const CSV_CHUNK_BYTES: u64 = 4 * 1024 * 1024;

/// What the worker tells the page about a CSV job, as JSON in the message's `event` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum CsvEvent {
    /// Bytes of the file read so far, of its size.
    Reading { bytes_read: u64, total_bytes: u64 },
    /// The whole file is read; the table is being parsed.
    Parsing { total_bytes: u64 },
    /// The table is parsed; its encoding ([`encode_table`]; a spreadsheet's tables,
    /// [`encode_tables`]) is the message's `table` field.
    Done {
        /// Milliseconds from the job's start to the encoded table (reading and parsing).
        worker_ms: u64,
        /// Length of the encoded table in bytes.
        encoded_bytes: u64,
        /// The sheets of a spreadsheet that were not read, each worded in both languages.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        left_out: Vec<WordedFailure>,
    },
    /// The spreadsheet has these sheets and no choice was given: the page asks which to read.
    Sheets { sheets: Vec<String> },
    /// The file cannot be read or parsed, or the worker ran out of memory: why, worded by the
    /// engine in every language the page speaks ([`CsvEvent::failed`]).
    Failed { failure: WordedFailure },
}

impl CsvEvent {
    /// The event that says why a job failed.
    pub fn failed(failure: &CsvFailure) -> CsvEvent {
        CsvEvent::Failed {
            failure: WordedFailure::of(failure),
        }
    }

    /// The event as the JSON text the worker posts.
    pub fn to_json(&self) -> String {
        // Serialising these plain variants cannot fail; an empty string would be reported by
        // the page as a protocol error rather than lost.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads an event the worker posted.
    pub fn from_json(text: &str) -> Result<CsvEvent, String> {
        serde_json::from_str(text)
            .map_err(|e| format!("the worker's message is not understood: {e}"))
    }
}

/// The table as the worker sends it to the page (postcard).
pub fn encode_table(table: &RawTable) -> Result<Vec<u8>, CsvFailure> {
    postcard::to_allocvec(table).map_err(|e| CsvFailure::Send {
        file: table.file.clone(),
        detail: e.to_string(),
    })
}

/// A spreadsheet's tables as the worker sends them to the page (postcard), in the order read.
pub fn encode_tables(tables: &[RawTable]) -> Result<Vec<u8>, CsvFailure> {
    postcard::to_allocvec(tables).map_err(|e| CsvFailure::Send {
        file: tables.first().map(|t| t.file.clone()).unwrap_or_default(),
        detail: e.to_string(),
    })
}

/// A spreadsheet's tables the worker sent ([`encode_tables`]), back into `RawTable`s.
pub fn decode_tables(bytes: &[u8]) -> Result<Vec<RawTable>, String> {
    postcard::from_bytes(bytes)
        .map_err(|e| format!("the tables from the worker cannot be read: {e}"))
}

/// Whether `bytes` more can be allocated now: reserved, then freed (the memory stays with the
/// allocator for what comes next: the page's table and its panel). In parts of at most 1 GiB,
/// because one allocation cannot exceed `isize::MAX` — 2 GiB on wasm32, half its memory: a
/// single reservation refused every table above 2 GiB / 10 ≈ 214 MB, memory left or not.
pub fn can_allocate(bytes: usize) -> bool {
    const PART: usize = 1 << 30;
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let mut left = bytes;
    while left > 0 {
        let part = left.min(PART);
        let mut reserved: Vec<u8> = Vec::new();
        if reserved.try_reserve_exact(part).is_err() {
            return false;
        }
        parts.push(reserved);
        left -= part;
    }
    true
}

/// The table the worker sent, back into a `RawTable`. The error does not name the upload: the
/// page's message around it does.
pub fn decode_table(bytes: &[u8]) -> Result<RawTable, String> {
    postcard::from_bytes(bytes)
        .map_err(|e| format!("the table from the worker cannot be read: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_amounts_can_be_allocated() {
        assert!(can_allocate(0));
        assert!(can_allocate(3 << 20));
        // Above one part: two reservations held together.
        assert!(can_allocate((1 << 30) + 1));
    }

    #[test]
    fn a_table_survives_the_trip_to_the_page() {
        let csv = "# source: test\ncodigo,anio,nacimientos,defunciones,x\n01101,2020,100,2,1.5E+03\n\n01101,2021,\"9\n9\",1,-2.5e-3\n";
        let table = RawTable::from_bytes("t.csv", csv.as_bytes()).unwrap();
        let back = decode_table(&encode_table(&table).unwrap()).unwrap();
        // RawTable has no PartialEq (its representation is free to change): compare the
        // serde JSON of both, which covers every serialised field.
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&table).unwrap()
        );
    }

    #[test]
    fn a_workbook_s_tables_survive_the_trip_to_the_page_in_order() {
        let a = RawTable::from_bytes("libro.xlsx [2010]", b"comuna,n\n1101,3\n").unwrap();
        let b = RawTable::from_bytes("libro.xlsx [2011]", b"comuna,n\n1101,4\n").unwrap();
        let back = decode_tables(&encode_tables(&[a, b]).unwrap()).unwrap();
        let names: Vec<&str> = back.iter().map(|t| t.file.as_str()).collect();
        assert_eq!(names, ["libro.xlsx [2010]", "libro.xlsx [2011]"]);
        assert!(decode_tables(b"\xff\xff").is_err());
    }

    #[test]
    fn a_truncated_or_foreign_encoding_is_an_error() {
        let table = RawTable::from_bytes("t.csv", b"a,b\n1,2\n").unwrap();
        let bytes = encode_table(&table).unwrap();
        let err = decode_table(&bytes[..bytes.len() / 2]).unwrap_err();
        assert!(
            err.starts_with("the table from the worker cannot be read: "),
            "{err}"
        );
        assert!(
            !err.contains("t.csv"),
            "the page's message names the file: {err}"
        );
        assert!(decode_table(b"").is_err());
    }

    #[test]
    fn events_read_back_as_posted() {
        for event in [
            CsvEvent::Reading {
                bytes_read: 4,
                total_bytes: 9,
            },
            CsvEvent::Parsing { total_bytes: 9 },
            CsvEvent::Done {
                worker_ms: 3,
                encoded_bytes: 7,
                left_out: vec![],
            },
            CsvEvent::Done {
                worker_ms: 3,
                encoded_bytes: 7,
                left_out: vec![WordedFailure {
                    es: "libro.xlsx: la hoja «Notas» no se leyó".into(),
                    en: "libro.xlsx: sheet \"Notas\" left out".into(),
                }],
            },
            CsvEvent::Sheets {
                sheets: vec!["2010".into(), "Hoja \"1\"".into()],
            },
            CsvEvent::failed(&CsvFailure::Unreadable {
                file: "x.csv".into(),
                detail: "\"quoted\"".into(),
            }),
            CsvEvent::failed(&CsvFailure::Ingest {
                error: imr_core::ingest::IngestError::Empty {
                    file: "x.csv".into(),
                },
            }),
        ] {
            assert_eq!(CsvEvent::from_json(&event.to_json()).unwrap(), event);
        }
        assert!(CsvEvent::from_json("{\"event\":\"nope\"}").is_err());
    }
}
