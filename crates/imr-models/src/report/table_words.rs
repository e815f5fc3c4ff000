//! The words and numbers of the regression tables ([`super::markdown_table`],
//! [`super::latex_table`]) in a language. English writes what the tables always wrote (the
//! model's `--model` name as column head, `cluster` for the standard errors, numbers as
//! [`format_number`] gives them); Spanish writes the page's words (the estimator's label, the
//! standard errors in words, "Constante") and its numbers: decimal comma and thousands point,
//! in LaTeX math the comma braced (`0{,}25`, the ordinary character siunitx's
//! `output-decimal-marker = {,}` sets) so that TeX does not space it as punctuation.

use super::format_number;
use crate::convention::Convention;
use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind, INTERCEPT};
use crate::Lang;

/// Where a number is written: a Markdown cell, LaTeX math (`$…$`) or LaTeX text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Markdown,
    Math,
    Text,
}

/// `x` with about four significant digits ([`format_number`]) in `lang`: in Spanish with the
/// same digits, a decimal comma and thousands points (`1.234`, `0,1101`), a power of ten
/// `1,234e-5` (`1{,}234 \times 10^{-5}` in LaTeX math).
pub(super) fn number(lang: Lang, x: f64, place: Place) -> String {
    let plain = format_number(x);
    if lang == Lang::En || !x.is_finite() {
        return plain;
    }
    // LaTeX takes the hyphen-minus as its minus (math and text alike, where U+2212 would need
    // a package); Markdown keeps the page's minus sign (U+2212).
    let comma = |s: String| match place {
        Place::Math => s.replace(',', "{,}").replace('−', "-"),
        Place::Text => s.replace('−', "-"),
        Place::Markdown => s,
    };
    if let Some((mantissa, exponent)) = plain.split_once('e') {
        let mantissa = comma(mantissa.replace('.', ","));
        return match place {
            Place::Math => format!("{mantissa} \\times 10^{{{exponent}}}"),
            Place::Markdown | Place::Text => format!("{mantissa}e{exponent}"),
        };
    }
    let decimals = plain.split_once('.').map_or(0, |(_, f)| f.len());
    comma(lang.grouped(x, decimals))
}

/// A count in `lang`: `1725` as the English tables always wrote it, `1.725` in Spanish.
pub(super) fn count(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En => n.to_string(),
        Lang::Es => lang.grouped(n as f64, 0),
    }
}

/// The head of a fit's column: its `--model` name in English, its label in Spanish
/// ("Efectos fijos (intragrupos)").
pub(super) fn model_head(lang: Lang, fit: &Fit) -> &'static str {
    match lang {
        Lang::En => fit.model.name(),
        Lang::Es => fit.model.label_in(lang),
    }
}

/// A term's row name: the column's name; in Spanish the intercept "Constante" and a commune
/// mean that the correlated random effects model (`cre`, Mundlak) adds for a regressor `x`
/// (`x_mean`, the name the R and Stata code keep) in the page's words, "x (media de la comuna)"
/// (a newcomer read "gasto\_salud\_pc\_mean" in the Spanish table). A column of the data named
/// `…_mean` keeps its name ([`commune_mean_of`]).
pub(super) fn term_name(lang: Lang, term: &str, fits: &[Fit]) -> String {
    match lang {
        Lang::Es if term == INTERCEPT => "Constante".to_owned(),
        Lang::Es => match fits.iter().find_map(|f| commune_mean_of(f, term)) {
            Some(base) => format!("{base} (media de la comuna)"),
            None => term.to_owned(),
        },
        Lang::En => term.to_owned(),
    }
}

/// The regressor `x` whose commune mean `term` is in a `cre` fit (`x_mean`, added for a
/// regressor that varies within communes); `None` for any other term or fit, a regressor of the
/// data named `…_mean` among them.
fn commune_mean_of<'t>(fit: &Fit, term: &'t str) -> Option<&'t str> {
    (fit.model == Estimator::Cre)
        .then(|| crate::spec::cre_mean_of(term, &fit.regressors))
        .flatten()
}

/// The statistics under the coefficients, in order: model, standard errors, observations,
/// entities, R² within, R² overall.
pub(super) fn footer_labels(lang: Lang) -> [&'static str; 6] {
    match lang {
        Lang::En => [
            "Model",
            "Standard errors",
            "Observations",
            "Entities",
            "R² within",
            "R² overall",
        ],
        Lang::Es => [
            "Modelo (imr)",
            "Errores estándar",
            "Observaciones",
            "Entidades",
            "R² intragrupos",
            "R² global",
        ],
    }
}

/// A name of the command line (a `--model` value, a column) written as code, so that it is read
/// as a name and not as a word: in Spanish only (English keeps the tables' plain names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Cell {
    Words(String),
    Code(String),
}

/// The model's row: its `--model` name in English; in Spanish, whose column head gives the
/// model's Spanish name, the option that fits it (`--model cre`) as code under the label
/// "Modelo (imr)", so that a Spanish reader reads an option of the command, not an English word.
pub(super) fn model_cell(lang: Lang, fit: &Fit) -> Cell {
    let name = fit.model.name();
    match lang {
        Lang::En => Cell::Words(name.to_owned()),
        Lang::Es => Cell::Code(format!("--model {name}")),
    }
}

/// The standard errors' row: `fit.vcov`'s name in English (`cluster`); in Spanish in the page's
/// words ([`VcovKind::label_in`]: "Agrupados por comuna"), naming the cluster columns:
/// "Agrupados por `region` y `anio`" (`--cluster entity`: "Agrupados por comuna" too). The
/// conventions' names (HC1, CR1) are not words a reader knows: the diagnostics' method text
/// ([`Convention::text`]) names them with their formulas.
pub(super) fn vcov_cells(lang: Lang, fit: &Fit) -> Vec<Cell> {
    if lang == Lang::En {
        return vec![Cell::Words(fit.vcov.name().to_owned())];
    }
    let words = |s: &str| Cell::Words(s.to_owned());
    // `entity` and `time` name the panel's keys (`--cluster entity`): words, not columns
    let column = |name: &str| match crate::vcov_words::key_words(lang, name) {
        Some(key) => words(key),
        None => Cell::Code(name.to_owned()),
    };
    use Convention::*;
    match &fit.vcov_convention {
        Classical { .. } | PoissonModel | PoissonAbsorbedModel { .. } => {
            vec![words(VcovKind::Iid.label_in(lang))]
        }
        Hc1 { .. } | PoissonHc1 { .. } => vec![words(VcovKind::Hc1.label_in(lang))],
        Cluster { .. } | PoissonCluster { .. } => vec![words(VcovKind::Cluster.label_in(lang))],
        ClusterBy { column: c, .. } => vec![words("Agrupados por "), column(c)],
        TwoWayCluster {
            columns: [a, b], ..
        } => vec![words("Agrupados por "), column(a), words(" y "), column(b)],
    }
}

/// The note under the table.
pub(super) fn note(lang: Lang) -> &'static str {
    lang.pick(
        "Errores estándar entre paréntesis. * p < 0,05, ** p < 0,01, *** p < 0,001.",
        "Standard errors in parentheses. * p < 0.05, ** p < 0.01, *** p < 0.001.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_numbers_keep_the_digits_with_a_decimal_comma_and_thousands_points() {
        let es = |x| number(Lang::Es, x, Place::Markdown);
        let math = |x| number(Lang::Es, x, Place::Math);
        assert_eq!(es(0.1101238), "0,1101");
        // A negative has the page's minus sign in Markdown, LaTeX's own in LaTeX.
        assert_eq!(es(-0.004449), "−0,004449");
        assert_eq!(math(-0.004449), "-0{,}004449");
        assert_eq!(number(Lang::Es, -1234.5, Place::Text), "-1.234");
        assert_eq!(es(12345.6), "12.346");
        assert_eq!(es(123456.7), "123.457");
        assert_eq!(es(5.801), "5,801");
        assert_eq!(es(0.0), "0");
        assert_eq!(es(f64::NAN), "NA");
        assert_eq!(es(1.234e-5), "1,234e-5");
        assert_eq!(math(0.1101238), "0{,}1101");
        assert_eq!(math(1.234e-5), "1{,}234 \\times 10^{-5}");
        assert_eq!(math(1234.5), "1.234");
        assert_eq!(number(Lang::Es, 1234.5, Place::Text), "1.234");
        for x in [0.1101238, -0.004449, 12345.6, 1.234e-5, 7.0e7, 99999.9] {
            assert_eq!(number(Lang::En, x, Place::Math), format_number(x));
            assert!(imr_lang::decimal_points(&es(x)).is_empty(), "{}", es(x));
        }
        assert_eq!(count(Lang::Es, 1725), "1.725");
        assert_eq!(count(Lang::En, 1725), "1725");
    }
}
