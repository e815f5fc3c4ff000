//! Question 2: are communes growing apart?

use super::*;
use crate::inequality::{InequalitySeries, SeriesKind};
use crate::InequalityFinding;

pub(super) fn measure_name(lang: Lang, f: &InequalityFinding) -> String {
    let s = &f.series;
    lang.pick(&s.measure_es, &s.measure_en).to_string()
}

/// "Depending on how many births the published rates refer to (from 70% to 100% of the births
/// given) and on their rounding, the Gini is between X and Y in 2019 and between … in 2023 (95%
/// CI of range and chance together: …)." For the first and last year with a range; `None`
/// without ranges (counted deaths).
pub(super) fn range_sentence(lang: Lang, s: &InequalitySeries) -> Option<String> {
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

pub(super) fn inequality_answer(
    lang: Lang,
    f: &InequalityFinding,
    marks: &imr_core::inequality::YearMarks,
) -> Parts {
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
                (SeriesKind::Adjusted, Lang::Es) => "ajustado por el azar",
                (SeriesKind::Adjusted, Lang::En) => "adjusted for chance",
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
                // the years the trend rests on: a copied year is drawn but not counted
                s.years_in_trend(),
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
    let chart = year_chart_labelled(
        lang,
        &match (s.years.is_empty(), lang) {
            (false, Lang::Es) => format!("{m} por año (IC 95%)"),
            (false, Lang::En) => format!("{m} per year (95% CI)"),
            (true, Lang::Es) => format!("{m} de las tasas observadas por año"),
            (true, Lang::En) => format!("{m} of the observed rates per year"),
        },
        &inequality_axis_label(lang, &m),
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
        marks,
    );
    // The series' column named for what it is ("Gini ajustado" in the embed's table, where
    // "Valor" said nothing).
    let value_column = match s.kind {
        SeriesKind::Adjusted => "adjusted_gini",
        SeriesKind::Observed => "gini",
    };
    let data = table(
        &["year", value_column, "ci_low", "ci_high", "observed_gini"],
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
