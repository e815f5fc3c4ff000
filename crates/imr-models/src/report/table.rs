//! Side-by-side regression tables: estimate with significance stars, standard error in
//! parentheses below, and the fit statistics, one column per model; their words and numbers in
//! a language ([`super::table_words`]).

use super::table_words::{self as words, Cell as Named, Place};
use crate::fit::Fit;
use crate::spec::INTERCEPT;
use crate::Lang;
use imr_escape::{latex_text, markdown_cell};

/// `***` p < 0.001, `**` p < 0.01, `*` p < 0.05.
pub fn significance_stars(p_value: f64) -> &'static str {
    if p_value < 0.001 {
        "***"
    } else if p_value < 0.01 {
        "**"
    } else if p_value < 0.05 {
        "*"
    } else {
        ""
    }
}

/// Terms in order of first appearance, the intercept last.
fn terms(fits: &[Fit]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for fit in fits {
        for c in &fit.coefficients {
            if c.term != INTERCEPT && !out.contains(&c.term) {
                out.push(c.term.clone());
            }
        }
    }
    if fits.iter().any(|f| f.coefficient(INTERCEPT).is_some()) {
        out.push(INTERCEPT.to_string());
    }
    out
}

struct Cell {
    estimate: f64,
    stars: &'static str,
    std_error: f64,
}

fn cell(fit: &Fit, term: &str) -> Option<Cell> {
    fit.coefficient(term).map(|c| Cell {
        estimate: c.estimate,
        stars: significance_stars(c.p_value),
        std_error: c.std_error,
    })
}

/// A fit's statistics under the coefficients, each a cell of words and names
/// ([`words::Cell`]), numbers written for `place`.
fn footer(fit: &Fit, lang: Lang, place: Place) -> Vec<(&'static str, Vec<Named>)> {
    let opt = |v: Option<f64>| {
        let text = v.map(|x| words::number(lang, x, place)).unwrap_or_default();
        vec![Named::Words(text)]
    };
    let count = |n: usize| vec![Named::Words(words::count(lang, n))];
    let [model, vcov, nobs, entities, within, overall] = words::footer_labels(lang);
    vec![
        (model, vec![words::model_cell(lang, fit)]),
        (vcov, words::vcov_cells(lang, fit)),
        (nobs, count(fit.nobs)),
        (entities, count(fit.n_entities)),
        (within, opt(fit.r2_within)),
        (overall, opt(fit.r2_overall)),
    ]
}

/// Each term with its cell in every fit (`None` where a fit lacks the term): a row of estimates
/// and, under it, a row of standard errors in every table format.
fn term_rows(fits: &[Fit]) -> Vec<(String, Vec<Option<Cell>>)> {
    terms(fits)
        .into_iter()
        .map(|term| {
            let cells = fits.iter().map(|f| cell(f, &term)).collect();
            (term, cells)
        })
        .collect()
}

/// The footer of the fits side by side: each statistic's label with its value in every fit.
fn footer_rows(fits: &[Fit], lang: Lang, place: Place) -> Vec<(&'static str, Vec<Vec<Named>>)> {
    let footers: Vec<Vec<(&'static str, Vec<Named>)>> =
        fits.iter().map(|f| footer(f, lang, place)).collect();
    let Some(first) = footers.first() else {
        return Vec::new();
    };
    first
        .iter()
        .enumerate()
        .map(|(row, (label, _))| (*label, footers.iter().map(|f| f[row].1.clone()).collect()))
        .collect()
}

/// A footer cell in Markdown: names of the command line as code (`--model cre`; a name of other
/// characters than letters, digits, spaces and `_^.-` escaped as a cell instead).
fn markdown_named(cell: &[Named]) -> String {
    let plain = |name: &str| {
        name.chars()
            .all(|c| c.is_alphanumeric() || "_^.- ".contains(c))
    };
    cell.iter()
        .map(|part| match part {
            Named::Words(text) => text.clone(),
            Named::Code(name) if plain(name) => format!("`{name}`"),
            Named::Code(name) => markdown_cell(name),
        })
        .collect()
}

/// A Markdown (GitHub pipe) table of several fits side by side, its words and numbers in
/// `lang` (English: as `imr fit --format markdown` always wrote it).
pub fn markdown_table(fits: &[Fit], lang: Lang) -> String {
    let num = |x: f64| words::number(lang, x, Place::Markdown);
    let mut out = String::from("| |");
    for (i, fit) in fits.iter().enumerate() {
        out.push_str(&format!(" ({}) {} |", i + 1, words::model_head(lang, fit)));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(fits.len()));
    out.push('\n');
    for (term, cells) in term_rows(fits) {
        out.push_str(&format!(
            "| {} |",
            markdown_cell(&words::term_name(lang, &term, fits))
        ));
        for c in &cells {
            match c {
                Some(c) => out.push_str(&format!(" {}{} |", num(c.estimate), c.stars)),
                None => out.push_str(" |"),
            }
        }
        out.push_str("\n| |");
        for c in &cells {
            match c {
                Some(c) => out.push_str(&format!(" ({}) |", num(c.std_error))),
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    for (label, values) in footer_rows(fits, lang, Place::Markdown) {
        out.push_str(&format!("| {label} |"));
        for v in &values {
            out.push_str(&format!(" {} |", markdown_named(v)));
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(words::note(lang));
    out.push('\n');
    out
}

/// Text for the LaTeX table ([`imr_escape::latex_text`]), with `²` (in "R² within") as math.
fn latex_escape(s: &str) -> String {
    latex_text(s).replace('²', "$^2$")
}

/// A footer cell in LaTeX text: names of the command line in `\texttt` (`--model cre` as
/// `-{}-model`, two hyphens that no font joins into a dash).
fn latex_named(cell: &[Named]) -> String {
    cell.iter()
        .map(|part| match part {
            Named::Words(text) => latex_escape(text),
            Named::Code(name) => {
                format!("\\texttt{{{}}}", latex_escape(name).replace("--", "-{}-"))
            }
        })
        .collect()
}

/// A LaTeX `tabular` (booktabs) of several fits side by side, its words and numbers in `lang`
/// (English: as `imr fit --format latex` always wrote it; Spanish: `0{,}1101` in math).
pub fn latex_table(fits: &[Fit], lang: Lang) -> String {
    let num = |x: f64| words::number(lang, x, Place::Math);
    let mut out = format!(
        "\\begin{{tabular}}{{l{}}}\n\\toprule\n",
        "r".repeat(fits.len())
    );
    out.push(' ');
    for (i, fit) in fits.iter().enumerate() {
        out.push_str(&format!(
            " & ({}) {}",
            i + 1,
            latex_escape(words::model_head(lang, fit))
        ));
    }
    out.push_str(" \\\\\n\\midrule\n");
    for (term, cells) in term_rows(fits) {
        out.push_str(&latex_escape(&words::term_name(lang, &term, fits)));
        for c in &cells {
            match c {
                Some(c) if c.stars.is_empty() => out.push_str(&format!(" & ${}$", num(c.estimate))),
                Some(c) => out.push_str(&format!(" & ${}^{{{}}}$", num(c.estimate), c.stars)),
                None => out.push_str(" &"),
            }
        }
        out.push_str(" \\\\\n");
        for c in &cells {
            match c {
                Some(c) => out.push_str(&format!(" & $({})$", num(c.std_error))),
                None => out.push_str(" &"),
            }
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\midrule\n");
    for (label, values) in footer_rows(fits, lang, Place::Text) {
        out.push_str(&latex_escape(label));
        for v in &values {
            out.push_str(&format!(" & {}", latex_named(v)));
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&format!("% {}\n", words::note(lang).replace("p < ", "p<")));
    out
}
