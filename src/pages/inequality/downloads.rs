//! The view's downloads and the `imr inequality` commands: the one that reproduces the analysis
//! and, beside every download, the one that writes the same file (the request's `to_args`, the
//! output format, then `> file`). Each file is the engine's function of the result that the
//! command writes too, so the page's file and imr's are the same bytes.

use crate::components::download::{csv_with_provenance, download_text};
use crate::i18n::Lang;
use crate::messages::{msg, Text};
use crate::state::{AppState, Shared};
use imr_core::escape::shell_join;
use imr_core::request::{
    self, ExportChoices, InequalityExport, InequalityRequest, InequalityResult,
};
use leptos::prelude::*;

/// The `imr inequality` command of a request followed by `output` (format and chart options):
/// the files, the column roles chosen in the Data view (for each role, the column of the first
/// file that has one: one flag names one column everywhere) and the request's own arguments,
/// quoted by the one shell rule ([`imr_core::escape::shell_join`]).
pub fn command_line(state: &AppState, request: &InequalityRequest, output: &[&str]) -> String {
    let input = state.input_spec();
    let mut args = request.to_args();
    args.extend(output.iter().map(|a| a.to_string()));
    shell_join(request::command_line(
        InequalityRequest::SUBCOMMAND,
        &input,
        args,
    ))
}

/// The command that writes `export` to the download `file`: the request's arguments, then the
/// export's own ([`InequalityExport::args`]: format, measure or years, language).
pub fn export_command(
    state: &AppState,
    request: &InequalityRequest,
    (export, choices, lang): (InequalityExport, &ExportChoices, Lang),
    file: &str,
) -> String {
    let args = export.args(choices, lang);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    format!(
        "{} > {}",
        command_line(state, request, &args),
        shell_join([file])
    )
}

/// A CSV of the analysis that needs no choice of the reader (the table, the trends, the box
/// statistics and outliers), as `imr inequality` writes it (the provenance lines aside).
pub fn export_text(result: &InequalityResult, export: InequalityExport) -> String {
    // a CSV has no caption: its words are English and its provenance lines are added apart
    let caption = imr_core::Caption {
        lang: Lang::En,
        provenance: None,
        engine: None,
        width: None,
    };
    export
        .write(result, None, &ExportChoices::default(), &caption)
        .unwrap_or_default()
}

/// The commands that write a chart's two files, its SVG and its CSV.
pub fn chart_commands(
    state: &AppState,
    request: &InequalityRequest,
    files: &ChartFiles,
    [svg, csv]: [InequalityExport; 2],
    choices: &ExportChoices,
    lang: Lang,
) -> [String; 2] {
    [
        export_command(state, request, (svg, choices, lang), &files.svg),
        export_command(state, request, (csv, choices, lang), &files.csv),
    ]
}

/// The commands of a chart's two downloads, behind a disclosure (closed: they are long).
fn commands_view(
    stem: &'static str,
    commands: impl Fn() -> Vec<(&'static str, String)> + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <details class="export-commands" data-testid=format!("{stem}-commands")>
            <summary>{msg(|m| m.inequality.downloads_commands_summary)}</summary>
            <pre
                tabindex="0"
                aria-label=msg(|m| m.inequality.downloads_commands_label)
                style="white-space: pre-wrap; overflow-wrap: anywhere"
            >
                {move || {
                    commands()
                        .into_iter()
                        .map(|(kind, c)| {
                            view! {
                                <code data-testid=format!("{stem}-{kind}-command")>{c}</code>
                                "\n"
                            }
                        })
                        .collect_view()
                }}
            </pre>
        </details>
    }
}

/// The two files a chart downloads: `{stem}.svg` and `{stem}.csv`.
pub struct ChartFiles {
    pub svg: String,
    pub csv: String,
}

/// "Download SVG" and "Download CSV" buttons of one chart (`{stem}.svg`, `{stem}.csv` with its
/// provenance lines), and the two commands that write the same files: `commands` is handed the
/// file names the buttons use, so a command cannot name another file.
pub fn chart_downloads(
    stem: &'static str,
    svg: impl Fn() -> String + Send + Sync + 'static,
    csv: impl Fn() -> String + Send + Sync + 'static,
    commands: impl Fn(&ChartFiles) -> [String; 2] + Send + Sync + 'static,
) -> impl IntoView {
    let files = ChartFiles {
        svg: format!("{stem}.svg"),
        csv: format!("{stem}.csv"),
    };
    let svg_file = files.svg.clone();
    let csv_file = files.csv.clone();
    view! {
        <div class="downloads">
            <button
                class="secondary"
                data-testid=format!("{stem}-svg-download")
                on:click=move |_| download_text(&svg_file, "image/svg+xml", &svg())
            >
                {msg(|m| m.common.download_svg)}
            </button>
            {csv_button(csv_file, format!("{stem}-csv-download"), |m| m.common.download_csv, csv)}
        </div>
        {commands_view(
            stem,
            move || {
                let [svg, csv] = commands(&files);
                vec![("svg", svg), ("csv", csv)]
            },
        )}
    }
}

/// The download of a CSV of the analysis that needs no choice of the reader (the table, the
/// trends: [`export_text`]) as `{stem}.csv` (test id `{testid}`), and the command that writes it.
pub fn export_csv_download(
    (stem, testid, label): (&'static str, &'static str, Text),
    export: InequalityExport,
    result: Shared<InequalityResult>,
    request: InequalityRequest,
    lang: Lang,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let csv = move || export_text(&result, export);
    let command = move |file: &str| {
        let choices = ExportChoices::default();
        export_command(&state, &request, (export, &choices, lang), file)
    };
    csv_download(stem, testid, label, csv, command)
}

/// One CSV download button (`{stem}.csv`, test id `{testid}`) and the command that writes it:
/// `command` is handed the file name the button uses.
pub fn csv_download(
    stem: &'static str,
    testid: &'static str,
    label: Text,
    csv: impl Fn() -> String + Send + Sync + 'static,
    command: impl Fn(&str) -> String + Send + Sync + 'static,
) -> impl IntoView {
    let file = format!("{stem}.csv");
    view! {
        {csv_button(file.clone(), testid.to_string(), label, csv)}
        {commands_view(stem, move || vec![("csv", command(&file))])}
    }
}

/// The button that downloads `file` (a CSV) with its provenance lines.
fn csv_button(
    file: String,
    testid: String,
    label: Text,
    csv: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <button
            class="secondary"
            data-testid=testid
            on:click=move |_| download_text(&file, "text/csv", &csv_with_provenance(&state, &csv()))
        >
            {msg(label)}
        </button>
    }
}
