//! The health ministry's microdata in the page: a deaths file (one row per death, hundreds of
//! MB) and optionally a one-row-per-birth file, aggregated to commune-year counts by the
//! `imr-worker` Web Worker (the same Rust engine as `imr microdata`), read in 16 MiB chunks with
//! `File.slice`, with a progress bar (bytes, rows per second) and a Cancel button that
//! terminates the worker. The counts table then joins the loaded files like any uploaded CSV.
//!
//! The worker is started by src/components/worker.rs (shared with big CSV uploads).

use crate::components::download::download_text;
use crate::components::worker::{spawn_worker, RunningWorker};
use crate::i18n::{format_number, lang, tr, Lang};
use crate::state::{read_file, AppState, LoadedFile};
use imr_microdata::{
    equivalent_command, looks_like_deaths_microdata, BirthsColumns, DeathsOptions, FileKind,
    FileSummary, JobOptions, JobResult, WorkerEvent,
};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
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
enum Run {
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
    Failed(String),
    Cancelled {
        bytes_read: u64,
        total_bytes: u64,
    },
}

thread_local! {
    /// The running worker, terminated by Cancel or when done.
    static WORKER: RefCell<Option<RunningWorker>> = const { RefCell::new(None) };
}

fn terminate_worker() {
    WORKER.with(|w| {
        if let Some(running) = w.borrow_mut().take() {
            running.terminate();
        }
    });
}

/// Starts a worker and posts it the job; events arrive through `on_event`.
async fn start_worker(
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
fn add_counts(state: AppState, csv: &str) {
    let counts = read_file(COUNTS_FILE, csv.as_bytes());
    let (files, roles): (Vec<LoadedFile>, Vec<_>) = if state.bundled.get_untracked() {
        (Vec::new(), Vec::new())
    } else {
        (state.files.get_untracked(), state.roles.get_untracked())
    };
    // Roles are kept per readable file, in order: drop the earlier counts file and its roles.
    let mut readable = 0usize;
    let mut kept_files = Vec::new();
    let mut kept_roles = Vec::new();
    for file in files {
        let is_readable = file.table.is_ok();
        if is_readable && file.name != COUNTS_FILE {
            kept_roles.extend(roles.get(readable).cloned());
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
    }
    kept_files.push(counts);
    state.bundled.set(false);
    state.load(kept_files, Some(kept_roles));
}

/// The delimiter of a births file, from its first line.
fn sniff_delimiter(line: &str) -> char {
    [';', ',', '\t', '|']
        .into_iter()
        .max_by_key(|d| line.matches(*d).count())
        .unwrap_or(';')
}

/// The choices for a births column: header names, or positions with the first row's values.
#[derive(Debug, Clone, PartialEq)]
struct BirthsHead {
    delimiter: char,
    /// (value sent as the column: name or 1-based position, label shown).
    columns: Vec<(String, String)>,
    year_guess: usize,
    commune_guess: usize,
}

fn births_head(head: &[u8]) -> BirthsHead {
    let text: String = head.iter().map(|&b| b as char).collect();
    let first = text
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches('\u{feff}');
    let delimiter = sniff_delimiter(first);
    let fields: Vec<&str> = first.split(delimiter).map(str::trim).collect();
    let numeric = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let has_header = fields.iter().any(|f| !numeric(f));
    let columns: Vec<(String, String)> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if has_header {
                (f.to_string(), f.to_string())
            } else {
                ((i + 1).to_string(), format!("#{} ({f})", i + 1))
            }
        })
        .collect();
    let upper: Vec<String> = fields.iter().map(|f| f.to_uppercase()).collect();
    let find = |pred: &dyn Fn(&str, &str) -> bool| {
        upper.iter().zip(&fields).position(|(u, raw)| pred(u, raw))
    };
    let year_guess = find(&|u, raw| {
        u.contains("ANO")
            || u.contains("AÑO")
            || u.contains("YEAR")
            || (raw.len() == 4 && numeric(raw) && raw.starts_with(['1', '2']))
    })
    .unwrap_or(0);
    let commune_guess =
        find(&|u, _| u.contains("COMUNA") && !u.contains("GLOSA") && !u.contains("NOMBRE"))
            .or_else(|| {
                (!has_header)
                    .then(|| {
                        fields.iter().enumerate().position(|(i, raw)| {
                            i != year_guess && (raw.len() == 4 || raw.len() == 5) && numeric(raw)
                        })
                    })
                    .flatten()
            })
            .unwrap_or(if year_guess == 0 { 1 } else { 0 });
    BirthsHead {
        delimiter,
        columns,
        year_guess,
        commune_guess,
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// "12,3 de 500,0 MB · 1.234.567 filas · 2.345.678 filas/s · 85,2 MB/s"
fn progress_text(l: Lang, bytes_read: u64, total_bytes: u64, rows: u64, elapsed_ms: u64) -> String {
    let seconds = (elapsed_ms as f64 / 1000.0).max(1e-3);
    let (of, rows_word, per_s) = match l {
        Lang::Es => ("de", "filas", "filas/s"),
        Lang::En => ("of", "rows", "rows/s"),
    };
    format!(
        "{} {of} {} MB · {} {rows_word} · {} {per_s} · {} MB/s",
        format_number(l, mb(bytes_read), 1),
        format_number(l, mb(total_bytes), 1),
        format_number(l, rows as f64, 0),
        format_number(l, rows as f64 / seconds, 0),
        format_number(l, mb(bytes_read) / seconds, 1),
    )
}

/// An exclusion reason of the worker's summary (its stable label) in the page's language, from
/// the engine's words; a label this page does not know keeps the worker's English description.
fn reason_text(l: Lang, reason: &str, english: &str) -> String {
    imr_microdata::Reason::from_label(reason)
        .map_or_else(|| english.to_owned(), |r| r.text(l).to_owned())
}

fn file_summary_view(f: FileSummary) -> impl IntoView {
    let kind = f.kind;
    let testid = match kind {
        FileKind::Deaths => "microdata-summary-deaths",
        FileKind::Births => "microdata-summary-births",
    };
    let years = match (f.rows_by_year.first(), f.rows_by_year.last()) {
        (Some(a), Some(b)) if a.0 != b.0 => format!("{}–{}", a.0, b.0),
        (Some(a), _) => a.0.to_string(),
        _ => "—".to_owned(),
    };
    let unknown = f.unknown_codes_listed(10);
    let unknown = (!unknown.is_empty()).then(|| {
        let list = unknown;
        view! { <p class="note" data-testid="microdata-unknown-codes">{tr("Códigos de comuna desconocidos: ", "Unknown commune codes: ")}{list}</p> }
    });
    let excluded = f
        .excluded
        .clone()
        .into_iter()
        .map(|e| {
            let lines: Vec<String> = e.first_lines.iter().take(8).map(u64::to_string).collect();
            let more = if e.count as usize > lines.len() {
                ", …"
            } else {
                ""
            };
            let lines = lines.join(", ");
            let (reason, description, count) = (e.reason.clone(), e.description.clone(), e.count);
            let reason_attr = reason.clone();
            view! {
                <li data-reason=reason_attr data-count=count.to_string()>
                    {move || {
                        let l = lang().get();
                        format!(
                            "{} {}: {} ({} {lines}{more})",
                            format_number(l, count as f64, 0),
                            l.pick("filas", "rows"),
                            reason_text(l, &reason, &description),
                            l.pick("líneas", "lines"),
                        )
                    }}
                </li>
            }
        })
        .collect_view();
    let name = f.name.clone();
    let header = f.has_header;
    let (read, counted, not_infant, excluded_n, recoded) = (
        f.rows_read,
        f.rows_counted,
        f.rows_not_infant,
        f.rows_excluded,
        f.recoded_rows,
    );
    view! {
        <div data-testid=testid data-rows-read=read.to_string() data-rows-counted=counted.to_string()
            data-rows-not-infant=not_infant.to_string() data-rows-excluded=excluded_n.to_string()>
            <h4>{name}</h4>
            <p>{move || {
                let l = lang().get();
                let n = |v: u64| format_number(l, v as f64, 0);
                match (l, kind) {
                    (Lang::Es, FileKind::Deaths) => format!(
                        "{} filas ({}), años {years}: {} defunciones infantiles contadas, {} de 1 año o más, {} excluidas; {} códigos de Ñuble recodificados.",
                        n(read), if header { "con encabezado" } else { "sin encabezado" }, n(counted), n(not_infant), n(excluded_n), n(recoded)),
                    (Lang::En, FileKind::Deaths) => format!(
                        "{} rows ({}), years {years}: {} infant deaths counted, {} aged one year or more, {} excluded; {} Ñuble codes re-coded.",
                        n(read), if header { "with header" } else { "no header" }, n(counted), n(not_infant), n(excluded_n), n(recoded)),
                    (Lang::Es, FileKind::Births) => format!(
                        "{} filas ({}), años {years}: {} nacimientos contados, {} excluidas; {} códigos de Ñuble recodificados.",
                        n(read), if header { "con encabezado" } else { "sin encabezado" }, n(counted), n(excluded_n), n(recoded)),
                    (Lang::En, FileKind::Births) => format!(
                        "{} rows ({}), years {years}: {} births counted, {} excluded; {} Ñuble codes re-coded.",
                        n(read), if header { "with header" } else { "no header" }, n(counted), n(excluded_n), n(recoded)),
                }
            }}</p>
            <ul class="excluded" data-testid="microdata-excluded">{excluded}</ul>
            {unknown}
        </div>
    }
}

/// The microdata section of the Data view.
#[component]
pub fn Microdata() -> impl IntoView {
    let state = expect_context::<AppState>();
    let inputs = expect_context::<MicrodataInputs>();
    let run = RwSignal::new(Run::Idle);
    let neonatal = RwSignal::new(false);
    let cause = RwSignal::new(false);
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
            let head = births_head(&read_head(&file).await);
            if let Some((value, _)) = head.columns.get(head.year_guess) {
                births_year.set(value.clone());
            }
            if let Some((value, _)) = head.columns.get(head.commune_guess) {
                births_commune.set(value.clone());
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
        births: births_head_signal.get_untracked().map(|h| BirthsColumns {
            year: births_year.get_untracked(),
            commune: births_commune.get_untracked(),
            delimiter: h.delimiter,
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
                Ok(WorkerEvent::Failed { message, .. }) => {
                    terminate_worker();
                    run.set(Run::Failed(message));
                }
                Err(message) => {
                    terminate_worker();
                    run.set(Run::Failed(message));
                }
            };
            if let Err(message) = start_worker(deaths, births, &options, on_event).await {
                run.set(Run::Failed(message));
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

    let running = move || matches!(run.get(), Run::Running { .. } | Run::Starting);
    let column_select = move |id: &'static str,
                              testid: &'static str,
                              label: fn() -> &'static str,
                              value: RwSignal<String>| {
        view! {
            <span>
                <label for=id>{label}</label>
                <select id=id data-testid=testid on:change=move |ev| value.set(event_target_value(&ev))>
                    {move || births_head_signal.get().map(|h| h.columns.into_iter().map(|(v, shown)| {
                        let selected = value.get_untracked() == v;
                        view! { <option value=v.clone() selected=selected>{shown}</option> }
                    }).collect_view())}
                </select>
            </span>
        }
    };

    view! {
        <section aria-labelledby="microdata-h" data-testid="microdata">
            <h3 id="microdata-h">{tr("Microdatos del DEIS (una fila por defunción o nacimiento)", "Health ministry microdata (one row per death or birth)")}</h3>
            <p class="note">{tr(
                "El archivo nacional de defunciones (separado por «;», Latin-1, con o sin encabezado: ANO_DEF; FECHA_DEF; …; EDAD_TIPO; EDAD_CANT; CODIGO_COMUNA_RESIDENCIA; …) se lee por partes en segundo plano, sin cargarlo entero en memoria, y se resume en defunciones infantiles por comuna de residencia y año. Opcionalmente, un archivo de una fila por nacimiento da los nacidos vivos.",
                "The national deaths file (`;`-separated, Latin-1, with or without header: ANO_DEF; FECHA_DEF; …; EDAD_TIPO; EDAD_CANT; CODIGO_COMUNA_RESIDENCIA; …) is read in chunks in the background, never whole into memory, and summarised into infant deaths by commune of residence and year. Optionally, a one-row-per-birth file gives the live births.")}</p>
            <div class="roles">
                <span>
                    <label for="microdata-deaths">{tr("Defunciones (microdatos): ", "Deaths (microdata): ")}</label>
                    <input id="microdata-deaths" type="file" accept=".csv,.txt,text/csv,text/plain" data-testid="microdata-deaths-file"
                        on:change=move |ev| choose(ev, inputs.deaths) prop:disabled=running/>
                </span>
                <span>
                    <label for="microdata-births">{tr("Nacimientos (una fila por nacimiento, opcional): ", "Births (one row per birth, optional): ")}</label>
                    <input id="microdata-births" type="file" accept=".csv,.txt,text/csv,text/plain" data-testid="microdata-births-file"
                        on:change=move |ev| choose(ev, inputs.births) prop:disabled=running/>
                </span>
            </div>
            {move || inputs.deaths.get().map(|f| {
                let name = f.name();
                let size = f.size();
                view! { <p class="note" data-testid="microdata-deaths-chosen">{move || {
                    let l = lang().get();
                    let recognised = match deaths_note.get() {
                        Some(true) => l.pick(" — reconocido como microdatos de defunciones", " — recognised as deaths microdata"),
                        Some(false) => l.pick(" — no parece el archivo de defunciones del DEIS", " — does not look like the health ministry's deaths file"),
                        None => "",
                    };
                    format!("{name}: {} MB{recognised}", format_number(l, size / 1e6, 1))
                }}</p> }
            })}
            {move || births_head_signal.get().is_some().then(|| view! {
                <div class="roles" data-testid="microdata-births-columns">
                    {column_select("microdata-births-year", "microdata-births-year", || lang().get_untracked().pick("Columna del año: ", "Year column: "), births_year)}
                    {column_select("microdata-births-commune", "microdata-births-commune", || lang().get_untracked().pick("Columna de la comuna de residencia de la madre: ", "Mother's commune of residence column: "), births_commune)}
                </div>
            })}
            <fieldset class="roles">
                <legend>{tr("Desgloses (columnas adicionales)", "Breakdowns (extra columns)")}</legend>
                <span><input id="microdata-neonatal" type="checkbox" data-testid="microdata-neonatal" prop:checked=move || neonatal.get() on:change=move |ev| neonatal.set(event_target_checked(&ev))/>
                    <label for="microdata-neonatal">{tr("neonatal (< 28 días) y posneonatal", "neonatal (< 28 days) and post-neonatal")}</label></span>
                <span><input id="microdata-cause" type="checkbox" data-testid="microdata-cause" prop:checked=move || cause.get() on:change=move |ev| cause.set(event_target_checked(&ev))/>
                    <label for="microdata-cause">{tr("capítulo CIE-10 de la causa (DIAG1)", "ICD-10 chapter of the cause (DIAG1)")}</label></span>
            </fieldset>
            <button data-testid="microdata-start" on:click=start
                prop:disabled=move || running() || (inputs.deaths.get().is_none() && inputs.births.get().is_none())>
                {tr("Agregar por comuna y año", "Aggregate by commune and year")}</button>
            " "
            <button class="secondary" data-testid="microdata-cancel" on:click=cancel prop:disabled=move || !running()>{tr("Cancelar", "Cancel")}</button>
            {move || match run.get() {
                Run::Idle => None,
                Run::Starting => Some(view! { <p class="note" role="status">{tr("Iniciando…", "Starting…")}</p> }.into_any()),
                Run::Running { file, name, bytes_read, total_bytes, rows_read, elapsed_ms } => Some(view! {
                    <div role="status" data-testid="microdata-running">
                        <progress data-testid="microdata-progress" max=total_bytes.max(1).to_string() value=bytes_read.to_string()
                            aria-label=tr("Avance de la lectura", "Reading progress")></progress>
                        <p class="note" data-testid="microdata-progress-text">{move || {
                            let l = lang().get();
                            let which = match file { FileKind::Deaths => l.pick("defunciones", "deaths"), FileKind::Births => l.pick("nacimientos", "births") };
                            format!("{name} ({which}): {}", progress_text(l, bytes_read, total_bytes, rows_read, elapsed_ms))
                        }}</p>
                    </div>
                }.into_any()),
                Run::Cancelled { bytes_read, total_bytes } => Some(view! {
                    <p class="warn" role="status" data-testid="microdata-cancelled">{move || match lang().get() {
                        Lang::Es => format!("Cancelado tras leer {} de {} MB; no se cargó nada.", format_number(Lang::Es, mb(bytes_read), 1), format_number(Lang::Es, mb(total_bytes), 1)),
                        Lang::En => format!("Cancelled after reading {} of {} MB; nothing was loaded.", format_number(Lang::En, mb(bytes_read), 1), format_number(Lang::En, mb(total_bytes), 1)),
                    }}</p>
                }.into_any()),
                Run::Failed(message) => Some(view! { <p class="error" role="alert" data-testid="microdata-error">{message}</p> }.into_any()),
                Run::Done(result, command) => {
                    // The download carries the provenance lines, the microdata files as source.
                    let source: Vec<String> = result.files.iter().map(|f| f.name.clone()).collect();
                    let csv = imr_core::provenance::with_csv_header(&source.join(", "), &crate::components::download::today(), &result.counts_csv);
                    let summaries = result.files.clone().into_iter().map(file_summary_view).collect_view();
                    let (bytes, rows, ms) = (result.bytes, result.rows, result.elapsed_ms);
                    Some(view! {
                        <div data-testid="microdata-result" data-bytes=bytes.to_string() data-rows=rows.to_string() data-elapsed-ms=ms.to_string() role="status">
                            <p>{move || {
                                let l = lang().get();
                                let seconds = (ms as f64 / 1000.0).max(1e-3);
                                match l {
                                    Lang::Es => format!("Listo en {} s ({} MB/s, {} filas/s). La tabla de conteos «{COUNTS_FILE}» se agregó a los archivos cargados.", format_number(l, seconds, 1), format_number(l, mb(bytes) / seconds, 1), format_number(l, rows as f64 / seconds, 0)),
                                    Lang::En => format!("Done in {} s ({} MB/s, {} rows/s). The counts table “{COUNTS_FILE}” was added to the loaded files.", format_number(l, seconds, 1), format_number(l, mb(bytes) / seconds, 1), format_number(l, rows as f64 / seconds, 0)),
                                }
                            }}</p>
                            {summaries}
                            <p class="note">{tr("El mismo resultado con la línea de comandos:", "The same result from the command line:")}</p>
                            <pre data-testid="microdata-command"><code>{command}</code></pre>
                            <button class="secondary" data-testid="microdata-download" on:click=move |_| download_text(COUNTS_FILE, "text/csv", &csv)>{tr("Descargar conteos CSV", "Download counts CSV")}</button>
                        </div>
                    }.into_any())
                }
            }}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn births_columns_are_guessed_from_a_header_or_from_values() {
        let h = births_head(b"ANO_NAC;SEXO;COMUNA;GLOSA_COMUNA\n2019;1;13101;Santiago\n");
        assert_eq!(h.delimiter, ';');
        assert_eq!((h.year_guess, h.commune_guess), (0, 2));
        assert_eq!(h.columns[2], ("COMUNA".to_owned(), "COMUNA".to_owned()));
        let h = births_head(b"1;2019;5101\n");
        assert_eq!((h.year_guess, h.commune_guess), (1, 2));
        assert_eq!(h.columns[2].0, "3");
    }

    #[test]
    fn progress_reads_in_each_language() {
        assert_eq!(
            progress_text(Lang::Es, 250_000_000, 500_000_000, 1_000_000, 2_000),
            "250,0 de 500,0 MB · 1.000.000 filas · 500.000 filas/s · 125,0 MB/s"
        );
        assert!(progress_text(Lang::En, 1, 2, 3, 0).contains(" of "));
    }
}
