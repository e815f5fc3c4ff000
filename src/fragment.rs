//! The state of an analysis in the URL fragment (`#view=map&year=2021&scheme=jenks`), so that a
//! link reopens the same view on the same data. Only options go there, never the data. The
//! fragment is rewritten with `history.replaceState`, which makes no request and adds no history
//! entry per click.

use leptos::prelude::*;
use std::collections::BTreeMap;
use std::str::FromStr;

// The parsing and its contract (bounds, what is dropped) live in the engine, where they are
// tested and fuzzed natively: docs/INPUT-CONTRACT.md.
pub use imr_core::ingest::fragment::{format_fragment, parse_fragment};

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
            if let Ok(history) = window.history() {
                let _ = history.replace_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(url.trim()),
                );
            }
        });
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
            .unwrap_or(default);
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
        // And back: when this key's parameter changes (a saved analysis was opened), the signal
        // follows. Only a change of the parameter itself counts: other keys being written, or
        // the parameter lagging behind the signal, must not reset it.
        Effect::new(move |previous: Option<Option<String>>| {
            let current = params.with(|p| p.get(key).cloned());
            if let Some(previous) = previous {
                if previous != current {
                    if let Some(v) = current.as_deref().and_then(read) {
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
