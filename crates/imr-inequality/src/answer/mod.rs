//! The answer the Inequality view leads with, as a typed value rendered per language, and the
//! chart of an adjusted measure over the years with its interval band.

use crate::adjusted::{AdjustedMeasure, AdjustedTrend, AdjustedYear, BirthsRatioRange};
use crate::chart::{line_chart_svg_in, LineChart};
use crate::report::{InequalityReport, SeriesPoint};
use imr_stats::{Caption, Lang};

mod noise;
mod quote;

pub use quote::{no_answer_reason, which_gini_to_quote};

/// An adjusted value of one year with its interval (upper limit +∞ when open).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct YearValue {
    pub time: i64,
    pub value: f64,
    pub ci: [f64; 2],
    /// With deaths derived from published rates: the range over the births ratio and the
    /// rounding, and the interval of range and intervals together ([`crate::adjusted::sensitivity`]).
    pub range: Option<[f64; 2]>,
    pub range_ci: Option<[f64; 2]>,
}

impl YearValue {
    /// Its interval reaches zero ([`interval_reaches_zero`]): said in words
    /// ("indistinguishable from zero, it could reach …").
    pub(crate) fn indistinguishable_from_zero(&self) -> bool {
        interval_reaches_zero(self.ci)
    }

    /// `measure` of an adjusted year.
    pub fn of(a: &AdjustedYear, measure: AdjustedMeasure) -> YearValue {
        YearValue {
            time: a.time,
            value: a.value(measure),
            ci: a.interval(measure),
            range: a.sensitivity.as_ref().map(|s| s.range(measure)),
            range_ci: a.sensitivity.as_ref().map(|s| s.interval(measure)),
        }
    }
}

/// "Between 2019 and 2023 the inequality of true infant mortality across communes went from …
/// to … ; about …% of the observed inequality is random variation from small numbers of
/// births." For the birth-weighted Gini.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Answer {
    pub first: YearValue,
    /// `None` with one year.
    pub last: Option<YearValue>,
    pub trend: Option<AdjustedTrend>,
    /// Share of the observed Gini that is noise, in the last year.
    pub noise_share: Option<f64>,
    /// The shares the adjusted Gini's interval allows in that year (0–1).
    pub noise_share_range: Option<[f64; 2]>,
    /// Deaths derived from published rates: approximate.
    pub approximate: bool,
    /// The births ratio range of `range` (with derived deaths).
    pub births_ratio: Option<BirthsRatioRange>,
}

/// The adjusted series (years with adjusted measures) for the chart, with the interval as
/// shown (over the births ratio when deaths were derived); an open upper limit is drawn up to
/// the measure at the largest CV searched.
pub fn adjusted_series(report: &InequalityReport, measure: AdjustedMeasure) -> Vec<SeriesPoint> {
    let top = measure.of_theta(crate::adjusted::model::MAX_SQRT_THETA.powi(2));
    report
        .adjusted_years()
        .map(|a| {
            let [lo, hi] = a.shown_interval(measure);
            SeriesPoint {
                time: a.time,
                value: a.value(measure),
                ci: Some([lo, if hi.is_finite() { hi } else { top }]),
            }
        })
        .collect()
}

/// The answer for `report`, `None` when no year has adjusted measures.
pub fn answer(report: &InequalityReport) -> Option<Answer> {
    let m = AdjustedMeasure::Gini;
    let years: Vec<YearValue> = report
        .adjusted_years()
        .map(|a| YearValue::of(a, m))
        .collect();
    let first = *years.first()?;
    let last = (years.len() > 1).then(|| *years.last().expect("more than one"));
    let last_time = last.map_or(first.time, |l| l.time);
    let last_year = report.years.iter().find(|y| y.time() == last_time);
    let noise_share = last_year.and_then(|y| y.noise_share(m));
    let noise_share_range = last_year.and_then(|y| y.noise_share_interval(m));
    Some(Answer {
        first,
        last,
        trend: report.trend_adjusted_of(m).copied(),
        noise_share,
        noise_share_range,
        approximate: report
            .adjusted_method
            .as_ref()
            .is_some_and(|a| a.approximate),
        births_ratio: report
            .adjusted_years()
            .find_map(|a| a.sensitivity.as_ref().map(|s| s.births_ratio)),
    })
}

/// "0.012–0.034", or "from 0.012, no upper limit" when the upper limit is open.
fn interval_text(lang: Lang, ci: [f64; 2]) -> String {
    if ci[1].is_finite() {
        format!("{}–{}", num(lang, ci[0], 3), num(lang, ci[1], 3))
    } else {
        match lang {
            Lang::En => format!("from {}, no upper limit", num(lang, ci[0], 3)),
            Lang::Es => format!("desde {}, sin límite superior", num(lang, ci[0], 3)),
        }
    }
}

/// The sensitivity sentence: "Depending on … the Gini is between X and Y in 2019 and between …
/// (95% CI of both together: …)." `None` without ranges.
pub fn range_sentence(
    lang: Lang,
    ratio: BirthsRatioRange,
    years: &[YearValue],
    measure_name: &str,
) -> Option<String> {
    let with: Vec<(&YearValue, [f64; 2], [f64; 2])> = years
        .iter()
        .filter_map(|y| Some((y, y.range?, y.range_ci?)))
        .collect();
    if with.is_empty() {
        return None;
    }
    let pct = |c: f64| format!("{:.0}%", 100.0 * c);
    let (lo, hi) = (pct(ratio.low), pct(ratio.high));
    let and = lang.pick(" y ", " and ");
    let ranges: Vec<String> = with
        .iter()
        .map(|(y, r, _)| year_range_words(lang, y.time, *r))
        .collect();
    let cis: Vec<String> = with
        .iter()
        .map(|(_, _, ci)| interval_text(lang, *ci))
        .collect();
    Some(match lang {
        Lang::En => format!(
            " The births given are a proxy or the rates were rounded: depending on how many births the published rates refer to (from {lo} to {hi} of the births given) and on the rounding, the {measure_name} {} (95% CI of range and chance together: {}).",
            ranges.join(and),
            cis.join(and)
        ),
        Lang::Es => format!(
            " Los nacimientos dados son una aproximación o las tasas se redondearon: según cuántos nacimientos estén detrás de las tasas publicadas (del {lo} al {hi} de los nacimientos dados) y según el redondeo, el {measure_name} {} (IC 95% de rango y azar juntos: {}).",
            ranges.join(and),
            cis.join(and)
        ),
    })
}

/// What a year's range of a measure says, in words: "está entre 0,020 y 0,120 en 2023"; a
/// range from zero, "no pasa de 0,009 en 2019" ("entre 0,000 y 0,009" reads as none); a range
/// that rounds to zero, "es indistinguible de cero en 2019" ("entre 0,000 y 0,000" says
/// nothing). The Inequality view's answer and the Findings both say it so.
pub fn year_range_words(lang: Lang, time: i64, r: [f64; 2]) -> String {
    let (a, b) = (num(lang, r[0], 3), num(lang, r[1], 3));
    match (lang, r[1] < 0.0005, r[0] < 0.0005) {
        (Lang::En, true, _) => format!("is indistinguishable from zero in {time}"),
        (Lang::Es, true, _) => format!("es indistinguible de cero en {time}"),
        (Lang::En, false, true) => format!("is at most {b} in {time}"),
        (Lang::Es, false, true) => format!("no pasa de {b} en {time}"),
        (Lang::En, false, false) => format!("is between {a} and {b} in {time}"),
        (Lang::Es, false, false) => format!("está entre {a} y {b} en {time}"),
    }
}

/// `x` in `lang` (`+ 0.0`: a negative zero is written `0`), a negative with the minus sign
/// (U+2212) as the Findings write it.
pub(crate) fn num(lang: Lang, x: f64, decimals: usize) -> String {
    lang.decimal_signed(x, decimals)
}

/// A year's adjusted Gini for reading: its value and interval, or, when the interval reaches
/// zero, what that means in the table's words ([`zero_cell_words`]: "indistinguishable from
/// zero (it could reach …)"), never "0.000" alone.
pub(crate) fn year_value_text(lang: Lang, y: &YearValue) -> String {
    if let Some((head, limit)) = zero_cell_words(lang, y.ci, 3, 0.0) {
        return match lang {
            Lang::Es => format!("{head} ({limit})"),
            Lang::En => format!("{head} (it {limit})"),
        };
    }
    match lang {
        Lang::Es => format!(
            "{} (IC 95%: {})",
            num(lang, y.value, 3),
            interval_text(lang, y.ci)
        ),
        Lang::En => format!(
            "{} (95% CI {})",
            num(lang, y.value, 3),
            interval_text(lang, y.ci)
        ),
    }
}

/// Whether an adjusted measure's interval reaches zero (from zero to a finite limit), whatever
/// its estimate: no inequality beyond chance can be told apart. The one rule of the Inequality
/// view's answer and table and of the Findings ("0,038 (IC 95%: 0,000–0,123)" in the table
/// stood beside "indistinguible de cero" in the answer, issue 42).
pub fn interval_reaches_zero(ci: [f64; 2]) -> bool {
    interval_reaches(ci, 0.0)
}

/// Whether an interval reaches `equal` (from it to a finite limit): the measure's value when
/// every commune has the same true rate, [`crate::adjusted::AdjustedMeasure::of_theta`] of 0 (0; 1 for
/// the P90/P10 ratio). Every adjusted measure is a function of one θ, so all of a year reach
/// it or none does.
pub fn interval_reaches(ci: [f64; 2], equal: f64) -> bool {
    ci[0] <= equal + 1e-9 && ci[1].is_finite()
}

/// A table cell of an adjusted measure whose interval reaches `equal`, its value without
/// inequality ([`interval_reaches`]), in words: ("indistinguible de cero", "podría llegar a
/// 0,115") instead of "0,000 / 0,000 – 0,115", which read as "no inequality" (issue 42), or
/// "0,038 / 0,000 – 0,123" beside an answer saying "indistinguible de cero"; the P90/P10
/// ratio's "indistinguible de 1" (it kept "1,73 / 1,00 – 3,21" beside them). `None`
/// otherwise: the cell shows the value and its interval (the estimate stays in the CSV and
/// the cell's data).
pub fn zero_cell_words(
    lang: Lang,
    ci: [f64; 2],
    decimals: usize,
    equal: f64,
) -> Option<(String, String)> {
    interval_reaches(ci, equal).then(|| {
        let upper = num(lang, ci[1], decimals);
        let head = match (equal == 0.0, lang) {
            (true, _) => lang
                .pick("indistinguible de cero", "indistinguishable from zero")
                .to_owned(),
            (false, Lang::Es) => format!("indistinguible de {}", num(lang, equal, 0)),
            (false, Lang::En) => format!("indistinguishable from {}", num(lang, equal, 0)),
        };
        let limit = match lang {
            Lang::Es => format!("podría llegar a {upper}"),
            Lang::En => format!("could reach {upper}"),
        };
        (head, limit)
    })
}

/// What the answer's sentence measures and how, for the fold under it ("¿Cómo se calculó?"):
/// the measure's name, the model that takes chance out and what the interval is.
pub fn method(lang: Lang) -> &'static str {
    lang.pick(
        "La desigualdad de la respuesta es el Gini ponderado por nacimientos (0 si todas las comunas tuvieran la misma tasa; cuanto mayor, más desiguales) de las tasas verdaderas de las comunas: un modelo de Poisson y gamma separa de la variación observada la que darían solas las pocas muertes de las comunas pequeñas. Su intervalo de 95% es de verosimilitud perfilada; la tendencia por año lleva la incertidumbre de cada año. Las medidas observadas de la tabla, en cambio, incluyen esa variación aleatoria; sus intervalos son los del bootstrap:",
        "The answer's inequality is the birth-weighted Gini (0 if every commune had the same rate; the higher, the more unequal) of the communes' true rates: a Poisson–gamma model separates from the observed variation what the few deaths of small communes would give alone. Its 95% interval is a profile-likelihood one; the trend per year carries each year's uncertainty. The observed measures of the table, by contrast, include that random variation; their intervals are the bootstrap's:",
    )
}

impl Answer {
    /// The sentence in `lang`: the verdict on the trend first ("No clear change:", "It rose:",
    /// "It fell:"), then the values of the first and last year, then the trend with its
    /// interval; a value indistinguishable from zero is said in words.
    pub fn render(&self, lang: Lang) -> String {
        // Plain words: the measure's name and how it is made are in [`method`], folded.
        let what = lang.pick(
            "la desigualdad de la mortalidad infantil entre comunas, ajustada por el azar de las comunas pequeñas,",
            "the inequality of infant mortality across communes, adjusted for the chance of small communes,",
        );
        let verdict = self.trend.as_ref().map(|t| {
            let clear = t.ci_low > 0.0 || t.ci_high < 0.0;
            let slope = num(lang, t.slope, 4);
            let ci = format!("{} a {}", num(lang, t.ci_low, 4), num(lang, t.ci_high, 4));
            let ci_en = format!("{} to {}", num(lang, t.ci_low, 4), num(lang, t.ci_high, 4));
            // Two years make a difference, not a trend: said so, as the Findings do, with the
            // difference and its interval and no verdict of a rise or a fall.
            if t.n_years < 3 {
                let apart = if clear {
                    ""
                } else {
                    lang.pick(", que no se distingue de cero", ", not distinguishable from zero")
                };
                return match lang {
                    Lang::Es => ("Solo dos años", format!("con dos años hay un cambio, no una tendencia: de uno al otro, {slope} por año (IC 95%: {ci}){apart}")),
                    Lang::En => ("Only two years", format!("with two years there is a change, not a trend: from one to the other, {slope} a year (95% CI {ci_en}){apart}")),
                };
            }
            match (lang, clear, t.slope > 0.0) {
                (Lang::Es, false, _) => ("Sin cambio claro", format!("su tendencia ({slope} por año; IC 95%: {ci}) no se distingue de cero")),
                (Lang::Es, true, true) => ("Aumentó", format!("su tendencia es {slope} por año (IC 95%: {ci})")),
                (Lang::Es, true, false) => ("Disminuyó", format!("su tendencia es {slope} por año (IC 95%: {ci})")),
                (Lang::En, false, _) => ("No clear change", format!("its trend ({slope} a year; 95% CI {ci_en}) is not distinguishable from zero")),
                (Lang::En, true, true) => ("It rose", format!("its trend is {slope} a year (95% CI {ci_en})")),
                (Lang::En, true, false) => ("It fell", format!("its trend is {slope} a year (95% CI {ci_en})")),
            }
        });
        let first = year_value_text(lang, &self.first);
        let mut text = match (&self.last, &verdict, lang) {
            (Some(last), Some((head, trend)), Lang::Es) => format!(
                "{head}: entre {} y {}, {what} fue {first} en {} y {} en {}; {trend}",
                self.first.time,
                last.time,
                self.first.time,
                year_value_text(lang, last),
                last.time
            ),
            (Some(last), Some((head, trend)), Lang::En) => format!(
                "{head}: between {} and {}, {what} was {first} in {} and {} in {}; {trend}",
                self.first.time,
                last.time,
                self.first.time,
                year_value_text(lang, last),
                last.time
            ),
            (Some(last), None, Lang::Es) => format!(
                "Entre {} y {}, {what} fue {first} en {} y {} en {}",
                self.first.time,
                last.time,
                self.first.time,
                year_value_text(lang, last),
                last.time
            ),
            (Some(last), None, Lang::En) => format!(
                "Between {} and {}, {what} was {first} in {} and {} in {}",
                self.first.time,
                last.time,
                self.first.time,
                year_value_text(lang, last),
                last.time
            ),
            (None, _, Lang::Es) => format!("En {}, {what} fue {first}", self.first.time),
            (None, _, Lang::En) => format!("In {}, {what} was {first}", self.first.time),
        };
        text.push('.');
        if self.first.indistinguishable_from_zero()
            || self
                .last
                .as_ref()
                .is_some_and(YearValue::indistinguishable_from_zero)
        {
            text.push_str(lang.pick(
                " Indistinguible de cero quiere decir que estos datos no distinguen diferencias reales entre comunas más allá del azar, no que no las haya.",
                " Indistinguishable from zero means these data cannot tell real differences between communes from chance, not that there are none.",
            ));
        }
        if let Some(share) = self.noise_share {
            let year = self.last.as_ref().map_or(self.first.time, |l| l.time);
            text.push_str(&noise::sentence(lang, year, share, self.noise_share_range));
        }
        if let Some(ratio) = self.births_ratio {
            let years: Vec<YearValue> = std::iter::once(self.first).chain(self.last).collect();
            if let Some(sentence) = range_sentence(lang, ratio, &years, "Gini") {
                text.push_str(&sentence);
            }
        }
        if self.approximate {
            text.push_str(match lang {
                Lang::En => " Approximate: deaths were derived from published rates, not counted.",
                Lang::Es => {
                    " Aproximado: las defunciones se derivaron de tasas publicadas, no se contaron."
                }
            });
        }
        text
    }
}

/// The adjusted measure over the years with its 95% band, in `lang`; `None` without adjusted
/// years.
pub fn adjusted_svg_in(
    report: &InequalityReport,
    measure: AdjustedMeasure,
    caption: &Caption,
) -> Option<String> {
    adjusted_svg_with(
        report,
        measure,
        caption,
        &crate::YearMarks::of_copies(report.copies()),
    )
}

/// [`adjusted_svg_in`] drawing the marked years as what they are: every copy found, also those
/// included in the trend, and the reconstructed years (imr-core's
/// `InequalityResult::year_marks`).
pub fn adjusted_svg_with(
    report: &InequalityReport,
    measure: AdjustedMeasure,
    caption: &Caption,
    marks: &crate::YearMarks,
) -> Option<String> {
    let points = adjusted_series(report, measure);
    if points.is_empty() {
        return None;
    }
    let lang = caption.lang;
    let label = measure.label(lang);
    let (title, desc) = match lang {
        Lang::En => (
            format!("{label} adjusted for the chance of small communes"),
            format!("{label} of the communes' true infant mortality rates per year, from a Poisson–gamma model of deaths with births as exposure, with its 95% profile-likelihood interval as a band."),
        ),
        Lang::Es => (
            format!("{label} ajustado por el azar de las comunas pequeñas"),
            format!("{label} de las tasas verdaderas de mortalidad infantil de las comunas por año, de un modelo Poisson–gamma de las defunciones con los nacimientos como exposición, con su intervalo de verosimilitud perfil al 95% como banda."),
        ),
    };
    Some(line_chart_svg_in(
        &LineChart {
            title,
            subtitle: Some(
                if report.adjusted_years().any(|a| a.sensitivity.is_some()) {
                    lang.pick(
                        "banda: intervalo de confianza del 95% junto con el rango según la razón de nacimientos y el redondeo",
                        "band: 95% CI together with the range over the births ratio and rounding",
                    )
                } else {
                    lang.pick(
                        "banda: intervalo de confianza del 95%",
                        "band: 95% confidence interval",
                    )
                }
                .to_string(),
            ),
            desc,
            y_label: format!(
                "{label} ({})",
                lang.pick("razón, sin unidad", "ratio, no unit")
            ),
            points: &points,
            // Every adjusted measure is a non-negative function of θ ≥ 0.
            range: (0.0, f64::INFINITY),
            marks: marks.clone(),
        },
        caption,
    ))
}

#[cfg(test)]
mod tests;
