//! The Models view: panel-data models of an outcome (by default the IMR per 1,000 births) on
//! commune characteristics. The user picks the outcome, the regressors (labelled from the
//! codebook), one or more estimators and the standard errors; the view shows the models side by
//! side (estimate with stars, SE, interval), the engine's coefficient plot, the diagnostics in
//! words, and offers the data, the tables and the R / Stata / `imr fit` code that reproduce them.
//!
//! Fits are memoised per (panel, estimator, request): changing a display option never refits,
//! and adding a model fits only that model.

use crate::components::download::{
    chart_caption, csv_with_provenance, download_csv, download_text,
};
use crate::i18n::{lang, tr, Lang};
use crate::pages::data::HowCalculated;
use crate::state::{AppState, Shared};
use imr_core::data::codebook::column_doc;
use imr_core::escape::{shell_join, CsvOptions, CsvWriter};
use imr_core::ingest::Role;
use imr_core::models::report::{self, format_number, significance_stars, CodeContext, PlotOptions};
use imr_core::models::{parse_fixed_effects, ChiSquaredTest, Estimator, Fit, VcovKind, INTERCEPT};
use imr_core::panel::{Panel, BUILTIN_COLUMNS};
use imr_core::request::{command_line, FitRequest, InputSpec, RequestError};
use leptos::prelude::*;
use std::sync::Arc;

/// Regressors checked when the view opens, where the data have them (the original study's
/// poverty, health income, schooling, SAPU and distance to the base hospital).
const DEFAULT_REGRESSORS: [&str; 5] = [
    "pobreza",
    "ingreso_salud_pc",
    "sin_educacion_formal_2017",
    "sapu",
    "dist_hospital_km",
];
/// Models shown when the view opens: fixed effects drop the time-invariant characteristics,
/// random and correlated random effects estimate them.
const DEFAULT_MODELS: [Estimator; 3] = [Estimator::Fe, Estimator::Re, Estimator::Cre];
/// File name of the downloaded analysis data; the R, Stata and `imr` code read this file.
const DATA_FILE: &str = "imr_modelos_datos.csv";

/// "Pobreza por ingresos (CASEN…) (% of persons)" for a column in the interface language, or
/// its name when the codebook does not know it.
fn column_label(lang: Lang, name: &str) -> String {
    match name {
        "rate" => lang
            .pick(
                "Tasa de mortalidad infantil (por 1.000 nacidos vivos)",
                "Infant mortality rate (per 1,000 live births)",
            )
            .into(),
        "births" => lang.pick("Nacimientos", "Births").into(),
        "deaths" => lang
            .pick("Defunciones de menores de 1 año", "Infant deaths")
            .into(),
        INTERCEPT => lang.pick("Constante", "Intercept").into(),
        _ => {
            if let Some(base) = name.strip_suffix("_mean") {
                if column_doc(base).is_some() {
                    return match lang {
                        Lang::Es => format!("Media por entidad: {}", short_label(lang, base)),
                        Lang::En => format!("Entity mean: {}", short_label(lang, base)),
                    };
                }
            }
            match column_doc(name) {
                Some(l) if l.unit.is_empty() => lang.pick(&l.label_es, &l.label_en).to_string(),
                Some(l) => format!("{} ({})", lang.pick(&l.label_es, &l.label_en), l.unit),
                None => name.to_string(),
            }
        }
    }
}

/// The codebook label alone, or the name.
fn short_label(lang: Lang, name: &str) -> String {
    column_doc(name)
        .map(|l| lang.pick(&l.label_es, &l.label_en).to_string())
        .unwrap_or_else(|| name.to_string())
}

/// A number with about four significant digits, with the decimal comma in Spanish.
fn show(lang: Lang, x: f64) -> String {
    let s = format_number(x);
    match lang {
        Lang::Es => s.replace('.', ","),
        Lang::En => s,
    }
}

fn estimator_label(lang: Lang, estimator: Estimator) -> &'static str {
    let (es, en) = match estimator {
        Estimator::Pooled => ("MCO agrupado", "Pooled OLS"),
        Estimator::Fe => (
            "Efectos fijos de comuna (within)",
            "Entity fixed effects (within)",
        ),
        Estimator::Twfe => (
            "Efectos fijos de comuna y año",
            "Two-way (entity and year) fixed effects",
        ),
        Estimator::Re => (
            "Efectos aleatorios (Swamy–Arora)",
            "Random effects (Swamy–Arora)",
        ),
        Estimator::Be => ("Entre comunas (medias)", "Between (entity means)"),
        Estimator::Fd => ("Primeras diferencias", "First differences"),
        Estimator::Cre => (
            "Efectos aleatorios correlacionados (Mundlak)",
            "Correlated random effects (Mundlak)",
        ),
        Estimator::PoissonFe => (
            "Poisson con efectos fijos: defunciones, exposición = nacimientos",
            "Poisson fixed effects: deaths, exposure = births",
        ),
        other => (other.label(), other.label()),
    };
    lang.pick(es, en)
}

fn vcov_label(lang: Lang, vcov: VcovKind) -> &'static str {
    let (es, en) = match vcov {
        VcovKind::Iid => ("Clásicos (iid)", "Classical (iid)"),
        VcovKind::Hc1 => ("Robustos (HC1)", "Robust (HC1)"),
        VcovKind::Cluster => ("Agrupados por comuna (CR1)", "Clustered by entity (CR1)"),
        other => (other.name(), other.name()),
    };
    lang.pick(es, en)
}

/// Fits one model of the view: the request for `estimator` ([`FitRequest::for_model`]: the
/// poisson-fe outcome and exposure, the weights where the estimator takes them), with the
/// message shown when it cannot be fitted.
fn fit_model(panel: &Panel, request: &FitRequest) -> Result<Fit, String> {
    request.run(panel).map_err(|e| match e {
        RequestError::NoRates => {
            "poisson-fe necesita defunciones y nacimientos / needs deaths and births".into()
        }
        // The list of errors names the model already.
        RequestError::ModelFailed { message, .. } => message,
        other => other.to_string(),
    })
}

type FitResult = Result<Shared<Fit>, String>;

/// Fits already computed for the current panel, by request.
#[derive(Default)]
struct FitCache {
    panel: Option<Shared<Panel>>,
    fits: Vec<(FitRequest, FitResult)>,
}

impl FitCache {
    fn get(&mut self, panel: &Shared<Panel>, request: &FitRequest) -> FitResult {
        if self.panel.as_ref() != Some(panel) {
            self.panel = Some(panel.clone());
            self.fits.clear();
        }
        if let Some((_, fit)) = self.fits.iter().find(|(r, _)| r == request) {
            return fit.clone();
        }
        let fit = fit_model(panel, request).map(|f| Shared(Arc::new(f)));
        self.fits.push((request.clone(), fit.clone()));
        fit
    }
}

/// Numeric columns offered as regressors: the covariates of the panel.
fn regressor_candidates(panel: &Panel) -> Vec<String> {
    panel
        .numeric_names
        .iter()
        .filter(|n| !BUILTIN_COLUMNS.contains(&n.as_str()))
        .cloned()
        .collect()
}

/// The analysis data the R, Stata and `imr` code run on: entity, time, births, deaths, rate
/// (per 1,000), every numeric covariate of the validated panel and the `text_columns` (those of
/// absorbed fixed effects), numbers written in full (shortest round-trip form), so that the code
/// reproduces the page's numbers; through the one CSV writer (quoting, formula guard).
fn analysis_csv(panel: &Panel, text_columns: &[String]) -> String {
    let number = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
    let covariates: Vec<(usize, &String)> = panel
        .numeric_names
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            !BUILTIN_COLUMNS.contains(&n.as_str())
                && *n != &panel.entity_column
                && *n != &panel.time_column
        })
        .collect();
    let mut header = vec![panel.entity_column.clone(), panel.time_column.clone()];
    if panel.has_births {
        header.push("births".into());
    }
    if panel.has_deaths {
        header.push("deaths".into());
    }
    if panel.has_births && panel.has_deaths {
        header.push("rate".into());
    }
    header.extend(covariates.iter().map(|(_, n)| (*n).clone()));
    let texts: Vec<usize> = text_columns
        .iter()
        .filter_map(|c| panel.text_names.iter().position(|t| t == c))
        .collect();
    header.extend(texts.iter().map(|&i| panel.text_names[i].clone()));
    let mut csv = CsvWriter::new(CsvOptions::default());
    csv.record(&header);
    for row in panel.rows() {
        let mut fields = vec![row.entity.to_owned(), row.time.to_string()];
        if panel.has_births {
            fields.push(number(row.births));
        }
        if panel.has_deaths {
            fields.push(number(row.deaths));
        }
        if panel.has_births && panel.has_deaths {
            fields.push(number(row.rate_per_1000()));
        }
        fields.extend(covariates.iter().map(|(i, _)| number(row.numeric(*i))));
        fields.extend(
            texts
                .iter()
                .map(|&i| row.text(i).unwrap_or_default().to_owned()),
        );
        csv.record(&fields);
    }
    csv.into_string()
}

/// Rows of the coefficient table: the requested regressors, then other terms of the fits
/// (the entity means of `cre`), the intercept last.
fn table_terms(fits: &[Shared<Fit>], regressors: &[String]) -> Vec<String> {
    let mut terms: Vec<String> = regressors.to_vec();
    for fit in fits {
        for c in &fit.coefficients {
            if c.term != INTERCEPT && !terms.contains(&c.term) {
                terms.push(c.term.clone());
            }
        }
    }
    if fits.iter().any(|f| f.coefficient(INTERCEPT).is_some()) {
        terms.push(INTERCEPT.to_string());
    }
    terms
}

fn opt_number(lang: Lang, v: Option<f64>) -> String {
    v.map(|x| show(lang, x)).unwrap_or_else(|| "—".into())
}

fn p_words(lang: Lang, p: f64) -> &'static str {
    if p < 0.05 {
        lang.pick("se rechaza al 5%", "rejected at 5%")
    } else {
        lang.pick("no se rechaza al 5%", "not rejected at 5%")
    }
}

#[component]
pub fn ModelsPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    // The model specification lives in the URL fragment: a shared link refits the same models.
    let fragment = crate::fragment::fragment();
    let outcome = fragment.synced("y", "rate".to_string());
    // `None` until the user touches a checkbox: then the defaults present in the data apply.
    let chosen = fragment.synced_with(
        "x",
        None::<Vec<String>>,
        |x| x.as_ref().map(|v| v.join(",")).unwrap_or_default(),
        |s| Some((!s.is_empty()).then(|| s.split(',').map(str::to_owned).collect())),
    );
    let models = fragment.synced_with(
        "models",
        DEFAULT_MODELS.to_vec(),
        |m| m.iter().map(|e| e.name()).collect::<Vec<_>>().join(","),
        |s| {
            s.split(',')
                .map(Estimator::from_name)
                .collect::<Option<Vec<_>>>()
        },
    );
    let vcov = fragment.synced_with(
        "vcov",
        VcovKind::Cluster,
        |v| v.name().to_owned(),
        VcovKind::from_name,
    );
    let weights = fragment.synced_with(
        "weights",
        None::<String>,
        |w| w.clone().unwrap_or_default(),
        |s| Some((!s.is_empty()).then(|| s.to_owned())),
    );
    // Fixed effects absorbed by the `fe` model, written as `imr fit --fe` takes them.
    let fe = fragment.synced_with(
        "fe",
        None::<String>,
        |f| f.clone().unwrap_or_default(),
        |s| Some((!s.trim().is_empty()).then(|| s.trim().to_owned())),
    );
    let show_ci = RwSignal::new(true);
    let cache = StoredValue::new(FitCache::default());

    let panel = Memo::new(move |_| match state.panel.get() {
        Some(Ok(p)) => Some(p),
        _ => None,
    });
    let candidates = Memo::new(move |_| {
        panel
            .get()
            .map(|p| regressor_candidates(&p))
            .unwrap_or_default()
    });
    let outcomes = Memo::new(move |_| {
        panel
            .get()
            .map(|p| p.numeric_variables())
            .unwrap_or_default()
    });
    let regressors = Memo::new(move |_| {
        let candidates = candidates.get();
        let out = outcome.get();
        chosen.with(|chosen| {
            candidates
                .iter()
                .filter(|c| **c != out)
                .filter(|c| match chosen {
                    Some(list) => list.contains(c),
                    None => DEFAULT_REGRESSORS.contains(&c.as_str()),
                })
                .cloned()
                .collect::<Vec<String>>()
        })
    });
    // The one request of the view: every selected model is this request for its estimator.
    let request = Memo::new(move |_| FitRequest {
        y: outcome.get(),
        x: regressors.get(),
        weights: weights.get(),
        vcov: vcov.get(),
        fe: fe.get(),
        ..FitRequest::default()
    });
    // Selected estimators in the order of `Estimator::ALL`, each with its request and its
    // (memoised) fit.
    let fits = Memo::new(move |_| {
        let panel = panel.get()?;
        let request = request.get();
        if request.x.is_empty() {
            return Some(Vec::new());
        }
        let selected = models.get();
        Some(
            Estimator::ALL
                .into_iter()
                .filter(|e| selected.contains(e))
                .map(|e| {
                    let model = request.for_model(e);
                    let fit = cache.try_update_value(|c| c.get(&panel, &model));
                    (
                        e,
                        model,
                        fit.unwrap_or_else(|| Err("internal: fit cache disposed".into())),
                    )
                })
                .collect::<Vec<(Estimator, FitRequest, FitResult)>>(),
        )
    });
    let ok_fits = Memo::new(move |_| {
        fits.get()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(_, _, f)| f.ok())
            .collect::<Vec<Shared<Fit>>>()
    });
    // The requests of the fitted models, for the commands that reproduce them.
    let ok_requests = Memo::new(move |_| {
        fits.get()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(_, r, f)| f.is_ok().then_some(r))
            .collect::<Vec<FitRequest>>()
    });

    let controls = view! {
        <section aria-labelledby="models-h" data-testid="models-controls">
            <h2 id="models-h">{tr("Modelos de panel", "Panel models")}</h2>
            <crate::pages::findings::Takeaway question="models"/>
            <p class="note">{tr("Relacione la mortalidad infantil con características comunales a lo largo de los años. Todo se calcula en su navegador.", "Relate infant mortality to commune characteristics over the years. Everything is computed in your browser.")}</p>
            <div class="roles">
                <span>
                    <label for="model-outcome">{tr("Variable dependiente", "Outcome")}</label>
                    <select id="model-outcome" data-testid="model-outcome" on:change=move |ev| outcome.set(event_target_value(&ev))>
                        {move || outcomes.get().into_iter().map(|name| {
                            let selected = name.clone();
                            view! { <option value=name.clone() selected=move || outcome.get() == selected>{column_label(lang().get(), &name)}</option> }
                        }).collect_view()}
                    </select>
                </span>
                <span>
                    <label for="model-vcov">{tr("Errores estándar", "Standard errors")}</label>
                    <select id="model-vcov" data-testid="model-vcov" on:change=move |ev| {
                        if let Some(v) = VcovKind::from_name(&event_target_value(&ev)) { vcov.set(v) }
                    }>
                        {VcovKind::ALL.into_iter().map(|v| view! {
                            <option value=v.name() selected=move || vcov.get() == v>{move || vcov_label(lang().get(), v)}</option>
                        }).collect_view()}
                    </select>
                </span>
                <span>
                    <label for="model-weights">{tr("Pesos (pooled, fe, twfe)", "Weights (pooled, fe, twfe)")}</label>
                    <select id="model-weights" data-testid="model-weights" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        weights.set((!v.is_empty()).then_some(v));
                    }>
                        <option value="" selected=move || weights.get().is_none()>{tr("(sin pesos)", "(none)")}</option>
                        {move || outcomes.get().into_iter().map(|name| {
                            let selected = name.clone();
                            view! { <option value=name.clone() selected=move || weights.get().as_deref() == Some(selected.as_str())>{name.clone()}</option> }
                        }).collect_view()}
                    </select>
                </span>
                <span>
                    <label for="model-absorb">{tr("Efectos fijos absorbidos (modelo fe)", "Absorbed fixed effects (fe model)")}</label>
                    <input id="model-absorb" data-testid="model-absorb" type="text" placeholder="codigo_comuna,region^anio"
                        aria-describedby="model-absorb-help"
                        prop:value=move || fe.get().unwrap_or_default()
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            let v = v.trim();
                            fe.set((!v.is_empty()).then(|| v.to_owned()));
                        }/>
                    <small id="model-absorb-help">{tr(
                        "Columnas separadas por comas; ^ las cruza. Reemplazan los efectos de comuna: inclúyala (p. ej. codigo_comuna,region^anio).",
                        "Columns separated by commas; ^ interacts them. They replace the entity effects, so list the entity too (e.g. codigo_comuna,region^anio).",
                    )}</small>
                </span>
            </div>
            <fieldset data-testid="model-choices">
                <legend>{tr("Modelos (varios a la vez)", "Models (several at once)")}</legend>
                {Estimator::ALL.into_iter().map(|e| {
                    let id = format!("model-{}", e.name());
                    view! {
                        <label for=id.clone()>
                            <input type="checkbox" id=id.clone() value=e.name() data-testid=format!("model-{}", e.name())
                                prop:checked=move || models.with(|m| m.contains(&e))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    models.update(|m| {
                                        m.retain(|x| *x != e);
                                        if on { m.push(e); }
                                    });
                                }/>
                            " "<code>{e.name()}</code>" "{move || estimator_label(lang().get(), e)}
                        </label><br/>
                    }
                }).collect_view()}
            </fieldset>
            <fieldset data-testid="regressor-choices">
                <legend>{tr("Regresores", "Regressors")}</legend>
                {move || {
                    let out = outcome.get();
                    candidates.get().into_iter().filter(|c| *c != out).map(|name| {
                        let id = format!("x-{name}");
                        let checked_name = name.clone();
                        let toggled = name.clone();
                        view! {
                            <label for=id.clone()>
                                <input type="checkbox" id=id.clone() value=name.clone() data-testid=format!("x-{name}")
                                    prop:checked=move || regressors.with(|r| r.contains(&checked_name))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        let mut list = regressors.get_untracked();
                                        list.retain(|x| *x != toggled);
                                        if on { list.push(toggled.clone()); }
                                        chosen.set(Some(list));
                                    }/>
                                " "{column_label(lang().get(), &name)}" "<code>{name.clone()}</code>
                            </label><br/>
                        }
                    }).collect_view()
                }}
            </fieldset>
        </section>
    };

    view! {
        {controls}
        {move || match panel.get() {
            None => Some(view! { <p class="note">{tr("Cargue datos en la pestaña Datos.", "Load data in the Data tab.")}</p> }.into_any()),
            Some(_) if regressors.with(|r| r.is_empty()) => Some(view! { <p class="note" data-testid="models-empty">{tr("Elija al menos un regresor.", "Choose at least one regressor.")}</p> }.into_any()),
            Some(_) if models.with(|m| m.is_empty()) => Some(view! { <p class="note" data-testid="models-empty">{tr("Elija al menos un modelo.", "Choose at least one model.")}</p> }.into_any()),
            Some(_) => None,
        }}
        <CoefTable fits=ok_fits regressors=regressors show_ci=show_ci/>
        <FitErrors fits=fits/>
        <CoefPlot fits=ok_fits/>
        <Downloads fits=ok_fits requests=ok_requests panel=panel/>
        <Diagnostics fits=ok_fits weights=weights/>
    }
}

#[component]
fn CoefTable(
    fits: Memo<Vec<Shared<Fit>>>,
    regressors: Memo<Vec<String>>,
    show_ci: RwSignal<bool>,
) -> impl IntoView {
    move || {
        let fits = fits.get();
        if fits.is_empty() {
            return None;
        }
        let l = lang().get();
        let with_ci = show_ci.get();
        let span = if with_ci { 3 } else { 2 };
        let terms = table_terms(&fits, &regressors.get());
        let level = fits[0].inference.conf_level * 100.0;
        let head_models = fits
            .iter()
            .enumerate()
            .map(|(i, f)| view! {
                <th colspan=span data-model=f.model.name() title=estimator_label(l, f.model)>{format!("({}) {}", i + 1, f.model.name())}</th>
            })
            .collect_view();
        let head_fields = fits
            .iter()
            .map(|_| {
                view! {
                    <th>"Coef."</th><th>{l.pick("EE", "SE")}</th>
                    {with_ci.then(|| view! { <th>{format!("{} {level:.0}%", l.pick("IC", "CI"))}</th> })}
                }
            })
            .collect_view();
        let rows = terms
            .iter()
            .map(|term| {
                let cells = fits
                    .iter()
                    .map(|fit| {
                        let model = fit.model.name();
                        match fit.coefficient(term) {
                            Some(c) => view! {
                                <td data-field="estimate" data-model=model data-value=c.estimate.to_string()>
                                    {show(l, c.estimate)}<sup class="stars">{significance_stars(c.p_value)}</sup>
                                </td>
                                <td data-field="std_error" data-model=model data-value=c.std_error.to_string()>{format!("({})", show(l, c.std_error))}</td>
                                {with_ci.then(|| view! {
                                    <td data-field="conf_int" data-model=model style="white-space:nowrap" data-low=c.conf_low.to_string() data-high=c.conf_high.to_string()>
                                        {format!("[{}; {}]", show(l, c.conf_low), show(l, c.conf_high))}
                                    </td>
                                })}
                            }
                            .into_any(),
                            None => {
                                let dropped = fit.dropped_terms.iter().find(|d| d.term == *term);
                                let (text, title) = match dropped {
                                    Some(d) => (l.pick("omitida", "dropped"), d.reason.render(l)),
                                    None => ("", String::new()),
                                };
                                view! {
                                    <td data-field="estimate" data-model=model data-value="" class="note" title=title>{text}</td>
                                    <td data-field="std_error" data-model=model data-value=""></td>
                                    {with_ci.then(|| view! { <td data-field="conf_int" data-model=model></td> })}
                                }
                                .into_any()
                            }
                        }
                    })
                    .collect_view();
                view! {
                    <tr data-term=term.clone()>
                        <th class="text" scope="row">{column_label(l, term)}" "<code>{term.clone()}</code></th>
                        {cells}
                    </tr>
                }
            })
            .collect_view();
        let stat_row = |label: &str, value: &dyn Fn(&Fit) -> String| {
            let label = label.to_string();
            let cells = fits
                .iter()
                .map(|f| view! { <td colspan=span data-model=f.model.name()>{value(f)}</td> })
                .collect_view();
            view! { <tr><th class="text" scope="row">{label}</th>{cells}</tr> }
        };
        let foot = view! {
            {stat_row(l.pick("Errores estándar", "Standard errors"), &|f| f.vcov.name().to_string())}
            {stat_row(l.pick("Observaciones", "Observations"), &|f| f.nobs.to_string())}
            {stat_row(l.pick("Entidades", "Entities"), &|f| f.n_entities.to_string())}
            {stat_row(l.pick("Períodos", "Periods"), &|f| f.n_periods.to_string())}
            {stat_row("R² within", &|f| opt_number(l, f.r2_within))}
            {stat_row("R² between", &|f| opt_number(l, f.r2_between))}
            {stat_row("R² overall", &|f| opt_number(l, f.r2_overall))}
            {stat_row("σ²_u", &|f| opt_number(l, f.sigma2_u))}
            {stat_row("σ²_e", &|f| opt_number(l, f.sigma2_e))}
            {stat_row("θ", &|f| opt_number(l, f.theta))}
        };
        Some(view! {
            <section aria-labelledby="coef-h">
                <h3 id="coef-h">{l.pick("Coeficientes", "Coefficients")}</h3>
                <label for="show-ci">
                    <input type="checkbox" id="show-ci" data-testid="show-ci" prop:checked=move || show_ci.get()
                        on:change=move |ev| show_ci.set(event_target_checked(&ev))/>
                    {l.pick(" Mostrar intervalos de confianza", " Show confidence intervals")}
                </label>
                <div style="overflow-x:auto" tabindex="0" role="region" aria-labelledby="coef-h">
                    <table data-testid="coef-table">
                        <thead>
                            <tr><th class="text" rowspan="2">{l.pick("Término", "Term")}</th>{head_models}</tr>
                            <tr>{head_fields}</tr>
                        </thead>
                        <tbody>{rows}</tbody>
                        <tfoot>{foot}</tfoot>
                    </table>
                </div>
                <p class="note">{l.pick("Errores estándar entre paréntesis. * p < 0,05; ** p < 0,01; *** p < 0,001.", "Standard errors in parentheses. * p < 0.05, ** p < 0.01, *** p < 0.001.")}</p>
            </section>
        })
    }
}

#[component]
fn FitErrors(fits: Memo<Option<Vec<(Estimator, FitRequest, FitResult)>>>) -> impl IntoView {
    move || {
        let errors: Vec<(Estimator, String)> = fits
            .get()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(e, _, f)| f.err().map(|m| (e, m)))
            .collect();
        (!errors.is_empty()).then(|| {
            let items = errors
                .into_iter()
                .map(|(e, m)| view! { <li data-model=e.name()><code>{e.name()}</code>": "{m}</li> })
                .collect_view();
            view! {
                <section data-testid="fit-errors">
                    <p class="error" role="alert">{tr("Modelos que no se pudieron ajustar:", "Models that could not be fitted:")}</p>
                    <ul>{items}</ul>
                </section>
            }
        })
    }
}

#[component]
fn CoefPlot(fits: Memo<Vec<Shared<Fit>>>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let lang = lang();
    let svg = Memo::new(move |_| {
        let fits: Vec<Fit> = fits.get().iter().map(|f| (**f).clone()).collect();
        let caption = chart_caption(&state, lang.get());
        (!fits.is_empty()).then(|| {
            report::coefficient_plot_svg(
                &fits,
                &PlotOptions {
                    width: 760.0,
                    caption,
                    ..PlotOptions::default()
                },
            )
        })
    });
    move || {
        svg.get().map(|svg| {
            let file = svg.clone();
            view! {
                <section aria-labelledby="plot-h">
                    <h3 id="plot-h">{tr("Gráfico de coeficientes", "Coefficient plot")}</h3>
                    <p class="note">{tr("Punto: estimación; línea: el mismo intervalo de confianza de la tabla (sin la constante).", "Point: estimate; line: the same confidence interval as in the table (intercept omitted).")}</p>
                    <div class="chart" data-testid="coef-plot" inner_html=svg></div>
                    <button class="secondary" data-testid="download-plot" on:click=move |_| download_text("imr_modelos_coeficientes.svg", "image/svg+xml", &file)>{tr("Descargar SVG", "Download SVG")}</button>
                </section>
            }
        })
    }
}

#[component]
fn Downloads(
    fits: Memo<Vec<Shared<Fit>>>,
    requests: Memo<Vec<FitRequest>>,
    panel: Memo<Option<Shared<Panel>>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let fits: Vec<Fit> = fits.get().iter().map(|f| (**f).clone()).collect();
        let panel = panel.get()?;
        if fits.is_empty() {
            return None;
        }
        let ctx = CodeContext {
            csv_file: DATA_FILE,
            entity: &panel.entity_column,
            time: &panel.time_column,
            comment_lines: imr_core::provenance::CSV_HEADER_LINES,
        };
        // The text columns of the absorbed fixed effects go into the data too.
        let fe_columns: Vec<String> = requests
            .get()
            .iter()
            .filter_map(|r| parse_fixed_effects(r.fe.as_deref()?).ok())
            .flatten()
            .flatten()
            .collect();
        // `imr fit` on the downloaded data, with the entity and time columns named.
        let input = InputSpec {
            files: vec![DATA_FILE.to_string()],
            roles: vec![
                (Role::Entity, panel.entity_column.clone()),
                (Role::Time, panel.time_column.clone()),
            ],
        };
        let commands: Vec<String> = requests
            .get()
            .iter()
            .map(|r| {
                let mut args = r.to_args();
                args.extend(["--format".to_string(), "json".to_string()]);
                shell_join(command_line(FitRequest::SUBCOMMAND, &input, args))
            })
            .collect();
        let r_code = fits
            .iter()
            .map(|f| report::r_code(f, &ctx))
            .collect::<Vec<_>>()
            .join("\n");
        let stata_code = fits
            .iter()
            .map(|f| report::stata_code(f, &ctx))
            .collect::<Vec<_>>()
            .join("\n");
        let coef_csv = csv_with_provenance(&state, &report::coefficients_csv_many(&fits));
        let latex = report::latex_table(&fits);
        let markdown = report::markdown_table(&fits);
        let data_panel = panel.clone();
        let button = move |testid: &'static str,
                           label: (&'static str, &'static str),
                           file: &'static str,
                           mime: &'static str,
                           text: String| {
            view! {
                <button class="secondary" data-testid=testid on:click=move |_| download_text(file, mime, &text)>{tr(label.0, label.1)}</button>
            }
        };
        let command_lines = commands
            .iter()
            .map(|c| view! { <code data-command>{c.clone()}</code><br/> })
            .collect_view();
        Some(view! {
            <section aria-labelledby="downloads-h">
                <h3 id="downloads-h">{tr("Descargas y código reproducible", "Downloads and reproducible code")}</h3>
                <p class="note">{move || match lang().get() {
                    Lang::Es => format!("El código R, Stata e imr lee el archivo de datos «{DATA_FILE}»: descárguelo junto al código."),
                    Lang::En => format!("The R, Stata and imr code read the data file «{DATA_FILE}»: download it next to the code."),
                }}</p>
                <div class="roles">
                    <button class="secondary" data-testid="download-data" on:click=move |_| download_csv(&state, DATA_FILE, &analysis_csv(&data_panel, &fe_columns))>{tr("Datos (CSV)", "Data as CSV")}</button>
                    {button("download-coef-csv", ("Coeficientes (CSV)", "Coefficients (CSV)"), "imr_modelos_coeficientes.csv", "text/csv", coef_csv)}
                    {button("download-latex", ("Tabla LaTeX", "LaTeX table"), "imr_modelos_tabla.tex", "application/x-tex", latex)}
                    {button("download-markdown", ("Tabla Markdown", "Markdown table"), "imr_modelos_tabla.md", "text/markdown", markdown)}
                    {button("download-r", ("Código R (fixest/plm)", "R code (fixest/plm)"), "imr_modelos.R", "text/plain", r_code)}
                    {button("download-stata", ("Código Stata", "Stata code"), "imr_modelos.do", "text/plain", stata_code)}
                </div>
                <p>{tr("Los mismos números con la línea de comandos:", "The same numbers from the command line:")}</p>
                <pre class="scroll" tabindex="0" aria-label=tr("Comandos imr", "imr commands") data-testid="imr-commands">{command_lines}</pre>
            </section>
        })
    }
}

/// "χ²(2) = 5.145, p = 0.0763 — not rejected at 5%", with the test's hypothesis and note.
fn chi2_words(lang: Lang, name: &str, t: &ChiSquaredTest) -> String {
    let mut s = format!(
        "{name} (H0: {}): χ²({}) = {}, p = {} — {}.",
        t.hypothesis.text(lang),
        t.df,
        show(lang, t.statistic),
        show(lang, t.p_value),
        p_words(lang, t.p_value)
    );
    if let Some(note) = &t.note {
        s.push(' ');
        s.push_str(&note.text(lang));
    }
    s
}

/// The diagnostics of one fit, in words. The engine's reasons, hypotheses and conventions are in
/// English; the sentences around them follow the interface language.
fn fit_diagnostics(lang: Lang, fit: &Fit, weights_requested: bool) -> impl IntoView {
    let es = lang == Lang::Es;
    let mut items: Vec<String> = Vec::new();
    let inference = match (fit.inference.df, es) {
        (Some(df), true) => format!("t con {df} g.l."),
        (Some(df), false) => format!("t with {df} df"),
        (None, _) => "normal (z)".into(),
    };
    items.push(if es {
        format!(
            "{} observaciones de {} entidades en {} períodos; inferencia: {inference}.",
            fit.nobs, fit.n_entities, fit.n_periods
        )
    } else {
        format!(
            "{} observations of {} entities over {} periods; inference: {inference}.",
            fit.nobs, fit.n_entities, fit.n_periods
        )
    });
    items.push(format!(
        "{}: {}.",
        lang.pick("Errores estándar", "Standard errors"),
        fit.vcov_convention
    ));
    if weights_requested && !fit.model.takes_weights() && fit.model != Estimator::PoissonFe {
        items.push(if es {
            format!("Los pesos no están disponibles para {0} (como en plm y Stata): se ajustó sin pesos.", fit.model.name())
        } else {
            format!("Weights are not available for {0} (as in plm and Stata): fitted unweighted.", fit.model.name())
        });
    }
    for d in &fit.dropped_terms {
        items.push(format!(
            "{} «{}» ({}): {}",
            lang.pick("Término omitido", "Dropped term"),
            d.term,
            short_label(lang, &d.term),
            d.reason.render(lang)
        ));
    }
    if let Some(t) = &fit.tests.f_effects {
        items.push(format!(
            "{} (H0: {}): F({}, {}) = {}, p = {} — {}.",
            lang.pick("Prueba F de efectos de entidad", "F test of entity effects"),
            t.hypothesis.text(lang),
            t.df1,
            t.df2,
            show(lang, t.statistic),
            show(lang, t.p_value),
            p_words(lang, t.p_value)
        ));
    }
    if let Some(t) = &fit.tests.hausman {
        let mut s = chi2_words(lang, "Hausman FE vs RE", t);
        if t.p_value.is_finite() {
            s.push(' ');
            s.push_str(if t.p_value < 0.05 {
                lang.pick(
                    "Los efectos se correlacionan con los regresores: prefiera fe o cre.",
                    "The effects correlate with the regressors: prefer fe or cre.",
                )
            } else {
                lang.pick(
                    "Sin evidencia contra efectos aleatorios (re es consistente y más eficiente).",
                    "No evidence against random effects (re is consistent and more efficient).",
                )
            });
        }
        items.push(s);
    }
    if let Some(t) = &fit.tests.breusch_pagan {
        items.push(chi2_words(lang, "Breusch–Pagan LM", t));
    }
    if let Some(t) = &fit.tests.mundlak {
        items.push(chi2_words(lang, "Mundlak", t));
    }
    let r2: Vec<String> = [
        ("within", fit.r2_within),
        ("between", fit.r2_between),
        ("overall", fit.r2_overall),
    ]
    .into_iter()
    .filter_map(|(name, v)| v.map(|v| format!("{name} {}", show(lang, v))))
    .collect();
    if !r2.is_empty() {
        items.push(format!("R²: {}.", r2.join(", ")));
    }
    let components: Vec<String> = [
        (
            lang.pick(
                "σ²_u (varianza del efecto de entidad)",
                "σ²_u (variance of the entity effect)",
            ),
            fit.sigma2_u,
        ),
        (
            lang.pick(
                "σ²_e (varianza idiosincrática)",
                "σ²_e (idiosyncratic variance)",
            ),
            fit.sigma2_e,
        ),
        ("θ", fit.theta),
    ]
    .into_iter()
    .filter_map(|(name, v)| v.map(|v| format!("{name} = {}", show(lang, v))))
    .collect();
    if !components.is_empty() {
        items.push(format!("{}.", components.join("; ")));
    }
    if let Some(t) = &fit.theta_summary {
        items.push(format!(
            "{} {} ({} {}) {} {}.",
            lang.pick(
                "Panel desbalanceado: θ_i va de",
                "Unbalanced panel: θ_i ranges from"
            ),
            show(lang, t.min),
            lang.pick("mediana", "median"),
            show(lang, t.median),
            lang.pick("a", "to"),
            show(lang, t.max)
        ));
    }
    for c in &fit.coefficients {
        if let (Some(irr), Some(lo), Some(hi)) = (c.irr, c.irr_conf_low, c.irr_conf_high) {
            items.push(format!(
                "{} «{}»: {} [{}; {}].",
                lang.pick("Razón de tasas de incidencia (IRR)", "Incidence-rate ratio"),
                c.term,
                show(lang, irr),
                show(lang, lo),
                show(lang, hi)
            ));
        }
    }
    items.extend(fit.diagnostics.iter().map(|d| d.render(lang)));
    // Dropped entities grouped by reason: "27 entities dropped (reason): 01402, 01403, …".
    let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
    for d in &fit.dropped_entities {
        match by_reason.iter_mut().find(|(r, _)| *r == d.reason) {
            Some((_, list)) => list.push(&d.entity),
            None => by_reason.push((&d.reason, vec![&d.entity])),
        }
    }
    for (reason, entities) in by_reason {
        items.push(format!(
            "{} {} ({reason}): {}.",
            entities.len(),
            lang.pick("entidades excluidas", "entities dropped"),
            entities.join(", ")
        ));
    }
    let excluded = (!fit.excluded_rows.is_empty()).then(|| {
        let line = lang.pick("línea", "line");
        let rows = fit
            .excluded_rows
            .iter()
            .map(|r| view! { <li data-line=r.row.to_string()>{format!("{line} {}: {}", r.row, r.reason)}</li> })
            .collect_view();
        let summary = if es {
            format!("{} filas con valores faltantes no se usaron", fit.rows_excluded)
        } else {
            format!("{} rows with missing values were not used", fit.rows_excluded)
        };
        view! {
            <details>
                <summary class="warn">{summary}</summary>
                <ol class="excluded">{rows}</ol>
            </details>
        }
    });
    view! {
        <article data-model=fit.model.name()>
            <h4>{format!("{} — {}", fit.model.name(), estimator_label(lang, fit.model))}</h4>
            <ul>{items.into_iter().map(|s| view! { <li>{s}</li> }).collect_view()}</ul>
            {excluded}
        </article>
    }
}

#[component]
fn Diagnostics(fits: Memo<Vec<Shared<Fit>>>, weights: RwSignal<Option<String>>) -> impl IntoView {
    let methods_open = RwSignal::new(false);
    move || {
        let fits = fits.get();
        if fits.is_empty() {
            return None;
        }
        let l = lang().get();
        let weighted = weights.get().is_some();
        let articles = fits
            .iter()
            .map(|f| fit_diagnostics(l, f, weighted))
            .collect_view();
        Some(view! {
            <section aria-labelledby="diag-h" data-testid="diagnostics">
                <h3 id="diag-h">{l.pick("Diagnósticos", "Diagnostics")}</h3>
                <HowCalculated testid="diagnostics-method" open=methods_open>{articles}</HowCalculated>
            </section>
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codebook_labels_the_bundled_covariates() {
        assert!(column_label(Lang::Es, "pobreza").starts_with("Pobreza por ingresos"));
        assert!(column_label(Lang::En, "pobreza").starts_with("Income poverty"));
        assert!(column_label(Lang::En, "sapu").contains("SAPU"));
        assert!(column_label(Lang::Es, "pobreza_mean").starts_with("Media por entidad"));
        assert_eq!(column_label(Lang::En, "unknown_col"), "unknown_col");
    }

    #[test]
    fn the_analysis_data_quote_and_guard_hostile_names() {
        use imr_core::ingest::{build_panel, IngestOptions, RawTable};
        let csv = "comuna,anio,nacimientos,defunciones,\"=HYPERLINK(1), x\"\n\
                   01101,2019,1000,8,1.5\n01101,2020,1100,7,-2\n";
        let table = RawTable::from_bytes("h.csv", csv.as_bytes()).unwrap();
        let roles = table.guessed_roles.clone();
        let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
        let text = analysis_csv(&panel, &[]);
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("comuna,anio,births,deaths,rate,\"'=HYPERLINK(1), x\"")
        );
        assert_eq!(lines.next(), Some("01101,2019,1000,8,8,1.5"));
        assert_eq!(lines.next(), Some("01101,2020,1100,7,6.363636363636363,-2"));
    }
}
