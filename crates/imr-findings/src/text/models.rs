//! Question 4: what goes with higher mortality?

use super::*;
use imr_core::column_words::lowercase_first;

/// The words of a covariate the Findings know: what one more unit of it is (`{p}` stands for the
/// amount) and its short label, in Spanish and English.
pub(super) struct TermWords {
    pub(super) column: &'static str,
    phrase: [&'static str; 2],
    pub(super) label: [&'static str; 2],
    /// The characteristic's short name, without an amount (a list of time-invariant ones).
    pub(super) name: [&'static str; 2],
}

/// The covariates of the bundled panel, in words (public/data/codebook.csv describes the columns).
pub(super) const TERMS: [TermWords; 6] = [
    TermWords {
        column: "pobreza",
        phrase: [
            "{p} puntos porcentuales más de pobreza por ingresos",
            "{p} percentage points more income poverty",
        ],
        label: ["Pobreza +{p} puntos", "Poverty +{p} points"],
        name: ["Pobreza", "Poverty"],
    },
    TermWords {
        column: "ingreso_salud_pc",
        phrase: [
            "M${p} más de ingreso municipal de salud por persona",
            "M${p} (thousand pesos) more municipal health income per person",
        ],
        label: ["Ingreso salud +M${p}", "Health income +M${p}"],
        name: ["Ingreso salud", "Health income"],
    },
    TermWords {
        column: "gasto_salud_pc",
        phrase: [
            "M${p} más de gasto municipal en salud por habitante",
            "M${p} (thousand pesos) more municipal health spending per inhabitant",
        ],
        label: ["Gasto salud +M${p}", "Health spending +M${p}"],
        name: ["Gasto salud", "Health spending"],
    },
    TermWords {
        column: "sin_educacion_formal_2017",
        phrase: [
            "{p} puntos porcentuales más de personas que nunca asistieron a la educación formal (2017)",
            "{p} percentage points more people who never attended formal education (2017)",
        ],
        label: ["Sin escolaridad +{p} puntos", "No schooling +{p} points"],
        name: ["Sin escolaridad", "No schooling"],
    },
    TermWords {
        column: "sapu",
        phrase: [
            "Tener un SAPU o SAR",
            "Having a SAPU or SAR emergency primary-care service",
        ],
        label: ["SAPU/SAR", "SAPU/SAR"],
        name: ["SAPU/SAR", "SAPU/SAR"],
    },
    TermWords {
        column: "dist_hospital_km",
        phrase: [
            "{p} km más de distancia al hospital de segundo o tercer nivel más cercano",
            "{p} km more distance to the nearest second- or third-level hospital",
        ],
        label: ["Dist. hospital +{p} km", "Hospital dist. +{p} km"],
        name: ["Dist. hospital", "Hospital dist."],
    },
];

/// The words of `column` in `lang` (phrase or label, chosen by `pick`) with the amount `p` put
/// in, or `None` for a column the Findings do not know.
pub(super) fn term_words(
    lang: Lang,
    column: &str,
    p: &str,
    pick: fn(&TermWords) -> &[&'static str; 2],
) -> Option<String> {
    // The study's words for its own column only: a reader's "Pobreza (%)" answers for the
    // study's poverty, but it is her measure, named by her name (it was called "pobreza por
    // ingresos", the bundled CASEN measure).
    let words = TERMS.iter().find(|t| t.column == column)?;
    let [es, en] = pick(words);
    Some(lang.pick(es, en).replace("{p}", p))
}

/// The columns `columns` by their short names ("Gasto salud"; a column the Findings do not know
/// by its own name), joined by commas.
fn term_names(lang: Lang, columns: &[String]) -> String {
    (columns.iter())
        .map(|c| term_words(lang, c, "", |t| &t.name).unwrap_or_else(|| c.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The change a model sentence is about, in words.
pub(super) fn term_phrase(lang: Lang, column: &str, per: f64) -> String {
    let p = number(
        lang,
        per,
        decimals_for(per)
            .min(2)
            .min(if per.fract() == 0.0 { 0 } else { 2 }),
    );
    term_words(lang, column, &p, |t| &t.phrase).unwrap_or_else(|| match lang {
        Lang::Es => format!("{p} unidades más de «{column}»"),
        Lang::En => format!("{p} more units of “{column}”"),
    })
}

pub(super) fn term_label(lang: Lang, column: &str, per: f64) -> String {
    let p = number(lang, per, if per.fract() == 0.0 { 0 } else { 2 });
    term_words(lang, column, &p, |t| &t.label).unwrap_or_else(|| format!("{column} +{p}"))
}

/// A study covariate as a coefficient plot draws it beside the others: per the change question
/// 4 speaks of ([`imr_core::data::study::StudyCovariate::per`]: 50 km, 10 points, M$100) and
/// labelled with it ("Dist. hospital +50 km"), so that a coefficient per km is not drawn at
/// zero beside one per point of poverty while the answer reports it per 50 km. `None` for a
/// column the study does not have (drawn per unit, under its own label).
pub(super) fn study_term_change(lang: Lang, column: &str) -> Option<(f64, String)> {
    // the study's one rule for a covariate under the name a person wrote (column_for)
    let name = [column.to_owned()];
    let covariate = (imr_core::data::study::STUDY_COVARIATES.iter())
        .find(|c| imr_core::data::study::column_for(c.column, &name).is_some())?;
    Some((covariate.per, term_label(lang, column, covariate.per)))
}

/// The rows of a coefficient plot of the terms `terms` of fits of `regressors`, in `lang`: each
/// term's label ([`imr_core::column_words::term_label`]) and the changes the study covariates
/// are drawn per (question 4's change of each, [`imr_core::data::study::STUDY_COVARIATES`];
/// cre's commune mean of one per the same change, "Dist. hospital +50 km, media de la
/// comuna"), for [`imr_core::models::report::PlotOptions`].
pub fn plot_terms<'t>(
    lang: Lang,
    terms: impl IntoIterator<Item = &'t str>,
    regressors: &[String],
) -> PlotTerms {
    let (mut labels, mut changes) = (Vec::new(), Vec::new());
    for term in terms {
        let base = imr_core::column_words::mean_of(term, regressors);
        let label = match study_term_change(lang, base.unwrap_or(term)) {
            Some((per, label)) => {
                changes.push((term.to_owned(), per));
                match base {
                    Some(_) => imr_core::column_words::as_commune_mean(lang, &label),
                    None => label,
                }
            }
            None => imr_core::column_words::term_label(lang, term, regressors),
        };
        labels.push((term.to_owned(), label));
    }
    PlotTerms { labels, changes }
}

/// The rows of a coefficient plot ([`plot_terms`]): the options' `term_labels` and
/// `term_changes`.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotTerms {
    /// Each term's words.
    pub labels: Vec<(String, String)>,
    /// The change each study covariate is drawn per.
    pub changes: Vec<(String, f64)>,
}

/// A cell of question 4's data table in Spanish words, for the figure's table
/// ([`crate::embed::snippet`]; the answer's JSON and CSV keep the machine names): a covariate by
/// its short name ("Gasto salud", never `gasto_salud_pc`), a model by its name in the sentences
/// ("Efectos fijos", never `fe`). `None` for any other cell, a column the Findings do not know
/// among them (the reader's own name).
pub(crate) fn data_cell_es(column: &str, cell: &str) -> Option<String> {
    match column {
        "term" => term_words(Lang::Es, cell, "", |t| &t.name),
        "model" => {
            let name = model_name(Lang::Es, Estimator::from_name(cell)?);
            let mut chars = name.chars();
            let first = chars.next()?;
            Some(first.to_uppercase().chain(chars).collect())
        }
        _ => None,
    }
}

/// The model of a sentence in plain words ("fixed effects"); its estimator, standard errors and
/// references are in the answer's "How was it computed?" ([`crate::method::models`]).
pub(super) fn model_name(lang: Lang, e: Estimator) -> String {
    match e {
        Estimator::Fe => lang.pick("efectos fijos", "fixed effects").to_owned(),
        Estimator::Re => lang.pick("efectos aleatorios", "random effects").to_owned(),
        // The Findings fit only the two above; another estimator keeps its one label.
        other => lowercase_first(other.label_in(lang)),
    }
}

/// Which model answers and why: fixed effects compare each commune with itself, so they hold
/// whether or not communes differ in what the data do not measure; the Hausman test says whether
/// random effects (which also compare communes with each other) are rejected. When they are not,
/// the sentence says that this does not make them right, and what they find that fixed effects
/// do not (a term whose interval excludes zero under one model and not under the other); when
/// they estimated no variance between communes, that they are then a pooled regression.
pub(super) fn model_choice(lang: Lang, f: &ModelsFinding) -> Option<String> {
    let p = f.hausman_p?;
    let p_text = number(lang, p, if p < 0.001 { 4 } else { 3 });
    let why = match (f.time_invariant.is_empty(), lang) {
        (true, Lang::Es) => "Responde el modelo de efectos fijos: compara cada comuna consigo misma a lo largo de los años, así que vale aunque las comunas difieran en lo que estos datos no miden.",
        (true, Lang::En) => "The fixed-effects model answers: it compares each commune with itself over the years, so it holds even if communes differ in what these data do not measure.",
        (false, Lang::Es) => "Responde el modelo de efectos fijos donde puede: compara cada comuna consigo misma a lo largo de los años, así que vale aunque las comunas difieran en lo que estos datos no miden; lo que no cambia en el tiempo solo lo estima el modelo de efectos aleatorios.",
        (false, Lang::En) => "The fixed-effects model answers where it can: it compares each commune with itself over the years, so it holds even if communes differ in what these data do not measure; what does not change over time only the random-effects model estimates.",
    };
    if p < 0.05 {
        return Some(match lang {
            Lang::Es => format!("{why} La prueba de Hausman (p = {p_text}) rechaza el modelo de efectos aleatorios, que también compara comunas entre sí: sus cifras pueden estar sesgadas por esas diferencias."),
            Lang::En => format!("{why} The Hausman test (p = {p_text}) rejects the random-effects model, which also compares communes with each other: its figures may be biased by those differences."),
        });
    }
    let differs: Vec<String> = f
        .random_effects
        .iter()
        .filter(|re| {
            f.terms.iter().any(|t| {
                t.column == re.column
                    && t.estimator != re.estimator
                    && Direction::of(t.ci, 0.0) != Direction::of(re.ci, 0.0)
            })
        })
        .map(|re| {
            let d = answer_decimals(&f.terms, &f.random_effects);
            let phrase = term_phrase(lang, &re.column, re.per);
            let (x, ci) = (number(lang, re.estimate, d), interval(lang, re.ci, d));
            match lang {
                Lang::Es => format!("{phrase}: {x} por 1.000 ({ci})"),
                Lang::En => format!("{phrase}: {x} per 1,000 ({ci})"),
            }
        })
        .collect();
    let not_rejected = match lang {
        Lang::Es => format!("La prueba de Hausman (p = {p_text}) no rechaza el modelo de efectos aleatorios, que también compara comunas entre sí, pero eso no prueba que sea válido: con pocos años la prueba distingue poco."),
        Lang::En => format!("The Hausman test (p = {p_text}) does not reject the random-effects model, which also compares communes with each other, but that does not prove it valid: with few years the test tells little apart."),
    };
    let pooled = if f.random_effects_pooled {
        lang.pick(
            " Además, ese modelo estimó que las comunas no difieren en su nivel (varianza entre comunas igual a cero): equivale a una regresión que compara comunas distintas sin descontar lo que las diferencia y estos datos no miden.",
            " Moreover, that model estimated that communes do not differ in their level (a variance between communes of zero): it amounts to a regression that compares different communes without taking out what sets them apart and these data do not measure.",
        )
    } else {
        ""
    };
    let verdict = match (differs.is_empty(), lang) {
        (true, Lang::Es) => "Ese modelo no llega a otra conclusión.".to_string(),
        (true, Lang::En) => "That model reaches no other conclusion.".to_string(),
        (false, Lang::Es) => format!(
            "Con ese modelo cambia la conclusión sobre: {}.",
            differs.join("; ")
        ),
        (false, Lang::En) => format!(
            "With that model the conclusion changes for: {}.",
            differs.join("; ")
        ),
    };
    Some(format!("{why} {not_rejected} {verdict}{pooled}"))
}

/// The decimals of every number of question 4's answer: enough for its smallest interval
/// ([`decimals_for`] of each term's larger bound), two to three, the same for every term — an
/// answer read "0,38", "0,383", "1,41", "0,0584" side by side as changes of precision.
fn answer_decimals(terms: &[crate::ModelTerm], others: &[crate::ModelTerm]) -> usize {
    (terms.iter().chain(others))
        .map(|t| decimals_for(t.ci[0].abs().max(t.ci[1].abs())))
        .max()
        .unwrap_or(2)
        .clamp(2, 3)
}

pub(super) fn models_answer(lang: Lang, f: &ModelsFinding) -> Parts {
    let d = answer_decimals(&f.terms, &f.random_effects);
    let sentences: Vec<String> = f
        .terms
        .iter()
        .map(|t| {
            let phrase = term_phrase(lang, &t.column, t.per);
            let x = number(lang, t.estimate.abs(), d);
            let xs = number(lang, t.estimate, d);
            let ci = interval(lang, t.ci, d);
            let model = model_name(lang, t.estimator);
            match (Direction::of(t.ci, 0.0), lang) {
                (Direction::Above, Lang::Es) => format!("{phrase} se asocia con una tasa mayor en {x} por 1.000 ({ci}; {model})."),
                (Direction::Above, Lang::En) => format!("{phrase} goes with a rate higher by {x} per 1,000 ({ci}; {model})."),
                (Direction::Below, Lang::Es) => format!("{phrase} se asocia con una tasa menor en {x} por 1.000 ({ci}; {model})."),
                (Direction::Below, Lang::En) => format!("{phrase} goes with a rate lower by {x} per 1,000 ({ci}; {model})."),
                (Direction::NotDistinguishable, Lang::Es) => format!("{phrase}: no distinguible de cero (estimación {xs} por 1.000, {ci}; {model})."),
                (Direction::NotDistinguishable, Lang::En) => format!("{phrase}: not distinguishable from zero (estimate {xs} per 1,000, {ci}; {model})."),
            }
        })
        .collect();
    let distinguishable = f
        .terms
        .iter()
        .filter(|t| Direction::of(t.ci, 0.0) != Direction::NotDistinguishable)
        .count();
    let (k, n) = (distinguishable, f.terms.len());
    let (nobs, communes) = (
        lang.grouped(f.nobs as f64, 0),
        lang.grouped(f.n_entities as f64, 0),
    );
    let headline = match (n, lang) {
        (1, Lang::Es) => format!("En los modelos de panel ({nobs} observaciones, {communes} comunas), la característica {} con la tasa de forma distinguible de cero.", if k == 1 { "se asocia" } else { "no se asocia" }),
        (1, Lang::En) => format!("In the panel models ({nobs} observations, {communes} communes), the characteristic {} with the rate in a way distinguishable from zero.", if k == 1 { "goes" } else { "does not go" }),
        (_, Lang::Es) => format!("En los modelos de panel ({nobs} observaciones, {communes} comunas), {k} de {n} características {} con la tasa de forma distinguible de cero.", if k == 1 { "se asocia" } else { "se asocian" }),
        (_, Lang::En) => format!("In the panel models ({nobs} observations, {communes} communes), {k} of {n} characteristics {} with the rate in a way distinguishable from zero.", if k == 1 { "goes" } else { "go" }),
    };
    let mut sentences = sentences;
    if let Some(choice) = model_choice(lang, f) {
        sentences.push(choice);
    }
    let mut caveats = vec![lang
        .pick(
            "Son asociaciones en estos datos, no causas.",
            "These are associations in these data, not causes.",
        )
        .to_string()];
    if !f.time_invariant.is_empty() {
        let list = term_names(lang, &f.time_invariant);
        caveats.push(match lang {
            Lang::Es => format!("Los efectos fijos comparan cada comuna consigo misma en el tiempo: no estiman factores que no cambian dentro de la comuna ({list}); esos vienen de efectos aleatorios, que suponen que no se relacionan con rasgos no observados de cada comuna."),
            Lang::En => format!("Fixed effects compare each commune with itself over time: they do not estimate factors that do not change within a commune ({list}); those come from random effects, which assume them unrelated to each commune's unobserved traits."),
        });
    }
    if !f.missing.is_empty() {
        // In words, not the data's column names ("Sin escolaridad", never
        // sin_educacion_formal_2017).
        let missing = term_names(lang, &f.missing);
        caveats.push(match lang {
            Lang::Es => format!("No están en los datos: {missing}."),
            Lang::En => format!("Not in the data: {missing}."),
        });
    }
    let rows: Vec<Row> = f
        .terms
        .iter()
        .map(|t| Row {
            label: term_label(lang, &t.column, t.per),
            value: t.estimate,
            ci: Some(t.ci),
        })
        .collect();
    let chart = interval_rows(
        lang,
        lang.pick(
            "Cambio en la tasa por 1.000 (IC 95%)",
            "Change in the rate per 1,000 (95% CI)",
        ),
        &rows,
        (0.0, "0"),
    );
    let mut data = table(
        &[
            "term",
            "per",
            "change_per_1000",
            "ci_low",
            "ci_high",
            "model",
        ],
        f.terms
            .iter()
            .map(|t| {
                let [change, ci_low, ci_high] = estimate_cells(Some(t.estimate), Some(t.ci));
                vec![
                    t.column.clone(),
                    cell(Some(t.per)),
                    change,
                    ci_low,
                    ci_high,
                    t.estimator.name().to_owned(),
                ]
            })
            .collect(),
    );
    // the embed's table at the sentences' one precision
    data.decimals = Some(d);
    Parts {
        headline,
        details: sentences,
        caveats,
        method: crate::method::models(lang),
        chart,
        data,
    }
}
