//! The findings as a short printable HTML report: self-contained (inline styles and SVG, no
//! scripts, no requests), one question per block, print CSS that keeps each block on a page.

use crate::chart::escape;
use crate::Findings;
use imr_core::Lang;

/// The report in `lang`; `provenance` is the line naming the data, engine and date
/// (`imr_core::provenance::report_line`).
pub fn report_html(findings: &Findings, lang: Lang, provenance: &str) -> String {
    report_html_spanned(findings, lang, provenance, false)
}

/// [`report_html`], saying the years the answers cover when `chosen` (a request chose a span).
pub fn report_html_spanned(
    findings: &Findings,
    lang: Lang,
    provenance: &str,
    chosen: bool,
) -> String {
    let title = lang.pick("Hallazgos — imr-atlas", "Findings — imr-atlas");
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title}</title>\
<style>body{{font-family:sans-serif;max-width:46rem;margin:1.5rem auto;padding:0 1rem;line-height:1.45;color:#222}}\
svg{{max-width:100%;height:auto}}\
section{{border-top:1px solid #ccc;padding:.5rem 0 1rem;break-inside:avoid;page-break-inside:avoid}}\
.caveat{{color:#555;font-size:.9em}}.how{{color:#444;font-size:.9em}}.how dt{{font-weight:bold}}.how dd{{margin:0 0 .3rem 0}}footer{{color:#555;font-size:.85em;border-top:1px solid #ccc;margin-top:1rem}}\
@media print{{body{{margin:0}}section{{break-inside:avoid}}}}</style></head><body>\n<h1>{title}</h1>\n",
        lang.tag()
    );
    if let Some(note) = findings.lag_note(lang) {
        out.push_str(&format!(
            "<p class=\"warn\"><strong>{}</strong></p>\n",
            escape(&note)
        ));
    }
    if let Some(note) = findings.span_note(lang, chosen) {
        out.push_str(&format!("<p>{}</p>\n", escape(&note)));
    }
    if let Some(note) = findings.flagged_note(lang) {
        out.push_str(&format!("<p class=\"caveat\">{}</p>\n", escape(&note)));
    }
    if let Some(note) = findings.repeated_note(lang) {
        out.push_str(&format!("<p class=\"caveat\">{}</p>\n", escape(&note)));
    }
    for a in findings.answers(lang).iter() {
        out.push_str(&format!(
            "<section data-question=\"{}\"><h2>{}</h2>\n<p><strong>{}</strong></p>\n",
            a.question,
            escape(&a.heading()),
            escape(&a.headline)
        ));
        for d in &a.details {
            out.push_str(&format!("<p>{}</p>\n", escape(d)));
        }
        out.push_str(&a.chart_svg);
        out.push('\n');
        for c in &a.caveats {
            out.push_str(&format!("<p class=\"caveat\">{}</p>\n", escape(c)));
        }
        if !a.method.is_empty() {
            // Open: a printed page cannot be unfolded (the reader may fold it on screen).
            out.push_str(&format!(
                "<details class=\"how\" open><summary>{}</summary><dl>",
                escape(crate::method::heading(lang))
            ));
            for t in &a.method {
                out.push_str(&format!(
                    "<dt>{}</dt><dd>{}</dd>",
                    escape(&t.term),
                    escape(&t.meaning)
                ));
            }
            out.push_str("</dl></details>\n");
        }
        out.push_str("</section>\n");
    }
    out.push_str(&format!(
        "<footer><p>{}</p></footer>\n</body></html>\n",
        escape(provenance)
    ));
    out
}
