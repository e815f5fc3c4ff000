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

pub use crate::number::format_number;
