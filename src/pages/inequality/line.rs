//! One measure over the years with its confidence band, the measure chosen by the reader; its
//! SVG (as `imr inequality --format svg-trend`) and CSV (`--format csv-measure`).

use super::downloads::{chart_commands, chart_downloads, ChartFiles};
use super::settings::measure_select;
use crate::components::download::chart_caption;
use crate::i18n::lang;
use crate::messages::msg;
use crate::state::{AppState, Shared};
use imr_core::inequality::Measure;
use imr_core::request::{ExportChoices, InequalityExport, InequalityRequest, InequalityResult};
use leptos::prelude::*;

#[component]
pub fn LineChart(
    result: Memo<Option<Shared<InequalityResult>>>,
    request: Memo<Option<InequalityRequest>>,
    measure: RwSignal<Measure>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    // the file of `export` as the page downloads it and `imr inequality` writes it
    let file = move |export: InequalityExport, o: &InequalityResult, measure: Measure, lang| {
        let choices = ExportChoices {
            measure,
            ..Default::default()
        };
        export
            .write(o, None, &choices, &chart_caption(&state, lang))
            .unwrap_or_default()
    };
    let svg = Memo::new(move |_| {
        result.get().map(|o| {
            file(
                InequalityExport::MeasureChart,
                &o,
                measure.get(),
                language.get(),
            )
        })
    });
    let measures = move || {
        result
            .get()
            .map(|o| o.analysis.report.series_measures())
            .unwrap_or_default()
    };
    let commands = move |files: &ChartFiles| {
        let Some(request) = request.get() else {
            return Default::default();
        };
        let choices = ExportChoices {
            measure: measure.get(),
            ..Default::default()
        };
        chart_commands(
            &state,
            &request,
            files,
            [
                InequalityExport::MeasureChart,
                InequalityExport::MeasureSeries,
            ],
            &choices,
            language.get(),
        )
    };
    move || {
        result.get().map(|_| {
            let csv = move || {
                result
                    .get_untracked()
                    .map(|o| {
                        let (m, lang) = (measure.get_untracked(), language.get_untracked());
                        file(InequalityExport::MeasureSeries, &o, m, lang)
                    })
                    .unwrap_or_default()
            };
            view! {
                <section aria-labelledby="ineq-line-h">
                    <h3 id="ineq-line-h">{msg(|m| m.inequality.line_heading)}</h3>
                    {measure_select(
                        "ineq-measure",
                        |m| m.inequality.measure_label,
                        measure,
                        measures,
                    )}
                    <div
                        class="chart"
                        data-testid="ineq-line-chart"
                        inner_html=move || svg.get().unwrap_or_default()
                    ></div>
                    {chart_downloads(
                        "desigualdad_medida_por_anio",
                        move || svg.get_untracked().unwrap_or_default(),
                        csv,
                        commands,
                    )}
                </section>
            }
        })
    }
}
