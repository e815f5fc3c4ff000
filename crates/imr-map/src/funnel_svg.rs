//! The funnel plot as an SVG document ([`funnel_svg`]), with its texts ([`FunnelText`]).

use std::fmt::Write;

use crate::classify::format_number_in;
use crate::funnel::{Funnel, FunnelPosition};
use crate::projection::Rect;
use crate::svg::{escape, figure_value, num, FONT};
use imr_stats::Lang;

/// Texts of a funnel plot.
#[derive(Debug, Clone, PartialEq)]
pub struct FunnelText {
    pub title: String,
    pub year: String,
    pub source: Vec<String>,
    /// Language of the axis labels and the limits line.
    pub lang: Lang,
    /// Provenance written into `<metadata>` (none: no element), as `MapText::metadata`.
    pub metadata: Option<String>,
}

/// "Nice" tick step for a range: 1, 2 or 5 × 10^k giving about `target` ticks.
fn nice_step(range: f64, target: f64) -> f64 {
    let raw = (range / target).max(1e-12);
    let magnitude = 10f64.powf(raw.log10().floor());
    let f = raw / magnitude;
    magnitude
        * if f <= 1.0 {
            1.0
        } else if f <= 2.0 {
            2.0
        } else if f <= 5.0 {
            5.0
        } else {
            10.0
        }
}

/// The funnel plot as an SVG document: rate per 1,000 against births (log scale), 95% (dashed)
/// and 99.8% (solid) limits, the national rate, and one `<circle data-code>` per area.
pub fn funnel_svg(
    funnel: &Funnel,
    codes: &[String],
    names: &[String],
    text: &FunnelText,
) -> String {
    // The year large in the corner; what it is besides a year ("(defunciones reconstruidas)",
    // "(copia de 2021)") on a line of its own under the title, where it overprints nothing.
    let (year, mark) = match text.year.split_once(" (") {
        Some((year, mark)) => (year.to_string(), Some(format!("{year} ({mark}"))),
        None => (text.year.clone(), None),
    };
    let subtitle = match text.lang {
        Lang::En => format!(
            "Rate of all communes shown {} per 1,000; limits of the exact Poisson test, 95% (dashed) and 99.8% (solid)",
            format_number_in(funnel.national_rate_per_1000, 2, text.lang)
        ),
        Lang::Es => format!(
            "Tasa de todas las comunas del gráfico {} por 1.000; límites de la prueba exacta de Poisson, 95% (discontinuo) y 99,8% (continuo)",
            format_number_in(funnel.national_rate_per_1000, 2, text.lang)
        ),
    };
    // 11 px text, about 6 px a character, within 600 px.
    let mut heading: Vec<(String, &str)> = mark.into_iter().map(|m| (m, "#8a3b12")).collect();
    heading.extend(
        imr_stats::wrap_words(&subtitle, 98)
            .into_iter()
            .map(|l| (l, "#444444")),
    );
    let extra = 13.0 * heading.len().saturating_sub(1) as f64;
    // Room under the axis' label for the key of the colours.
    let (w, h) = (640.0, 458.0 + extra);
    let plot = Rect::new(64.0, 70.0 + extra, 550.0, 300.0);
    let min_b = funnel
        .curve
        .first()
        .map(|c| c.births)
        .unwrap_or(1.0)
        .max(1.0);
    let max_b = funnel
        .curve
        .last()
        .map(|c| c.births)
        .unwrap_or(10.0)
        .max(min_b * 10.0);
    let (lx0, lx1) = (min_b.log10().floor(), max_b.log10().ceil());
    let max_point = funnel
        .points
        .iter()
        .map(|p| p.rate_per_1000)
        .fold(0.0, f64::max);
    // Cap the y axis so the wide end of the funnel does not flatten everything else.
    let y_max_raw = max_point.max(funnel.national_rate_per_1000 * 3.0).max(1.0);
    let step = nice_step(y_max_raw, 6.0);
    let y_max = (y_max_raw / step).ceil() * step;
    let sx = |b: f64| plot.x + (b.max(1.0).log10() - lx0) / (lx1 - lx0) * plot.width;
    let sy = |r: f64| plot.y + plot.height - (r.min(y_max) / y_max) * plot.height;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" data-testid=\"funnel\" role=\"img\" aria-label=\"{}, {}\" {FONT}>",
        escape(&text.title),
        escape(&text.year)
    );
    let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>");
    if let Some(meta) = &text.metadata {
        let _ = writeln!(s, "<metadata>{}</metadata>", escape(meta));
    }
    let _ = writeln!(
        s,
        "<text x=\"20\" y=\"30\" font-size=\"17\" font-weight=\"bold\">{}</text>\n<text x=\"{}\" y=\"32\" font-size=\"22\" font-weight=\"bold\" text-anchor=\"end\">{}</text>",
        escape(&text.title),
        w - 20.0,
        escape(&year)
    );
    for (k, (line, fill)) in heading.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"20\" y=\"{}\" font-size=\"11\" fill=\"{fill}\">{}</text>",
            num(50.0 + 13.0 * k as f64),
            escape(line)
        );
    }
    // Axes and ticks.
    s.push_str("<g font-size=\"10\" fill=\"#333333\" stroke=\"none\">\n");
    let mut tick = 0.0;
    while tick <= y_max + 1e-9 {
        let y = sy(tick);
        let _ = writeln!(
            s,
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#e5e5e5\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            num(plot.x),
            num(plot.x + plot.width),
            num(y),
            num(y),
            num(plot.x - 6.0),
            num(y + 3.5),
            figure_value(tick, text.lang)
        );
        tick += step;
    }
    let mut e = lx0;
    while e <= lx1 + 1e-9 {
        let x = sx(10f64.powf(e));
        let _ = writeln!(
            s,
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#e5e5e5\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            num(x),
            num(x),
            num(plot.y),
            num(plot.y + plot.height),
            num(x),
            num(plot.y + plot.height + 14.0),
            figure_value(10f64.powf(e), text.lang)
        );
        e += 1.0;
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\
         <text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
        num(plot.x + plot.width / 2.0),
        num(plot.y + plot.height + 32.0),
        text.lang
            .pick("Nacidos vivos (escala logarítmica)", "Live births (log scale)"),
        num(plot.y + plot.height / 2.0),
        text.lang.pick(
            "Defunciones de menores de 1 año por 1.000 nacidos vivos",
            "Deaths under 1 year per 1,000 live births"
        )
    );
    s.push_str("</g>\n");
    let line = |pick: fn(&crate::funnel::FunnelLimits) -> f64| -> String {
        // Points above the axis are left out (the upper limits at tiny births), not flattened.
        funnel
            .curve
            .iter()
            .filter(|c| pick(c) <= y_max)
            .map(|c| format!("{},{}", num(sx(c.births)), num(sy(pick(c)))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        s,
        "<g fill=\"none\" stroke=\"#555555\"><polyline data-limit=\"upper-99.8\" points=\"{}\"/><polyline data-limit=\"lower-99.8\" points=\"{}\"/>\
         <polyline data-limit=\"upper-95\" stroke-dasharray=\"4 3\" points=\"{}\"/><polyline data-limit=\"lower-95\" stroke-dasharray=\"4 3\" points=\"{}\"/>\
         <line data-limit=\"national\" x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#1a1a1a\"/></g>",
        line(|c| c.upper998),
        line(|c| c.lower998),
        line(|c| c.upper95),
        line(|c| c.lower95),
        num(plot.x),
        num(plot.x + plot.width),
        num(sy(funnel.national_rate_per_1000)),
        num(sy(funnel.national_rate_per_1000))
    );
    s.push_str("<g stroke=\"#ffffff\" stroke-width=\"0.5\">\n");
    for p in &funnel.points {
        let fill = fill_of(p.position);
        let code = codes.get(p.area).map(String::as_str).unwrap_or("");
        let name = names.get(p.area).map(String::as_str).unwrap_or(code);
        let _ = writeln!(
            s,
            "<circle data-code=\"{}\" data-position=\"{}\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{fill}\"><title>{}: {} {}, {} {}</title></circle>",
            escape(code),
            p.position.as_str(),
            num(sx(p.births)),
            num(sy(p.rate_per_1000)),
            escape(name),
            format_number_in(p.rate_per_1000, 1, text.lang),
            text.lang.pick("por 1.000", "per 1,000"),
            figure_value(p.births, text.lang),
            match (p.births == 1.0, text.lang) {
                (true, Lang::Es) => "nacimiento",
                (true, Lang::En) => "birth",
                (false, Lang::Es) => "nacimientos",
                (false, Lang::En) => "births",
            }
        );
    }
    s.push_str("</g>\n");
    key(&mut s, plot.y + plot.height + 50.0, text.lang);
    for (k, line) in text.source.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"20\" y=\"{}\" font-size=\"9.5\" fill=\"#555555\">{}</text>",
            num(h - 12.0 - 13.0 * (text.source.len() - 1 - k) as f64),
            escape(line)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A point's colour by where it falls.
fn fill_of(position: FunnelPosition) -> &'static str {
    match position {
        FunnelPosition::Within => "#9e9e9e",
        FunnelPosition::Above95 => "#fc8d59",
        FunnelPosition::Above998 => "#d7301f",
        FunnelPosition::Below95 => "#6baed6",
        FunnelPosition::Below998 => "#2171b5",
    }
}

/// The key of the points' colours, one row at `y`: what each colour says of a commune.
fn key(s: &mut String, y: f64, lang: Lang) {
    let entries = [
        (
            FunnelPosition::Above998,
            lang.pick("sobre el 99,8%", "above 99.8%"),
        ),
        (
            FunnelPosition::Above95,
            lang.pick("sobre el 95%", "above 95%"),
        ),
        (
            FunnelPosition::Within,
            lang.pick("dentro de los límites", "within the limits"),
        ),
        (
            FunnelPosition::Below95,
            lang.pick("bajo el 95%", "below 95%"),
        ),
        (
            FunnelPosition::Below998,
            lang.pick("bajo el 99,8%", "below 99.8%"),
        ),
    ];
    let _ = write!(
        s,
        "<g class=\"funnel-key\" font-size=\"10\" fill=\"#333333\"><text x=\"20\" y=\"{}\">{}</text>",
        num(y),
        lang.pick("Comunas:", "Communes:")
    );
    let mut x = 74.0;
    for (position, words) in entries {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(y - 3.5),
            fill_of(position),
            num(x + 7.0),
            num(y),
            escape(words)
        );
        // About 5.6 px a character at 10 px, and a gap.
        x += 7.0 + 5.6 * words.chars().count() as f64 + 16.0;
    }
    s.push_str("</g>\n");
}
