//! Lorenz curves for chosen years.

use super::{
    c, escape, heading, label_number, nice_ticks, open_svg, x_axis, y_axis, Frame, Scale, FONT,
    PALETTE,
};
use crate::distribution::LorenzCurve;
use crate::report::SubjectInfo;
use crate::year::SubjectKind;
use std::fmt::Write;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 520.0;

/// Lorenz curves of the chosen `years` (all curves when `years` is empty), with the line of
/// equality. Axes in percent: cumulative share of births (weights) against cumulative share of
/// deaths (the weighted total), areas ordered from the lowest to the highest value.
pub fn lorenz_svg(curves: &[LorenzCurve], years: &[i64], subject: &SubjectInfo) -> String {
    let chosen: Vec<&LorenzCurve> = curves
        .iter()
        .filter(|cv| years.is_empty() || years.contains(&cv.time))
        .collect();
    let (x_label, y_label) = match subject.kind {
        SubjectKind::Rate => (
            "Cumulative share of births (%)".to_string(),
            "Cumulative share of infant deaths (%)".to_string(),
        ),
        SubjectKind::Value => (
            format!("Cumulative share of {} (%)", subject.weight_name),
            format!("Cumulative share of total {} (%)", subject.value_name),
        ),
    };
    let title = format!("Lorenz curves of the {}", subject.value_name);
    let year_list = chosen
        .iter()
        .map(|cv| cv.time.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let desc = format!(
        "Lorenz curves for {}: areas ordered from the lowest to the highest {}, x = {}, y = {}. The dashed diagonal is perfect equality; the further a curve bows below it, the more unequal the year.",
        if year_list.is_empty() { "no year".to_string() } else { year_list },
        subject.value_name,
        x_label.to_lowercase(),
        y_label.to_lowercase()
    );
    let mut s = open_svg(WIDTH, HEIGHT, &title, &desc);
    heading(&mut s, WIDTH, &title, Some("Dashed line: equality"));
    let frame = Frame {
        left: 80.0,
        top: 56.0,
        width: 400.0,
        height: 400.0,
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
    y_axis(&mut s, &frame, &y, &ticks, &y_label);
    let xt: Vec<(f64, String)> = ticks
        .values
        .iter()
        .map(|t| (x.map(*t), label_number(*t, ticks.decimals)))
        .collect();
    x_axis(&mut s, &frame, &xt, Some(&x_label));
    writeln!(
        s,
        "<line class=\"equality\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888888\" stroke-dasharray=\"4 4\"/>",
        c(x.map(0.0)),
        c(y.map(0.0)),
        c(x.map(100.0)),
        c(y.map(100.0))
    )
    .expect("write to String");
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
        writeln!(
            s,
            "<polyline class=\"lorenz\" data-time=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>",
            curve.time,
            pts.join(" ")
        )
        .expect("write to String");
        let ly = frame.top + 16.0 + 18.0 * k as f64;
        writeln!(
            s,
            "<line x1=\"{}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{color}\" stroke-width=\"2\"/>\n<text x=\"{}\" y=\"{ly}\" dy=\"0.32em\" {FONT} font-size=\"12\">{}</text>",
            c(frame.left + 12.0),
            c(frame.left + 36.0),
            c(frame.left + 42.0),
            escape(&curve.time.to_string()),
            ly = c(ly)
        )
        .expect("write to String");
    }
    s.push_str("</svg>\n");
    s
}
