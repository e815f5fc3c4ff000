//! The Inequality view: how unequal communes' infant mortality rates are in each year, how that
//! changes over the years, and whether it moves with the inequality of a second column (municipal
//! health income per capita).
//!
//! The controls make an [`InequalityRequest`], the value `imr inequality` parses its arguments
//! into; the view runs it (`request.run`, the one pipeline of both), so the page and the command
//! line measure the same areas, and shows the command that reproduces it (`request.to_args`). Results are
//! kept in a small cache keyed by the panel and the settings, so leaving the tab and coming back
//! does not run the bootstrap again.

use crate::components::download::{
    chart_caption, csv_with_provenance, download_csv, download_text,
};
use crate::i18n::{format_number, lang, tr, Lang};
use crate::state::{AppState, Shared, BUNDLED_NAME};
use imr_core::escape::{shell_join, CsvOptions, CsvWriter};
use imr_core::inequality::chart::{
    box_plot_svg_flagged, lorenz_svg_in, measure_axis_label_in, measure_over_years_svg_in,
    two_series_svg_in, SeriesSpec,
};
use imr_core::inequality::csv::{
    box_plot_csv, box_plot_outliers_csv, lorenz_csv, trend_csv, years_csv,
};
use imr_core::inequality::{
    correlate_reports, correlate_reports_adjusted, InequalityReport, Measure, SeriesPoint,
    SubjectKind, YearResult, DEFAULT_SEED,
};
use imr_core::ingest::Role;
use imr_core::panel::Panel;
use imr_core::request::{
    self, InequalityRequest, InequalityResult, InequalitySubject, InputSpec, RequestError,
    SecondSeries,
};
use leptos::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// Bootstrap replicates on the page: fewer than the command line's default (1,000) so that the
/// view answers in about a second in the browser; the command shown reproduces the same numbers.
pub const PAGE_REPLICATES: usize = 200;

/// A message in both interface languages (engine errors are in English and shown as they are).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Message {
    es: String,
    en: String,
}

impl Message {
    fn new(es: String, en: String) -> Message {
        Message { es, en }
    }

    /// A message with one text for both languages (the engine's own errors).
    fn same(text: String) -> Message {
        Message {
            es: text.clone(),
            en: text,
        }
    }

    fn pick(&self, lang: Lang) -> String {
        lang.pick(&self.es, &self.en).to_string()
    }
}

/// A request error in the words of this view.
fn message(err: RequestError) -> Message {
    match err {
        RequestError::NoNumericColumn {
            name, available, ..
        } => {
            let available = available.join(", ");
            Message::new(
                format!("no hay columna numérica `{name}` ({available})"),
                format!("no numeric column `{name}` ({available})"),
            )
        }
        RequestError::NoColumn { name, .. } => Message::new(
            format!("no hay columna `{name}`"),
            format!("no column `{name}`"),
        ),
        RequestError::NoRates => Message::new(
            "Los datos no tienen nacimientos y defunciones (o tasa): elíjalos en la vista Datos."
                .into(),
            "The data have no births and deaths (or rate) columns: choose them in the Data view."
                .into(),
        ),
        other => Message::same(other.to_string()),
    }
}

type Outcome = Result<Shared<InequalityResult>, Message>;

thread_local! {
    /// The last analyses, by panel (identity) and settings: tab switches and going back to a
    /// previous setting are instant.
    static CACHE: RefCell<Vec<(Arc<Panel>, InequalityRequest, Outcome)>> = const { RefCell::new(Vec::new()) };
    /// The settings the user chose, kept while the page is open.
    static CHOSEN: RefCell<Option<Chosen>> = const { RefCell::new(None) };
}

const CACHE_ENTRIES: usize = 8;

fn cached_analysis(panel: &Shared<Panel>, key: &InequalityRequest) -> Outcome {
    let hit = CACHE.with(|c| {
        c.borrow()
            .iter()
            .find(|(p, k, _)| Arc::ptr_eq(p, &panel.0) && k == key)
            .map(|(_, _, o)| o.clone())
    });
    if let Some(outcome) = hit {
        return outcome;
    }
    let outcome = key.run(panel).map(|c| Shared(Arc::new(c))).map_err(message);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(p, _, _)| Arc::ptr_eq(p, &panel.0));
        if c.len() >= CACHE_ENTRIES {
            c.drain(..1);
        }
        c.push((panel.0.clone(), key.clone(), outcome.clone()));
    });
    outcome
}

/// The user's choices, restored when the tab is shown again.
#[derive(Debug, Clone, PartialEq)]
struct Chosen {
    group: Option<String>,
    rank: Option<String>,
    replicates: usize,
    seed: u64,
    of: Option<String>,
    weight: Option<String>,
    measure: Measure,
    panel_measure: Measure,
    lorenz_years: Option<Vec<i64>>,
}

/// Defaults for the bundled Chilean data: group by region, rank by poverty, health income per
/// capita weighted by births (the bundled births column is the population aged 0).
fn default_choices(panel: Option<&Panel>) -> Chosen {
    let has_text = |n: &str| panel.is_some_and(|p| p.text_names.iter().any(|t| t == n));
    let has_num = |n: &str| panel.is_some_and(|p| p.numeric_names.iter().any(|t| t == n));
    Chosen {
        group: has_text("region").then(|| "region".to_string()),
        rank: has_num("pobreza").then(|| "pobreza".to_string()),
        replicates: PAGE_REPLICATES,
        seed: DEFAULT_SEED,
        of: has_num("ingreso_salud_pc").then(|| "ingreso_salud_pc".to_string()),
        weight: panel
            .is_some_and(|p| p.has_births)
            .then(|| "births".to_string()),
        measure: Measure::Gini,
        panel_measure: Measure::Gini,
        lorenz_years: None,
    }
}

/// Label of a measure in the interface language.
fn measure_label(lang: Lang, m: Measure) -> &'static str {
    m.label_in(lang)
}

/// The unit of the rates in the interface language (the engine names it in English).
fn unit_text(lang: Lang, unit: &str) -> String {
    imr_core::inequality::words::term(lang, unit)
}

/// Decimals to show: counts none, values in the rate's unit 2, percentages 1, ratios 4.
fn decimals(m: Measure, value_unit: &str) -> usize {
    let unit = m.unit(value_unit);
    if m.is_count() {
        0
    } else if unit == "%" {
        1
    } else if unit == value_unit {
        2
    } else {
        4
    }
}

/// A number for reading in the interface language (decimal comma in Spanish); never "-0".
fn fmt_value(lang: Lang, x: f64, d: usize) -> String {
    format_number(lang, x, d)
}

/// The `imr inequality` command that reproduces a request: the files, the column roles chosen
/// in the Data view (for each role, the column of the first file that has one: one flag names
/// one column everywhere) and the request's own arguments, quoted by the one shell rule
/// ([`imr_core::escape::shell_join`]).
fn command_line(state: &AppState, request: &InequalityRequest) -> String {
    let bundled = state.bundled.get_untracked();
    let mut input = InputSpec::default();
    state.files.with_untracked(|files| {
        state.roles.with_untracked(|roles| {
            let tables: Vec<_> = files.iter().filter_map(|f| f.table.as_ref().ok()).collect();
            for f in files.iter().filter(|f| f.table.is_ok()) {
                input.files.push(if bundled && f.name == BUNDLED_NAME {
                    format!("public/data/{BUNDLED_NAME}")
                } else {
                    f.name.clone()
                });
            }
            for role in Role::ALL {
                let column = tables
                    .iter()
                    .zip(roles)
                    .find_map(|(t, r)| t.columns.get(r.get(role)?).cloned());
                if let Some(c) = column {
                    input.roles.push((role, c));
                }
            }
        })
    });
    let mut args = request.to_args();
    args.extend(["--format".to_string(), "json".to_string()]);
    shell_join(request::command_line(
        InequalityRequest::SUBCOMMAND,
        &input,
        args,
    ))
}

/// The interval of a point as two cells, empty without an interval.
fn ci_cells(p: &SeriesPoint) -> [String; 2] {
    p.ci.map(|[a, b]| [a.to_string(), b.to_string()])
        .unwrap_or_default()
}

/// A yearly series as CSV: `time,<key>,<key>_ci_low,<key>_ci_high`.
fn series_csv(points: &[SeriesPoint], key: &str) -> String {
    let mut csv = CsvWriter::new(CsvOptions::default());
    csv.record([
        "time".to_string(),
        key.to_string(),
        format!("{key}_ci_low"),
        format!("{key}_ci_high"),
    ]);
    for p in points {
        let [lo, hi] = ci_cells(p);
        csv.record([p.time.to_string(), p.value.to_string(), lo, hi]);
    }
    csv.into_string()
}

/// Two yearly series side by side as CSV, joined on the year.
fn two_series_csv(a: &[SeriesPoint], a_key: &str, b: &[SeriesPoint], b_key: &str) -> String {
    let mut times: Vec<i64> = a.iter().chain(b).map(|p| p.time).collect();
    times.sort_unstable();
    times.dedup();
    let mut csv = CsvWriter::new(CsvOptions::default());
    let mut header = vec!["time".to_string()];
    for key in [a_key, b_key] {
        header.extend([
            key.to_string(),
            format!("{key}_ci_low"),
            format!("{key}_ci_high"),
        ]);
    }
    csv.record(header);
    let cells = |pts: &[SeriesPoint], t: i64| -> [String; 3] {
        match pts.iter().find(|p| p.time == t) {
            Some(p) => {
                let [lo, hi] = ci_cells(p);
                [p.value.to_string(), lo, hi]
            }
            None => Default::default(),
        }
    };
    for t in times {
        let mut row = vec![t.to_string()];
        row.extend(cells(a, t));
        row.extend(cells(b, t));
        csv.record(row);
    }
    csv.into_string()
}

/// Measures with a value in at least one year of the report.
fn measures_present(report: &InequalityReport) -> Vec<Measure> {
    Measure::ALL
        .into_iter()
        .filter(|m| report.years.iter().any(|y| y.measures.applies(*m)))
        .collect()
}

/// Whether a flagged measure is inequality inflated by small-area noise (a dispersion measure
/// whose replicates lie above it), as the engine's "Inflated inequality" note says.
fn inflated(y: &YearResult, m: Measure) -> bool {
    m.is_dispersion() && y.bias(m).is_some_and(|b| b > 0.0)
}

/// Why a cell is flagged, in the interface language, with its numbers: the tooltip and
/// accessible name of the ⚠ mark.
fn bias_explanation(lang: Lang, y: &YearResult, m: Measure, d: usize) -> String {
    let f = |x: f64| fmt_value(lang, x, d);
    let observed = y.measures.get(m).map(f).unwrap_or_default();
    let corrected = y.bias_corrected(m).map(f).unwrap_or_default();
    let bias = y.bias(m).unwrap_or(0.0);
    let bias_text = format!("{}{}", if bias > 0.0 { "+" } else { "" }, f(bias));
    let relative = y
        .measures
        .get(m)
        .filter(|v| *v != 0.0)
        .map(|v| format!(" ({}%)", fmt_value(lang, 100.0 * bias / v.abs(), 0)))
        .unwrap_or_default();
    let percentile = y
        .percentile_interval(m)
        .map(|[a, b]| format!("{} – {}", f(a), f(b)))
        .unwrap_or_default();
    match (lang, inflated(y, m)) {
        (Lang::Es, true) => format!("Desigualdad inflada por el ruido de Poisson en comunas pequeñas: las réplicas bootstrap quedan en promedio {bias_text}{relative} por encima del valor observado {observed} (intervalo de percentiles {percentile}). Valor corregido por sesgo: {corrected}; el intervalo 95% mostrado está centrado en él."),
        (Lang::Es, false) => format!("Réplicas desplazadas: la media de las réplicas bootstrap se aparta {bias_text}{relative} del valor observado {observed} (intervalo de percentiles {percentile}). Valor corregido por sesgo: {corrected}; el intervalo 95% mostrado está centrado en él."),
        (Lang::En, true) => format!("Inequality inflated by Poisson noise in small communes: the bootstrap replicates average {bias_text}{relative} above the observed value {observed} (percentile interval {percentile}). Bias-corrected value: {corrected}; the 95% interval shown is centred on it."),
        (Lang::En, false) => format!("Shifted replicates: the mean of the bootstrap replicates is {bias_text}{relative} away from the observed value {observed} (percentile interval {percentile}). Bias-corrected value: {corrected}; the 95% interval shown is centred on it."),
    }
}

/// "Download SVG" and "Download CSV" buttons of one chart.
fn downloads(
    stem: &'static str,
    svg: impl Fn() -> String + Send + Sync + 'static,
    csv: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="downloads">
            <button class="secondary" data-testid=format!("{stem}-svg-download")
                on:click=move |_| download_text(&format!("{stem}.svg"), "image/svg+xml", &svg())>{tr("Descargar SVG", "Download SVG")}</button>
            <button class="secondary" data-testid=format!("{stem}-csv-download")
                on:click=move |_| download_text(&format!("{stem}.csv"), "text/csv", &csv_with_provenance(&state, &csv()))>{tr("Descargar CSV", "Download CSV")}</button>
        </div>
    }
}

#[component]
pub fn InequalityPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let language = lang();
    let initial = CHOSEN.with(|c| c.borrow().clone()).unwrap_or_else(|| {
        let panel = state.panel.get_untracked().and_then(|p| p.ok());
        default_choices(panel.as_deref())
    });
    let group = RwSignal::new(initial.group.clone());
    let rank = RwSignal::new(initial.rank.clone());
    let replicates = RwSignal::new(initial.replicates);
    let seed = RwSignal::new(initial.seed);
    let of = RwSignal::new(initial.of.clone());
    let weight = RwSignal::new(initial.weight.clone());
    let measure = RwSignal::new(initial.measure);
    let panel_measure = RwSignal::new(initial.panel_measure);
    let lorenz_years = RwSignal::new(initial.lorenz_years.clone());
    Effect::new(move |_| {
        let chosen = Chosen {
            group: group.get(),
            rank: rank.get(),
            replicates: replicates.get(),
            seed: seed.get(),
            of: of.get(),
            weight: weight.get(),
            measure: measure.get(),
            panel_measure: panel_measure.get(),
            lorenz_years: lorenz_years.get(),
        };
        CHOSEN.with(|c| *c.borrow_mut() = Some(chosen));
    });

    let panel = Memo::new(move |_| state.panel.get().and_then(|p| p.ok()));
    // The view's requests: the rates with the chosen group and rank, and the second subject
    // (a value column with its weight) compared with them.
    let imr_key = Memo::new(move |_| InequalityRequest {
        subject: InequalitySubject::Rates,
        group: group.get(),
        rank: rank.get(),
        bootstrap: replicates.get(),
        seed: seed.get(),
        against: None,
    });
    let income_key = Memo::new(move |_| {
        Some(InequalityRequest {
            subject: InequalitySubject::Values {
                of: of.get()?,
                weight: weight.get()?,
            },
            group: None,
            rank: None,
            bootstrap: replicates.get(),
            seed: seed.get(),
            against: None,
        })
    });
    let imr: Memo<Option<Outcome>> = Memo::new(move |_| {
        let panel = panel.get()?;
        Some(cached_analysis(&panel, &imr_key.get()))
    });
    let income: Memo<Option<Outcome>> = Memo::new(move |_| {
        let panel = panel.get()?;
        Some(cached_analysis(&panel, &income_key.get()?))
    });
    let imr_ok = Memo::new(move |_| imr.get().and_then(|r| r.ok()));

    let text_columns = move || {
        panel
            .get()
            .map(|p| p.text_names.clone())
            .unwrap_or_default()
    };
    let numeric_columns = move || {
        panel
            .get()
            .map(|p| p.numeric_variables())
            .unwrap_or_default()
    };
    let covariates = move || {
        panel
            .get()
            .map(|p| p.numeric_names.clone())
            .unwrap_or_default()
    };
    let select = move |id: &'static str,
                       label: (&'static str, &'static str),
                       signal: RwSignal<Option<String>>,
                       options: Box<dyn Fn() -> Vec<String> + Send + Sync>,
                       none: Option<(&'static str, &'static str)>| {
        view! {
            <span class="field">
                <label for=id>{tr(label.0, label.1)}</label>
                <select id=id data-testid=id on:change=move |ev| {
                    let v = event_target_value(&ev);
                    signal.set((!v.is_empty()).then_some(v));
                }>
                    {none.map(|(es, en)| view! { <option value="" selected=move || signal.get().is_none()>{tr(es, en)}</option> })}
                    {move || options().into_iter().map(|c| {
                        let value = c.clone();
                        let selected = move || signal.get().as_deref() == Some(value.as_str());
                        view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
                    }).collect_view()}
                </select>
            </span>
        }
    };

    // Issue 12: the answer comes first, above the settings.
    let answer_first = move || {
        let lang = language.get();
        let computed = imr_ok.get()?;
        let sentence =
            imr_core::inequality::adjusted::answer(&computed.analysis.report)?.render(lang);
        Some(view! { <p class="answer" data-testid="ineq-answer"><strong>{sentence}</strong></p> })
    };

    let settings = view! {
        <section aria-labelledby="ineq-settings-h">
            <h2 id="ineq-settings-h">{tr("Desigualdad de la mortalidad infantil entre comunas", "Inequality of infant mortality across communes")}</h2>
            {answer_first}
            <div class="roles">
                {select("ineq-group", ("Grupos (descomposición de Theil): ", "Groups (Theil decomposition): "), group, Box::new(text_columns), Some(("(ninguno)", "(none)")))}
                {select("ineq-rank", ("Orden socioeconómico (índice de concentración): ", "Socioeconomic rank (concentration index): "), rank, Box::new(covariates), Some(("(ninguno)", "(none)")))}
                <span class="field">
                    <label for="ineq-replicates">{tr("Réplicas bootstrap: ", "Bootstrap replicates: ")}</label>
                    <input id="ineq-replicates" data-testid="ineq-replicates" type="number" min="0" max="5000" step="50"
                        prop:value=move || replicates.get().to_string()
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<usize>() {
                                replicates.set(n.min(5000));
                            }
                        }/>
                </span>
                <span class="field">
                    <label for="ineq-seed">{tr("Semilla: ", "Seed: ")}</label>
                    <input id="ineq-seed" data-testid="ineq-seed" type="number" min="0"
                        prop:value=move || seed.get().to_string()
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).trim().parse::<u64>() {
                                seed.set(n);
                            }
                        }/>
                </span>
            </div>
            <p class="note" data-testid="ineq-bootstrap-note">{move || {
                let lang = language.get();
                let count = |n: usize| format_number(lang, n as f64, 0);
                let (n, s, default, page) = (count(replicates.get()), seed.get(), count(1000), count(PAGE_REPLICATES));
                match lang {
                    Lang::Es => format!("Intervalos de confianza 95%: intervalo bootstrap básico [2·estimación − percentil superior, 2·estimación − percentil inferior] de {n} réplicas bootstrap paramétricas (defunciones redibujadas de Poisson), semilla {s}. Corrige el sesgo de las réplicas: está centrado en el valor corregido por sesgo = estimación − sesgo, con sesgo = media de las réplicas − estimación, y por eso puede no contener el valor observado. Valores corregidos e intervalos se recortan al rango de cada medida (un Gini queda en [0, 1]); la corrección es de primer orden. El intervalo de percentiles simple está en el CSV (ci_percentile). La línea de comandos usa {default} réplicas por omisión; esta página usa {page} para responder rápido."),
                    Lang::En => format!("95% confidence intervals: basic bootstrap interval [2·estimate − upper percentile, 2·estimate − lower percentile] of {n} parametric bootstrap replicates (deaths redrawn from a Poisson distribution), seed {s}. It corrects for the replicates' bias: it is centred on the bias-corrected value = estimate − bias, where bias = mean of the replicates − estimate, so it may not contain the observed value. Bias-corrected values and intervals are clipped to each measure's range (a Gini stays in [0, 1]); the correction is first-order. The plain percentile interval is in the CSV (ci_percentile). The command line uses {default} replicates by default; this page uses {page} to answer quickly."),
                }
            }}</p>
            {move || panel.get().filter(|p| p.deaths_derived).map(|_| view! {
                <p class="warn" data-testid="ineq-approximate">{tr("Las defunciones se derivaron de la tasa publicada: no son conteos y los intervalos bootstrap son aproximados.", "Deaths were derived from the published rate: they are not counts, and the bootstrap intervals are approximate.")}</p>
            })}
            <p>{tr("Reproducir en la línea de comandos:", "Reproduce with the command line:")}</p>
            <pre data-testid="ineq-command" tabindex="0" aria-label=tr("Comando imr que reproduce el análisis", "imr command that reproduces the analysis") style="white-space: pre-wrap; overflow-wrap: anywhere"><code>{move || command_line(&state, &imr_key.get())}</code></pre>
        </section>
    };

    let body = move || {
        let outcome = match imr.get() {
            None => return view! { <p class="note">{tr("Cargue datos en la vista Datos.", "Load data in the Data view.")}</p> }.into_any(),
            Some(Err(message)) => return view! { <p class="error" role="alert" data-testid="ineq-error">{move || message.pick(language.get())}</p> }.into_any(),
            Some(Ok(c)) => c,
        };
        let report = &outcome.analysis.report;
        let lang = language.get();
        let unit = report.subject.unit.clone();
        let present = measures_present(report);
        let kind = report.subject.kind;
        let header = present
            .iter()
            .map(|m| view! { <th data-measure=m.key(kind)>{measure_label(lang, *m)}</th> })
            .collect_view();
        let rows = report
            .years
            .iter()
            .map(|y| {
                let cells = present
                    .iter()
                    .map(|m| {
                        let d = decimals(*m, &unit);
                        let value = y.measures.get(*m);
                        let ci = y.interval(*m);
                        let reason = y
                            .measures
                            .reason(*m)
                            .map(|r| r.text(lang));
                        let text = value.map(|v| fmt_value(lang, v, d)).unwrap_or_else(|| "—".into());
                        let ci_text = ci.map(|[a, b]| format!("{} – {}", fmt_value(lang, a, d), fmt_value(lang, b, d)));
                        // A count's bias-corrected value is not a whole number.
                        let bc_decimals = if m.is_count() { 1 } else { d };
                        let corrected = y.bias_corrected(*m).map(|bc| {
                            let label = lang.pick("corregido por sesgo", "bias-corrected");
                            view! {
                                <br/><small class="bias-corrected" data-value=bc.to_string()>{format!("{label}: {}", fmt_value(lang, bc, bc_decimals))}</small>
                            }
                        });
                        let flag = y.is_noticeably_biased(*m).then(|| {
                            let explanation = bias_explanation(lang, y, *m, d);
                            view! {
                                " "<span class="bias-flag warn" data-testid="ineq-bias-flag" role="img" aria-label=explanation.clone() title=explanation>"⚠"</span>
                            }
                        });
                        view! {
                            <td data-measure=m.key(kind) data-value=value.map(|v| v.to_string()) data-biased=y.is_noticeably_biased(*m).then_some("true") title=reason style="white-space: nowrap">
                                <span class="value">{text}</span>{flag}
                                {corrected}
                                {ci_text.map(|t| view! { <br/><small class="ci">{t}</small> })}
                            </td>
                        }
                    })
                    .collect_view();
                view! { <tr data-time=y.time().to_string()><th scope="row">{y.time()}</th>{cells}</tr> }
            })
            .collect_view();
        let trend_rows = report
            .trend
            .iter()
            .map(|(m, t)| {
                let d = decimals(*m, &unit) + 1;
                let ci = match (t.ci_low, t.ci_high) {
                    (Some(a), Some(b)) => format!("{} – {}", fmt_value(lang, a, d), fmt_value(lang, b, d)),
                    _ => "—".into(),
                };
                view! {
                    <tr data-measure=m.key(kind)>
                        <td class="text">{measure_label(lang, *m)}</td>
                        <td data-field="slope">{fmt_value(lang, t.slope, d)}</td>
                        <td data-field="slope_ci">{ci}</td>
                        <td data-field="change">{format!("{} → {}: {}", t.first_time, t.last_time, fmt_value(lang, t.change, d))}</td>
                    </tr>
                }
            })
            .collect_view();
        let n_left_out = outcome.left_out.len();
        let notes = report
            .notes
            .iter()
            .map(|n| view! { <li data-testid="ineq-note">{n.render(lang)}</li> })
            .collect_view();
        let left_out = (n_left_out > 0).then(|| {
            let line = lang.pick("línea", "line");
            let items = outcome.left_out.iter().map(|r| view! { <li>{format!("{}, {line} {}: {} {} — {}", r.file, r.line, r.entity, r.time, r.reason)}</li> }).collect_view();
            let summary = match lang {
                Lang::Es => format!("{n_left_out} filas no medidas"),
                Lang::En => format!("{n_left_out} rows not measured"),
            };
            view! { <details><summary>{summary}</summary><ol class="excluded" tabindex="0" aria-label=tr("Filas no medidas", "Rows not measured")>{items}</ol></details> }
        });
        let any_biased = report
            .years
            .iter()
            .any(|y| present.iter().any(|m| y.is_noticeably_biased(*m)));
        let any_inflated = report.years.iter().any(|y| {
            present
                .iter()
                .any(|m| y.is_noticeably_biased(*m) && inflated(y, *m))
        });
        let bias_warning = any_biased.then(|| {
            let inflation = if any_inflated {
                lang.pick(
                    "Desigualdad inflada: en comunas con pocos nacimientos, la variación aleatoria (Poisson) de las defunciones hace que las tasas observadas estén más dispersas que las tasas subyacentes, así que la desigualdad observada (Gini, Theil, coeficiente de variación…) sobrestima la real. ",
                    "Inflated inequality: in communes with few births, random (Poisson) variation in deaths makes the observed rates more spread out than the underlying rates, so observed inequality (Gini, Theil, coefficient of variation…) overstates real inequality. ",
                )
            } else {
                ""
            };
            let rest = lang.pick(
                "Las celdas marcadas con ⚠ tienen un sesgo bootstrap mayor al 10% del valor, o un intervalo de percentiles que no contiene el valor observado: lea el valor corregido por sesgo y su intervalo, no el valor observado. La corrección es aproximada (de primer orden) y tiende a quedarse corta cuando muchas comunas tienen 0 defunciones.",
                "Cells marked ⚠ have a bootstrap bias above 10% of the value, or a percentile interval that does not contain the observed value: read the bias-corrected value and its interval rather than the observed value. The correction is approximate (first-order) and tends to be too small when many communes have 0 deaths.",
            );
            view! { <p class="warn" data-testid="ineq-bias-warning">{format!("⚠ {inflation}{rest}")}</p> }
        });
        let unit = unit_text(lang, &unit);
        let table_heading = match lang {
            Lang::Es => format!("Medidas observadas por año (incluyen variación aleatoria; tasas {unit}; valor observado, debajo el valor corregido por sesgo y su intervalo 95%)"),
            Lang::En => format!("Observed measures by year (includes random variation; rates {unit}; observed value, below it the bias-corrected value and its 95% interval)"),
        };
        let table_csv = {
            let o = outcome.clone();
            move || years_csv(&o.analysis.report)
        };
        let trend_data = {
            let o = outcome.clone();
            move || trend_csv(&o.analysis.report)
        };
        let adjusted = adjusted_section(lang, report, chart_caption(&state, lang));
        view! {
            {adjusted}
            <section aria-labelledby="ineq-table-h">
                <h3 id="ineq-table-h">{table_heading}</h3>
                {bias_warning}
                <div class="scroll" tabindex="0" role="region" aria-label=tr("Tabla de medidas por año (desplazable)", "Table of measures by year (scrollable)")>
                    <table data-testid="inequality-table">
                        <thead><tr><th>{tr("Año", "Year")}</th>{header}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <button class="secondary" data-testid="inequality-table-csv-download"
                    on:click=move |_| download_csv(&state, "desigualdad_por_anio.csv", &table_csv())>{tr("Descargar CSV", "Download CSV")}</button>
                {left_out}
                <details><summary>{tr("Notas del cálculo", "Calculation notes")}</summary><ul>{notes}</ul></details>
            </section>
            <section aria-labelledby="ineq-trend-h">
                <h3 id="ineq-trend-h">{tr("Tendencia lineal por medida (pendiente por año, IC 95%) y cambio del primer al último año", "Linear trend per measure (slope per year, 95% CI) and change from the first to the last year")}</h3>
                <p class="note">{tr("MCO sobre los valores anuales, t de Student con n − 2 g.l.; con pocos años el intervalo es ancho.", "OLS over the yearly values, Student's t with n − 2 df; with few years the interval is wide.")}</p>
                <div class="scroll" tabindex="0" role="region" aria-label=tr("Tabla de tendencias por medida (desplazable)", "Table of trends per measure (scrollable)")>
                    <table data-testid="inequality-trend">
                        <thead><tr><th class="text">{tr("Medida", "Measure")}</th><th>{tr("Pendiente por año", "Slope per year")}</th><th>{tr("IC 95%", "95% CI")}</th><th>{tr("Cambio", "Change")}</th></tr></thead>
                        <tbody>{trend_rows}</tbody>
                    </table>
                </div>
                <button class="secondary" data-testid="inequality-trend-csv-download" on:click=move |_| download_csv(&state, "desigualdad_tendencia.csv", &trend_data())>{tr("Descargar CSV", "Download CSV")}</button>
            </section>
        }
        .into_any()
    };

    let series_measures = move || {
        imr_ok
            .get()
            .map(|o| {
                let r = &o.analysis.report;
                measures_present(r)
                    .into_iter()
                    .filter(|m| !r.series(*m).is_empty())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    let measure_select = move |id: &'static str,
                               label: (&'static str, &'static str),
                               signal: RwSignal<Measure>| {
        view! {
            <label for=id>{tr(label.0, label.1)}</label>
            <select id=id data-testid=id on:change=move |ev| {
                if let Some(m) = Measure::from_key(&event_target_value(&ev)) {
                    signal.set(m);
                }
            }>
                {move || series_measures().into_iter().map(|m| {
                    let key = m.key(SubjectKind::Rate);
                    view! { <option value=key selected=move || signal.get() == m>{move || measure_label(language.get(), m)}</option> }
                }).collect_view()}
            </select>
        }
    };

    let line_svg = Memo::new(move |_| {
        imr_ok.get().map(|o| {
            let caption = chart_caption(&state, language.get());
            measure_over_years_svg_in(&o.analysis.report, measure.get(), &caption)
        })
    });
    let line_chart = move || {
        imr_ok.get().map(|o| {
            let csv = move || {
                let m = measure.get_untracked();
                series_csv(&o.analysis.report.series(m), m.key(o.analysis.report.subject.kind))
            };
            view! {
                <section aria-labelledby="ineq-line-h">
                    <h3 id="ineq-line-h">{tr("Evolución de una medida con su banda de confianza", "A measure over the years with its confidence band")}</h3>
                    {measure_select("ineq-measure", ("Medida: ", "Measure: "), measure)}
                    <div class="chart" data-testid="ineq-line-chart" inner_html=move || line_svg.get().unwrap_or_default()></div>
                    {downloads("desigualdad_medida_por_anio", move || line_svg.get_untracked().unwrap_or_default(), csv)}
                </section>
            }
        })
    };

    let years = move || {
        imr_ok
            .get()
            .map(|o| {
                o.analysis
                    .report
                    .years
                    .iter()
                    .map(|y| y.time())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    // Lorenz years: the user's choice, or the first and last year.
    let chosen_years = Memo::new(move |_| {
        lorenz_years.get().unwrap_or_else(|| {
            let ys = years();
            match (ys.first(), ys.last()) {
                (Some(a), Some(b)) if a != b => vec![*a, *b],
                (Some(a), _) => vec![*a],
                _ => Vec::new(),
            }
        })
    });
    let lorenz = Memo::new(move |_| {
        imr_ok.get().map(|o| {
            let ys = chosen_years.get();
            let curves: Vec<_> = o
                .analysis
                .lorenz
                .iter()
                .filter(|c| ys.contains(&c.time))
                .cloned()
                .collect();
            (
                lorenz_svg_in(
                    &o.analysis.lorenz,
                    &ys,
                    &o.analysis.report.subject,
                    &chart_caption(&state, language.get()),
                ),
                lorenz_csv(&curves),
            )
        })
    });
    let lorenz_chart = move || {
        imr_ok.get().map(|_| {
            let boxes = move || {
                years()
                    .into_iter()
                    .map(|t| {
                        let id = format!("ineq-lorenz-{t}");
                        view! {
                            <span class="field">
                                <input type="checkbox" id=id.clone() data-testid=id.clone()
                                    prop:checked=move || chosen_years.get().contains(&t)
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let mut ys = chosen_years.get_untracked();
                                        ys.retain(|y| *y != t);
                                        if on {
                                            ys.push(t);
                                            ys.sort_unstable();
                                        }
                                        lorenz_years.set(Some(ys));
                                    }/>
                                <label for=id>{t}</label>
                            </span>
                        }
                    })
                    .collect_view()
            };
            view! {
                <section aria-labelledby="ineq-lorenz-h">
                    <h3 id="ineq-lorenz-h">{tr("Curvas de Lorenz (participación acumulada de nacimientos y defunciones)", "Lorenz curves (cumulative share of births and deaths)")}</h3>
                    <fieldset><legend>{tr("Años", "Years")}</legend>{boxes}</fieldset>
                    <div class="chart" data-testid="ineq-lorenz-chart" inner_html=move || lorenz.get().map(|l| l.0).unwrap_or_default()></div>
                    {downloads("desigualdad_lorenz", move || lorenz.get_untracked().map(|l| l.0).unwrap_or_default(), move || lorenz.get_untracked().map(|l| l.1).unwrap_or_default())}
                </section>
            }
        })
    };

    let flag_state = expect_context::<crate::pages::findings::FlagState>();
    let box_chart = move || {
        imr_ok.get().map(|o| {
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
                    <h3 id="ineq-box-h">{tr("Distribución de las tasas comunales por año (diagrama de caja)", "Distribution of commune rates per year (box plot)")}</h3>
                    <div class="chart" data-testid="ineq-box-chart" inner_html=svg></div>
                    {downloads("tasas_comunales_caja", move || svg_dl.clone(), move || csv.clone())}
                    <button class="secondary" data-testid="tasas_comunales_atipicos-csv-download" on:click=move |_| download_csv(&state, "tasas_comunales_atipicos.csv", &outliers)>{tr("Descargar atípicos CSV", "Download outliers CSV")}</button>
                </section>
            }
        })
    };

    let income_panel = move || {
        let imr = imr_ok.get()?;
        let controls = view! {
            <div class="roles">
                {select("ineq-of", ("Segunda variable: ", "Second subject: "), of, Box::new(covariates), Some(("(ninguna)", "(none)")))}
                {select("ineq-weight", ("Ponderada por: ", "Weighted by: "), weight, Box::new(numeric_columns), None)}
                {measure_select("ineq-panel-measure", ("Medida: ", "Measure: "), panel_measure)}
            </div>
        };
        let mut lead: Option<AnyView> = None;
        let content = match income.get() {
            None => view! { <p class="note">{tr("Elija una segunda variable.", "Choose a second subject.")}</p> }.into_any(),
            Some(Err(message)) => view! { <p class="error" role="alert">{move || message.pick(language.get())}</p> }.into_any(),
            Some(Ok(inc)) => {
                let lang = language.get();
                let m = panel_measure.get();
                let (a, b) = (&imr.analysis.report, &inc.analysis.report);
                let top = SeriesSpec {
                    name: match lang {
                        Lang::Es => format!("{} de la tasa de mortalidad infantil", measure_label(lang, m)),
                        Lang::En => format!("{} of the infant mortality rate", m.label()),
                    },
                    y_label: measure_axis_label_in(m, &a.subject.unit, lang),
                    points: a.series(m),
                };
                let weight_name = &b.subject.weight_name;
                let bottom = SeriesSpec {
                    name: match lang {
                        Lang::Es => format!("{} de {}", measure_label(lang, m), b.subject.value_name),
                        Lang::En => format!("{} of {}", m.label(), b.subject.value_name),
                    },
                    y_label: measure_axis_label_in(m, &b.subject.unit, lang),
                    points: b.series(m),
                };
                let correlation = correlate_reports(a, m, b, m, 0.95);
                let svg = two_series_svg_in(&top, &bottom, &correlation, &chart_caption(&state, lang));
                let key = m.key(SubjectKind::Rate);
                let csv = two_series_csv(&top.points, &format!("imr_{key}"), &bottom.points, &format!("{}_{key}", b.subject.value_name));
                let fmt_r = |r: Option<f64>, ci: Option<[f64; 2]>| match (r, ci) {
                    (Some(r), Some([lo, hi])) => format!(
                        "{} ({} {} – {})",
                        fmt_value(lang, r, 2),
                        lang.pick("IC 95%", "95% CI"),
                        fmt_value(lang, lo, 2),
                        fmt_value(lang, hi, 2)
                    ),
                    (Some(r), None) => fmt_value(lang, r, 2),
                    _ => lang.pick("no disponible", "not available").to_string(),
                };
                let births_note = (weight_name == "births").then(|| lang.pick(
                    " En los datos incluidos la columna de nacimientos es poblacion_0 (población de edad 0, INE): es la única columna de población del archivo, así que la ponderación es por población infantil, no por población total.",
                    " In the bundled data the births column is poblacion_0 (the population aged 0, INE): it is the file's only population column, so the weight is the infant population, not the total population.",
                ));
                let command = command_line(&state, &InequalityRequest {
                    subject: InequalitySubject::Values { of: b.subject.value_name.clone(), weight: weight_name.clone() },
                    group: None,
                    rank: None,
                    bootstrap: replicates.get(),
                    seed: seed.get(),
                    against: None,
                });
                let svg_dl = svg.clone();
                let value_name = &b.subject.value_name;
                let subject_note = match lang {
                    Lang::Es => format!("{value_name} ponderada por `{weight_name}`; intervalos por remuestreo de comunas dentro de cada año."),
                    Lang::En => format!("{value_name} weighted by `{weight_name}`; intervals by resampling communes within each year."),
                };
                let (pearson, spearman, n_years) = (
                    fmt_r(correlation.pearson, correlation.pearson_ci),
                    fmt_r(correlation.spearman, correlation.spearman_ci),
                    correlation.n_years,
                );
                let (observed_es, observed_en) = (measure_label(Lang::Es, m), m.label());
                let correlation_text = match lang {
                    Lang::Es => format!("{observed_es} observado (incluye variación aleatoria): Pearson r = {pearson}; Spearman ρ = {spearman}; {n_years} años."),
                    Lang::En => format!("Observed {observed_en} (includes random variation): Pearson r = {pearson}; Spearman ρ = {spearman}; {n_years} years."),
                };
                // Issue 12: the panel leads with the correlation of the adjusted (true-rate)
                // Gini, whatever the measure chosen for the chart.
                let adjusted = correlate_reports_adjusted(a, b).map(|c| {
                    let sentence = c.sentence(lang);
                    let observed = c.observed_sentence(lang);
                    let against_command = command_line(&state, &InequalityRequest {
                        against: Some(SecondSeries { column: b.subject.value_name.clone(), weight: weight_name.clone() }),
                        ..imr_key.get()
                    });
                    view! {
                        <p class="answer" data-testid="ineq-correlation-adjusted" data-r=c.r.to_string() data-ci-low=c.ci_low.to_string() data-ci-high=c.ci_high.to_string() data-n-years=c.n_years.to_string()><strong>{sentence}</strong></p>
                        {observed.map(|o| view! { <p data-testid="ineq-correlation-observed">{o}</p> })}
                        <details data-testid="ineq-correlation-method">
                            <summary>{tr("Cómo se calcula", "How this is calculated")}</summary>
                            <p>{tr(
                                "r de Pearson entre el Gini ajustado de cada año (en θ̂) y el Gini de la segunda variable. Intervalo: 4.000 simulaciones; en cada una el Gini ajustado de cada año se extrae de una normal partida que reproduce su intervalo de verosimilitud perfil, se recalcula r y se suma el error de muestreo de una correlación de n años en la escala z de Fisher (atanh r + N(0, 1/(n − 3))); límites = percentiles 2,5% y 97,5% (propagación Monte Carlo, JCGM 101:2008; Fisher 1921). Semilla = la del bootstrap. Con años exactos sería el intervalo z de Fisher.",
                                "Pearson r between each year's adjusted Gini (at θ̂) and the second subject's Gini. Interval: 4,000 simulations; in each, every year's adjusted Gini is drawn from a split normal that reproduces its profile-likelihood interval, r is recomputed and the sampling error of a correlation over n years is added on Fisher's z scale (atanh r + N(0, 1/(n − 3))); limits = the 2.5% and 97.5% percentiles (Monte Carlo propagation, JCGM 101:2008; Fisher 1921). Seed = the bootstrap seed. With exact years it would be the Fisher z interval.",
                            )}</p>
                            <pre tabindex="0" data-testid="ineq-correlation-command" aria-label=tr("Comando imr de la correlación ajustada", "imr command for the adjusted correlation") style="white-space: pre-wrap; overflow-wrap: anywhere"><code>{against_command}</code></pre>
                        </details>
                    }
                    .into_any()
                });
                lead = adjusted;
                let few_years = match lang {
                    Lang::Es => "Con tan pocos años, una correlación —incluso alta— tiene muy poca potencia y puede deberse al azar o a una tendencia común; no es evidencia de causalidad.".to_string(),
                    Lang::En => correlation.warning.clone(),
                };
                view! {
                    <p class="note">{subject_note}{births_note}</p>
                    <div class="chart" data-testid="ineq-panel-chart" inner_html=svg></div>
                    <p data-testid="ineq-correlation">{correlation_text}</p>
                    <p class="warn" data-testid="ineq-few-years">{few_years}</p>
                    {downloads("desigualdad_tmi_vs_ingreso_salud", move || svg_dl.clone(), move || csv.clone())}
                    <p>{tr("Segunda serie en la línea de comandos:", "Second series with the command line:")}</p>
                    <pre tabindex="0" aria-label=tr("Comando imr de la segunda serie", "imr command for the second series") style="white-space: pre-wrap; overflow-wrap: anywhere"><code>{command}</code></pre>
                }
                .into_any()
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
    };

    view! {
        {settings}
        {body}
        {line_chart}
        {lorenz_chart}
        {box_chart}
        {income_panel}
    }
}

/// The adjusted (true-rate) inequality (its answer sentence leads the view, above the
/// settings): the adjusted Gini chart with its
/// band, the table of adjusted measures with intervals, the excess-variation test and the noise
/// share, and the method behind a disclosure. `None` for a value column.
fn adjusted_section(
    lang: Lang,
    report: &InequalityReport,
    caption: imr_core::Caption,
) -> Option<impl IntoView> {
    use imr_core::inequality::adjusted::{adjusted_svg_in, method_note, AdjustedMeasure};
    let method = report.adjusted_method.as_ref()?;
    let engine = lang;
    let chart = adjusted_svg_in(report, AdjustedMeasure::Gini, &caption);
    let header = AdjustedMeasure::ALL
        .iter()
        .map(|m| view! { <th data-adjusted=m.key()>{m.label(engine)}</th> })
        .collect_view();
    let rows = report
        .years
        .iter()
        .map(|y| {
            let cells = match &y.adjusted {
                Some(Ok(a)) => AdjustedMeasure::ALL
                    .iter()
                    .map(|m| {
                        let d = if *m == AdjustedMeasure::Scv || *m == AdjustedMeasure::P90P10 { 2 } else { 3 };
                        let [lo, hi] = a.interval(*m);
                        let noise = y.noise_share(*m).map(|s| {
                            let label = lang.pick("ruido en lo observado", "noise in observed");
                            view! { <br/><small class="noise" data-noise=s.to_string()>{format!("{label}: {}%", format_number(lang, 100.0 * s, 0))}</small> }
                        });
                        view! {
                            <td data-adjusted=m.key() data-value=a.value(*m).to_string() data-ci-low=lo.to_string() data-ci-high=hi.to_string() style="white-space: nowrap">
                                <span class="value">{fmt_value(lang, a.value(*m), d)}</span>
                                <br/><small class="ci">{format!("{} – {}", fmt_value(lang, lo, d), fmt_value(lang, hi, d))}</small>
                                {noise}
                            </td>
                        }
                    })
                    .collect_view()
                    .into_any(),
                Some(Err(why)) => view! { <td colspan="7" class="note" data-adjusted-unavailable="true">{why.text(engine)}</td> }.into_any(),
                None => ().into_any(),
            };
            let test = y.adjusted_year().map(|a| {
                let p = a.excess_variation.p_value;
                let p_text = if p < 0.001 { "< 0.001".to_string() } else { format_number(lang, p, 3) };
                view! {
                    <td data-field="excess_variation" data-statistic=a.excess_variation.statistic.to_string() data-p-value=p.to_string()>
                        {format!("LR = {}, p {}{}", format_number(lang, a.excess_variation.statistic, 2), if p < 0.001 { "" } else { "= " }, p_text)}
                    </td>
                }
            });
            view! { <tr data-time=y.time().to_string()><th scope="row">{y.time()}</th>{cells}{test}</tr> }
        })
        .collect_view();
    let trend_rows = report
        .trend_adjusted
        .iter()
        .map(|(m, t)| {
            let split = report.change_split_of(*m).map(|c| {
                match lang {
                    Lang::Es => format!("{} → {}: observado {}, verdadero {}, por el número de nacimientos {}", c.first_time, c.last_time, fmt_value(lang, c.observed_change, 3), fmt_value(lang, c.true_change, 3), fmt_value(lang, c.noise_change, 3)),
                    Lang::En => format!("{} → {}: observed {}, true {}, from the number of births {}", c.first_time, c.last_time, fmt_value(lang, c.observed_change, 3), fmt_value(lang, c.true_change, 3), fmt_value(lang, c.noise_change, 3)),
                }
            });
            view! {
                <tr data-adjusted=m.key() data-slope=t.slope.to_string() data-ci-low=t.ci_low.to_string() data-ci-high=t.ci_high.to_string()>
                    <td class="text">{m.label(engine)}</td>
                    <td data-field="slope">{fmt_value(lang, t.slope, 4)}</td>
                    <td data-field="slope_ci">{format!("{} – {}", fmt_value(lang, t.ci_low, 4), fmt_value(lang, t.ci_high, 4))}</td>
                    <td data-field="change_split">{split.unwrap_or_else(|| "—".into())}</td>
                </tr>
            }
        })
        .collect_view();
    let approximate = method.approximate.then(|| view! {
        <p class="warn" data-testid="ineq-adjusted-approximate">{lang.pick(
            "Las defunciones se derivaron de tasas publicadas y una aproximación de los nacimientos: no son conteos de Poisson, así que las medidas ajustadas son aproximadas. Con conteos reales (archivos propios o microdatos) son exactas bajo el modelo.",
            "Deaths were derived from published rates and a births proxy: they are not Poisson counts, so the adjusted measures are approximate. With real counts (your own files or the microdata) they are exact under the model.",
        )}</p>
    });
    let methods = method_note(method.approximate, engine);
    Some(view! {
        <section aria-labelledby="ineq-adjusted-h" data-testid="ineq-adjusted">
            <h3 id="ineq-adjusted-h">{tr("Desigualdad verdadera (sin la variación aleatoria)", "True inequality (random variation removed)")}</h3>
            {approximate}
            {chart.map(|svg| view! { <div class="chart" data-testid="ineq-adjusted-chart" role="img" aria-label=tr("Gini ajustado por año con su banda de 95%", "Adjusted Gini per year with its 95% band") inner_html=svg></div> })}
            <div class="scroll" tabindex="0" role="region" aria-label=tr("Tabla de medidas ajustadas por año (desplazable)", "Table of adjusted measures by year (scrollable)")>
                <table data-testid="adjusted-table">
                    <thead><tr><th>{tr("Año", "Year")}</th>{header}<th>{tr("¿Variación más allá del azar?", "Variation beyond chance?")}</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <div class="scroll" tabindex="0" role="region" aria-label=tr("Tendencia de las medidas ajustadas (desplazable)", "Trend of the adjusted measures (scrollable)")>
                <table data-testid="adjusted-trend">
                    <thead><tr><th class="text">{tr("Medida ajustada", "Adjusted measure")}</th><th>{tr("Pendiente por año", "Slope per year")}</th><th>{tr("IC 95%", "95% CI")}</th><th>{tr("Cambio observado = verdadero + por nacimientos", "Observed change = true + from births")}</th></tr></thead>
                    <tbody>{trend_rows}</tbody>
                </table>
            </div>
            <details data-testid="ineq-adjusted-method"><summary>{tr("Cómo se calcula", "How this is calculated")}</summary><p>{methods}</p></details>
        </section>
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_without_interval_has_empty_ci_cells() {
        let pts = [SeriesPoint {
            time: 2019,
            value: 0.5,
            ci: None,
        }];
        assert_eq!(
            series_csv(&pts, "gini"),
            "time,gini,gini_ci_low,gini_ci_high\n2019,0.5,,\n"
        );
    }
}
