//! The table the worker sent, decoded on the page's thread once its memory can hold it.

use crate::i18n::{format_number, Lang};
use crate::messages::messages;
use imr_core::ingest::RawTable;
use imr_worker::decode_table;
use wasm_bindgen::prelude::*;

/// The page's memory a table needs, as a multiple of its encoding from the worker: measured in
/// headless Chromium (README, "Big files"), a 400 MB numeric panel (412 MB encoded) took the
/// page's wasm memory to 2,945 MiB once loaded and 3,884 MiB once its panel was rebuilt after
/// a role change, 9.9× the encoding. The check asks for 10× before decoding, so a table whose
/// panel would not fit in wasm32's 4 GiB is refused with a message instead of stopping the page.
/// (Re-measure when the table's representation changes.)
const PEAK_PER_ENCODED_BYTE: usize = 10;

/// The table the worker sent, decoded; first checks that the page's memory can grow enough
/// for it and its panel (`try_reserve`), so a table too big is a message instead of an abort.
pub(super) fn decode_received(
    name: &str,
    table: &JsValue,
    language: Lang,
) -> Result<RawTable, String> {
    let array: js_sys::Uint8Array = table
        .clone()
        .dyn_into()
        .map_err(|_| format!("{name}: the background reader sent no table"))?;
    let len = array.length() as usize;
    let no_memory = || {
        (messages(language).upload.no_memory)(name, &format_number(language, len as f64 / 1e6, 1))
    };
    {
        // Freed at once, the memory stays with the page's allocator for the table and panel.
        let mut probe: Vec<u8> = Vec::new();
        probe
            .try_reserve_exact(len.saturating_mul(PEAK_PER_ENCODED_BYTE))
            .map_err(|_| no_memory())?;
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| no_memory())?;
    bytes.resize(len, 0);
    array.copy_to(&mut bytes);
    decode_table(name, &bytes)
}
