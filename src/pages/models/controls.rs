//! The options of the Models view: outcome, standard errors, weights, absorbed fixed effects
//! and the column clustering their standard errors, the models and the regressors (labelled
//! from the codebook).

use super::ModelOptions;
use crate::components::choice::choice_select;
use crate::i18n::lang;
use crate::messages::msg;
use imr_core::column_words::{choice_label, column_label};
use imr_core::models::{Estimator, VcovKind};
use imr_core::view::model_words::estimator_label;
use leptos::prelude::*;

#[component]
pub(super) fn Controls(
    options: ModelOptions,
    /// Every numeric variable of the panel (the outcomes and weights offered).
    outcomes: Memo<Vec<String>>,
    /// The covariates offered as regressors.
    candidates: Memo<Vec<String>>,
    /// The regressors checked.
    regressors: Memo<Vec<String>>,
    /// The columns that may cluster the standard errors (besides the entity).
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
                <span>
                    <label for="model-outcome">{msg(|m| m.models.outcome)}</label>
                    <select
                        id="model-outcome"
                        data-testid="model-outcome"
                        on:change=move |ev| outcome.set(event_target_value(&ev))
                    >
                        {move || {
                            outcomes
                                .get()
                                .into_iter()
                                .map(|name| {
                                    let selected = name.clone();
                                    view! {
                                        <option
                                            value=name.clone()
                                            selected=move || outcome.get() == selected
                                        >
                                            {column_label(lang().get(), &name)}
                                        </option>
                                    }
                                })
                                .collect_view()
                        }}
                    </select>
                </span>
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
                <span>
                    <label for="model-weights">{msg(|m| m.models.weights_label)}</label>
                    <select
                        id="model-weights"
                        data-testid="model-weights"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            weights.set((!v.is_empty()).then_some(v));
                        }
                    >
                        <option value="" selected=move || weights.get().is_none()>
                            {msg(|m| m.models.no_weights)}
                        </option>
                        {column_options(outcomes, weights)}
                    </select>
                </span>
                <span>
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
                <span>
                    <label for="model-cluster">{msg(|m| m.models.cluster_label)}</label>
                    <select
                        id="model-cluster"
                        data-testid="model-cluster"
                        aria-describedby="model-cluster-help"
                        disabled=move || fe.with(Option::is_none) || vcov.get() != VcovKind::Cluster
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            cluster.set((!v.is_empty()).then_some(v));
                        }
                    >
                        <option value="" selected=move || cluster.get().is_none()>
                            {msg(|m| m.models.cluster_entity)}
                        </option>
                        {column_options(cluster_columns, cluster)}
                    </select>
                    <small id="model-cluster-help">{msg(|m| m.models.cluster_help)}</small>
                </span>
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

/// The options of a select of an optional column: each of `columns` in the reader's words, the
/// one `chosen` selected (the weights and the cluster column).
fn column_options(columns: Memo<Vec<String>>, chosen: RwSignal<Option<String>>) -> impl IntoView {
    move || {
        columns
            .get()
            .into_iter()
            .map(|name| {
                let selected = name.clone();
                view! {
                    <option
                        value=name.clone()
                        selected=move || chosen.get().as_deref() == Some(selected.as_str())
                    >
                        {choice_label(lang().get(), &name)}
                    </option>
                }
            })
            .collect_view()
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
