//! The answers before the engine. `make dist` writes into `index.html` the page as this app
//! renders it on the bundled data's Findings, once per language (scripts/prerender.mjs); an
//! inline script there shows the reader's language at once (`#prerendered`) when the page opens
//! on those Findings, so a phone reads the answers while the wasm is still downloading.
//!
//! The app then renders into its own root, kept out of the document until it shows what the
//! copy shows (its fifth Findings answer is in place), or shows something else on purpose (the
//! reader chose another view on the copy's tabs, or the reader's own files came back); then its
//! root takes the copy's place in one step. Both are the same markup in a `display: contents`
//! wrapper, so nothing on the first screen moves (e2e/prerender.test.mjs compares them).
//! Without the copy (another view in the address, a shared link's options, kept files, a page
//! built without it) the root is in the document from the start.

use crate::state::{AppState, View};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The id of the shown copy (written by the inline script of scripts/prerender.mjs).
const COPY_ID: &str = "prerendered";
/// The id of the app's root.
const ROOT_ID: &str = "app";
/// The app's fifth Findings answer: once it is in the root, the root shows what the copy shows.
const ANSWERED: &str = r#"[data-question="where"] [data-testid="finding-headline"]"#;

/// The element the app mounts into: a `display: contents` `<div id="app">`, in the body at once
/// unless a prerendered copy is shown (then [`take_over`] puts it in place).
pub fn app_root() -> Option<web_sys::HtmlElement> {
    let document = web_sys::window()?.document()?;
    let root: web_sys::HtmlElement = document.create_element("div").ok()?.dyn_into().ok()?;
    root.set_id(ROOT_ID);
    let _ = root.style().set_property("display", "contents");
    if document.get_element_by_id(COPY_ID).is_none() {
        document.body()?.append_child(&root).ok()?;
    } else {
        DETACHED_ROOT.with(|r| *r.borrow_mut() = Some(root.clone()));
    }
    Some(root)
}

/// Puts the app's root in the place of the prerendered copy when the app shows the same (or the
/// reader asked for something else): checked once per animation frame. Nothing to do without a
/// copy.
pub fn take_over(state: AppState) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id(COPY_ID).is_none() {
        return;
    }
    check_each_frame(state, 0);
}

fn check_each_frame(state: AppState, frames_since_loaded: u32) {
    request_animation_frame(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let detached = DETACHED_ROOT.with(|r| r.borrow().clone());
        let (Some(copy), Some(root)) = (document.get_element_by_id(COPY_ID), detached) else {
            return;
        };
        let answered = root.query_selector(ANSWERED).ok().flatten().is_some();
        let elsewhere =
            state.view.get_untracked() != View::Findings || !state.bundled.get_untracked();
        let loaded = !state.bundled_loading.get_untracked()
            && state.files.with_untracked(|files| !files.is_empty());
        // A bundled file the browser could not read has no fifth answer: its message is shown
        // a few frames after the load, like any other state of the Findings.
        let frames_since_loaded = if loaded { frames_since_loaded + 1 } else { 0 };
        if answered || elsewhere || frames_since_loaded > 3 {
            swap(&document, &copy, &root);
        } else {
            check_each_frame(state, frames_since_loaded);
        }
    });
}

thread_local! {
    /// The app's root while it is out of the document (from [`app_root`] to the swap).
    static DETACHED_ROOT: std::cell::RefCell<Option<web_sys::HtmlElement>> =
        const { std::cell::RefCell::new(None) };
}

/// The copy out, the root in its place; the focus, if it was on an element of the copy with an
/// id, moves to the app's element with that id.
fn swap(document: &web_sys::Document, copy: &web_sys::Element, root: &web_sys::HtmlElement) {
    let focused_id = document
        .active_element()
        .filter(|e| copy.contains(Some(e)))
        .map(|e| e.id())
        .filter(|id| !id.is_empty());
    if copy.replace_with_with_node_1(root).is_err() {
        return;
    }
    DETACHED_ROOT.with(|r| *r.borrow_mut() = None);
    let target = focused_id
        .and_then(|id| document.get_element_by_id(&id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(target) = target {
        let _ = target.focus();
    }
}
