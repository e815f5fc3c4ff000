//! The diagnostics of each fit in words (the sentences from the engine's
//! [`diagnostic_lines`]), with the rows excluded for missing values, behind "How this is
//! calculated".

use crate::i18n::lang;
use crate::messages::messages;
use crate::pages::data::HowCalculated;
use crate::state::Shared;
use imr_core::models::Fit;
use imr_core::view::model_words::{diagnostic_lines, estimator_label, reader};
use imr_core::Lang;
use leptos::prelude::*;

/// The diagnostics of one fit and the reasons of its excluded rows, in the interface language.
fn fit_diagnostics(lang: Lang, fit: &Fit, weights_requested: bool) -> impl IntoView {
    let items = diagnostic_lines(lang, fit, weights_requested);
    let excluded = (!fit.excluded_rows.is_empty()).then(|| {
        let line = messages(lang).common.line;
        let rows = fit
            .excluded_rows
            .iter()
            .map(|r| {
                view! {
                    <li data-line=r
                        .row
                        .to_string()>
                        {format!("{line} {}: {}", r.row, r.reason.render(reader(lang)))}
                    </li>
                }
            })
            .collect_view();
        let summary =
            (messages(lang).models.rows_with_missing)(&lang.grouped(fit.rows_excluded as f64, 0));
        view! {
            <details>
                <summary class="warn">{summary}</summary>
                <ol class="excluded">{rows}</ol>
            </details>
        }
    });
    view! {
        <article data-model=fit.model.name()>
            <h4>{estimator_label(lang, fit.model)}</h4>
            <ul>{items.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ul>
            {excluded}
        </article>
    }
}

#[component]
pub(super) fn Diagnostics(
    fits: Memo<Vec<Shared<Fit>>>,
    weights: RwSignal<Option<String>>,
) -> impl IntoView {
    let methods_open = RwSignal::new(false);
    move || {
        let fits = fits.get();
        if fits.is_empty() {
            return None;
        }
        let l = lang().get();
        let weighted = weights.get().is_some();
        let articles = fits
            .iter()
            .map(|f| fit_diagnostics(l, f, weighted))
            .collect_view();
        Some(view! {
            <section aria-labelledby="diag-h" data-testid="diagnostics">
                <h3 id="diag-h">{messages(l).models.diagnostics_heading}</h3>
                <HowCalculated testid="diagnostics-method" open=methods_open>
                    {articles}
                </HowCalculated>
            </section>
        })
    }
}
