//! Deterministic SVG charts of the results, as strings.
//!
//! Every chart carries a `<title>`, a `<desc>` that says in words what it shows, and axis labels
//! with units. Output is byte-for-byte reproducible: coordinates are written with two decimals by
//! Rust's own formatter and tick steps are found without logarithms (no platform `libm` in the
//! path), so the page (wasm32) and the command line draw identical files. Colours are the
//! Okabe–Ito palette, distinguishable with the common colour-vision deficiencies.
//!
//! * [`line::measure_over_years_svg`]: a measure over the years with its bootstrap band;
//! * [`lorenz::lorenz_svg`]: Lorenz curves for chosen years;
//! * [`boxplot::box_plot_svg`]: the distribution of area values per year;
//! * [`panel::two_series_svg`]: two yearly series stacked on one year axis, with their
//!   correlation (IMR inequality vs health-income inequality).

mod axes;
pub mod boxplot;
mod fit;
pub mod line;
pub mod lorenz;
pub mod panel;

pub use boxplot::{box_plot_svg, box_plot_svg_flagged, box_plot_svg_in};
pub use line::{
    line_chart_svg, line_chart_svg_in, measure_axis_label, measure_axis_label_in,
    measure_over_years_svg, measure_over_years_svg_in, LineChart,
};
pub use lorenz::{lorenz_svg, lorenz_svg_in};
pub use panel::{
    two_series_of, two_series_report_svg_in, two_series_svg, two_series_svg_in, SeriesSpec,
};

pub(crate) use axes::{tick_room, x_axis, y_axis, year_ticks};
pub(crate) use fit::{room_in, wrap_to};
use imr_stats::{Caption, Lang};
use std::fmt::Write;

/// Height added at the foot of a chart for its provenance line.
const FOOTER_HEIGHT: f64 = 20.0;

/// Height of each further line the provenance line wraps onto.
const FOOTER_LINE: f64 = 12.0;

/// The caption's provenance line wrapped to a chart `width` wide (10 px sans-serif, about 6 px a
/// character, 8 px from each side): a long source and engine never run past the chart's edge.
fn provenance_lines(width: f64, caption: &Caption) -> Vec<String> {
    caption.provenance.as_deref().map_or_else(Vec::new, |line| {
        imr_stats::wrap_source_line(line, (((width - 16.0) / 6.0) as usize).max(20))
    })
}

/// The chart's height with room for the caption's provenance line(s).
pub(crate) fn total_height(width: f64, height: f64, caption: &Caption) -> f64 {
    match provenance_lines(width, caption).len() {
        0 => height,
        n => height + FOOTER_HEIGHT + FOOTER_LINE * (n - 1) as f64,
    }
}

/// Characters of a line of the title (15 px bold) and of the subtitle (12 px) that fit the
/// width of a chart, leaving 10 px at each side, in the widest common sans-serif (DejaVu Sans,
/// Linux's default: about 0.64 em a bold character and 0.62 em a regular one).
fn heading_chars(width: f64) -> (usize, usize) {
    let room = (width - 20.0).max(60.0);
    ((room / 9.6) as usize, (room / 7.4) as usize)
}

/// `text` on as few lines of at most `chars` characters as [`wrap`] needs, as even as they can
/// be (the lines' width lowered while their number stays: no last word alone on its line).
fn balanced_lines(text: &str, chars: usize) -> Vec<String> {
    let lines = wrap(text, chars);
    if lines.len() < 2 {
        return if lines.is_empty() {
            vec![text.to_string()]
        } else {
            lines
        };
    }
    let even = text.chars().count().div_ceil(lines.len());
    (even..chars)
        .map(|width| wrap(text, width))
        .find(|l| l.len() == lines.len())
        .unwrap_or(lines)
}

/// Height of each line the title or subtitle wraps onto.
const HEADING_LINE: f64 = 18.0;

/// An opened chart: the SVG so far and how far its body is moved down (`dy`) to make room for
/// a title or subtitle wrapped onto more than one line each.
pub(crate) struct Opened {
    pub svg: String,
    pub dy: f64,
    pub width: f64,
}

/// Opens a chart: [`open_svg_captioned`] and its [`heading`], the title and the subtitle each
/// wrapped at spaces to the chart's width instead of running past its edges (a title longer
/// than the width is centred and cut on both sides otherwise). Each extra line moves the body
/// down by [`HEADING_LINE`] (a `<g transform>` around it, closed by [`close_chart`]) and makes
/// the chart as much taller; with no extra line the bytes are those of `open_svg_captioned`
/// then `heading`.
pub(crate) fn open_chart(
    width: f64,
    height: f64,
    (title, subtitle): (&str, Option<&str>),
    desc: &str,
    caption: &Caption,
) -> Opened {
    let (title_chars, subtitle_chars) = heading_chars(width);
    let title_lines = balanced_lines(title, title_chars).len();
    let subtitle_lines = subtitle.map_or(0, |t| balanced_lines(t, subtitle_chars).len());
    let extra = (title_lines - 1) + subtitle_lines.saturating_sub(1);
    let dy = extra as f64 * HEADING_LINE;
    let mut svg = open_svg_captioned(width, height + dy, title, desc, caption);
    heading(&mut svg, width, title, subtitle);
    if dy > 0.0 {
        writeln!(svg, "<g transform=\"translate(0 {})\">", c(dy)).expect("write to String");
    }
    Opened { svg, dy, width }
}

/// Ends a chart opened with [`open_chart`]: the body's group, the provenance line, `</svg>`.
pub(crate) fn close_chart(opened: Opened, height: f64, caption: &Caption) -> String {
    let Opened { mut svg, dy, width } = opened;
    if dy > 0.0 {
        svg.push_str("</g>\n");
    }
    close_svg(&mut svg, width, height + dy, caption);
    svg
}

/// [`open_svg`] with room for the caption's provenance line, which also goes into `<metadata>`
/// with the caption's engine.
/// Without a provenance line the output is exactly `open_svg`'s.
pub(crate) fn open_svg_captioned(
    width: f64,
    height: f64,
    title: &str,
    desc: &str,
    caption: &Caption,
) -> String {
    let mut s = open_svg(width, total_height(width, height, caption), title, desc);
    if let Some(line) = caption.metadata() {
        writeln!(s, "<metadata>{}</metadata>", escape(&line)).expect("write to String");
    }
    s
}

/// Ends a chart opened with [`open_svg_captioned`]: the visible provenance line, then `</svg>`.
pub(crate) fn close_svg(s: &mut String, width: f64, height: f64, caption: &Caption) {
    for (k, line) in provenance_lines(width, caption).iter().enumerate() {
        writeln!(
            s,
            "<text class=\"provenance\" x=\"8\" y=\"{}\" {FONT} font-size=\"10\" fill=\"#555555\">{}</text>",
            c(height + FOOTER_HEIGHT - 6.0 + FOOTER_LINE * k as f64),
            escape(line)
        )
        .expect("write to String");
    }
    s.push_str("</svg>\n");
}

/// Okabe–Ito colours, in the order series are drawn.
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];

pub(crate) const FONT: &str = "font-family=\"sans-serif\"";

/// A coordinate with two decimals; never "-0.00".
pub(crate) fn c(x: f64) -> String {
    let s = format!("{x:.2}");
    if s == "-0.00" {
        "0.00".to_string()
    } else {
        s
    }
}

/// Escape text for SVG character data and attribute values ([`imr_escape::xml_text`]: markup
/// characters as entities, characters XML 1.0 forbids replaced, so the SVG stays well-formed).
pub(crate) fn escape(s: &str) -> String {
    imr_escape::xml_text(s)
}

/// A number in a chart's words in `lang`: as `format!("{x:.decimals$}")` writes it in English,
/// with the thousands point and decimal comma in Spanish (`0,1050`, `1.234,5`).
pub(crate) fn num_in(lang: Lang, x: f64, decimals: usize) -> String {
    match lang {
        Lang::En => format!("{x:.decimals$}"),
        Lang::Es => lang.grouped(x, decimals),
    }
}

/// [`label_number`] in `lang` (an axis tick: `0,05` in Spanish).
pub(crate) fn label_number_in(x: f64, decimals: usize, lang: Lang) -> String {
    match lang {
        Lang::En => label_number(x, decimals),
        Lang::Es => lang.grouped(x, decimals),
    }
}

/// A number for labels: `decimals` places, never "-0".
pub(crate) fn label_number(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    if s.starts_with('-') && s[1..].chars().all(|ch| ch == '0' || ch == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// Linear map from a data interval to a pixel interval.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    pub d0: f64,
    pub d1: f64,
    pub r0: f64,
    pub r1: f64,
}

impl Scale {
    pub fn map(&self, x: f64) -> f64 {
        if self.d1 == self.d0 {
            return (self.r0 + self.r1) / 2.0;
        }
        self.r0 + (x - self.d0) / (self.d1 - self.d0) * (self.r1 - self.r0)
    }
}

pub(crate) use imr_stats::axis::{nice_ticks, ticks_within, Ticks};

/// The frame of one plot: its pixel rectangle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Frame {
    pub fn right(&self) -> f64 {
        self.left + self.width
    }
    pub fn bottom(&self) -> f64 {
        self.top + self.height
    }
}

/// Opening of an SVG document with its title and description.
pub(crate) fn open_svg(width: f64, height: f64, title: &str, desc: &str) -> String {
    let mut s = String::new();
    write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n\
         <title>{title}</title>\n<desc>{desc}</desc>\n\
         <rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n",
        w = width,
        h = height,
        title = escape(title),
        desc = escape(desc)
    )
    .expect("write to String");
    s
}

/// Title (bold) and optional subtitle at the top, each on as many lines as the width needs
/// ([`open_chart`] makes room for them).
pub(crate) fn heading(s: &mut String, width: f64, title: &str, subtitle: Option<&str>) {
    let (title_chars, subtitle_chars) = heading_chars(width);
    let title_lines = balanced_lines(title, title_chars);
    for (k, line) in title_lines.iter().enumerate() {
        writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" {FONT} font-size=\"15\" font-weight=\"bold\">{}</text>",
            c(width / 2.0),
            20.0 + HEADING_LINE * k as f64,
            escape(line)
        )
        .expect("write to String");
    }
    if let Some(sub) = subtitle {
        let below = HEADING_LINE * (title_lines.len() - 1) as f64;
        for (k, line) in balanced_lines(sub, subtitle_chars).iter().enumerate() {
            writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" {FONT} font-size=\"12\" fill=\"#444444\">{}</text>",
                c(width / 2.0),
                38.0 + below + HEADING_LINE * k as f64,
                escape(line)
            )
            .expect("write to String");
        }
    }
}

/// The text with its first letter in upper case (axis labels).
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

pub(crate) use imr_stats::wrap_words as wrap;

#[cfg(test)]
mod tests {
    /// A long source line wraps to a narrow chart, and a version never starts a line (the
    /// Spanish page's check reads a line starting "0.1.0)" as a decimal point).
    #[test]
    fn the_provenance_line_wraps_and_keeps_versions_with_their_names() {
        let caption = Caption::new(
            Lang::Es,
            "Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv) · motor imr-atlas 0.1.0 (imr-core 0.1.0) · 2026-12-05".to_string(),
        );
        for width in [240.0, 320.0, 420.0, 640.0] {
            let lines = provenance_lines(width, &caption);
            assert!(!lines.is_empty());
            for l in &lines {
                assert!(
                    l.chars().count() as f64 * 6.0 <= width - 16.0 + 1e-9 || !l.contains(' '),
                    "{l}"
                );
                let first = l.split(' ').next().unwrap_or("");
                let version =
                    first.starts_with(|c: char| c.is_ascii_digit()) && first.contains('.');
                assert!(!version, "{width}: {lines:?}");
            }
            assert_eq!(lines.join(" "), caption.provenance.clone().unwrap());
        }
    }

    use super::*;

    /// A point of 0.1 with the interval 0.05–0.15 in each of `years`.
    fn points_at(years: &[i64]) -> Vec<crate::report::SeriesPoint> {
        (years.iter())
            .map(|&time| crate::report::SeriesPoint {
                time,
                value: 0.1,
                ci: Some([0.05, 0.15]),
            })
            .collect()
    }

    /// A plain line chart of `points` (range 0 to 1) with the years of `copies` drawn as copies.
    fn line_chart_of(
        points: &[crate::report::SeriesPoint],
        copies: &[(i64, i64)],
        lang: imr_stats::Lang,
    ) -> String {
        let marks = crate::YearMarks::of_copies(copies.to_vec());
        line::line_chart_svg_in(
            &line::LineChart {
                title: "t".into(),
                subtitle: None,
                desc: "d".into(),
                y_label: "y".into(),
                points,
                range: (0.0, 1.0),
                marks,
            },
            &imr_stats::Caption {
                lang,
                ..Default::default()
            },
        )
    }

    /// A year without a value (2016 here) is a grey band titled as such, and neither the line
    /// nor the interval band crosses it.
    #[test]
    fn a_year_without_a_value_is_a_gap_in_the_line_and_the_band() {
        let points = points_at(&[2014, 2015, 2017, 2018]);
        assert_eq!(line::gap_years(&points), (1, vec![2016]));
        let svg = line_chart_of(&points, &[], imr_stats::Lang::Es);
        assert_eq!(
            svg.matches("<polyline class=\"series\"").count(),
            2,
            "{svg}"
        );
        assert_eq!(svg.matches("<polygon class=\"ci\"").count(), 2, "{svg}");
        assert!(svg.contains("<title>2016: sin valor</title>"), "{svg}");
    }

    /// A year that copies the one before is a dashed band titled as a copy with a hollow
    /// point, while the other years' points stay filled.
    #[test]
    fn a_copied_year_is_drawn_as_a_copy() {
        let points = points_at(&[2020, 2021, 2022]);
        let chart = |lang| line_chart_of(&points, &[(2022, 2021)], lang);
        let es = chart(imr_stats::Lang::Es);
        assert_eq!(es.matches("<rect class=\"copy\"").count(), 1, "{es}");
        assert!(es.contains("<title>2022: copia de 2021</title>"), "{es}");
        assert!(
            es.contains("<title>2022 (copia de 2021): 0,1000</title>"),
            "{es}"
        );
        assert_eq!(es.matches("fill=\"#ffffff\" stroke=").count(), 1, "{es}");
        let en = chart(imr_stats::Lang::En);
        assert!(en.contains("<title>2022: a copy of 2021</title>"), "{en}");
    }

    #[test]
    fn year_ticks_never_step_below_one() {
        let t = nice_ticks(2019.0, 2020.0, 8, true);
        assert!(t.values.windows(2).all(|w| w[1] - w[0] >= 1.0));
    }

    #[test]
    fn negative_zero_is_written_as_zero() {
        assert_eq!(c(-0.001), "0.00");
        assert_eq!(label_number(-0.0001, 2), "0.00");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a < b & \"c\""), "a &lt; b &amp; &quot;c&quot;");
    }

    #[test]
    fn long_text_wraps_at_spaces() {
        assert_eq!(wrap("aa bb cc dd", 5), vec!["aa bb", "cc dd"]);
    }

    #[test]
    fn a_long_title_wraps_within_the_width_and_moves_the_body_down() {
        let long = "Gini (ponderado por nacimientos): tasa de mortalidad infantil de cada comuna, por año y región";
        let caption = Caption::default();
        let opened = open_chart(640.0, 400.0, (long, Some("Banda")), "d", &caption);
        let (title_chars, _) = heading_chars(640.0);
        assert!(long.chars().count() > title_chars);
        assert_eq!(opened.dy, HEADING_LINE);
        let svg = close_chart(opened, 400.0, &caption);
        let titles = svg.matches("font-weight=\"bold\"").count();
        assert_eq!(titles, 2, "{svg}");
        // Balanced: neither line is a word alone.
        let lines = balanced_lines(long, title_chars);
        let (a, b) = (lines[0].chars().count(), lines[1].chars().count());
        assert!(a.abs_diff(b) <= 12, "{lines:?}");
        assert!(svg.contains("height=\"418\""), "{svg}");
        assert!(
            svg.contains("<g transform=\"translate(0 18.00)\">"),
            "{svg}"
        );
        // A short title: the chart as it always was.
        let short = close_chart(
            open_chart(640.0, 400.0, ("Gini", None), "d", &caption),
            400.0,
            &caption,
        );
        let mut before = open_svg_captioned(640.0, 400.0, "Gini", "d", &caption);
        heading(&mut before, 640.0, "Gini", None);
        close_svg(&mut before, 640.0, 400.0, &caption);
        assert_eq!(short, before);
    }

    #[test]
    fn spanish_numbers_have_a_decimal_comma() {
        assert_eq!(label_number_in(0.05, 2, Lang::Es), "0,05");
        assert_eq!(num_in(Lang::Es, 1234.56789, 4), "1.234,5679");
        assert_eq!(num_in(Lang::En, 1234.56789, 4), "1234.5679");
    }
}
