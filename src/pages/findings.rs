//! The Findings view (Hallazgos), opened first: the study's five questions answered on the
//! loaded data by `imr-findings`, each with its number, interval, a small chart, what it cannot
//! say, and a link to the view with the detail. Recomputed whenever the data (or the choice to
//! include implausible rows) change; downloadable as a short printable HTML report.

use crate::components::cache::RequestCache;
use crate::components::download::{data_source, download_text, today};
use crate::i18n::{lang, Lang};
use crate::messages::{messages, msg};
use crate::state::{AppState, Shared, View};
use imr_core::escape::shell_join;
use imr_core::plausibility::Plausibility;
use imr_core::repeats::{repeated_years, RepeatedYear};
use imr_core::request::command_line;
use imr_findings::{Findings, FindingsRequest, YearSpan};
use leptos::prelude::*;
use std::sync::Arc;

/// The plausibility flags of the loaded panel and whether the views include flagged rows
/// (default: no — they are kept out of scales and answers). Provided in context by the app.
#[derive(Clone, Copy)]
pub struct FlagState {
    pub flags: Memo<Option<Shared<Plausibility>>>,
    pub include: RwSignal<bool>,
    /// The years of the loaded panel that repeat the previous year (`imr_core::repeats`).
    pub repeats: Memo<Option<Shared<Vec<RepeatedYear>>>>,
    /// Whether trends and correlations keep the repeated years (default: no).
    pub include_repeated: RwSignal<bool>,
    /// Where deaths are derived from published rates, the range of true births over the births
    /// given (`None`: 0.7–1.0): set in the Inequality view, read by its measures and by the
    /// Findings' inequality answer alike (one setting, in the link as `ineq-births-ratio`).
    pub births_ratio: RwSignal<Option<imr_core::inequality::adjusted::BirthsRatioRange>>,
    /// The years the Findings' five answers cover (`None`: all), in the link as
    /// `findings-years` (`imr findings --years`).
    pub findings_years: RwSignal<Option<YearSpan>>,
    /// The findings of the current data and choice, computed when first read (memos are lazy)
    /// and kept across tab switches.
    pub findings: Memo<Option<Shared<Findings>>>,
}

fn write_years(span: &Option<YearSpan>) -> String {
    span.map(|s| s.to_string()).unwrap_or_default()
}

fn read_years(s: &str) -> Option<Option<YearSpan>> {
    match s {
        "" => Some(None),
        s => s.parse().ok().map(Some),
    }
}

thread_local! {
    /// The findings of the loaded panel by choice: toggling an include option back shows the
    /// earlier answers at once.
    static FINDINGS: std::cell::RefCell<RequestCache<FindingsRequest, Shared<Findings>>> =
        const { std::cell::RefCell::new(RequestCache::new(4)) };
}

impl FlagState {
    pub fn new(state: AppState) -> FlagState {
        let flags = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => Some(Shared(Arc::new(Plausibility::check(&p)))),
            _ => None,
        });
        let repeats = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => Some(Shared(Arc::new(repeated_years(&p)))),
            _ => None,
        });
        // In the URL fragment (`include-flagged=true`), so a shared link keeps the choice.
        let include = crate::fragment::fragment().synced("include-flagged", false);
        let include_repeated = crate::fragment::fragment().synced("include-repeated-years", false);
        let births_ratio = crate::fragment::fragment().synced_with(
            "ineq-births-ratio",
            None,
            crate::pages::inequality::options::write_births_ratio,
            crate::pages::inequality::options::read_births_ratio,
        );
        let findings_years = crate::fragment::fragment().synced_with(
            "findings-years",
            None,
            write_years,
            read_years,
        );
        let findings = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => {
                // The request `imr findings` runs too (the inequality answer: the Gini of true
                // rates, imr_findings::AdjustedGini).
                let request = FindingsRequest {
                    include_flagged: include.get(),
                    include_repeated_years: include_repeated.get(),
                    bundled_data: state.bundled.get(),
                    births_ratio: births_ratio.get(),
                    years: findings_years.get(),
                };
                Some(FINDINGS.with(|cache| {
                    cache
                        .borrow_mut()
                        .get_or_run(&p, &request, || Shared(Arc::new(request.run(&p))))
                }))
            }
            _ => None,
        });
        FlagState {
            flags,
            include,
            repeats,
            include_repeated,
            births_ratio,
            findings_years,
            findings,
        }
    }
}

/// The checkbox that includes flagged rows, with the count, shown where flags matter.
#[component]
pub fn IncludeFlagged() -> impl IntoView {
    let flags = expect_context::<FlagState>();
    move || {
        let n = flags.flags.get().map_or(0, |f| f.len());
        (n > 0).then(|| view! {
            <p class="flag-toggle">
                <input id="include-flagged" type="checkbox" data-testid="include-flagged"
                    prop:checked=move || flags.include.get()
                    on:change=move |ev| flags.include.set(event_target_checked(&ev))/>
                <label for="include-flagged">{move || (messages(lang().get()).findings.include_flagged)(&n.to_string())}</label>
            </p>
        })
    }
}

/// The checkbox that keeps the repeated years in trends and correlations, shown when the data
/// have one.
#[component]
pub fn IncludeRepeated() -> impl IntoView {
    let flags = expect_context::<FlagState>();
    move || {
        let years = flags.repeats.get().filter(|r| !r.is_empty())?;
        let list = years
            .iter()
            .map(|r| r.time.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        Some(view! {
            <p class="flag-toggle">
                <input id="include-repeated-years" type="checkbox" data-testid="include-repeated-years"
                    prop:checked=move || flags.include_repeated.get()
                    on:change=move |ev| flags.include_repeated.set(event_target_checked(&ev))/>
                <label for="include-repeated-years">{move || (messages(lang().get()).findings.include_repeated)(&list)}</label>
            </p>
        })
    }
}

/// The one sentence saying which repeated years the trends and correlations leave out and why,
/// when they leave some out.
#[component]
pub fn RepeatedNote() -> impl IntoView {
    let flags = expect_context::<FlagState>();
    move || {
        if flags.include_repeated.get() {
            return None;
        }
        let years = flags.repeats.get().filter(|r| !r.is_empty())?;
        RepeatedYear::left_out_text(&years, lang().get())
            .map(|note| view! { <p class="note" data-testid="repeated-note">{note}</p> })
    }
}

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
    let flags = expect_context::<FlagState>();
    let report = move |_| {
        let Some(f) = flags.findings.get_untracked() else {
            return;
        };
        let l = lang().get_untracked();
        let line = imr_core::provenance::footer_line(l, &data_source(&state), &today());
        let chosen = flags.findings_years.get_untracked().is_some();
        let html = imr_findings::report::report_html_spanned(&f, l, &line, chosen);
        download_text(FindingsRequest::report_name(l), "text/html", &html);
    };
    // The command that writes the same report: the files, their columns and the request.
    let command = move || {
        let l = lang().get();
        let request = FindingsRequest {
            include_flagged: flags.include.get(),
            include_repeated_years: flags.include_repeated.get(),
            bundled_data: false,
            births_ratio: flags.births_ratio.get(),
            years: flags.findings_years.get(),
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
            <PeriodChoice/>
            {move || match flags.findings.get() {
                None => view! { <p class="note">{msg(|m| m.common.load_data_in_data_view)}</p> }.into_any(),
                Some(f) => {
                    let l = lang().get();
                    f.answers(l).into_iter().map(|a| {
                        // The answer on the study comes first, unnumbered; the five keep 1–5.
                        let title = a.heading();
                        let target = view_of(a.view);
                        let embed_answer = a.clone();
                        let heading = format!("finding-{}-h", a.question);
                        let labelled_by = heading.clone();
                        let details = a.details.into_iter().map(|d| view! { <p>{d}</p> }).collect_view();
                        let caveats = a.caveats.into_iter().map(|c| view! { <li>{c}</li> }).collect_view();
                        let svg = a.chart_svg.clone();
                        let question = a.question;
                        let embed = move |_| {
                            let l = lang().get_untracked();
                            let line = imr_core::provenance::footer_line(l, &data_source(&state), &today());
                            let credit = if state.bundled.get_untracked() { imr_findings::embed::bundled_credit(l) } else { "" };
                            let html = imr_findings::embed::snippet(&embed_answer, l, &line, credit);
                            download_text(&format!("figura_{question}.html"), "text/html", &html);
                        };
                        view! {
                            <article class="finding" data-question=a.question aria-labelledby=labelled_by>
                                <h3 id=heading>{title}</h3>
                                <p class="headline" data-testid="finding-headline">{a.headline}</p>
                                <div class="finding-body">
                                    <div class="finding-chart" inner_html=svg></div>
                                    <div class="finding-text">
                                        {details}
                                        <ul class="caveats">{caveats}</ul>
                                        <button class="link" data-testid=format!("finding-link-{}", a.question)
                                            on:click=move |_| state.view.set(target)>
                                            {format!("{} → {}", messages(l).findings.see_detail, view_name(l, target))}
                                        </button>
                                        " "
                                        <button class="link" data-testid=format!("finding-embed-{question}") on:click=embed>
                                            {messages(l).findings.embed_figure}
                                        </button>
                                    </div>
                                </div>
                            </article>
                        }
                    }).collect_view().into_any()
                }
            }}
            // Answers first (as Datawrapper and OWID put the chart before the controls): what
            // was left out, the options, the report and its command come after them.
            <div class="findings-after" data-testid="findings-options">
                {move || flags.findings.get().and_then(|f| f.flagged_note(lang().get())).map(|note| view! { <p class="note" data-testid="findings-flagged-note">{note}</p> })}
                <IncludeFlagged/>
                <RepeatedNote/>
                <IncludeRepeated/>
                <p><button class="secondary" data-testid="findings-report" on:click=report>{msg(|m| m.findings.download_report)}</button></p>
                {move || (!state.files.with(Vec::is_empty)).then(|| view! {
                    <p class="note">{msg(|m| m.findings.report_command_label)}
                        <code data-testid="findings-command">{command}</code>
                    </p>
                })}
            </div>
        </section>
    }
}

/// The period the five answers cover: every year of the data, or the reference study's years
/// when the data have them (two buttons; the answer on the study reads every year either way).
#[component]
fn PeriodChoice() -> impl IntoView {
    let state = expect_context::<AppState>();
    let flags = expect_context::<FlagState>();
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
            let pressed = move || flags.findings_years.get() == span;
            view! {
                <button type="button" class="segment" data-testid=id
                    aria-pressed=move || pressed().to_string()
                    on:click=move |_| flags.findings_years.set(span)>{label}</button>
            }
        };
        Some(view! {
            <div class="segmented" role="group" aria-label=texts.period_label data-testid="findings-period">
                {button(None, (texts.period_all)(&all.first.to_string(), &all.last.to_string()), "findings-period-all")}
                {button(Some(study), (texts.period_study)(&study.first.to_string(), &study.last.to_string()), "findings-period-study")}
            </div>
        })
    }
}

/// The one-line answer a detailed view leads with: the Findings' answer to `question` on the
/// same data, prefixed by what it is computed on (it may differ from the view's own choices).
#[component]
pub fn Takeaway(question: &'static str) -> impl IntoView {
    let flags = expect_context::<FlagState>();
    move || {
        let f = flags.findings.get()?;
        let l = lang().get();
        let answer = f.answers(l).into_iter().find(|a| a.question == question)?;
        let texts = &messages(l).findings;
        let basis = match question {
            "models" => texts.takeaway_models,
            "where" => texts.takeaway_where,
            _ => texts.takeaway,
        };
        Some(view! {
            <p class="takeaway" data-testid="takeaway"><strong>{basis}</strong>{answer.headline}</p>
        })
    }
}
