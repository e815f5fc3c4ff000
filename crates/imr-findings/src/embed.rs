//! One figure to paste into an article: a self-contained HTML snippet with the chart as inline
//! SVG, the numbers it draws as a table, the source line and the licence of the data and
//! boundaries. No script, no stylesheet link, no image or font request: it renders offline in a
//! blank page (tested in `e2e/findings.test.mjs`).

use crate::chart::escape;
use crate::text::Answer;

/// Credit of the bundled dataset and boundaries (see `public/data/SOURCES.md`).
pub const BUNDLED_CREDIT: &str = "Datos/Data: SINIM–SUBDERE, INE, MINSAL (CC0). Límites/Boundaries: chilemapas (M. Vargas et al.; INE, SUBDERE, BCN), GPL-3.";

/// The snippet of one answer: `<figure>` with the SVG, the headline as caption, the data table
/// (in a `<details>`), `provenance` (source files, engine, date) and `credit` (licences).
pub fn snippet(answer: &Answer, provenance: &str, credit: &str) -> String {
    let mut out = format!(
        "<figure class=\"imr-atlas-figure\" data-question=\"{}\" style=\"margin:1em 0;max-width:340px;font-family:sans-serif;font-size:13px;color:#222\">\n{}\n<figcaption style=\"margin-top:.4em\"><strong>{}</strong>",
        answer.question,
        answer.chart_svg,
        escape(&answer.headline)
    );
    out.push_str("<details style=\"margin-top:.4em\"><summary>Data</summary><table style=\"border-collapse:collapse;font-size:12px\"><thead><tr>");
    for h in &answer.data.header {
        out.push_str(&format!(
            "<th style=\"border-bottom:1px solid #999;padding:2px 4px;text-align:left\">{}</th>",
            escape(h)
        ));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &answer.data.rows {
        out.push_str("<tr>");
        for c in row {
            out.push_str(&format!("<td style=\"padding:2px 4px\">{}</td>", escape(c)));
        }
        out.push_str("</tr>");
    }
    out.push_str(&format!(
        "</tbody></table></details><br><small>{}<br>{}</small></figcaption>\n</figure>\n",
        escape(provenance),
        escape(credit)
    ));
    out
}
