//! Lorenz curves for chosen years.

use super::{
    c, close_chart, escape, label_number_in, nice_ticks, open_chart, room_in, wrap_to, x_axis,
    y_axis, Frame, Scale, FONT, PALETTE,
};
use crate::distribution::LorenzCurve;
use crate::report::SubjectInfo;
use crate::year::SubjectKind;
use imr_stats::{Caption, Lang};
use std::fmt::Write;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 520.0;

/// Lorenz curves of the chosen `years` (all curves when `years` is empty), with the line of
/// equality. Axes in percent: cumulative share of births (weights) against cumulative share of
/// deaths (the weighted total), areas ordered from the lowest to the highest value.
pub fn lorenz_svg(curves: &[LorenzCurve], years: &[i64], subject: &SubjectInfo) -> String {
    lorenz_svg_in(
        curves,
        years,
        subject,
        &Caption::default(),
        &crate::YearMarks::default(),
    )
}

/// [`lorenz_svg`] in the caption's language, with its provenance line; the curve of a copied
/// year of `marks` is dashed and its legend says "2022 (copia de 2021)", a reconstructed year's
/// legend says "2021 (defunciones reconstruidas)".
pub fn lorenz_svg_in(
    curves: &[LorenzCurve],
    years: &[i64],
    subject: &SubjectInfo,
    caption: &Caption,
    marks: &crate::YearMarks,
) -> String {
    let lang = caption.lang;
    let value_name = subject.value_name.text(lang);
    let weight_name = subject.weight_name.text(lang);
    let chosen: Vec<&LorenzCurve> = curves
        .iter()
        .filter(|cv| years.is_empty() || years.contains(&cv.time))
        .collect();
    let (x_label, y_label) = match (subject.kind, lang) {
        (SubjectKind::Rate, Lang::En) => (
            "Cumulative share of births (%)".to_string(),
            "Cumulative share of infant deaths (%)".to_string(),
        ),
        (SubjectKind::Rate, Lang::Es) => (
            "Proporción acumulada de nacidos vivos (%)".to_string(),
            "Proporción acumulada de defunciones infantiles (%)".to_string(),
        ),
        (SubjectKind::Value, Lang::En) => (
            format!("Cumulative share of {weight_name} (%)"),
            format!("Cumulative share of total {value_name} (%)"),
        ),
        (SubjectKind::Value, Lang::Es) => (
            format!("Proporción acumulada de {weight_name} (%)"),
            format!("Proporción acumulada del total de {value_name} (%)"),
        ),
    };
    let title = match lang {
        Lang::En => format!("Lorenz curves of the {value_name}"),
        Lang::Es => format!("Curvas de Lorenz: {value_name}"),
    };
    let year_list = chosen
        .iter()
        .map(|cv| cv.time.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let desc = match lang {
        Lang::En => format!(
            "Lorenz curves for {}: areas ordered from the lowest to the highest {}, x = {}, y = {}. The dashed diagonal is perfect equality; the further a curve bows below it, the more unequal the year.",
            if year_list.is_empty() { "no year".to_string() } else { year_list },
            value_name,
            x_label.to_lowercase(),
            y_label.to_lowercase()
        ),
        Lang::Es => format!(
            "Curvas de Lorenz de {}: comunas ordenadas de menor a mayor {}, x = {}, y = {}. La diagonal discontinua es la igualdad perfecta; cuanto más se curva una curva bajo ella, más desigual es el año.",
            if year_list.is_empty() { "ningún año".to_string() } else { year_list },
            value_name,
            x_label.to_lowercase(),
            y_label.to_lowercase()
        ),
    };
    let subtitle = lang.pick("Línea discontinua: igualdad", "Dashed line: equality");
    // A square within the width (216 px at 320), the axes' labels wrapped to it: the x label
    // centred under the square, the rotated y label along it and 40 px beyond.
    let width = caption.width_or(WIDTH);
    let side = (width - 104.0).min(400.0);
    let centre = 80.0 + side / 2.0;
    let room = |px| room_in(width, WIDTH, px);
    let x_label = wrap_to(
        &x_label,
        room(2.0 * centre.min(width - centre) - 16.0),
        12.0,
    );
    let x_label = x_label.join("\n");
    let y_label = wrap_to(&y_label, room(side + 40.0), 12.0).join("\n");
    let height = HEIGHT - 400.0 + side + 14.0 * x_label.matches('\n').count() as f64;
    let mut opened = open_chart(width, height, (&title, Some(subtitle)), &desc, caption);
    let s = &mut opened.svg;
    let frame = Frame {
        left: 80.0,
        top: 56.0,
        width: side,
        height: side,
    };
    let ticks = nice_ticks(0.0, 100.0, 5, false);
    let x = Scale {
        d0: 0.0,
        d1: 100.0,
        r0: frame.left,
        r1: frame.right(),
    };
    let y = Scale {
        d0: 0.0,
        d1: 100.0,
        r0: frame.bottom(),
        r1: frame.top,
    };
    y_axis(s, &frame, &y, (&ticks, lang), &y_label);
    let xt: Vec<(f64, String)> = ticks
        .values
        .iter()
        .map(|t| (x.map(*t), label_number_in(*t, ticks.decimals, lang)))
        .collect();
    x_axis(s, &frame, &xt, Some(&x_label));
    writeln!(
        s,
        "<line class=\"equality\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888888\" stroke-dasharray=\"4 4\"/>",
        c(x.map(0.0)),
        c(y.map(0.0)),
        c(x.map(100.0)),
        c(y.map(100.0))
    )
    .expect("write to String");
    let mut legend_y = frame.top + 16.0;
    for (k, curve) in chosen.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let pts: Vec<String> = curve
            .points
            .iter()
            .map(|p| {
                format!(
                    "{},{}",
                    c(x.map(100.0 * p.weight_share)),
                    c(y.map(100.0 * p.total_share))
                )
            })
            .collect();
        let (dash, label) = match marks.copy_of(curve.time) {
            Some(of) => (
                " stroke-dasharray=\"5 3\"",
                crate::RepeatedYear {
                    time: curve.time,
                    repeat_of: of,
                }
                .label(lang),
            ),
            None if marks.is_reconstructed(curve.time) => (
                "",
                format!(
                    "{} {}",
                    curve.time,
                    crate::YearMarks::reconstructed_mark(lang)
                ),
            ),
            None => ("", curve.time.to_string()),
        };
        writeln!(
            s,
            "<polyline class=\"lorenz\" data-time=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>",
            curve.time,
            pts.join(" ")
        )
        .expect("write to String");
        // Each year's legend on as many lines as the width needs, the next one below them.
        let lines = wrap_to(&label, room(width - frame.left - 50.0), 12.0);
        writeln!(
            s,
            "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>",
            c(frame.left + 12.0),
            c(frame.left + 36.0),
            ly = c(legend_y)
        )
        .expect("write to String");
        for line in &lines {
            writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" dy=\"0.32em\" {FONT} font-size=\"12\">{}</text>",
                c(frame.left + 42.0),
                c(legend_y),
                escape(line)
            )
            .expect("write to String");
            legend_y += 14.0;
        }
        legend_y += 4.0;
    }
    close_chart(opened, height, caption)
}
