//! The state of an analysis in the URL fragment (`#view=map&year=2021&scheme=jenks`), so that a
//! link reopens the same view on the same data. Only options go there, never the data.
//!
//! Both ways, without a reload (the loaded data stay): a change of view is a new history entry
//! (`history.pushState`), any other option rewrites the current one (`replaceState`, no entry per
//! click); Back/Forward (`popstate`) and a link pasted into the open tab that differs only in the
//! fragment (`hashchange`) set the parameters from the address, and every synced signal follows
//! (an option missing from the address goes back to its default).

use leptos::prelude::*;
use std::collections::BTreeMap;
use std::str::FromStr;

// The parsing and its contract (bounds, what is dropped) live in the engine, where they are
// tested and fuzzed natively: docs/INPUT-CONTRACT.md.
pub use imr_core::ingest::fragment::{format_fragment, parse_fragment};

/// The parameter that names the view: changing it is a new history entry.
const VIEW_KEY: &str = "view";

/// The fragment's parameters, shared by every view through context.
#[derive(Clone, Copy)]
pub struct Fragment {
    params: RwSignal<BTreeMap<String, String>>,
}

impl Fragment {
    /// Reads the page's fragment and keeps it up to date from then on.
    pub fn from_location() -> Fragment {
        let initial = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .map(|h| parse_fragment(&h))
            .unwrap_or_default();
        let params = RwSignal::new(initial);
        Effect::new(move |_| {
            let text = format_fragment(&params.get());
            let Some(window) = web_sys::window() else {
                return;
            };
            let current = window.location().hash().unwrap_or_default();
            if current.trim_start_matches('#') == text {
                return;
            }
            let url = if text.is_empty() {
                " ".to_owned()
            } else {
                format!("#{text}")
            };
            let Ok(history) = window.history() else {
                return;
            };
            let address_view = parse_fragment(&current).remove(VIEW_KEY);
            let view_changed = address_view.is_some()
                && address_view != params.with_untracked(|p| p.get(VIEW_KEY).cloned());
            let null = wasm_bindgen::JsValue::NULL;
            let _ = match view_changed {
                true => history.push_state_with_url(&null, "", Some(url.trim())),
                false => history.replace_state_with_url(&null, "", Some(url.trim())),
            };
        });
        // Back/Forward, or a pasted link: the address is the state.
        let from_address = move || {
            let address = web_sys::window()
                .and_then(|w| w.location().hash().ok())
                .map(|h| parse_fragment(&h))
                .unwrap_or_default();
            if params.with_untracked(|p| *p != address) {
                params.set(address);
            }
        };
        window_event_listener(leptos::ev::popstate, move |_| from_address());
        window_event_listener(leptos::ev::hashchange, move |_| from_address());
        Fragment { params }
    }

    /// A signal stored in the fragment under `key`: it starts from the fragment's value when that
    /// parses, else from `default`, and every change is written back.
    pub fn synced<T>(&self, key: &'static str, default: T) -> RwSignal<T>
    where
        T: FromStr + ToString + Clone + Send + Sync + 'static,
    {
        self.synced_with(key, default, T::to_string, |s| s.parse::<T>().ok())
    }

    /// [`Fragment::synced`] for types written and read by the given functions (options, lists).
    pub fn synced_with<T>(
        &self,
        key: &'static str,
        default: T,
        write: fn(&T) -> String,
        read: fn(&str) -> Option<T>,
    ) -> RwSignal<T>
    where
        T: Clone + Send + Sync + 'static,
    {
        let start = self
            .params
            .with_untracked(|p| p.get(key).and_then(|v| read(v)))
            .unwrap_or_else(|| default.clone());
        let signal = RwSignal::new(start);
        let params = self.params;
        Effect::new(move |_| {
            let value = signal.with(write);
            if params.with_untracked(|p| p.get(key) != Some(&value)) {
                params.update(|p| {
                    p.insert(key.to_owned(), value);
                });
            }
        });
        // And back: when this key's parameter changes (a saved analysis was opened, Back or a
        // pasted link), the signal follows; a parameter that disappeared means the default. Only
        // a change of the parameter itself counts: other keys being written, or the parameter
        // lagging behind the signal, must not reset it.
        Effect::new(move |previous: Option<Option<String>>| {
            let current = params.with(|p| p.get(key).cloned());
            if let Some(previous) = previous {
                if previous != current {
                    let value = match current.as_deref() {
                        Some(text) => read(text),
                        None => Some(default.clone()),
                    };
                    if let Some(v) = value {
                        if signal.with_untracked(|s| write(s) != write(&v)) {
                            signal.set(v);
                        }
                    }
                }
            }
            current
        });
        signal
    }

    /// The whole fragment text (saved with an analysis).
    pub fn text(&self) -> String {
        format_fragment(&self.params.get_untracked())
    }

    /// Replaces every parameter (opening a saved analysis); synced signals follow.
    pub fn restore(&self, text: &str) {
        self.params.set(parse_fragment(text));
    }
}

/// The fragment of the page, from context.
pub fn fragment() -> Fragment {
    expect_context::<Fragment>()
}
