//! CSV exports for a spreadsheet in Spanish (`imr --csv-lang es`, the Spanish page's downloads):
//! what INE's and DEIS's own CSVs are to a Chilean reader's Excel or LibreOffice (es-CL) — `;`
//! between cells, a decimal comma, no thousands separator, UTF-8 with a byte-order mark (so
//! Excel reads the accents), column names and the provenance lines in Spanish.
//!
//! It is a rewriting of the machine CSV ([`crate::provenance::with_csv_header`], which stays
//! the English page's and `imr`'s default, byte for byte): every cell is kept except a plain
//! number, whose decimal point becomes a comma, and the words of the header row (and of the
//! cells of the few columns whose values are words: model, standard errors, term, measure),
//! which come from [`column_es`]. The formula guard of the machine CSV has already acted on
//! each cell; a cell holding `;`, `"` or a line break is quoted, so a hostile name stays one
//! cell. The engine's own reader (crates/imr-core ingest) reads the file back to the same
//! numbers: it detects the `;`, the decimal comma, the byte-order mark and the `#` lines.

use crate::Lang;
use std::borrow::Cow;

/// The global option of `imr` that writes every CSV in a language: `--csv-lang es`.
pub const CSV_LANG_FLAG: &str = "--csv-lang";

/// The byte-order mark that opens a Spanish CSV: Excel reads a CSV without it in the system's
/// code page (Windows-1252 in es-CL), which turns "Ñuñoa" into "Ã‘uÃ±oa".
pub const BOM: char = '\u{feff}';

/// The words `imr` takes to write its CSVs as `lang`'s page does: `--csv-lang es` in Spanish,
/// nothing in English (the machine CSV is the default). The Spanish page's commands beside a
/// CSV download end with them.
pub fn csv_lang_args(lang: Lang) -> Vec<String> {
    match lang {
        Lang::Es => vec![CSV_LANG_FLAG.to_string(), lang.tag().to_string()],
        Lang::En => Vec::new(),
    }
}

/// A shown `imr` command that writes a CSV, with [`csv_lang_args`] at its end: "imr microdata
/// … --out conteos.csv --csv-lang es" in Spanish, the command as it is in English.
pub fn command_in(lang: Lang, command: &str) -> String {
    let mut line = command.to_string();
    for word in csv_lang_args(lang) {
        line.push(' ');
        line.push_str(&word);
    }
    line
}

/// A CSV export in `lang`: the machine CSV ([`crate::provenance::with_csv_header`]) in
/// English; in Spanish the spreadsheet CSV ([`spanish_csv`]).
pub fn with_csv_header_in(lang: Lang, source: &str, date: &str, body: &str) -> String {
    match lang {
        Lang::En => crate::provenance::with_csv_header(source, date, body),
        Lang::Es => spanish_csv(source, date, body),
    }
}

/// The Spanish spreadsheet CSV of a machine CSV `body` (its header row and rows, without
/// provenance lines): the byte-order mark, the provenance in Spanish as `#` lines, then the
/// rows with `;`, decimal commas and Spanish column names.
pub fn spanish_csv(source: &str, date: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + body.len() / 8 + 200);
    out.push(BOM);
    out.push_str(&spanish_header(source, date));
    out.push_str(&spanish_body(body));
    out
}

/// The provenance lines in Spanish: "# Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE
/// (chile_imr_2001_2021.csv)" (whose figures, as a chart's foot credits them), "# motor
/// imr-atlas 0.1.0 (imr-core 0.1.0)", "# Generado: 2026-12-06". A `;` of a file's name would
/// split its line into two cells in a spreadsheet, the second one free to start with `=`: it
/// is written as `,`.
fn spanish_header(source: &str, date: &str) -> String {
    let one_line = |text: &str| imr_escape::comment_line(text).replace(';', ",");
    let credit = crate::map::svg::publishers(Lang::Es, &one_line(source));
    format!(
        "# Fuente: {}\n# {}\n# Generado: {}\n",
        one_line(&credit),
        crate::provenance::engine_label_in(Lang::Es),
        one_line(date)
    )
}

/// The rows of a machine CSV (`,`, decimal point, English column names) in the Spanish
/// spreadsheet's form. A text that is not CSV cannot come from an export; whatever it holds is
/// read as the `csv` crate reads it (never a panic) and written again.
pub fn spanish_body(body: &str) -> String {
    let records: Vec<csv::StringRecord> = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(body.as_bytes())
        .records()
        .filter_map(Result::ok)
        .collect();
    let mut writer = csv::WriterBuilder::new()
        .delimiter(b';')
        .flexible(true)
        .from_writer(Vec::new());
    let columns: Vec<String> = records
        .first()
        .map(|r| r.iter().map(str::to_string).collect())
        .unwrap_or_default();
    let means = commune_means(&records, &columns);
    for (i, record) in records.iter().enumerate() {
        let cells: Vec<Cow<'_, str>> = if i == 0 {
            record.iter().map(|c| Cow::Owned(column_es(c))).collect()
        } else {
            record
                .iter()
                .enumerate()
                .map(
                    |(j, c)| match (columns.get(j).map(String::as_str), &means[i]) {
                        (Some("term"), Some(base)) => {
                            Cow::Owned(format!("{base} (media de la comuna)"))
                        }
                        (column, _) => cell_es(column.unwrap_or(""), c),
                    },
                )
                .collect()
        };
        let _ = writer.write_record(cells.iter().map(|c| c.as_bytes()));
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// For each row of a coefficient CSV (`model`, `vcov` and `term` columns), the regressor `x`
/// whose commune mean the row's term is: `x_mean`, which the correlated random effects model
/// (`cre`, Mundlak) adds for a regressor `x` that varies within communes, in a `cre` fit that
/// also has the term `x` and one `x_mean` only (a regressor of the data named `x_mean` beside
/// the mean of `x` would be two: neither is named in words). `None` for every other row and in
/// any other CSV. Written in Spanish "x (media de la comuna)", the tables' words
/// (`imr fit --lang es`).
fn commune_means<'r>(records: &'r [csv::StringRecord], columns: &[String]) -> Vec<Option<&'r str>> {
    let at = |name: &str| columns.iter().position(|c| c == name);
    let (Some(model), Some(vcov), Some(term)) = (at("model"), at("vcov"), at("term")) else {
        return vec![None; records.len()];
    };
    // the terms of the `cre` fits, a fit told by its standard errors
    let cre_rows: Vec<(&str, &str)> = records
        .iter()
        .skip(1)
        .filter(|r| r.get(model) == Some("cre"))
        .filter_map(|r| Some((r.get(vcov)?, r.get(term)?)))
        .collect();
    let count = |v: &str, t: &str| cre_rows.iter().filter(|&&row| row == (v, t)).count();
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (v, t) = (r.get(vcov)?, r.get(term)?);
            let base = t.strip_suffix("_mean")?;
            (i > 0 && r.get(model) == Some("cre") && count(v, base) == 1 && count(v, t) == 1)
                .then_some(base)
        })
        .collect()
}

/// A cell of the machine column `column` in Spanish: a plain number with a decimal comma
/// ([`decimal_comma`]); a word of the columns whose values are words in Spanish; any other
/// cell as it is.
fn cell_es<'c>(column: &str, cell: &'c str) -> Cow<'c, str> {
    if let Some(number) = decimal_comma(cell) {
        return number;
    }
    let word = match (column, cell) {
        ("measure", key) => return Cow::Owned(column_es(key)),
        // the model as the Spanish tables' column heads and the page name it ("Efectos fijos
        // (intragrupos)"), never the key `--model` takes
        ("model", key) => match imr_models::Estimator::from_name(key) {
            Some(model) => model.label_in(Lang::Es),
            None => return Cow::Borrowed(cell),
        },
        // `cluster` also clusters by another column (`--cluster region`): a word for either
        ("vcov", "cluster") => "conglomerado",
        ("term", "(Intercept)") => "(Constante)",
        // the map's class of a commune flagged as implausible and left out (its legend row
        // "Marcadas, excluidas")
        ("class", "flagged") => "marcada, excluida",
        // deaths reconstructed from a published rate (◆ on the page)
        ("deaths_reconstructed", "true") => "sí",
        // a row the plausibility rules flag (the map's "marcada, excluida")
        ("flagged_implausible", "true") => "sí",
        _ => return Cow::Borrowed(cell),
    };
    Cow::Borrowed(word)
}

/// `cell` with a decimal comma when it is a plain number as the exports write them (optional
/// `-`, digits, optionally `.` and digits, optionally an exponent); `None` for anything else,
/// text and codes such as "01101" kept as they are (a whole number has no point to change).
pub fn decimal_comma(cell: &str) -> Option<Cow<'_, str>> {
    let b = cell.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let whole = digits(i);
    if whole == 0 {
        return None;
    }
    i += whole;
    let point = (b.get(i) == Some(&b'.')).then_some(i);
    if point.is_some() {
        let fraction = digits(i + 1);
        if fraction == 0 {
            return None;
        }
        i += 1 + fraction;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        let exponent = digits(i);
        if exponent == 0 {
            return None;
        }
        i += exponent;
    }
    if i != b.len() {
        return None;
    }
    Some(match point {
        Some(_) => Cow::Owned(cell.replacen('.', ",", 1)),
        None => Cow::Borrowed(cell),
    })
}

/// Phrases of the machine column names (runs of `_`-separated words) in Spanish, the longest
/// first where one is the start of another.
const PHRASES: [(&str, &str); 24] = [
    ("ci_percentile_low", "ic_percentil_inf"),
    ("ci_percentile_high", "ic_percentil_sup"),
    ("ci_low", "ic_inf"),
    ("ci_high", "ic_sup"),
    ("ci95_low", "ic95_inf"),
    ("ci95_high", "ic95_sup"),
    ("conf_low", "ic_inf"),
    ("conf_high", "ic_sup"),
    ("rate_per_1000", "tasa_por_1000"),
    ("pooled_rate", "tasa_agrupada"),
    ("zero_death_areas", "comunas_sin_defunciones"),
    ("zero_value_areas", "comunas_con_valor_cero"),
    ("bias_corrected", "corregido_por_sesgo"),
    ("mean_abs_dev", "desviacion_media_absoluta"),
    ("index_of_disparity", "indice_de_disparidad"),
    ("excess_risk", "exceso_de_riesgo"),
    ("first_time", "primer_anio"),
    ("last_time", "ultimo_anio"),
    ("weight_share", "proporcion_del_peso"),
    ("total_share", "proporcion_del_total"),
    ("quintile_ratio", "razon_de_quintiles"),
    ("quintile_difference", "diferencia_de_quintiles"),
    ("concentration_index", "indice_de_concentracion"),
    ("std_error", "ee"),
];

/// Words of the machine column names in Spanish (ASCII, as the column names of INE's and
/// DEIS's files: "anio", "codigo_comuna"; the engine's reader takes them back as the same
/// roles).
const WORDS: [(&str, &str); 48] = [
    // the column holds the commune's code ("01101"), as INE's and DEIS's `codigo_comuna`
    ("entity", "codigo_comuna"),
    ("time", "anio"),
    ("year", "anio"),
    ("births", "nacimientos"),
    ("deaths", "defunciones"),
    ("rate", "tasa"),
    ("areas", "comunas"),
    ("repeat", "repeticion"),
    ("of", "de"),
    ("measure", "medida"),
    ("slope", "pendiente"),
    ("years", "anios"),
    ("first", "primero"),
    ("last", "ultimo"),
    ("change", "cambio"),
    ("weight", "peso"),
    ("share", "proporcion"),
    ("total", "total"),
    ("min", "minimo"),
    ("max", "maximo"),
    ("median", "mediana"),
    ("whisker", "bigote"),
    ("low", "inf"),
    ("high", "sup"),
    ("outliers", "atipicos"),
    ("value", "valor"),
    ("bias", "sesgo"),
    ("unweighted", "sin_ponderar"),
    ("within", "intra"),
    ("between", "entre"),
    ("concentration", "concentracion"),
    ("index", "indice"),
    ("quintile", "quintil"),
    ("ratio", "razon"),
    ("difference", "diferencia"),
    ("model", "modelo"),
    ("vcov", "tipo_ee"),
    ("term", "termino"),
    ("estimate", "coeficiente"),
    ("statistic", "estadistico"),
    ("code", "codigo"),
    ("name", "nombre"),
    ("class", "clase"),
    ("copy", "copia"),
    ("reconstructed", "reconstruidas"),
    ("flagged", "marcada"),
    ("implausible", "inverosimil"),
    ("spatial", "espacial"),
];

/// A machine column name in Spanish: "rate_per_1000" → "tasa_por_1000", "gini_ci_low" →
/// "gini_ic_inf", "std_error" → "ee"; a word the table does not know (a column of the reader's
/// data, "gini", "p90") is kept. The same words name a measure in the trends' `measure` column
/// as in the per-year table's header.
pub fn column_es(name: &str) -> String {
    let words: Vec<&str> = name.split('_').collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let phrase = PHRASES.iter().find_map(|(en, es)| {
            let n = en.split('_').count();
            let run = words.get(i..i + n)?;
            (run.join("_") == *en).then_some((n, *es))
        });
        let (n, es) = phrase.unwrap_or_else(|| {
            let word = words[i];
            let es = WORDS
                .iter()
                .find(|(en, _)| *en == word)
                .map_or(word, |(_, es)| es);
            (1, es)
        });
        out.push(es);
        i += n;
    }
    out.join("_")
}

#[cfg(test)]
#[path = "spreadsheet_csv_tests.rs"]
mod tests;
