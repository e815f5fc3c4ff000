//! The options of the Models view: outcome, standard errors, weights, absorbed fixed effects
//! and the column clustering their standard errors, the models and the regressors (labelled
//! from the codebook).

use super::ModelOptions;
use crate::components::choice::{choice_select, column_options, column_select};
use crate::i18n::lang;
use crate::messages::{msg, Text};
use imr_core::column_words::{choice_label, column_label};
use imr_core::models::{Estimator, VcovKind};
use imr_core::view::model_words::estimator_label;
use leptos::prelude::*;

#[component]
pub(super) fn Controls(
    options: ModelOptions,
    /// Every numeric variable of the panel (the outcomes offered).
    outcomes: Memo<Vec<String>>,
    /// The columns offered as weights ([`imr_core::model_columns::weight_candidates`]).
    weight_columns: Memo<Vec<String>>,
    /// The covariates offered as regressors.
    candidates: Memo<Vec<String>>,
    /// The regressors checked.
    regressors: Memo<Vec<String>>,
    /// The columns that may cluster the standard errors (besides the entity;
    /// [`imr_core::model_columns::cluster_candidates`]).
    cluster_columns: Memo<Vec<String>>,
) -> impl IntoView {
    let ModelOptions {
        outcome,
        chosen,
        models,
        vcov,
        weights,
        fe,
        cluster,
    } = options;
    view! {
        <section aria-labelledby="models-h" data-testid="models-controls">
            <h2 id="models-h">{msg(|m| m.models.heading)}</h2>
            <crate::components::takeaway::Takeaway question="models" />
            <CopiesUsed />
            <p class="note">{msg(|m| m.models.lead)}</p>
            <div class="roles">
                {column_select(
                    ("model-outcome", "model-outcome"),
                    msg(|m| m.models.outcome),
                    outcome,
                    outcomes,
                    column_label,
                )}
                {choice_select(
                    "model-vcov",
                    "model-vcov",
                    |m| m.models.standard_errors,
                    &VcovKind::ALL,
                    VcovKind::name,
                    |l, v| v.label_in(l),
                    vcov,
                    || false,
                )}
                {optional_column_select(
                    ("model-weights", |m| m.models.weights_label, |m| m.models.no_weights),
                    weight_columns,
                    weights,
                    None,
                    || false,
                )} <span>
                    <label for="model-absorb">{msg(|m| m.models.absorb_label)}</label>
                    <input
                        id="model-absorb"
                        data-testid="model-absorb"
                        type="text"
                        placeholder="codigo_comuna,region^anio"
                        aria-describedby="model-absorb-help"
                        prop:value=move || fe.get().unwrap_or_default()
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let v = v.trim();
                            fe.set((!v.is_empty()).then(|| v.to_owned()));
                        }
                    />
                    <small id="model-absorb-help">{msg(|m| m.models.absorb_help)}</small>
                </span>
                {optional_column_select(
                    ("model-cluster", |m| m.models.cluster_label, |m| m.models.cluster_entity),
                    cluster_columns,
                    cluster,
                    Some(|m| m.models.cluster_help),
                    move || fe.with(Option::is_none) || vcov.get() != VcovKind::Cluster,
                )}
            </div>
            <fieldset data-testid="model-choices">
                <legend>{msg(|m| m.models.models_label)}</legend>
                {Estimator::ALL
                    .into_iter()
                    .map(|e| {
                        let id = format!("model-{}", e.name());
                        view! {
                            <label for=id.clone()>
                                <input
                                    type="checkbox"
                                    id=id.clone()
                                    value=e.name()
                                    data-testid=format!("model-{}", e.name())
                                    prop:checked=move || models.with(|m| m.contains(&e))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        models
                                            .update(|m| {
                                                m.retain(|x| *x != e);
                                                if on {
                                                    m.push(e);
                                                }
                                            });
                                    }
                                />
                                " "
                                {move || estimator_label(lang().get(), e)}
                            </label>
                            <br />
                        }
                    })
                    .collect_view()}
            </fieldset>
            <fieldset data-testid="regressor-choices">
                <legend>{msg(|m| m.models.regressors)}</legend>
                {move || {
                    let out = outcome.get();
                    candidates
                        .get()
                        .into_iter()
                        .filter(|c| *c != out)
                        .map(|name| {
                            let id = format!("x-{name}");
                            let checked_name = name.clone();
                            let toggled = name.clone();
                            view! {
                                <label for=id.clone()>
                                    <input
                                        type="checkbox"
                                        id=id.clone()
                                        value=name.clone()
                                        data-testid=format!("x-{name}")
                                        prop:checked=move || {
                                            regressors.with(|r| r.contains(&checked_name))
                                        }
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            let mut list = regressors.get_untracked();
                                            list.retain(|x| *x != toggled);
                                            if on {
                                                list.push(toggled.clone());
                                            }
                                            chosen.set(Some(list));
                                        }
                                    />
                                    " "
                                    {column_label(lang().get(), &name)}
                                </label>
                                <br />
                            }
                        })
                        .collect_view()
                }}
            </fieldset>
        </section>
    }
}

/// A labelled select of an optional column (the weights, the cluster column): `words` are its
/// id (also its test id), label and the words of no column; `help`, when given, is said below it
/// (`<id>-help`); disabled while `disabled()` holds.
fn optional_column_select(
    words: (&'static str, Text, Text),
    columns: Memo<Vec<String>>,
    chosen: RwSignal<Option<String>>,
    help: Option<Text>,
    disabled: impl Fn() -> bool + Send + Sync + 'static,
) -> impl IntoView {
    let (id, label, none) = words;
    let help_id = help.map(|_| format!("{id}-help"));
    view! {
        <span>
            <label for=id>{msg(label)}</label>
            <select
                id=id
                data-testid=id
                aria-describedby=help_id.clone()
                disabled=disabled
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    chosen.set((!v.is_empty()).then_some(v));
                }
            >
                <option value="" selected=move || chosen.with(Option::is_none)>
                    {msg(none)}
                </option>
                {column_options(
                    move || columns.get(),
                    move |c| chosen.with(|v| v.as_deref() == Some(c)),
                    choice_label,
                )}
            </select>
            {help.map(|help| view! { <small id=help_id>{msg(help)}</small> })}
        </span>
    }
}

/// The copied years the fits below leave out, as the takeaway above (the Findings' question 4)
/// does, and the checkbox that keeps them (the views' shared choice).
#[component]
fn CopiesUsed() -> impl IntoView {
    let analysis = expect_context::<crate::state::AnalysisState>();
    let note = move || {
        // Included on purpose, the fits and the takeaway use them alike.
        if analysis.include_repeated.get() {
            return None;
        }
        let repeats = analysis.repeats.get()?;
        imr_core::repeats::RepeatedYear::models_text(&repeats, lang().get()).map(|text| {
            view! {
                <p class="note" data-testid="models-copies-used">
                    {text}
                </p>
            }
        })
    };
    view! {
        {note}
        <crate::components::flag_choices::IncludeRepeated />
    }
}
