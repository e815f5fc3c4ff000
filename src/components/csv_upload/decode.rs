//! The table the worker sent, decoded on the page's thread once its memory can hold it.

use super::UploadFailure;
use imr_core::ingest::RawTable;
use imr_worker::decode_table;
use wasm_bindgen::prelude::*;

/// The page's memory a table needs, as a multiple of its encoding from the worker: measured in
/// headless Chromium (bench/RESULTS.md, "Big files"; the check lowered to 3× for the measurement), a
/// generated numeric panel's table (its text and a length per record) and its panel, rebuilt
/// three times by role changes, took the page's wasm memory to 3.9× the encoding for 100 and
/// 400 MB files and 4.25× for 200 MB (it creeps up as panels are rebuilt). The check asks for
/// 5× before decoding, so a table whose panel would not fit in wasm32's 4 GiB is refused with a
/// message instead of stopping the page. (Re-measure when the table's representation changes:
/// with a span and field ends per record it was 9.9×.)
const PEAK_PER_ENCODED_BYTE: usize = 5;

/// The table the worker sent, decoded; first checks that the page's memory can grow enough
/// for it and its panel ([`imr_worker::can_allocate`]), so a table too big is a message instead
/// of an abort.
pub(super) fn decode_received(name: &str, table: &JsValue) -> Result<RawTable, UploadFailure> {
    decode_with(name, table, decode_table)
}

/// A spreadsheet's tables the worker sent, decoded after the same memory check.
pub(super) fn decode_received_tables(
    name: &str,
    tables: &JsValue,
) -> Result<Vec<RawTable>, UploadFailure> {
    decode_with(name, tables, imr_worker::decode_tables)
}

fn decode_with<T>(
    name: &str,
    table: &JsValue,
    decode: fn(&[u8]) -> Result<T, String>,
) -> Result<T, UploadFailure> {
    let page_failed = |detail: String| UploadFailure::Page {
        name: name.to_owned(),
        detail,
    };
    let array: js_sys::Uint8Array = table
        .clone()
        .dyn_into()
        .map_err(|_| page_failed("no table".to_owned()))?;
    let len = array.length() as usize;
    let no_memory = || UploadFailure::NoMemory {
        name: name.to_owned(),
        bytes: len as u64,
    };
    if !imr_worker::can_allocate(len.saturating_mul(PEAK_PER_ENCODED_BYTE)) {
        return Err(no_memory());
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| no_memory())?;
    bytes.resize(len, 0);
    array.copy_to(&mut bytes);
    decode(&bytes).map_err(page_failed)
}
