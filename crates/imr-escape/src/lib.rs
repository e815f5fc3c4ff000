//! Escaping for every text imr-atlas writes for another program to read: shell commands shown
//! for copy and paste, R and Stata code, comment lines, CSV cells, SVG (XML) text, Markdown and
//! LaTeX tables.
//!
//! Every function here is pure and total (no panic on any input) and states its rule and the
//! reference it follows. A column name or a file name comes from whoever wrote the input file,
//! so none of them may break out of the string, name or comment it is written into
//! ("exports that cannot hurt").
//!
//! Hand-written rather than taken from crates: the rules are a few lines each, the crates that
//! exist cover one target each (`shlex` quotes for POSIX sh but is used here only to test the
//! round trip; none covers R, Stata or XML 1.0 character validity), and the page must stay small.

pub mod csv;
mod latex;
mod markdown;
mod r;
mod shell;
mod stata;
mod text;
mod xml;

pub use csv::{csv_cell, CsvOptions, CsvWriter};
pub use latex::latex_text;
pub use markdown::markdown_cell;
pub use r::{r_name, r_string};
pub use shell::{shell_join, shell_quote};
pub use stata::{stata_comment, stata_name, stata_string, StataName};
pub use text::comment_line;
pub use xml::{xml_attr, xml_text};
