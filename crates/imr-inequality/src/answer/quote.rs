//! Which of the three Ginis of a year to quote. The Inequality view shows, for one year, the
//! observed Gini of the rates, its bootstrap bias-corrected value and the Gini adjusted for the
//! Poisson noise of small communes (for the bundled 2001: 0,222, 0,155 and 0,115); a newcomer
//! found nothing saying which one a story should give (issue 42).

use super::{num, year_value_text, YearValue};
use crate::adjusted::{AdjustedMeasure, AdjustedUnavailable};
use crate::report::InequalityReport;
use crate::year::Measure;
use imr_stats::Lang;

/// The note under the answer: quote the adjusted Gini of the last year with an adjusted
/// measure (its value and interval, or "indistinguishable from zero"), and what the other two
/// are: the observed one includes the chance of small numbers and so is larger, the
/// bias-corrected one takes off only the bootstrap's mean bias. `None` without an adjusted
/// year or an observed Gini in it.
pub fn which_gini_to_quote(report: &InequalityReport, lang: Lang) -> Option<String> {
    let m = AdjustedMeasure::Gini;
    let year = report
        .years
        .iter()
        .rev()
        .find(|y| y.adjusted_year().is_some())?;
    let adjusted = YearValue::of(year.adjusted_year()?, m);
    let observed = year.measures.get(Measure::Gini)?;
    let time = year.time();
    let quoted = year_value_text(lang, &adjusted);
    let observed_text = num(lang, observed, 3);
    let corrected = year.bias_corrected(Measure::Gini).map(|c| num(lang, c, 3));
    // "and so is larger" only where it is (chance can leave an observed Gini below).
    let larger = observed > adjusted.value;
    Some(match lang {
        Lang::Es => {
            let corrected = corrected.map_or(String::new(), |c| {
                format!(" El corregido por sesgo ({c}) resta solo el sesgo medio que estima el remuestreo.")
            });
            format!(
                "¿Qué Gini citar? El ajustado por el azar: en {time}, {quoted}. Mide la desigualdad entre las tasas verdaderas de las comunas. El observado ({observed_text}) incluye el azar de las comunas con pocos nacimientos{}; sirve para comparar con estudios que publican el Gini de las tasas observadas.{corrected}",
                if larger { " y por eso es mayor" } else { "" }
            )
        }
        Lang::En => {
            let corrected = corrected.map_or(String::new(), |c| {
                format!(" The bias-corrected one ({c}) takes off only the mean bias the resampling estimates.")
            });
            format!(
                "Which Gini to quote? The one adjusted for chance: in {time}, {quoted}. It measures the inequality between the communes' true rates. The observed one ({observed_text}) includes the chance of communes with few births{}; it serves to compare with studies that publish the Gini of observed rates.{corrected}",
                if larger { " and so is larger" } else { "" }
            )
        }
    })
}

/// Why the view has no answer, where its answer would stand: no year has adjusted measures
/// (a 5-commune file went straight from the title to the controls, its reason only in a table
/// row below). "No se puede separar la desigualdad real del azar en 2020 y 2021: solo 5
/// comunas con nacimientos: …". `None` when some year has them, or for a value column (whose
/// view measures no adjusted inequality).
pub fn no_answer_reason(report: &InequalityReport, lang: Lang) -> Option<String> {
    if report.years.iter().any(|y| y.adjusted_year().is_some()) {
        return None;
    }
    let reasons: Vec<(i64, &AdjustedUnavailable)> = (report.years.iter())
        .filter_map(|y| match &y.adjusted {
            Some(Err(why)) => Some((y.time(), why)),
            _ => None,
        })
        .collect();
    let (_, first) = reasons.first()?;
    if matches!(first, AdjustedUnavailable::NotRates) {
        return None;
    }
    let times: Vec<i64> = reasons.iter().map(|(t, _)| *t).collect();
    let years = lang.years(&times);
    let why = first.text(lang);
    Some(match lang {
        Lang::Es => format!("No se puede separar la desigualdad real del azar en {years}: {why}."),
        Lang::En => format!("Real inequality cannot be told from chance in {years}: {why}."),
    })
}
