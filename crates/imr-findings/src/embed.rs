//! One figure to paste into an article: a self-contained HTML snippet with the chart as inline
//! SVG, the numbers it draws as a table, the source line and the licence of the data and
//! boundaries. No script, no stylesheet link, no image or font request: it renders offline in a
//! blank page (tested in `e2e/findings.test.mjs`). Its words and numbers are in the answer's
//! language: a Spanish article gets "Año" and decimal commas (`e2e/spanish.test.mjs`).

use crate::chart::escape;
use crate::text::Answer;
use imr_core::Lang;

/// The licence of the bundled dataset in `lang` (see `public/data/SOURCES.md`), under a chart
/// whose source line already names the institutions (`imr_core::provenance::footer_line`): the
/// Findings' charts draw no boundaries, so they credit none.
pub fn bundled_credit(lang: Lang) -> &'static str {
    lang.pick(
        "Datos públicos de INE (CC-BY), DEIS–MINSAL y SINIM–SUBDERE, de uso libre citando la fuente.",
        "Public data of INE (CC-BY), DEIS–MINSAL and SINIM–SUBDERE, free to use with attribution.",
    )
}

/// The reader's words for a column of an answer's table (`Table::header`, machine names that
/// the page's JSON and CSV keep): Spanish and English. A name not listed is shown as it is.
const COLUMN_WORDS: [(&str, &str, &str); 19] = [
    ("year", "Año", "Year"),
    (
        "pooled_rate_per_1000",
        "Tasa de todas las comunas (por 1.000)",
        "Pooled rate (per 1,000)",
    ),
    (
        "median_rate_per_1000",
        "Tasa comunal mediana (por 1.000)",
        "Median commune rate (per 1,000)",
    ),
    ("ci_low", "IC 95%: desde", "95% CI: low"),
    ("ci_high", "IC 95%: hasta", "95% CI: high"),
    ("value", "Valor", "Value"),
    ("observed_gini", "Gini observado", "Observed Gini"),
    ("adjusted_gini", "Gini ajustado", "Adjusted Gini"),
    (
        "imr_inequality",
        "Desigualdad de la mortalidad infantil",
        "Inequality of infant mortality",
    ),
    (
        "health_income_gini",
        "Gini de los recursos municipales de salud",
        "Gini of municipal health resources",
    ),
    ("term", "Variable", "Term"),
    ("per", "Por", "Per"),
    (
        "change_per_1000",
        "Cambio de la tasa (por 1.000)",
        "Change in the rate (per 1,000)",
    ),
    ("model", "Modelo", "Model"),
    ("code", "Código", "Code"),
    ("name", "Comuna", "Commune"),
    (
        "smoothed_rate_per_1000",
        "Tasa suavizada (por 1.000)",
        "Smoothed rate (per 1,000)",
    ),
    (
        "raw_rate_per_1000",
        "Tasa observada (por 1.000)",
        "Raw rate (per 1,000)",
    ),
    ("births", "Nacidos vivos", "Live births"),
];

/// The column's words in `lang`, or its name when the list has none.
pub fn column_words(lang: Lang, column: &str) -> &str {
    COLUMN_WORDS
        .iter()
        .find(|(name, _, _)| *name == column)
        .map(|(_, es, en)| lang.pick(es, en))
        .unwrap_or(column)
}

/// A cell of column `column` of an answer's table as a reader of `lang` writes it: a count
/// with the language's thousands separator ("24.158"); a number with a decimal part rounded
/// for reading — two decimals from 1 up (a rate: "7,07"), three below (a Gini: "0,052") — in
/// the language's marks; codes, years and names as they are. The full precision is in the
/// answer's CSV.
fn cell_in(lang: Lang, column: &str, cell: &str) -> String {
    match cell.parse::<f64>() {
        Ok(count) if column == "births" => lang.grouped(count, 0),
        Ok(x) if cell.contains('.') && x.is_finite() => {
            lang.grouped(x, if x.abs() >= 1.0 { 2 } else { 3 })
        }
        _ => cell.to_owned(),
    }
}

/// The subtitle of an answer's figure: what its chart measures and, when its numbers are by
/// year, the years they span ("Gini por año (IC 95%), 2001–2021").
pub fn subtitle(answer: &Answer) -> String {
    let years: Vec<i64> = match answer.data.header.iter().position(|h| h == "year") {
        Some(col) => answer
            .data
            .rows
            .iter()
            .filter_map(|row| row.get(col)?.parse().ok())
            .collect(),
        None => Vec::new(),
    };
    match (years.iter().min(), years.iter().max()) {
        (Some(a), Some(b)) if a < b => format!("{}, {a}–{b}", answer.chart_title),
        (Some(a), _) => format!("{}, {a}", answer.chart_title),
        _ => answer.chart_title.clone(),
    }
}

/// The snippet of one answer in `lang` (the answer's): `<figure>` with the question as title,
/// [`subtitle`], the SVG, the headline as caption, the data table (in a `<details>`),
/// `provenance` (source files, engine and its version, date) and `credit` (licences).
pub fn snippet(answer: &Answer, lang: Lang, provenance: &str, credit: &str) -> String {
    let mut out = format!(
        "<figure class=\"imr-atlas-figure\" data-question=\"{}\" lang=\"{}\" style=\"margin:1em 0;max-width:340px;font-family:sans-serif;font-size:13px;color:#222\">\n<p style=\"margin:0;font-size:15px;font-weight:bold\">{}</p>\n<p style=\"margin:.1em 0 .4em;color:#555\">{}</p>\n{}\n<figcaption style=\"margin-top:.4em\"><strong>{}</strong>",
        answer.question,
        lang.tag(),
        escape(&answer.title),
        escape(&subtitle(answer)),
        answer.chart_svg,
        escape(&answer.headline)
    );
    out.push_str(&format!(
        "<details style=\"margin-top:.4em\"><summary>{}</summary><table style=\"border-collapse:collapse;font-size:12px\"><thead><tr>",
        lang.pick("Datos", "Data")
    ));
    for h in &answer.data.header {
        out.push_str(&format!(
            "<th style=\"border-bottom:1px solid #999;padding:2px 4px;text-align:left\">{}</th>",
            escape(column_words(lang, h))
        ));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &answer.data.rows {
        out.push_str("<tr>");
        for (c, column) in row.iter().zip(&answer.data.header) {
            out.push_str(&format!(
                "<td style=\"padding:2px 4px\">{}</td>",
                escape(&cell_in(lang, column, c))
            ));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_cells_take_a_decimal_comma_and_codes_stay() {
        assert_eq!(cell_in(Lang::Es, "value", "7.123456"), "7,12");
        assert_eq!(cell_in(Lang::Es, "value", "-0.5"), "−0,500");
        assert_eq!(cell_in(Lang::Es, "value", "0.052381"), "0,052");
        assert_eq!(cell_in(Lang::Es, "value", "1234.5678"), "1.234,57");
        assert_eq!(cell_in(Lang::Es, "value", "13101"), "13101");
        assert_eq!(cell_in(Lang::Es, "value", "Santiago"), "Santiago");
        assert_eq!(
            cell_in(Lang::Es, "value", "gasto_salud_pc"),
            "gasto_salud_pc"
        );
        assert_eq!(cell_in(Lang::En, "value", "7.123456"), "7.12");
        assert_eq!(cell_in(Lang::Es, "value", ""), "");
        // Counts with the thousands separator; a code of the same digits stays as it is.
        assert_eq!(cell_in(Lang::Es, "births", "24158"), "24.158");
        assert_eq!(cell_in(Lang::En, "births", "24158"), "24,158");
        assert_eq!(cell_in(Lang::Es, "code", "13101"), "13101");
    }

    #[test]
    fn every_column_has_words_without_english_in_the_spanish() {
        for (name, es, en) in COLUMN_WORDS {
            assert!(imr_lang::english_words(es).is_empty(), "{name}: {es}");
            assert_eq!(column_words(Lang::En, name), en);
        }
        assert!(imr_lang::english_words(bundled_credit(Lang::Es)).is_empty());
        assert_eq!(column_words(Lang::Es, "unknown_column"), "unknown_column");
    }
}
