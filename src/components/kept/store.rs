//! The store of the kept files: IndexedDB database `imr-atlas`, object store `kept`, one
//! record `meta` listing the files by key and one record per file (its bytes, or its `File`,
//! which IndexedDB stores by copying its contents). Writes start when asked, so that they keep
//! the order of the changes; each returns a future that says when it is written.

use crate::state::{BlobKey, LoadedFile};
use imr_core::ingest::{ColumnRoles, Role};
use js_sys::{Array, Object, Promise, Reflect, Uint8Array};
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

/// A loaded file as the store knows it: by its `File` handle, or by its bytes (the same `Arc`,
/// held here so that its address cannot be another file's while it is listed).
#[derive(Debug, Clone)]
pub(super) enum Identity {
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
    pub(super) fn of(file: &LoadedFile) -> Identity {
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

/// Opens the database (created at the first visit) for the store's reads and writes; `Err`
/// with the reason when this browser keeps nothing for the page.
pub(super) async fn open_store() -> Result<(), String> {
    let db = open().await?;
    OPEN.with(|o| *o.borrow_mut() = Some(db));
    Ok(())
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

pub(super) type Pending = std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), String>>>>;

/// Empties the store (the bundled data are shown). Started now, so that writes keep the
/// order of the changes; the future says when it is done.
pub(super) fn forget() -> Option<Pending> {
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

/// Keeps the readable `files` with their `roles`, the year the reader gave each (`years`) and
/// the year of files without a year column: each file not yet in the store is written, `meta`
/// is rewritten, and the files no longer loaded are deleted. Started now (see [`forget`]).
pub(super) fn keep(
    files: &[LoadedFile],
    roles: &[ColumnRoles],
    years: &[Option<i64>],
    time_value: Option<i64>,
) -> Option<Pending> {
    let transaction = transaction()?;
    let written = (|| -> Result<(), JsValue> {
        let store = transaction.object_store(STORE)?;
        let readable: Vec<&LoadedFile> = files.iter().filter(|f| f.table.is_ok()).collect();
        let listed = Array::new();
        let mut now: Vec<(Identity, String)> = Vec::new();
        for (k, (file, roles)) in readable.iter().zip(roles).enumerate() {
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
            // A spreadsheet's sheet: its workbook, sheet and choice, to read it again.
            // (Plain fields, not serde JSON: no decoder of its own in the main wasm.)
            if let Some(origin) = &file.sheet {
                let sheet = Object::new();
                Reflect::set(
                    &sheet,
                    &"workbook".into(),
                    &JsValue::from_str(&origin.workbook),
                )?;
                Reflect::set(&sheet, &"sheet".into(), &JsValue::from_str(&origin.sheet))?;
                Reflect::set(&sheet, &"all".into(), &JsValue::from_bool(origin.all))?;
                Reflect::set(&entry, &"sheet".into(), &sheet)?;
            }
            Reflect::set(
                &entry,
                &"year".into(),
                &year_to_js(years.get(k).copied().flatten()),
            )?;
            listed.push(&entry);
            now.push((identity, key));
        }
        let meta = Object::new();
        Reflect::set(&meta, &"format".into(), &JsValue::from(FORMAT))?;
        Reflect::set(&meta, &"files".into(), &listed)?;
        Reflect::set(&meta, &"timeValue".into(), &year_to_js(time_value))?;
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

/// A year as the store keeps it (`null`: none).
fn year_to_js(year: Option<i64>) -> JsValue {
    year.map_or(JsValue::NULL, |y| JsValue::from_f64(y as f64))
}

/// A year the store kept: a whole number within the years a year column may hold, else none.
fn year_from_js(value: &JsValue) -> Option<i64> {
    value
        .as_f64()
        .filter(|y| y.fract() == 0.0)
        .and_then(|y| imr_core::ingest::parse_year(&(y as i64).to_string()))
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

/// One kept file as the store holds it: its key, name, column roles, the year the reader gave
/// it, contents (a `Uint8Array` of its bytes or a `Blob` of the browser's copy) and, for a
/// spreadsheet's sheet, where it came from.
pub(super) struct KeptFile {
    pub key: String,
    pub name: String,
    pub roles: ColumnRoles,
    pub year: Option<i64>,
    pub data: JsValue,
    /// The sheet of a spreadsheet it is, if it is one (its `data` the workbook's `File`).
    pub sheet: Option<imr_core::ingest::SheetOrigin>,
}

/// The kept files that can be read again, with the year of files without a year column; `None`
/// when the store keeps none of this format (it is then emptied of what it held).
pub(super) async fn kept_files() -> Option<(Vec<KeptFile>, Option<i64>)> {
    let meta = get(META).await.ok()?;
    let format = Reflect::get(&meta, &"format".into())
        .ok()
        .and_then(|f| f.as_f64());
    if meta.is_undefined() || format != Some(FORMAT as f64) {
        if let Some(pending) = forget() {
            let _ = pending.await;
        }
        return None;
    }
    let listed: Array = Reflect::get(&meta, &"files".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .unwrap_or_default();
    let time_value = Reflect::get(&meta, &"timeValue".into())
        .ok()
        .and_then(|y| year_from_js(&y));
    let mut files = Vec::new();
    for entry in listed.iter() {
        let text = |field: &str| {
            Reflect::get(&entry, &field.into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let (key, name) = (text("key"), text("name"));
        let Ok(data) = get(&key).await else { continue };
        let roles = roles_from_js(&Reflect::get(&entry, &"roles".into()).unwrap_or_default());
        let year = Reflect::get(&entry, &"year".into())
            .ok()
            .and_then(|y| year_from_js(&y));
        let sheet = Reflect::get(&entry, &"sheet".into())
            .ok()
            .filter(|v| v.is_object())
            .and_then(|v| {
                let text = |field: &str| Reflect::get(&v, &field.into()).ok()?.as_string();
                Some(imr_core::ingest::SheetOrigin {
                    workbook: text("workbook")?,
                    sheet: text("sheet")?,
                    all: Reflect::get(&v, &"all".into()).ok()?.as_bool()?,
                })
            });
        files.push(KeptFile {
            key,
            name,
            roles,
            year,
            data,
            sheet,
        });
    }
    Some((files, time_value))
}

/// The loaded files the store holds, by key: set after the kept files are loaded again, so that
/// the next write keeps them without writing them twice.
pub(super) fn remember(stored: Vec<(Identity, String)>) {
    STORED.with(|s| *s.borrow_mut() = stored);
}
