//! Two yearly series on one year axis, stacked, with their correlation: IMR inequality against
//! health-income inequality.

use super::line::{series_in_frame, SeriesStyle};
use super::{c, escape, heading, open_svg, wrap, Frame, FONT, PALETTE};
use crate::report::SeriesPoint;
use crate::trend::Correlation;
use std::fmt::Write;

/// One of the two series: its name (e.g. "Gini of the infant mortality rate"), its axis label
/// with the unit, and its points.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesSpec {
    pub name: String,
    pub y_label: String,
    pub points: Vec<SeriesPoint>,
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 600.0;

fn fmt_r(r: Option<f64>) -> String {
    r.map_or("not available".to_string(), |r| format!("{r:.2}"))
}

fn fmt_ci(ci: Option<[f64; 2]>) -> String {
    ci.map_or(String::new(), |[a, b]| format!(" ({a:.2} to {b:.2})"))
}

/// Two series stacked on a shared year axis (separate y axes, no dual-axis overlay), with the
/// Pearson and Spearman correlation and the few-years warning under them.
pub fn two_series_svg(top: &SeriesSpec, bottom: &SeriesSpec, correlation: &Correlation) -> String {
    let title = format!("{} and {} by year", top.name, bottom.name);
    let subtitle = format!(
        "Pearson r = {}{}, Spearman ρ = {}{}; {} years",
        fmt_r(correlation.pearson),
        fmt_ci(correlation.pearson_ci),
        fmt_r(correlation.spearman),
        fmt_ci(correlation.spearman_ci),
        correlation.n_years
    );
    let desc = format!(
        "Two line charts on the same year axis: above, {} ({}); below, {} ({}), each with its bootstrap interval band where available. {}. {}",
        top.name, top.y_label, bottom.name, bottom.y_label, subtitle, correlation.warning
    );
    let mut s = open_svg(WIDTH, HEIGHT, &title, &desc);
    heading(&mut s, WIDTH, &title, Some(&subtitle));
    let all: Vec<i64> = top
        .points
        .iter()
        .chain(&bottom.points)
        .map(|p| p.time)
        .collect();
    let (first, last) = match (all.iter().min(), all.iter().max()) {
        (Some(a), Some(b)) => (*a, *b),
        _ => {
            s.push_str("</svg>\n");
            return s;
        }
    };
    let upper = Frame {
        left: 80.0,
        top: 56.0,
        width: WIDTH - 104.0,
        height: 190.0,
    };
    let lower = Frame {
        left: 80.0,
        top: 296.0,
        width: WIDTH - 104.0,
        height: 190.0,
    };
    let style = |color, y_label, x_label| SeriesStyle {
        color,
        y_label,
        x_label,
    };
    series_in_frame(
        &mut s,
        &upper,
        (first, last),
        &top.points,
        &style(PALETTE[0], &top.y_label, None),
    );
    series_in_frame(
        &mut s,
        &lower,
        (first, last),
        &bottom.points,
        &style(PALETTE[1], &bottom.y_label, Some("Year")),
    );
    for (k, line) in wrap(&correlation.warning, 96).iter().enumerate() {
        writeln!(
            s,
            "<text class=\"warning\" x=\"{}\" y=\"{}\" {FONT} font-size=\"11\" fill=\"#444444\">{}</text>",
            c(20.0),
            c(548.0 + 14.0 * k as f64),
            escape(line)
        )
        .expect("write to String");
    }
    s.push_str("</svg>\n");
    s
}
