use imr_core::ingest::RawTable;
use imr_microdata::{FileKind, Job, JobFailure, JobOptions, WorkerEvent};
use imr_worker::{
    check_size, encode_table, CsvEvent, CsvFailure, CSV_CHUNK_BYTES, CSV_JOB_KIND, SHEETS_JOB_KIND,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, File, MessageEvent};

fn field(data: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(data, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

fn post(scope: &DedicatedWorkerGlobalScope, event: &WorkerEvent) {
    let json = serde_json::to_string(event).unwrap_or_default();
    let _ = scope.post_message(&JsValue::from_str(&json));
}

/// Starts reading bytes `offset..offset + len` of `file` (`Blob.slice` + `arrayBuffer()`); the
/// read goes on in the browser while the previous chunk is parsed here.
/// Its error says which bytes, not which file: the caller's message names the file.
fn read_chunk(file: &File, offset: u64, len: u64) -> Result<JsFuture, String> {
    let end = (offset + len).min(file.size() as u64);
    let blob = file
        .slice_with_f64_and_f64(offset as f64, end as f64)
        .map_err(|e| format!("bytes {offset}–{end}: {e:?}"))?;
    Ok(JsFuture::from(blob.array_buffer()))
}

/// How many chunk reads are in flight while one is parsed.
const READ_AHEAD: usize = 2;

/// A file's chunks of `chunk` bytes, in order, read ahead: the next [`READ_AHEAD`] reads go on
/// in the browser while the caller works on the chunk it has.
struct ReadAhead<'a> {
    file: &'a File,
    size: u64,
    chunk: u64,
    /// Reads in flight, oldest first.
    pending: std::collections::VecDeque<JsFuture>,
    /// Bytes asked for so far.
    requested: u64,
}

impl<'a> ReadAhead<'a> {
    /// Nothing is read until [`ReadAhead::next`].
    fn new(file: &'a File, size: u64, chunk: u64) -> ReadAhead<'a> {
        ReadAhead {
            file,
            size,
            chunk,
            pending: std::collections::VecDeque::with_capacity(READ_AHEAD),
            requested: 0,
        }
    }

    /// The next chunk, `None` after the last. Its error is the browser's, as a detail: the
    /// caller's message names the file.
    async fn next(&mut self) -> Result<Option<js_sys::Uint8Array>, String> {
        while self.pending.len() < READ_AHEAD && self.requested < self.size {
            self.pending
                .push_back(read_chunk(self.file, self.requested, self.chunk)?);
            self.requested = (self.requested + self.chunk).min(self.size);
        }
        let Some(next) = self.pending.pop_front() else {
            return Ok(None);
        };
        let bytes = next.await.map_err(|e| format!("{e:?}"))?;
        Ok(Some(js_sys::Uint8Array::new(&bytes)))
    }
}

/// Milliseconds since this call on the worker's clock (`performance.now()`; always 0 without
/// one).
fn stopwatch(scope: &DedicatedWorkerGlobalScope) -> impl Fn() -> f64 {
    let performance = scope.performance();
    let now = move || performance.as_ref().map_or(0.0, |p| p.now());
    let started = now();
    move || now() - started
}

/// Streams one file through the job: one chunk parsed while the next [`READ_AHEAD`] are read
/// (memory bounded by `READ_AHEAD + 1` chunks), a progress event after every chunk.
async fn stream(
    scope: &DedicatedWorkerGlobalScope,
    job: &mut Job,
    kind: FileKind,
    file: &File,
    elapsed: &dyn Fn() -> f64,
) -> Result<(), WorkerEvent> {
    let failed = |failure: JobFailure| WorkerEvent::Failed {
        file: Some(kind),
        failure,
    };
    let unreadable = |detail: String| {
        failed(JobFailure::Unreadable {
            file: file.name(),
            detail,
        })
    };
    let size = file.size() as u64;
    let chunk = job.chunk_bytes() as u64;
    job.start_file(kind, &file.name(), size);
    let mut buffer: Vec<u8> = Vec::with_capacity(chunk as usize);
    let mut chunks = ReadAhead::new(file, size, chunk);
    let mut offset = 0u64;
    while let Some(view) = chunks.next().await.map_err(unreadable)? {
        let n = view.length() as u64;
        if n == 0 {
            return Err(failed(JobFailure::EndedEarly {
                file: file.name(),
                at: offset,
                size,
            }));
        }
        offset += n;
        buffer.resize(n as usize, 0);
        view.copy_to(&mut buffer);
        post(scope, &job.push(&buffer, elapsed())?);
    }
    job.finish_file()
}

/// Posts a CSV job's event, with the encoded table when there is one (its buffer transferred,
/// not copied).
fn post_csv(
    scope: &DedicatedWorkerGlobalScope,
    event: &CsvEvent,
    table: Option<js_sys::Uint8Array>,
    file: &str,
) {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"event".into(), &event.to_json().into());
    let result = match table {
        Some(table) => {
            let _ = js_sys::Reflect::set(&message, &"table".into(), &table);
            scope.post_message_with_transfer(&message, &js_sys::Array::of1(&table.buffer()))
        }
        None => scope.post_message(&message),
    };
    if let Err(e) = result {
        let failed = CsvEvent::failed(&CsvFailure::Send {
            file: file.to_owned(),
            detail: format!("{e:?}"),
        });
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"event".into(), &failed.to_json().into());
        let _ = scope.post_message(&message);
    }
}

/// Reads a whole file in chunks (the next [`READ_AHEAD`] read while one is copied), posting
/// [`CsvEvent::Reading`] after each and [`CsvEvent::Parsing`] once read whole. The buffer is reserved up front with `try_reserve_exact`,
/// so a file too large for the worker's memory is a message, not an abort.
async fn read_whole(
    scope: &DedicatedWorkerGlobalScope,
    file: &File,
) -> Result<Vec<u8>, CsvFailure> {
    let name = file.name();
    let size = file.size() as u64;
    let capacity = check_size(&name, size)?;
    let mut bytes: Vec<u8> = Vec::new();
    bytes
        .try_reserve_exact(capacity)
        .map_err(|_| CsvFailure::NoMemory {
            file: name.clone(),
            bytes: size,
        })?;
    let unreadable = |detail: String| CsvFailure::Unreadable {
        file: name.clone(),
        detail,
    };
    let mut chunks = ReadAhead::new(file, size, CSV_CHUNK_BYTES);
    while let Some(view) = chunks.next().await.map_err(unreadable)? {
        let n = view.length() as usize;
        // A file that shrank (no bytes) or grew (more than reserved) while read: never a
        // reallocation past the memory checked above.
        if n == 0 || bytes.len() + n > capacity {
            return Err(CsvFailure::Changed {
                file: name.clone(),
                at: bytes.len() as u64,
                size,
            });
        }
        let start = bytes.len();
        bytes.resize(start + n, 0);
        view.copy_to(&mut bytes[start..]);
        post_csv(
            scope,
            &CsvEvent::Reading {
                bytes_read: bytes.len() as u64,
                total_bytes: size,
            },
            None,
            &name,
        );
    }
    // Read whole: parsing begins.
    post_csv(
        scope,
        &CsvEvent::Parsing {
            total_bytes: bytes.len() as u64,
        },
        None,
        &name,
    );
    Ok(bytes)
}

/// Reads a CSV upload into a table and posts it encoded, or posts why it cannot.
async fn handle_csv(scope: DedicatedWorkerGlobalScope, data: JsValue) {
    let Some(file) = field(&data, "file").and_then(|v| v.dyn_into::<File>().ok()) else {
        return post_csv(&scope, &CsvEvent::failed(&CsvFailure::NoFile), None, "");
    };
    let name = file.name();
    let fail = |failure: CsvFailure| post_csv(&scope, &CsvEvent::failed(&failure), None, &name);
    let elapsed = stopwatch(&scope);
    let bytes = match read_whole(&scope, &file).await {
        Ok(bytes) => bytes,
        Err(failure) => return fail(failure),
    };
    // The bytes become the table's text (no copy of the file).
    let encoded = match RawTable::from_vec(&name, bytes)
        .map_err(|error| CsvFailure::Ingest { error })
        .and_then(|t| encode_table(&t))
    {
        Ok(encoded) => encoded,
        Err(failure) => return fail(failure),
    };
    let array = js_sys::Uint8Array::new_with_length(encoded.len() as u32);
    array.copy_from(&encoded);
    let done = CsvEvent::Done {
        worker_ms: elapsed().max(0.0) as u64,
        encoded_bytes: encoded.len() as u64,
        left_out: Vec::new(),
    };
    drop(encoded);
    post_csv(&scope, &done, Some(array), &name);
}

/// Reads a spreadsheet and posts the tables of the sheets the job's `choice` chooses (or its
/// sheets, when it has several and no choice was given), or why it cannot: the workbook bounds
/// and messages of `imr` (imr-core's `sheets` feature).
#[cfg(feature = "sheets")]
async fn handle_sheets(scope: DedicatedWorkerGlobalScope, data: JsValue) {
    use imr_core::ingest::sheet::{read_sheets, SheetsRead, Workbook, MAX_WORKBOOK_BYTES};
    use imr_core::ingest::{IngestError, SheetChoice};
    use imr_worker::{encode_tables, WordedFailure};
    let Some(file) = field(&data, "file").and_then(|v| v.dyn_into::<File>().ok()) else {
        return post_csv(&scope, &CsvEvent::failed(&CsvFailure::NoFile), None, "");
    };
    let name = file.name();
    let fail = |failure: CsvFailure| post_csv(&scope, &CsvEvent::failed(&failure), None, &name);
    let ingest = |error: IngestError| CsvFailure::Ingest { error };
    let choice: SheetChoice = match field(&data, "choice")
        .and_then(|v| v.as_string())
        .map(|text| serde_json::from_str(&text))
    {
        Some(Ok(choice)) => choice,
        None => SheetChoice::Unspecified,
        Some(Err(e)) => {
            return fail(CsvFailure::Send {
                file: name.clone(),
                detail: format!("the sheet choice: {e}"),
            })
        }
    };
    let size = file.size() as u64;
    if size > MAX_WORKBOOK_BYTES {
        // Refused before a byte is read: the bound `Workbook::open` checks.
        return fail(ingest(IngestError::Workbook {
            file: name.clone(),
            sheet: None,
            why: Box::new(imr_core::ingest::Workbook::FileTooLarge {
                bytes: size,
                max_bytes: MAX_WORKBOOK_BYTES,
            }),
        }));
    }
    let elapsed = stopwatch(&scope);
    let bytes = match read_whole(&scope, &file).await {
        Ok(bytes) => bytes,
        Err(failure) => return fail(failure),
    };
    let read = Workbook::open(&name, bytes).and_then(|mut book| read_sheets(&mut book, &choice));
    let (tables, left_out) = match read {
        Ok(SheetsRead::Choose { sheets }) => {
            return post_csv(&scope, &CsvEvent::Sheets { sheets }, None, &name)
        }
        Ok(SheetsRead::Tables { tables, left_out }) => (tables, left_out),
        Err(error) => return fail(ingest(error)),
    };
    let encoded = match encode_tables(&tables) {
        Ok(encoded) => encoded,
        Err(failure) => return fail(failure),
    };
    drop(tables);
    let array = js_sys::Uint8Array::new_with_length(encoded.len() as u32);
    array.copy_from(&encoded);
    let done = CsvEvent::Done {
        worker_ms: elapsed().max(0.0) as u64,
        encoded_bytes: encoded.len() as u64,
        left_out: left_out
            .iter()
            .map(|l| WordedFailure {
                es: l.text(imr_core::Lang::Es),
                en: l.text(imr_core::Lang::En),
            })
            .collect(),
    };
    drop(encoded);
    post_csv(&scope, &done, Some(array), &name);
}

/// Without imr-core's `sheets` feature the worker reads no spreadsheet: it says so.
#[cfg(not(feature = "sheets"))]
async fn handle_sheets(scope: DedicatedWorkerGlobalScope, data: JsValue) {
    let name = field(&data, "file")
        .and_then(|v| v.dyn_into::<File>().ok())
        .map(|f| f.name())
        .unwrap_or_default();
    let failure = CsvFailure::Send {
        file: name.clone(),
        detail: "this build of the worker reads no spreadsheets".into(),
    };
    post_csv(&scope, &CsvEvent::failed(&failure), None, &name);
}

/// Runs one job message and posts its events: a CSV table ([`CSV_JOB_KIND`]), a spreadsheet's
/// sheets ([`SHEETS_JOB_KIND`]) or microdata.
async fn handle(scope: DedicatedWorkerGlobalScope, data: JsValue) {
    match field(&data, "kind").and_then(|k| k.as_string()).as_deref() {
        Some(CSV_JOB_KIND) => return handle_csv(scope, data).await,
        Some(SHEETS_JOB_KIND) => return handle_sheets(scope, data).await,
        _ => {}
    }
    let options: JobOptions = match field(&data, "options")
        .and_then(|v| v.as_string())
        .ok_or_else(|| "none".to_owned())
        .and_then(|s| serde_json::from_str(&s).map_err(|e| e.to_string()))
    {
        Ok(options) => options,
        Err(detail) => {
            return post(
                &scope,
                &WorkerEvent::Failed {
                    file: None,
                    failure: JobFailure::BadOptions { detail },
                },
            )
        }
    };
    let file = |key: &str| field(&data, key).and_then(|v| v.dyn_into::<File>().ok());
    let (deaths, births) = (file("deaths"), file("births"));
    let elapsed = stopwatch(&scope);
    let mut job = match Job::new(&options, deaths.is_some(), births.is_some()) {
        Ok(job) => job,
        Err(failed) => return post(&scope, &failed),
    };
    for (kind, file) in [(FileKind::Deaths, &deaths), (FileKind::Births, &births)] {
        if let Some(file) = file {
            if let Err(failed) = stream(&scope, &mut job, kind, file, &elapsed).await {
                return post(&scope, &failed);
            }
        }
    }
    post(&scope, &job.finish(elapsed()));
}

/// Replaces the bootstrap's message handler with the job handler.
pub fn install() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let handler_scope = scope.clone();
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        wasm_bindgen_futures::spawn_local(handle(handler_scope.clone(), event.data()));
    });
    scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
}
