//! The year-switch timing line (`switch-time`). It is the one timing hook left in the view:
//! e2e/map.test.mjs waits for it and prints how long a year switch takes (bench/browser.mjs
//! times the first map with its own init script and needs nothing from the page).

use crate::i18n::lang;
use crate::messages::messages;
use leptos::prelude::*;
use std::time::Duration;

/// Milliseconds since the page opened (`performance.now()`).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Runs `switch` (a year change) and times it from the change to the end of the reactive update
/// (a timeout runs after the microtasks that update the DOM) and to the next frame, into `ms`
/// as (script, painted).
pub(super) fn time_switch(ms: RwSignal<Option<(f64, f64)>>, switch: impl FnOnce()) {
    let t0 = now_ms();
    switch();
    set_timeout(
        move || {
            let script = now_ms() - t0;
            request_animation_frame(move || {
                set_timeout(
                    move || ms.set(Some((script, now_ms() - t0))),
                    Duration::ZERO,
                )
            });
        },
        Duration::ZERO,
    );
}

/// The last year switch's times.
#[component]
pub(super) fn SwitchTime(ms: RwSignal<Option<(f64, f64)>>) -> impl IntoView {
    let lang = lang();
    view! {
        <p class="note" data-testid="switch-time" aria-live="polite">
            {move || {
                ms.get()
                    .map(|(script, painted)| (messages(lang.get())
                        .map
                        .switch_time)(
                        &crate::i18n::format_number(lang.get(), script, 1),
                        &crate::i18n::format_number(lang.get(), painted, 1),
                    ))
            }}
        </p>
    }
}
