//! The funnel plot as an SVG document ([`funnel_svg`]), with its texts ([`FunnelText`]).

use std::fmt::Write;

use crate::classify::format_number_in;
use crate::funnel::Funnel;
use crate::funnel_key::{fill_of, key, key_rows, KeyRows};
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
    /// The width the plot is shown at, to draw it that wide (`imr_stats::Caption::width`: a
    /// 390 px phone shows 358 px, within 300 px and [`FUNNEL_WIDTH`]); `None`: its own width.
    pub width: Option<f64>,
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

/// The funnel plot's own width (its snapshot's, and the width of every exported file).
pub const FUNNEL_WIDTH: f64 = 640.0;

/// Where the parts of a funnel plot drawn `w` pixels wide go: the title's lines, the lines under
/// it, the plot's frame, the key's rows and the source lines, and the page's height. At
/// [`FUNNEL_WIDTH`] one title line, the key on one row and the source lines as given (the
/// snapshot's bytes); narrower, each is wrapped to the width so that no text passes the edge or
/// another and every text is at least 10 px.
struct Sheet {
    w: f64,
    h: f64,
    title: Vec<String>,
    heading: Vec<(String, &'static str)>,
    plot: Rect,
    key: KeyRows,
    sources: Vec<String>,
    source_font: &'static str,
}

impl Sheet {
    fn new(text: &FunnelText, subtitle: &str, mark: Option<String>) -> Sheet {
        let w = imr_stats::Caption {
            width: text.width,
            ..Default::default()
        }
        .width_or(FUNNEL_WIDTH);
        let narrow = w < FUNNEL_WIDTH;
        // 17 px bold about 9.4 px a character, beside the year (about 60 px) in the corner.
        let title = imr_stats::wrap_words(&text.title, ((w - 100.0) / 9.4) as usize);
        // 11 px text, about 6 px a character: 98 characters within 600 px.
        let mut heading: Vec<(String, &str)> = mark.into_iter().map(|m| (m, "#8a3b12")).collect();
        heading.extend(
            imr_stats::wrap_words(subtitle, (98.0 * (w - 40.0) / 600.0) as usize)
                .into_iter()
                .map(|l| (l, "#444444")),
        );
        let extra = 20.0 * title.len().saturating_sub(1) as f64
            + 13.0 * heading.len().saturating_sub(1) as f64;
        let plot = Rect::new(64.0, 70.0 + extra, w - 90.0, 300.0);
        let key = key_rows(w, text.lang);
        // 10 px source lines on a narrow plot (9.5 px at its own width), about 5.5 px a character.
        let sources: Vec<String> = match narrow {
            false => text.source.clone(),
            true => (text.source.iter())
                .flat_map(|l| imr_stats::wrap_words(l, ((w - 40.0) / 5.5) as usize))
                .collect(),
        };
        let h = 458.0
            + extra
            + 15.0 * key.len().saturating_sub(1) as f64
            + 13.0 * sources.len().saturating_sub(text.source.len()) as f64;
        Sheet {
            w,
            h,
            title,
            heading,
            plot,
            key,
            sources,
            source_font: if narrow { "10" } else { "9.5" },
        }
    }
}

/// The funnel plot as an SVG document: rate per 1,000 against births (log scale), 95% (dashed)
/// and 99.8% (solid) limits, the national rate, and one `<circle data-code>` per area; drawn
/// [`FunnelText::width`] wide (within 300 px and [`FUNNEL_WIDTH`]).
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
    let sheet = Sheet::new(text, &subtitle, mark);
    let scale = Scale::of(funnel, sheet.plot);
    let (w, h) = (sheet.w, sheet.h);
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
    for (k, line) in sheet.title.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"20\" y=\"{}\" font-size=\"17\" font-weight=\"bold\">{}</text>",
            num(30.0 + 20.0 * k as f64),
            escape(line)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"32\" font-size=\"22\" font-weight=\"bold\" text-anchor=\"end\">{}</text>",
        w - 20.0,
        escape(&year)
    );
    let top = 50.0 + 20.0 * sheet.title.len().saturating_sub(1) as f64;
    for (k, (line, fill)) in sheet.heading.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"20\" y=\"{}\" font-size=\"11\" fill=\"{fill}\">{}</text>",
            num(top + 13.0 * k as f64),
            escape(line)
        );
    }
    axes(&mut s, &scale, text.lang);
    limits(&mut s, funnel, &scale);
    points(&mut s, funnel, &scale, (codes, names), text.lang);
    key(
        &mut s,
        &sheet.key,
        scale.plot.y + scale.plot.height + 50.0,
        text.lang,
    );
    for (k, line) in sheet.sources.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"20\" y=\"{}\" font-size=\"{}\" fill=\"#555555\">{}</text>",
            num(h - 12.0 - 13.0 * (sheet.sources.len() - 1 - k) as f64),
            sheet.source_font,
            escape(line)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The plot's frame and scales: births on a log scale from the decade `lx0` to `lx1`, the rate
/// per 1,000 from 0 to `y_max` in ticks of `step`.
struct Scale {
    plot: Rect,
    lx0: f64,
    lx1: f64,
    y_max: f64,
    step: f64,
}

impl Scale {
    fn of(funnel: &Funnel, plot: Rect) -> Scale {
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
        Scale {
            plot,
            lx0,
            lx1,
            y_max,
            step,
        }
    }

    fn x(&self, b: f64) -> f64 {
        let plot = &self.plot;
        plot.x + (b.max(1.0).log10() - self.lx0) / (self.lx1 - self.lx0) * plot.width
    }

    fn y(&self, r: f64) -> f64 {
        let plot = &self.plot;
        plot.y + plot.height - (r.min(self.y_max) / self.y_max) * plot.height
    }
}

/// The grid, the ticks' values and the axes' labels.
fn axes(s: &mut String, scale: &Scale, lang: Lang) {
    let plot = &scale.plot;
    s.push_str("<g font-size=\"10\" fill=\"#333333\" stroke=\"none\">\n");
    let mut tick = 0.0;
    while tick <= scale.y_max + 1e-9 {
        let y = scale.y(tick);
        let _ = writeln!(
            s,
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#e5e5e5\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            num(plot.x),
            num(plot.x + plot.width),
            num(y),
            num(y),
            num(plot.x - 6.0),
            num(y + 3.5),
            figure_value(tick, lang)
        );
        tick += scale.step;
    }
    let mut e = scale.lx0;
    while e <= scale.lx1 + 1e-9 {
        let x = scale.x(10f64.powf(e));
        let _ = writeln!(
            s,
            "<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#e5e5e5\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            num(x),
            num(x),
            num(plot.y),
            num(plot.y + plot.height),
            num(x),
            num(plot.y + plot.height + 14.0),
            figure_value(10f64.powf(e), lang)
        );
        e += 1.0;
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{}</text>\
         <text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\">{}</text>",
        num(plot.x + plot.width / 2.0),
        num(plot.y + plot.height + 32.0),
        lang.pick("Nacidos vivos (escala logarítmica)", "Live births (log scale)"),
        num(plot.y + plot.height / 2.0),
        lang.pick(
            "Defunciones de menores de 1 año por 1.000 nacidos vivos",
            "Deaths under 1 year per 1,000 live births"
        )
    );
    s.push_str("</g>\n");
}

/// The 95% (dashed) and 99.8% (solid) limits and the line of the pooled rate.
fn limits(s: &mut String, funnel: &Funnel, scale: &Scale) {
    let line = |pick: fn(&crate::funnel::FunnelLimits) -> f64| -> String {
        // Points above the axis are left out (the upper limits at tiny births), not flattened.
        funnel
            .curve
            .iter()
            .filter(|c| pick(c) <= scale.y_max)
            .map(|c| format!("{},{}", num(scale.x(c.births)), num(scale.y(pick(c)))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let plot = &scale.plot;
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
        num(scale.y(funnel.national_rate_per_1000)),
        num(scale.y(funnel.national_rate_per_1000))
    );
}

/// One circle per area, coloured by where it falls, titled with its name, rate and births.
fn points(
    s: &mut String,
    funnel: &Funnel,
    scale: &Scale,
    (codes, names): (&[String], &[String]),
    lang: Lang,
) {
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
            num(scale.x(p.births)),
            num(scale.y(p.rate_per_1000)),
            escape(name),
            format_number_in(p.rate_per_1000, 1, lang),
            lang.pick("por 1.000", "per 1,000"),
            figure_value(p.births, lang),
            match (p.births == 1.0, lang) {
                (true, Lang::Es) => "nacimiento",
                (true, Lang::En) => "birth",
                (false, Lang::Es) => "nacimientos",
                (false, Lang::En) => "births",
            }
        );
    }
    s.push_str("</g>\n");
}

#[cfg(test)]
#[path = "funnel_svg_tests.rs"]
mod tests;
