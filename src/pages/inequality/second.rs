//! The second panel: inequality of infant mortality against the inequality of a second subject
//! (municipal health income per capita by default) over the years. It leads with the
//! correlation of the adjusted Gini, then the chosen measure of both series stacked
//! (SVG as `imr inequality --against … --format svg-against`, CSV as `--format csv-against`),
//! their observed correlation and the few-years warning.

use super::downloads::{chart_commands, chart_downloads, command_line, ChartFiles};
use super::options::InequalityOptions;
use super::outcome::Outcome;
use super::settings::{column_select, measure_select};
use crate::components::download::chart_caption;
use crate::i18n::{format_number, lang, Lang};
use crate::messages::{messages, msg};
use crate::state::{AppState, Shared};
use imr_core::column_words::short_label;
use imr_core::inequality::chart::two_series_of;
use imr_core::inequality::words::Quantity;
use imr_core::inequality::{correlate_reports_adjusted, InequalityReport, Measure};
use imr_core::model_columns::{measurements, value_weights};
use imr_core::panel::Panel;
use imr_core::request::{ExportChoices, InequalityExport, InequalityRequest, InequalityResult};
use leptos::prelude::*;

/// A correlation with its interval, or "not available".
fn fmt_r(lang: Lang, r: Option<f64>, ci: Option<[f64; 2]>) -> String {
    match (r, ci) {
        (Some(r), Some([lo, hi])) => format!(
            "{} ({} {} – {})",
            format_number(lang, r, 2),
            messages(lang).common.ci95,
            format_number(lang, lo, 2),
            format_number(lang, hi, 2)
        ),
        (Some(r), None) => format_number(lang, r, 2),
        _ => messages(lang).inequality.not_available.to_string(),
    }
}

/// The lead: the adjusted Gini's correlation with the second subject's Gini, the observed one,
/// and how it is computed with its command (`with_against`: the rates' request with `--against`).
fn adjusted_lead(
    lang: Lang,
    a: &InequalityReport,
    b: &InequalityReport,
    command: String,
) -> Option<AnyView> {
    let c = correlate_reports_adjusted(a, b)?;
    let sentence = imr_core::column_words::correlation_sentence(lang, &c);
    let observed = c.observed_sentence(lang);
    Some(
        view! {
            <p
                class="answer"
                data-testid="ineq-correlation-adjusted"
                data-r=c.r.to_string()
                data-ci-low=c.ci_low.to_string()
                data-ci-high=c.ci_high.to_string()
                data-n-years=c.n_years.to_string()
            >
                <strong>{sentence}</strong>
            </p>
            {observed.map(|o| view! { <p data-testid="ineq-correlation-observed">{o}</p> })}
            <details data-testid="ineq-correlation-method">
                <summary>{msg(|m| m.common.how_this_calculated)}</summary>
                <p>{msg(|m| m.inequality.second_correlation_method)}</p>
                <pre
                    tabindex="0"
                    data-testid="ineq-correlation-command"
                    aria-label=msg(|m| m.inequality.correlation_command_label)
                    style="white-space: pre-wrap; overflow-wrap: anywhere"
                >
                    <code>{command}</code>
                </pre>
            </details>
        }
        .into_any(),
    )
}

/// The two series of measure `m` (the rates' result and the second series'), their
/// correlation and downloads.
fn content(
    lang: Lang,
    m: Measure,
    (rates, second): (&InequalityResult, &InequalityResult),
    second_command: String,
    commands: impl Fn(&ChartFiles) -> [String; 2] + Send + Sync + 'static,
) -> AnyView {
    let state = expect_context::<AppState>();
    let (a, b) = (&rates.analysis.report, &second.analysis.report);
    let (_, _, correlation) = two_series_of(a, b, m, lang);
    let choices = ExportChoices {
        measure: m,
        ..Default::default()
    };
    let caption = chart_caption(&state, lang);
    let [svg, csv] = [
        InequalityExport::AgainstChart,
        InequalityExport::AgainstSeries,
    ]
    .map(|e| {
        e.write(rates, Some(second), &choices, &caption)
            .unwrap_or_default()
    });
    // The engine's quantities in words, a column by its codebook label (in «» in Spanish): a
    // newcomer read "«gasto_salud_pc» ponderada por nacidos vivos".
    let named = |q: &Quantity| match (q, lang) {
        (Quantity::Column(name), Lang::Es) => format!("«{}»", short_label(lang, name)),
        (Quantity::Column(name), Lang::En) => short_label(lang, name),
        _ => q.text(lang),
    };
    let (weight_name, value_name) = (named(&b.subject.weight_name), named(&b.subject.value_name));
    // the panel's births column (its role's name), not a column the user named
    let by_births = matches!(&b.subject.weight_name, Quantity::Births);
    let births_note = by_births.then(|| messages(lang).inequality.second_births_weight_note);
    let subject_note = (messages(lang).inequality.second_subject_note)(&value_name, &weight_name);
    let (pearson, spearman, n_years) = (
        fmt_r(lang, correlation.pearson, correlation.pearson_ci),
        fmt_r(lang, correlation.spearman, correlation.spearman_ci),
        correlation.n_years,
    );
    let correlation_text = (messages(lang).inequality.second_correlation)(
        m.label_in(lang),
        &pearson,
        &spearman,
        &n_years.to_string(),
    );
    let few_years = correlation.warning_in(lang);
    let svg_dl = svg.clone();
    view! {
        <p class="note">{subject_note}{births_note}</p>
        <div class="chart" data-testid="ineq-panel-chart" inner_html=svg></div>
        <p data-testid="ineq-correlation">{correlation_text}</p>
        <p class="warn" data-testid="ineq-few-years">
            {few_years}
        </p>
        {chart_downloads(
            "desigualdad_tmi_vs_segunda_serie",
            move || svg_dl.clone(),
            move || csv.clone(),
            commands,
        )}
        <p>{msg(|m| m.inequality.second_command_label)}</p>
        <pre
            tabindex="0"
            aria-label=msg(|m| m.inequality.second_command_aria)
            style="white-space: pre-wrap; overflow-wrap: anywhere"
        >
            <code>{second_command}</code>
        </pre>
    }
    .into_any()
}

#[component]
pub fn SecondPanel(
    options: InequalityOptions,
    panel: Memo<Option<Shared<Panel>>>,
    rates: Memo<Option<Shared<InequalityResult>>>,
    /// The rates' request with the second subject as `against`.
    with_against: Memo<Option<InequalityRequest>>,
    second: Memo<Option<Outcome>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    let InequalityOptions {
        of,
        weight,
        panel_measure,
        ..
    } = options;
    // measurements, not codes or years; weights never negative (imr_core::model_columns)
    let covariates = move || panel.get().map(|p| measurements(&p)).unwrap_or_default();
    let numeric = move || panel.get().map(|p| value_weights(&p)).unwrap_or_default();
    let measures = move || {
        rates
            .get()
            .map(|o| o.analysis.report.series_measures())
            .unwrap_or_default()
    };
    let commands = move |files: &ChartFiles| {
        let Some(request) = with_against.get().filter(|r| r.against.is_some()) else {
            return Default::default();
        };
        let choices = ExportChoices {
            measure: panel_measure.get(),
            ..Default::default()
        };
        chart_commands(
            &state,
            &request,
            files,
            [
                InequalityExport::AgainstChart,
                InequalityExport::AgainstSeries,
            ],
            &choices,
            language.get(),
        )
    };
    move || {
        let imr = rates.get()?;
        let controls = view! {
            <div class="roles">
                {column_select(
                    "ineq-of",
                    |m| m.inequality.second_subject_label,
                    of,
                    covariates,
                    Some(|m| m.common.no_column),
                )}
                {column_select("ineq-weight", |m| m.inequality.weight_label, weight, numeric, None)}
                {measure_select(
                    "ineq-panel-measure",
                    |m| m.inequality.measure_label,
                    panel_measure,
                    measures,
                )}
            </div>
        };
        let lang = language.get();
        let (lead, content) = match second.get() {
            None => (
                None,
                view! { <p class="note">{msg(|m| m.inequality.choose_second_subject)}</p> }
                    .into_any(),
            ),
            Some(Err(message)) => (
                None,
                view! {
                    <p class="error" role="alert">
                        {move || message.pick(language.get())}
                    </p>
                }
                .into_any(),
            ),
            Some(Ok(inc)) => {
                let request = with_against.get()?;
                let (a, b) = (&imr.analysis.report, &inc.analysis.report);
                let lead = adjusted_lead(
                    lang,
                    a,
                    b,
                    command_line(&state, &request, &["--format", "json"]),
                );
                let second_command = request
                    .second_series()
                    .map(|r| command_line(&state, &r, &["--format", "json"]))
                    .unwrap_or_default();
                (
                    lead,
                    content(
                        lang,
                        panel_measure.get(),
                        (&imr, &inc),
                        second_command,
                        commands,
                    ),
                )
            }
        };
        Some(view! {
            <section aria-labelledby="ineq-panel-h">
                <h3 id="ineq-panel-h">{msg(|m| m.inequality.second_heading)}</h3>
                {lead}
                {controls}
                {content}
            </section>
        })
    }
}
