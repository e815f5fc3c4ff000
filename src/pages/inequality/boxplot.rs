//! The distribution of commune rates per year as box plots; flagged (implausible) values stay
//! off the axis unless the shared include toggle is on. SVG as `imr inequality --format
//! svg-box`, CSVs as `--format csv-box` and `--format csv-outliers`.

use super::downloads::{chart_downloads, csv_download, export_command, ChartFiles};
use crate::components::download::chart_caption;
use crate::i18n::lang;
use crate::messages::msg;
use crate::pages::findings::FlagState;
use crate::state::{AppState, Shared};
use imr_core::inequality::chart::box_plot_svg_flagged;
use imr_core::inequality::csv::{box_plot_csv, box_plot_outliers_csv};
use imr_core::request::{InequalityRequest, InequalityResult};
use leptos::prelude::*;

#[component]
pub fn BoxChart(
    result: Memo<Option<Shared<InequalityResult>>>,
    request: Memo<Option<InequalityRequest>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    let flag_state = expect_context::<FlagState>();
    let command = move |output: &[&str], file: &str| {
        request
            .get()
            .map(|r| export_command(&state, &r, output, file))
            .unwrap_or_default()
    };
    let commands = move |files: &ChartFiles| {
        let tag = language.get().tag();
        // `--include-flagged` comes with the request's arguments.
        let svg = vec!["--format", "svg-box", "--lang", tag];
        [
            command(&svg, &files.svg),
            command(&["--format", "csv-box"], &files.csv),
        ]
    };
    move || {
        result.get().map(|o| {
            let a = &o.analysis;
            // Flagged rows (implausible rates) stay out of the axis scale unless included.
            let flags = (!flag_state.include.get()).then(|| flag_state.flags.get()).flatten();
            let svg = box_plot_svg_flagged(
                &a.box_plots,
                &a.report.subject,
                &chart_caption(&state, language.get()),
                &|entity, time| flags.as_ref().is_some_and(|f| f.is_flagged(entity, time)),
            );
            let (svg_dl, csv, outliers) = (
                svg.clone(),
                box_plot_csv(&a.box_plots),
                box_plot_outliers_csv(&a.box_plots),
            );
            view! {
                <section aria-labelledby="ineq-box-h">
                    <h3 id="ineq-box-h">{msg(|m| m.inequality.boxplot_heading)}</h3>
                    <div class="chart" data-testid="ineq-box-chart" inner_html=svg></div>
                    {chart_downloads("tasas_comunales_caja", move || svg_dl.clone(), move || csv.clone(), commands)}
                    {csv_download("tasas_comunales_atipicos", "tasas_comunales_atipicos-csv-download", |m| m.inequality.download_outliers_csv, move || outliers.clone(),
                        move |file| command(&["--format", "csv-outliers"], file))}
                </section>
            }
        })
    }
}
