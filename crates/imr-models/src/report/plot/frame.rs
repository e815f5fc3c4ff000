//! Where the coefficient plot's parts go and how they are drawn: value range and ticks, the
//! margins, the title's, legend's, labels' and axis title's lines (wrapped to their room, never
//! clipped) and the plot's size.

use super::options::PlotOptions;
use super::words::{axis_title, legend_entry, subtitle};
use crate::fit::Fit;
use crate::report::format_number;
use imr_stats::Lang;

pub(super) const PALETTE: [&str; 6] = [
    "#1b6ca8", "#d1495b", "#2e933c", "#8f5ea2", "#e08e0b", "#555555",
];

/// SVG-safe text ([`imr_escape::xml_text`]).
pub(super) fn escape(s: &str) -> String {
    imr_escape::xml_text(s)
}

/// A tick without trailing zeros ("0.1"; Spanish "0,1", minus U+2212: "−0,5").
pub(super) fn tick_label(t: f64, lang: Lang) -> String {
    let s = format_number(t);
    let s = if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    let s = lang.with_decimal_mark(s);
    match (lang, s.strip_prefix('-')) {
        (Lang::Es, Some(rest)) => format!("−{rest}"),
        _ => s,
    }
}

/// "Nice" ticks covering `[lo, hi]` (steps of 1, 2 or 5 × 10ᵏ).
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let raw = span / 5.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// Height of a line of the labels and the legend (12 px text).
pub(super) const LINE_HEIGHT: f64 = 15.0;

/// Width of a character of the 12 px labels, about.
const CHAR_WIDTH: f64 = 6.5;

/// Height of a line of the 14 px title.
pub(super) const TITLE_LINE: f64 = 18.0;

/// Height of a line of the 10 px source line.
pub(super) const FOOTER_LINE: f64 = 12.0;

/// `lines` as one `<text>` of `<tspan>`s at `x`, the first baseline at `y`, `dy` apart;
/// `anchor` is an attribute string (`text-anchor="end"` or empty).
pub(super) fn text_lines(x: f64, y: f64, dy: f64, anchor: &str, lines: &[String]) -> String {
    let mut s = format!("<text x=\"{x:.2}\" y=\"{y:.2}\"{anchor}>");
    for (k, line) in lines.iter().enumerate() {
        let step = if k == 0 { 0.0 } else { dy };
        s.push_str(&format!(
            "<tspan x=\"{x:.2}\" dy=\"{step:.2}\">{}</tspan>",
            escape(line)
        ));
    }
    s.push_str("</text>");
    s
}

/// Where things go: the value range, the margins, the legend's and the labels' lines (wrapped
/// to their room, never clipped) and the plot's size.
#[derive(Clone)]
pub(super) struct Frame {
    lo: f64,
    hi: f64,
    left: f64,
    right: f64,
    top: f64,
    /// Height of one term's row: the option's, or more when a label needs more lines.
    row_height: f64,
    plot_height: f64,
    pub width: f64,
    pub height: f64,
    /// The title's lines (none without one).
    pub title: Vec<String>,
    /// The subtitle's first baseline and its lines.
    pub subtitle_y: f64,
    pub subtitle: Vec<String>,
    /// The axis title's lines.
    axis_title: Vec<String>,
    /// Each fit's legend entry: its first baseline and its lines.
    pub legend: Vec<(f64, Vec<String>)>,
    /// Each term's label in lines that fit the left margin.
    labels: Vec<Vec<String>>,
    /// Each term's change other than one unit that its row is drawn per
    /// ([`PlotOptions::term_changes`]), written as the row's `data-per`.
    changes: Vec<Option<f64>>,
    /// The source line in lines that fit the width (none without one).
    pub footer: Vec<String>,
}

impl Frame {
    /// The range of every interval shown, padded by 5%, and the layout of `terms` rows.
    pub(super) fn new(fits: &[Fit], terms: &[String], options: &PlotOptions) -> Self {
        let (mut lo, mut hi) = (0.0f64, 0.0f64);
        for fit in fits {
            for c in fit.coefficients.iter().filter(|c| terms.contains(&c.term)) {
                if c.conf_low.is_finite() && c.conf_high.is_finite() {
                    lo = lo.min(c.conf_low);
                    hi = hi.max(c.conf_high);
                }
            }
        }
        if hi - lo <= 0.0 {
            hi = lo + 1.0;
        }
        let pad = 0.05 * (hi - lo);
        let (lo, hi) = (lo - pad, hi + pad);
        // Room for the longest term label (about 6.5 px a character at the labels' size),
        // at least 150 px and at most 45% of the width; a longer label wraps onto more lines.
        let longest = terms
            .iter()
            .map(|t| options.term_label(t).chars().count())
            .max()
            .unwrap_or(0);
        let left =
            (16.0 + CHAR_WIDTH * longest as f64).clamp(150.0, (0.45 * options.width).max(150.0));
        let label_chars = (((left - 16.0) / CHAR_WIDTH) as usize).max(10);
        let labels: Vec<Vec<String>> = terms
            .iter()
            .map(|t| imr_stats::wrap_words(&options.term_label(t), label_chars))
            .collect();
        let most_lines = labels.iter().map(Vec::len).max().unwrap_or(1);
        let row_height = options
            .row_height
            .max(LINE_HEIGHT * most_lines as f64 + 8.0);
        let lang = options.caption.lang;
        let legend_chars = (((options.width - 30.0) / CHAR_WIDTH) as usize).max(20);
        let full_chars = (((options.width - 16.0) / CHAR_WIDTH) as usize).max(20);
        // The title at 14 px bold, about 8 px a character.
        let title = if options.title.is_empty() {
            Vec::new()
        } else {
            imr_stats::wrap_words(
                &options.title,
                (((options.width - 16.0) / 8.0) as usize).max(16),
            )
        };
        let subtitle_y = if title.is_empty() {
            16.0
        } else {
            20.0 + TITLE_LINE * title.len() as f64 + 2.0
        };
        let subtitle = imr_stats::wrap_words(&subtitle(fits, lang), full_chars);
        let mut y = subtitle_y + LINE_HEIGHT * subtitle.len() as f64 + 8.0;
        let legend: Vec<(f64, Vec<String>)> = fits
            .iter()
            .enumerate()
            .map(|(i, fit)| {
                let text = format!("({}) {}", i + 1, legend_entry(fit, lang));
                let lines = imr_stats::wrap_words(&text, legend_chars);
                let first = y;
                y += LINE_HEIGHT * lines.len() as f64 + 5.0;
                (first, lines)
            })
            .collect();
        let right = 20.0;
        let top = y;
        let plot_height = row_height * terms.len().max(1) as f64;
        let footer: Vec<String> = (options.caption.provenance.as_deref())
            .map(|line| {
                imr_stats::wrap_source_line(line, (((options.width - 16.0) / 5.5) as usize).max(20))
            })
            .unwrap_or_default();
        let footer_height = if footer.is_empty() {
            0.0
        } else {
            22.0 + FOOTER_LINE * (footer.len() as f64 - 1.0)
        };
        let changes: Vec<Option<f64>> = (terms.iter())
            .map(|t| options.change_of(t).filter(|per| *per != 1.0))
            .collect();
        let per_change = changes.iter().any(Option::is_some);
        let axis_title = imr_stats::wrap_words(axis_title(lang, per_change), full_chars);
        let height = top
            + plot_height
            + 44.0
            + LINE_HEIGHT * (axis_title.len() as f64 - 1.0)
            + footer_height;
        Frame {
            lo,
            hi,
            left,
            right,
            top,
            row_height,
            plot_height,
            width: options.width,
            height,
            title,
            subtitle_y,
            subtitle,
            axis_title,
            changes,
            legend,
            labels,
            footer,
        }
    }

    /// The x coordinate of a value.
    fn x_of(&self, v: f64) -> f64 {
        self.left + (v - self.lo) / (self.hi - self.lo) * (self.width - self.left - self.right)
    }

    /// The axis, its grid, the zero line and the axis title.
    pub(super) fn axis(&self, lang: Lang) -> String {
        let Frame {
            lo,
            hi,
            left,
            right,
            top,
            plot_height,
            width,
            ..
        } = self.clone();
        let x_of = |v: f64| self.x_of(v);
        let mut s = String::new();
        // axis, grid and zero line
        let axis_y = top + plot_height;
        for t in ticks(lo, hi) {
            let x = x_of(t);
            s.push_str(&format!(
                "<line x1=\"{x:.2}\" y1=\"{top:.2}\" x2=\"{x:.2}\" y2=\"{axis_y:.2}\" stroke=\"#e5e5e5\"/>\n<text x=\"{x:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{}</text>\n",
                axis_y + 16.0,
                tick_label(if t.abs() < 1e-12 * (hi - lo) { 0.0 } else { t }, lang)
            ));
        }
        s.push_str(&format!(
            "<line x1=\"{left:.2}\" y1=\"{axis_y:.2}\" x2=\"{:.2}\" y2=\"{axis_y:.2}\" stroke=\"#333333\"/>\n",
            width - right
        ));
        let zero = x_of(0.0);
        s.push_str(&format!(
            "<line x1=\"{zero:.2}\" y1=\"{top:.2}\" x2=\"{zero:.2}\" y2=\"{axis_y:.2}\" stroke=\"#333333\" stroke-dasharray=\"4 3\"/>\n"
        ));
        // The axis title centred on the whole width (it wraps to it).
        s.push_str(&text_lines(
            width / 2.0,
            axis_y + 36.0,
            LINE_HEIGHT,
            " text-anchor=\"middle\"",
            &self.axis_title,
        ));
        s.push('\n');
        s
    }

    /// One row per term: its label and each fit's estimate with its interval.
    pub(super) fn rows(&self, fits: &[Fit], terms: &[String]) -> String {
        let (top, left) = (self.top, self.left);
        let x_of = |v: f64| self.x_of(v);
        let mut s = String::new();
        // rows
        for (r, term) in terms.iter().enumerate() {
            let row_top = top + self.row_height * r as f64;
            // The label's lines centred on the row.
            let lines = &self.labels[r];
            let first = row_top + self.row_height / 2.0 + 4.0
                - LINE_HEIGHT * (lines.len() as f64 - 1.0) / 2.0;
            s.push_str(&text_lines(
                left - 8.0,
                first,
                LINE_HEIGHT,
                " text-anchor=\"end\"",
                lines,
            ));
            s.push('\n');
            for (i, fit) in fits.iter().enumerate() {
                let Some(c) = fit.coefficient(term) else {
                    continue;
                };
                let y = row_top + self.row_height * (i as f64 + 1.0) / (fits.len() as f64 + 1.0);
                let colour = PALETTE[i % PALETTE.len()];
                let per = (self.changes[r]).map_or(String::new(), |p| format!(" data-per=\"{p}\""));
                s.push_str(&format!(
                    "<g data-term=\"{}\" data-model=\"{}\"{per} data-estimate=\"{}\" data-conf-low=\"{}\" data-conf-high=\"{}\">",
                    escape(term),
                    fit.model.name(),
                    c.estimate,
                    c.conf_low,
                    c.conf_high
                ));
                if c.conf_low.is_finite() && c.conf_high.is_finite() {
                    s.push_str(&format!(
                        "<line x1=\"{:.2}\" y1=\"{y:.2}\" x2=\"{:.2}\" y2=\"{y:.2}\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                        x_of(c.conf_low),
                        x_of(c.conf_high)
                    ));
                }
                s.push_str(&format!(
                    "<circle cx=\"{:.2}\" cy=\"{y:.2}\" r=\"4\" fill=\"{colour}\"/></g>\n",
                    x_of(c.estimate)
                ));
            }
        }
        s
    }
}
