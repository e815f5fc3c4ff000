//! The summary of each file a job read: rows read, counted, not infant and excluded (with the
//! reasons and first lines), years and unknown codes.

use crate::i18n::{format_number, lang};
use crate::messages::{messages, msg};
use imr_microdata::{FileKind, FileSummary};
use leptos::prelude::*;

pub(super) fn file_summary_view(f: FileSummary) -> impl IntoView {
    let kind = f.kind;
    let testid = match kind {
        FileKind::Deaths => "microdata-summary-deaths",
        FileKind::Births => "microdata-summary-births",
    };
    let years = match (f.rows_by_year.first(), f.rows_by_year.last()) {
        (Some(a), Some(b)) if a.0 != b.0 => format!("{}–{}", a.0, b.0),
        (Some(a), _) => a.0.to_string(),
        _ => "—".to_owned(),
    };
    let unknown = f.unknown_codes_listed(10);
    let unknown = (!unknown.is_empty()).then(|| {
        let list = unknown;
        view! {
            <p class="note" data-testid="microdata-unknown-codes">
                {msg(|m| m.microdata.unknown_commune_codes)}
                {list}
            </p>
        }
    });
    let excluded = f
        .excluded
        .clone()
        .into_iter()
        .map(|e| {
            let lines: Vec<String> = e.first_lines.iter().take(8).map(u64::to_string).collect();
            let more = if e.count as usize > lines.len() {
                ", …"
            } else {
                ""
            };
            let lines = lines.join(", ");
            let (reason, count) = (e.reason, e.count);
            view! {
                <li data-reason=reason.label() data-count=count.to_string()>
                    {move || {
                        let l = lang().get();
                        format!(
                            "{} {}: {} ({} {lines}{more})",
                            format_number(l, count as f64, 0),
                            messages(l).common.rows,
                            reason.text(l),
                            messages(l).microdata.lines_word,
                        )
                    }}
                </li>
            }
        })
        .collect_view();
    let name = f.name.clone();
    let header = f.has_header;
    let (read, counted, not_infant, excluded_n, recoded) = (
        f.rows.rows_read,
        f.rows.rows_counted,
        f.rows.rows_not_infant,
        f.rows.rows_excluded,
        f.rows.recoded_rows,
    );
    view! {
        <div
            data-testid=testid
            data-rows-read=read.to_string()
            data-rows-counted=counted.to_string()
            data-rows-not-infant=not_infant.to_string()
            data-rows-excluded=excluded_n.to_string()
        >
            <h4>{name}</h4>
            <p>
                {move || {
                    let l = lang().get();
                    let n = |v: u64| format_number(l, v as f64, 0);
                    let texts = messages(l);
                    let header = if header {
                        texts.common.with_header
                    } else {
                        texts.common.no_header
                    };
                    match kind {
                        FileKind::Deaths => {
                            (texts
                                .microdata
                                .deaths_summary)(
                                &n(read),
                                header,
                                &years,
                                &n(counted),
                                &n(not_infant),
                                &n(excluded_n),
                                &n(recoded),
                            )
                        }
                        FileKind::Births => {
                            (texts
                                .microdata
                                .births_summary)(
                                &n(read),
                                header,
                                &years,
                                &n(counted),
                                &n(excluded_n),
                                &n(recoded),
                            )
                        }
                    }
                }}
            </p>
            <ul class="excluded" data-testid="microdata-excluded">
                {excluded}
            </ul>
            {unknown}
        </div>
    }
}
