//! The words of the Models view in either language, outside the browser so that they are tested
//! natively: estimator and standard-error names (a column's words: [`crate::column_words`]), numbers with
//! the language's decimal mark, and the diagnostics of a fit as sentences.

use crate::column_words::{choice_label, short_label};
use imr_models::report::format_number;
use imr_models::{ChiSquaredTest, Estimator, Fit, Reader};
use imr_stats::Lang;

/// What the Models view says when the data have no characteristic to put in a model (a file of
/// births and deaths alone): what to load, not "choose at least one", with nothing to choose.
pub fn no_regressor_columns(lang: Lang) -> &'static str {
    lang.pick(
        "Sus datos no tienen características de las comunas para los modelos: cargue también un \
         archivo con columnas como la pobreza o el gasto en salud por comuna y año.",
        "Your data have no characteristics of the communes to model: load a file with columns \
         such as poverty or health spending by commune and year as well.",
    )
}

/// The reader of the engine's remarks in `lang`: columns named by their words
/// ([`choice_label`]; `entity` and `time`, the names `--fe` and `--cluster` give the panel's
/// keys, as "Entidad" and "Período"), never by the engine's names.
pub fn reader(lang: Lang) -> Reader {
    Reader::new(lang, |lang, name| match name {
        "entity" => lang.pick("Entidad", "Entity").to_owned(),
        "time" => lang.pick("Período", "Period").to_owned(),
        _ => choice_label(lang, name),
    })
}

/// A number with about four significant digits ([`format_number`]), with the decimal comma in
/// Spanish and a negative's minus sign (U+2212) as every table of the page writes it.
pub fn number_in(lang: Lang, x: f64) -> String {
    let plain = lang.with_decimal_mark(format_number(x));
    match plain.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => plain,
    }
}

/// [`number_in`], or "—" when absent.
pub fn opt_number_in(lang: Lang, v: Option<f64>) -> String {
    v.map(|x| number_in(lang, x)).unwrap_or_else(|| "—".into())
}

/// The estimator as the Models view fits it: its one label ([`Estimator::label_in`]), and for
/// poisson-fe the outcome and exposure [`crate::request::FitRequest::for_model`] gives it
/// ("Poisson fixed effects: deaths, exposure = births").
pub fn estimator_label(lang: Lang, estimator: Estimator) -> String {
    let label = estimator.label_in(lang);
    match estimator {
        Estimator::PoissonFe => format!(
            "{label}: {}",
            lang.pick(
                "defunciones, exposición = nacimientos",
                "deaths, exposure = births"
            )
        ),
        _ => label.to_string(),
    }
}

/// The three R² of a panel fit, named in `lang`: within ("intragrupos"), between ("entre
/// grupos"), overall ("global").
pub fn r2_names(lang: Lang) -> [&'static str; 3] {
    match lang {
        Lang::En => ["within", "between", "overall"],
        Lang::Es => ["intragrupos", "entre grupos", "global"],
    }
}

/// A p-value after "p": "= 0,07630" (four significant digits), or "< 0,001" below one in a thousand, as the regression
/// tables' stars read (the page wrote "p = 8,076e-10", a machine's number).
pub fn p_text(lang: Lang, p: f64) -> String {
    if p < 0.001 {
        format!("< {}", lang.decimal(0.001, 3))
    } else {
        format!("= {}", number_in(lang, p))
    }
}

/// The verdict of a test at the 5% level: rejected when p < 0.05.
pub fn p_words(lang: Lang, p: f64) -> &'static str {
    if p < 0.05 {
        lang.pick("se rechaza al 5%", "rejected at 5%")
    } else {
        lang.pick("no se rechaza al 5%", "not rejected at 5%")
    }
}

/// "χ²(2) = 5.145, p = 0.0763 — not rejected at 5%.", with the test's hypothesis and note.
pub fn chi2_words(lang: Lang, name: &str, t: &ChiSquaredTest) -> String {
    let mut s = format!(
        "{name} (H0: {}): χ²({}) = {}, p {} — {}.",
        t.hypothesis.text(lang),
        t.df,
        number_in(lang, t.statistic),
        p_text(lang, t.p_value),
        p_words(lang, t.p_value)
    );
    if let Some(note) = &t.note {
        s.push(' ');
        s.push_str(&note.text(lang));
    }
    s
}

/// The diagnostics of one fit as sentences in `lang`: sample and inference, standard errors,
/// weights not taken, dropped terms, the F, Hausman, Breusch–Pagan and Mundlak tests, R²,
/// variance components, θ of an unbalanced panel, rate ratios, the engine's diagnostics and the
/// entities dropped, grouped by reason. The rows excluded for missing values are listed apart.
pub fn diagnostic_lines(lang: Lang, fit: &Fit, weights_requested: bool) -> Vec<String> {
    let es = lang == Lang::Es;
    let show = |x: f64| number_in(lang, x);
    let mut items: Vec<String> = Vec::new();
    let inference = match (fit.inference.df, es) {
        (Some(df), true) => format!("t con {df} grados de libertad"),
        (Some(df), false) => format!("t with {df} df"),
        (None, _) => "normal (z)".into(),
    };
    // "1 observación", "1.725 observaciones": the count grouped, its noun singular for one
    let count = |n: usize| lang.grouped(n as f64, 0);
    let counted = |n: usize, es: [&str; 2], en: [&str; 2]| {
        let [one, many] = if lang == Lang::Es { es } else { en };
        format!("{} {}", count(n), if n == 1 { one } else { many })
    };
    let nobs = counted(
        fit.nobs,
        ["observación", "observaciones"],
        ["observation", "observations"],
    );
    let entities = counted(
        fit.n_entities,
        ["entidad", "entidades"],
        ["entity", "entities"],
    );
    let periods = counted(
        fit.n_periods,
        ["período", "períodos"],
        ["period", "periods"],
    );
    items.push(if es {
        format!("{nobs} de {entities} en {periods}; inferencia: {inference}.")
    } else {
        format!("{nobs} of {entities} over {periods}; inference: {inference}.")
    });
    items.push(format!(
        "{}: {}.",
        lang.pick("Errores estándar", "Standard errors"),
        fit.vcov_convention.text(lang)
    ));
    if weights_requested && !fit.model.takes_weights() && fit.model != Estimator::PoissonFe {
        let model = fit.model.name();
        items.push(if es {
            // the model in words, not its `--model` key
            let model = fit.model.label_in(lang);
            format!("Los pesos no están disponibles para el modelo «{model}» (como en plm y Stata): se ajustó sin pesos.")
        } else {
            format!("Weights are not available for {model} (as in plm and Stata): fitted unweighted.")
        });
    }
    for d in &fit.dropped_terms {
        // "Término omitido «pobreza», pobreza por ingresos (CASEN): …" — the label's own
        // parentheses are not nested in others
        items.push(format!(
            "{} «{}», {}: {}",
            lang.pick("Término omitido", "Dropped term"),
            d.term,
            short_label(lang, &d.term),
            d.reason.render(reader(lang))
        ));
    }
    if let Some(t) = &fit.tests.f_effects {
        items.push(format!(
            "{} (H0: {}): F({}, {}) = {}, p {} — {}.",
            lang.pick("Prueba F de efectos de entidad", "F test of entity effects"),
            t.hypothesis.text(lang),
            t.df1,
            t.df2,
            show(t.statistic),
            p_text(lang, t.p_value),
            p_words(lang, t.p_value)
        ));
    }
    if let Some(t) = &fit.tests.hausman {
        let mut s = chi2_words(
            lang,
            lang.pick(
                "Hausman, efectos fijos frente a aleatorios",
                "Hausman FE vs RE",
            ),
            t,
        );
        if t.p_value.is_finite() {
            s.push(' ');
            s.push_str(if t.p_value < 0.05 {
                lang.pick(
                    "Los efectos se correlacionan con los regresores: prefiera efectos fijos o efectos aleatorios correlacionados.",
                    "The effects correlate with the regressors: prefer fixed effects or correlated random effects.",
                )
            } else {
                lang.pick(
                    // no evidence is not proof (the Findings say so of the same test)
                    "Sin evidencia contra efectos aleatorios al 5%: eso no prueba que sean válidos; si lo son, estiman con más precisión que los fijos.",
                    "No evidence against random effects at 5%: that does not prove them valid; if they are, they estimate more precisely than fixed effects.",
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
    let [within, between, overall] = r2_names(lang);
    let r2: Vec<String> = [
        (within, fit.r2_within),
        (between, fit.r2_between),
        (overall, fit.r2_overall),
    ]
    .into_iter()
    .filter_map(|(name, v)| v.map(|v| format!("{name} {}", show(v))))
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
    .filter_map(|(name, v)| v.map(|v| format!("{name} = {}", show(v))))
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
            show(t.min),
            lang.pick("mediana", "median"),
            show(t.median),
            lang.pick("a", "to"),
            show(t.max)
        ));
    }
    for c in &fit.coefficients {
        if let (Some(irr), Some(lo), Some(hi)) = (c.irr, c.irr_conf_low, c.irr_conf_high) {
            items.push(format!(
                "{} «{}»: {} [{}; {}].",
                lang.pick("Razón de tasas de incidencia (IRR)", "Incidence-rate ratio"),
                c.term,
                show(irr),
                show(lo),
                show(hi)
            ));
        }
    }
    items.extend(fit.diagnostics.iter().map(|d| d.render(reader(lang))));
    // Dropped entities grouped by reason: "27 entities dropped (reason): 01402, 01403, …".
    let mut by_reason: Vec<(&imr_models::EntityDropReason, Vec<&str>)> = Vec::new();
    for d in &fit.dropped_entities {
        match by_reason.iter_mut().find(|(r, _)| **r == d.reason) {
            Some((_, list)) => list.push(&d.entity),
            None => by_reason.push((&d.reason, vec![&d.entity])),
        }
    }
    for (reason, entities) in by_reason {
        items.push(format!(
            "{} {} ({}): {}.",
            count(entities.len()),
            match entities.len() {
                1 => lang.pick("entidad excluida", "entity dropped"),
                _ => lang.pick("entidades excluidas", "entities dropped"),
            },
            reason.render(reader(lang)),
            entities.join(", ")
        ));
    }
    items
}

#[cfg(test)]
#[path = "model_words_tests.rs"]
mod tests;
