//! Small inline SVG charts for the findings: a yearly series with intervals, and rows of
//! estimates with intervals around a reference line. Self-contained (no fonts or scripts
//! fetched, `role="img"` with a title), so they can be pasted into an article or a report.
//!
//! Hand-written rather than taken from the engines' chart modules: those draw full-size figures
//! with axes titles and provenance; these are thumbnails that must stay a few hundred bytes.

use crate::words::number;
use imr_core::stats::axis::{nice_ticks, ticks_within, Ticks};
use imr_core::Lang;
use std::fmt::Write;

/// One yearly series: `(year, value, 95% interval)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(i64, f64, Option<[f64; 2]>)>,
    /// Drawn dashed and grey (a secondary series, e.g. the median next to the pooled rate).
    pub secondary: bool,
}

/// Escapes text for XML content and attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const W: f64 = 320.0;

/// A drawn chart: its title (what it measures, its SVG `<title>`) and the SVG itself.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Chart {
    pub title: String,
    pub svg: String,
}

/// The axis of the values shown: "nice" ticks (imr_stats::axis) covering them, about `target`
/// of them; values that cannot be negative (rates, Gini, intervals reaching 0) keep the axis at
/// 0. `None` without a finite value. The axis spans the first to the last tick.
fn axis(values: impl Iterator<Item = f64>, target: usize) -> Option<Ticks> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return None;
    }
    let ticks = nice_ticks(lo, hi, target, false);
    Some(if lo >= 0.0 {
        ticks_within(ticks, (0.0, f64::INFINITY))
    } else {
        ticks
    })
}

/// The years between the first and the last, on the data's step, that no series has: a gap is
/// drawn as one (a band, no line across it), never bridged.
pub use imr_core::stats::years::missing_years;
use imr_core::stats::years::year_step;

/// The years whose label is written under the axis: all of them up to 8, else the first, the
/// last and every fifth year not crowding them.
fn labelled_years(years: &[i64]) -> Vec<i64> {
    let (Some(&first), Some(&last)) = (years.first(), years.last()) else {
        return Vec::new();
    };
    if years.len() <= 8 {
        return years.to_vec();
    }
    let mut labels = vec![first];
    labels.extend((first + 1..last).filter(|t| t % 5 == 0 && t - first >= 3 && last - t >= 3));
    labels.push(last);
    labels
}

mod year;
pub use year::{year_chart, year_chart_labelled, year_chart_with_marks};

/// One row of an interval chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub label: String,
    pub value: f64,
    pub ci: Option<[f64; 2]>,
}

/// Rows of estimates with their intervals on one horizontal scale, with a vertical reference line
/// (zero for coefficients, the national rate for communes).
pub fn interval_rows(lang: Lang, title: &str, rows: &[Row], reference: (f64, &str)) -> Chart {
    Chart {
        title: title.to_owned(),
        svg: interval_rows_svg(lang, title, rows, reference),
    }
}

fn interval_rows_svg(lang: Lang, title: &str, rows: &[Row], reference: (f64, &str)) -> String {
    let row_h = 22.0;
    let (left, right, top) = (130.0, 12.0, 8.0);
    let h = top + row_h * rows.len() as f64 + 30.0;
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" class="finding-chart"><title>{}</title>"#,
        escape(title)
    );
    let all = rows
        .iter()
        .flat_map(|r| std::iter::once(r.value).chain(r.ci.into_iter().flat_map(|c| c.into_iter())))
        .chain(std::iter::once(reference.0));
    let Some(ticks) = axis(all, 3) else {
        svg.push_str("</svg>");
        return svg;
    };
    let (lo, hi) = (ticks.lo(), ticks.hi());
    let x_of = |v: f64| left + (v - lo) / (hi - lo) * (W - left - right);
    let bottom = top + row_h * rows.len() as f64;
    let rx = x_of(reference.0);
    let _ = write!(
        svg,
        r##"<g font-family="sans-serif" font-size="10" fill="#333"><line x1="{rx:.1}" x2="{rx:.1}" y1="{top}" y2="{bottom}" stroke="#555" stroke-dasharray="3 2"/><text x="{rx:.1}" y="{}" text-anchor="middle">{}</text>"##,
        bottom + 11.0,
        escape(reference.1),
    );
    // A value on every tick, under a faint line: the intervals are read off the axis. The
    // reference's own label already names a tick it stands on (the "0" of coefficients).
    let labelled_by_reference = |v: f64| {
        (v - reference.0).abs() < 1e-9 * (1.0 + v.abs()) && reference.1.parse::<f64>().is_ok()
    };
    for &v in ticks.values.iter().filter(|&&v| !labelled_by_reference(v)) {
        let x = x_of(v);
        let _ = write!(
            svg,
            r##"<line x1="{x:.1}" x2="{x:.1}" y1="{top}" y2="{bottom}" stroke="#e4e4e4"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"##,
            bottom + 24.0,
            number(lang, v, ticks.decimals)
        );
    }
    for (k, r) in rows.iter().enumerate() {
        let y = top + row_h * (k as f64 + 0.5);
        let _ = write!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + 3.5,
            escape(&r.label)
        );
        if let Some([a, b]) = r.ci {
            let _ = write!(
                svg,
                r##"<line x1="{:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#b3361b" stroke-width="1.5"/>"##,
                x_of(a),
                x_of(b)
            );
        }
        let _ = write!(
            svg,
            r##"<circle cx="{:.1}" cy="{y:.1}" r="3" fill="#b3361b"/>"##,
            x_of(r.value)
        );
    }
    svg.push_str("</g></svg>");
    svg
}

#[cfg(test)]
mod tests;
