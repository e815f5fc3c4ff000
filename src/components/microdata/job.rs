//! The running job: the worker started with the job's options and files, its termination
//! (Cancel, done, a new run), and the counts it returns joining the loaded files.

use super::COUNTS_FILE;
use crate::components::worker::{spawn_worker, RunningWorker};
use crate::state::{read_file, AppState, LoadedFile};
use imr_microdata::{JobOptions, WorkerEvent};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The running worker, terminated by Cancel or when done.
    static WORKER: RefCell<Option<RunningWorker>> = const { RefCell::new(None) };
}

pub(super) fn terminate_worker() {
    WORKER.with(|w| {
        if let Some(running) = w.borrow_mut().take() {
            running.terminate();
        }
    });
}

/// Starts a worker and posts it the job; events arrive through `on_event`.
pub(super) async fn start_worker(
    deaths: Option<web_sys::File>,
    births: Option<web_sys::File>,
    options: &JobOptions,
    on_event: impl Fn(Result<WorkerEvent, String>) + 'static,
) -> Result<(), String> {
    let job = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| {
        let _ = js_sys::Reflect::set(&job, &JsValue::from_str(key), value);
    };
    set(
        "options",
        &JsValue::from_str(&serde_json::to_string(options).map_err(|e| e.to_string())?),
    );
    if let Some(file) = &deaths {
        set("deaths", file);
    }
    if let Some(file) = &births {
        set("births", file);
    }
    let on_event = std::rc::Rc::new(on_event);
    let on_message = {
        let on_event = on_event.clone();
        move |event: web_sys::MessageEvent| {
            let text = event.data().as_string().unwrap_or_default();
            on_event(serde_json::from_str::<WorkerEvent>(&text).map_err(|e| e.to_string()));
        }
    };
    let running = spawn_worker(&job, on_message, move |message| on_event(Err(message))).await?;
    terminate_worker();
    WORKER.with(|w| *w.borrow_mut() = Some(running));
    Ok(())
}

/// The counts join the loaded files: replacing the bundled dataset or an earlier counts file,
/// next to the user's other files (an aggregated births table, commune characteristics).
pub(super) fn add_counts(state: AppState, csv: &str) {
    let counts = read_file(COUNTS_FILE, csv.as_bytes());
    let (files, roles, years): (Vec<LoadedFile>, Vec<_>, Vec<_>) = if state.bundled.get_untracked()
    {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        (
            state.files.get_untracked(),
            state.roles.get_untracked(),
            state.years.get_untracked(),
        )
    };
    // Roles are kept per readable file, in order: drop the earlier counts file and its roles.
    let mut readable = 0usize;
    let mut kept_files = Vec::new();
    let mut kept_roles = Vec::new();
    let mut kept_years = Vec::new();
    for file in files {
        let is_readable = file.table.is_ok();
        if is_readable && file.name != COUNTS_FILE {
            if let Some(r) = roles.get(readable) {
                kept_roles.push(r.clone());
                kept_years.push(years.get(readable).copied().flatten());
            }
        }
        if is_readable {
            readable += 1;
        }
        if file.name != COUNTS_FILE {
            kept_files.push(file);
        }
    }
    if let Ok(table) = &counts.table {
        kept_roles.push(table.guessed_roles.clone());
        kept_years.push(None);
    }
    kept_files.push(counts);
    state.bundled.set(false);
    state.load(kept_files, Some(kept_roles));
    state.years.set(kept_years);
}
