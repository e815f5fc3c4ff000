//! The distribution of commune rates per year as box plots; flagged (implausible) values are
//! left out, or with the shared include toggle counted in the boxes but kept off the axis (drawn
//! "off scale" at its edge). SVG as `imr inequality --format svg-box`, CSVs as `--format csv-box`
//! and `--format csv-outliers`.

use super::downloads::{chart_commands, chart_downloads, csv_download, export_command, ChartFiles};
use crate::components::download::chart_caption;
use crate::i18n::lang;
use crate::messages::msg;
use crate::state::{AppState, Shared};
use imr_core::request::{ExportChoices, InequalityExport, InequalityRequest, InequalityResult};
use leptos::prelude::*;

#[component]
pub fn BoxChart(
    result: Memo<Option<Shared<InequalityResult>>>,
    request: Memo<Option<InequalityRequest>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    // `--include-flagged` comes with the request's arguments.
    let commands = move |files: &ChartFiles| {
        let Some(request) = request.get() else {
            return Default::default();
        };
        let files_of = [InequalityExport::BoxChart, InequalityExport::BoxStatistics];
        let choices = ExportChoices::default();
        chart_commands(&state, &request, files, files_of, &choices, language.get())
    };
    let outliers_command = move |file: &str| {
        let choices = ExportChoices::default();
        let export = (InequalityExport::Outliers, &choices, language.get());
        request
            .get()
            .map(|r| export_command(&state, &r, export, file))
            .unwrap_or_default()
    };
    move || {
        result.get().map(|o| {
            let caption = chart_caption(&state, language.get());
            let [svg, csv, outliers] = [
                InequalityExport::BoxChart,
                InequalityExport::BoxStatistics,
                InequalityExport::Outliers,
            ]
            .map(|e| {
                e.write(&o, None, &ExportChoices::default(), &caption)
                    .unwrap_or_default()
            });
            let svg_dl = svg.clone();
            view! {
                <section aria-labelledby="ineq-box-h">
                    <h3 id="ineq-box-h">{msg(|m| m.inequality.boxplot_heading)}</h3>
                    <div class="chart" data-testid="ineq-box-chart" inner_html=svg></div>
                    {chart_downloads(
                        "tasas_comunales_caja",
                        move || svg_dl.clone(),
                        move || csv.clone(),
                        commands,
                    )}
                    {csv_download(
                        "tasas_comunales_atipicos",
                        "tasas_comunales_atipicos-csv-download",
                        |m| m.inequality.download_outliers_csv,
                        move || outliers.clone(),
                        outliers_command,
                    )}
                </section>
            }
        })
    }
}
