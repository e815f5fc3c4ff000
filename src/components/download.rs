//! Downloading text the page made (CSV, SVG, JSON) as a file, without any network request: a
//! `Blob` object URL clicked through a temporary link.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::Lang;
use crate::state::AppState;
use imr_core::{provenance, spreadsheet_csv};

/// Today's date in UTC (`YYYY-MM-DD`) from the browser's clock, the date line of every export
/// (the `imr` command writes the system's UTC date the same way).
pub fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.chars().take(10).collect()
}

/// The data source of every export: the loaded files' names, comma-separated (as `imr` names its
/// input files); a spreadsheet's sheets by their workbook's name, once.
pub fn data_source(state: &AppState) -> String {
    state.files.with_untracked(|files| {
        let mut names: Vec<&str> = Vec::with_capacity(files.len());
        for f in files {
            match &f.sheet {
                Some(origin) if names.contains(&origin.workbook.as_str()) => {}
                Some(origin) => names.push(&origin.workbook),
                None => names.push(&f.name),
            }
        }
        names.join(", ")
    })
}

/// The language of the page's CSV downloads: the page's own. The Spanish page writes the
/// spreadsheet CSV of a Chilean reader (`;`, decimal comma, byte-order mark, Spanish column names
/// and provenance: [`imr_core::spreadsheet_csv`], what `imr --csv-lang es` writes), the English
/// page the machine CSV. Read when a download is asked for, not tracked.
pub fn csv_lang() -> Lang {
    use_context::<RwSignal<Lang>>().map_or(Lang::En, |l| l.get_untracked())
}

/// A CSV export with its provenance lines (source, engine, date) in the page's language
/// ([`csv_lang`]), as `imr` writes it (with `--csv-lang es` on the Spanish page).
pub fn csv_with_provenance(state: &AppState, body: &str) -> String {
    csv_of_source(&data_source(state), body)
}

/// [`csv_with_provenance`] for files of another `source` than the loaded data (the microdata).
pub fn csv_of_source(source: &str, body: &str) -> String {
    spreadsheet_csv::with_csv_header_in(csv_lang(), source, &today(), body)
}

/// Offers a CSV export for download in the page's language ([`csv_with_provenance`]).
pub fn download_csv(state: &AppState, file_name: &str, body: &str) {
    download_text(file_name, "text/csv", &csv_with_provenance(state, body));
}

/// Offers the machine CSV (comma, decimal point, English column names) whatever the page's
/// language: the Models view's analysis data, which the R, Stata and `imr fit` code downloaded
/// beside it read by those names and in that form.
pub fn download_machine_csv(state: &AppState, file_name: &str, body: &str) {
    let csv = provenance::with_csv_header(&data_source(state), &today(), body);
    download_text(file_name, "text/csv", &csv);
}

/// The width a chart drawn now is shown at: the window's less the page's margins, within 320 and
/// 760 px (358 px on a 390 px phone).
pub fn shown_width() -> f64 {
    shown_width_up_to(760.0)
}

/// The width a chart that may fill the page's column (1,200 px less its margins) is shown at:
/// the window's less the page's margins, within 320 and `widest` px.
pub fn shown_width_up_to(widest: f64) -> f64 {
    let window_width = web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .unwrap_or(760.0);
    (window_width - 32.0).clamp(320.0, widest.max(320.0))
}

/// The caption of a chart drawn now: its texts in `lang`, the provenance line at its foot and
/// the width it is shown at ([`shown_width`]): a chart drawn at its own width (640 px) and
/// shrunk to a phone's showed its 11 px text at 6 px; a chart never grows past its own width.
pub fn chart_caption(state: &AppState, lang: Lang) -> imr_core::Caption {
    provenance::caption(lang, &data_source(state), &today()).with_width(shown_width())
}

/// Offers `contents` for download as `file_name` with the given MIME type.
pub fn download_text(file_name: &str, mime: &str, contents: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(contents));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) {
        download_blob(file_name, &blob);
    }
}

/// How long an object URL handed to a download stays valid. Revoking it right after `click()`
/// raced the browser's download manager, which resolves the URL asynchronously: on Chromium 156 a
/// session's eleventh download never started. FileSaver.js keeps its URLs for 40 s;
/// a minute costs only the blob's memory for that minute.
const OBJECT_URL_LIFETIME_MS: i32 = 60_000;

/// Offers a `Blob` for download as `file_name` through a temporary link in the document. The
/// object URL is revoked a minute later, never before the download has started.
pub fn download_blob(file_name: &str, blob: &web_sys::Blob) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return;
    };
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(anchor) = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        anchor.set_href(&url);
        anchor.set_download(file_name);
        let _ = anchor.set_attribute("hidden", "");
        let body = document.body();
        if let Some(body) = &body {
            let _ = body.append_child(&anchor);
        }
        anchor.click();
        anchor.remove();
    }
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            revoke.unchecked_ref(),
            OBJECT_URL_LIFETIME_MS,
        );
    }
}
