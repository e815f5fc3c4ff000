//! The answers before the engine. `make dist` writes into `index.html` the page as this app
//! renders it on the bundled data's Findings, once per language, and into `prerendered/` the
//! panel of each other view (scripts/prerender.mjs); an inline script there shows the reader's
//! language at once (`#prerendered`) when the page opens on those Findings, so a phone reads the
//! answers while the wasm is still downloading, and fetches a view's panel when its tab is
//! chosen before the app is there.
//!
//! The app then renders into its own root, kept out of the document until it shows what the
//! copy shows (the results of the view the copy shows are in place: [`ready_markers`]), or shows
//! something else on purpose (a view the copy has not fetched, or the reader's own files came
//! back); then its
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
/// What says a view's results are on screen (e2e/views.mjs `READY`, which scripts/prerender.mjs
/// waits for before it copies a view): once all of them are in the app's root, the root shows
/// what the copy of that view shows.
fn ready_markers(view: View) -> &'static [&'static str] {
    match view {
        View::Findings => &[r#"[data-question="where"] [data-testid="finding-headline"]"#],
        View::Data => &[
            r#"[data-testid="rates-table"]"#,
            r#"[data-testid="flagged-summary"]"#,
        ],
        View::Inequality => &[
            r#"[data-testid="ineq-answer"]"#,
            r#"[data-testid="inequality-table"]"#,
            r#"[data-testid="ineq-adjusted"]"#,
        ],
        View::Models => &[
            r#"[data-testid="coef-table"]"#,
            r#"[data-testid="diagnostics"]"#,
        ],
        View::Map => &[
            r#"svg[data-testid="choropleth"]"#,
            r#"[data-testid="map-legend"] [data-legend-class="0"]"#,
        ],
    }
}

/// The view the copy shows, as the inline script of scripts/prerender.mjs marks it (absent
/// while it fetches one, or when a view has no copy).
const COPY_VIEW: &str = "data-prerendered-view";

/// Frames after the data are loaded before the app takes the place of a copy that it does not
/// (yet) show: a few for the Findings (a file the browser could not read has no fifth answer),
/// more for the other views, whose results take longer on a phone (the inequality bootstrap).
fn patience(view: View) -> u32 {
    match view {
        View::Findings => 3,
        _ => 600,
    }
}

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
        let view = state.view.get_untracked();
        let shown = copy.get_attribute(COPY_VIEW);
        let answered = ready_markers(view)
            .iter()
            .all(|m| root.query_selector(m).ok().flatten().is_some());
        // The copy shows another view than the app (or none, while it fetches one), or the
        // data are not the bundled ones: nothing to wait for.
        let elsewhere =
            shown.as_deref() != Some(view.to_string().as_str()) || !state.bundled.get_untracked();
        let loaded = !state.bundled_loading.get_untracked()
            && state.files.with_untracked(|files| !files.is_empty());
        // A view whose results never come (a bundled file the browser could not read) shows
        // its message after a while, like any other state of the view.
        let frames_since_loaded = if loaded { frames_since_loaded + 1 } else { 0 };
        if answered || elsewhere || frames_since_loaded > patience(view) {
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
