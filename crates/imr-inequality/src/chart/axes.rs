//! The axes of a chart: the value axis with its rotated label, the bottom axis with its ticks
//! and label, and the year ticks, spaced by the room their labels take at the width the chart is
//! drawn at (a 320 px chart of 2001–2021 labels every fifth year, not every second one on top of
//! each other).

use super::{c, escape, label_number_in, Frame, Scale, Ticks, FONT};
use imr_stats::Lang;
use std::fmt::Write;

/// Pixels a character of an 11 px tick label takes (a DejaVu Sans digit is 0.64 em, rounded up).
const TICK_CHAR: f64 = 7.0;

/// The least room between two tick labels.
const TICK_GAP: f64 = 4.0;

/// The room a tick label needs from its centre to the next one's: its width and a gap.
pub(crate) fn tick_room(label: &str) -> f64 {
    label.chars().count() as f64 * TICK_CHAR + TICK_GAP
}

/// Left axis with ticks (numbers in `lang`), grid lines and a rotated label (on more than one
/// line where it has line breaks).
pub(crate) fn y_axis(
    s: &mut String,
    frame: &Frame,
    scale: &Scale,
    (ticks, lang): (&Ticks, Lang),
    label: &str,
) {
    s.push_str("<g class=\"y-axis\">\n");
    for &t in &ticks.values {
        let y = c(scale.map(t));
        writeln!(
            s,
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#e0e0e0\"/>\n<text x=\"{}\" y=\"{y}\" dy=\"0.32em\" text-anchor=\"end\" {FONT} font-size=\"11\">{}</text>",
            c(frame.left),
            c(frame.right()),
            c(frame.left - 6.0),
            label_number_in(t, ticks.decimals, lang)
        )
        .expect("write to String");
    }
    writeln!(
        s,
        "<line x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{b}\" stroke=\"#333333\"/>",
        l = c(frame.left),
        t = c(frame.top),
        b = c(frame.bottom())
    )
    .expect("write to String");
    // A label with line breaks (one too long for a narrow chart's frame) on as many lines,
    // 14 px apart, the last where a one-line label is.
    let lines: Vec<&str> = label.split('\n').collect();
    for (k, line) in lines.iter().enumerate() {
        let before = (lines.len() - 1 - k) as f64;
        let (x, y) = (
            frame.left - 52.0 - 14.0 * before,
            frame.top + frame.height / 2.0,
        );
        writeln!(
            s,
            "<text x=\"{x}\" y=\"{y}\" transform=\"rotate(-90 {x} {y})\" text-anchor=\"middle\" {FONT} font-size=\"12\">{}</text>",
            escape(line),
            x = c(x),
            y = c(y)
        )
        .expect("write to String");
    }
    s.push_str("</g>\n");
}

/// Bottom axis with ticks and a label (on more than one line where it has line breaks);
/// `ticks` gives each tick's place and text.
pub(crate) fn x_axis(s: &mut String, frame: &Frame, ticks: &[(f64, String)], label: Option<&str>) {
    s.push_str("<g class=\"x-axis\">\n");
    writeln!(
        s,
        "<line x1=\"{}\" y1=\"{b}\" x2=\"{}\" y2=\"{b}\" stroke=\"#333333\"/>",
        c(frame.left),
        c(frame.right()),
        b = c(frame.bottom())
    )
    .expect("write to String");
    for (x, text) in ticks {
        writeln!(
            s,
            "<line x1=\"{x}\" y1=\"{b}\" x2=\"{x}\" y2=\"{b5}\" stroke=\"#333333\"/>\n<text x=\"{x}\" y=\"{b18}\" text-anchor=\"middle\" {FONT} font-size=\"11\">{}</text>",
            escape(text),
            x = c(*x),
            b = c(frame.bottom()),
            b5 = c(frame.bottom() + 5.0),
            b18 = c(frame.bottom() + 18.0)
        )
        .expect("write to String");
    }
    // A label with line breaks on as many lines, 14 px apart.
    for (k, line) in label.iter().flat_map(|l| l.split('\n')).enumerate() {
        writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" {FONT} font-size=\"12\">{}</text>",
            c(frame.left + frame.width / 2.0),
            c(frame.bottom() + 38.0 + 14.0 * k as f64),
            escape(line)
        )
        .expect("write to String");
    }
    s.push_str("</g>\n");
}

/// Year ticks for a year axis spanning `first` to `last` drawn by `scale` (at most about 10
/// labels, never two on top of each other).
///
/// The step is the smallest of 1, 2, 5, 10, 20, 25, 50, … years giving at most 10 steps whose
/// labels are [`tick_room`] apart on the scale, and the last year is always labelled (a reader
/// looks for the latest year: a chart of 2001–2021 labelled every third year stopped at 2019),
/// the tick before it dropped when closer than three quarters of a step or than its room.
pub(crate) fn year_ticks(first: i64, last: i64, scale: &Scale) -> Vec<(f64, String)> {
    let span = (last - first).max(0);
    let per_year = (scale.map(1.0) - scale.map(0.0)).abs();
    let room = tick_room(&first.to_string()).max(tick_room(&last.to_string()));
    let apart = |years: i64| years as f64 * per_year >= room;
    let step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|&s| span / s <= 10 && apart(s))
        .unwrap_or((span / 10).max(1));
    let mut years: Vec<i64> = (0..=span / step).map(|k| first + k * step).collect();
    if years.last() != Some(&last) {
        let gap = last - years[years.len() - 1];
        if years.len() > 1 && (4 * gap < 3 * step || !apart(gap)) {
            years.pop();
        }
        years.push(last);
    }
    years
        .into_iter()
        .map(|t| (scale.map(t as f64), t.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first and the last year are labelled, at most 11 labels, none closer than 3/4 of
    /// the step to the last (2001–2021 had labels every third year up to 2019), none on
    /// another at the line chart's frame of a 640 px and a 320 px chart.
    #[test]
    fn year_ticks_label_the_first_and_the_last_year() {
        for ((first, last), width) in [
            (2001, 2021),
            (2001, 2018),
            (2019, 2023),
            (2021, 2021),
            (1990, 2023),
        ]
        .into_iter()
        .flat_map(|span| [(span, 640.0), (span, 320.0)])
        {
            let scale = Scale {
                d0: first as f64 - if first == last { 1.0 } else { 0.0 },
                d1: last as f64 + if first == last { 1.0 } else { 0.0 },
                r0: 92.0,
                r1: width - 36.0,
            };
            let ticks = year_ticks(first, last, &scale);
            for pair in ticks.windows(2) {
                assert!(pair[1].0 - pair[0].0 >= 32.0, "{width}: {ticks:?}");
            }
            let years: Vec<i64> = ticks.iter().map(|(_, t)| t.parse().unwrap()).collect();
            assert_eq!(years.first(), Some(&first), "{years:?}");
            assert_eq!(years.last(), Some(&last), "{years:?}");
            assert!(years.len() <= 11, "{years:?}");
            let gaps: Vec<i64> = years.windows(2).map(|w| w[1] - w[0]).collect();
            if let Some(step) = gaps.first() {
                assert!(gaps.iter().all(|g| 4 * g >= 3 * step), "{years:?}");
            }
        }
    }
}
