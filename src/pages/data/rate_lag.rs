//! The year published rates describe: the engine's test of which year's births the loaded rates
//! fit (`imr_core::lag`, carried by the ingest report), worded in the page's language, and the
//! reader's choice of the lag ([`AppState::rate_lag`]: `imr --rate-lag`, the link's
//! `rate-lag`), with the lag found offered in one click.

use crate::i18n::{format_number, lang, Lang};
use crate::messages::{messages, msg};
use crate::state::AppState;
use imr_core::ingest::MAX_RATE_LAG;
use imr_core::lag::MAX_TESTED_LAG;
use leptos::prelude::*;

/// A lag as its option reads: "the same", "1 year before", "2 years before".
fn lag_label(lag: u32, lang: Lang) -> String {
    let texts = &messages(lang).data;
    match lag {
        0 => texts.rate_lag_same.to_owned(),
        1 => texts.rate_lag_one_year.to_owned(),
        n => (texts.rate_lag_years)(&n.to_string()),
    }
}

/// Offered where deaths are derived from a rate column (or once a lag is given, so that it can
/// be taken back when the columns change): the test's sentence and its years, the choice of the
/// lag, the lag found to accept, and what the lag applied moved.
#[component]
pub(super) fn RateLag() -> impl IntoView {
    let state = expect_context::<AppState>();
    // A memo: the control is built again only when it appears or goes.
    let shown = Memo::new(move |_| {
        state.rate_lag.get() > 0 || state.roles.with(|r| imr_core::ingest::rate_lag_applies(r))
    });
    let report = Memo::new(move |_| {
        let panel = state.panel.get()?.ok()?;
        panel.report.rate_lag.clone()
    });
    let on_change = move |ev: leptos::ev::Event| {
        if let Some(lag) = imr_core::ingest::parse_rate_lag(&event_target_value(&ev)) {
            state.rate_lag.set(lag);
        }
    };
    // The lags offered: those the test tries, and the one chosen (a link may give up to 10).
    let options = move || {
        let current = state.rate_lag.get();
        (0..=MAX_TESTED_LAG.max(current.min(MAX_RATE_LAG)))
            .map(|k| {
                view! {
                    <option value=k.to_string() selected=move || state.rate_lag.get() == k>
                        {move || lag_label(k, lang().get())}
                    </option>
                }
            })
            .collect_view()
    };
    // The lag found, when it is not the one applied.
    let accept = move || {
        let found = report.get()?.lag?;
        (found != state.rate_lag.get()).then(|| {
            view! {
                <button
                    class="secondary"
                    data-testid="rate-lag-accept"
                    on:click=move |_| state.rate_lag.set(found)
                >
                    {move || (messages(lang().get())
                        .data
                        .rate_lag_accept)(&lag_label(found, lang().get()))}
                </button>
            }
        })
    };
    // What the lag applied moved: the files and the rates left without a row.
    let applied = move || {
        let lag = state.rate_lag.get();
        let panel = state.panel.get()?.ok()?;
        let files: Vec<&str> = panel
            .report
            .files
            .iter()
            .filter(|f| f.rate_lag.is_some())
            .map(|f| f.file.as_str())
            .collect();
        if lag == 0 || files.is_empty() {
            return None;
        }
        let files = files.join(", ");
        let unplaced = panel.report.unplaced_rates.len();
        Some(view! {
            <p class="note" role="status" data-testid="rate-lag-applied">
                {move || {
                    let l = lang().get();
                    (messages(l).data.rate_lag_applied)(&lag_label(lag, l), &files)
                }}
                {(unplaced > 0)
                    .then(|| {
                        view! {
                            " "
                            <span data-testid="rate-lag-unplaced">
                                {move || {
                                    let l = lang().get();
                                    (messages(l)
                                        .data
                                        .rate_lag_unplaced)(&format_number(l, unplaced as f64, 0))
                                }}
                            </span>
                        }
                    })}
            </p>
        })
    };
    move || {
        shown.get().then(|| {
            view! {
                <div class="rate-lag">
                    {move || {
                        report
                            .get()
                            .map(|r| {
                                let years = r.clone();
                                view! {
                                    <p class="note" data-testid="rate-lag-test">
                                        {move || r.text(lang().get())}
                                    </p>
                                    <details class="how" data-testid="rate-lag-method">
                                        <summary>{msg(|m| m.common.how_this_calculated)}</summary>
                                        <p class="note" data-testid="rate-lag-years">
                                            {move || {
                                                years.by_year_text(lang().get()).unwrap_or_default()
                                            }}
                                        </p>
                                    </details>
                                }
                            })
                    }} <label for="rate-lag">{msg(|m| m.data.rate_lag_label)}</label>" "
                    <select
                        id="rate-lag"
                        data-testid="rate-lag"
                        aria-describedby="rate-lag-hint"
                        on:change=on_change
                    >
                        {options}
                    </select> " "{accept} <p class="note" id="rate-lag-hint">
                        {msg(|m| m.data.rate_lag_hint)}
                    </p> {applied}
                </div>
            }
        })
    }
}
