//! The Data view: choose or drop CSV files, check how they were read, fix column roles, see every
//! excluded row, and read rates per commune and year with their exact intervals.

use crate::components::csv_upload::{
    parse_in_worker, CsvUpload, Stop, UploadProgress, UploadStatus, WORKER_THRESHOLD_BYTES,
};
use crate::components::download::{download_csv, download_text};
use crate::components::microdata::{read_head, Microdata, MicrodataInputs};
use crate::fragment::fragment;
use crate::i18n::{format_number, format_opt, lang, tr, Lang};
use crate::pages::findings::{FlagState, IncludeFlagged};
use crate::state::{read_file, read_owned_file, AppState, BlobKey, LoadedFile};
use imr_core::analysis::{is_saved_analysis, SavedAnalysis};
use imr_core::ingest::{delimiter_label, Role};
use imr_core::rates::{rates_csv, AreaRate};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// Reads every file of a `FileList` (input or drop) and loads them. A file that starts like the
/// health ministry's deaths microdata is not read whole: it goes to the microdata section, whose
/// worker streams it. A file larger than [`WORKER_THRESHOLD_BYTES`] is parsed in the worker
/// (progress and Cancel under the upload); Cancel leaves the loaded data as they were.
fn load_file_list(state: AppState, list: Option<web_sys::FileList>) {
    let microdata = expect_context::<MicrodataInputs>();
    let upload = expect_context::<CsvUpload>();
    let Some(list) = list else { return };
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.item(i)).collect();
    if files.is_empty() {
        return;
    }
    upload.status.set(UploadStatus::Idle);
    spawn_local(async move {
        let mut loaded: Vec<LoadedFile> = Vec::with_capacity(files.len());
        for file in files {
            let name = file.name();
            let head = read_head(&file).await;
            if imr_microdata::looks_like_deaths_microdata(&head) {
                microdata.deaths.set(Some(file));
                focus_microdata();
                continue;
            }
            if file.size() > WORKER_THRESHOLD_BYTES && !is_saved_analysis(&head) {
                match parse_in_worker(&file, upload).await {
                    Ok(table) => loaded.push(LoadedFile {
                        name,
                        bytes: Default::default(),
                        blob: Some(BlobKey::keep(file)),
                        table: Ok(Arc::new(table)),
                    }),
                    Err(Stop::Cancelled) => return,
                    // Shown under the upload; the loaded data stay unless other files of this
                    // choice load.
                    Err(Stop::Failed(message)) => upload.status.set(UploadStatus::Failed(message)),
                }
                continue;
            }
            let gloo = gloo_file::File::from(file);
            match gloo_file::futures::read_as_bytes(&gloo).await {
                Ok(bytes) if is_saved_analysis(&bytes) => {
                    open_saved_analysis(state, &name, &bytes);
                    return;
                }
                Ok(bytes) => loaded.push(read_owned_file(&name, bytes)),
                Err(e) => loaded.push(LoadedFile {
                    name: name.clone(),
                    bytes: Default::default(),
                    blob: None,
                    table: Err(format!("{name}: cannot read the file: {e}")),
                }),
            }
        }
        if loaded.is_empty() {
            return;
        }
        state.bundled.set(false);
        state.load(loaded, None);
    });
}

/// Brings the microdata section into view with its start button focused.
fn focus_microdata() {
    let button = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("[data-testid=microdata-start]")
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = button {
        button.scroll_into_view();
        let _ = button.focus();
    }
}

/// Opens a saved analysis: its files with the roles chosen then, and its view options.
fn open_saved_analysis(state: AppState, name: &str, bytes: &[u8]) {
    let opened = SavedAnalysis::from_json(name, bytes).and_then(|a| {
        let files = a.file_bytes(name)?;
        let tables = a.tables_and_roles(name)?;
        Ok((a, files, tables))
    });
    match opened {
        Ok((analysis, files, tables)) => {
            let loaded = files.iter().map(|(n, b)| read_file(n, b)).collect();
            let roles = tables.into_iter().map(|(_, r)| r).collect();
            state.bundled.set(false);
            state.load(loaded, Some(roles));
            fragment().restore(&analysis.options);
        }
        Err(e) => {
            state.bundled.set(false);
            state.load(
                vec![LoadedFile {
                    name: name.to_owned(),
                    bytes: Default::default(),
                    blob: None,
                    table: Err(e.to_string()),
                }],
                None,
            );
        }
    }
}

/// Downloads the current analysis: input files, chosen roles, view options, engine version. A
/// big upload's bytes are read again from its `File` (they are not kept in memory).
fn save_analysis(state: AppState) {
    let files = state.files.get_untracked();
    let roles = state.roles.get_untracked();
    // Read before the task: the fragment comes from the context, which a task may not see.
    let options = fragment().text();
    spawn_local(async move {
        let readable: Vec<&LoadedFile> = files.iter().filter(|f| f.table.is_ok()).collect();
        let mut bytes: Vec<Arc<Vec<u8>>> = Vec::with_capacity(readable.len());
        for f in &readable {
            let reread = match f.blob.and_then(|key| key.file()) {
                Some(file) => gloo_file::futures::read_as_bytes(&gloo_file::File::from(file))
                    .await
                    .ok()
                    .map(Arc::new),
                None => None,
            };
            bytes.push(reread.unwrap_or_else(|| f.bytes.clone()));
        }
        let entries: Vec<(
            &str,
            &[u8],
            &imr_core::ingest::RawTable,
            &imr_core::ingest::ColumnRoles,
        )> = readable
            .iter()
            .zip(&bytes)
            .zip(&roles)
            .filter_map(|((f, b), r)| {
                f.table
                    .as_ref()
                    .ok()
                    .map(|t| (f.name.as_str(), b.as_slice(), &**t, r))
            })
            .collect();
        let now = js_sys::Date::new_0()
            .to_iso_string()
            .as_string()
            .unwrap_or_default();
        let saved = SavedAnalysis::new(&entries, &options, &now);
        download_text(
            "imr-atlas-analysis.json",
            "application/json",
            &saved.to_json(),
        );
    });
}

#[component]
pub fn DataPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section aria-labelledby="upload-h">
            <h2 id="upload-h">{tr("Datos", "Data")}</h2>
            <crate::pages::findings::Takeaway question="rates"/>
            <Upload/>
            <UploadProgress/>
            <button class="secondary" data-testid="save-analysis" on:click=move |_| save_analysis(state)>{tr("Guardar análisis (JSON)", "Save analysis (JSON)")}</button>
            " "
            <button class="secondary" data-testid="load-bundled" on:click=move |_| state.load_bundled()>{tr("Usar datos incluidos de Chile", "Use the bundled Chilean data")}</button>
        </section>
        {move || state.bundled.get().then(|| view! {
            <p class="note" data-testid="bundled-note">{tr("Mostrando el conjunto incluido: 345 comunas de Chile, 2019–2023 (ver fuentes al pie). Suba sus propios archivos para reemplazarlo.", "Showing the bundled dataset: 345 Chilean communes, 2019–2023 (sources below). Upload your own files to replace it.")}</p>
        })}
        <Microdata/>
        <FilesAndRoles/>
        <Report/>
        <FlaggedRows/>
        <NationalRates/>
        <RatesTable/>
        {move || state.files.with(|f| f.is_empty()).then(|| view! {
            <p class="note">{tr("Elija uno o más archivos CSV para comenzar.", "Choose one or more CSV files to begin.")}</p>
        })}
    }
}

#[component]
fn Upload() -> impl IntoView {
    let state = expect_context::<AppState>();
    let over = RwSignal::new(false);
    let on_change = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        load_file_list(state, input.and_then(|i| i.files()));
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        over.set(false);
        load_file_list(state, ev.data_transfer().and_then(|d| d.files()));
    };
    view! {
        <div class="dropzone" class:over=move || over.get()
            on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); over.set(true); }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop>
            <label for="file-input">{tr("Archivos CSV (nacimientos, defunciones y características comunales): ", "CSV files (births, deaths and commune characteristics): ")}</label>
            <input id="file-input" type="file" multiple accept=".csv,.txt,.tsv,.json,text/csv,text/plain,application/json"
                data-testid="file-input" on:change=on_change/>
            <p class="note">{tr("También puede arrastrar y soltar los archivos aquí. Separador, coma decimal, codificación (UTF-8 o Latin-1) y encabezado se detectan solos.", "You can also drop files here. Delimiter, decimal comma, encoding (UTF-8 or Latin-1) and header are detected.")}</p>
            <p class="privacy">{tr("Sus datos no salen de este navegador: todo se calcula aquí, sin servidor.", "Your data never leave this browser: everything is computed here, with no server.")}</p>
        </div>
    }
}

#[component]
fn FilesAndRoles() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let files = state.files.get();
        if files.is_empty() {
            return None;
        }
        let mut readable = 0usize;
        let items = files
            .into_iter()
            .map(|f| match f.table {
                Err(message) => view! { <li class="error" data-testid="file-error">{message}</li> }.into_any(),
                Ok(table) => {
                    let idx = readable;
                    readable += 1;
                    let d = table.dialect;
                    let (n_records, delimiter, encoding) = (table.records.len(), delimiter_label(d.delimiter), table.encoding.label());
                    let n_meta = table.metadata.len();
                    let summary = move || match lang().get() {
                        Lang::Es => format!(
                            "{n_records} filas · separador «{delimiter}» · decimal «{}» · {encoding} · {}{}",
                            d.decimal.as_char(),
                            if d.has_header { "con encabezado" } else { "sin encabezado" },
                            if n_meta > 0 { format!(" · {n_meta} líneas de metadatos (#) omitidas") } else { String::new() }
                        ),
                        Lang::En => format!(
                            "{n_records} rows · delimiter «{delimiter}» · decimal «{}» · {encoding} · {}{}",
                            d.decimal.as_char(),
                            if d.has_header { "with header" } else { "no header" },
                            if n_meta > 0 { format!(" · {n_meta} metadata lines (#) skipped") } else { String::new() }
                        ),
                    };
                    let selectors = Role::ALL
                        .into_iter()
                        .map(|role| {
                            let columns = table.columns.clone();
                            let id = format!("role-{idx}-{}", role.label());
                            let current = move || state.roles.with(|r| r.get(idx).and_then(|r| r.get(role)));
                            let on_change = move |ev: leptos::ev::Event| {
                                let value = event_target_value(&ev);
                                let choice = value.parse::<usize>().ok();
                                state.roles.update(|r| {
                                    if let Some(roles) = r.get_mut(idx) {
                                        for other in Role::ALL {
                                            if choice.is_some() && roles.get(other) == choice {
                                                roles.set(other, None);
                                            }
                                        }
                                        roles.set(role, choice);
                                    }
                                });
                            };
                            let options = columns
                                .iter()
                                .enumerate()
                                .map(|(i, c)| {
                                    view! { <option value=i.to_string() selected=move || current() == Some(i)>{c.clone()}</option> }
                                })
                                .collect_view();
                            view! {
                                <span>
                                    <label for=id.clone()>{role_label(role)}</label>
                                    <select id=id data-testid=format!("role-{}", role.label()) on:change=on_change>
                                        <option value="" selected=move || current().is_none()>{tr("(ninguna)", "(none)")}</option>
                                        {options}
                                    </select>
                                </span>
                            }
                        })
                        .collect_view();
                    view! {
                        <li>
                            <strong>{f.name.clone()}</strong>" — "<span data-testid="file-summary">{summary}</span>
                            <div class="roles">{selectors}</div>
                        </li>
                    }
                    .into_any()
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="files-h">
                <h3 id="files-h">{tr("Archivos y columnas", "Files and columns")}</h3>
                <ul>{items}</ul>
                <HowCalculated testid="files-method">
                    <p class="note">{tr("Las demás columnas numéricas son covariables; un archivo sin nacimientos ni defunciones se une como características comunales por código (y año si lo tiene).", "Other numeric columns are covariates; a file without births or deaths is joined as commune characteristics by code (and year when it has one).")}</p>
                </HowCalculated>
            </section>
        })
    }
}

fn role_label(role: Role) -> impl Fn() -> &'static str + Copy {
    match role {
        Role::Entity => tr("Código de comuna", "Commune code"),
        Role::Time => tr("Año", "Year"),
        Role::Births => tr("Nacimientos", "Births"),
        Role::Deaths => tr("Defunciones < 1 año", "Infant deaths"),
        Role::Rate => tr("Tasa ‰", "Rate ‰"),
    }
}

#[component]
fn Report() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let panel = state.panel.get()?;
        Some(match panel {
            Err(message) => view! { <section><p class="error" data-testid="panel-error" role="alert">{message}</p></section> }.into_any(),
            Ok(panel) => {
                let r = &panel.report;
                let n_excluded = r.excluded.len();
                let excluded = r
                    .excluded
                    .iter()
                    .map(|e| view! { <li data-line=e.line.to_string()>{let (file, line, kind) = (e.file.clone(), e.line, e.kind.clone()); move || { let l = lang().get(); format!("{file}, {} {line}: {}", l.pick("línea", "line"), kind.text(l)) }}</li> })
                    .collect_view();
                let warnings = (!r.cell_warnings.is_empty()).then(|| {
                    let n = r.cell_warnings.len();
                    let first = r.cell_warnings.iter().take(20).cloned().map(|w| view! { <li>{move || { let l = lang().get(); format!("{}, {} {}, {} `{}`: «{}»", w.file, l.pick("línea", "line"), w.line, l.pick("columna", "column"), w.column, w.value) }}</li> }).collect_view();
                    view! { <details><summary class="warn">{move || match lang().get() { Lang::Es => format!("{n} celdas con texto en columnas numéricas se leyeron como faltantes"), Lang::En => format!("{n} cells with text in numeric columns were read as missing") }}</summary><ul>{first}</ul></details> }
                });
                let derived = panel.deaths_derived.then(|| view! {
                    <p class="warn" data-testid="approximate-note">{tr("Las defunciones se derivaron de la tasa publicada × nacimientos / 1000: no son conteos, y los intervalos son aproximados.", "Deaths were derived from the published rate × births / 1000: they are not counts, and the intervals are approximate.")}</p>
                });
                let recoded = (r.recoded_codes > 0).then(|| view! { <p class="note">{let n = r.recoded_codes; move || match lang().get() { Lang::Es => format!("{n} códigos de Ñuble anteriores a 2018 (084xx) se recodificaron a 16xxx."), Lang::En => format!("{n} pre-2018 Ñuble codes (084xx) were recoded to 16xxx.") }}</p> });
                let merged = (r.merged_rows > 0).then(|| view! { <p class="note" data-testid="merged-note">{let n = r.merged_rows as f64; move || match lang().get() { Lang::Es => format!("{} filas de un archivo se unieron a la misma comuna y año de otro archivo (nacimientos en uno, defunciones en el otro).", format_number(Lang::Es, n, 0)), Lang::En => format!("{} rows of one file were joined to the same commune and year of another file (births in one, deaths in the other).", format_number(Lang::En, n, 0)) }}</p> });
                // Cells on which two joined files disagree (the first file's value is used):
                // listed with both places, so no value is dropped unseen.
                let conflicts = (!r.conflicts.is_empty()).then(|| {
                    let n = r.conflicts.len();
                    let items = r
                        .conflicts
                        .iter()
                        .take(50)
                        .cloned()
                        .map(|c| view! { <li>{move || { let l = lang().get(); let line = l.pick("línea", "line"); format!("{} {}, `{}`: {} ({}, {line} {}) / {} ({}, {line} {})", c.entity, c.time, c.column, c.kept_value, c.kept_file, c.kept_line, c.other_value, c.other_file, c.other_line) }}</li> })
                        .collect_view();
                    view! { <details data-testid="conflicts"><summary class="warn">{move || match lang().get() { Lang::Es => format!("{n} celdas difieren entre archivos unidos: se usó el valor del primer archivo"), Lang::En => format!("{n} cells differ between joined files: the first file's value was used") }}</summary><ul>{items}</ul></details> }
                });
                let total_lines: u64 = r.files.iter().map(|f| f.physical_lines).sum();
                let file_lines = r.files.iter().map(file_lines_item).collect_view();
                view! {
                    <section aria-labelledby="report-h">
                        <h3 id="report-h">{tr("Validación", "Validation")}</h3>
                        <div class="counts">
                            <div>{tr("Líneas", "Lines")}<strong data-testid="physical-lines">{total_lines}</strong></div>
                            <div>{tr("Filas leídas", "Rows read")}<strong data-testid="rows-read">{r.rows_read}</strong></div>
                            <div>{tr("Usadas", "Used")}<strong data-testid="rows-used">{r.rows_used}</strong></div>
                            <div>{tr("Excluidas", "Excluded")}<strong data-testid="rows-excluded">{r.rows_excluded}</strong></div>
                        </div>
                        <ul class="note" data-testid="line-accounting">{file_lines}</ul>
                        {derived}
                        {recoded}
                        {merged}
                        {conflicts}
                        {warnings}
                        {collapse_if_long(
                            n_excluded,
                            move |l: Lang, n: String| match l { Lang::Es => format!("{n} filas excluidas — mostrar todas"), Lang::En => format!("{n} excluded rows — show all") },
                            view! { <ol class="excluded" data-testid="excluded-list" aria-label=tr("Filas excluidas", "Excluded rows")>{excluded}</ol> },
                        )}
                    </section>
                }
                .into_any()
            }
        })
    }
}

/// One file's line accounting: its physical lines are the header, the metadata (`#`) lines, the
/// rows read (used or excluded), and the rest — blank lines and the extra lines of quoted fields
/// that span lines, including the lines an unterminated quote swallowed.
fn file_lines_item(f: &imr_core::ingest::FileReport) -> impl IntoView {
    let header = u64::from(f.has_header);
    let metadata = f.metadata_lines.len() as u64;
    let read = f.rows_read as u64;
    let other = f.physical_lines.saturating_sub(header + metadata + read);
    let (file, lines, used, excluded) = (
        f.file.clone(),
        f.physical_lines,
        f.rows_used,
        f.rows_excluded,
    );
    let file_attr = file.clone();
    view! {
        <li data-file=file_attr data-lines=lines.to_string() data-rows-read=read.to_string() data-other-lines=other.to_string()>{move || {
            let l = lang().get();
            let n = |v: u64| format_number(l, v as f64, 0);
            match l {
                Lang::Es => format!("{file}: {} líneas = {} de encabezado + {} de metadatos (#) + {} filas leídas ({} usadas, {} excluidas) + {} en blanco o dentro de campos entre comillas", n(lines), n(header), n(metadata), n(read), n(used as u64), n(excluded as u64), n(other)),
                Lang::En => format!("{file}: {} lines = {} header + {} metadata (#) + {} rows read ({} used, {} excluded) + {} blank or inside quoted fields", n(lines), n(header), n(metadata), n(read), n(used as u64), n(excluded as u64), n(other)),
            }
        }}</li>
    }
}

/// The rows the plausibility pass flagged (`imr_core::plausibility`), with their reasons: they
/// stay in the data and the downloads, and are kept out of chart scales, map classes and the
/// Findings unless included.
#[component]
fn FlaggedRows() -> impl IntoView {
    let flags = expect_context::<FlagState>();
    move || {
        let f = flags.flags.get()?;
        if f.is_empty() {
            return None;
        }
        let l = lang().get();
        let n = f.len();
        let worst: Vec<String> = f
            .flagged
            .iter()
            .filter(|r| r.rate_per_1000.is_some_and(|x| x > 200.0))
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.entity,
                    commune_name(&r.entity).unwrap_or_default(),
                    r.time
                )
            })
            .collect();
        let summary = match l {
            Lang::Es => format!(
                "{n} filas marcadas{}",
                if worst.is_empty() {
                    String::new()
                } else {
                    format!("; tasa sobre 200 ‰: {}", worst.join(", "))
                }
            ),
            Lang::En => format!(
                "{n} rows flagged{}",
                if worst.is_empty() {
                    String::new()
                } else {
                    format!("; rate above 200 ‰: {}", worst.join(", "))
                }
            ),
        };
        let rows = f
            .flagged
            .iter()
            .map(|r| {
                view! {
                    <tr data-entity=r.entity.clone() data-time=r.time.to_string()>
                        <td class="text">{r.entity.clone()}</td>
                        <td class="text">{commune_name(&r.entity).unwrap_or_default()}</td>
                        <td>{r.time}</td>
                        <td>{format_opt(l, r.births, 0)}</td>
                        <td>{format_opt(l, r.rate_per_1000, 1)}</td>
                        <td class="text">{r.reasons_text(l)}</td>
                        <td class="text">{format!("{}:{}", r.file, r.line)}</td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="flagged-h" data-testid="flagged-rows">
                <h3 id="flagged-h">{tr("Valores inverosímiles", "Implausible values")}</h3>
                <HowCalculated testid="flagged-method"><p class="note">{tr(
                    "Reglas: tasa sobre 200 por 1.000; defunciones derivadas iguales o mayores a la mitad de los nacimientos; tasa publicada sobre menos de 10 nacimientos. Las filas siguen en los datos y las descargas; por defecto quedan fuera de las escalas de los gráficos y de los Hallazgos.",
                    "Rules: rate above 200 per 1,000; derived deaths at least half the births; a published rate on fewer than 10 births. The rows stay in the data and the downloads; by default they are kept out of chart scales and the Findings.",
                )}</p></HowCalculated>
                <IncludeFlagged/>
                <details>
                    <summary data-testid="flagged-summary">{summary}</summary>
                    <div class="scroll">
                        <table data-testid="flagged-table">
                            <thead><tr>
                                <th class="text">{tr("Código", "Code")}</th><th class="text">{tr("Comuna", "Commune")}</th><th>{tr("Año", "Year")}</th>
                                <th>{tr("Nacimientos", "Births")}</th><th>{tr("Tasa ‰", "Rate ‰")}</th><th class="text">{tr("Motivos", "Reasons")}</th><th class="text">{tr("Archivo:línea", "File:line")}</th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                </details>
            </section>
        })
    }
}

/// A count for reading: whole numbers without decimals, derived (fractional) counts with two.
fn fmt_count(lang: Lang, v: f64) -> String {
    format_number(lang, v, if v.fract() == 0.0 { 0 } else { 2 })
}

#[component]
fn NationalRates() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let table = state.rates.get()?.ok()?;
        let l = lang().get();
        let rows = table
            .national
            .iter()
            .map(|n| {
                view! {
                    <tr data-time=n.time.to_string()>
                        <td>{n.time}</td>
                        <td data-field="births">{fmt_count(l, n.births)}</td>
                        <td data-field="deaths">{fmt_count(l, n.deaths)}</td>
                        <td data-field="rate">{format_opt(l, n.rate, 2)}</td>
                        <td data-field="ci_low">{format_opt(l, n.ci_low, 2)}</td>
                        <td data-field="ci_high">{format_opt(l, n.ci_high, 2)}</td>
                        <td>{n.n_areas}</td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="national-h">
                <h3 id="national-h">{tr("Tasa nacional por año (agrupada)", "National pooled rate per year")}</h3>
                <table data-testid="national-rate">
                    <thead><tr><th>{tr("Año", "Year")}</th><th>{tr("Nacimientos", "Births")}</th><th>{tr("Defunciones", "Deaths")}</th><th>{tr("Tasa ‰", "Rate ‰")}</th><th>{tr("IC95 inf.", "95% CI low")}</th><th>{tr("IC95 sup.", "95% CI high")}</th><th>{tr("Comunas", "Communes")}</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </section>
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SortKey {
    Entity,
    Time,
    Births,
    Deaths,
    Rate,
    CiLow,
    CiHigh,
}

fn sort_value(r: &AreaRate, key: SortKey) -> f64 {
    match key {
        SortKey::Entity => 0.0,
        SortKey::Time => r.time as f64,
        SortKey::Births => r.births,
        SortKey::Deaths => r.deaths,
        SortKey::Rate => r.rate.unwrap_or(f64::NEG_INFINITY),
        SortKey::CiLow => r.ci_low.unwrap_or(f64::NEG_INFINITY),
        SortKey::CiHigh => r.ci_high.unwrap_or(f64::NEG_INFINITY),
    }
}

/// Rows shown at once; the search narrows the rest.
const PAGE_ROWS: usize = 400;

/// Rows shown before the table is expanded: the table answers first, the rest is one click away.
/// Collapsed rows stay in the page (hidden), so their text and attributes remain readable.
const PREVIEW_ROWS: usize = 10;

/// Lists longer than this are collapsed behind a summary that names their length.
const LONG_LIST: usize = 20;

/// Methods and long notes, closed by default behind a native (keyboard-accessible) disclosure.
/// With `open`, the reader's choice survives a re-render of the content around it.
#[component]
pub(crate) fn HowCalculated(
    testid: &'static str,
    #[prop(optional)] open: Option<RwSignal<bool>>,
    children: Children,
) -> impl IntoView {
    let on_toggle = move |ev: leptos::ev::Event| {
        let now_open = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| e.has_attribute("open"));
        if let Some(open) = open {
            open.set(now_open);
        }
    };
    view! {
        <details class="how" data-testid=testid
            prop:open=move || open.is_some_and(|o| o.get()) on:toggle=on_toggle>
            <summary>{tr("Cómo se calcula", "How this is calculated")}</summary>
            {children()}
        </details>
    }
}

/// A list shown as is when short, or inside a closed `<details>` whose summary gives its length.
fn collapse_if_long(
    n: usize,
    summary: impl Fn(Lang, String) -> String + Send + Sync + 'static,
    list: impl IntoView + 'static,
) -> AnyView {
    if n > LONG_LIST {
        view! {
            <details class="long-list">
                <summary>{move || { let l = lang().get(); summary(l, format_number(l, n as f64, 0)) }}</summary>
                {list}
            </details>
        }
        .into_any()
    } else {
        list.into_any()
    }
}

#[component]
fn RatesTable() -> impl IntoView {
    let state = expect_context::<AppState>();
    let flags = expect_context::<FlagState>();
    let search = RwSignal::new(String::new());
    let sort = RwSignal::new((SortKey::Entity, true));
    let expanded = RwSignal::new(false);
    move || {
        let table = state.rates.get()?.ok()?;
        let approximate = table.approximate_intervals;
        let csv_table = table.clone();
        let body = move || {
            let l = lang().get();
            let needle = search.get().to_lowercase();
            let (key, ascending) = sort.get();
            let mut rows: Vec<&AreaRate> = table
                .rows
                .iter()
                .filter(|r| {
                    needle.is_empty()
                        || r.entity.to_lowercase().contains(&needle)
                        || r.time.to_string() == needle
                        || commune_name(&r.entity)
                            .is_some_and(|n| n.to_lowercase().contains(&needle))
                })
                .collect();
            rows.sort_by(|a, b| {
                let o = if key == SortKey::Entity {
                    a.entity.cmp(&b.entity).then(a.time.cmp(&b.time))
                } else {
                    sort_value(a, key).total_cmp(&sort_value(b, key))
                };
                if ascending {
                    o
                } else {
                    o.reverse()
                }
            });
            let total = rows.len();
            let communes = rows
                .iter()
                .map(|r| r.entity.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            let years = rows
                .iter()
                .map(|r| r.time)
                .min()
                .zip(rows.iter().map(|r| r.time).max());
            let flagged = flags.flags.get();
            let shown = rows
                .into_iter()
                .take(PAGE_ROWS)
                .enumerate()
                .map(|(i, r)| {
                    let beyond_preview = i >= PREVIEW_ROWS;
                    let is_flagged = flagged
                        .as_ref()
                        .is_some_and(|f| f.is_flagged(&r.entity, r.time));
                    view! {
                        <tr data-entity=r.entity.clone() data-time=r.time.to_string()
                            data-flagged=is_flagged.then_some("true") class:flagged=is_flagged
                            hidden=move || beyond_preview && !expanded.get()>
                            <td class="text">{r.entity.clone()}</td>
                            <td class="text">{commune_name(&r.entity).unwrap_or_default()}</td>
                            <td>{r.time}</td>
                            <td data-field="births">{fmt_count(l, r.births)}</td>
                            <td data-field="deaths">{fmt_count(l, r.deaths)}</td>
                            <td data-field="rate">{format_opt(l, r.rate, 2)}</td>
                            <td data-field="ci_low">{format_opt(l, r.ci_low, 2)}</td>
                            <td data-field="ci_high">{format_opt(l, r.ci_high, 2)}</td>
                        </tr>
                    }
                })
                .collect_view();
            let more = (total > PAGE_ROWS).then(|| view! { <p class="note">{move || match lang().get() { Lang::Es => format!("Se muestran {PAGE_ROWS} de {total} filas: use la búsqueda."), Lang::En => format!("Showing {PAGE_ROWS} of {total} rows: use the search.") }}</p> });
            let toggle = (total > PREVIEW_ROWS).then(|| {
                let span = years.map(|(a, b)| if a == b { a.to_string() } else { format!("{a}–{b}") }).unwrap_or_default();
                let label = move || {
                    let l = lang().get();
                    let (rows_w, communes_w) = (l.pick("filas", "rows"), l.pick("comunas", "communes"));
                    let action = match (l, expanded.get()) {
                        (Lang::Es, false) => "mostrar todas".to_owned(),
                        (Lang::Es, true) => format!("mostrar solo {PREVIEW_ROWS}"),
                        (Lang::En, false) => "show all".to_owned(),
                        (Lang::En, true) => format!("show only {PREVIEW_ROWS}"),
                    };
                    format!("{} {rows_w} · {} {communes_w} · {span} — {action}", format_number(l, total as f64, 0), format_number(l, communes as f64, 0))
                };
                view! {
                    <tfoot><tr class="summary-row"><td colspan="8" class="text">
                        <button class="link" data-testid="rates-toggle" aria-controls="rates-table" aria-expanded=move || if expanded.get() { "true" } else { "false" }
                            on:click=move |_| expanded.update(|e| *e = !*e)>{label}</button>
                    </td></tr></tfoot>
                }
            });
            (shown, more, toggle)
        };
        Some(view! {
            <section aria-labelledby="rates-h">
                <h3 id="rates-h">{tr("Tasa de mortalidad infantil por comuna y año (por 1.000 nacidos vivos)", "Infant mortality rate by commune and year (per 1,000 live births)")}</h3>
                <HowCalculated testid="rates-method">
                    <p class="note">{tr("Tasa = defunciones de menores de 1 año / nacidos vivos × 1.000. Intervalo de confianza 95% exacto de Poisson (Garwood).", "Rate = infant deaths / live births × 1,000. Exact Poisson (Garwood) 95% confidence interval.")}
                        {approximate.then(|| tr(" Aproximado: las defunciones se derivaron de tasas.", " Approximate: deaths were derived from rates."))}</p>
                </HowCalculated>
                <label for="rates-search">{tr("Buscar comuna o año: ", "Search commune or year: ")}</label>
                <input id="rates-search" type="search" data-testid="rates-search" prop:value=move || search.get() on:input=move |ev| search.set(event_target_value(&ev))/>
                <button class="secondary" data-testid="rates-csv-download" on:click=move |_| download_csv(&state, "tasas_imr.csv", &rates_csv(&csv_table))>{tr("Descargar CSV", "Download CSV")}</button>
                {move || {
                    let (shown, more, toggle) = body();
                    view! {
                        <div class="scroll">
                            <table data-testid="rates-table" id="rates-table">
                                <thead><tr>
                                    {sort_header(sort, tr("Código", "Code"), SortKey::Entity)}
                                    <th class="text">{tr("Comuna", "Commune")}</th>
                                    {sort_header(sort, tr("Año", "Year"), SortKey::Time)}
                                    {sort_header(sort, tr("Nacimientos", "Births"), SortKey::Births)}
                                    {sort_header(sort, tr("Defunciones", "Deaths"), SortKey::Deaths)}
                                    {sort_header(sort, tr("Tasa ‰", "Rate ‰"), SortKey::Rate)}
                                    {sort_header(sort, tr("IC95 inf.", "95% CI low"), SortKey::CiLow)}
                                    {sort_header(sort, tr("IC95 sup.", "95% CI high"), SortKey::CiHigh)}
                                </tr></thead>
                                <tbody>{shown}</tbody>
                                {toggle}
                            </table>
                        </div>
                        {more}
                    }
                }}
            </section>
        })
    }
}

/// Official name of a Chilean commune code, from the code list embedded in the engine.
fn commune_name(code: &str) -> Option<String> {
    imr_core::ingest::codes::CutCodes::embedded()
        .commune(code)
        .map(|c| c.name.clone())
}

/// A column header that sorts the table by `key` (toggling the direction on a second click).
fn sort_header(
    sort: RwSignal<(SortKey, bool)>,
    label: impl Fn() -> &'static str + Send + Sync + 'static,
    key: SortKey,
) -> impl IntoView {
    let aria = move || match sort.get() {
        (k, true) if k == key => "ascending",
        (k, false) if k == key => "descending",
        _ => "none",
    };
    view! {
        <th aria-sort=aria class:text=key == SortKey::Entity>
            <button on:click=move |_| sort.update(|s| *s = if s.0 == key { (key, !s.1) } else { (key, true) })>{label}</button>
        </th>
    }
}
