//! Big CSV uploads read off the page's thread: a file larger than
//! [`WORKER_THRESHOLD_BYTES`] is posted (as a `File` handle: no copy) to the `imr-worker` Web
//! Worker, which reads it in chunks, parses it with the same reader as the synchronous path
//! (`RawTable::from_bytes`) and sends the table back encoded (crates/imr-worker/src/lib.rs),
//! its buffer transferred. Meanwhile the page shows a progress bar and a Cancel button; Cancel
//! terminates the worker and leaves the loaded data as they were. A worker that fails or runs
//! out of memory is reported as the file's error; the page goes on.
//!
//! A spreadsheet, whatever its size, is read by the same worker ([`read_workbook`]): the page's
//! main wasm has no spreadsheet reader. It answers the workbook's sheets when it has several
//! and no choice was given (the Data view's sheet picker asks), else the chosen sheets' tables.
//!
//! Components: [`decode`] (the table received, after a memory check), [`progress`] (the
//! progress bar, Cancel, and the outcome).

mod decode;
mod progress;
mod workbook;

pub use progress::UploadProgress;
pub use workbook::{read_workbook, WorkbookRead};

use crate::components::worker::{spawn_worker, RunningWorker};
use crate::i18n::{format_number, Lang};
use crate::messages::messages;
use decode::decode_received;
use imr_core::ingest::{RawTable, SheetChoice};
use imr_worker::{CsvEvent, WordedFailure, CSV_JOB_KIND, SHEETS_JOB_KIND};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Files larger than this (4 MiB) are parsed in the worker; smaller ones on the page's thread,
/// where they take well under a second (bench/RESULTS.md, "Big files"). One constant, so the threshold and
/// the tests that cross it agree.
pub const WORKER_THRESHOLD_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// Where a big upload stands.
#[derive(Debug, Clone, PartialEq)]
pub enum UploadStatus {
    Idle,
    /// The worker is reading the file.
    Reading {
        name: String,
        bytes_read: u64,
        total_bytes: u64,
    },
    /// The file is read; the worker is parsing it.
    Parsing {
        name: String,
        total_bytes: u64,
    },
    /// The table arrived and is being decoded on the page's thread.
    Receiving {
        name: String,
        total_bytes: u64,
    },
    /// The table is loaded: how long the worker took and the decoding here.
    Done {
        name: String,
        total_bytes: u64,
        worker_ms: u64,
        decode_ms: u64,
    },
    /// Cancelled by the user: nothing was loaded.
    Cancelled {
        name: String,
    },
    /// The worker or the page could not read the file: nothing was loaded from it.
    Failed(UploadFailure),
}

/// Why a big upload gave no table: a value, worded in the page's language where it is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum UploadFailure {
    /// The worker said why (it cannot read or parse the file, or its memory ran out), in both
    /// languages.
    Worker(WordedFailure),
    /// The page's memory cannot hold the table the worker sent (`bytes` of it).
    NoMemory { name: String, bytes: u64 },
    /// The worker stopped without a word (an uncaught trap: in practice its memory ran out).
    ReaderStopped { name: String, detail: String },
    /// The worker could not be started or answered what the page does not understand.
    Page { name: String, detail: String },
}

impl UploadFailure {
    pub fn text(&self, lang: Lang) -> String {
        let texts = &messages(lang).upload;
        match self {
            UploadFailure::Worker(failure) => failure.text(lang).to_owned(),
            UploadFailure::NoMemory { name, bytes } => {
                (texts.no_memory)(name, &format_number(lang, *bytes as f64 / 1e6, 1))
            }
            UploadFailure::ReaderStopped { name, detail } => (texts.reader_stopped)(name, detail),
            UploadFailure::Page { name, detail } => (texts.page_failed)(name, detail),
        }
    }
}

/// The status of the big upload, provided through context by the Data view.
#[derive(Clone, Copy)]
pub struct CsvUpload {
    pub status: RwSignal<UploadStatus>,
}

impl CsvUpload {
    pub fn new() -> Self {
        CsvUpload {
            status: RwSignal::new(UploadStatus::Idle),
        }
    }
}

/// Why a worker parse gave no table.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    Cancelled,
    Failed(UploadFailure),
}

/// The running CSV worker and the function that settles its promise with a rejection (Cancel).
struct Running {
    worker: RunningWorker,
    reject: js_sys::Function,
    generation: u64,
}

thread_local! {
    static CSV_WORKER: RefCell<Option<Running>> = const { RefCell::new(None) };
    /// Counts parses started: a parse superseded by a newer one no longer writes the status.
    static GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The Cancel button: stops the running parse (even one whose worker is still starting) and
/// says so; the loaded data are left as they were.
pub fn cancel_upload(status: RwSignal<UploadStatus>) {
    let name = match status.get_untracked() {
        UploadStatus::Reading { name, .. }
        | UploadStatus::Parsing { name, .. }
        | UploadStatus::Receiving { name, .. } => name,
        _ => return,
    };
    GENERATION.with(|g| g.set(g.get() + 1));
    cancel();
    status.set(UploadStatus::Cancelled { name });
}

/// Terminates the running CSV worker, if any; its pending parse ends as [`Stop::Cancelled`].
fn cancel() {
    if let Some(running) = CSV_WORKER.with(|w| w.borrow_mut().take()) {
        running.worker.terminate();
        let _ = running.reject.call1(&JsValue::NULL, &JsValue::NULL);
    }
}

/// The status signal as one parse may write it: only while it is the latest.
#[derive(Clone, Copy)]
struct Status {
    status: RwSignal<UploadStatus>,
    generation: u64,
}

impl Status {
    fn set(self, value: UploadStatus) {
        if GENERATION.with(|g| g.get()) == self.generation {
            self.status.set(value);
        }
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Parses `file` in the worker, reporting progress in `status`; a parse already running is
/// cancelled first.
pub async fn parse_in_worker(file: &web_sys::File, upload: CsvUpload) -> Result<RawTable, Stop> {
    let answer = run_job(file, upload, None).await?;
    let received = answer.received.clone();
    answer.finish(|| decode_received(&file.name(), &received))
}

/// A job's answer: the file's name and size, the status as this job may write it, the encoded
/// tables, the event that settled the job (Done or Sheets) and the worker's time.
struct Answer {
    name: String,
    total_bytes: u64,
    status: Status,
    received: JsValue,
    event: Option<CsvEvent>,
    worker_ms: u64,
}

/// Runs one job in the worker: a CSV table, or (`choice` given) a spreadsheet's sheets.
async fn run_job(
    file: &web_sys::File,
    upload: CsvUpload,
    choice: Option<&SheetChoice>,
) -> Result<Answer, Stop> {
    let status = upload.status;
    cancel();
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    let status = Status { status, generation };
    let name = file.name();
    let total_bytes = file.size() as u64;
    status.set(UploadStatus::Reading {
        name: name.clone(),
        bytes_read: 0,
        total_bytes,
    });
    let page_failed = |detail: String| {
        Stop::Failed(UploadFailure::Page {
            name: name.clone(),
            detail,
        })
    };
    // The promise settles with the encoded table (Uint8Array), or is rejected: with null on
    // Cancel, with `true` on a failure the callbacks put in `failure` first.
    let mut settle: Option<(js_sys::Function, js_sys::Function)> = None;
    let promise = js_sys::Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
    let Some((resolve, reject)) = settle else {
        return Err(page_failed("Promise".to_owned()));
    };
    let failure: Rc<RefCell<Option<UploadFailure>>> = Rc::default();
    // The event that settled the job (Done or Sheets).
    let answer: Rc<RefCell<Option<CsvEvent>>> = Rc::default();
    let fail = {
        let (failure, reject) = (failure.clone(), reject.clone());
        move |why: UploadFailure| {
            failure.borrow_mut().get_or_insert(why);
            let _ = reject.call1(&JsValue::NULL, &JsValue::TRUE);
        }
    };
    let on_message = {
        let (name, resolve, fail) = (name.clone(), resolve.clone(), fail.clone());
        let answer = answer.clone();
        move |message: web_sys::MessageEvent| {
            let data = message.data();
            let text = js_sys::Reflect::get(&data, &"event".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            match CsvEvent::from_json(&text) {
                Ok(CsvEvent::Reading {
                    bytes_read,
                    total_bytes,
                }) => status.set(UploadStatus::Reading {
                    name: name.clone(),
                    bytes_read,
                    total_bytes,
                }),
                Ok(CsvEvent::Parsing { total_bytes }) => status.set(UploadStatus::Parsing {
                    name: name.clone(),
                    total_bytes,
                }),
                Ok(event @ CsvEvent::Done { worker_ms, .. }) => {
                    let table = js_sys::Reflect::get(&data, &"table".into()).unwrap_or_default();
                    let result = js_sys::Array::of2(&table, &JsValue::from_f64(worker_ms as f64));
                    *answer.borrow_mut() = Some(event);
                    let _ = resolve.call1(&JsValue::NULL, &result);
                }
                Ok(event @ CsvEvent::Sheets { .. }) => {
                    *answer.borrow_mut() = Some(event);
                    let result = js_sys::Array::of2(&JsValue::UNDEFINED, &JsValue::from_f64(0.0));
                    let _ = resolve.call1(&JsValue::NULL, &result);
                }
                Ok(CsvEvent::Failed { failure }) => fail(UploadFailure::Worker(failure)),
                Err(detail) => fail(UploadFailure::Page {
                    name: name.clone(),
                    detail,
                }),
            }
        }
    };
    let on_error = {
        let name = name.clone();
        move |detail: String| {
            fail(UploadFailure::ReaderStopped {
                name: name.clone(),
                detail,
            })
        }
    };
    let job = js_sys::Object::new();
    let kind = match choice {
        None => CSV_JOB_KIND,
        Some(choice) => {
            let json = serde_json::to_string(choice).unwrap_or_default();
            let _ = js_sys::Reflect::set(&job, &"choice".into(), &json.into());
            SHEETS_JOB_KIND
        }
    };
    let _ = js_sys::Reflect::set(&job, &"kind".into(), &kind.into());
    let _ = js_sys::Reflect::set(&job, &"file".into(), file);
    let worker = spawn_worker(&job, on_message, on_error)
        .await
        .map_err(|e| page_failed(e.to_string()))?;
    if GENERATION.with(|g| g.get()) != generation {
        // Cancelled while the worker was starting.
        worker.terminate();
        return Err(Stop::Cancelled);
    }
    CSV_WORKER.with(|w| {
        *w.borrow_mut() = Some(Running {
            worker,
            reject: reject.clone(),
            generation,
        })
    });
    let settled = JsFuture::from(promise).await;
    // This parse's worker, unless Cancel (or a newer upload) has already taken it.
    let own = CSV_WORKER.with(|w| {
        let mut w = w.borrow_mut();
        match w.as_ref() {
            Some(running) if running.generation == generation => w.take(),
            _ => None,
        }
    });
    if let Some(running) = own {
        running.worker.terminate();
    }
    let result = match settled {
        Ok(result) => result,
        // Cancel rejects with null (and has said so in the status).
        Err(reason) if reason.is_null() => return Err(Stop::Cancelled),
        Err(reason) => {
            status.set(UploadStatus::Idle);
            let why = failure.borrow_mut().take();
            return Err(match why {
                Some(why) => Stop::Failed(why),
                None => page_failed(format!("{reason:?}")),
            });
        }
    };
    let result: js_sys::Array = result.unchecked_into();
    let worker_ms = result.get(1).as_f64().unwrap_or(0.0) as u64;
    let event = answer.borrow_mut().take();
    Ok(Answer {
        name,
        total_bytes,
        status,
        received: result.get(0),
        event,
        worker_ms,
    })
}

impl Answer {
    /// Decodes what the worker sent (`decode`), timing it, and says so in the status.
    fn finish<T>(self, decode: impl FnOnce() -> Result<T, UploadFailure>) -> Result<T, Stop> {
        let Answer {
            name,
            total_bytes,
            status,
            worker_ms,
            ..
        } = self;
        status.set(UploadStatus::Receiving {
            name: name.clone(),
            total_bytes,
        });
        let started = now_ms();
        let table = decode();
        let decode_ms = (now_ms() - started).max(0.0) as u64;
        match table {
            Ok(table) => {
                status.set(UploadStatus::Done {
                    name,
                    total_bytes,
                    worker_ms,
                    decode_ms,
                });
                Ok(table)
            }
            Err(why) => {
                status.set(UploadStatus::Idle);
                Err(Stop::Failed(why))
            }
        }
    }
}
