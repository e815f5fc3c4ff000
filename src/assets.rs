//! The page's own files that are not code: the bundled dataset and boundaries, and the microdata
//! worker's glue and wasm (src/components/worker.rs).
//!
//! They are not compiled into the page's wasm, so that the wasm a phone downloads before the
//! first screen carries only code (issue 43): trunk copies `public/data/` to `dist/data/` and
//! the page fetches them from there (CSP `connect-src 'self'`) the first time they are needed,
//! once per page. The single-file build (scripts/single-file.mjs) embeds each as a base64
//! `<script type="application/octet-stream">` block, because a `file://` page can fetch
//! nothing; a block present is read instead of a fetch.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// One of the page's data files: where it is served and the id of its block in the single file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// Path relative to the page (`./data/…`, as trunk copies `public/data/`).
    pub path: &'static str,
    /// Id of its base64 block in the single-file build (scripts/single-file.mjs writes it).
    pub block_id: &'static str,
}

/// The bundled panel, `public/data/chile_imr_2001_2021.csv`.
pub const BUNDLED_PANEL: Asset = Asset {
    path: "./data/chile_imr_2001_2021.csv",
    block_id: "imr-data-panel",
};

/// The bundled boundaries, `public/data/comunas.topojson`.
pub const BUNDLED_BOUNDARIES: Asset = Asset {
    path: "./data/comunas.topojson",
    block_id: "imr-data-boundaries",
};

thread_local! {
    /// Each asset's bytes, read once per page.
    static LOADED: RefCell<BTreeMap<&'static str, Rc<[u8]>>> = const { RefCell::new(BTreeMap::new()) };
}

/// The asset's bytes when they have already been read (no wait).
pub fn cached(asset: Asset) -> Option<Rc<[u8]>> {
    LOADED.with(|l| l.borrow().get(asset.path).cloned())
}

/// The asset's bytes: its embedded block in the single file, else the page's own file. The
/// error names the file and what the browser said.
pub async fn load(asset: Asset) -> Result<Rc<[u8]>, String> {
    if let Some(bytes) = cached(asset) {
        return Ok(bytes);
    }
    let bytes: Rc<[u8]> = match embedded(asset.block_id) {
        Some(bytes) => bytes.into(),
        None => {
            let body = fetch_body(asset.path, web_sys::Response::array_buffer).await?;
            js_sys::Uint8Array::new(&body).to_vec().into()
        }
    };
    LOADED.with(|l| l.borrow_mut().insert(asset.path, bytes.clone()));
    Ok(bytes)
}

/// Base64 text of an embedded `<script type="application/octet-stream">` block, decoded.
pub fn embedded(id: &str) -> Option<Vec<u8>> {
    let window = web_sys::window()?;
    let text = window.document()?.get_element_by_id(id)?.text_content()?;
    let binary = window.atob(text.trim()).ok()?;
    Some(binary.chars().map(|c| c as u8).collect())
}

async fn fetch_response(path: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|e| format!("{path}: {e:?}"))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("{path}: HTTP {}", response.status()));
    }
    Ok(response)
}

/// The body of the page's file `path`, read by `read` (`Response::text`, `::array_buffer`).
pub async fn fetch_body(
    path: &str,
    read: fn(&web_sys::Response) -> Result<js_sys::Promise, JsValue>,
) -> Result<JsValue, String> {
    let body = read(&fetch_response(path).await?).map_err(|e| format!("{path}: {e:?}"))?;
    JsFuture::from(body)
        .await
        .map_err(|e| format!("{path}: {e:?}"))
}
