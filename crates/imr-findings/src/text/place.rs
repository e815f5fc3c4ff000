//! Question 5: where is it highest?

use super::*;

pub(super) fn where_answer(lang: Lang, f: &WhereFinding) -> Parts {
    let name = |c: &crate::CommuneRate| c.name.clone().unwrap_or_else(|| c.entity.clone());
    // Two decimals, as every rate of the page and the reference beside them (one decimal here,
    // two in another file's answer, read as a change of precision); three when two communes of
    // the list would read alike: a ranking never shows equal numbers in different places.
    let alike = f.top.windows(2).any(|w| {
        number(lang, w[0].smoothed_per_1000, 2) == number(lang, w[1].smoothed_per_1000, 2)
    });
    let d = if alike { 3 } else { 2 };
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
    // The years summed, as spans: "2001–2015, 2017–2019 y 2021", never a span over a year
    // without data.
    let years = lang.years(&f.years);
    let (k, n) = (f.n_above_national, f.n_communes);
    // The reference is the rate of every commune-year pooled over the span (the smoothing's
    // prior), not any year's national rate: it is named as what it is ("all communes with data,
    // those years together"), and "the communes loaded" when the data are not the whole country.
    let one_year = f.years.len() == 1;
    let reference = reference_rate(lang, f.whole_country, &nat, one_year);
    // "Con 2019 y 2021 sumados", or "En 2021" for one year (nothing is summed).
    let (with_years_es, with_years_en) = if one_year {
        (format!("En {years}"), format!("In {years}"))
    } else {
        (
            format!("Con {years} sumados"),
            format!("With {years} pooled"),
        )
    };
    let within_es = with_years_es.to_lowercase();
    let named = f.top.len();
    let (tiene, has) = if k == 1 {
        ("tiene", "has")
    } else {
        ("tienen", "have")
    };
    let headline = match (k, lang) {
        (0, Lang::Es) => format!("Ninguna comuna tiene, {within_es}, una tasa distinguible del azar por encima de {reference}: no se puede decir dónde es más alta."),
        (0, Lang::En) => format!("{with_years_en}, no commune has a rate distinguishable from chance above {reference}: these data cannot say where it is highest."),
        (_, Lang::Es) if named < k => format!("{with_years_es}, {k} de {n} comunas {tiene} una tasa claramente sobre {reference}; las más altas son {list} por 1.000."),
        (_, Lang::En) if named < k => format!("{with_years_en}, {k} of {n} communes {has} a rate clearly above {reference}; the highest are {list} per 1,000."),
        (_, Lang::Es) => format!("{with_years_es}, {k} de {n} comunas {tiene} una tasa claramente sobre {reference}: {list} por 1.000."),
        (_, Lang::En) => format!("{with_years_en}, {k} of {n} communes {has} a rate clearly above {reference}: {list} per 1,000."),
    };
    // The word the headline used: "clearly" when it names communes, "distinguishable from
    // chance" when it names none.
    let details = vec![if k == 0 {
        lang.pick(
            "«Distinguible del azar» quiere decir que el intervalo de 95% entero de la tasa suavizada quedaría sobre esa tasa; ninguna comuna lo cumple.",
            "\"Distinguishable from chance\" means that the whole 95% interval of the smoothed rate would lie above that rate; no commune's does.",
        )
    } else {
        lang.pick(
            "«Claramente» quiere decir que el intervalo de 95% entero de la tasa suavizada queda sobre esa tasa; las demás comunas pueden estar por encima o por debajo por azar.",
            "\"Clearly\" means that the whole 95% interval of the smoothed rate lies above that rate; the other communes may be above or below it by chance.",
        )
    }
    .to_string()];
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
    // No commune named, nothing to draw: an axis alone (a reference line and no commune) was
    // drawn, embedded and printed (issue 42 re-run).
    let chart = if rows.is_empty() {
        crate::chart::Chart::default()
    } else {
        interval_rows(
            lang,
            lang.pick(
                "Tasas suavizadas más altas por 1.000 (IC 95%)",
                "Highest smoothed rates per 1,000 (95% CI)",
            ),
            &rows,
            (
                f.national_per_1000,
                match (f.whole_country, lang) {
                    (true, Lang::Es) => "todas las comunas",
                    (true, Lang::En) => "all communes",
                    (false, Lang::Es) => "comunas cargadas",
                    (false, Lang::En) => "communes loaded",
                },
            ),
        )
    };
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

/// Question 5's reference in words: the rate of all the communes with data (or of the communes
/// loaded, when they are not the whole country) with the years pooled, never "national" (which
/// on every other view is one year's rate), and its value `nat`.
pub(super) fn reference_rate(lang: Lang, whole_country: bool, nat: &str, one_year: bool) -> String {
    let (years_es, years_en) = if one_year {
        ("en ese año", "in that year")
    } else {
        ("en esos años juntos", "over those years together")
    };
    match (whole_country, lang) {
        (true, Lang::Es) => {
            format!("la tasa de todas las comunas con datos {years_es} ({nat} por 1.000)")
        }
        (true, Lang::En) => {
            format!("the rate of all communes with data {years_en} ({nat} per 1,000)")
        }
        (false, Lang::Es) => {
            format!("la tasa de las comunas cargadas {years_es} ({nat} por 1.000)")
        }
        (false, Lang::En) => {
            format!("the rate of the communes loaded {years_en} ({nat} per 1,000)")
        }
    }
}
