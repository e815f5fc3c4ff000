//! The downloads of the Models view (analysis data, coefficient CSV, LaTeX and Markdown tables,
//! R and Stata code) and the `imr fit` commands that print the same numbers from the data file;
//! the tables in the page's language (`--lang es` in the commands of the Spanish page).

use crate::components::download::{csv_with_provenance, download_machine_csv, download_text};
use crate::i18n::lang;
use crate::messages::{messages, msg, Text};
use crate::state::{AppState, Shared};
use imr_core::models::report::CsvOptions;
use imr_core::models::Fit;
use imr_core::panel::Panel;
use imr_core::request::{FitExport, FitRequest};
use imr_core::view::{AnalysisData, ANALYSIS_DATA_FILE as DATA_FILE};
use leptos::prelude::*;

#[component]
pub(super) fn Downloads(
    fits: Memo<Vec<Shared<Fit>>>,
    requests: Memo<Vec<FitRequest>>,
    panel: Memo<Option<Shared<Panel>>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let analysis_state = expect_context::<crate::state::AnalysisState>();
    move || {
        let fits: Vec<Fit> = fits.get().iter().map(|f| (**f).clone()).collect();
        let panel = panel.get()?;
        if fits.is_empty() {
            return None;
        }
        // The analysis data are the rows the fits use: without the rows flagged as implausible
        // and the copied years unless the shared toggles include them, so that `imr fit` and the R/Stata code on the
        // file reproduce the fits.
        let include_flagged = analysis_state.include.get();
        let include_repeated_years = analysis_state.include_repeated.get();
        let data = AnalysisData {
            panel: &panel,
            include_flagged,
            include_repeated_years,
        };
        let ctx = data.code_context();
        let requests = requests.get();
        // the tables in the page's language; the commands name it, so that they write them
        let l = lang().get();
        // `imr fit` on the downloaded data, with the entity and time columns named.
        let commands = data.commands(&requests, l);
        // the file itself is written when asked for
        let download_data = {
            let panel = panel.clone();
            let requests = requests.clone();
            move |_| {
                let data = AnalysisData {
                    panel: &panel,
                    include_flagged,
                    include_repeated_years,
                };
                download_machine_csv(&state, DATA_FILE, &data.csv(&requests));
            }
        };
        // each file of the fits, as `imr fit --format <export.format()> [--lang es]` writes it
        // for one fit
        let buttons = FitExport::ALL
            .into_iter()
            .map(|export| {
                let text = export.write(&fits, &ctx, CsvOptions::default(), l);
                let text = if export.is_csv() {
                    csv_with_provenance(&state, &text)
                } else {
                    text
                };
                let (testid, label) = button_of(export);
                let (file, mime) = (export.file_name(), export.mime());
                view! {
                    <button
                        class="secondary"
                        data-testid=testid
                        on:click=move |_| download_text(file, mime, &text)
                    >
                        {msg(label)}
                    </button>
                }
            })
            .collect_view();
        let command_lines = commands
            .iter()
            .map(|c| {
                view! {
                    <code data-command>{c.clone()}</code>
                    <br />
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="downloads-h">
                <h3 id="downloads-h">{msg(|m| m.models.downloads_heading)}</h3>
                <p class="note">
                    {move || (messages(lang().get()).models.data_file_note)(DATA_FILE)}
                </p>
                <div class="roles">
                    <button class="secondary" data-testid="download-data" on:click=download_data>
                        {msg(|m| m.models.data_csv)}
                    </button>
                    {buttons}
                </div>
                <p>{msg(|m| m.models.commands_label)}</p>
                <pre
                    class="scroll"
                    tabindex="0"
                    aria-label=msg(|m| m.models.commands_aria)
                    data-testid="imr-commands"
                >
                    {command_lines}
                </pre>
            </section>
        })
    }
}

/// The test id and the label of a file's download button.
fn button_of(export: FitExport) -> (&'static str, Text) {
    match export {
        FitExport::Coefficients => ("download-coef-csv", |m| m.models.coefficients_csv),
        FitExport::Latex => ("download-latex", |m| m.models.latex_table),
        FitExport::Markdown => ("download-markdown", |m| m.models.markdown_table),
        FitExport::RCode => ("download-r", |m| m.models.r_code),
        FitExport::StataCode => ("download-stata", |m| m.models.stata_code),
    }
}
