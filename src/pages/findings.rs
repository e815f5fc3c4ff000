//! The Findings view (Hallazgos), opened first: the study's five questions answered on the
//! loaded data by `imr-findings`, each with its number, interval, a small chart, what it cannot
//! say, and a link to the view with the detail. The findings are the app's
//! ([`crate::state::AnalysisState`]), recomputed whenever the data or the choices about them
//! change; downloadable as a short printable HTML report.

use crate::components::download::{data_source, download_text, today};
use crate::components::flag_choices::{IncludeFlagged, IncludeRepeated, RepeatedNote};
use crate::i18n::{lang, Lang};
use crate::messages::{messages, msg};
use crate::state::{AnalysisState, AppState, View};
use imr_core::escape::shell_join;
use imr_core::request::command_line;
use imr_findings::{FindingsRequest, YearSpan};
use leptos::prelude::*;

fn view_of(key: &str) -> View {
    match key {
        "inequality" => View::Inequality,
        "models" => View::Models,
        "map" => View::Map,
        _ => View::Data,
    }
}

fn view_name(lang: Lang, view: View) -> &'static str {
    match view {
        View::Findings => messages(lang).common.view_findings,
        View::Data => messages(lang).common.view_data,
        View::Inequality => messages(lang).common.view_inequality,
        View::Models => messages(lang).common.view_models,
        View::Map => messages(lang).common.view_map,
    }
}

#[component]
pub fn FindingsPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let analysis = expect_context::<AnalysisState>();
    let report = move |_| {
        let Some(f) = analysis.findings.get_untracked() else {
            return;
        };
        let l = lang().get_untracked();
        let line = imr_core::provenance::report_line(l, &data_source(&state), &today());
        let chosen = analysis.findings_years.get_untracked().is_some();
        let html = imr_findings::report::report_html_spanned(&f, l, &line, chosen);
        download_text(FindingsRequest::report_name(l), "text/html", &html);
    };
    // The command that writes the same report: the files, their columns and the request.
    let command = move || {
        let l = lang().get();
        let request = FindingsRequest {
            include_flagged: analysis.include.get(),
            include_repeated_years: analysis.include_repeated.get(),
            bundled_data: false,
            births_ratio: analysis.births_ratio.get(),
            years: analysis.findings_years.get(),
        };
        let args = request.to_args(l, FindingsRequest::report_name(l));
        shell_join(command_line(
            FindingsRequest::SUBCOMMAND,
            &state.input_spec(),
            args,
        ))
    };
    view! {
        <section data-testid="findings" aria-labelledby="findings-h" class="findings">
            <h2 id="findings-h">{msg(|m| m.common.view_findings)}</h2>
            <p class="lead">{msg(|m| m.findings.lead)}</p>
            <PeriodChoice />
            // Rates published years late are said first: every answer's years depend on it.
            {move || {
                analysis
                    .findings
                    .get()
                    .and_then(|f| f.lag_note(lang().get()))
                    .map(|note| {
                        view! {
                            <p class="warn" role="note" data-testid="findings-lag-note">
                                <strong>{note}</strong>
                            </p>
                        }
                    })
            }}
            {move || match analysis.findings.get() {
                None => {
                    view! { <p class="note">{msg(|m| m.common.load_data_in_data_view)}</p> }
                        .into_any()
                }
                Some(f) => {
                    let l = lang().get();
                    f.answers(l)
                        .into_iter()
                        .map(|a| answer_article(l, a, state))
                        .collect_view()
                        .into_any()
                }
            }}
            // Answers first (as Datawrapper and OWID put the chart before the controls): what
            // was left out, the options, the report and its command come after them.
            <div class="findings-after" data-testid="findings-options">
                {move || {
                    analysis
                        .findings
                        .get()
                        .and_then(|f| f.flagged_note(lang().get()))
                        .map(|note| {
                            view! {
                                <p class="note" data-testid="findings-flagged-note">
                                    {note}
                                </p>
                            }
                        })
                }}
                <IncludeFlagged />
                <RepeatedNote />
                <IncludeRepeated />
                <p>
                    <button class="secondary" data-testid="findings-report" on:click=report>
                        {msg(|m| m.findings.download_report)}
                    </button>
                </p>
                {move || {
                    (!state.files.with(Vec::is_empty))
                        .then(|| {
                            view! {
                                <p class="note">
                                    {msg(|m| m.findings.report_command_label)}
                                    <code data-testid="findings-command">{command}</code>
                                </p>
                            }
                        })
                }}
            </div>
        </section>
    }
}

/// One answer as an article: its heading, headline, chart, details, caveats, the method folded,
/// the link to the view that answers it in full and, when it has a figure, its embed.
fn answer_article(l: Lang, a: imr_findings::Answer, state: AppState) -> impl IntoView {
    let analysis = expect_context::<AnalysisState>();
    let title = a.heading();
    let target = view_of(a.view);
    let embed_answer = a.clone();
    let has_figure = a.has_figure();
    let heading = format!("finding-{}-h", a.question);
    let labelled_by = heading.clone();
    let details = a
        .details
        .into_iter()
        .map(|d| {
            // The answer on the study comes first, unnumbered; the five keep 1–5.
            // Only a figure is offered for an article: an unanswered question has none.
            view! { <p>{d}</p> }
        })
        .collect_view();
    let caveats = a
        .caveats
        .into_iter()
        .map(|c| view! { <li>{c}</li> })
        .collect_view();
    let method = (!a.method.is_empty()).then(|| {
        let terms = a
            .method
            .into_iter()
            .map(|t| {
                // The terms and methods behind the numbers, folded: the answer reads without them.
                view! {
                    <dt>{t.term}</dt>
                    <dd>{t.meaning}</dd>
                }
            })
            .collect_view();
        view! {
            <details class="how" data-testid="finding-method">
                <summary>{imr_findings::method::heading(l)}</summary>
                <dl>{terms}</dl>
            </details>
        }
    });
    let svg = a.chart_svg.clone();
    let question = a.question;
    let embed = move |_| {
        let l = lang().get_untracked();
        let line = imr_core::provenance::footer_line(l, &data_source(&state), &today());
        let credit = if state.bundled.get_untracked() {
            imr_findings::embed::bundled_credit(l)
        } else {
            ""
        };
        let marks = analysis.year_marks.get_untracked();
        let html = imr_findings::embed::snippet(&embed_answer, l, (&line, credit), &marks);
        download_text(
            &imr_findings::embed::file_name(&embed_answer, l),
            "text/html",
            &html,
        );
    };
    view! {
        <article class="finding" data-question=a.question aria-labelledby=labelled_by>
            <h3 id=heading>{title}</h3>
            <p class="headline" data-testid="finding-headline">
                {a.headline}
            </p>
            <div class="finding-body">
                <div class="finding-chart" inner_html=svg></div>
                <div class="finding-text">
                    {details} <ul class="caveats">{caveats}</ul> {method}
                    <button
                        class="link"
                        data-testid=format!("finding-link-{}", a.question)
                        on:click=move |_| state.view.set(target)
                    >
                        {format!(
                            "{} → {}",
                            messages(l).findings.see_detail,
                            view_name(l, target),
                        )}
                    </button>
                    {has_figure
                        .then(|| {
                            view! {
                                " "
                                <button
                                    class="link"
                                    data-testid=format!("finding-embed-{question}")
                                    on:click=embed
                                >
                                    {messages(l).findings.embed_figure}
                                </button>
                            }
                        })}
                </div>
            </div>
        </article>
    }
}

/// The period the five answers cover: every year of the data, or the reference study's years
/// when the data have them (two buttons; the answer on the study reads every year either way).
#[component]
fn PeriodChoice() -> impl IntoView {
    let state = expect_context::<AppState>();
    let analysis = expect_context::<AnalysisState>();
    // The data's years and the study's span within them, from the panel (not the findings, so
    // that the buttons do not wait for the answers).
    let spans = Memo::new(move |_| {
        let panel = match state.panel.get() {
            Some(Ok(p)) => p,
            _ => return None,
        };
        let times = panel.times();
        let all = YearSpan {
            first: *times.first()?,
            last: *times.last()?,
        };
        let study = imr_findings::STUDY;
        let in_study = times
            .iter()
            .filter(|t| (study.first..=study.last).contains(*t))
            .count();
        let study_span = (panel.chile_codes
            && in_study >= imr_findings::words::MIN_YEARS_FOR_TREND
            && (study.first, study.last) != (all.first, all.last))
            .then_some(YearSpan {
                first: study.first,
                last: study.last,
            });
        Some((all, study_span))
    });
    move || {
        let (all, study) = spans.get()?;
        let study = study?;
        let texts = &messages(lang().get()).findings;
        let button = move |span: Option<YearSpan>, label: String, id: &'static str| {
            let pressed = move || analysis.findings_years.get() == span;
            view! {
                <button
                    type="button"
                    class="segment"
                    data-testid=id
                    aria-pressed=move || pressed().to_string()
                    on:click=move |_| analysis.findings_years.set(span)
                >
                    {label}
                </button>
            }
        };
        Some(view! {
            <div
                class="segmented"
                role="group"
                aria-label=texts.period_label
                data-testid="findings-period"
            >
                {button(
                    None,
                    (texts.period_all)(&all.first.to_string(), &all.last.to_string()),
                    "findings-period-all",
                )}
                {button(
                    Some(study),
                    (texts.period_study)(&study.first.to_string(), &study.last.to_string()),
                    "findings-period-study",
                )}
            </div>
        })
    }
}
