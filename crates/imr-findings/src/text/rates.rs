//! Question 1: is infant mortality falling?

use super::*;

pub(super) fn rates_answer(
    lang: Lang,
    f: &RatesFinding,
    marks: &imr_core::inequality::YearMarks,
) -> Parts {
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
            // Without a trend the answer names no rate: the number says which it is ("En 2021
            // fue 5,31" after an upload left the reader asking of what).
            let (es, en) = match verdict {
                Some(_) => (String::new(), " it".to_string()),
                None => (format!(", {name}"), format!(", {name}")),
            };
            match lang {
                Lang::Es => format!("{answer} En {}{es} fue {rate} por 1.000 nacidos vivos{ci}; la comuna mediana tuvo {median}.", y.time),
                Lang::En => format!("{answer} In {}{en} was {rate} per 1,000 live births{ci}; the median commune had {median}.", y.time),
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
    // What a trend's interval reflects, said only under an answer that gives one (a two-year
    // file has a slope and no interval).
    let stated = verdict.is_some() || f.median_trend.as_ref().and_then(ci_of).is_some();
    let mut caveats: Vec<String> = stated
        .then(|| {
            lang.pick(
                "El intervalo de la tendencia refleja solo la dispersión entre años.",
                "The trend's interval reflects year-to-year scatter only.",
            )
            .to_string()
        })
        .into_iter()
        .collect();
    if f.approximate {
        caveats.push(
            lang.pick(
                "Las defunciones se derivaron de tasas publicadas: los intervalos son aproximados.",
                "Deaths were derived from published rates: the intervals are approximate.",
            )
            .into(),
        );
    }
    let chart = year_chart_labelled(
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
        lang.pick("Por 1.000 nacidos vivos", "Per 1,000 live births"),
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
        marks,
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
