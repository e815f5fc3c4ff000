//! The health ministry's microdata in the page: a deaths file (one row per death, hundreds of
//! MB) and optionally a one-row-per-birth file, aggregated to commune-year counts by the
//! `imr-worker` Web Worker (the same Rust engine as `imr microdata`), read in 16 MiB chunks with
//! `File.slice`, with a progress bar (bytes, rows per second) and a Cancel button that
//! terminates the worker. The counts table then joins the loaded files like any uploaded CSV.
//!
//! Components: [`choices`] (the births file's columns), [`job`] (the worker, started by
//! src/components/worker.rs, shared with big CSV uploads, and the counts joining the files),
//! [`status`] (progress, cancel, failure, the result and its command), [`summary`] (each file's
//! rows). The births columns' guess ([`BirthsHead`]) and the speeds ([`imr_microdata::Throughput`])
//! are in the engine. The breakdowns (neonatal, cause) are kept in the URL fragment.

mod choices;
mod job;
mod status;
mod summary;

use crate::i18n::{format_number, lang};
use crate::messages::{messages, msg};
use crate::state::AppState;
use imr_microdata::{
    equivalent_command, looks_like_deaths_microdata, BirthsHead, DeathsOptions, FileKind,
    JobFailure, JobOptions, JobResult, WorkerEvent,
};
use job::{add_counts, start_worker, terminate_worker};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The name under which the aggregated counts join the loaded files.
pub const COUNTS_FILE: &str = "conteos_microdatos.csv";

/// Bytes read from the start of a file to recognise it and to list its columns.
const HEAD_BYTES: f64 = 64.0 * 1024.0;

/// The microdata files chosen; provided through context so the main upload can hand over a
/// deaths file it recognises.
#[derive(Clone, Copy)]
pub struct MicrodataInputs {
    pub deaths: RwSignal<Option<web_sys::File>, LocalStorage>,
    pub births: RwSignal<Option<web_sys::File>, LocalStorage>,
}

impl MicrodataInputs {
    pub fn new() -> Self {
        MicrodataInputs {
            deaths: RwSignal::new_local(None),
            births: RwSignal::new_local(None),
        }
    }
}

/// Reads the first bytes of a file (for recognising it; never the whole file).
pub async fn read_head(file: &web_sys::File) -> Vec<u8> {
    let end = HEAD_BYTES.min(file.size());
    let Ok(blob) = file.slice_with_f64_and_f64(0.0, end) else {
        return Vec::new();
    };
    match JsFuture::from(blob.array_buffer()).await {
        Ok(buffer) => js_sys::Uint8Array::new(&buffer).to_vec(),
        Err(_) => Vec::new(),
    }
}

/// The state of a run.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Run {
    Idle,
    Starting,
    Running {
        file: FileKind,
        name: String,
        /// Bytes of all the job's files read so far, and their total.
        bytes_read: u64,
        total_bytes: u64,
        rows_read: u64,
        elapsed_ms: u64,
    },
    Done(Box<JobResult>, String),
    Failed(RunFailure),
    Cancelled {
        bytes_read: u64,
        total_bytes: u64,
    },
}

/// Why a run gave no counts: a value, worded in the page's language where it is shown.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum RunFailure {
    /// The worker said why (a file it cannot read or aggregate, columns not chosen).
    Job(JobFailure),
    /// The worker could not be started, stopped, or said what the page does not understand.
    Page(String),
}

impl RunFailure {
    pub(super) fn text(&self, lang: crate::i18n::Lang) -> String {
        match self {
            RunFailure::Job(failure) => failure.text(lang),
            RunFailure::Page(detail) => (messages(lang).microdata.worker_failed)(detail),
        }
    }
}

impl Run {
    /// Whether a job is starting or reading (the inputs and Start are disabled, Cancel enabled).
    fn is_running(&self) -> bool {
        matches!(self, Run::Running { .. } | Run::Starting)
    }
}

/// The microdata section of the Data view.
#[component]
pub fn Microdata() -> impl IntoView {
    let state = expect_context::<AppState>();
    let inputs = expect_context::<MicrodataInputs>();
    let run = RwSignal::new(Run::Idle);
    // The breakdowns are analysis options: kept in the URL fragment (`md-neonatal`, `md-cause`).
    let fragment = crate::fragment::fragment();
    let neonatal = fragment.synced("md-neonatal", false);
    let cause = fragment.synced("md-cause", false);
    let births_head_signal = RwSignal::new(None::<BirthsHead>);
    let births_year = RwSignal::new(String::new());
    let births_commune = RwSignal::new(String::new());
    let deaths_note = RwSignal::new(None::<bool>);

    // A newly chosen deaths file is checked on its first bytes, so a wrong file is said at once.
    Effect::new(move |_| {
        let Some(file) = inputs.deaths.get() else {
            deaths_note.set(None);
            return;
        };
        spawn_local(async move {
            let head = read_head(&file).await;
            deaths_note.set(Some(looks_like_deaths_microdata(&head)));
        });
    });
    Effect::new(move |_| {
        let Some(file) = inputs.births.get() else {
            births_head_signal.set(None);
            return;
        };
        spawn_local(async move {
            let head = BirthsHead::read(&read_head(&file).await);
            if let Some(value) = head.column_value(head.year_guess) {
                births_year.set(value.to_owned());
            }
            if let Some(value) = head.column_value(head.commune_guess) {
                births_commune.set(value.to_owned());
            }
            births_head_signal.set(Some(head));
        });
    });

    let choose = move |ev: leptos::ev::Event,
                       target: RwSignal<Option<web_sys::File>, LocalStorage>| {
        let file = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|l| l.item(0));
        target.set(file);
        if !matches!(run.get_untracked(), Run::Running { .. } | Run::Starting) {
            run.set(Run::Idle);
        }
    };

    let job_options = move || JobOptions {
        deaths: DeathsOptions {
            neonatal: neonatal.get_untracked(),
            cause: cause.get_untracked(),
        },
        births: births_head_signal.get_untracked().map(|h| {
            h.job_columns(
                &births_year.get_untracked(),
                &births_commune.get_untracked(),
            )
        }),
        ..JobOptions::default()
    };

    let start = move |_| {
        let deaths = inputs.deaths.get_untracked();
        let births = inputs.births.get_untracked();
        if deaths.is_none() && births.is_none() {
            return;
        }
        let options = job_options();
        let deaths_size = deaths.as_ref().map_or(0, |f| f.size() as u64);
        let total = deaths_size + births.as_ref().map_or(0, |f| f.size() as u64);
        let command = equivalent_command(
            deaths.as_ref().map(|f| f.name()).as_deref(),
            births.as_ref().map(|f| f.name()).as_deref(),
            &options,
            COUNTS_FILE,
        );
        run.set(Run::Starting);
        spawn_local(async move {
            let on_event = move |event: Result<WorkerEvent, String>| match event {
                Ok(WorkerEvent::Progress {
                    file,
                    name,
                    bytes_read,
                    rows_read,
                    elapsed_ms,
                    ..
                }) => {
                    let offset = if file == FileKind::Births {
                        deaths_size
                    } else {
                        0
                    };
                    run.set(Run::Running {
                        file,
                        name,
                        bytes_read: offset + bytes_read,
                        total_bytes: total,
                        rows_read,
                        elapsed_ms,
                    });
                }
                Ok(WorkerEvent::Done(result)) => {
                    terminate_worker();
                    add_counts(state, &result.counts_csv);
                    run.set(Run::Done(Box::new(result), command.clone()));
                }
                Ok(WorkerEvent::Failed { failure, .. }) => {
                    terminate_worker();
                    run.set(Run::Failed(RunFailure::Job(failure)));
                }
                Err(detail) => {
                    terminate_worker();
                    run.set(Run::Failed(RunFailure::Page(detail)));
                }
            };
            if let Err(detail) = start_worker(deaths, births, &options, on_event).await {
                run.set(Run::Failed(RunFailure::Page(detail)));
            }
        });
    };

    let cancel = move |_| {
        terminate_worker();
        let (bytes_read, total_bytes) = match run.get_untracked() {
            Run::Running {
                bytes_read,
                total_bytes,
                ..
            } => (bytes_read, total_bytes),
            _ => (0, 0),
        };
        run.set(Run::Cancelled {
            bytes_read,
            total_bytes,
        });
    };
    on_cleanup(terminate_worker);

    view! {
        <section aria-labelledby="microdata-h" data-testid="microdata">
            <h3 id="microdata-h">{msg(|m| m.microdata.heading)}</h3>
            <p class="note">{msg(|m| m.microdata.deaths_file_note)}</p>
            <div class="roles">
                {file_input(
                    "microdata-deaths",
                    |m| m.microdata.deaths_file_label,
                    run,
                    move |ev| choose(ev, inputs.deaths),
                )}
                {file_input(
                    "microdata-births",
                    |m| m.microdata.births_file_label,
                    run,
                    move |ev| choose(ev, inputs.births),
                )}
            </div>
            {move || inputs.deaths.get().map(|f| deaths_chosen(&f, deaths_note))}
            <choices::BirthsColumnChoices
                head=births_head_signal
                year=births_year
                commune=births_commune
            />
            <fieldset class="roles">
                <legend>{msg(|m| m.microdata.breakdowns_legend)}</legend>
                {breakdown("microdata-neonatal", neonatal, |m| m.microdata.breakdown_neonatal)}
                {breakdown("microdata-cause", cause, |m| m.microdata.breakdown_cause_chapter)}
            </fieldset>
            <button
                data-testid="microdata-start"
                on:click=start
                prop:disabled=move || {
                    run.get().is_running()
                        || (inputs.deaths.get().is_none() && inputs.births.get().is_none())
                }
            >
                {msg(|m| m.microdata.aggregate_button)}
            </button>
            " "
            <button
                class="secondary"
                data-testid="microdata-cancel"
                on:click=cancel
                prop:disabled=move || !run.get().is_running()
            >
                {msg(|m| m.common.cancel)}
            </button>
            <status::RunStatus run=run />
        </section>
    }
}

/// A file input of the microdata (`id`, test id `{id}-file`), off while a job runs.
fn file_input(
    id: &'static str,
    label: crate::messages::Text,
    run: RwSignal<Run>,
    on_change: impl Fn(leptos::ev::Event) + 'static,
) -> impl IntoView {
    view! {
        <span>
            <label for=id>{msg(label)}</label>
            <input
                id=id
                type="file"
                accept=".csv,.txt,text/csv,text/plain"
                data-testid=format!("{id}-file")
                on:change=on_change
                prop:disabled=move || run.get().is_running()
            />
        </span>
    }
}

/// The chosen deaths file: its name, size and whether its first bytes look like deaths
/// microdata (`recognised`, once read).
fn deaths_chosen(file: &web_sys::File, recognised: RwSignal<Option<bool>>) -> impl IntoView {
    let (name, size) = (file.name(), file.size());
    view! {
        <p class="note" data-testid="microdata-deaths-chosen">
            {move || {
                let l = lang().get();
                let said = match recognised.get() {
                    Some(true) => messages(l).microdata.is_deaths_microdata,
                    Some(false) => messages(l).microdata.not_deaths_microdata,
                    None => "",
                };
                format!("{name}: {} MB{said}", format_number(l, size / 1e6, 1))
            }}
        </p>
    }
}

/// A breakdown of the counts, a checkbox (`id`, also its test id) kept in `checked`.
fn breakdown(
    id: &'static str,
    checked: RwSignal<bool>,
    label: crate::messages::Text,
) -> impl IntoView {
    view! {
        <span>
            <crate::components::checkbox::Checkbox id=id checked=checked>
                {msg(label)}
            </crate::components::checkbox::Checkbox>
        </span>
    }
}
