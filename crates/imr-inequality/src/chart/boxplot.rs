//! Distribution of area values per year as Tukey box plots.

use super::line::{marks_note, note_lines, with_note, year_chart_frame, HEIGHT, WIDTH};
use super::{
    c, close_chart, escape, nice_ticks, num_in, open_chart, tick_room, x_axis, y_axis, Frame,
    Scale, FONT, PALETTE,
};
use crate::distribution::BoxPlotStats;
use crate::report::SubjectInfo;
use imr_stats::{Caption, Lang};
use std::fmt::Write;

/// One box per year: box from q1 to q3, line at the median, whiskers to the most extreme values
/// within 1.5 IQR of the box, outliers as open circles (hover shows the area and its value).
pub fn box_plot_svg(boxes: &[BoxPlotStats], subject: &SubjectInfo) -> String {
    box_plot_svg_in(boxes, subject, &Caption::default())
}

/// [`box_plot_svg`] in the caption's language, with its provenance line.
pub fn box_plot_svg_in(boxes: &[BoxPlotStats], subject: &SubjectInfo, caption: &Caption) -> String {
    box_plot_svg_flagged(
        boxes,
        subject,
        caption,
        &|_, _| false,
        &crate::YearMarks::default(),
    )
}

/// [`box_plot_svg_in`] with the outliers for which `is_flagged(entity, time)` holds (rows flagged
/// as implausible by the caller) kept out of the axis scale: the scale spans the whiskers and
/// the other outliers only. A flagged outlier inside that scale is drawn as a dashed circle; one
/// beyond it is drawn as a triangle at the edge of the plot with the note
/// "off scale: 1000 (flagged)". The box statistics themselves are unchanged (they are the
/// caller's; see [`crate::distribution::box_plot_stats`]). The copied years of `marks` are
/// hollow dashed boxes labelled "copia", its reconstructed years boxes with a diamond on the
/// median, said under the chart; never boxes like the others.
pub fn box_plot_svg_flagged(
    boxes: &[BoxPlotStats],
    subject: &SubjectInfo,
    caption: &Caption,
    is_flagged: &dyn Fn(&str, i64) -> bool,
    marks: &crate::YearMarks,
) -> String {
    let lang = caption.lang;
    let (title, y_label, desc) = chart_texts(boxes, subject, lang);
    let subtitle = lang.pick(
        "Bigotes: hasta 1,5 veces el rango entre los cuartiles; círculos: comunas más allá",
        "Whiskers: up to 1.5 times the interquartile range; circles: areas beyond",
    );
    let width = caption.width_or(WIDTH);
    // One slot per year on the boxes' step from the first to the last, so that a year without a
    // box (no data) keeps its place, drawn as a grey band, instead of two years touching.
    let drawn: Vec<i64> = boxes.iter().map(|b| b.time).collect();
    let gaps = imr_stats::years::missing_years(&drawn);
    let note = (marks.note(lang, &drawn, &gaps))
        .map_or_else(Vec::new, |note| note_lines(&note, width, WIDTH));
    let height = with_note(HEIGHT, &note);
    let mut opened = open_chart(width, height, (&title, Some(subtitle)), &desc, caption);
    let s = &mut opened.svg;
    let frame = year_chart_frame(width);
    if boxes.is_empty() {
        return close_chart(opened, height, caption);
    }
    // The scale: whiskers and unflagged outliers (with no flag this is every box's min and max).
    let scaled = |b: &BoxPlotStats| {
        let kept = b
            .outliers
            .iter()
            .filter(|o| !is_flagged(&o.entity, b.time))
            .map(|o| o.value);
        let lo = kept.clone().fold(b.whisker_low, f64::min);
        let hi = kept.fold(b.whisker_high, f64::max);
        (lo, hi)
    };
    let lo = boxes
        .iter()
        .map(|b| scaled(b).0)
        .fold(f64::INFINITY, f64::min);
    let hi = boxes
        .iter()
        .map(|b| scaled(b).1)
        .fold(f64::NEG_INFINITY, f64::max);
    let ticks = nice_ticks(lo, hi, 5, false);
    let y = Scale {
        d0: ticks.lo(),
        d1: ticks.hi(),
        r0: frame.bottom(),
        r1: frame.top,
    };
    y_axis(s, &frame, &y, (&ticks, lang), &y_label);
    let mut slots: Vec<i64> = drawn.iter().chain(&gaps).copied().collect();
    slots.sort_unstable();
    slots.dedup();
    let slot = frame.width / slots.len() as f64;
    let half = (slot * 0.3).min(18.0);
    let centre_of = |t: i64| {
        let k = slots.iter().position(|&s| s == t).unwrap_or(0);
        frame.left + slot * (k as f64 + 0.5)
    };
    // At most 12 labels, each with the room its year takes (every fourth year at 320 px).
    let room = (slots.iter())
        .map(|t| tick_room(&t.to_string()))
        .fold(0.0, f64::max);
    let every = (slots.len() / 12 + 1).max((room / slot).ceil() as usize);
    let xt: Vec<(f64, String)> = (slots.iter().step_by(every))
        .map(|&t| (centre_of(t), t.to_string()))
        .collect();
    x_axis(s, &frame, &xt, Some(lang.pick("Año", "Year")));
    for &t in &gaps {
        writeln!(
            s,
            "<rect class=\"gap\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eeeeee\"><title>{t}: {}</title></rect>",
            c(centre_of(t) - slot / 2.0),
            c(frame.top),
            c(slot),
            c(frame.height),
            lang.pick("sin datos", "no data")
        )
        .expect("write to String");
    }
    for b in boxes.iter() {
        let at = BoxAt {
            x: centre_of(b.time),
            half,
            y: &y,
            frame: &frame,
            narrow: width < WIDTH,
        };
        draw_box(s, b, &at, lang, marks, is_flagged);
    }
    marks_note(s, &note, HEIGHT - 4.0);
    close_chart(opened, height, caption)
}

/// The title, the y axis' label and the `<desc>` of the box plot of `boxes`.
fn chart_texts(
    boxes: &[BoxPlotStats],
    subject: &SubjectInfo,
    lang: Lang,
) -> (String, String, String) {
    let value_name = subject.value_name.text(lang);
    let title = match lang {
        Lang::En => format!("Distribution of the {value_name} across areas, by year"),
        Lang::Es => format!("Distribución de la {value_name} entre comunas, por año"),
    };
    let y_label = if subject.unit.is_empty() {
        super::capitalised(&value_name)
    } else {
        format!(
            "{} ({})",
            super::capitalised(&value_name),
            subject.unit.text(lang)
        )
    };
    let n_outliers: usize = boxes.iter().map(|b| b.outliers.len()).sum();
    let beyond_es = match n_outliers {
        1 => "1 comuna más allá, dibujada como un círculo".to_string(),
        n => format!("{n} comunas más allá, dibujadas como círculos"),
    };
    let desc = match ((boxes.first(), boxes.last()), lang) {
        // One year: one box, said as one ("1 años de 2021 a 2021 … en 2021 y … en 2021").
        ((Some(a), Some(_)), Lang::En) if boxes.len() == 1 => format!(
            "Box plot of the {} of each area in {} (unweighted: each area counts once). Box: 25th to 75th percentile; line: median; whiskers: most extreme values within 1.5 times the interquartile range; {} beyond them drawn as circles. Median {:.2}.",
            value_name, a.time, match n_outliers { 1 => "1 area".to_string(), n => format!("{n} areas") }, a.median
        ),
        ((Some(a), Some(_)), Lang::Es) if boxes.len() == 1 => format!(
            "Diagrama de caja de la {} de cada comuna en {} (sin ponderar: cada comuna cuenta una vez). Caja: percentiles 25 a 75; línea: mediana; bigotes: valores más extremos dentro de 1,5 veces el rango intercuartílico; {beyond_es}. Mediana {}.",
            value_name, a.time, num_in(lang, a.median, 2)
        ),
        ((Some(a), Some(b)), Lang::En) => format!(
            "Box plots of the {} of each area, one box per year, {} years from {} to {} (unweighted: each area counts once). Box: 25th to 75th percentile; line: median; whiskers: most extreme values within 1.5 times the interquartile range; {} areas beyond them drawn as circles. Median {:.2} in {} and {:.2} in {}.",
            value_name, boxes.len(), a.time, b.time, n_outliers, a.median, a.time, b.median, b.time
        ),
        ((Some(a), Some(b)), Lang::Es) => format!(
            "Diagramas de caja de la {} de cada comuna, una caja por año, {} años de {} a {} (sin ponderar: cada comuna cuenta una vez). Caja: percentiles 25 a 75; línea: mediana; bigotes: valores más extremos dentro de 1,5 veces el rango intercuartílico; {beyond_es}. Mediana {} en {} y {} en {}.",
            value_name, boxes.len(), a.time, b.time, num_in(lang, a.median, 2), a.time, num_in(lang, b.median, 2), b.time
        ),
        (_, Lang::En) => format!("Box plots of the {value_name}: no year has an area."),
        (_, Lang::Es) => format!("Diagramas de caja de la {value_name}: ningún año tiene comunas."),
    };
    (title, y_label, desc)
}

/// Where one year's box is drawn: its centre, its half width, the value scale and the frame.
struct BoxAt<'a> {
    x: f64,
    half: f64,
    y: &'a Scale,
    frame: &'a Frame,
    /// Drawn narrower than its own width: an off-scale note that would pass the chart's edge
    /// is written to the left of its mark.
    narrow: bool,
}

/// One year's box (`<g class="box">`): whiskers, the box titled with its figures (a copy hollow,
/// dashed and labelled, a reconstructed year with a diamond on its median), the median and the
/// outliers (flagged ones by [`flagged_outlier`]).
fn draw_box(
    s: &mut String,
    b: &BoxPlotStats,
    at: &BoxAt,
    lang: Lang,
    marks: &crate::YearMarks,
    is_flagged: &dyn Fn(&str, i64) -> bool,
) {
    let BoxAt {
        x, half, y, frame, ..
    } = *at;

    let color = PALETTE[0];
    writeln!(s, "<g class=\"box\" data-time=\"{}\">", b.time).expect("write to String");
    writeln!(
        s,
        "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#333333\"/>\n<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#333333\"/>",
        c(y.map(b.whisker_low)),
        c(y.map(b.q1)),
        c(y.map(b.q3)),
        c(y.map(b.whisker_high)),
        x = c(x)
    )
    .expect("write to String");
    for w in [b.whisker_low, b.whisker_high] {
        writeln!(
            s,
            "<line x1=\"{}\" y1=\"{yy}\" x2=\"{}\" y2=\"{yy}\" stroke=\"#333333\"/>",
            c(x - half / 2.0),
            c(x + half / 2.0),
            yy = c(y.map(w))
        )
        .expect("write to String");
    }
    let copy = marks.copy_of(b.time).map(|of| (b.time, of));
    let (paint, year) = match copy {
        Some((t, of)) => {
            writeln!(
                s,
                "<text class=\"copy-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" {FONT} font-size=\"9\" fill=\"#555555\">{}</text>",
                c(x),
                c(frame.top + 10.0),
                lang.pick("copia", "copy")
            )
            .expect("write to String");
            (
                "fill=\"#ffffff\" stroke-dasharray=\"3 2\" class=\"copy\"".to_string(),
                crate::RepeatedYear {
                    time: t,
                    repeat_of: of,
                }
                .label(lang),
            )
        }
        None if marks.is_reconstructed(b.time) => (
            format!("fill=\"{color}\" fill-opacity=\"0.25\""),
            format!(
                "{} ({})",
                b.time,
                crate::YearMarks::reconstructed_words(lang)
            ),
        ),
        None => (
            format!("fill=\"{color}\" fill-opacity=\"0.25\""),
            b.time.to_string(),
        ),
    };
    writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {paint} stroke=\"{color}\"><title>{}</title></rect>",
        c(x - half),
        c(y.map(b.q3)),
        c(2.0 * half),
        c(y.map(b.q1) - y.map(b.q3)),
        match lang {
            Lang::En => format!(
                "{year}: median {:.2}, IQR {:.2} to {:.2}, {} areas",
                b.median, b.q1, b.q3, b.n_areas
            ),
            Lang::Es => format!(
                "{year}: mediana {}, RIC {} a {}, {} comunas",
                num_in(lang, b.median, 2),
                num_in(lang, b.q1, 2),
                num_in(lang, b.q3, 2),
                b.n_areas
            ),
        }
    )
    .expect("write to String");
    writeln!(
        s,
        "<line class=\"median\" x1=\"{}\" y1=\"{m}\" x2=\"{}\" y2=\"{m}\" stroke=\"{color}\" stroke-width=\"2.5\"/>",
        c(x - half),
        c(x + half),
        m = c(y.map(b.median))
    )
    .expect("write to String");
    if copy.is_none() && marks.is_reconstructed(b.time) {
        writeln!(
            s,
            "<polygon class=\"reconstructed\" points=\"{}\" fill=\"{color}\" stroke=\"#ffffff\"/>",
            crate::year_marks::diamond_points(x, y.map(b.median), 4.5)
        )
        .expect("write to String");
    }
    for o in &b.outliers {
        if is_flagged(&o.entity, b.time) {
            flagged_outlier(s, lang, at, &o.entity, o.value);
            continue;
        }
        writeln!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"none\" stroke=\"#333333\"><title>{}: {}</title></circle>",
            c(x),
            c(y.map(o.value)),
            escape(&o.entity),
            num_in(lang, o.value, 2)
        )
        .expect("write to String");
    }
    s.push_str("</g>\n");
}

/// A flagged outlier: a dashed circle inside the scale, or a triangle at the plot's edge with
/// "off scale: v (flagged)" beyond it.
fn flagged_outlier(s: &mut String, lang: Lang, place: &BoxAt, entity: &str, value: f64) {
    let BoxAt {
        x,
        y,
        frame,
        narrow,
        ..
    } = *place;
    let (top, bottom) = (frame.top, frame.bottom());
    let at = y.map(value);
    let flagged = lang.pick("marcado", "flagged");
    if (top..=bottom).contains(&at) {
        writeln!(
            s,
            "<circle data-flagged=\"true\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"none\" stroke=\"#b2182b\" stroke-dasharray=\"2 1.5\"><title>{}: {} ({flagged})</title></circle>",
            c(x),
            c(at),
            escape(entity),
            num_in(lang, value, 2)
        )
        .expect("write to String");
        return;
    }
    let above = at < top;
    let edge = if above { top } else { bottom };
    let tip = if above { edge - 7.0 } else { edge + 7.0 };
    let shown = match lang {
        Lang::En => value.to_string(),
        Lang::Es => lang.with_decimal_mark(value.to_string()),
    };
    let note = format!(
        "{}: {shown} ({flagged})",
        lang.pick("fuera de escala", "off scale"),
    );
    // On a narrow chart a note that would pass its edge starts as far left as it needs.
    let mut start = x + 6.0;
    if narrow {
        let room = frame.right() + 16.0 - note.chars().count() as f64 * 6.0;
        start = start.min(room).max(8.0);
    }
    writeln!(
        s,
        "<g class=\"off-scale\" data-flagged=\"true\" data-value=\"{value}\"><polygon points=\"{},{} {},{} {},{}\" fill=\"#b2182b\"/><text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#b2182b\">{}</text><title>{}: {}</title></g>",
        c(x - 4.0),
        c(edge),
        c(x + 4.0),
        c(edge),
        c(x),
        c(tip),
        c(start),
        c(if above { edge - 1.0 } else { edge + 8.0 }),
        escape(&note),
        escape(entity),
        escape(&note)
    )
    .expect("write to String");
}

#[cfg(test)]
#[path = "boxplot_tests.rs"]
mod tests;
