//! Where a microdata job stands: starting, reading (progress bar and speed), cancelled, failed,
//! or done (the speed, each file's summary, the equivalent `imr microdata` command and the
//! counts download).

use super::summary::file_summary_view;
use super::{Run, COUNTS_FILE};
use crate::components::download::{csv_of_source, download_text};
use crate::i18n::{format_number, lang, Lang};
use crate::messages::{messages, msg};
use imr_microdata::{FileKind, Throughput};
use leptos::prelude::*;

/// "12,3 de 500,0 MB · 1.234.567 filas · 2.345.678 filas/s · 85,2 MB/s"
fn progress_text(l: Lang, bytes_read: u64, total_bytes: u64, rows: u64, elapsed_ms: u64) -> String {
    let t = Throughput::new(bytes_read, total_bytes, rows, elapsed_ms);
    (messages(l).microdata.progress)(
        &format_number(l, t.mb_read, 1),
        &format_number(l, t.mb_total, 1),
        &format_number(l, rows as f64, 0),
        &format_number(l, t.rows_per_second, 0),
        &format_number(l, t.mb_per_second, 1),
    )
}

/// The status line (or block) of the run.
#[component]
pub(super) fn RunStatus(run: RwSignal<Run>) -> impl IntoView {
    move || {
        match run.get() {
        Run::Idle => None,
        Run::Starting => Some(view! {
            <p class="note" role="status">
                {msg(|m| m.microdata.starting)}
            </p>
        }.into_any()),
        Run::Running { file, name, bytes_read, total_bytes, rows_read, elapsed_ms } => Some(view! {
            <div role="status" data-testid="microdata-running">
                <progress
                    data-testid="microdata-progress"
                    max=total_bytes.max(1).to_string()
                    value=bytes_read.to_string()
                    aria-label=msg(|m| m.common.reading_progress)
                ></progress>
                <p class="note" data-testid="microdata-progress-text">
                    {move || {
                        let l = lang().get();
                        let which = match file {
                            FileKind::Deaths => messages(l).microdata.deaths_word,
                            FileKind::Births => messages(l).microdata.births_word,
                        };
                        format!(
                            "{name} ({which}): {}",
                            progress_text(l, bytes_read, total_bytes, rows_read, elapsed_ms),
                        )
                    }}
                </p>
            </div>
        }.into_any()),
        Run::Cancelled { bytes_read, total_bytes } => {
            let read = Throughput::new(bytes_read, total_bytes, 0, 0);
            Some(view! {
                <p class="warn" role="status" data-testid="microdata-cancelled">
                    {move || {
                        let l = lang().get();
                        (messages(l)
                            .microdata
                            .cancelled)(
                            &format_number(l, read.mb_read, 1),
                            &format_number(l, read.mb_total, 1),
                        )
                    }}
                </p>
            }.into_any())
        }
        Run::Failed(failure) => Some(view! {
            <p class="error" role="alert" data-testid="microdata-error">
                {move || failure.text(lang().get())}
            </p>
        }.into_any()),
        Run::Done(result, command) => {
            // The download carries the provenance lines, the microdata files as source.
            let source: Vec<String> = result.files.iter().map(|f| f.name.clone()).collect();
            let (source, counts) = (source.join(", "), result.counts_csv.clone());
            let summaries = result.files.clone().into_iter().map(file_summary_view).collect_view();
            let (bytes, rows, ms) = (result.bytes, result.rows, result.elapsed_ms);
            Some(view! {
                <div
                    data-testid="microdata-result"
                    data-bytes=bytes.to_string()
                    data-rows=rows.to_string()
                    data-elapsed-ms=ms.to_string()
                    role="status"
                >
                    <p>
                        {move || {
                            let l = lang().get();
                            let t = Throughput::new(bytes, bytes, rows, ms);
                            (messages(l)
                                .microdata
                                .done)(
                                &format_number(l, t.seconds, 1),
                                &format_number(l, t.mb_per_second, 1),
                                &format_number(l, t.rows_per_second, 0),
                                COUNTS_FILE,
                            )
                        }}
                    </p>
                    {summaries}
                    <p class="note">{msg(|m| m.microdata.same_result_from_command)}</p>
                    <pre data-testid="microdata-command">
                        <code>
                            {move || imr_core::spreadsheet_csv::command_in(lang().get(), &command)}
                        </code>
                    </pre>
                    <button
                        class="secondary"
                        data-testid="microdata-download"
                        on:click=move |_| download_text(
                            COUNTS_FILE,
                            "text/csv",
                            &csv_of_source(&source, &counts),
                        )
                    >
                        {msg(|m| m.microdata.download_counts_csv)}
                    </button>
                </div>
            }.into_any())
        }
    }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_reads_in_each_language() {
        assert_eq!(
            progress_text(Lang::Es, 250_000_000, 500_000_000, 1_000_000, 2_000),
            "250,0 de 500,0 MB · 1.000.000 filas · 500.000 filas/s · 125,0 MB/s"
        );
        assert!(progress_text(Lang::En, 1, 2, 3, 0).contains(" of "));
    }
}
