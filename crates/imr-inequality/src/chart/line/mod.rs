//! A measure over the years, with its confidence band.

use super::{
    c, close_chart, escape, nice_ticks, num_in, open_chart, ticks_within, x_axis, y_axis,
    year_ticks, Frame, Scale,
};
use crate::report::SeriesPoint;
use crate::year_marks::{diamond_points, YearMarks};
use imr_stats::{Caption, Lang};
use std::fmt::Write;

mod measure;
pub use measure::{
    measure_axis_label, measure_axis_label_in, measure_over_years_svg, measure_over_years_svg_in,
    measure_over_years_svg_with,
};

/// What a line chart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart<'a> {
    pub title: String,
    pub subtitle: Option<String>,
    /// The `<desc>`: what the chart shows, in words.
    pub desc: String,
    /// Y axis label, with the unit.
    pub y_label: String,
    pub points: &'a [SeriesPoint],
    /// The values the measure can take ([`crate::year::Measure::range`]; (−∞, ∞) when any): the axis stays
    /// within them — a measure that cannot be negative (Gini, Theil, ratios, rates…) has its
    /// axis start at max(0, nice floor) — and points and bands are drawn clipped to them.
    pub range: (f64, f64),
    /// Copied and reconstructed years: drawn as what they are.
    pub marks: YearMarks,
}

/// A year chart's (line chart's, box plot's) own width and its height above a note, px.
pub(crate) const WIDTH: f64 = 640.0;
pub(crate) const HEIGHT: f64 = 400.0;

/// The plot area of a year chart (line chart, box plot) `width` px wide: 80 px on the left for
/// the y axis and its label, 56 px on top for the heading, 24 px on the right, and 60 px below
/// it, within [`HEIGHT`], for the years and the x label.
pub(crate) fn year_chart_frame(width: f64) -> Frame {
    Frame {
        left: 80.0,
        top: 56.0,
        width: width - 80.0 - 24.0,
        height: HEIGHT - 56.0 - 60.0,
    }
}

/// How a series is drawn: its colour and axis labels.
pub(crate) struct SeriesStyle<'a> {
    pub color: &'a str,
    pub y_label: &'a str,
    pub x_label: Option<&'a str>,
    /// The values the series can take ([`LineChart::range`]).
    pub range: (f64, f64),
    /// The language of the axis numbers, the points' values and the missing years' titles.
    pub lang: Lang,
    /// Copied and reconstructed years ([`YearMarks`]): a copy is a dashed band titled "2022:
    /// copia de 2021" and a hollow point, a reconstructed year a diamond, never drawn as a year
    /// like the others (the Findings' charts draw them alike).
    pub marks: &'a YearMarks,
}

/// The years on the points' step (the smallest difference between consecutive years) from the
/// first point to the last that have no point: drawn as gaps, never bridged by a line or a band.
pub(crate) fn gap_years(points: &[SeriesPoint]) -> (i64, Vec<i64>) {
    let times: Vec<i64> = points.iter().map(|p| p.time).collect();
    let step = imr_stats::years::year_step(&times).unwrap_or(1);
    (step, imr_stats::years::missing_years(&times))
}

/// Draw one series (line, points, band from `ci`) in `frame` on a year axis from `first` to
/// `last`, with its axes.
pub(crate) fn series_in_frame(
    s: &mut String,
    frame: &Frame,
    (first, last): (i64, i64),
    points: &[SeriesPoint],
    style: &SeriesStyle,
) {
    let SeriesStyle {
        color,
        y_label,
        x_label,
        range,
        lang,
        marks,
    } = *style;
    let clip = |v: f64| v.max(range.0).min(range.1);
    let pad = if first == last { 1.0 } else { 0.0 };
    let x = Scale {
        d0: first as f64 - pad,
        d1: last as f64 + pad,
        r0: frame.left + 12.0,
        r1: frame.right() - 12.0,
    };
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in points {
        lo = lo.min(clip(p.value));
        hi = hi.max(clip(p.value));
        if let Some([a, b]) = p.ci {
            lo = lo.min(clip(a));
            hi = hi.max(clip(b));
        }
    }
    let ticks = ticks_within(nice_ticks(lo, hi, 5, false), range);
    let y = Scale {
        d0: ticks.lo(),
        d1: ticks.hi(),
        r0: frame.bottom(),
        r1: frame.top,
    };
    y_axis(s, frame, &y, (&ticks, lang), y_label);
    x_axis(s, frame, &year_ticks(first, last, &x), x_label);
    // A year without a value is a grey band; lines and bands stop at it.
    let (step, gaps) = gap_years(points);
    let half = (x.map(step as f64) - x.map(0.0)).abs() / 2.0;
    for t in &gaps {
        writeln!(
            s,
            "<rect class=\"gap\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eeeeee\"><title>{t}: {}</title></rect>",
            c(x.map(*t as f64) - half),
            c(frame.top),
            c(2.0 * half),
            c(frame.height),
            lang.pick("sin valor", "no value")
        )
        .expect("write to String");
    }
    for &(t, of) in marks
        .copies
        .iter()
        .filter(|(t, _)| points.iter().any(|p| p.time == *t))
    {
        writeln!(
            s,
            "<rect class=\"copy\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\" stroke=\"#999999\" stroke-dasharray=\"2 2\"><title>{}</title></rect>",
            c(x.map(t as f64) - half),
            c(frame.top),
            c(2.0 * half),
            c(frame.height),
            crate::words::copy_title(lang, t, of)
        )
        .expect("write to String");
        // Said on the chart's face too, so a printed copy or a PNG says it.
        writeln!(
            s,
            "<text class=\"copy-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" {} font-size=\"9\" fill=\"#555555\">{}</text>",
            c(x.map(t as f64)),
            c(frame.top + 10.0),
            super::FONT,
            lang.pick("copia", "copy")
        )
        .expect("write to String");
    }
    let after_gap = |previous: Option<i64>, t: i64| previous.is_some_and(|p| t - p > step);
    // Band: one polygon per run of consecutive points that have an interval.
    let mut run: Vec<(f64, [f64; 2])> = Vec::new();
    let flush = |s: &mut String, run: &mut Vec<(f64, [f64; 2])>| {
        if run.len() == 1 {
            let (t, [a, b]) = run[0];
            writeln!(
                s,
                "<line class=\"ci\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"{color}\" stroke-opacity=\"0.4\" stroke-width=\"6\"/>",
                c(y.map(a)),
                c(y.map(b)),
                x = c(x.map(t))
            )
            .expect("write to String");
        } else if run.len() > 1 {
            let upper = run
                .iter()
                .map(|(t, ci)| format!("{},{}", c(x.map(*t)), c(y.map(ci[1]))));
            let lower = run
                .iter()
                .rev()
                .map(|(t, ci)| format!("{},{}", c(x.map(*t)), c(y.map(ci[0]))));
            writeln!(
                s,
                "<polygon class=\"ci\" points=\"{}\" fill=\"{color}\" fill-opacity=\"0.18\" stroke=\"none\"/>",
                upper.chain(lower).collect::<Vec<_>>().join(" ")
            )
            .expect("write to String");
        }
        run.clear();
    };
    let mut previous = None;
    for p in points {
        if after_gap(previous, p.time) {
            flush(s, &mut run);
        }
        previous = Some(p.time);
        match p.ci {
            Some([a, b]) => run.push((p.time as f64, [clip(a), clip(b)])),
            None => flush(s, &mut run),
        }
    }
    flush(s, &mut run);
    // One polyline per run of consecutive years.
    let mut lines: Vec<Vec<String>> = Vec::new();
    let mut previous = None;
    for p in points {
        if previous.is_none() || after_gap(previous, p.time) {
            lines.push(Vec::new());
        }
        previous = Some(p.time);
        if let Some(line) = lines.last_mut() {
            line.push(format!(
                "{},{}",
                c(x.map(p.time as f64)),
                c(y.map(clip(p.value)))
            ));
        }
    }
    for line in lines.iter().filter(|l| l.len() > 1) {
        writeln!(
            s,
            "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>",
            line.join(" ")
        )
        .expect("write to String");
    }
    for p in points {
        // A copied year's point is hollow and says what it copies; a reconstructed year's is a
        // diamond and says so.
        let (cx, cy) = (x.map(p.time as f64), y.map(clip(p.value)));
        let value = escape(&num_in(lang, p.value, 4));
        match marks.copy_of(p.time) {
            Some(of) => writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#ffffff\" stroke=\"{color}\"><title>{} {}: {value}</title></circle>",
                c(cx),
                c(cy),
                p.time,
                crate::RepeatedYear {
                    time: p.time,
                    repeat_of: of,
                }
                .mark(lang)
            ),
            None if marks.is_reconstructed(p.time) => writeln!(
                s,
                "<polygon class=\"reconstructed\" points=\"{}\" fill=\"{color}\"><title>{} ({}): {value}</title></polygon>",
                diamond_points(cx, cy, 4.0),
                p.time,
                YearMarks::reconstructed_words(lang)
            ),
            None => writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{color}\"><title>{}: {value}</title></circle>",
                c(cx),
                c(cy),
                p.time
            ),
        }
        .expect("write to String");
    }
}

/// Height of each further line a chart's note on its marked years wraps onto.
pub(crate) const NOTE_LINE: f64 = 12.0;

/// The note saying what a chart's marked years are ([`YearMarks::note`]) wrapped to a chart
/// `width` wide of its own `default` ([`super::room_in`]; 10 px, from 20 px to 8 px before the
/// edge): none when no year drawn is marked or missing.
pub(crate) fn marks_note_lines(
    marks: &YearMarks,
    points: &[SeriesPoint],
    lang: Lang,
    (width, default): (f64, f64),
) -> Vec<String> {
    let drawn: Vec<i64> = points.iter().map(|p| p.time).collect();
    let (_, gaps) = gap_years(points);
    (marks.note(lang, &drawn, &gaps))
        .map_or_else(Vec::new, |note| note_lines(&note, width, default))
}

/// A note under a chart `width` wide of its own `default` on the lines it needs.
pub(crate) fn note_lines(note: &str, width: f64, default: f64) -> Vec<String> {
    super::wrap_to(note, super::room_in(width, default, width - 28.0), 10.0)
}

/// The [`marks_note_lines`] from `y` down, [`NOTE_LINE`] apart, under a chart's frame.
pub(crate) fn marks_note(s: &mut String, lines: &[String], y: f64) {
    for (k, line) in lines.iter().enumerate() {
        writeln!(
            s,
            "<text class=\"marks\" x=\"20\" y=\"{}\" {} font-size=\"10\" fill=\"#555555\">{}</text>",
            c(y + NOTE_LINE * k as f64),
            super::FONT,
            escape(line)
        )
        .expect("write to String");
    }
}

/// The height of a chart `height` tall whose note takes `lines` lines.
pub(crate) fn with_note(height: f64, lines: &[String]) -> f64 {
    height + NOTE_LINE * lines.len().saturating_sub(1) as f64
}

/// A line chart of yearly points with their interval band.
pub fn line_chart_svg(chart: &LineChart) -> String {
    line_chart_svg_in(chart, &Caption::default())
}

/// [`line_chart_svg`] with its fixed words in the caption's language and its provenance line.
pub fn line_chart_svg_in(chart: &LineChart, caption: &Caption) -> String {
    let lang = caption.lang;
    let width = caption.width_or(WIDTH);
    let note = marks_note_lines(&chart.marks, chart.points, lang, (width, WIDTH));
    let height = with_note(HEIGHT, &note);
    let mut opened = open_chart(
        width,
        height,
        (&chart.title, chart.subtitle.as_deref()),
        &chart.desc,
        caption,
    );
    let s = &mut opened.svg;
    let frame = year_chart_frame(width);
    if chart.points.is_empty() {
        writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" {} font-size=\"13\">{}</text>",
            c(width / 2.0),
            c(HEIGHT / 2.0),
            super::FONT,
            lang.pick("Ningún año tiene un valor.", "No year has a value.")
        )
        .expect("write to String");
    } else {
        let times = chart.points.iter().map(|p| p.time);
        let first = times.clone().min().expect("non-empty");
        let last = times.max().expect("non-empty");
        series_in_frame(
            s,
            &frame,
            (first, last),
            chart.points,
            &SeriesStyle {
                color: super::PALETTE[0],
                y_label: &chart.y_label,
                x_label: Some(lang.pick("Año", "Year")),
                range: chart.range,
                lang,
                marks: &chart.marks,
            },
        );
        marks_note(s, &note, HEIGHT - 4.0);
    }
    close_chart(opened, height, caption)
}
