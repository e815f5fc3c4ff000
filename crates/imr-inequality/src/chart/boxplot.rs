//! Distribution of area values per year as Tukey box plots.

use super::{
    c, close_svg, escape, heading, nice_ticks, open_svg_captioned, x_axis, y_axis, Frame, Scale,
    PALETTE,
};
use crate::distribution::BoxPlotStats;
use crate::report::SubjectInfo;
use crate::words::term;
use imr_stats::{Caption, Lang};
use std::fmt::Write;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;

/// One box per year: box from q1 to q3, line at the median, whiskers to the most extreme values
/// within 1.5 IQR of the box, outliers as open circles (hover shows the area and its value).
pub fn box_plot_svg(boxes: &[BoxPlotStats], subject: &SubjectInfo) -> String {
    box_plot_svg_in(boxes, subject, &Caption::default())
}

/// [`box_plot_svg`] in the caption's language, with its provenance line.
pub fn box_plot_svg_in(boxes: &[BoxPlotStats], subject: &SubjectInfo, caption: &Caption) -> String {
    let lang = caption.lang;
    let value_name = term(lang, &subject.value_name);
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
            term(lang, &subject.unit)
        )
    };
    let n_outliers: usize = boxes.iter().map(|b| b.outliers.len()).sum();
    let desc = match ((boxes.first(), boxes.last()), lang) {
        ((Some(a), Some(b)), Lang::En) => format!(
            "Box plots of the {} of each area, one box per year, {} years from {} to {} (unweighted: each area counts once). Box: 25th to 75th percentile; line: median; whiskers: most extreme values within 1.5 times the interquartile range; {} areas beyond them drawn as circles. Median {:.2} in {} and {:.2} in {}.",
            value_name, boxes.len(), a.time, b.time, n_outliers, a.median, a.time, b.median, b.time
        ),
        ((Some(a), Some(b)), Lang::Es) => format!(
            "Diagramas de caja de la {} de cada comuna, una caja por año, {} años de {} a {} (sin ponderar: cada comuna cuenta una vez). Caja: percentiles 25 a 75; línea: mediana; bigotes: valores más extremos dentro de 1,5 veces el rango intercuartílico; {} comunas más allá, dibujadas como círculos. Mediana {:.2} en {} y {:.2} en {}.",
            value_name, boxes.len(), a.time, b.time, n_outliers, a.median, a.time, b.median, b.time
        ),
        (_, Lang::En) => format!("Box plots of the {value_name}: no year has an area."),
        (_, Lang::Es) => format!("Diagramas de caja de la {value_name}: ningún año tiene comunas."),
    };
    let mut s = open_svg_captioned(WIDTH, HEIGHT, &title, &desc, caption);
    heading(
        &mut s,
        WIDTH,
        &title,
        Some(lang.pick(
            "Bigotes: 1,5 × RIC; círculos: comunas más allá",
            "Whiskers: 1.5 × IQR; circles: areas beyond",
        )),
    );
    let frame = Frame {
        left: 80.0,
        top: 56.0,
        width: WIDTH - 80.0 - 24.0,
        height: HEIGHT - 56.0 - 60.0,
    };
    if boxes.is_empty() {
        close_svg(&mut s, HEIGHT, caption);
        return s;
    }
    let lo = boxes.iter().map(|b| b.min).fold(f64::INFINITY, f64::min);
    let hi = boxes
        .iter()
        .map(|b| b.max)
        .fold(f64::NEG_INFINITY, f64::max);
    let ticks = nice_ticks(lo, hi, 5, false);
    let y = Scale {
        d0: ticks.lo(),
        d1: ticks.hi(),
        r0: frame.bottom(),
        r1: frame.top,
    };
    y_axis(&mut s, &frame, &y, &ticks, &y_label);
    let slot = frame.width / boxes.len() as f64;
    let half = (slot * 0.3).min(18.0);
    let centre = |k: usize| frame.left + slot * (k as f64 + 0.5);
    let xt: Vec<(f64, String)> = boxes
        .iter()
        .enumerate()
        .map(|(k, b)| (centre(k), b.time.to_string()))
        .collect();
    let every = boxes.len() / 12 + 1;
    let xt: Vec<(f64, String)> = xt.into_iter().step_by(every).collect();
    x_axis(&mut s, &frame, &xt, Some(lang.pick("Año", "Year")));
    let color = PALETTE[0];
    for (k, b) in boxes.iter().enumerate() {
        let x = centre(k);
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
        writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{color}\" fill-opacity=\"0.25\" stroke=\"{color}\"><title>{}</title></rect>",
            c(x - half),
            c(y.map(b.q3)),
            c(2.0 * half),
            c(y.map(b.q1) - y.map(b.q3)),
            match lang {
                Lang::En => format!(
                    "{}: median {:.2}, IQR {:.2} to {:.2}, {} areas",
                    b.time, b.median, b.q1, b.q3, b.n_areas
                ),
                Lang::Es => format!(
                    "{}: mediana {:.2}, RIC {:.2} a {:.2}, {} comunas",
                    b.time, b.median, b.q1, b.q3, b.n_areas
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
        for o in &b.outliers {
            writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"none\" stroke=\"#333333\"><title>{}: {:.2}</title></circle>",
                c(x),
                c(y.map(o.value)),
                escape(&o.entity),
                o.value
            )
            .expect("write to String");
        }
        s.push_str("</g>\n");
    }
    close_svg(&mut s, HEIGHT, caption);
    s
}
