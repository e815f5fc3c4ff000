//! One figure to paste into an article: a self-contained HTML snippet with the chart as inline
//! SVG, the numbers it draws as a table, the source line and the licence of the data and
//! boundaries. No script, no stylesheet link, no image or font request: it renders offline in a
//! blank page (tested in `e2e/findings.test.mjs`). Its words and numbers are in the answer's
//! language: a Spanish article gets "Año" and decimal commas (`e2e/spanish.test.mjs`).

use crate::chart::escape;
use crate::text::Answer;
use imr_core::inequality::RepeatedYear;
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
        "Tasa de las comunas con datos (por 1.000)",
        "Rate of the communes with data (per 1,000)",
    ),
    (
        "median_rate_per_1000",
        "Tasa comunal mediana (por 1.000)",
        "Median commune rate (per 1,000)",
    ),
    ("ci_low", "IC 95%: desde", "95% CI: low"),
    ("ci_high", "IC 95%: hasta", "95% CI: high"),
    ("gini", "Gini", "Gini"),
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

/// [`cell_with`] with each cell's own decimals (the tests' form).
#[cfg(test)]
fn cell_in(lang: Lang, column: &str, cell: &str) -> String {
    cell_with(lang, column, cell, None)
}

/// The decimals of a column of `rows` (index `c`): three when one of its measurements is below 1
/// in size (a column of zeros is, "0,000" as the Gini columns beside it: it read "0,00"), else
/// two — one precision per column, so a column does not read "0,381", "1,41".
fn column_decimals(rows: &[Vec<String>], c: usize, column: &str) -> usize {
    let values: Vec<f64> = (rows.iter().filter_map(|r| r.get(c)?.parse::<f64>().ok()))
        .filter(|x| x.is_finite())
        .collect();
    let small = values.iter().any(|x| x.abs() < 1.0 && *x != 0.0)
        || (!values.is_empty() && values.iter().all(|x| *x == 0.0));
    if small && measured(column) {
        3
    } else {
        2
    }
}

/// Columns whose numbers are not measurements, kept as written ("2021", "13101", "10").
const AS_WRITTEN: [&str; 6] = ["year", "code", "name", "term", "model", "per"];

/// Whether `column` holds measurements (not years, codes, names or a change asked for).
fn measured(column: &str) -> bool {
    !AS_WRITTEN.contains(&column)
}

/// A cell of column `column` of an answer's table as a reader of `lang` writes it: a count
/// with the language's thousands separator ("24.158"); a number with a decimal part rounded
/// for reading — two decimals from 1 up (a rate: "7,07"), three below (a Gini: "0,052") — in
/// the language's marks; codes, years and names as they are. The full precision is in the
/// answer's CSV. In Spanish, question 4's covariates and models in words
/// ([`crate::text::data_cell_es`]: "Gasto salud", "Efectos fijos"; a newcomer read
/// "gasto_salud_pc" and "fe" under "Variable" and "Modelo").
/// With `decimals` (the column's, [`column_decimals`]), every measurement of a column is
/// written with them.
fn cell_with(lang: Lang, column: &str, cell: &str, decimals: Option<usize>) -> String {
    if lang == Lang::Es {
        if let Some(words) = crate::text::data_cell_es(column, cell) {
            return words;
        }
    }
    match cell.parse::<f64>() {
        Ok(count) if column == "births" => lang.grouped(count, 0),
        // a measurement of exactly 0 as the others ("0,000"), not a bare "0" beside them
        Ok(x) if x.is_finite() && (cell.contains('.') || measured(column)) => {
            let own = if x.abs() >= 1.0 { 2 } else { 3 };
            lang.grouped(x, decimals.unwrap_or(own))
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

/// The file an answer's figure downloads as, named for a reader who finds it among her
/// downloads: the project, the question's number and its title in ASCII words
/// ("imr-atlas_pregunta-1_baja-la-mortalidad-infantil.html"; the answer on the study
/// "imr-atlas_estudio_confirman-estos-datos-el-estudio.html"). Only `a`–`z`, `0`–`9`, `-`, `_`
/// and the extension's dot: no path, no space, the same name on every system.
pub fn file_name(answer: &Answer, lang: Lang) -> String {
    let which = match answer.number {
        Some(n) => format!("{}-{n}", lang.pick("pregunta", "question")),
        None => lang.pick("estudio", "study").to_owned(),
    };
    match slug(&answer.title) {
        title if title.is_empty() => format!("imr-atlas_{which}.html"),
        title => format!("imr-atlas_{which}_{title}.html"),
    }
}

/// `title` in lower-case ASCII words joined by `-`: accents dropped (á → a, ñ → n), any other
/// character a break between words, at most 60 characters (cut after a whole word).
fn slug(title: &str) -> String {
    const MAX: usize = 60;
    let plain = |c: char| match c {
        'á' | 'à' | 'â' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        c => c,
    };
    let text: String = title
        .chars()
        .flat_map(char::to_lowercase)
        .map(plain)
        .collect();
    let mut out = String::new();
    for word in text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() && out.len() + 1 + word.len() > MAX {
            break;
        }
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(word);
    }
    out.truncate(MAX);
    out
}

/// The snippet of one answer in `lang` (the answer's): `<figure>` with the question as title,
/// [`subtitle`], the SVG, the headline as caption, the data table (in a `<details>`; a year
/// that copies an earlier one among `marks` says so beside it, "2020 (copia de 2019)", as the
/// chart draws it dashed), `provenance` (source files, engine and its version, date) and
/// `credit` (licences).
pub fn snippet(
    answer: &Answer,
    lang: Lang,
    (provenance, credit): (&str, &str),
    marks: &imr_core::inequality::YearMarks,
) -> String {
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
    let rows = &answer.data.rows;
    // the answer's one precision when it fixes one (question 4's sentences), else each column's
    let decimals: Vec<usize> = (answer.data.header.iter().enumerate())
        .map(|(c, column)| {
            (answer.data.decimals).unwrap_or_else(|| column_decimals(rows, c, column))
        })
        .collect();
    for row in rows {
        out.push_str("<tr>");
        for ((cell, column), d) in row.iter().zip(&answer.data.header).zip(&decimals) {
            let copy = (column == "year")
                .then(|| cell.parse::<i64>().ok())
                .flatten()
                .and_then(|time| Some((time, marks.copy_of(time)?)));
            let text = match copy {
                Some((time, repeat_of)) => RepeatedYear { time, repeat_of }.label(lang),
                None => cell_with(lang, column, cell, Some(*d)),
            };
            out.push_str(&format!(
                "<td style=\"padding:2px 4px\">{}</td>",
                escape(&text)
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
#[path = "embed_tests.rs"]
mod tests;
