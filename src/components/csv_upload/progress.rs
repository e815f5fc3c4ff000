//! The progress of a big upload (reading, parsing, receiving) with its Cancel button, and a
//! short note when it is done, cancelled or failed.

use super::{cancel_upload, CsvUpload, UploadStatus};
use crate::i18n::{format_number, lang};
use crate::messages::{messages, msg};
use leptos::prelude::*;

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// The progress of a big upload, with its Cancel button; a short note when it is done.
#[component]
pub fn UploadProgress() -> impl IntoView {
    let upload = expect_context::<CsvUpload>();
    let status = upload.status;
    move || match status.get() {
        UploadStatus::Idle => None,
        UploadStatus::Reading {
            name,
            bytes_read,
            total_bytes,
        } => Some(running_view(
            status,
            name,
            Some(bytes_read),
            total_bytes,
            Phase::Reading,
        )),
        UploadStatus::Parsing { name, total_bytes } => Some(running_view(
            status,
            name,
            None,
            total_bytes,
            Phase::Parsing,
        )),
        UploadStatus::Receiving { name, total_bytes } => Some(running_view(
            status,
            name,
            None,
            total_bytes,
            Phase::Receiving,
        )),
        UploadStatus::Done {
            name,
            total_bytes,
            worker_ms,
            decode_ms,
        } => Some(
            view! {
                <p
                    class="note"
                    role="status"
                    data-testid="upload-done"
                    data-worker-ms=worker_ms.to_string()
                    data-decode-ms=decode_ms.to_string()
                >
                    {move || {
                        let l = lang().get();
                        let (mb_text, worker_s, decode_s) = (
                            format_number(l, mb(total_bytes), 1),
                            format_number(l, worker_ms as f64 / 1000.0, 1),
                            format_number(l, decode_ms as f64 / 1000.0, 1),
                        );
                        (messages(l).upload.done)(&name, &mb_text, &worker_s, &decode_s)
                    }}
                </p>
            }
            .into_any(),
        ),
        UploadStatus::Failed(failure) => Some(
            view! {
                <p class="error" role="alert" data-testid="upload-error">
                    {move || failure.text(lang().get())}
                </p>
            }
            .into_any(),
        ),
        UploadStatus::Cancelled { name } => Some(
            view! {
                <p class="warn" role="status" data-testid="upload-cancelled">
                    {move || (messages(lang().get()).upload.cancelled)(&name)}
                </p>
            }
            .into_any(),
        ),
    }
}

#[derive(Clone, Copy)]
enum Phase {
    Reading,
    Parsing,
    Receiving,
}

fn running_view(
    status: RwSignal<UploadStatus>,
    name: String,
    bytes_read: Option<u64>,
    total_bytes: u64,
    phase: Phase,
) -> AnyView {
    // Without a value the bar is indeterminate: parsing and decoding report no fraction.
    let value = bytes_read.map(|b| b.to_string());
    view! {
        <div role="status" data-testid="upload-running" class="upload-running">
            <progress
                data-testid="upload-progress"
                max=total_bytes.max(1).to_string()
                value=value
                aria-label=msg(|m| m.common.reading_progress)
            ></progress>
            <p class="note" data-testid="upload-progress-text">
                {move || {
                    let l = lang().get();
                    let total = format_number(l, mb(total_bytes), 1);
                    let texts = &messages(l).upload;
                    match phase {
                        Phase::Reading => {
                            (texts
                                .reading)(
                                &name,
                                &format_number(l, mb(bytes_read.unwrap_or(0)), 1),
                                &total,
                            )
                        }
                        Phase::Parsing => (texts.parsing)(&name, &total),
                        Phase::Receiving => (texts.receiving)(&name),
                    }
                }}
            </p>
            <button
                class="secondary"
                data-testid="upload-cancel"
                on:click=move |_| cancel_upload(status)
            >
                {msg(|m| m.common.cancel)}
            </button>
        </div>
    }
    .into_any()
}
