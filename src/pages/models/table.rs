//! The coefficient table: the models side by side (estimate with stars, SE, interval), the
//! rows from the engine ([`table_terms`]), and the fit statistics in the foot.

use crate::i18n::lang;
use crate::messages::messages;
use crate::state::Shared;
use imr_core::column_words::term_label;
use imr_core::models::report::significance_stars;
use imr_core::models::Fit;
use imr_core::view::model_words::{estimator_label, number_in, opt_number_in, r2_names, reader};
use imr_core::view::table_terms;
use leptos::prelude::*;

#[component]
pub(super) fn CoefTable(
    fits: Memo<Vec<Shared<Fit>>>,
    regressors: Memo<Vec<String>>,
    show_ci: RwSignal<bool>,
    /// How many fits the view has computed since the page opened (`data-fits-run`).
    fits_run: Memo<u64>,
) -> impl IntoView {
    move || {
        let fits = fits.get();
        if fits.is_empty() {
            return None;
        }
        let l = lang().get();
        let with_ci = show_ci.get();
        let span = if with_ci { 3 } else { 2 };
        let terms = table_terms(fits.iter().map(|f| &*f.0), &regressors.get());
        // The fits' regressors, whose commune means (cre's `x_mean`) are named in words.
        let fitted: Vec<String> = fits.iter().flat_map(|f| f.regressors.clone()).collect();
        let level = fits[0].inference.conf_level * 100.0;
        let head_models = fits
            .iter()
            .enumerate()
            .map(|(i, f)| {
                view! {
                    // The model in words alone: its code (`--model fe`) is in the shown commands.
                    <th colspan=span data-model=f.model.name()>
                        {format!("({}) {}", i + 1, estimator_label(l, f.model))}
                    </th>
                }
            })
            .collect_view();
        let head_fields = fits
            .iter()
            .map(|_| {
                view! {
                    <th>"Coef."</th>
                    <th>{messages(l).models.se}</th>
                    {with_ci
                        .then(|| {
                            view! { <th>{format!("{} {level:.0}%", messages(l).models.ci)}</th> }
                        })}
                }
            })
            .collect_view();
        let rows = terms
            .iter()
            .map(|term| {
                let cells = fits
                    .iter()
                    .map(|fit| term_cells(l, fit, term, with_ci))
                    .collect_view();
                view! {
                    <tr data-term=term.clone()>
                        <th class="text" scope="row">
                            {term_label(l, term, &fitted)}
                        </th>
                        {cells}
                    </tr>
                }
            })
            .collect_view();
        let foot = foot_rows(l, &fits, span);
        Some(view! {
            <section aria-labelledby="coef-h">
                <h3 id="coef-h">{messages(l).models.coefficients_heading}</h3>
                <p>
                    <crate::components::checkbox::Checkbox id="show-ci" checked=show_ci>
                        {messages(l).models.show_confidence_intervals}
                    </crate::components::checkbox::Checkbox>
                </p>
                <div style="overflow-x:auto" tabindex="0" role="region" aria-labelledby="coef-h">
                    <table
                        data-testid="coef-table"
                        data-fits-run=move || fits_run.get().to_string()
                    >
                        <thead>
                            <tr>
                                <th class="text" rowspan="2">
                                    {messages(l).models.term}
                                </th>
                                {head_models}
                            </tr>
                            <tr>{head_fields}</tr>
                        </thead>
                        <tbody>{rows}</tbody>
                        <tfoot>{foot}</tfoot>
                    </table>
                </div>
                <p class="note">{messages(l).models.table_note}</p>
            </section>
        })
    }
}

/// One fit's cells of one term's row: its estimate with stars, standard error and (`with_ci`)
/// interval, or, where the fit has no such term, empty cells titled with why it was dropped.
fn term_cells(l: crate::i18n::Lang, fit: &Fit, term: &str, with_ci: bool) -> AnyView {
    let model = fit.model.name();
    match fit.coefficient(term) {
        Some(c) => view! {
            <td data-field="estimate" data-model=model data-value=c.estimate.to_string()>
                {number_in(l, c.estimate)}
                <sup class="stars">{significance_stars(c.p_value)}</sup>
            </td>
            <td data-field="std_error" data-model=model data-value=c.std_error.to_string()>
                {format!("({})", number_in(l, c.std_error))}
            </td>
            {with_ci
                .then(|| {
                    view! {
                        <td
                            data-field="conf_int"
                            data-model=model
                            style="white-space:nowrap"
                            data-low=c.conf_low.to_string()
                            data-high=c.conf_high.to_string()
                        >
                            {format!(
                                "[{}; {}]",
                                number_in(l, c.conf_low),
                                number_in(l, c.conf_high),
                            )}
                        </td>
                    }
                })}
        }
        .into_any(),
        None => {
            let dropped = fit.dropped_terms.iter().find(|d| d.term == *term);
            let (text, title) = match dropped {
                Some(d) => (messages(l).models.dropped, d.reason.render(reader(l))),
                None => ("", String::new()),
            };
            view! {
                <td data-field="estimate" data-model=model data-value="" class="note" title=title>
                    {text}
                </td>
                <td data-field="std_error" data-model=model data-value=""></td>
                {with_ci
                    .then(|| {
                        view! { <td data-field="conf_int" data-model=model></td> }
                    })}
            }
            .into_any()
        }
    }
}

/// The foot of the table: each fit's standard errors, counts, R² and variance components.
fn foot_rows(l: crate::i18n::Lang, fits: &[Shared<Fit>], span: usize) -> impl IntoView {
    let stat_row = |label: &str, value: &dyn Fn(&Fit) -> String| {
        let label = label.to_string();
        let cells = fits
            .iter()
            .map(|f| {
                view! {
                    <td colspan=span data-model=f.model.name()>
                        {value(f)}
                    </td>
                }
            })
            .collect_view();
        view! {
            <tr>
                <th class="text" scope="row">
                    {label}
                </th>
                {cells}
            </tr>
        }
    };
    view! {
        {stat_row(
            messages(l).models.standard_errors,
            &|f| f.vcov_words(imr_core::view::model_words::reader(l)),
        )}
        {stat_row(
            messages(l).models.observations,
            &|f| crate::i18n::format_number(l, f.nobs as f64, 0),
        )}
        {stat_row(
            messages(l).models.entities,
            &|f| crate::i18n::format_number(l, f.n_entities as f64, 0),
        )}
        {stat_row(messages(l).models.periods, &|f| f.n_periods.to_string())}
        {stat_row(&format!("R² {}", r2_names(l)[0]), &|f| opt_number_in(l, f.r2_within))}
        {stat_row(&format!("R² {}", r2_names(l)[1]), &|f| opt_number_in(l, f.r2_between))}
        {stat_row(&format!("R² {}", r2_names(l)[2]), &|f| opt_number_in(l, f.r2_overall))}
        {stat_row("σ²_u", &|f| opt_number_in(l, f.sigma2_u))}
        {stat_row("σ²_e", &|f| opt_number_in(l, f.sigma2_e))}
        {stat_row("θ", &|f| opt_number_in(l, f.theta))}
    }
}
