//! The yearly chart: lines through the years with their intervals, gaps, copies and
//! reconstructed years marked.

use super::*;
use imr_core::inequality::year_marks::diamond_points;
use imr_core::inequality::YearMarks;

/// A yearly chart: each series as a line through its points, broken where a year is missing,
/// intervals as vertical bars, missing years as grey bands; the axis spans the values and
/// intervals shown (nothing else sets it), years at their place on a linear scale.
pub fn year_chart(lang: Lang, title: &str, series: &[Series]) -> Chart {
    year_chart_with_marks(lang, title, series, &YearMarks::default())
}

/// [`year_chart`] where the marked years are drawn as what they are, never as a year like the
/// others: a copy (`imr_core::repeats`) as a dashed band titled "2024: copia de 2023" with
/// hollow points, a year whose deaths were reconstructed from a published rate
/// (`imr_core::reconstructed`) with diamonds; the Inequality view's charts draw them alike.
pub fn year_chart_with_marks(
    lang: Lang,
    title: &str,
    series: &[Series],
    marks: &YearMarks,
) -> Chart {
    year_chart_labelled(lang, title, "", series, marks)
}

/// [`year_chart_with_marks`] with what the vertical axis measures written above it
/// (`y_label`, e.g. "Por 1.000 nacidos vivos"), as a newsroom's chart names its unit; an
/// empty label writes nothing.
pub fn year_chart_labelled(
    lang: Lang,
    title: &str,
    y_label: &str,
    series: &[Series],
    marks: &YearMarks,
) -> Chart {
    Chart {
        title: title.to_owned(),
        svg: year_chart_svg(lang, (title, y_label), series, marks),
    }
}

/// Where each series' legend entry goes: `(x, row)`, entries side by side as wide as their
/// names (about 5.6 px a character at the chart's 10 px), a new row when one would not end
/// inside the chart.
pub(super) fn legend_layout(series: &[Series], left: f64) -> Vec<(f64, usize)> {
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

/// How far under the axis the years' labels sit (their baseline), in px.
const YEAR_LABEL_DROP: f64 = 16.0;

fn year_chart_svg(
    lang: Lang,
    (title, y_label): (&str, &str),
    series: &[Series],
    marks: &YearMarks,
) -> String {
    let legend = legend_layout(series, 44.0);
    let legend_rows = legend.iter().map(|(_, r)| r + 1).max().unwrap_or(1);
    let years = years_of(series);
    let gaps = missing_years(&years);
    let note = note_lines(marks.note(lang, &years, &gaps));
    let note_h = 13.0 * note.len() as f64;
    // One legend row fits the chart's foot; each further row, and the marks' line, adds its
    // height.
    let h = 150.0 + 13.0 * (legend_rows - 1) as f64 + note_h;
    // The axis' label, when there is one, takes a line above the plot.
    let top = if y_label.is_empty() { 10.0 } else { 24.0 };
    let (left, right) = (44.0, 20.0);
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
    if !y_label.is_empty() {
        let _ = write!(
            svg,
            r#"<text class="y-label" x="4" y="12">{}</text>"#,
            escape(y_label)
        );
    }
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
    for &(t, of) in marks.copies.iter().filter(|(t, _)| years.contains(t)) {
        let _ = write!(
            svg,
            r##"<rect class="copy" x="{:.1}" y="{top}" width="{:.1}" height="{}" fill="#f4f4f4" stroke="#999" stroke-dasharray="2 2"><title>{}</title></rect>"##,
            x_of(t) - half,
            2.0 * half,
            h - bottom - top,
            imr_core::inequality::words::copy_title(lang, t, of)
        );
    }
    // The years' baseline 16 px under the axis: the lowest value's label ends 3.5 px + its
    // descent below the axis, just left of the first year's label, which must not touch it.
    for t in labelled_years(&years) {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{t}</text>"#,
            x_of(t),
            h - bottom + YEAR_LABEL_DROP
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
            // A copied year's point is hollow: its value is the previous year's (a copy of a
            // reconstructed year is a copy first). A reconstructed year's is a diamond.
            if marks.copy_of(t).is_none() && marks.is_reconstructed(t) {
                let _ = write!(
                    svg,
                    r#"<polygon class="reconstructed" points="{}" fill="{colour}"><title>{t} ({})</title></polygon>"#,
                    diamond_points(x, y_of(v), 3.5),
                    YearMarks::reconstructed_words(lang)
                );
                continue;
            }
            let fill = if marks.copy_of(t).is_some() {
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
    for (k, line) in note.iter().enumerate() {
        let _ = write!(
            svg,
            r##"<text class="marks" x="{left}" y="{}" fill="#555">{}</text>"##,
            h - 8.0 - 13.0 * (note.len() - 1 - k) as f64,
            escape(line)
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

/// The marks' note ([`YearMarks::note`]) in lines that end inside the chart: each mark on its
/// own line(s), at most [`NOTE_CHARS`] characters a line (about 5.6 px a character at 10 px, from
/// the axis to the chart's edge).
fn note_lines(note: Option<String>) -> Vec<String> {
    note.iter()
        .flat_map(|n| n.split(" · ").map(str::to_owned).collect::<Vec<_>>())
        .flat_map(|part| imr_core::stats::wrap_words(&part, NOTE_CHARS))
        .collect()
}

/// Characters of a line of the marks' note: (320 − 44 − 4) px at about 5.6 px a character.
const NOTE_CHARS: usize = 48;
