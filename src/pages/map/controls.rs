//! What to show: year (and playing through the years), variable, smoothing, classification,
//! neighbours (queen or rook), number of classes, custom breaks, colours and the LISA cluster
//! map, then the shared
//! include-flagged toggle.

use super::MapOptions;
use crate::components::checkbox::Checkbox;
use crate::components::choice::{choice_select, column_select};
use crate::components::flag_choices::IncludeFlagged;
use crate::i18n::lang;
use crate::messages::{messages, msg, Text};
use crate::state::AnalysisState;
use imr_core::request::{ClassScheme, Contiguity, Smooth};
use leptos::prelude::*;
use std::time::Duration;

/// Milliseconds between years while playing.
const PLAY_STEP_MS: u64 = 1200;

/// Colour schemes offered (all colour-blind safe), with `auto` = the engine's default for the
/// classification.
const SCHEMES: [(&str, Text); 7] = [
    ("auto", |m| m.map.scheme_auto),
    ("ylorrd", |m| m.map.scheme_ylorrd),
    ("blues", |m| m.map.scheme_blues),
    ("viridis", |m| m.map.scheme_viridis),
    ("cividis", |m| m.map.scheme_cividis),
    ("burd", |m| m.map.scheme_burd),
    ("puor", |m| m.map.scheme_puor),
];

/// A smoothing's name on the page.
fn smooth_label(s: Smooth) -> Text {
    match s {
        Smooth::None => |m| m.map.raw_rate,
        Smooth::Eb => |m| m.map.global_empirical_bayes,
        Smooth::SpatialEb => |m| m.map.spatial_empirical_bayes,
        Smooth::ExcessRisk => |m| m.map.excess_risk,
    }
}

/// A contiguity's name on the page.
fn contiguity_label(c: Contiguity) -> Text {
    match c {
        Contiguity::Queen => |m| m.map.contiguity_queen,
        Contiguity::Rook => |m| m.map.contiguity_rook,
    }
}

/// A classification's name on the page.
fn scheme_label(c: ClassScheme) -> Text {
    match c {
        ClassScheme::Quantile => |m| m.map.quantiles,
        ClassScheme::Equal => |m| m.map.equal_intervals,
        ClassScheme::Jenks => |m| m.map.natural_breaks_jenks,
        ClassScheme::Box => |m| m.map.box_map,
        ClassScheme::Stddev => |m| m.map.standard_deviations,
        ClassScheme::Custom => |m| m.map.custom_breaks,
    }
}

#[component]
pub(super) fn MapControls(
    options: MapOptions,
    years: Memo<Vec<i64>>,
    variables: Memo<Vec<String>>,
    /// Sets the year (timed).
    switch_year: Callback<i64>,
) -> impl IntoView {
    let MapOptions {
        variable,
        smooth,
        scheme: class_choice,
        classes,
        breaks,
        colours: scheme_key,
        lisa: show_lisa,
        contiguity,
        ..
    } = options;
    view! {
        <fieldset class="map-controls">
            <legend>{msg(|m| m.map.controls_legend)}</legend>
            {year_control(options, years, switch_year)}
            {variable_select(variable, variables)}
            {choice_select(
                "map-smooth",
                "smooth-select",
                |m| m.map.smoothing,
                &Smooth::ALL,
                Smooth::name,
                |l, c| smooth_label(c)(messages(l)),
                smooth,
                move || variable.get() != "rate",
            )}
            {choice_select(
                "map-contiguity",
                "contiguity-select",
                |m| m.map.neighbours,
                &Contiguity::ALL,
                Contiguity::name,
                |l, c| contiguity_label(c)(messages(l)),
                contiguity,
                || false,
            )}
            {choice_select(
                "map-classify",
                "classify-select",
                |m| m.map.classes,
                &ClassScheme::ALL,
                ClassScheme::name,
                |l, c| scheme_label(c)(messages(l)),
                class_choice,
                || false,
            )}
            {class_inputs(class_choice, classes, breaks)}
            {scheme_select(scheme_key)}
            <span>
                <Checkbox id="lisa-toggle" checked=show_lisa>
                    {msg(|m| m.map.lisa_cluster_map)}
                </Checkbox>
            </span>
        </fieldset>
        <IncludeFlagged />
    }
}

/// Playing through the years: whether it plays, and the button's action (play from the chosen
/// year, or from the first when at the last; pause when playing), stopped when the view goes.
#[derive(Clone, Copy)]
struct Player {
    playing: RwSignal<bool>,
    handle: StoredValue<Option<IntervalHandle>, LocalStorage>,
}

impl Player {
    fn new() -> Self {
        let player = Player {
            playing: RwSignal::new(false),
            handle: StoredValue::new_local(None),
        };
        on_cleanup(move || player.stop());
        player
    }

    fn stop(self) {
        if let Some(h) = self.handle.get_value() {
            h.clear();
        }
        self.handle.set_value(None);
        self.playing.set(false);
    }

    /// Steps through `years` from `year`, then stops on the last one.
    fn toggle(
        self,
        years: Memo<Vec<i64>>,
        year: RwSignal<Option<i64>>,
        switch_year: Callback<i64>,
    ) {
        if self.playing.get_untracked() {
            self.stop();
            return;
        }
        let ys = years.get_untracked();
        if ys.len() < 2 {
            return;
        }
        // Start from the first year when at the end.
        if year.get_untracked() == ys.last().copied() {
            switch_year.run(ys[0]);
        }
        self.playing.set(true);
        let handle = set_interval_with_handle(
            move || {
                let ys = years.get_untracked();
                let next = year
                    .get_untracked()
                    .and_then(|y| ys.iter().position(|&t| t == y))
                    .and_then(|i| ys.get(i + 1).copied());
                match next {
                    Some(y) => switch_year.run(y),
                    None => self.stop(),
                }
            },
            Duration::from_millis(PLAY_STEP_MS),
        )
        .ok();
        self.handle.set_value(handle);
    }
}

/// The year's select (the years without data listed as gaps) and the play button.
fn year_control(
    options: MapOptions,
    years: Memo<Vec<i64>>,
    switch_year: Callback<i64>,
) -> impl IntoView {
    let lang = lang();
    let analysis = expect_context::<AnalysisState>();
    let MapOptions { year, variable, .. } = options;
    // A year that copies an earlier one is listed as what it is ("2022 (copia de 2021)") when
    // the map shows rates (a copy of the outcome; another column's map is not one).
    let year_label = move |y: i64| {
        (variable.get() == "rate")
            .then(|| analysis.repeats.get())
            .flatten()
            .and_then(|r| r.iter().find(|r| r.time == y).map(|r| r.label(lang.get())))
            .unwrap_or_else(|| y.to_string())
    };
    let player = Player::new();
    let playing = player.playing;
    view! {
        <span>
            <label for="map-year">{msg(|m| m.common.year)}</label>
            <select
                id="map-year"
                data-testid="year-select"
                on:change=move |ev| {
                    if let Ok(y) = event_target_value(&ev).parse::<i64>() {
                        switch_year.run(y)
                    }
                }
            >
                // The years without data between the first and the last (2016 and 2020 in
                // the bundled data) are listed as gaps that cannot be chosen, so that 2015
                // and 2017 are never taken for consecutive years.
                {move || {
                    let ys = years.get();
                    let mut listed: Vec<(i64, bool)> = ys
                        .iter()
                        .map(|&y| (y, true))
                        .chain(
                            imr_core::stats::years::missing_years(&ys)
                                .into_iter()
                                .map(|y| (y, false)),
                        )
                        .collect();
                    listed.sort_unstable();
                    listed
                        .into_iter()
                        .map(|(y, has_data)| match has_data {
                            true => {
                                view! {
                                    <option
                                        value=y.to_string()
                                        selected=move || year.get() == Some(y)
                                    >
                                        {move || year_label(y)}
                                    </option>
                                }
                                    .into_any()
                            }
                            false => {
                                view! {
                                    <option value=y.to_string() disabled data-gap="true">
                                        {move || {
                                            format!("{y} — {}", messages(lang.get()).map.no_data)
                                        }}
                                    </option>
                                }
                                    .into_any()
                            }
                        })
                        .collect_view()
                }}
            </select>
            <button
                class="secondary"
                data-testid="play"
                aria-pressed=move || playing.get().to_string()
                on:click=move |_| player.toggle(years, year, switch_year)
            >
                {move || {
                    if playing.get() {
                        messages(lang.get()).map.pause
                    } else {
                        messages(lang.get()).map.play_years
                    }
                }}
            </button>
        </span>
    }
}

/// The variable's select: the rate first (when the panel has one), then the data's columns.
fn variable_select(variable: RwSignal<String>, variables: Memo<Vec<String>>) -> impl IntoView {
    let ids = ("map-variable", "variable-select");
    column_select(ids, "Variable", variable, variables, variable_label)
}

/// A variable in the reader's words: the rate's own name, a column's label.
fn variable_label(lang: crate::i18n::Lang, variable: &str) -> String {
    if variable == "rate" {
        messages(lang).map.variable_rate.to_owned()
    } else {
        imr_core::column_words::choice_label(lang, variable)
    }
}

/// The number of classes (for the classifications that take one) and the custom breaks.
fn class_inputs(
    class_choice: RwSignal<ClassScheme>,
    classes: RwSignal<usize>,
    breaks: RwSignal<String>,
) -> impl IntoView {
    view! {
        <span>
            <label for="map-classes">{msg(|m| m.map.number_classes)}</label>
            <input
                id="map-classes"
                type="number"
                min="2"
                max="9"
                data-testid="classes-input"
                disabled=move || !class_choice.get().uses_class_count()
                prop:value=move || classes.get().to_string()
                on:change=move |ev| {
                    if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                        classes.set(k.clamp(2, 9))
                    }
                }
            />
        </span>
        <span>
            <label for="map-breaks">{msg(|m| m.map.custom_breaks)}</label>
            <input
                id="map-breaks"
                type="text"
                placeholder="4, 6, 8, 12"
                data-testid="breaks-input"
                disabled=move || class_choice.get() != ClassScheme::Custom
                prop:value=move || breaks.get()
                on:change=move |ev| breaks.set(event_target_value(&ev))
            />
        </span>
    }
}

/// The colour scheme's select ([`SCHEMES`]).
fn scheme_select(scheme_key: RwSignal<String>) -> impl IntoView {
    view! {
        <span>
            <label for="map-scheme">{msg(|m| m.map.colours)}</label>
            <select
                id="map-scheme"
                data-testid="scheme-select"
                on:change=move |ev| scheme_key.set(event_target_value(&ev))
            >
                {SCHEMES
                    .into_iter()
                    .map(|(k, label)| {
                        view! {
                            <option value=k selected=move || scheme_key.get() == k>
                                {msg(label)}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </span>
    }
}
