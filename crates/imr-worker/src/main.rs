//! imr-worker: the page's Web Worker. The page (src/components/microdata/) starts it from a
//! `blob:` URL made of this binary's wasm-bindgen glue (`no-modules`), posts the wasm bytes as
//! the first message and the job as the second: `{options: JobOptions as JSON, deaths: File?,
//! births: File?}`. The worker reads each file in chunks with `File.slice` and
//! `Blob.arrayBuffer()` (never the whole file at once; the browser reads the next chunk while
//! this one is parsed), feeds imr-microdata's streaming aggregators through
//! [`imr_microdata::Job`], and posts a JSON [`imr_microdata::WorkerEvent`] after every chunk and
//! one at the end. Cancelling is the page terminating the worker.

#[cfg(target_arch = "wasm32")]
mod worker;

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::install();
}
