//! Two yearly series on one year axis, stacked, with their correlation: IMR inequality against
//! health-income inequality.

use super::line::measure_axis_label_in;
use super::line::{marks_note, marks_note_lines, series_in_frame, with_note, SeriesStyle};
use super::{c, close_chart, escape, num_in, open_chart, wrap, Frame, FONT, PALETTE};
use crate::report::{correlate_reports, InequalityReport, SeriesPoint};
use crate::trend::Correlation;
use crate::year::Measure;
use crate::year_marks::YearMarks;
use imr_stats::{Caption, Lang};
use std::fmt::Write;

/// One of the two series: its name (e.g. "Gini of the infant mortality rate"), its axis label
/// with the unit, and its points.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesSpec {
    pub name: String,
    pub y_label: String,
    pub points: Vec<SeriesPoint>,
    /// Copied and reconstructed years: drawn as what they are.
    pub marks: YearMarks,
}

/// The two series of `measure` in the infant mortality report `imr` (top) and the value report
/// `other` (bottom), named in `lang`, with their correlation over the years at 95% (Pearson and
/// Spearman, [`correlate_reports`]): what the page's second panel and `imr inequality --format
/// svg-against` draw.
pub fn two_series_of(
    imr: &InequalityReport,
    other: &InequalityReport,
    measure: Measure,
    lang: Lang,
) -> (SeriesSpec, SeriesSpec, Correlation) {
    let label = measure.label_in(lang);
    let top = SeriesSpec {
        name: match lang {
            Lang::Es => format!("{label} de la tasa de mortalidad infantil"),
            Lang::En => format!("{label} of the infant mortality rate"),
        },
        y_label: measure_axis_label_in(measure, &imr.subject.unit, lang),
        points: imr.series_in_band(measure),
        marks: YearMarks::of_copies(imr.copies()),
    };
    let value_name = other.subject.value_name.text(lang);
    let bottom = SeriesSpec {
        name: match lang {
            Lang::Es => format!("{label} de {value_name}"),
            Lang::En => format!("{label} of {value_name}"),
        },
        y_label: measure_axis_label_in(measure, &other.subject.unit, lang),
        points: other.series_in_band(measure),
        marks: YearMarks::of_copies(other.copies()),
    };
    let correlation = correlate_reports(imr, measure, other, measure, 0.95);
    (top, bottom, correlation)
}

/// [`two_series_svg_in`] of [`two_series_of`].
pub fn two_series_report_svg_in(
    imr: &InequalityReport,
    other: &InequalityReport,
    measure: Measure,
    caption: &Caption,
) -> String {
    let (top, bottom, correlation) = two_series_of(imr, other, measure, caption.lang);
    two_series_svg_in(&top, &bottom, &correlation, caption)
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 600.0;

/// Height of each line of the few-years warning under the two series.
const WARNING_LINE: f64 = 14.0;

fn fmt_r(r: Option<f64>, lang: Lang) -> String {
    r.map_or(
        lang.pick("no disponible", "not available").to_string(),
        |r| num_in(lang, r, 2),
    )
}

fn fmt_ci(ci: Option<[f64; 2]>, lang: Lang) -> String {
    ci.map_or(String::new(), |[a, b]| {
        format!(
            " ({} {} {})",
            num_in(lang, a, 2),
            lang.pick("a", "to"),
            num_in(lang, b, 2)
        )
    })
}

/// A y label along a panel `height` px tall (12 px text, 20 px past each end allowed: the
/// panels stand 50 px apart), on at most two lines; a longer one ends its second line with "…".
fn panel_label(label: &str, height: f64) -> String {
    let mut lines = super::fit::wrap_to(label, height + 40.0, 12.0);
    if lines.len() > 2 {
        lines.truncate(2);
        lines[1].push('…');
    }
    lines.join("\n")
}

/// Two series stacked on a shared year axis (separate y axes, no dual-axis overlay), with the
/// Pearson and Spearman correlation and the few-years warning under them.
pub fn two_series_svg(top: &SeriesSpec, bottom: &SeriesSpec, correlation: &Correlation) -> String {
    two_series_svg_in(top, bottom, correlation, &Caption::default())
}

/// [`two_series_svg`] with its fixed words in the caption's language (the series' names and
/// labels are the caller's) and its provenance line.
pub fn two_series_svg_in(
    top: &SeriesSpec,
    bottom: &SeriesSpec,
    correlation: &Correlation,
    caption: &Caption,
) -> String {
    let lang = caption.lang;
    let warning = correlation.warning_in(lang);
    let title = match lang {
        Lang::En => format!("{} and {} by year", top.name, bottom.name),
        Lang::Es => format!("{} y {}, por año", top.name, bottom.name),
    };
    let subtitle = format!(
        "{}: Pearson r = {}{}, Spearman ρ = {}{}; {} {}",
        lang.pick(
            "Correlación de los valores observados",
            "Correlation of the observed values"
        ),
        fmt_r(correlation.pearson, lang),
        fmt_ci(correlation.pearson_ci, lang),
        fmt_r(correlation.spearman, lang),
        fmt_ci(correlation.spearman_ci, lang),
        correlation.n_years,
        lang.pick("años", "years")
    );
    let desc = match lang {
        Lang::En => format!(
            "Two line charts on the same year axis: above, {} ({}); below, {} ({}), each with its bootstrap interval band where available (a year with a band drawn at its bias-corrected value, on which the band is centred). {}. {}",
            top.name, top.y_label, bottom.name, bottom.y_label, subtitle, warning
        ),
        Lang::Es => format!(
            "Dos gráficos de líneas sobre el mismo eje de años: arriba, {} ({}); abajo, {} ({}), cada uno con su banda de intervalo bootstrap cuando existe (un año con banda, en su valor corregido por sesgo, en el que se centra la banda). {}. {}",
            top.name, top.y_label, bottom.name, bottom.y_label, subtitle, warning
        ),
    };
    let width = caption.width_or(WIDTH);
    // The rates' marks say the line: the second series (a value column) has copies only.
    let mut all_points = top.points.clone();
    all_points.extend(bottom.points.iter().cloned());
    all_points.sort_by_key(|p| p.time);
    all_points.dedup_by_key(|p| p.time);
    let mut marks = top.marks.clone();
    marks.copies.extend(bottom.marks.copies.iter().copied());
    marks.copies.sort_unstable();
    marks.copies.dedup();
    let note = marks_note_lines(&marks, &all_points, lang, (width, WIDTH));
    // The warning, 11 px, from 20 px to 20 px before the edge (96 characters at 640 px); more
    // than three lines move the note down and make the chart as much taller.
    let warning_lines = wrap(&warning, ((width - 40.0) / 6.25) as usize);
    let below = (548.0 + WARNING_LINE * warning_lines.len().max(1) as f64 + 10.0).max(HEIGHT);
    let height = with_note(below, &note);
    let mut opened = open_chart(width, height, (&title, Some(&subtitle)), &desc, caption);
    let s = &mut opened.svg;
    let (first, last) = match (all_points.first(), all_points.last()) {
        (Some(a), Some(b)) => (a.time, b.time),
        _ => return close_chart(opened, height, caption),
    };
    let upper = Frame {
        left: 80.0,
        top: 56.0,
        width: width - 104.0,
        height: 190.0,
    };
    let lower = Frame {
        top: 296.0,
        ..upper
    };
    // Each rotated y label fits its panel's height on at most two lines: one line of ~51
    // characters ran 340 px along a 190 px panel, into the other panel's label.
    let (top_label, bottom_label) = (
        panel_label(&top.y_label, upper.height),
        panel_label(&bottom.y_label, lower.height),
    );
    // The series are the caller's (any measure): drawn over the values they have.
    let style = |color, y_label, x_label, marks| SeriesStyle {
        color,
        y_label,
        x_label,
        range: (f64::NEG_INFINITY, f64::INFINITY),
        lang,
        marks,
    };
    series_in_frame(
        s,
        &upper,
        (first, last),
        &top.points,
        &style(PALETTE[0], &top_label, None, &top.marks),
    );
    series_in_frame(
        s,
        &lower,
        (first, last),
        &bottom.points,
        &style(
            PALETTE[1],
            &bottom_label,
            Some(lang.pick("Año", "Year")),
            &bottom.marks,
        ),
    );
    marks_note(s, &note, below - 6.0);
    for (k, line) in warning_lines.iter().enumerate() {
        writeln!(
            s,
            "<text class=\"warning\" x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" fill=\"#444444\">{}</text>",
            c(20.0),
            c(548.0 + WARNING_LINE * k as f64),
            escape(line)
        )
        .expect("write to String");
    }
    close_chart(opened, height, caption)
}
