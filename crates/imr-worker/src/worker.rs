use imr_microdata::{run_job, ChunkSource, JobOptions, WorkerEvent};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, File, FileReaderSync, MessageEvent};

/// A `File` read with `File.slice` + `FileReaderSync`: one chunk in memory at a time.
struct FileSource {
    file: File,
    name: String,
    size: u64,
    reader: FileReaderSync,
}

impl FileSource {
    fn new(file: File) -> Result<Self, String> {
        let reader = FileReaderSync::new().map_err(|e| format!("{e:?}"))?;
        Ok(FileSource {
            name: file.name(),
            size: file.size() as u64,
            file,
            reader,
        })
    }
}

impl ChunkSource for FileSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&mut self, offset: u64, buffer: &mut Vec<u8>) -> Result<(), String> {
        let end = (offset + buffer.len() as u64).min(self.size);
        let cannot = |e: JsValue| format!("{}: cannot read bytes {offset}–{end}: {e:?}", self.name);
        let blob = self
            .file
            .slice_with_f64_and_f64(offset as f64, end as f64)
            .map_err(cannot)?;
        let bytes = self.reader.read_as_array_buffer(&blob).map_err(cannot)?;
        let view = js_sys::Uint8Array::new(&bytes);
        let n = (view.length() as usize).min(buffer.len());
        buffer.truncate(n);
        view.subarray(0, n as u32).copy_to(buffer);
        Ok(())
    }
}

fn field(data: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(data, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// Runs one job message and posts its events.
fn handle(scope: &DedicatedWorkerGlobalScope, data: JsValue) {
    let post = |event: &WorkerEvent| {
        let json = serde_json::to_string(event).unwrap_or_default();
        let _ = scope.post_message(&JsValue::from_str(&json));
    };
    let options: Result<JobOptions, String> = field(&data, "options")
        .and_then(|v| v.as_string())
        .ok_or_else(|| "the job has no options".to_owned())
        .and_then(|s| serde_json::from_str(&s).map_err(|e| e.to_string()));
    let file = |key: &str| -> Result<Option<FileSource>, String> {
        match field(&data, key) {
            None => Ok(None),
            Some(v) => v
                .dyn_into::<File>()
                .map_err(|_| format!("`{key}` is not a file"))
                .and_then(FileSource::new)
                .map(Some),
        }
    };
    let job = options.and_then(|o| Ok((o, file("deaths")?, file("births")?)));
    let (options, mut deaths, mut births) = match job {
        Ok(job) => job,
        Err(message) => {
            post(&WorkerEvent::Failed {
                file: None,
                message,
            });
            return;
        }
    };
    let performance = scope.performance();
    let clock = || performance.as_ref().map_or(0.0, |p| p.now());
    let end = run_job(
        deaths.as_mut().map(|d| d as &mut dyn ChunkSource),
        births.as_mut().map(|b| b as &mut dyn ChunkSource),
        &options,
        &clock,
        &mut |event| post(event),
    );
    post(&end);
}

/// Replaces the bootstrap's message handler with the job handler.
pub fn install() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let handler_scope = scope.clone();
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        handle(&handler_scope, event.data());
    });
    scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
}
