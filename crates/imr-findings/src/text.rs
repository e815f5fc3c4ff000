//! The answers in words: each question's headline, details and caveats generated from the
//! values by the rules of [`crate::words`], with its small chart and the view that has the detail.

use crate::chart::{interval_rows, year_chart_with_copies, Row, Series};
use crate::inequality::{InequalitySeries, SeriesKind};
use crate::parts::{cell, Parts, Table};
use crate::words::{
    decimals_for, interval, number, trend_sentence, years, Direction, MIN_YEARS_FOR_TREND,
};
use crate::{
    Findings, HealthIncomeFinding, InequalityFinding, ModelsFinding, Outcome, RatesFinding,
    Unavailable, WhereFinding,
};
use imr_core::models::Estimator;
use imr_core::Lang;
use serde::Serialize;

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

fn unavailable(lang: Lang, why: &Unavailable) -> String {
    match (why, lang) {
        (Unavailable::NoRates, Lang::Es) => {
            "Los datos no tienen nacimientos y defunciones (o tasa): elíjalos en la vista Datos."
                .into()
        }
        (Unavailable::NoRates, Lang::En) => {
            "The data have no births and deaths (or rate): choose them in the Data view.".into()
        }
        (Unavailable::MissingColumn { column }, Lang::Es) => {
            format!(
                "Los datos no tienen la columna {}.",
                column_words(lang, column)
            )
        }
        (Unavailable::MissingColumn { column }, Lang::En) => {
            format!("The data have no column {}.", column_words(lang, column))
        }
        (
            Unavailable::MissingColumns {
                columns,
                other_columns,
            },
            _,
        ) => {
            let missing = match lang {
                Lang::Es => format!(
                    "Los datos no tienen ninguna de las columnas que usa esta pregunta: {}.",
                    word_list(lang, columns)
                ),
                Lang::En => format!(
                    "The data have none of the columns this question uses: {}.",
                    word_list(lang, columns)
                ),
            };
            missing + &own_columns_hint(lang, other_columns)
        }
        (Unavailable::Engine { message }, Lang::Es) => format!("No se pudo calcular: {message}"),
        (Unavailable::Engine { message }, Lang::En) => format!("Could not compute: {message}"),
    }
}

/// What the reader can do with the numeric columns her data do have when a question's own
/// are missing: " Sus datos tienen otras columnas numéricas: «pobreza_pct»; elíjalas…" (at most
/// five named, then how many more); empty when there are none.
fn own_columns_hint(lang: Lang, columns: &[String]) -> String {
    const NAMED: usize = 5;
    if columns.is_empty() {
        return String::new();
    }
    let named = word_list(lang, &columns[..columns.len().min(NAMED)]);
    let more = columns.len().saturating_sub(NAMED);
    let more = match (more, lang) {
        (0, _) => String::new(),
        (n, Lang::Es) => format!(" y {n} más"),
        (n, Lang::En) => format!(" and {n} more"),
    };
    let (one, many) = match lang {
        Lang::Es => (
            "Sus datos tienen otra columna numérica",
            "Sus datos tienen otras columnas numéricas",
        ),
        Lang::En => (
            "Your data have another numeric column",
            "Your data have other numeric columns",
        ),
    };
    let (has, them) = match (columns.len() == 1, lang) {
        (true, Lang::Es) => (one, "elegirla como variable explicativa"),
        (false, Lang::Es) => (many, "elegirlas como variables explicativas"),
        (true, Lang::En) => (one, "choose it as an explanatory variable"),
        (false, Lang::En) => (many, "choose them as explanatory variables"),
    };
    match lang {
        Lang::Es => format!(" {has}: {named}{more}. Puede {them} en la vista Modelos o como segunda serie en la vista Desigualdad."),
        Lang::En => format!(" {has}: {named}{more}. You can {them} in the Models view or as a second series in the Inequality view."),
    }
}

/// A column as a reader knows it: the codebook's words with the name a file must use
/// ("pobreza por ingresos «pobreza»"), or the name alone in quotes.
fn column_words(lang: Lang, column: &str) -> String {
    let label = imr_core::column_words::short_label(lang, column);
    let quoted = match lang {
        Lang::Es => format!("«{column}»"),
        Lang::En => format!("“{column}”"),
    };
    if label == column {
        quoted
    } else {
        format!("{} {quoted}", lowercase_first(&label))
    }
}

/// `text` with its first letter lowered unless it opens an acronym ("SAPU").
fn lowercase_first(text: &str) -> String {
    let acronym = text.chars().nth(1).is_some_and(char::is_uppercase);
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if !acronym => first.to_lowercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

/// Columns in words, "a, b y c" / "a, b and c".
fn word_list(lang: Lang, names: &[String]) -> String {
    let words: Vec<String> = names.iter().map(|n| column_words(lang, n)).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {} {last}", rest.join(", "), lang.pick("y", "and"))
        }
        _ => words.join(""),
    }
}

impl Answer {
    /// The heading as shown: "3. Are communes growing apart?" (no number for the study).
    pub fn heading(&self) -> String {
        match self.number {
            Some(n) => format!("{n}. {}", self.title),
            None => self.title.clone(),
        }
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
            headline: unavailable(lang, why),
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

/// The cells of an estimate and its 95% interval: `value`, `ci_low`, `ci_high` (empty where there
/// is no value or no interval).
fn estimate_cells(value: Option<f64>, ci: Option<[f64; 2]>) -> [String; 3] {
    [cell(value), cell(ci.map(|c| c[0])), cell(ci.map(|c| c[1]))]
}

fn table(header: &[&str], rows: Vec<Vec<String>>) -> Table {
    Table {
        header: header.iter().map(|h| (*h).to_owned()).collect(),
        rows,
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

fn rates_answer(lang: Lang, f: &RatesFinding, copies: &[(i64, i64)]) -> Parts {
    let name = pooled_rate_name(lang, f.whole_country);
    let last = f.years.iter().rev().find(|y| y.pooled_per_1000.is_some());
    let t = f.trend.as_ref();
    let ci_of = |t: &imr_core::inequality::Trend| t.ci_low.zip(t.ci_high).map(|(a, b)| [a, b]);
    // The answer first ("Yes, it is falling"), then the number of the last year.
    let verdict = t
        .filter(|t| t.n_years >= MIN_YEARS_FOR_TREND)
        .and_then(|t| Some((t, ci_of(t)?)));
    let answer = match (verdict, lang) {
        (None, Lang::Es) => format!(
            "No se puede decir: con {} no se sabe si baja.",
            years(lang, t.map_or(f.years.len(), |t| t.n_years))
        ),
        (None, Lang::En) => format!(
            "Cannot say: with {}, there is no telling whether it is falling.",
            years(lang, t.map_or(f.years.len(), |t| t.n_years))
        ),
        (Some((t, ci)), _) => {
            let d = decimals_for(ci[0].abs().max(ci[1].abs())).max(2);
            let (a, b) = (t.first_time, t.last_time);
            let s = number(lang, t.slope.abs(), d);
            let ci_text = interval(lang, ci, d);
            match (Direction::of(ci, 0.0), lang) {
                (Direction::Below, Lang::Es) => format!("Sí, baja: entre {a} y {b}, {name} bajó {s} por 1.000 nacidos vivos al año ({ci_text})."),
                (Direction::Below, Lang::En) => format!("Yes, it is falling: from {a} to {b}, {name} fell by {s} per 1,000 live births a year ({ci_text})."),
                (Direction::Above, Lang::Es) => format!("No, sube: entre {a} y {b}, {name} subió {s} por 1.000 nacidos vivos al año ({ci_text})."),
                (Direction::Above, Lang::En) => format!("No, it is rising: from {a} to {b}, {name} rose by {s} per 1,000 live births a year ({ci_text})."),
                (Direction::NotDistinguishable, Lang::Es) => format!("No se puede decir que baje: entre {a} y {b}, el cambio de {name} ({} por 1.000 al año; {ci_text}) no se distingue de cero.", number(lang, t.slope, d)),
                (Direction::NotDistinguishable, Lang::En) => format!("Cannot say it is falling: from {a} to {b}, the change in {name} ({} per 1,000 a year; {ci_text}) is not distinguishable from zero.", number(lang, t.slope, d)),
            }
        }
    };
    let headline = match last {
        None => lang
            .pick("No hay tasas que mostrar.", "There are no rates to show.")
            .to_string(),
        Some(y) => {
            let rate = number(lang, y.pooled_per_1000.unwrap_or_default(), 2);
            let ci = y
                .pooled_ci
                .map(|c| format!(" ({})", interval(lang, c, 2)))
                .unwrap_or_default();
            let median = y
                .median_per_1000
                .map(|m| number(lang, m, 2))
                .unwrap_or_else(|| "–".into());
            match lang {
                Lang::Es => format!("{answer} En {} fue {rate} por 1.000 nacidos vivos{ci}; la comuna mediana tuvo {median}.", y.time),
                Lang::En => format!("{answer} In {} it was {rate} per 1,000 live births{ci}; the median commune had {median}.", y.time),
            }
        }
    };
    let details = vec![trend_sentence(
        lang,
        "la tasa de la comuna mediana",
        "the median commune's rate",
        "por 1.000",
        "per 1,000",
        f.median_trend.as_ref().map_or(f.years.len(), |t| t.n_years),
        f.median_trend.as_ref().map_or(0, |t| t.first_time),
        f.median_trend.as_ref().map_or(0, |t| t.last_time),
        f.median_trend.as_ref().map(|t| t.slope),
        f.median_trend.as_ref().and_then(ci_of),
    )];
    let mut caveats = vec![lang
        .pick(
            "El intervalo de la tendencia refleja solo la dispersión entre años.",
            "The trend's interval reflects year-to-year scatter only.",
        )
        .to_string()];
    if f.approximate {
        caveats.push(
            lang.pick(
                "Las defunciones se derivaron de tasas publicadas: los intervalos son aproximados.",
                "Deaths were derived from published rates: the intervals are approximate.",
            )
            .into(),
        );
    }
    let chart = year_chart_with_copies(
        lang,
        &match (f.whole_country, lang) {
            (true, Lang::Es) => "Tasa nacional y mediana comunal por año".to_string(),
            (true, Lang::En) => "National rate and median commune rate per year".to_string(),
            (false, Lang::Es) => {
                "Tasa de las comunas cargadas y mediana comunal por año".to_string()
            }
            (false, Lang::En) => {
                "Rate of the communes loaded and median commune rate per year".to_string()
            }
        },
        &[
            Series {
                name: match (f.whole_country, lang) {
                    (true, Lang::Es) => "Tasa nacional (IC 95%)".into(),
                    (true, Lang::En) => "National rate (95% CI)".into(),
                    (false, Lang::Es) => "Tasa de las comunas (IC 95%)".into(),
                    (false, Lang::En) => "Communes' rate (95% CI)".into(),
                },
                points: f
                    .years
                    .iter()
                    .filter_map(|y| y.pooled_per_1000.map(|r| (y.time, r, y.pooled_ci)))
                    .collect(),
                secondary: false,
            },
            Series {
                name: lang.pick("Mediana comunal", "Median commune").into(),
                points: f
                    .years
                    .iter()
                    .filter_map(|y| y.median_per_1000.map(|m| (y.time, m, None)))
                    .collect(),
                secondary: true,
            },
        ],
        copies,
    );
    let data = table(
        &[
            "year",
            "pooled_rate_per_1000",
            "ci_low",
            "ci_high",
            "median_rate_per_1000",
        ],
        f.years
            .iter()
            .map(|y| {
                let [rate, ci_low, ci_high] = estimate_cells(y.pooled_per_1000, y.pooled_ci);
                vec![
                    y.time.to_string(),
                    rate,
                    ci_low,
                    ci_high,
                    cell(y.median_per_1000),
                ]
            })
            .collect(),
    );
    Parts {
        headline,
        details,
        caveats,
        method: crate::method::rates(lang, f.whole_country),
        chart,
        data,
    }
}

fn measure_name(lang: Lang, f: &InequalityFinding) -> String {
    let s = &f.series;
    lang.pick(&s.measure_es, &s.measure_en).to_string()
}

/// "Depending on how many births the published rates refer to (from 70% to 100% of the births
/// given) and on their rounding, the Gini is between X and Y in 2019 and between … in 2023 (95%
/// CI of range and chance together: …)." For the first and last year with a range; `None`
/// without ranges (counted deaths).
fn range_sentence(lang: Lang, s: &InequalitySeries) -> Option<String> {
    let [low, high] = s.births_ratio?;
    let with: Vec<(i64, [f64; 2], [f64; 2])> = s
        .years
        .iter()
        .filter_map(|y| Some((y.time, y.range?, y.range_ci?)))
        .collect();
    let (first, last) = (with.first()?, with.last()?);
    let ends = if first.0 == last.0 {
        vec![first]
    } else {
        vec![first, last]
    };
    let m = lang.pick(&s.measure_es, &s.measure_en);
    let between: Vec<String> = ends
        .iter()
        .map(|(t, r, _)| imr_core::inequality::answer::year_range_words(lang, *t, *r))
        .collect();
    let cis: Vec<String> = ends
        .iter()
        .map(|(_, _, ci)| {
            let text = interval(lang, *ci, 3);
            // "95% CI 0.000 to 0.070" → "0.000 to 0.070": the sentence names the interval once.
            text.trim_start_matches("95% CI ")
                .trim_start_matches("IC 95%: ")
                .to_string()
        })
        .collect();
    let pct = |c: f64| format!("{}%", number(lang, 100.0 * c, 0));
    let (lo, hi) = (pct(low), pct(high));
    Some(match lang {
        Lang::Es => format!(
            "Según cuántos nacimientos estén detrás de las tasas publicadas (del {lo} al {hi} de los nacimientos dados) y según su redondeo, el {m} {} (IC 95% de rango y azar juntos: {}).",
            between.join(" y "),
            cis.join(" y ")
        ),
        Lang::En => format!(
            "Depending on how many births the published rates refer to (from {lo} to {hi} of the births given) and on their rounding, the {m} {} (95% CI of range and chance together: {}).",
            between.join(" and "),
            cis.join(" and ")
        ),
    })
}

fn inequality_answer(lang: Lang, f: &InequalityFinding, copies: &[(i64, i64)]) -> Parts {
    let s = &f.series;
    let m = measure_name(lang, f);
    // No year the model of true rates can be fitted on, but observed values: say why, and give
    // the observed measure as what it is.
    let observed_last = f.observed.as_ref().and_then(|o| o.years.last());
    let headline = match s.years.last() {
        None if s.kind == SeriesKind::Adjusted && observed_last.is_some() => {
            let o = observed_last.expect("checked");
            let (areas, deaths) = (
                imr_core::inequality::adjusted::MIN_AREAS,
                imr_core::inequality::adjusted::MIN_DEATHS,
            );
            let v = number(lang, o.value, 3);
            match lang {
                Lang::Es => format!("No se puede separar la desigualdad real del azar: ningún año tiene las {areas} comunas y {deaths} defunciones que necesita el modelo. El {m} de las tasas observadas, que incluye el azar, fue {v} en {}.", o.time),
                Lang::En => format!("Real inequality cannot be told from chance: no year has the {areas} communes and {deaths} deaths the model needs. The {m} of the observed rates, chance included, was {v} in {}.", o.time),
            }
        }
        None => lang
            .pick("No hay años que medir.", "There are no years to measure.")
            .to_string(),
        Some(y) => {
            let (year, value) = (y.time, number(lang, y.value, 3));
            let what = match (s.kind, lang) {
                (SeriesKind::Adjusted, Lang::Es) => {
                    "de las tasas sin el azar de las comunas pequeñas"
                }
                (SeriesKind::Adjusted, Lang::En) => {
                    "of the rates without the chance of small communes"
                }
                (SeriesKind::Observed, Lang::Es) => "de las tasas observadas",
                (SeriesKind::Observed, Lang::En) => "of observed rates",
            };
            // An interval reaching zero means the data cannot tell real differences from chance:
            // said in those words, with how large the differences could be, never "0.000" alone.
            match (y.ci, lang) {
                (Some([lo, hi]), Lang::Es) if lo <= 1e-9 && hi.is_finite() => format!(
                    "En {year}, estos datos no distinguen diferencias reales entre comunas más allá del azar: el {m} {what} podría ir de 0 a {} (IC 95%).",
                    number(lang, hi, 3)
                ),
                (Some([lo, hi]), Lang::En) if lo <= 1e-9 && hi.is_finite() => format!(
                    "In {year}, these data cannot tell real differences between communes from chance: the {m} {what} could be anywhere from 0 to {} (95% CI).",
                    number(lang, hi, 3)
                ),
                (ci, Lang::Es) => format!(
                    "En {year}, el {m} {what} entre comunas fue {value}{}.",
                    ci.map(|c| format!(" ({})", interval(lang, c, 3))).unwrap_or_default()
                ),
                (ci, Lang::En) => format!(
                    "In {year}, the {m} {what} across communes was {value}{}.",
                    ci.map(|c| format!(" ({})", interval(lang, c, 3))).unwrap_or_default()
                ),
            }
        }
    };
    let (first, last) = (
        s.years.first().map_or(0, |y| y.time),
        s.years.last().map_or(0, |y| y.time),
    );
    // A trend of no years says nothing: the headline already said why there are none.
    let mut details: Vec<String> = (!s.years.is_empty())
        .then(|| {
            trend_sentence(
                lang,
                &format!("el {m}"),
                &format!("the {m}"),
                "",
                "",
                s.years.len(),
                first,
                last,
                s.slope_per_year,
                s.slope_ci,
            )
        })
        .into_iter()
        .collect();
    if let Some(sentence) = range_sentence(lang, s) {
        details.push(sentence);
    }
    let mut caveats = Vec::new();
    if s.kind == SeriesKind::Adjusted && s.approximate {
        caveats.push(lang.pick(
            "Aproximado: las defunciones se derivaron de tasas publicadas y de los nacimientos, no se contaron.",
            "Approximate: deaths were derived from published rates and births, not counted.",
        ).into());
    }
    if let Some(observed) = &f.observed {
        let (first, last) = (
            observed.years.first().map_or(0, |y| y.time),
            observed.years.last().map_or(0, |y| y.time),
        );
        details.push(trend_sentence(
            lang,
            &format!("el {m} de las tasas observadas (con el azar de las comunas pequeñas)"),
            &format!("the {m} of the observed rates (chance of small communes included)"),
            "",
            "",
            observed.years_in_trend(),
            first,
            last,
            observed.slope_per_year,
            observed.slope_ci,
        ));
    }
    let chart = year_chart_with_copies(
        lang,
        &match (s.years.is_empty(), lang) {
            (false, Lang::Es) => format!("{m} por año (IC 95%)"),
            (false, Lang::En) => format!("{m} per year (95% CI)"),
            (true, Lang::Es) => format!("{m} de las tasas observadas por año"),
            (true, Lang::En) => format!("{m} of the observed rates per year"),
        },
        // A series without a year is not drawn, nor named in the legend.
        &std::iter::once(Series {
            name: format!("{m} ({})", lang.pick("IC 95%", "95% CI")),
            // An open upper limit has no band to draw (the sentence says so).
            points: s
                .years
                .iter()
                .map(|y| (y.time, y.value, y.ci.filter(|c| c[1].is_finite())))
                .collect(),
            secondary: false,
        })
        .filter(|series| !series.points.is_empty())
        .chain(f.observed.as_ref().map(|o| {
            Series {
                name: lang
                    .pick("Gini de las tasas observadas", "Gini of observed rates")
                    .into(),
                points: o.years.iter().map(|y| (y.time, y.value, None)).collect(),
                secondary: true,
            }
        }))
        .collect::<Vec<_>>(),
        copies,
    );
    let data = table(
        &["year", "value", "ci_low", "ci_high", "observed_gini"],
        s.years
            .iter()
            .map(|y| {
                let [value, ci_low, ci_high] = estimate_cells(Some(y.value), y.ci);
                let observed = f
                    .observed
                    .as_ref()
                    .and_then(|o| o.years.iter().find(|o| o.time == y.time))
                    .map(|o| o.value);
                vec![y.time.to_string(), value, ci_low, ci_high, cell(observed)]
            })
            .collect(),
    );
    Parts {
        headline,
        details,
        caveats,
        method: crate::method::inequality(lang, s.approximate),
        chart,
        data,
    }
}

/// The municipal health money a column measures, in words.
fn health_money(lang: Lang, column: &str) -> String {
    match (column, lang) {
        ("gasto_salud_pc", Lang::Es) => "el gasto municipal en salud por habitante".into(),
        ("gasto_salud_pc", Lang::En) => "municipal health spending per inhabitant".into(),
        ("ingreso_salud_pc", Lang::Es) => "el ingreso municipal de salud por habitante".into(),
        ("ingreso_salud_pc", Lang::En) => "municipal health income per inhabitant".into(),
        (other, _) => column_words(lang, other),
    }
}

fn health_income_answer(
    lang: Lang,
    f: &HealthIncomeFinding,
    m: &str,
    copies: &[(i64, i64)],
) -> Parts {
    let c = &f.correlation;
    let n = c.n_years;
    let money = health_money(lang, &f.column);
    // "de el gasto" → "del gasto"
    let of_money = match lang {
        Lang::Es => format!("de {money}").replace("de el ", "del "),
        Lang::En => format!("of {money}"),
    };
    let headline = match (c.pearson, c.pearson_ci) {
        (None, _) => match lang {
            Lang::Es => format!("Con {} en común no se puede calcular una correlación entre la desigualdad de la mortalidad infantil y la {of_money}.", years(lang, n)),
            Lang::En => format!("With {} in common, no correlation between the inequality of infant mortality and that {of_money} can be computed.", years(lang, n)),
        },
        (Some(r), None) => {
            let rt = number(lang, r, 2);
            match lang {
                Lang::Es => format!("Con solo {n} años, la correlación entre el {m} de la mortalidad infantil y el {m} {of_money} (r = {rt}) no tiene intervalo: son muy pocos años para decir si hay relación."),
                Lang::En => format!("With only {n} years, the correlation between the {m} of infant mortality and the {m} {of_money} (r = {rt}) has no interval: too few years to say whether they are linked."),
            }
        }
        (Some(r), Some(ci)) => {
            let rt = number(lang, r, 2);
            let cit = interval(lang, ci, 2);
            let bare = money.trim_start_matches("el ");
            match (Direction::of(ci, 0.0), lang) {
                (Direction::NotDistinguishable, Lang::Es) => format!("En {n} años, la correlación entre el {m} de la mortalidad infantil y el {m} {of_money} es r = {rt} ({cit}): no distinguible de cero."),
                (Direction::NotDistinguishable, Lang::En) => format!("Over {n} years, the correlation between the {m} of infant mortality and the {m} {of_money} is r = {rt} ({cit}): not distinguishable from zero."),
                (Direction::Above, Lang::Es) => format!("En {n} años, los años con {bare} más desigual tuvieron mortalidad infantil más desigual: r = {rt} ({cit}), una asociación."),
                (Direction::Above, Lang::En) => format!("Over {n} years, years with more unequal {bare} had more unequal infant mortality: r = {rt} ({cit}), an association."),
                (Direction::Below, Lang::Es) => format!("En {n} años, los años con {bare} más desigual tuvieron mortalidad infantil menos desigual: r = {rt} ({cit}), una asociación."),
                (Direction::Below, Lang::En) => format!("Over {n} years, years with more unequal {bare} had less unequal infant mortality: r = {rt} ({cit}), an association."),
            }
        }
    };
    let details = match (c.spearman, c.spearman_ci) {
        (Some(rho), Some(ci)) => vec![format!(
            "{} ρ = {} ({}).",
            lang.pick(
                "Con el orden de los años en vez de sus valores:",
                "With the order of the years instead of their values:"
            ),
            number(lang, rho, 2),
            interval(lang, ci, 2)
        )],
        (Some(rho), None) => vec![format!(
            "{} ρ = {}.",
            lang.pick(
                "Con el orden de los años en vez de sus valores:",
                "With the order of the years instead of their values:"
            ),
            number(lang, rho, 2)
        )],
        _ => vec![],
    };
    let caveats = vec![match lang {
        Lang::Es => format!("Solo {n} años: con tan pocos puntos una correlación real puede pasar inadvertida y el intervalo es amplio, y dos series que cambian con los años se correlacionan aun sin vínculo. Es descripción, no evidencia de causa."),
        Lang::En => format!("Only {n} years: with so few points a real correlation can go unnoticed and the interval is wide, and two series that both change over the years correlate even with no link. Read it as description, not evidence of a cause."),
    }];
    let chart = year_chart_with_copies(
        lang,
        &match lang {
            Lang::Es => format!("{m} de la mortalidad infantil y {of_money}"),
            Lang::En => format!("{m} of infant mortality and {of_money}"),
        },
        &[
            Series {
                name: lang.pick("Mortalidad infantil", "Infant mortality").into(),
                points: f
                    .imr_inequality
                    .iter()
                    .map(|&(t, v)| (t, v, None))
                    .collect(),
                secondary: false,
            },
            Series {
                name: match (f.column.as_str(), lang) {
                    ("gasto_salud_pc", Lang::Es) => "Gasto en salud".into(),
                    ("gasto_salud_pc", Lang::En) => "Health spending".into(),
                    (_, Lang::Es) => "Ingreso de salud".into(),
                    (_, Lang::En) => "Health income".into(),
                },
                points: f.income_gini.iter().map(|&(t, v)| (t, v, None)).collect(),
                secondary: true,
            },
        ],
        copies,
    );
    let data = table(
        &["year", "imr_inequality", "health_income_gini"],
        f.imr_inequality
            .iter()
            .map(|&(t, v)| {
                let inc = f.income_gini.iter().find(|p| p.0 == t).map(|p| p.1);
                vec![t.to_string(), cell(Some(v)), cell(inc)]
            })
            .collect(),
    );
    Parts {
        headline,
        details,
        caveats,
        method: crate::method::correlation(lang),
        chart,
        data,
    }
}

/// The words of a covariate the Findings know: what one more unit of it is (`{p}` stands for the
/// amount) and its short label, in Spanish and English.
struct TermWords {
    column: &'static str,
    phrase: [&'static str; 2],
    label: [&'static str; 2],
    /// The characteristic's short name, without an amount (a list of time-invariant ones).
    name: [&'static str; 2],
}

/// The covariates of the bundled panel, in words (public/data/codebook.csv describes the columns).
const TERMS: [TermWords; 6] = [
    TermWords {
        column: "pobreza",
        phrase: [
            "{p} puntos porcentuales más de pobreza por ingresos",
            "{p} percentage points more income poverty",
        ],
        label: ["Pobreza +{p} pp", "Poverty +{p} pp"],
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
        label: ["Sin escolaridad +{p} pp", "No schooling +{p} pp"],
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
fn term_words(
    lang: Lang,
    column: &str,
    p: &str,
    pick: fn(&TermWords) -> &[&'static str; 2],
) -> Option<String> {
    let words = TERMS.iter().find(|t| t.column == column)?;
    let [es, en] = pick(words);
    Some(lang.pick(es, en).replace("{p}", p))
}

/// The change a model sentence is about, in words.
fn term_phrase(lang: Lang, column: &str, per: f64) -> String {
    let p = number(
        lang,
        per,
        decimals_for(per)
            .min(2)
            .min(if per.fract() == 0.0 { 0 } else { 2 }),
    );
    term_words(lang, column, &p, |t| &t.phrase).unwrap_or_else(|| match lang {
        Lang::Es => format!("{p} unidades más de {column}"),
        Lang::En => format!("{p} more units of {column}"),
    })
}

fn term_label(lang: Lang, column: &str, per: f64) -> String {
    let p = number(lang, per, if per.fract() == 0.0 { 0 } else { 2 });
    term_words(lang, column, &p, |t| &t.label).unwrap_or_else(|| format!("{column} +{p}"))
}

/// The model of a sentence in plain words ("fixed effects"); its estimator, standard errors and
/// references are in the answer's "How was it computed?" ([`crate::method::models`]).
fn model_name(lang: Lang, e: Estimator) -> String {
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
fn model_choice(lang: Lang, f: &ModelsFinding) -> Option<String> {
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
            let d = decimals_for(re.ci[0].abs().max(re.ci[1].abs())).max(2);
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

fn models_answer(lang: Lang, f: &ModelsFinding) -> Parts {
    let sentences: Vec<String> = f
        .terms
        .iter()
        .map(|t| {
            let phrase = term_phrase(lang, &t.column, t.per);
            let d = decimals_for(t.ci[0].abs().max(t.ci[1].abs())).max(2);
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
    let headline = match lang {
        Lang::Es => format!("En los modelos de panel ({} observaciones, {} comunas), {k} de {n} características se asocian con la tasa de forma distinguible de cero.", lang.grouped(f.nobs as f64, 0), lang.grouped(f.n_entities as f64, 0)),
        Lang::En => format!("In the panel models ({} observations, {} communes), {k} of {n} characteristics go with the rate in a way distinguishable from zero.", lang.grouped(f.nobs as f64, 0), lang.grouped(f.n_entities as f64, 0)),
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
        let list = f
            .time_invariant
            .iter()
            .map(|c| term_words(lang, c, "", |t| &t.name).unwrap_or_else(|| c.clone()))
            .collect::<Vec<_>>()
            .join(", ");
        caveats.push(match lang {
            Lang::Es => format!("Los efectos fijos comparan cada comuna consigo misma en el tiempo: no estiman factores que no cambian dentro de la comuna ({list}); esos vienen de efectos aleatorios, que suponen que no se relacionan con rasgos no observados de cada comuna."),
            Lang::En => format!("Fixed effects compare each commune with itself over time: they do not estimate factors that do not change within a commune ({list}); those come from random effects, which assume them unrelated to each commune's unobserved traits."),
        });
    }
    if !f.missing.is_empty() {
        let missing = f.missing.join(", ");
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
    let data = table(
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
    Parts {
        headline,
        details: sentences,
        caveats,
        method: crate::method::models(lang),
        chart,
        data,
    }
}

fn where_answer(lang: Lang, f: &WhereFinding) -> Parts {
    let name = |c: &crate::CommuneRate| c.name.clone().unwrap_or_else(|| c.entity.clone());
    // One decimal, two when two communes of the list would read alike: a ranking never shows
    // equal numbers in different places.
    let alike = f.top.windows(2).any(|w| {
        number(lang, w[0].smoothed_per_1000, 1) == number(lang, w[1].smoothed_per_1000, 1)
    });
    let d = if alike { 2 } else { 1 };
    let list = f
        .top
        .iter()
        .map(|c| {
            let ci =
                c.ci.map(|ci| format!("; {}", interval(lang, ci, d)))
                    .unwrap_or_default();
            format!("{} ({}{ci})", name(c), number(lang, c.smoothed_per_1000, d))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let nat = number(lang, f.national_per_1000, 2);
    let (a, b) = (f.first_time, f.last_time);
    let (k, n) = (f.n_above_national, f.n_communes);
    // "the national rate of 7.65 per 1,000 (all communes with data)"
    let reference = match (f.whole_country, lang) {
        (true, Lang::Es) => {
            format!("la tasa nacional de {a}–{b}, {nat} por 1.000 (todas las comunas con datos)")
        }
        (true, Lang::En) => {
            format!("the national rate of {a}–{b}, {nat} per 1,000 (all communes with data)")
        }
        (false, Lang::Es) => format!("la tasa de las comunas cargadas en {a}–{b}, {nat} por 1.000"),
        (false, Lang::En) => format!("the rate of the communes loaded in {a}–{b}, {nat} per 1,000"),
    };
    let named = f.top.len();
    let (tiene, has) = if k == 1 {
        ("tiene", "has")
    } else {
        ("tienen", "have")
    };
    let headline = match (k, lang) {
        (0, Lang::Es) => format!("Ninguna comuna tiene, con {a}–{b} sumados, una tasa distinguible del azar por encima de {reference}: no se puede decir dónde es más alta."),
        (0, Lang::En) => format!("With {a}–{b} pooled, no commune has a rate distinguishable from chance above {reference}: these data cannot say where it is highest."),
        (_, Lang::Es) if named < k => format!("Con {a}–{b} sumados, {k} de {n} comunas {tiene} una tasa claramente sobre {reference}; las más altas son {list} por 1.000."),
        (_, Lang::En) if named < k => format!("With {a}–{b} pooled, {k} of {n} communes {has} a rate clearly above {reference}; the highest are {list} per 1,000."),
        (_, Lang::Es) => format!("Con {a}–{b} sumados, {k} de {n} comunas {tiene} una tasa claramente sobre {reference}: {list} por 1.000."),
        (_, Lang::En) => format!("With {a}–{b} pooled, {k} of {n} communes {has} a rate clearly above {reference}: {list} per 1,000."),
    };
    let details = vec![lang.pick(
        "«Claramente» quiere decir que el intervalo de 95% entero de la tasa suavizada queda sobre esa tasa; las demás comunas pueden estar por encima o por debajo por azar.",
        "\"Clearly\" means that the whole 95% interval of the smoothed rate lies above that rate; the other communes may be above or below it by chance.",
    ).to_string()];
    let caveats = vec![lang.pick(
        "El suavizado acerca las comunas pequeñas a la tasa de referencia, así que una tasa alta aquí descansa en muchos nacimientos o en un exceso persistente.",
        "Smoothing pulls small communes towards the reference rate, so a high rate here rests on many births or a persistent excess.",
    ).into()];
    let rows: Vec<Row> = f
        .top
        .iter()
        .map(|c| Row {
            label: name(c),
            value: c.smoothed_per_1000,
            ci: c.ci,
        })
        .collect();
    let chart = interval_rows(
        lang,
        lang.pick(
            "Tasas suavizadas más altas por 1.000 (IC 95%)",
            "Highest smoothed rates per 1,000 (95% CI)",
        ),
        &rows,
        (
            f.national_per_1000,
            match (f.whole_country, lang) {
                (true, Lang::Es) => "nacional",
                (true, Lang::En) => "national",
                (false, Lang::Es) => "comunas cargadas",
                (false, Lang::En) => "communes loaded",
            },
        ),
    );
    let data = table(
        &[
            "code",
            "name",
            "smoothed_rate_per_1000",
            "ci_low",
            "ci_high",
            "raw_rate_per_1000",
            "births",
        ],
        f.top
            .iter()
            .map(|c| {
                let [smoothed, ci_low, ci_high] = estimate_cells(Some(c.smoothed_per_1000), c.ci);
                vec![
                    c.entity.clone(),
                    c.name.clone().unwrap_or_default(),
                    smoothed,
                    ci_low,
                    ci_high,
                    cell(Some(c.raw_per_1000)),
                    cell(Some(c.births)),
                ]
            })
            .collect(),
    );
    Parts {
        headline,
        details,
        caveats,
        method: crate::method::smoothed(lang),
        chart,
        data,
    }
}

impl Findings {
    /// The answers in `lang`: the one on the reference study when there is one
    /// ([`crate::STUDY_QUESTION`]), then the five in the order of [`crate::QUESTIONS`].
    pub fn answers(&self, lang: Lang) -> Vec<Answer> {
        let m = self
            .inequality
            .as_ref()
            .map(|f| measure_name(lang, f))
            .unwrap_or_else(|_| "Gini".into());
        // The years that repeat the previous one (left out of trends): every year chart marks them.
        let copies: Vec<(i64, i64)> = self
            .repeated_left_out
            .iter()
            .map(|r| (r.time, r.repeat_of))
            .collect();
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
                    parts
                }),
                answer_or(lang, "inequality", &self.inequality, |f| {
                    let mut parts = inequality_answer(lang, f, &copies);
                    if self.bundled_data {
                        parts
                            .caveats
                            .insert(0, bundled_births_note(lang).to_string());
                    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_few_years_are_counted_in_the_singular_and_the_plural() {
        let sentence = |lang, n| {
            trend_sentence(
                lang, "la tasa", "the rate", "", "", n, 2023, 2023, None, None,
            )
        };
        for (lang, n, expected) in [
            (
                Lang::En,
                1,
                "With 1 year, too few years to say whether the rate is falling or rising.",
            ),
            (
                Lang::En,
                0,
                "With 0 years, too few years to say whether the rate is falling or rising.",
            ),
            (
                Lang::Es,
                1,
                "Con 1 año, son muy pocos años para decir si la tasa baja o sube.",
            ),
            (
                Lang::Es,
                2,
                "Con 2 años, son muy pocos años para decir si la tasa baja o sube.",
            ),
        ] {
            assert_eq!(sentence(lang, n), expected);
        }
    }

    /// Question 4's choice of model says what the Hausman test found, never that it rejected
    /// random effects when it did not; and, when random effects estimated no variance between
    /// communes, that they are then a pooled comparison of different communes.
    #[test]
    fn the_model_choice_says_what_the_hausman_test_and_random_effects_found() {
        let term = |estimator, ci: [f64; 2]| crate::ModelTerm {
            column: "pobreza".into(),
            per: 10.0,
            estimate: (ci[0] + ci[1]) / 2.0,
            ci,
            estimator,
        };
        let finding = |p: f64, pooled: bool| ModelsFinding {
            outcome: "rate".into(),
            terms: vec![term(Estimator::Fe, [-0.5, 0.5])],
            random_effects: vec![term(Estimator::Re, [0.1, 0.9])],
            hausman_p: Some(p),
            random_effects_pooled: pooled,
            time_invariant: vec![],
            missing: vec![],
            nobs: 2387,
            n_entities: 344,
        };
        let rejects = model_choice(Lang::Es, &finding(0.01, false)).unwrap();
        assert!(rejects.contains("(p = 0,010) rechaza"), "{rejects}");
        assert!(!rejects.contains("no rechaza"), "{rejects}");
        let keeps = model_choice(Lang::Es, &finding(0.054, true)).unwrap();
        assert!(keeps.contains("(p = 0,054) no rechaza"), "{keeps}");
        assert!(keeps.contains("no prueba que sea válido"), "{keeps}");
        // The term whose interval excludes zero under random effects only is named.
        assert!(
            keeps.contains("cambia la conclusión sobre: 10 puntos porcentuales"),
            "{keeps}"
        );
        assert!(
            keeps.contains("varianza entre comunas igual a cero"),
            "{keeps}"
        );
        let en = model_choice(Lang::En, &finding(0.054, false)).unwrap();
        assert!(
            en.contains("does not reject") && !en.contains("variance between communes of zero"),
            "{en}"
        );
        // The headline's count of observations has its thousands separator.
        let headline = models_answer(Lang::Es, &finding(0.054, false)).headline;
        assert!(
            headline.contains("(2.387 observaciones, 344 comunas)"),
            "{headline}"
        );
    }

    /// Two communes that would read alike at one decimal are written with two: the ranking never
    /// prints equal numbers in different places (the newcomer's "Arauco (9,5) … Cañete (9,5)").
    #[test]
    fn communes_that_would_read_alike_are_written_with_more_decimals() {
        let commune = |name: &str, rate: f64| crate::CommuneRate {
            entity: name.into(),
            name: Some(name.into()),
            smoothed_per_1000: rate,
            ci: Some([rate - 1.0, rate + 1.0]),
            raw_per_1000: rate,
            births: 1000.0,
        };
        let finding = |rates: &[f64]| WhereFinding {
            first_time: 2001,
            last_time: 2021,
            national_per_1000: 7.65,
            whole_country: true,
            top: rates
                .iter()
                .enumerate()
                .map(|(i, r)| commune(&format!("C{i}"), *r))
                .collect(),
            n_above_national: rates.len(),
            n_communes: 345,
        };
        let tied = where_answer(Lang::Es, &finding(&[10.15, 9.54, 9.53])).headline;
        assert!(
            tied.contains("C1 (9,54;") && tied.contains("C2 (9,53;"),
            "{tied}"
        );
        let apart = where_answer(Lang::Es, &finding(&[10.15, 9.54, 9.13])).headline;
        assert!(
            apart.contains("C1 (9,5;") && apart.contains("C2 (9,1;"),
            "{apart}"
        );
    }

    /// One commune above the reference is "1 de 345 comunas tiene", never "tienen".
    #[test]
    fn one_commune_above_takes_the_singular() {
        let one = WhereFinding {
            first_time: 2001,
            last_time: 2021,
            national_per_1000: 7.65,
            whole_country: true,
            top: vec![crate::CommuneRate {
                entity: "08301".into(),
                name: Some("Antuco".into()),
                smoothed_per_1000: 15.3,
                ci: Some([7.5, 25.8]),
                raw_per_1000: 15.3,
                births: 300.0,
            }],
            n_above_national: 1,
            n_communes: 345,
        };
        let es = where_answer(Lang::Es, &one).headline;
        assert!(es.contains("1 de 345 comunas tiene una tasa"), "{es}");
        let en = where_answer(Lang::En, &one).headline;
        assert!(en.contains("1 of 345 communes has a rate"), "{en}");
    }

    /// Every covariate of the study's preset (imr_data::study, the one list of them) has the
    /// Findings' words: a sentence never falls back to "unidades más de pobreza".
    #[test]
    fn every_study_covariate_has_its_words() {
        for c in imr_core::data::study::STUDY_COVARIATES {
            assert!(TERMS.iter().any(|t| t.column == c.column), "{}", c.column);
        }
    }

    #[test]
    fn every_question_has_its_own_title_in_both_languages() {
        for lang in [Lang::Es, Lang::En] {
            let titles: std::collections::BTreeSet<_> = crate::QUESTIONS
                .iter()
                .map(|q| question_title_and_view(lang, q).0)
                .collect();
            assert_eq!(titles.len(), crate::QUESTIONS.len(), "{lang:?}");
        }
    }

    #[test]
    fn a_known_covariate_is_worded_with_its_amount_and_an_unknown_one_by_its_name() {
        assert_eq!(
            term_phrase(Lang::En, "pobreza", 10.0),
            "10 percentage points more income poverty"
        );
        assert_eq!(
            term_phrase(Lang::Es, "dist_hospital_km", 10.0),
            "10 km más de distancia al hospital de segundo o tercer nivel más cercano"
        );
        assert_eq!(
            term_label(Lang::Es, "ingreso_salud_pc", 10.0),
            "Ingreso salud +M$10"
        );
        assert_eq!(term_label(Lang::En, "sapu", 1.0), "SAPU/SAR");
        assert_eq!(term_phrase(Lang::Es, "otra", 1.0), "1 unidades más de otra");
        assert_eq!(term_label(Lang::En, "otra", 1.0), "otra +1");
        // The label's name without its amount, as the time-invariant list writes it.
        let name = |lang, column| term_words(lang, column, "", |t| &t.name);
        assert_eq!(
            name(Lang::En, "dist_hospital_km").as_deref(),
            Some("Hospital dist.")
        );
        assert_eq!(
            name(Lang::Es, "sin_educacion_formal_2017").as_deref(),
            Some("Sin escolaridad")
        );
        for t in &TERMS {
            for (label, name) in t.label.iter().zip(t.name) {
                assert!(label.starts_with(name), "{label} / {name}");
            }
        }
    }
}
