//! A measure of a report over the years: its axis label and its line chart with the bootstrap
//! band.

use super::{line_chart_svg_in, LineChart};
use crate::chart::num_in;
use crate::quantity::Unit;
use crate::report::InequalityReport;
use crate::year::Measure;
use crate::year_marks::YearMarks;
use imr_stats::{Caption, Lang};

/// Axis label of a measure: "Gini (weighted), ratio, no unit" or "Pooled rate (per 1,000 live
/// births)".
pub fn measure_axis_label(measure: Measure, value_unit: &Unit) -> String {
    measure_axis_label_in(measure, value_unit, Lang::En)
}

/// [`measure_axis_label`] in a language.
pub fn measure_axis_label_in(measure: Measure, value_unit: &Unit, lang: Lang) -> String {
    let unit = measure.unit(value_unit).text(lang);
    let label = measure.label_in(lang);
    if unit.is_empty() {
        label.to_string()
    } else if label.ends_with(')') {
        format!("{label}, {unit}")
    } else {
        format!("{label} ({unit})")
    }
}

/// A measure of the report over the years, with its bootstrap band.
pub fn measure_over_years_svg(report: &InequalityReport, measure: Measure) -> String {
    measure_over_years_svg_in(report, measure, &Caption::default())
}

/// [`measure_over_years_svg`] in the caption's language, with its provenance line.
pub fn measure_over_years_svg_in(
    report: &InequalityReport,
    measure: Measure,
    caption: &Caption,
) -> String {
    measure_over_years_svg_with(
        report,
        measure,
        caption,
        &YearMarks::of_copies(report.copies()),
    )
}

/// [`measure_over_years_svg_in`] drawing the marked years as what they are: the copies of
/// `marks` (every copy found, also those included in the trend: imr-core's
/// `InequalityResult::year_marks`), each said to be left out of the trend or counted in it as
/// the report has it, and its reconstructed years.
pub fn measure_over_years_svg_with(
    report: &InequalityReport,
    measure: Measure,
    caption: &Caption,
    marks: &YearMarks,
) -> String {
    let lang = caption.lang;
    // Each year with a band at the value the band is centred on.
    let points = report.series_in_band(measure);
    let info = &report.subject;
    let value_name = info.value_name.text(lang);
    let label = measure.label_in(lang);
    let title = match lang {
        Lang::En => format!("{label} of the {value_name} by year"),
        Lang::Es => format!("{label}: {value_name}, por año"),
    };
    let pct = lang.with_decimal_mark((info.level * 100.0).to_string());
    let with_ci = points.iter().filter(|p| p.ci.is_some()).count();
    let subtitle = if with_ci > 0 {
        Some(match lang {
            Lang::En => format!(
                "Bias-corrected value and its {pct}% interval from {} resamples; each year's observed value is not drawn: it is in imr-atlas's table of measures by year and its CSV",
                info.bootstrap_replicates
            ),
            Lang::Es => format!(
                "Valor corregido por sesgo y su intervalo al {pct}% de {} remuestreos; el valor observado de cada año no se dibuja: está en la tabla de medidas por año de imr-atlas y su CSV",
                info.bootstrap_replicates
            ),
        })
    } else {
        None
    };
    let trend = report
        .trend_of(measure)
        .map(|t| match lang {
            Lang::En => format!(
                " Linear trend {:.4} per year; change {} to {}: {:.4}.",
                t.slope, t.first_time, t.last_time, t.change
            ),
            Lang::Es => format!(
                " Tendencia lineal de los valores observados {} por año; cambio de {} a {}: {}.",
                num_in(lang, t.slope, 4),
                t.first_time,
                t.last_time,
                num_in(lang, t.change, 4)
            ),
        })
        .unwrap_or_default();
    let left_out = report.copies();
    let copied = (marks.copies.iter())
        .map(|(t, of)| match (lang, left_out.contains(&(*t, *of))) {
            (Lang::En, true) => {
                format!(" {t} is a copy of {of}, drawn as such and left out of the trend.")
            }
            (Lang::Es, true) => {
                format!(
                    " {t} es una copia de {of}: se dibuja como tal y no cuenta en la tendencia."
                )
            }
            (Lang::En, false) => {
                format!(" {t} is a copy of {of}, drawn as such; included, it counts in the trend.")
            }
            (Lang::Es, false) => format!(
                " {t} es una copia de {of}: se dibuja como tal; incluida, cuenta en la tendencia."
            ),
        })
        .collect::<String>();
    let reconstructed: Vec<i64> = (marks.reconstructed.iter())
        .copied()
        .filter(|t| points.iter().any(|p| p.time == *t))
        .collect();
    let copied = if reconstructed.is_empty() {
        copied
    } else {
        format!(
            "{copied} {}: {}{}.",
            lang.years(&reconstructed),
            YearMarks::reconstructed_words(lang),
            lang.pick(", dibujados como rombos", ", drawn as diamonds")
        )
    };
    let desc = match ((points.first(), points.last()), lang) {
        ((Some(a), Some(b)), _) => {
            let (years, from, to) = (points.len(), a.time, b.time);
            let (first, last) = (a.value, b.value);
            match lang {
                Lang::En => format!(
                    "Line chart of the {label} of the {value_name} across areas, one point per year, {years} years from {from} to {to}; {with_ci} of them drawn at their bias-corrected value with a shaded {pct}% bootstrap interval. Value drawn {first:.4} in {from} and {last:.4} in {to}.{trend}{copied}"
                ),
                Lang::Es => format!(
                    "Gráfico de líneas de {label} ({value_name}) entre comunas, un punto por año, {years} años de {from} a {to}; {with_ci} de ellos en su valor corregido por sesgo con un intervalo bootstrap al {pct}% sombreado. Valor dibujado {} en {from} y {} en {to}.{trend}{copied}",
                    num_in(lang, first, 4),
                    num_in(lang, last, 4)
                ),
            }
        }
        (_, Lang::En) => format!(
            "Line chart of the {} of the {}: no year has a value.",
            label, value_name
        ),
        (_, Lang::Es) => format!(
            "Gráfico de líneas de {} ({}): ningún año tiene un valor.",
            label, value_name
        ),
    };
    line_chart_svg_in(
        &LineChart {
            title,
            subtitle,
            desc,
            y_label: measure_axis_label_in(measure, &info.unit, lang),
            points: &points,
            range: measure.range(),
            marks: marks.clone(),
        },
        caption,
    )
}
