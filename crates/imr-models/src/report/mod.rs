//! Exports of fitted models as text: coefficient CSV, side-by-side tables (Markdown, LaTeX),
//! equivalent R and Stata code, and a deterministic SVG coefficient plot whose intervals are
//! the `conf_low`/`conf_high` of the table.

pub(crate) mod code;
mod csv;
mod plot;
mod table;
mod table_words;

pub use code::{imr_command, imr_command_args, r_code, stata_code, CodeContext, FitOptions};
pub use csv::coefficients_csv_many_with;
pub use imr_escape::CsvOptions;
pub use plot::{coefficient_plot_svg, PlotOptions};
pub use table::{latex_table, markdown_table, significance_stars};

/// A number with about four significant digits, in plain notation unless very small or large.
pub fn format_number(x: f64) -> String {
    if !x.is_finite() {
        return "NA".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&magnitude) {
        return format!("{x:.3e}");
    }
    let decimals = (3 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}
