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

/// A yearly chart: each series as a line through its points, broken where a year is missing,
/// intervals as vertical bars, missing years as grey bands; the axis spans the values and
/// intervals shown (nothing else sets it), years at their place on a linear scale.
pub fn year_chart(lang: Lang, title: &str, series: &[Series]) -> Chart {
    year_chart_with_copies(lang, title, series, &[])
}

/// [`year_chart`] where the years of `copies` (`(year, the year it repeats)`, from
/// `imr_core::repeats`) are drawn as what they are: a dashed band titled "2024: copia de 2023"
/// and hollow points, never as a year like the others.
pub fn year_chart_with_copies(
    lang: Lang,
    title: &str,
    series: &[Series],
    copies: &[(i64, i64)],
) -> Chart {
    Chart {
        title: title.to_owned(),
        svg: year_chart_svg(lang, title, series, copies),
    }
}

/// Where each series' legend entry goes: `(x, row)`, entries side by side as wide as their
/// names (about 5.6 px a character at the chart's 10 px), a new row when one would not end
/// inside the chart.
fn legend_layout(series: &[Series], left: f64) -> Vec<(f64, usize)> {
    let mut out = Vec::with_capacity(series.len());
    let (mut x, mut row) = (left, 0);
    // The line and the name must end inside the chart; a gap of 14 px before the next entry.
    for s in series {
        let drawn = 18.0 + 5.6 * s.name.chars().count() as f64;
        if x > left && x + drawn > W - 4.0 {
            x = left;
            row += 1;
        }
        out.push((x, row));
        x += drawn + 14.0;
    }
    out
}

fn year_chart_svg(lang: Lang, title: &str, series: &[Series], copies: &[(i64, i64)]) -> String {
    let legend = legend_layout(series, 44.0);
    let legend_rows = legend.iter().map(|(_, r)| r + 1).max().unwrap_or(1);
    let years = years_of(series);
    let gaps = missing_years(&years);
    let marks = marks_note(lang, &years, &gaps, copies);
    let note_h = if marks.is_some() { 13.0 } else { 0.0 };
    // One legend row fits the chart's foot; each further row, and the marks' line, adds its
    // height.
    let h = 150.0 + 13.0 * (legend_rows - 1) as f64 + note_h;
    let (left, right, top) = (44.0, 20.0, 10.0);
    let bottom = h - 110.0;
    let all = series.iter().flat_map(|s| {
        s.points.iter().flat_map(|&(_, v, ci)| {
            std::iter::once(v).chain(ci.into_iter().flat_map(|c| c.into_iter()))
        })
    });
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" width="{W}" height="{h}" role="img" class="finding-chart"><title>{}</title>"#,
        escape(title)
    );
    let Some(ticks) = axis(all, 4) else {
        svg.push_str("</svg>");
        return svg;
    };
    let (lo, hi) = (ticks.lo(), ticks.hi());
    let (first, last) = (years[0], years[years.len() - 1]);
    let x_of = |t: i64| {
        if first == last {
            left + (W - left - right) / 2.0
        } else {
            left + (t - first) as f64 / (last - first) as f64 * (W - left - right)
        }
    };
    let step = year_step(&years).unwrap_or(1);
    let y_of = |v: f64| top + (hi - v) / (hi - lo) * (h - top - bottom);
    let _ = write!(
        svg,
        r##"<g font-family="sans-serif" font-size="10" fill="#333"><line x1="{left}" x2="{left}" y1="{top}" y2="{}" stroke="#999"/>"##,
        h - bottom
    );
    // A value on every tick, with a faint line across: a reader reads any point off the axis.
    for &v in &ticks.values {
        let y = y_of(v);
        let _ = write!(
            svg,
            r##"<line x1="{left}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#e4e4e4"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            W - right,
            left - 3.0,
            y + 3.5,
            number(lang, v, ticks.decimals)
        );
    }
    let half = if first == last {
        0.0
    } else {
        0.5 * step as f64 / (last - first) as f64 * (W - left - right)
    };
    for t in &gaps {
        let _ = write!(
            svg,
            r##"<rect x="{:.1}" y="{top}" width="{:.1}" height="{}" fill="#eee"><title>{t}: {}</title></rect>"##,
            x_of(*t) - half,
            2.0 * half,
            h - bottom - top,
            lang.pick("sin datos", "no data")
        );
    }
    for &(t, of) in copies.iter().filter(|(t, _)| years.contains(t)) {
        let _ = write!(
            svg,
            r##"<rect class="copy" x="{:.1}" y="{top}" width="{:.1}" height="{}" fill="#f4f4f4" stroke="#999" stroke-dasharray="2 2"><title>{t}: {} {of}</title></rect>"##,
            x_of(t) - half,
            2.0 * half,
            h - bottom - top,
            lang.pick("copia de", "a copy of")
        );
    }
    for t in labelled_years(&years) {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{t}</text>"#,
            x_of(t),
            h - bottom + 12.0
        );
    }
    for (k, s) in series.iter().enumerate() {
        let colour = if s.secondary { "#777" } else { "#b3361b" };
        let dash = if s.secondary {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        // One polyline per run of consecutive years: no line crosses a missing year.
        let mut runs: Vec<Vec<String>> = Vec::new();
        let mut previous: Option<i64> = None;
        for &(t, v, _) in &s.points {
            if previous.is_none_or(|p| t - p > step) {
                runs.push(Vec::new());
            }
            if let Some(run) = runs.last_mut() {
                run.push(format!("{:.1},{:.1}", x_of(t), y_of(v)));
            }
            previous = Some(t);
        }
        for run in runs.iter().filter(|r| r.len() > 1) {
            let _ = write!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5"{dash}/>"#,
                run.join(" ")
            );
        }
        for &(t, v, ci) in &s.points {
            let x = x_of(t);
            if let Some([a, b]) = ci {
                let _ = write!(
                    svg,
                    r#"<line x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{:.1}" stroke="{colour}"/>"#,
                    y_of(a),
                    y_of(b)
                );
            }
            // A copied year's point is hollow: its value is the previous year's.
            let fill = if copies.iter().any(|(c, _)| *c == t) {
                "#fff"
            } else {
                colour
            };
            let _ = write!(
                svg,
                r#"<circle cx="{x:.1}" cy="{:.1}" r="2.5" fill="{fill}" stroke="{colour}"/>"#,
                y_of(v)
            );
        }
        let (lx, row) = legend[k];
        let ly = h - 12.0 - note_h - 13.0 * (legend_rows - 1 - row) as f64;
        let _ = write!(
            svg,
            r#"<line x1="{lx}" x2="{}" y1="{}" y2="{}" stroke="{colour}" stroke-width="1.5"{dash}/><text x="{}" y="{ly}">{}</text>"#,
            lx + 14.0,
            ly - 3.0,
            ly - 3.0,
            lx + 18.0,
            escape(&s.name)
        );
    }
    // What the dashed and grey bands are, in words on the chart's face: its `<title>`s are
    // tooltips, which a printed page or a published picture does not show.
    if let Some(marks) = marks {
        let _ = write!(
            svg,
            r##"<text class="marks" x="{left}" y="{}" fill="#555">{}</text>"##,
            h - 8.0,
            escape(&marks)
        );
    }
    svg.push_str("</g></svg>");
    svg
}

/// The years of the series' points, ascending, each once.
fn years_of(series: &[Series]) -> Vec<i64> {
    let mut years: Vec<i64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    years.sort_unstable();
    years.dedup();
    years
}

/// The line under a year chart of `years` (with the missing `gaps`) saying what its marked
/// years are: "Punteado: 2022, copia de 2021 · Gris: 2016, sin datos"; `None` when no year is
/// copied or missing.
fn marks_note(lang: Lang, years: &[i64], gaps: &[i64], copies: &[(i64, i64)]) -> Option<String> {
    let mut parts = Vec::new();
    let copied: Vec<String> = (copies.iter())
        .filter(|(t, _)| years.contains(t))
        .map(|(t, of)| format!("{t}, {} {of}", lang.pick("copia de", "a copy of")))
        .collect();
    if !copied.is_empty() {
        parts.push(format!(
            "{}: {}",
            lang.pick("Punteado", "Dashed"),
            copied.join("; ")
        ));
    }
    if !gaps.is_empty() {
        let listed: Vec<String> = gaps.iter().take(3).map(i64::to_string).collect();
        let more = if gaps.len() > 3 { "…" } else { "" };
        parts.push(format!(
            "{}: {}{more}, {}",
            lang.pick("Gris", "Grey"),
            listed.join(", "),
            lang.pick("sin datos", "no data")
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

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
mod tests {
    use super::*;

    #[test]
    fn the_axis_spans_the_points_and_intervals_only() {
        let s = Series {
            name: "a".into(),
            points: vec![(2019, 5.0, Some([4.0, 6.0])), (2020, 6.0, None)],
            secondary: false,
        };
        let svg = year_chart(Lang::En, "t <x>", &[s]).svg;
        assert!(svg.contains("<title>t &lt;x&gt;</title>"));
        // Values 4 to 6: ticks every 0.5 from 4.0 to 6.0, each labelled, none beyond.
        for label in ["4.0", "4.5", "5.0", "5.5", "6.0"] {
            assert!(svg.contains(&format!(">{label}<")), "{label}: {svg}");
        }
        assert!(!svg.contains(">3.5<") && !svg.contains(">6.5<"), "{svg}");
    }

    /// A Gini whose interval reaches 0 (the adjusted Gini of a year without excess variation):
    /// the axis starts at 0, not 8% of the range below it.
    #[test]
    fn an_interval_reaching_zero_keeps_the_axis_at_zero() {
        let s = Series {
            name: "Gini".into(),
            points: vec![
                (2019, 0.05, Some([0.0, 0.1])),
                (2020, 0.1, Some([0.05, 0.15])),
            ],
            secondary: false,
        };
        assert_eq!(
            axis([0.05, 0.0, 0.1, 0.1, 0.05, 0.15].into_iter(), 4)
                .unwrap()
                .lo(),
            0.0
        );
        let svg = year_chart(Lang::Es, "Gini", &[s]).svg;
        assert!(!svg.contains(">-") && !svg.contains(">−"), "{svg}");
        // Values below zero keep an axis below zero.
        let ticks = axis([-1.0, 1.0].into_iter(), 4).unwrap();
        assert_eq!((ticks.lo(), ticks.hi()), (-1.0, 1.0));
    }

    /// 2016 and 2020 are missing: no line is drawn across them, each is a grey band titled as
    /// missing, and the years keep their place on the axis (2017 is as far from 2015 as 2015 from
    /// 2013).
    /// Legend entries sit side by side as wide as their names, and a name that would run past
    /// the chart's edge starts a new row (the newcomer saw "Gini de las tasas observad…" cut).
    #[test]
    fn legend_entries_never_run_past_the_edge() {
        let series = |name: &str| Series {
            name: name.into(),
            points: vec![(2019, 1.0, None), (2020, 2.0, None)],
            secondary: false,
        };
        // The bundled rates chart's two entries fit on one row.
        let short = [series("Tasa nacional (IC 95%)"), series("Mediana comunal")];
        assert_eq!(
            legend_layout(&short, 44.0),
            [(44.0, 0), (44.0 + 18.0 + 5.6 * 22.0 + 14.0, 0)]
        );
        let long = [
            series("Gini sin el azar (IC 95%)"),
            series("Gini de las tasas observadas"),
        ];
        let layout = legend_layout(&long, 44.0);
        assert_eq!(layout, [(44.0, 0), (44.0, 1)]);
        for ((x, _), s) in layout.iter().zip(&long) {
            assert!(
                x + 18.0 + 5.6 * s.name.chars().count() as f64 <= W,
                "{}",
                s.name
            );
        }
        let svg = year_chart(Lang::Es, "t", &long).svg;
        assert!(svg.contains(r#"viewBox="0 0 320 163""#), "{svg}");
    }

    #[test]
    fn a_missing_year_is_a_gap_not_a_line() {
        let points = |years: &[i64]| {
            years
                .iter()
                .map(|&t| (t, t as f64 - 2000.0, None))
                .collect()
        };
        let s = Series {
            name: "a".into(),
            points: points(&[2013, 2014, 2015, 2017, 2018, 2019, 2021]),
            secondary: false,
        };
        let svg = year_chart(Lang::Es, "t", &[s]).svg;
        assert_eq!(
            missing_years(&[2013, 2014, 2015, 2017, 2018, 2019, 2021]),
            [2016, 2020]
        );
        // Runs 2013–2015 and 2017–2019 are lines; 2021 alone is a point.
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
        assert!(svg.contains("<title>2016: sin datos</title>"), "{svg}");
        assert!(svg.contains("<title>2020: sin datos</title>"), "{svg}");
        // Linear axis: the plotting width 256 over 8 years is 32 per year.
        let circle_x: Vec<f64> = svg
            .split("<circle cx=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(circle_x.len(), 7);
        assert!((circle_x[3] - circle_x[2] - 2.0 * (circle_x[2] - circle_x[1])).abs() < 0.2);
        // With no gap, one line and no band.
        let full = Series {
            name: "b".into(),
            points: points(&[2001, 2002, 2003]),
            secondary: false,
        };
        let svg = year_chart(Lang::En, "t", &[full]).svg;
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(!svg.contains("no data"));
    }

    #[test]
    fn many_years_are_labelled_sparsely() {
        let years: Vec<i64> = (2001..=2021).collect();
        assert_eq!(labelled_years(&years), [2001, 2005, 2010, 2015, 2021]);
        assert_eq!(labelled_years(&[2019, 2020, 2021]), [2019, 2020, 2021]);
    }

    #[test]
    fn a_reference_on_a_tick_is_labelled_once() {
        let rows = [
            Row {
                label: "a".into(),
                value: -1.0,
                ci: Some([-2.0, 0.5]),
            },
            Row {
                label: "b".into(),
                value: 2.0,
                ci: Some([1.0, 3.5]),
            },
        ];
        let svg = interval_rows(Lang::En, "t", &rows, (0.0, "0")).svg;
        assert_eq!(svg.matches(">0<").count(), 1, "{svg}");
        assert!(svg.contains(">2<") || svg.contains(">2.0<"), "{svg}");
        // A named reference ("national") leaves the tick's number in place.
        let svg = interval_rows(Lang::En, "t", &rows, (0.0, "national")).svg;
        assert_eq!(svg.matches(">0<").count(), 1, "{svg}");
    }

    #[test]
    fn no_data_gives_an_empty_chart_not_a_panic() {
        let svg = year_chart(Lang::Es, "vacío", &[]).svg;
        assert!(svg.ends_with("</svg>"));
        let svg = interval_rows(Lang::Es, "vacío", &[], (f64::NAN, "0")).svg;
        assert!(svg.ends_with("</svg>"));
    }

    /// A copied and a missing year are said in words on the chart's face (a printed chart has
    /// no tooltips); a chart without either has no such line.
    #[test]
    fn copied_and_missing_years_are_said_under_the_chart() {
        let s = Series {
            name: "Tasa".into(),
            points: vec![
                (2014, 7.0, None),
                (2015, 7.1, None),
                (2017, 6.9, None),
                (2018, 6.9, None),
            ],
            secondary: false,
        };
        let svg =
            year_chart_with_copies(Lang::Es, "t", std::slice::from_ref(&s), &[(2018, 2017)]).svg;
        assert!(
            svg.contains(">Punteado: 2018, copia de 2017 · Gris: 2016, sin datos</text>"),
            "{svg}"
        );
        let en =
            year_chart_with_copies(Lang::En, "t", std::slice::from_ref(&s), &[(2018, 2017)]).svg;
        assert!(en.contains(">Dashed: 2018, a copy of 2017 · Grey: 2016, no data</text>"));
        let plain = Series {
            points: vec![(2014, 7.0, None), (2015, 7.1, None)],
            ..s
        };
        assert!(!year_chart(Lang::Es, "t", &[plain])
            .svg
            .contains("class=\"marks\""));
    }
}
