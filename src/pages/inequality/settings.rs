//! The view's first section: the answer sentence (the answer comes first), the
//! settings (group, rank, bootstrap replicates and seed), what the intervals are, and the
//! command that reproduces the analysis; and the select controls the other sections reuse.

use super::downloads::command_line;
use super::options::{
    births_ratio_with_end, ratio_percent, read_replicates, ColumnChoice, InequalityOptions,
    PAGE_REPLICATES,
};
use super::outcome::Outcome;
use crate::components::choice::column_options;
use crate::i18n::{format_number, lang, Lang};
use crate::messages::{messages, msg, Text};
use crate::state::{AppState, Shared};
use imr_core::inequality::adjusted::BirthsRatioRange;
use imr_core::inequality::{Measure, DEFAULT_REPLICATES};
use imr_core::model_columns::{groupings, measurements};
use imr_core::panel::Panel;
use imr_core::request::InequalityRequest;
use leptos::prelude::*;

/// A labelled select of columns; `none` adds the "(none)" option.
pub fn column_select(
    id: &'static str,
    label: Text,
    signal: RwSignal<ColumnChoice>,
    options: impl Fn() -> Vec<String> + Send + Sync + 'static,
    none: Option<Text>,
) -> impl IntoView {
    view! {
        <span class="field">
            <label for=id>{msg(label)}</label>
            <select
                id=id
                data-testid=id
                on:change=move |ev| signal.set(ColumnChoice::from_select(event_target_value(&ev)))
            >
                {none
                    .map(|none| {
                        view! {
                            <option value="" selected=move || signal.with(|c| c.column().is_none())>
                                {msg(none)}
                            </option>
                        }
                    })}
                {column_options(
                    options,
                    move |c| signal.with(|s| s.column() == Some(c)),
                    imr_core::column_words::choice_label,
                )}
            </select>
        </span>
    }
}

/// A labelled select of the measures `measures` offers (by JSON key).
pub fn measure_select(
    id: &'static str,
    label: Text,
    signal: RwSignal<Measure>,
    measures: impl Fn() -> Vec<Measure> + Send + Sync + 'static,
) -> impl IntoView {
    let language = lang();
    view! {
        <label for=id>{msg(label)}</label>
        <select
            id=id
            data-testid=id
            on:change=move |ev| {
                if let Some(m) = Measure::from_key(&event_target_value(&ev)) {
                    signal.set(m);
                }
            }
        >
            {move || {
                measures()
                    .into_iter()
                    .map(|m| {
                        let key = super::options::write_measure(&m);
                        view! {
                            <option value=key selected=move || signal.get() == m>
                                {move || m.label_in(language.get())}
                            </option>
                        }
                    })
                    .collect_view()
            }}
        </select>
    }
}

/// What the intervals are, with the replicates and seed chosen.
fn bootstrap_note(lang: Lang, replicates: usize, seed: u64) -> String {
    let count = |n: usize| format_number(lang, n as f64, 0);
    let (n, s, default, page) = (
        count(replicates),
        seed,
        count(DEFAULT_REPLICATES),
        count(PAGE_REPLICATES),
    );
    (messages(lang).inequality.bootstrap_note)(&n, &s.to_string(), &default, &page)
}

/// The range of true births over the births given, in percent (`imr inequality
/// --births-ratio`): shown when deaths were derived from published rates, where the adjusted
/// measures are recomputed over it. A range the command would refuse is not applied and says so.
fn births_ratio_field(births_ratio: RwSignal<Option<BirthsRatioRange>>) -> impl IntoView {
    let refused = RwSignal::new(false);
    let input = move |id: &'static str, high_end: bool| {
        let shown = move || {
            let range = births_ratio.get().unwrap_or_default();
            ratio_percent(if high_end { range.high } else { range.low })
        };
        view! {
            <input
                id=id
                data-testid=id
                type="number"
                min="1"
                max="10000"
                step="1"
                style="width:6em"
                prop:value=shown
                on:change=move |ev| match births_ratio_with_end(
                    births_ratio.get_untracked(),
                    high_end,
                    &event_target_value(&ev),
                ) {
                    Ok(range) => {
                        refused.set(false);
                        births_ratio.set(range);
                    }
                    Err(_) => refused.set(true),
                }
            />
        }
    };
    view! {
        <p class="field" data-testid="ineq-births-ratio">
            <label for="ineq-births-ratio-low">{msg(|m| m.inequality.births_ratio_label)}</label>
            {input("ineq-births-ratio-low", false)}
            <label for="ineq-births-ratio-high">{msg(|m| m.inequality.births_ratio_to)}</label>
            {input("ineq-births-ratio-high", true)}
            {msg(|m| m.inequality.births_ratio_help)}
        </p>
        {move || {
            refused
                .get()
                .then(|| {
                    view! {
                        <p class="warn" role="alert" data-testid="ineq-births-ratio-refused">
                            {msg(|m| m.inequality.births_ratio_invalid)}
                        </p>
                    }
                })
        }}
    }
}

/// The heading, the answer, the settings, the intervals' note and the command.
#[component]
pub fn Settings(
    options: InequalityOptions,
    panel: Memo<Option<Shared<Panel>>>,
    rates: Memo<Option<Outcome>>,
    request: Memo<Option<InequalityRequest>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    let InequalityOptions {
        group,
        rank,
        replicates,
        seed,
        births_ratio,
        ..
    } = options;
    let answer = move || {
        let computed = rates.get()?.ok()?;
        let report = &computed.analysis.report;
        let Some(found) = imr_core::inequality::answer::answer(report) else {
            // No year measured: why, where the answer would be.
            let why = imr_core::inequality::answer::no_answer_reason(report, language.get())?;
            return Some(
                view! {
                    <p class="answer" data-testid="ineq-answer">
                        <strong>{why}</strong>
                    </p>
                }
                .into_any(),
            );
        };
        let sentence = found.render(language.get());
        // Three Ginis stand in the view (observed, bias-corrected, adjusted): which to quote.
        let quote = imr_core::inequality::answer::which_gini_to_quote(report, language.get());
        Some(
            view! {
                <p class="answer" data-testid="ineq-answer">
                    <strong>{sentence}</strong>
                </p>
                <p class="note" data-testid="ineq-which-gini">
                    {quote}
                </p>
            }
            .into_any(),
        )
    };
    // groupings of the communes (not their names or notes) and measurements (not codes or
    // years): imr_core::model_columns
    let text_columns = move || panel.get().map(|p| groupings(&p)).unwrap_or_default();
    let covariates = move || panel.get().map(|p| measurements(&p)).unwrap_or_default();
    view! {
        <section aria-labelledby="ineq-settings-h">
            <h2 id="ineq-settings-h">{msg(|m| m.inequality.heading)}</h2>
            {answer}
            <div class="roles">
                {column_select(
                    "ineq-group",
                    |m| m.inequality.group_label,
                    group,
                    text_columns,
                    Some(|m| m.inequality.no_grouping_or_rank),
                )}
                {column_select(
                    "ineq-rank",
                    |m| m.inequality.rank_label,
                    rank,
                    covariates,
                    Some(|m| m.inequality.no_grouping_or_rank),
                )} <span class="field">
                    <label for="ineq-replicates">{msg(|m| m.inequality.replicates_label)}</label>
                    <input
                        id="ineq-replicates"
                        data-testid="ineq-replicates"
                        type="number"
                        min="0"
                        max="5000"
                        step="50"
                        prop:value=move || replicates.get().to_string()
                        on:change=move |ev| {
                            if let Some(n) = read_replicates(&event_target_value(&ev)) {
                                replicates.set(n);
                            }
                        }
                    />
                </span> <span class="field">
                    <label for="ineq-seed">{msg(|m| m.inequality.seed_label)}</label>
                    <input
                        id="ineq-seed"
                        data-testid="ineq-seed"
                        type="number"
                        min="0"
                        prop:value=move || seed.get().to_string()
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<u64>() {
                                seed.set(n);
                            }
                        }
                    />
                </span>
            </div>
            // The headline in plain words above; what it measures and how the intervals are
            // made, folded (issue 42: no jargon in the headline, the method in the fold).
            <details data-testid="ineq-method">
                <summary>{msg(|m| m.common.how_this_calculated)}</summary>
                <p data-testid="ineq-answer-method">
                    {move || imr_core::inequality::answer::method(language.get())}
                </p>
                <p class="note" data-testid="ineq-bootstrap-note">
                    {move || bootstrap_note(language.get(), replicates.get(), seed.get())}
                </p>
            </details>
            {move || {
                panel
                    .get()
                    .filter(|p| p.deaths_derived)
                    .map(|_| {
                        view! {
                            <p class="warn" data-testid="ineq-approximate">
                                {msg(|m| m.inequality.derived_deaths_note)}
                            </p>
                            {births_ratio_field(births_ratio)}
                        }
                    })
            }}
            <p>{msg(|m| m.inequality.command_label)}</p>
            <pre
                data-testid="ineq-command"
                tabindex="0"
                aria-label=msg(|m| m.inequality.command_aria)
                style="white-space: pre-wrap; overflow-wrap: anywhere"
            >
                <code>
                    {move || request.get().map(|r| command_line(&state, &r, &["--format", "json"]))}
                </code>
            </pre>
        </section>
    }
}
