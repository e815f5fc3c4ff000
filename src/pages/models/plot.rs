//! The models that could not be fitted, and the engine's coefficient plot with its download.

use super::ModelFits;
use crate::components::download::{chart_caption, download_text, shown_width_up_to};
use crate::i18n::lang;
use crate::messages::msg;
use crate::state::{AppState, Shared};
use imr_core::models::report::{self, PlotOptions};
use imr_core::models::{Estimator, Fit};
use imr_core::request::RequestError;
use imr_core::view::fit_failure_text;
use imr_core::view::model_words::estimator_label;
use imr_core::view::models::coef_plot_title;
use leptos::prelude::*;

/// The page's column on a desktop: `main`'s 1,200 px less its margins (style.css).
const COLUMN_WIDTH: f64 = 1160.0;

#[component]
pub(super) fn FitErrors(fits: Memo<Option<ModelFits>>) -> impl IntoView {
    move || {
        let errors: Vec<(Estimator, RequestError)> = fits
            .get()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(e, _, f)| f.err().map(|m| (e, m)))
            .collect();
        (!errors.is_empty()).then(|| {
            let items = errors
                .into_iter()
                .map(|(e, m)| {
                    view! {
                        <li data-model=e
                            .name()>
                            {move || estimator_label(lang().get(), e)}": "
                            {move || fit_failure_text(&m, lang().get())}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <section data-testid="fit-errors">
                    <p class="error" role="alert">
                        {msg(|m| m.models.failed_models)}
                    </p>
                    <ul>{items}</ul>
                </section>
            }
        })
    }
}

#[component]
pub(super) fn CoefPlot(fits: Memo<Vec<Shared<Fit>>>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let lang = lang();
    let svg = Memo::new(move |_| {
        let fits: Vec<Fit> = fits.get().iter().map(|f| (**f).clone()).collect();
        let l = lang.get();
        let caption = chart_caption(&state, l);
        // The reader's words for each term (the codebook's label with its unit, "Constante", a
        // commune mean of cre as "…, media de la comuna"), not column names; the study's
        // covariates per the change question 4 speaks of ("Dist. hospital +50 km"), so that
        // distance is not drawn at zero per km while the Findings report it per 50 km.
        let fitted: Vec<String> = fits.iter().flat_map(|f| f.regressors.clone()).collect();
        let terms: std::collections::BTreeSet<&str> = fits
            .iter()
            .flat_map(|f| f.coefficients.iter().map(|c| c.term.as_str()))
            .collect();
        let rows = imr_findings::text::plot_terms(l, terms, &fitted);
        (!fits.is_empty()).then(|| {
            report::coefficient_plot_svg(
                &fits,
                &PlotOptions {
                    // drawn at the width it is shown, up to the page's column (1,160 px): on a
                    // 390 px phone its 12 px text stays 12 px instead of shrinking to 6 px, and
                    // on a desktop its rows of long names use the column, not half of it
                    width: shown_width_up_to(COLUMN_WIDTH),
                    title: coef_plot_title(l, &fits[0].outcome),
                    caption,
                    term_labels: rows.labels,
                    term_changes: rows.changes,
                    ..PlotOptions::default()
                },
            )
        })
    });
    move || {
        svg.get().map(|svg| {
            let file = svg.clone();
            view! {
                <section aria-labelledby="plot-h">
                    <h3 id="plot-h">{msg(|m| m.models.plot_heading)}</h3>
                    <p class="note">{msg(|m| m.models.plot_note)}</p>
                    <div class="chart" data-testid="coef-plot" inner_html=svg></div>
                    <button
                        class="secondary"
                        data-testid="download-plot"
                        on:click=move |_| download_text(
                            "imr_modelos_coeficientes.svg",
                            "image/svg+xml",
                            &file,
                        )
                    >
                        {msg(|m| m.common.download_svg)}
                    </button>
                </section>
            }
        })
    }
}
