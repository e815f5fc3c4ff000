//! The reference study's conclusion beside what the loaded data show.
//!
//! The study this page redoes (Morales 2016, [`STUDY`]) measured the infant mortality rate of
//! Chile's 345 communes over 2001–2011 and concluded that the rate of the median commune stayed
//! stable while the inequality between communes rose. [`StudyComparison`] sets three trends of the
//! loaded data beside that conclusion, on the study's years and on every year of the data:
//!
//! - the median commune rate (OLS line through the yearly medians; [`linear_trend`]);
//! - the Gini of the *observed* rates (OLS line; the measure a study of observed rates reports,
//!   inflated by Poisson noise, more so where births are fewer);
//! - the Gini of the communes' *true* rates, adjusted for Poisson noise, with its trend by
//!   inverse-variance least squares (`imr_inequality::adjusted::adjusted_trend`).
//!
//! Its verdict on "inequality rose" is the adjusted trend's: a rise only when its whole
//! interval is above zero ([`Direction`]); on "the median was stable", the median's: stable is
//! the interval covering zero. The sentences never say more than that.
//!
//! Reference: Morales, A. (2016) "Mortalidad infantil como indicador de desigualdad del sistema
//! de salud chileno", *Revista Estudios de Políticas Públicas* 1(2):1–16,
//! doi:10.5354/0719-6296.2015.38425.

use crate::chart::{year_chart_labelled, Series};

use crate::parts::{cell, Parts, Table};
use crate::words::{trend_sentence, Direction, MIN_YEARS_FOR_TREND};
use crate::{InequalityFinding, RatesFinding};
use imr_core::inequality::linear_trend;
use imr_core::Lang;
use serde::Serialize;

/// The reference study: what it is and what it concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Study {
    pub citation: &'static str,
    /// Its years, both included.
    pub first: i64,
    pub last: i64,
}

/// Morales (2016), 345 communes, 2001–2011.
pub const STUDY: Study = Study {
    citation: "Morales, A. (2016) «Mortalidad infantil como indicador de desigualdad del sistema de salud chileno», Revista Estudios de Políticas Públicas 1(2):1–16, doi:10.5354/0719-6296.2015.38425",
    first: 2001,
    last: 2011,
};

pub use crate::slope::Slope;

/// The three trends over one span of years.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PeriodTrends {
    pub first: i64,
    pub last: i64,
    /// Median commune rate, per 1,000 per year.
    pub median: Option<Slope>,
    /// Gini of the observed rates, per year.
    pub observed_gini: Option<Slope>,
    /// Gini of the true rates (adjusted for Poisson noise), per year.
    pub adjusted_gini: Option<Slope>,
}

impl PeriodTrends {
    fn of(rates: &RatesFinding, inequality: &InequalityFinding, first: i64, last: i64) -> Self {
        let medians: Vec<(i64, f64)> = rates
            .years
            .iter()
            .filter(|y| (first..=last).contains(&y.time))
            .filter_map(|y| y.median_per_1000.map(|m| (y.time, m)))
            .collect();
        PeriodTrends {
            first,
            last,
            median: linear_trend(&medians, 0.95).as_ref().map(Slope::of_trend),
            observed_gini: inequality
                .observed
                .as_ref()
                .and_then(|s| Slope::of_series(&s.within(first, last))),
            adjusted_gini: Slope::of_series(&inequality.series.within(first, last)),
        }
    }
}

/// One year of the comparison's chart: the adjusted Gini with its interval and the observed one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StudyYear {
    pub time: i64,
    pub adjusted_gini: f64,
    pub adjusted_ci: Option<[f64; 2]>,
    pub observed_gini: Option<f64>,
}

/// The study's conclusion beside the loaded data: on the study's years and on all of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StudyComparison {
    pub study: Study,
    /// Every year of the data: what the chart draws.
    pub years: Vec<StudyYear>,
    /// The study's years as these data have them.
    pub study_period: PeriodTrends,
    /// Every year of the data.
    pub whole_series: PeriodTrends,
    /// The study's years of the adjusted Gini whose leaving out alone changes what its trend's
    /// interval says of the sign (a fall or rise becomes indistinguishable from zero, or the
    /// reverse): the verdict rests on each of them ([`crate::pivotal::pivotal_years`]).
    pub pivotal_years: Vec<i64>,
}

impl StudyComparison {
    /// The comparison, when the data have at least [`MIN_YEARS_FOR_TREND`] years of rates in the
    /// study's period; `rates` and `inequality` are the answers on every year of the data.
    pub fn of(rates: &RatesFinding, inequality: &InequalityFinding) -> Option<StudyComparison> {
        let in_study = rates
            .years
            .iter()
            .filter(|y| y.pooled_per_1000.is_some())
            .filter(|y| (STUDY.first..=STUDY.last).contains(&y.time))
            .count();
        if in_study < MIN_YEARS_FOR_TREND {
            return None;
        }
        let times: Vec<i64> = rates.years.iter().map(|y| y.time).collect();
        let (first, last) = (*times.first()?, *times.last()?);
        let observed = |t: i64| {
            inequality
                .observed
                .as_ref()
                .and_then(|o| o.years.iter().find(|y| y.time == t))
                .map(|y| y.value)
        };
        Some(StudyComparison {
            study: STUDY,
            years: inequality
                .series
                .years
                .iter()
                .map(|y| StudyYear {
                    time: y.time,
                    adjusted_gini: y.value,
                    adjusted_ci: y.ci.filter(|c| c[1].is_finite()),
                    observed_gini: observed(y.time),
                })
                .collect(),
            study_period: PeriodTrends::of(rates, inequality, STUDY.first, STUDY.last),
            whole_series: PeriodTrends::of(rates, inequality, first, last),
            pivotal_years: crate::pivotal::pivotal_years(
                &inequality.series,
                STUDY.first,
                STUDY.last,
            ),
        })
    }

    /// Whether these data bear out "inequality rose over the study's years": the adjusted
    /// Gini's trend on them (`None`: too few years to say).
    pub fn inequality_verdict(&self) -> Option<Direction> {
        self.study_period.adjusted_gini.and_then(|s| s.direction())
    }
}

/// A slope in words, by the project's trend rule ([`trend_sentence`]).
fn slope_sentence(
    lang: Lang,
    what: [&str; 2],
    unit: [&str; 2],
    slope: Option<&Slope>,
    span: [i64; 2],
) -> String {
    trend_sentence(
        lang,
        what[0],
        what[1],
        unit[0],
        unit[1],
        slope.map_or(0, |s| s.n_years),
        slope.map_or(span[0], |s| s.first),
        slope.map_or(span[1], |s| s.last),
        slope.map(|s| s.slope),
        slope.and_then(|s| s.ci),
    )
}

fn period_sentences(lang: Lang, p: &PeriodTrends) -> Vec<String> {
    let span = [p.first, p.last];
    vec![
        slope_sentence(
            lang,
            ["la tasa de la comuna mediana", "the median commune's rate"],
            ["por 1.000", "per 1,000"],
            p.median.as_ref(),
            span,
        ),
        slope_sentence(
            lang,
            [
                "el Gini de las tasas observadas",
                "the Gini of the observed rates",
            ],
            ["", ""],
            p.observed_gini.as_ref(),
            span,
        ),
        slope_sentence(
            lang,
            [
                "el Gini ajustado por el azar de las comunas pequeñas",
                "the Gini adjusted for the chance of small communes",
            ],
            ["", ""],
            p.adjusted_gini.as_ref(),
            span,
        ),
    ]
}

/// The answer on the study: the verdict first, then the trends of both spans.
/// `approximate`: the deaths were derived from rates (the adjusted Gini is a quasi-likelihood fit).
pub(crate) fn study_answer(
    lang: Lang,
    c: &StudyComparison,
    bundled: bool,
    approximate: bool,
    marks: &imr_core::inequality::YearMarks,
) -> Parts {
    let (a, b) = (c.study.first, c.study.last);
    let counts = if bundled {
        lang.pick(
            "con las defunciones publicadas por el INE",
            "with the deaths INE published",
        )
    } else {
        lang.pick("con estos datos", "with these data")
    };
    let median = c.study_period.median.and_then(|s| s.direction());
    let median_words = match (median, lang) {
        (Some(Direction::NotDistinguishable), Lang::Es) => {
            "la comuna mediana no cambió de forma distinguible, como dijo el estudio"
        }
        (Some(Direction::NotDistinguishable), Lang::En) => {
            "the median commune did not change distinguishably, as the study said"
        }
        (Some(Direction::Below), Lang::Es) => {
            "la tasa de la comuna mediana bajó, no se mantuvo estable"
        }
        (Some(Direction::Below), Lang::En) => {
            "the median commune's rate fell rather than staying stable"
        }
        (Some(Direction::Above), Lang::Es) => {
            "la tasa de la comuna mediana subió, no se mantuvo estable"
        }
        (Some(Direction::Above), Lang::En) => {
            "the median commune's rate rose rather than staying stable"
        }
        (None, Lang::Es) => "hay muy pocos años para decir si la comuna mediana cambió",
        (None, Lang::En) => "there are too few years to say whether the median commune changed",
    };
    let headline = match (c.inequality_verdict(), lang) {
        (Some(Direction::Above), Lang::Es) if !c.pivotal_years.is_empty() => format!("Sí, aunque por poco: {counts}, la desigualdad entre comunas subió entre {a} y {b}, como concluyó el estudio, aun descontando el azar de las comunas pequeñas; pero dejando fuera uno solo de estos años ({}), ese cambio ya no se distingue de cero; {median_words}.", lang.years(&c.pivotal_years)),
        (Some(Direction::Above), Lang::En) if !c.pivotal_years.is_empty() => format!("Yes, though narrowly: {counts}, inequality between communes rose from {a} to {b}, as the study concluded, even with the chance of small communes taken out; but leaving out just one of these years ({}), that change is no longer distinguishable from zero; {median_words}.", lang.years(&c.pivotal_years)),
        (Some(Direction::Above), Lang::Es) => format!("Sí: {counts}, la desigualdad entre comunas subió entre {a} y {b}, como concluyó el estudio, aun descontando el azar de las comunas pequeñas; {median_words}."),
        (Some(Direction::Above), Lang::En) => format!("Yes: {counts}, inequality between communes rose from {a} to {b}, as the study concluded, even with the chance of small communes taken out; {median_words}."),
        (Some(Direction::NotDistinguishable), Lang::Es) => format!("No se confirma: {counts}, la desigualdad entre comunas no subió de forma distinguible entre {a} y {b} una vez descontado el azar de las comunas pequeñas, mientras el estudio concluyó que aumentó; {median_words}."),
        (Some(Direction::NotDistinguishable), Lang::En) => format!("Not borne out: {counts}, inequality between communes did not rise distinguishably from {a} to {b} once the chance of small communes is taken out, while the study concluded that it rose; {median_words}."),
        (Some(Direction::Below), Lang::Es) if !c.pivotal_years.is_empty() => format!("Probablemente no, aunque por poco: {counts}, la desigualdad entre comunas bajó entre {a} y {b} una vez descontado el azar de las comunas pequeñas, mientras el estudio concluyó que aumentó; pero dejando fuera uno solo de estos años ({}), ese cambio ya no se distingue de cero; {median_words}.", lang.years(&c.pivotal_years)),
        (Some(Direction::Below), Lang::En) if !c.pivotal_years.is_empty() => format!("Probably not, though narrowly: {counts}, inequality between communes fell from {a} to {b} once the chance of small communes is taken out, while the study concluded that it rose; but leaving out just one of these years ({}), that change is no longer distinguishable from zero; {median_words}.", lang.years(&c.pivotal_years)),
        (Some(Direction::Below), Lang::Es) => format!("No: {counts}, la desigualdad entre comunas bajó entre {a} y {b} una vez descontado el azar de las comunas pequeñas, mientras el estudio concluyó que aumentó; {median_words}."),
        (Some(Direction::Below), Lang::En) => format!("No: {counts}, inequality between communes fell from {a} to {b} once the chance of small communes is taken out, while the study concluded that it rose; {median_words}."),
        (None, Lang::Es) => format!("No se puede decir: {counts} hay muy pocos años entre {a} y {b} para saber si la desigualdad entre comunas subió, como concluyó el estudio."),
        (None, Lang::En) => format!("Cannot say: {counts} there are too few years from {a} to {b} to tell whether inequality between communes rose, as the study concluded."),
    };
    let mut details = vec![match lang {
        Lang::Es => format!("El estudio de referencia (Morales 2016) midió las 345 comunas entre {a} y {b} y concluyó que la mortalidad infantil de la comuna mediana se mantuvo estable y que la desigualdad entre comunas aumentó."),
        Lang::En => format!("The reference study (Morales 2016) measured the 345 communes from {a} to {b} and concluded that the median commune's infant mortality stayed stable and that inequality between communes rose."),
    }];
    details.extend(period_sentences(lang, &c.study_period));
    let w = &c.whole_series;
    if (w.first, w.last) != (c.study_period.first, c.study_period.last) {
        details.push(match lang {
            Lang::Es => format!("En toda la serie ({}–{}):", w.first, w.last),
            Lang::En => format!("Over the whole series ({}–{}):", w.first, w.last),
        });
        details.extend(period_sentences(lang, w));
    }
    let caveats = vec![lang.pick(
        "En comunas con pocos nacimientos, una o dos muertes más cambian mucho la tasa: el Gini de las tasas observadas incluye ese azar y sube cuando nacen menos niños. El Gini ajustado por el azar lo descuenta; su intervalo dice cuánto se sabe.",
        "In communes with few births, one or two more deaths change the rate a lot: the Gini of the observed rates includes that chance and rises when fewer children are born. The Gini adjusted for chance takes it out; its interval says how much is known.",
    ).to_string()];
    let rows = c
        .years
        .iter()
        .map(|y| {
            vec![
                y.time.to_string(),
                cell(Some(y.adjusted_gini)),
                cell(y.adjusted_ci.map(|c| c[0])),
                cell(y.adjusted_ci.map(|c| c[1])),
                cell(y.observed_gini),
            ]
        })
        .collect();
    let chart = year_chart_labelled(
        lang,
        &match lang {
            Lang::Es => format!("Gini por año; el estudio cubrió {a}–{b}"),
            Lang::En => format!("Gini per year; the study covered {a}–{b}"),
        },
        lang.pick("Gini (0 = todas iguales)", "Gini (0 = all equal)"),
        &[
            Series {
                name: lang
                    .pick(
                        "Ajustado por el azar (IC 95%)",
                        "Adjusted for chance (95% CI)",
                    )
                    .into(),
                points: c
                    .years
                    .iter()
                    .map(|y| (y.time, y.adjusted_gini, y.adjusted_ci))
                    .collect(),
                secondary: false,
            },
            Series {
                name: lang.pick("Observado", "Observed").into(),
                points: c
                    .years
                    .iter()
                    .filter_map(|y| y.observed_gini.map(|g| (y.time, g, None)))
                    .collect(),
                secondary: true,
            },
        ],
        marks,
    );
    Parts {
        headline,
        details,
        caveats,
        method: crate::method::inequality(lang, approximate),
        chart,
        data: Table {
            header: [
                "year",
                "adjusted_gini",
                "ci_low",
                "ci_high",
                "observed_gini",
            ]
            .iter()
            .map(|h| (*h).to_owned())
            .collect(),
            rows,
            decimals: None,
        },
    }
}
