//! Lorenz curves of the years the reader ticks (first and last by default); SVG as `imr
//! inequality --format svg-lorenz --years …`, CSV as `--format csv-lorenz --years …`.

use super::downloads::{chart_commands, chart_downloads, ChartFiles};
use super::options::toggle_year;
use crate::components::download::chart_caption;
use crate::i18n::lang;
use crate::messages::msg;
use crate::state::{AppState, Shared};
use imr_core::request::{ExportChoices, InequalityExport, InequalityRequest, InequalityResult};
use leptos::prelude::*;

#[component]
pub fn LorenzChart(
    result: Memo<Option<Shared<InequalityResult>>>,
    request: Memo<Option<InequalityRequest>>,
    /// The reader's years; `None`: the first and the last.
    lorenz_years: RwSignal<Option<Vec<i64>>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    let years = move || result.get().map(|o| o.analysis.years()).unwrap_or_default();
    let chosen = Memo::new(move |_| {
        lorenz_years.get().unwrap_or_else(|| {
            result
                .get()
                .map(|o| o.analysis.default_lorenz_years())
                .unwrap_or_default()
        })
    });
    let drawn = Memo::new(move |_| {
        result.get().map(|o| {
            let years = chosen.get();
            let choices = ExportChoices {
                years: &years,
                ..Default::default()
            };
            let caption = chart_caption(&state, language.get());
            let [svg, csv] = [
                InequalityExport::LorenzChart,
                InequalityExport::LorenzPoints,
            ]
            .map(|e| e.write(&o, None, &choices, &caption).unwrap_or_default());
            (svg, csv)
        })
    });
    let commands = move |files: &ChartFiles| {
        let Some(request) = request.get() else {
            return Default::default();
        };
        let years = chosen.get();
        let choices = ExportChoices {
            years: &years,
            ..Default::default()
        };
        chart_commands(
            &state,
            &request,
            files,
            [
                InequalityExport::LorenzChart,
                InequalityExport::LorenzPoints,
            ],
            &choices,
            language.get(),
        )
    };
    let boxes = move || {
        years()
            .into_iter()
            .map(|t| {
                let id = format!("ineq-lorenz-{t}");
                view! {
                    <span class="field">
                        <input
                            type="checkbox"
                            id=id.clone()
                            data-testid=id.clone()
                            prop:checked=move || chosen.get().contains(&t)
                            on:change=move |ev| {
                                let ys = chosen
                                    .with_untracked(|ys| toggle_year(
                                        ys,
                                        t,
                                        event_target_checked(&ev),
                                    ));
                                lorenz_years.set(Some(ys));
                            }
                        />
                        <label for=id>{t}</label>
                    </span>
                }
            })
            .collect_view()
    };
    move || {
        result.get().map(|_| {
            view! {
                <section aria-labelledby="ineq-lorenz-h">
                    <h3 id="ineq-lorenz-h">{msg(|m| m.inequality.lorenz_heading)}</h3>
                    <fieldset>
                        <legend>{msg(|m| m.inequality.years)}</legend>
                        {boxes}
                    </fieldset>
                    <div
                        class="chart"
                        data-testid="ineq-lorenz-chart"
                        inner_html=move || drawn.get().map(|l| l.0).unwrap_or_default()
                    ></div>
                    {chart_downloads(
                        "desigualdad_lorenz",
                        move || drawn.get_untracked().map(|l| l.0).unwrap_or_default(),
                        move || drawn.get_untracked().map(|l| l.1).unwrap_or_default(),
                        commands,
                    )}
                </section>
            }
        })
    }
}
