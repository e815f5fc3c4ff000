//! Starting the page's Web Worker (`imr-worker`), shared by the microdata section
//! (src/components/microdata/) and big CSV uploads (src/components/csv_upload/).
//!
//! The worker is started from a `blob:` URL (CSP `worker-src blob:`) made of its wasm-bindgen
//! glue; the glue and wasm come from the page's own files (`imr-worker.js`,
//! `imr-worker_bg.wasm`) or, in the single-file build, from base64 `<script>` blocks embedded by
//! scripts/single-file.mjs (no fetch is possible from `file://`), read as the page's other
//! assets are (src/assets.rs). The page posts the wasm bytes
//! as the first message; the job follows as the second.

use crate::assets::{embedded, fetch_body};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A running worker with the handlers it calls (dropped, so released, with it). Each user keeps
/// its own in a `thread_local` and terminates it on Cancel or when done.
pub struct RunningWorker {
    pub worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl RunningWorker {
    /// Stops the worker at once (its memory is released by the browser).
    pub fn terminate(self) {
        self.worker.terminate();
    }
}

thread_local! {
    /// The worker's glue and wasm, loaded once.
    static ASSETS: RefCell<Option<(String, js_sys::Uint8Array)>> = const { RefCell::new(None) };
}

/// The worker's glue and wasm: embedded in the single file, else the page's own files.
async fn worker_assets() -> Result<(String, js_sys::Uint8Array), String> {
    if let Some(assets) = ASSETS.with(|a| a.borrow().clone()) {
        return Ok(assets);
    }
    let assets = match (embedded("imr-worker-js"), embedded("imr-worker-wasm")) {
        (Some(js), Some(wasm)) => (
            String::from_utf8(js).map_err(|e| e.to_string())?,
            js_sys::Uint8Array::from(wasm.as_slice()),
        ),
        _ => {
            let js = fetch_body("./imr-worker.js", web_sys::Response::text)
                .await?
                .as_string()
                .unwrap_or_default();
            let wasm = fetch_body("./imr-worker_bg.wasm", web_sys::Response::array_buffer).await?;
            (js, js_sys::Uint8Array::new(&wasm))
        }
    };
    ASSETS.with(|a| *a.borrow_mut() = Some(assets.clone()));
    Ok(assets)
}

/// The glue followed by a first-message handler that instantiates the wasm from the bytes the
/// page posts; the binary's `main` then installs the job handler. A trap inside the job's async
/// task (running out of memory aborts the wasm) surfaces in the worker as an unhandled promise
/// rejection, which the page would never hear of: it is thrown again from a timer, so that it
/// reaches the page as the worker's `error` event.
fn worker_script(glue: &str) -> String {
    format!(
        "{glue}\n;self.onmessage = (event) => {{ self.onmessage = null; wasm_bindgen.initSync({{ module: event.data }}); }};\n\
         self.addEventListener('unhandledrejection', (event) => {{ const reason = event.reason; setTimeout(() => {{ throw (reason instanceof Error ? reason : new Error(String(reason))); }}); }});\n"
    )
}

/// Starts a worker, posts it its wasm and then `job`; its messages go to `on_message` and its
/// error events (an uncaught trap, such as running out of memory) to `on_error` with the
/// browser's message.
pub async fn spawn_worker(
    job: &JsValue,
    on_message: impl FnMut(web_sys::MessageEvent) + 'static,
    on_error: impl FnMut(String) + 'static,
) -> Result<RunningWorker, String> {
    let (glue, wasm) = worker_assets().await?;
    let parts = js_sys::Array::of1(&JsValue::from_str(&worker_script(&glue)));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag)
        .map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let worker = web_sys::Worker::new(&url).map_err(|e| format!("{e:?}"))?;
    let _ = web_sys::Url::revoke_object_url(&url);
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(on_message);
    let mut on_error = on_error;
    let on_error =
        Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |event: web_sys::ErrorEvent| {
            on_error(event.message());
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let running = RunningWorker {
        worker,
        _on_message: on_message,
        _on_error: on_error,
    };
    let posted = running
        .worker
        .post_message(&wasm)
        .and_then(|()| running.worker.post_message(job));
    if let Err(e) = posted {
        running.terminate();
        return Err(format!("{e:?}"));
    }
    Ok(running)
}
