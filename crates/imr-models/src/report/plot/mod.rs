//! A deterministic SVG coefficient plot: one row per term, a point at the estimate and a line
//! over the confidence interval (`conf_low` to `conf_high` of the coefficient table), models
//! side by side within a row. Every number is written with fixed precision, so the same fits
//! always give the same bytes. A published chart reads without the page: a title (the
//! caller's), a subtitle saying how to read a row, a legend of the models in plain words, the
//! axis saying what a coefficient is a change of, and the source line; the estimators'
//! technical names are in its `<desc>`.

mod frame;
mod options;
mod words;

use crate::fit::Fit;
use crate::spec::INTERCEPT;
use frame::{escape, text_lines, Frame, FOOTER_LINE, LINE_HEIGHT, PALETTE, TITLE_LINE};
pub use options::PlotOptions;

/// The SVG text of a coefficient plot of one or more fits.
pub fn coefficient_plot_svg(fits: &[Fit], options: &PlotOptions) -> String {
    let fits = &options.drawn(fits);
    let terms = plotted_terms(fits, options);
    let frame = Frame::new(fits, &terms, options);
    let (width, height) = (frame.width, frame.height);
    let footer = options.caption.provenance.as_deref();
    let lang = options.caption.lang;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"{}\">\n",
        lang.pick("Gráfico de coeficientes", "Coefficient plot")
    );
    if let Some(line) = options.caption.metadata() {
        s.push_str(&format!("<metadata>{}</metadata>\n", escape(&line)));
    }
    let technical: Vec<String> = fits
        .iter()
        .enumerate()
        .map(|(i, fit)| format!("({}) {}", i + 1, words::technical_entry(fit, lang)))
        .collect();
    s.push_str(&format!("<desc>{}</desc>\n", escape(&technical.join("; "))));
    s.push_str(&format!(
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"#ffffff\"/>\n"
    ));
    if !frame.title.is_empty() {
        let mut text = text_lines(8.0, 20.0, TITLE_LINE, "", &frame.title);
        text.insert_str("<text".len(), " font-size=\"14\" font-weight=\"bold\"");
        s.push_str(&text);
        s.push('\n');
    }
    let mut text = text_lines(8.0, frame.subtitle_y, LINE_HEIGHT, "", &frame.subtitle);
    text.insert_str("<text".len(), " fill=\"#444444\" data-subtitle=\"\"");
    s.push_str(&text);
    s.push('\n');
    // legend: at the left edge across the whole width, each entry wrapped to it
    for (i, (first_y, lines)) in frame.legend.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        s.push_str(&format!(
            "<circle cx=\"12\" cy=\"{:.2}\" r=\"4\" fill=\"{colour}\"/>",
            first_y - 4.0
        ));
        s.push_str(&text_lines(22.0, *first_y, LINE_HEIGHT, "", lines));
        s.push('\n');
    }
    s.push_str(&frame.axis(lang));
    s.push_str(&frame.rows(fits, &terms));
    if footer.is_some() {
        // The source line wrapped to the width (about 5.5 px a character at 10 px), its
        // last line 8 px above the bottom.
        let lines = &frame.footer;
        let first = height - 8.0 - FOOTER_LINE * (lines.len() as f64 - 1.0);
        let mut text = text_lines(8.0, first, FOOTER_LINE, "", lines);
        text.insert_str(
            "<text".len(),
            " data-provenance=\"\" font-size=\"10\" fill=\"#555555\"",
        );
        s.push_str(&text);
        s.push('\n');
    }
    s.push_str("</svg>\n");
    s
}

/// The terms of the plot, in order of first appearance (the intercept only when asked).
fn plotted_terms(fits: &[Fit], options: &PlotOptions) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for fit in fits {
        for c in &fit.coefficients {
            if (options.include_intercept || c.term != INTERCEPT) && !terms.contains(&c.term) {
                terms.push(c.term.clone());
            }
        }
    }
    terms
}

#[cfg(test)]
mod tests;
