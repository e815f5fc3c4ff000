//! The second panel: inequality of infant mortality against the inequality of a second subject
//! (municipal health income per capita by default) over the years. It leads with the
//! correlation of the adjusted Gini (issue 12), then the chosen measure of both series stacked
//! (SVG as `imr inequality --against … --format svg-against`, CSV as `--format csv-against`),
//! their observed correlation and the few-years warning.

use super::downloads::{chart_downloads, command_line, export_command};
use super::options::{write_measure, InequalityOptions};
use super::outcome::Outcome;
use super::settings::{column_select, measure_select};
use crate::components::download::chart_caption;
use crate::i18n::{format_number, lang, tr, Lang};
use crate::state::{AppState, Shared};
use imr_core::inequality::chart::{two_series_of, two_series_svg_in};
use imr_core::inequality::csv::two_series_report_csv;
use imr_core::inequality::{correlate_reports_adjusted, InequalityReport, Measure};
use imr_core::panel::Panel;
use imr_core::request::{InequalityRequest, InequalityResult};
use leptos::prelude::*;

/// A correlation with its interval, or "not available".
fn fmt_r(lang: Lang, r: Option<f64>, ci: Option<[f64; 2]>) -> String {
    match (r, ci) {
        (Some(r), Some([lo, hi])) => format!(
            "{} ({} {} – {})",
            format_number(lang, r, 2),
            lang.pick("IC 95%", "95% CI"),
            format_number(lang, lo, 2),
            format_number(lang, hi, 2)
        ),
        (Some(r), None) => format_number(lang, r, 2),
        _ => lang.pick("no disponible", "not available").to_string(),
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
    let sentence = c.sentence(lang);
    let observed = c.observed_sentence(lang);
    Some(view! {
        <p class="answer" data-testid="ineq-correlation-adjusted" data-r=c.r.to_string() data-ci-low=c.ci_low.to_string() data-ci-high=c.ci_high.to_string() data-n-years=c.n_years.to_string()><strong>{sentence}</strong></p>
        {observed.map(|o| view! { <p data-testid="ineq-correlation-observed">{o}</p> })}
        <details data-testid="ineq-correlation-method">
            <summary>{tr("Cómo se calcula", "How this is calculated")}</summary>
            <p>{tr(
                "r de Pearson entre el Gini ajustado de cada año (en θ̂) y el Gini de la segunda variable. Intervalo: 4.000 simulaciones; en cada una el Gini ajustado de cada año se extrae de una normal partida que reproduce su intervalo de verosimilitud perfil, se recalcula r y se suma el error de muestreo de una correlación de n años en la escala z de Fisher (atanh r + N(0, 1/(n − 3))); límites = percentiles 2,5% y 97,5% (propagación Monte Carlo, JCGM 101:2008; Fisher 1921). Semilla = la del bootstrap. Con años exactos sería el intervalo z de Fisher.",
                "Pearson r between each year's adjusted Gini (at θ̂) and the second subject's Gini. Interval: 4,000 simulations; in each, every year's adjusted Gini is drawn from a split normal that reproduces its profile-likelihood interval, r is recomputed and the sampling error of a correlation over n years is added on Fisher's z scale (atanh r + N(0, 1/(n − 3))); limits = the 2.5% and 97.5% percentiles (Monte Carlo propagation, JCGM 101:2008; Fisher 1921). Seed = the bootstrap seed. With exact years it would be the Fisher z interval.",
            )}</p>
            <pre tabindex="0" data-testid="ineq-correlation-command" aria-label=tr("Comando imr de la correlación ajustada", "imr command for the adjusted correlation") style="white-space: pre-wrap; overflow-wrap: anywhere"><code>{command}</code></pre>
        </details>
    }
    .into_any())
}

/// The two series of measure `m`, their correlation and downloads.
fn content(
    lang: Lang,
    m: Measure,
    a: &InequalityReport,
    b: &InequalityReport,
    second_command: String,
    commands: impl Fn() -> [String; 2] + Send + Sync + 'static,
) -> AnyView {
    let state = expect_context::<AppState>();
    let (top, bottom, correlation) = two_series_of(a, b, m, lang);
    let svg = two_series_svg_in(&top, &bottom, &correlation, &chart_caption(&state, lang));
    let csv = two_series_report_csv(a, b, m);
    let weight_name = &b.subject.weight_name;
    let value_name = &b.subject.value_name;
    let births_note = (weight_name == "births").then(|| lang.pick(
        " En los datos incluidos la columna de nacimientos es poblacion_0 (población de edad 0, INE): es la única columna de población del archivo, así que la ponderación es por población infantil, no por población total.",
        " In the bundled data the births column is poblacion_0 (the population aged 0, INE): it is the file's only population column, so the weight is the infant population, not the total population.",
    ));
    let subject_note = match lang {
        Lang::Es => format!("{value_name} ponderada por `{weight_name}`; intervalos por remuestreo de comunas dentro de cada año."),
        Lang::En => format!("{value_name} weighted by `{weight_name}`; intervals by resampling communes within each year."),
    };
    let (pearson, spearman, n_years) = (
        fmt_r(lang, correlation.pearson, correlation.pearson_ci),
        fmt_r(lang, correlation.spearman, correlation.spearman_ci),
        correlation.n_years,
    );
    let correlation_text = match lang {
        Lang::Es => format!("{} observado (incluye variación aleatoria): Pearson r = {pearson}; Spearman ρ = {spearman}; {n_years} años.", m.label_in(Lang::Es)),
        Lang::En => format!("Observed {} (includes random variation): Pearson r = {pearson}; Spearman ρ = {spearman}; {n_years} years.", m.label()),
    };
    let few_years = match lang {
        Lang::Es => "Con tan pocos años, una correlación —incluso alta— tiene muy poca potencia y puede deberse al azar o a una tendencia común; no es evidencia de causalidad.".to_string(),
        Lang::En => correlation.warning.clone(),
    };
    let svg_dl = svg.clone();
    view! {
        <p class="note">{subject_note}{births_note}</p>
        <div class="chart" data-testid="ineq-panel-chart" inner_html=svg></div>
        <p data-testid="ineq-correlation">{correlation_text}</p>
        <p class="warn" data-testid="ineq-few-years">{few_years}</p>
        {chart_downloads("desigualdad_tmi_vs_ingreso_salud", move || svg_dl.clone(), move || csv.clone(), commands)}
        <p>{tr("Segunda serie en la línea de comandos:", "Second series with the command line:")}</p>
        <pre tabindex="0" aria-label=tr("Comando imr de la segunda serie", "imr command for the second series") style="white-space: pre-wrap; overflow-wrap: anywhere"><code>{second_command}</code></pre>
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
    let covariates = move || {
        panel
            .get()
            .map(|p| p.numeric_names.clone())
            .unwrap_or_default()
    };
    let numeric = move || {
        panel
            .get()
            .map(|p| p.numeric_variables())
            .unwrap_or_default()
    };
    let measures = move || {
        rates
            .get()
            .map(|o| o.analysis.report.series_measures())
            .unwrap_or_default()
    };
    let commands = move || {
        let Some(request) = with_against.get().filter(|r| r.against.is_some()) else {
            return Default::default();
        };
        let key = write_measure(&panel_measure.get());
        let tag = language.get().tag();
        let file = "desigualdad_tmi_vs_ingreso_salud";
        [
            export_command(
                &state,
                &request,
                &["--format", "svg-against", "--measure", &key, "--lang", tag],
                &format!("{file}.svg"),
            ),
            export_command(
                &state,
                &request,
                &["--format", "csv-against", "--measure", &key],
                &format!("{file}.csv"),
            ),
        ]
    };
    move || {
        let imr = rates.get()?;
        let controls = view! {
            <div class="roles">
                {column_select("ineq-of", ("Segunda variable: ", "Second subject: "), of, covariates, Some(("(ninguna)", "(none)")))}
                {column_select("ineq-weight", ("Ponderada por: ", "Weighted by: "), weight, numeric, None)}
                {measure_select("ineq-panel-measure", ("Medida: ", "Measure: "), panel_measure, measures)}
            </div>
        };
        let lang = language.get();
        let (lead, content) = match second.get() {
            None => (None, view! { <p class="note">{tr("Elija una segunda variable.", "Choose a second subject.")}</p> }.into_any()),
            Some(Err(message)) => (None, view! { <p class="error" role="alert">{move || message.pick(language.get())}</p> }.into_any()),
            Some(Ok(inc)) => {
                let request = with_against.get()?;
                let (a, b) = (&imr.analysis.report, &inc.analysis.report);
                let lead = adjusted_lead(lang, a, b, command_line(&state, &request, &["--format", "json"]));
                let second_command = request
                    .second_series()
                    .map(|r| command_line(&state, &r, &["--format", "json"]))
                    .unwrap_or_default();
                (lead, content(lang, panel_measure.get(), a, b, second_command, commands))
            }
        };
        Some(view! {
            <section aria-labelledby="ineq-panel-h">
                <h3 id="ineq-panel-h">{tr("Desigualdad de la mortalidad infantil y del ingreso municipal de salud per cápita", "Inequality of infant mortality and of municipal health income per capita")}</h3>
                {lead}
                {controls}
                {content}
            </section>
        })
    }
}
