//! Side-by-side regression tables: estimate with significance stars, standard error in
//! parentheses below, and the fit statistics, one column per model.

use super::format_number;
use crate::fit::Fit;
use crate::spec::INTERCEPT;
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
    estimate: String,
    stars: &'static str,
    std_error: String,
}

fn cell(fit: &Fit, term: &str) -> Option<Cell> {
    fit.coefficient(term).map(|c| Cell {
        estimate: format_number(c.estimate),
        stars: significance_stars(c.p_value),
        std_error: format_number(c.std_error),
    })
}

fn footer(fit: &Fit) -> Vec<(&'static str, String)> {
    let opt = |v: Option<f64>| v.map(format_number).unwrap_or_default();
    vec![
        ("Model", fit.model.name().to_string()),
        ("Standard errors", fit.vcov.name().to_string()),
        ("Observations", fit.nobs.to_string()),
        ("Entities", fit.n_entities.to_string()),
        ("R² within", opt(fit.r2_within)),
        ("R² overall", opt(fit.r2_overall)),
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
fn footer_rows(fits: &[Fit]) -> Vec<(&'static str, Vec<String>)> {
    let footers: Vec<Vec<(&'static str, String)>> = fits.iter().map(footer).collect();
    let Some(first) = footers.first() else {
        return Vec::new();
    };
    first
        .iter()
        .enumerate()
        .map(|(row, (label, _))| (*label, footers.iter().map(|f| f[row].1.clone()).collect()))
        .collect()
}

const NOTE: &str = "Standard errors in parentheses. * p < 0.05, ** p < 0.01, *** p < 0.001.";

/// A Markdown (GitHub pipe) table of several fits side by side.
pub fn markdown_table(fits: &[Fit]) -> String {
    let mut out = String::from("| |");
    for (i, fit) in fits.iter().enumerate() {
        out.push_str(&format!(" ({}) {} |", i + 1, fit.model.name()));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(fits.len()));
    out.push('\n');
    for (term, cells) in term_rows(fits) {
        out.push_str(&format!("| {} |", markdown_cell(&term)));
        for c in &cells {
            match c {
                Some(c) => out.push_str(&format!(" {}{} |", c.estimate, c.stars)),
                None => out.push_str(" |"),
            }
        }
        out.push_str("\n| |");
        for c in &cells {
            match c {
                Some(c) => out.push_str(&format!(" ({}) |", c.std_error)),
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    for (label, values) in footer_rows(fits) {
        out.push_str(&format!("| {label} |"));
        for v in &values {
            out.push_str(&format!(" {v} |"));
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(NOTE);
    out.push('\n');
    out
}

/// Text for the LaTeX table ([`imr_escape::latex_text`]), with `²` (in "R² within") as math.
fn latex_escape(s: &str) -> String {
    latex_text(s).replace('²', "$^2$")
}

/// A LaTeX `tabular` (booktabs) of several fits side by side.
pub fn latex_table(fits: &[Fit]) -> String {
    let mut out = format!(
        "\\begin{{tabular}}{{l{}}}\n\\toprule\n",
        "r".repeat(fits.len())
    );
    out.push(' ');
    for (i, fit) in fits.iter().enumerate() {
        out.push_str(&format!(
            " & ({}) {}",
            i + 1,
            latex_escape(fit.model.name())
        ));
    }
    out.push_str(" \\\\\n\\midrule\n");
    for (term, cells) in term_rows(fits) {
        out.push_str(&latex_escape(&term));
        for c in &cells {
            match c {
                Some(c) if c.stars.is_empty() => out.push_str(&format!(" & ${}$", c.estimate)),
                Some(c) => out.push_str(&format!(" & ${}^{{{}}}$", c.estimate, c.stars)),
                None => out.push_str(" &"),
            }
        }
        out.push_str(" \\\\\n");
        for c in &cells {
            match c {
                Some(c) => out.push_str(&format!(" & $({})$", c.std_error)),
                None => out.push_str(" &"),
            }
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\midrule\n");
    for (label, values) in footer_rows(fits) {
        out.push_str(&latex_escape(label));
        for v in &values {
            out.push_str(&format!(" & {}", latex_escape(v)));
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&format!("% {}\n", NOTE.replace("p < ", "p<")));
    out
}
