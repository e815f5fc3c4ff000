//! The reader's files kept in this browser, so that a reload (phones reload background tabs)
//! brings back the data she uploaded instead of silently returning to the bundled dataset.
//!
//! The page's own storage, IndexedDB (database `imr-atlas`, store `kept`): nothing is sent
//! anywhere (the page's Content-Security-Policy forbids any other connection). What is kept:
//!
//! - a file read on the page's thread (≤ 4 MiB): its exact bytes;
//! - a big file read by the worker (> 4 MiB): its `File` object, which IndexedDB stores by
//!   copying the file's contents into the browser's storage (the handle alone would not survive
//!   a reload); on reload the worker reads that copy again, with its progress bar;
//! - health-ministry microdata: not the file of hundreds of MB but the counts the worker
//!   aggregated from it (`imr_microdata_conteos.csv`, a loaded file like any other);
//!
//! with each file's column roles (by position in its header, the same file gives the same
//! header) and the year of files without a year column. One record `meta` lists the files by
//! key; each file is its own record, written once (a role change rewrites `meta` only).
//!
//! When the bundled data are loaded (the "remove my data" button, "Use bundled data", or no
//! file readable) the store is emptied. A `localStorage` hint says whether files are kept, so
//! that a visit with nothing kept loads the bundled data at once, without waiting for the
//! store to open. A browser that keeps nothing for this page (a file
//! opened from disk in some browsers, private windows, a full disk) says so above the views:
//! the data stay loaded until the page is reloaded.

use crate::components::csv_upload::{parse_in_worker, CsvUpload, Stop, UploadStatus};
use crate::state::{read_owned_file, AppState, BlobKey, LoadedFile};
use imr_core::ingest::{ColumnRoles, Role};
use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransaction, IdbTransactionMode};

const DATABASE: &str = "imr-atlas";
const STORE: &str = "kept";
const META: &str = "meta";
/// The shape of the `meta` record; another version is not read (the bundled data load).
const FORMAT: u32 = 1;
/// How long the page waits for the browser's storage to open before it loads the bundled
/// data instead (a storage that never answers must not leave the page empty).
const OPEN_TIMEOUT_MS: i32 = 4000;

/// What the page says about the reader's kept data, above the views.
#[derive(Debug, Clone, PartialEq)]
pub enum KeptStatus {
    /// Nothing to add to the names of the files (or the bundled data are shown).
    Quiet,
    /// The kept files are being read again after a reload.
    Restoring,
    /// The reader removed her data.
    Removed,
    /// The files could not be kept: the browser's reason, or `None` when this browser keeps
    /// nothing for this page.
    NotKept(Option<String>),
}

/// The kept data's status, provided through context.
#[derive(Clone, Copy)]
pub struct Kept {
    pub status: RwSignal<KeptStatus>,
}

/// A loaded file as the store knows it: by its `File` handle, or by its bytes (the same `Arc`,
/// held here so that its address cannot be another file's while it is listed).
#[derive(Debug, Clone)]
enum Identity {
    Blob(BlobKey),
    Bytes(Arc<Vec<u8>>),
}

impl PartialEq for Identity {
    fn eq(&self, other: &Identity) -> bool {
        match (self, other) {
            (Identity::Blob(a), Identity::Blob(b)) => a == b,
            (Identity::Bytes(a), Identity::Bytes(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Identity {
    fn of(file: &LoadedFile) -> Identity {
        match file.blob {
            Some(key) => Identity::Blob(key),
            None => Identity::Bytes(file.bytes.clone()),
        }
    }
}

thread_local! {
    /// The open database; `None` when the browser keeps nothing for this page.
    static OPEN: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
    /// The files in the store: which loaded file each key holds.
    static STORED: RefCell<Vec<(Identity, String)>> = const { RefCell::new(Vec::new()) };
    static NEXT_KEY: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The `localStorage` key that says files are kept: read synchronously at start, so that a
/// page with nothing kept (the usual visit) loads the bundled data at once, as it always did,
/// instead of after the store has opened.
const HINT: &str = "imr-atlas-kept";

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the last write kept files (the hint; the store itself decides).
fn hinted() -> bool {
    local_storage().is_some_and(|s| s.get_item(HINT).ok().flatten().is_some())
}

fn set_hint(kept: bool) {
    if let Some(storage) = local_storage() {
        let _ = match kept {
            true => storage.set_item(HINT, "1"),
            false => storage.remove_item(HINT),
        };
    }
}

/// Opens the store and loads what it keeps, or the bundled data when it keeps nothing; from
/// then on keeps every change of the loaded files. Called once, by the app. With nothing kept
/// (no hint) the bundled data load at once and the store opens behind them.
pub fn start(state: AppState, upload: CsvUpload) -> Kept {
    let kept = Kept {
        status: RwSignal::new(KeptStatus::Quiet),
    };
    let hinted = hinted();
    if !hinted {
        state.load_bundled();
    }
    spawn_local(async move {
        let opened = open().await;
        // Whether data are shown: the bundled data loaded at once, or the kept files restored.
        let shown = match opened {
            Ok(db) => {
                OPEN.with(|o| *o.borrow_mut() = Some(db));
                if hinted {
                    kept.status.set(KeptStatus::Restoring);
                    let restored = restore(state, upload).await;
                    kept.status.set(KeptStatus::Quiet);
                    restored
                } else {
                    true
                }
            }
            Err(_) => {
                kept.status.set(KeptStatus::NotKept(None));
                !hinted
            }
        };
        if !shown {
            state.load_bundled();
        }
        // From now on every change of the loaded files is kept.
        Effect::new(move |_| {
            let bundled = state.bundled.get();
            let time_value = state.time_value.get();
            let outcome = state.files.with(|files| {
                state.roles.with(|roles| match bundled {
                    true => forget(),
                    false => keep(files, roles, time_value),
                })
            });
            if let Some(pending) = outcome {
                spawn_local(async move {
                    let written = pending.await;
                    if written.is_ok() {
                        set_hint(!bundled);
                    }
                    match (written, bundled) {
                        (Ok(()), _) => kept.status.update(|s| {
                            if matches!(s, KeptStatus::NotKept(Some(_))) {
                                *s = KeptStatus::Quiet;
                            }
                        }),
                        (Err(reason), false) => kept.status.set(KeptStatus::NotKept(Some(reason))),
                        (Err(_), true) => {}
                    }
                });
            }
        });
    });
    kept
}

/// "Remove my data": the store emptied (by the bundled data's load) and the bundled data shown.
pub fn remove_my_data(state: AppState, kept: Kept) {
    state.load_bundled();
    kept.status.set(KeptStatus::Removed);
}

/// The database, opened (created at the first visit).
async fn open() -> Result<IdbDatabase, String> {
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()
        .map_err(describe)?
        .ok_or("no IndexedDB")?;
    let request = factory.open_with_u32(DATABASE, 1).map_err(describe)?;
    let upgrade = Closure::once_into_js(move |event: web_sys::Event| {
        let db = event
            .target()
            .and_then(|t| t.dyn_into::<IdbRequest>().ok())
            .and_then(|r| r.result().ok())
            .and_then(|r| r.dyn_into::<IdbDatabase>().ok());
        if let Some(db) = db {
            if !db.object_store_names().contains(STORE) {
                let _ = db.create_object_store(STORE);
            }
        }
    });
    request.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
    let result = settle(&request, true).await?;
    result.dyn_into::<IdbDatabase>().map_err(describe)
}

/// Waits for a request: its result, or the browser's reason (a request that never settles
/// fails after [`OPEN_TIMEOUT_MS`] when `timeout`).
async fn settle(request: &IdbRequest, timeout: bool) -> Result<JsValue, String> {
    let promise = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
        if timeout {
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    &reject,
                    OPEN_TIMEOUT_MS,
                );
            }
        }
    });
    match JsFuture::from(promise).await {
        Ok(_) => request.result().map_err(describe),
        Err(_) => Err(request
            .error()
            .ok()
            .flatten()
            .map(|e| e.message())
            .unwrap_or_else(|| "no answer".into())),
    }
}

/// Waits for a transaction to be written: `Err` with the browser's reason when it is aborted
/// (e.g. `QuotaExceededError`: no room left for the files).
async fn committed(transaction: IdbTransaction) -> Result<(), String> {
    let promise = Promise::new(&mut |resolve, reject| {
        transaction.set_oncomplete(Some(&resolve));
        transaction.set_onabort(Some(&reject));
        transaction.set_onerror(Some(&reject));
    });
    match JsFuture::from(promise).await {
        Ok(_) => Ok(()),
        Err(_) => Err(transaction
            .error()
            .map(|e| format!("{}: {}", e.name(), e.message()))
            .unwrap_or_else(|| "aborted".into())),
    }
}

fn describe(error: JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| format!("{error:?}"))
}

/// A read-write transaction on the store, if the database is open.
fn transaction() -> Option<IdbTransaction> {
    OPEN.with(|o| {
        o.borrow().as_ref().and_then(|db| {
            db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)
                .ok()
        })
    })
}

type Pending = std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), String>>>>;

/// Empties the store (the bundled data are shown). Started now, so that writes keep the
/// order of the changes; the future says when it is done.
fn forget() -> Option<Pending> {
    let transaction = transaction()?;
    let cleared = transaction
        .object_store(STORE)
        .and_then(|store| store.clear().map(|_| ()));
    STORED.with(|s| s.borrow_mut().clear());
    Some(Box::pin(async move {
        cleared.map_err(describe)?;
        committed(transaction).await
    }))
}

/// Keeps the readable `files` with their `roles` and the year of files without a year
/// column: each file not yet in the store is written, `meta` is rewritten, and the files no
/// longer loaded are deleted. Started now (see [`forget`]).
fn keep(files: &[LoadedFile], roles: &[ColumnRoles], time_value: Option<i64>) -> Option<Pending> {
    let transaction = transaction()?;
    let written = (|| -> Result<(), JsValue> {
        let store = transaction.object_store(STORE)?;
        let readable: Vec<&LoadedFile> = files.iter().filter(|f| f.table.is_ok()).collect();
        let listed = Array::new();
        let mut now: Vec<(Identity, String)> = Vec::new();
        for (file, roles) in readable.iter().zip(roles) {
            let identity = Identity::of(file);
            let known = STORED.with(|s| {
                s.borrow()
                    .iter()
                    .find(|(i, _)| *i == identity)
                    .map(|(_, k)| k.clone())
            });
            let key = match known {
                Some(key) => key,
                None => {
                    let key = new_key();
                    let data: JsValue = match file.blob.and_then(|b| b.file()) {
                        Some(handle) => handle.into(),
                        None => Uint8Array::from(file.bytes.as_slice()).into(),
                    };
                    store.put_with_key(&data, &JsValue::from_str(&key))?;
                    key
                }
            };
            let entry = Object::new();
            Reflect::set(&entry, &"key".into(), &JsValue::from_str(&key))?;
            Reflect::set(&entry, &"name".into(), &JsValue::from_str(&file.name))?;
            Reflect::set(&entry, &"roles".into(), &roles_to_js(roles))?;
            listed.push(&entry);
            now.push((identity, key));
        }
        let meta = Object::new();
        Reflect::set(&meta, &"format".into(), &JsValue::from(FORMAT))?;
        Reflect::set(&meta, &"files".into(), &listed)?;
        let year = time_value.map_or(JsValue::NULL, |y| JsValue::from_f64(y as f64));
        Reflect::set(&meta, &"timeValue".into(), &year)?;
        store.put_with_key(&meta, &JsValue::from_str(META))?;
        let before = STORED.with(|s| std::mem::replace(&mut *s.borrow_mut(), now.clone()));
        for (_, key) in before
            .iter()
            .filter(|(_, k)| !now.iter().any(|(_, n)| n == k))
        {
            store.delete(&JsValue::from_str(key))?;
        }
        Ok(())
    })();
    Some(Box::pin(async move {
        written.map_err(describe)?;
        committed(transaction).await
    }))
}

/// A key no file of this page has had.
fn new_key() -> String {
    let n = NEXT_KEY.with(|k| {
        k.set(k.get() + 1);
        k.get()
    });
    format!("file-{}-{n}", js_sys::Date::now() as u64)
}

/// The roles as the column positions of entity, time, births, deaths and rate (−1: none).
fn roles_to_js(roles: &ColumnRoles) -> JsValue {
    let array = Array::new();
    for role in Role::ALL {
        array.push(&JsValue::from_f64(
            roles.get(role).map_or(-1.0, |i| i as f64),
        ));
    }
    array.into()
}

fn roles_from_js(value: &JsValue) -> ColumnRoles {
    let mut roles = ColumnRoles::default();
    if let Some(array) = value.dyn_ref::<Array>() {
        for (k, role) in Role::ALL.into_iter().enumerate() {
            let at = array.get(k as u32).as_f64().filter(|i| *i >= 0.0);
            roles.set(role, at.map(|i| i as usize));
        }
    }
    roles
}

/// Reads a record of the store.
async fn get(key: &str) -> Result<JsValue, String> {
    let transaction = OPEN.with(|o| {
        o.borrow()
            .as_ref()
            .and_then(|db| db.transaction_with_str(STORE).ok())
    });
    let request = transaction
        .ok_or("no database")?
        .object_store(STORE)
        .and_then(|s| s.get(&JsValue::from_str(key)))
        .map_err(describe)?;
    settle(&request, false).await
}

/// Loads the kept files with their roles and year; false when there are none (or none can be
/// read again), and then the store is emptied of what it held.
async fn restore(state: AppState, upload: CsvUpload) -> bool {
    let Ok(meta) = get(META).await else {
        return false;
    };
    let format = Reflect::get(&meta, &"format".into())
        .ok()
        .and_then(|f| f.as_f64());
    if meta.is_undefined() || format != Some(FORMAT as f64) {
        if let Some(pending) = forget() {
            let _ = pending.await;
        }
        return false;
    }
    let listed: Array = Reflect::get(&meta, &"files".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .unwrap_or_default();
    let time_value = Reflect::get(&meta, &"timeValue".into())
        .ok()
        .and_then(|y| y.as_f64())
        .map(|y| y as i64);
    let mut loaded: Vec<LoadedFile> = Vec::new();
    let mut roles: Vec<ColumnRoles> = Vec::new();
    let mut stored: Vec<(Identity, String)> = Vec::new();
    for entry in listed.iter() {
        let text = |field: &str| {
            Reflect::get(&entry, &field.into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let (key, name) = (text("key"), text("name"));
        let Ok(data) = get(&key).await else { continue };
        let file = if let Some(bytes) = data.dyn_ref::<Uint8Array>() {
            read_owned_file(&name, bytes.to_vec())
        } else if let Some(blob) = data.dyn_ref::<web_sys::Blob>() {
            let handle = match blob.dyn_ref::<web_sys::File>() {
                Some(f) => f.clone(),
                None => match web_sys::File::new_with_blob_sequence(&Array::of1(blob), &name) {
                    Ok(f) => f,
                    Err(_) => continue,
                },
            };
            match parse_in_worker(&handle, upload).await {
                Ok(table) => LoadedFile {
                    name,
                    bytes: Default::default(),
                    blob: Some(BlobKey::keep(handle)),
                    table: Ok(Arc::new(table)),
                },
                Err(Stop::Cancelled) => continue,
                Err(Stop::Failed(failure)) => {
                    upload.status.set(UploadStatus::Failed(failure));
                    continue;
                }
            }
        } else {
            continue;
        };
        if file.table.is_err() {
            continue;
        }
        roles.push(roles_from_js(
            &Reflect::get(&entry, &"roles".into()).unwrap_or_default(),
        ));
        stored.push((Identity::of(&file), key));
        loaded.push(file);
    }
    if loaded.is_empty() {
        if let Some(pending) = forget() {
            let _ = pending.await;
        }
        return false;
    }
    STORED.with(|s| *s.borrow_mut() = stored);
    state.bundled.set(false);
    state.time_value.set(time_value);
    state.load(loaded, Some(roles));
    true
}
