//! The answers in words: each question's headline, details and caveats generated from the
//! values by the rules of [`crate::words`], with its small chart and the view that has the detail.

mod health;
mod inequality;
mod models;
mod place;
mod rates;
#[cfg(test)]
mod tests;
mod unavailable;

use crate::chart::{interval_rows, year_chart_labelled, Row, Series};
use crate::parts::{cell, Parts, Table};
use crate::words::{
    decimals_for, interval, number, trend_sentence, years, Direction, MIN_YEARS_FOR_TREND,
};
use crate::{Findings, ModelsFinding, Outcome, RatesFinding, Unavailable, WhereFinding};
use health::health_income_answer;
use imr_core::models::Estimator;
use imr_core::Lang;
use inequality::{inequality_answer, measure_name};
pub(crate) use models::data_cell_es;
use models::models_answer;
pub use models::{plot_terms, PlotTerms};
use place::where_answer;
use rates::rates_answer;
use serde::Serialize;
use unavailable::unavailable;

/// One question answered: what the page and the report show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The test id of the question (`study`, `rates`, `inequality`, `health-income`, `models`,
    /// `where`).
    pub question: &'static str,
    /// Its number among the five questions (1–5); `None` for the answer on the study.
    pub number: Option<usize>,
    /// The question itself.
    pub title: String,
    /// The one-sentence answer.
    pub headline: String,
    /// Further sentences with numbers.
    pub details: Vec<String>,
    /// What the answer cannot say.
    pub caveats: Vec<String>,
    /// How it was computed: a short glossary of the terms and methods behind the numbers, shown
    /// folded under the answer ("¿Cómo se calculó?").
    pub method: Vec<crate::method::Term>,
    /// What the chart measures, in words (its SVG `<title>`; empty without a chart).
    pub chart_title: String,
    /// A small inline SVG chart (empty when there is nothing to draw).
    pub chart_svg: String,
    /// The numbers the chart draws.
    pub data: Table,
    /// The page view with the detail (`data`, `inequality`, `models`, `map`).
    pub view: &'static str,
}

impl Answer {
    /// The heading as shown: "3. Are communes growing apart?" (no number for the study).
    pub fn heading(&self) -> String {
        match self.number {
            Some(n) => format!("{n}. {}", self.title),
            None => self.title.clone(),
        }
    }

    /// Whether the answer has a figure to embed in an article: a chart. An unanswered question
    /// (no chart, its headline the reason) offers none: its snippet would publish the reason.
    pub fn has_figure(&self) -> bool {
        !self.chart_svg.is_empty()
    }
}

/// A question's title in `lang` and the view that answers it in full, by its id in
/// [`crate::QUESTIONS`].
fn question_title_and_view(lang: Lang, question: &str) -> (&'static str, &'static str) {
    match question {
        "rates" => (
            lang.pick(
                "¿Baja la mortalidad infantil?",
                "Is infant mortality falling?",
            ),
            "data",
        ),
        "inequality" => (
            lang.pick("¿Se separan las comunas?", "Are communes growing apart?"),
            "inequality",
        ),
        "health-income" => (
            lang.pick(
                "¿Va con la desigualdad del dinero municipal para salud?",
                "Does it go with unequal municipal health money?",
            ),
            "inequality",
        ),
        "study" => (
            lang.pick(
                "¿Confirman estos datos el estudio?",
                "Do these data bear out the study?",
            ),
            "inequality",
        ),
        "models" => (
            lang.pick(
                "¿Qué va con una mortalidad más alta?",
                "What goes with higher mortality?",
            ),
            "models",
        ),
        _ => (
            lang.pick("¿Dónde es más alta?", "Where is it highest?"),
            "map",
        ),
    }
}

fn answer_or<T>(
    lang: Lang,
    question: &'static str,
    outcome: &Outcome<T>,
    render: impl FnOnce(&T) -> Parts,
) -> Answer {
    let (title, view) = question_title_and_view(lang, question);
    let Parts {
        headline,
        details,
        caveats,
        method,
        chart,
        data,
    } = match outcome {
        Ok(v) => render(v),
        Err(why) => Parts {
            headline: unavailable(lang, why, None),
            details: vec![],
            caveats: vec![],
            method: vec![],
            chart: crate::chart::Chart::default(),
            data: Table::default(),
        },
    };
    Answer {
        question,
        number: crate::QUESTIONS
            .iter()
            .position(|q| *q == question)
            .map(|k| k + 1),
        title: title.into(),
        headline,
        details,
        caveats,
        method,
        chart_title: chart.title,
        chart_svg: chart.svg,
        data,
        view,
    }
}

/// What the bundled dataset's counts are and what that means for the inequality answer, in one
/// plain sentence: the Findings' inequality caveat on the bundled data, and the Inequality
/// view's note (public/data/SOURCES.md).
pub fn bundled_births_note(lang: Lang) -> &'static str {
    lang.pick(
        "Sobre los datos incluidos: las defunciones de 2001–2015 son las publicadas por el INE; las de 2017–2019 y 2021 se reconstruyeron de la tasa entera que publica SINIM con los nacidos vivos del INE (donde varias cifras calzan, el intervalo las incluye); 2016 y 2020 no tienen datos comunales publicados. Los nacimientos de 2001–2009 (microdatos del Ministerio de Salud) suman cerca de 5% menos que los inscritos, lo que sube la tasa nacional de esos años pero no cambia la desigualdad entre comunas. Una desigualdad ajustada cercana a cero significa que estos datos no distinguen diferencias reales entre comunas del azar, no que no las haya.",
        "About the bundled data: the deaths of 2001–2015 are INE's published counts; those of 2017–2019 and 2021 were reconstructed from SINIM's integer rate and INE's births (where several counts fit, the interval includes them); 2016 and 2020 have no published commune figures. The births of 2001–2009 (health ministry microdata) sum to about 5% fewer than the registered births, which raises those years' national rate but does not change the inequality between communes. An adjusted inequality near zero means these data cannot tell real differences between communes from chance, not that there are none.",
    )
}

/// What the bundled dataset's births mean for the rates' trend (question 1): the births of
/// 2001–2009 fall short of the registered ones, which raises those years' rates.
pub fn bundled_rates_note(lang: Lang) -> &'static str {
    lang.pick(
        "Sobre los datos incluidos: los nacimientos de 2001–2009 (microdatos del Ministerio de Salud) suman cerca de 5% menos que los inscritos, así que la tasa de esos años sale algo más alta y la baja desde ellos, algo exagerada; 2016 y 2020 no tienen datos comunales publicados.",
        "About the bundled data: the births of 2001–2009 (health ministry microdata) sum to about 5% fewer than the registered births, so those years' rates come out somewhat higher and the fall since them somewhat overstated; 2016 and 2020 have no published commune figures.",
    )
}

/// What the vertical axis of a chart of an inequality measure `m` measures, above it: "Gini (0 =
/// igualdad)" (every measure the answers draw is 0 when all communes have the same rate).
fn inequality_axis_label(lang: Lang, m: &str) -> String {
    format!("{m} ({})", lang.pick("0 = igualdad", "0 = equality"))
}

/// The cells of an estimate and its 95% interval: `value`, `ci_low`, `ci_high` (empty where there
/// is no value or no interval).
fn estimate_cells(value: Option<f64>, ci: Option<[f64; 2]>) -> [String; 3] {
    [cell(value), cell(ci.map(|c| c[0])), cell(ci.map(|c| c[1]))]
}

fn table(header: &[&str], rows: Vec<Vec<String>>) -> Table {
    Table {
        header: header.iter().map(|h| (*h).to_owned()).collect(),
        rows,
        decimals: None,
    }
}

/// The pooled rate named in words: national when the data are the whole country, else the rate
/// of the communes loaded (one definition everywhere: every commune-year with births, pooled).
pub(crate) fn pooled_rate_name(lang: Lang, whole_country: bool) -> &'static str {
    match (whole_country, lang) {
        (true, Lang::Es) => "la tasa nacional (todas las comunas con datos)",
        (true, Lang::En) => "the national rate (all communes with data)",
        (false, Lang::Es) => "la tasa de las comunas cargadas",
        (false, Lang::En) => "the rate of the communes loaded",
    }
}

impl Findings {
    /// What every chart over the years marks: each copied year (left out of the trends or
    /// included) and each year whose deaths were reconstructed.
    pub fn year_marks(&self) -> imr_core::inequality::YearMarks {
        imr_core::inequality::YearMarks {
            copies: (self.copied_years.iter())
                .map(|r| (r.time, r.repeat_of))
                .collect(),
            reconstructed: imr_core::reconstructed::times(&self.reconstructed_years),
        }
    }

    /// The answers in `lang`: the one on the reference study when there is one
    /// ([`crate::STUDY_QUESTION`]), then the five in the order of [`crate::QUESTIONS`].
    pub fn answers(&self, lang: Lang) -> Vec<Answer> {
        let m = self
            .inequality
            .as_ref()
            .map(|f| measure_name(lang, f))
            .unwrap_or_else(|_| "Gini".into());
        // The years that repeat the previous one, left out of the trends or included, and
        // those whose deaths were reconstructed: every year chart marks them either way.
        let copies = self.year_marks();
        let study = self.study.as_ref().map(|c| {
            let ok: Outcome<&crate::StudyComparison> = Ok(c);
            let approximate = self.inequality.as_ref().is_ok_and(|f| f.series.approximate);
            answer_or(lang, crate::STUDY_QUESTION, &ok, |c| {
                crate::study::study_answer(lang, c, self.bundled_data, approximate, &copies)
            })
        });
        study
            .into_iter()
            .chain([
                answer_or(lang, "rates", &self.rates, |f| {
                    let mut parts = rates_answer(lang, f, &copies);
                    if self.bundled_data {
                        parts
                            .caveats
                            .insert(0, bundled_rates_note(lang).to_string());
                    }
                    parts.caveats.extend(self.reconstructed_note(lang));
                    parts
                }),
                answer_or(lang, "inequality", &self.inequality, |f| {
                    let mut parts = inequality_answer(lang, f, &copies);
                    if self.bundled_data {
                        parts
                            .caveats
                            .insert(0, bundled_births_note(lang).to_string());
                    }
                    parts.caveats.extend(self.reconstructed_note(lang));
                    parts
                }),
                answer_or(lang, "health-income", &self.health_income, |f| {
                    health_income_answer(lang, f, &m, &copies)
                }),
                answer_or(lang, "models", &self.models, |f| models_answer(lang, f)),
                answer_or(lang, "where", &self.where_highest, |f| {
                    where_answer(lang, f)
                }),
            ])
            .collect()
    }

    /// The caveat of the answers over the years when some of the years they cover have deaths
    /// reconstructed from a published rate: which years, what that means, how the charts mark
    /// them. `None` when none does.
    pub fn reconstructed_note(&self, lang: Lang) -> Option<String> {
        let years: Vec<i64> = imr_core::reconstructed::times(&self.reconstructed_years)
            .into_iter()
            .filter(|t| self.span.is_none_or(|[a, b]| (a..=b).contains(t)))
            .collect();
        (!years.is_empty()).then(|| {
            let years = lang.years(&years);
            match lang {
                Lang::Es => format!(
                    "Las defunciones de {years} no son conteos publicados: se reconstruyeron de la tasa entera que publicó la fuente y de los nacimientos de cada año, así que sus tasas son cercanas a las reales, no iguales. En los gráficos son rombos."
                ),
                Lang::En => format!(
                    "The deaths of {years} are not published counts: they were reconstructed from the whole-number rate the source published and each year's births, so their rates are close to the real ones, not equal to them. The charts draw them as diamonds."
                ),
            }
        })
    }

    /// The one sentence on the years left out of the trends and the correlation as repeats of
    /// the previous year, when there are some.
    pub fn repeated_note(&self, lang: Lang) -> Option<String> {
        imr_core::repeats::RepeatedYear::left_out_text(&self.repeated_left_out, lang)
    }

    /// The warning, first above the answers, when the published rates describe an earlier year
    /// than the one they carry and the lag was not applied: a journalist would otherwise
    /// publish SINIM's rates of 2017–2021 as 2019–2023.
    pub fn lag_note(&self, lang: Lang) -> Option<String> {
        let lag = self.unapplied_rate_lag.as_ref()?;
        let (k, fits, testable) = (
            lag.lag,
            lang.grouped(lag.fits as f64, 0),
            lang.grouped(lag.testable as f64, 0),
        );
        // The last year as an example: "the rate «of 2023» is 2021's".
        let example = self.span.map(|[_, last]| match lang {
            Lang::Es => format!(
                ", así que la tasa «de {last}» es la de {}",
                last - i64::from(k)
            ),
            Lang::En => format!(", so the rate \"of {last}\" is {}'s", last - i64::from(k)),
        });
        let example = example.unwrap_or_default();
        Some(match lang {
            Lang::Es => format!(
                "Atención: estas tasas publicadas describen un año anterior al que llevan. La tasa de cada año calza con los nacimientos de {} antes ({fits} de {testable} comunas comprobables){example}. Las respuestas usan el año con que se publicaron; en la vista Datos, «Usar el desfase encontrado» pone cada tasa en el año que describe.",
                years(lang, k as usize)
            ),
            Lang::En => format!(
                "Warning: these published rates describe an earlier year than the one they carry. Each year's rate fits the births of {} before ({fits} of {testable} testable communes){example}. The answers use the year they were published with; in the Data view, \"Use the lag found\" puts each rate in the year it describes.",
                years(lang, k as usize)
            ),
        })
    }

    /// The years the answers cover, when a request chose a span ("Respuestas sobre 2001–2011.").
    pub fn span_note(&self, lang: Lang, chosen: bool) -> Option<String> {
        let [a, b] = self.span?;
        chosen.then(|| match lang {
            Lang::Es => format!(
                "Respuestas sobre {a}–{b} (la respuesta sobre el estudio lee todos los años)."
            ),
            Lang::En => format!("Answers on {a}–{b} (the answer on the study reads every year)."),
        })
    }

    /// The note on implausible rows, when some were left out.
    pub fn flagged_note(&self, lang: Lang) -> Option<String> {
        let k = self.flagged_left_out;
        (k > 0).then(|| match lang {
            Lang::Es => format!("{k} filas marcadas como inverosímiles quedan fuera de estas respuestas (ver la vista Datos)."),
            Lang::En => format!("{k} rows flagged as implausible are left out of these answers (see the Data view)."),
        })
    }
}
