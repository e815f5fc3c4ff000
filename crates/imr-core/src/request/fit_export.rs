//! The files of fitted models: one value per file, naming the report function that writes it,
//! its `imr fit --format` value and the name the Models view downloads it under. `imr fit`
//! writes one fit's file, the Models view the same file of all its fits (a table column or a
//! code block per fit), by the same function.

use crate::models::report::{self, CodeContext, CsvOptions};
use crate::models::Fit;
use crate::Lang;

/// One file of fitted models (besides the JSON document of `imr fit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FitExport {
    /// The coefficient table as CSV: a row per coefficient of each fit.
    Coefficients,
    /// The regression table as a LaTeX tabular (booktabs), a column per fit.
    Latex,
    /// The regression table as Markdown (GitHub pipe table), a column per fit.
    Markdown,
    /// R code (base R `lm`/`glm` and sandwich, run by the tests) reproducing each fit from the
    /// data file.
    RCode,
    /// Stata code reproducing each fit from the data file (not run here: no Stata).
    StataCode,
}

impl FitExport {
    /// Every file, in the order the Models view offers them.
    pub const ALL: [FitExport; 5] = [
        Self::Coefficients,
        Self::Latex,
        Self::Markdown,
        Self::RCode,
        Self::StataCode,
    ];

    /// The value of `imr fit --format` that writes this file.
    pub fn format(self) -> &'static str {
        match self {
            Self::Coefficients => "csv",
            Self::Latex => "latex",
            Self::Markdown => "markdown",
            Self::RCode => "r",
            Self::StataCode => "stata",
        }
    }

    /// What the file holds, in English (the `--help` of `--format`).
    pub fn description(self) -> &'static str {
        match self {
            Self::Coefficients => "The coefficient table as CSV",
            Self::Latex => "The regression table as a LaTeX tabular (booktabs)",
            Self::Markdown => "The regression table as Markdown (GitHub pipe table)",
            Self::RCode => {
                "R code (base R lm/glm and sandwich, run by the tests) that reproduces the fit \
                 from the (first) input file, run from the folder holding it"
            }
            Self::StataCode => "Stata code that reproduces the fit from the (first) input file",
        }
    }

    /// The name the Models view downloads the file under.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Coefficients => "imr_modelos_coeficientes.csv",
            Self::Latex => "imr_modelos_tabla.tex",
            Self::Markdown => "imr_modelos_tabla.md",
            Self::RCode => "imr_modelos.R",
            Self::StataCode => "imr_modelos.do",
        }
    }

    /// The file's media type.
    pub fn mime(self) -> &'static str {
        match self {
            Self::Coefficients => "text/csv",
            Self::Latex => "application/x-tex",
            Self::Markdown => "text/markdown",
            Self::RCode | Self::StataCode => "text/plain",
        }
    }

    /// Whether the file is a CSV (the provenance lines go at its head).
    pub fn is_csv(self) -> bool {
        self == Self::Coefficients
    }

    /// Whether the file is code that reads the data file named in its [`CodeContext`].
    pub fn is_code(self) -> bool {
        matches!(self, Self::RCode | Self::StataCode)
    }

    /// Whether the file is written for a reader in a language (`imr fit --lang`): the Markdown
    /// and LaTeX tables, whose words and numbers are Spanish or English. The CSV and the code
    /// are machine-readable, the same in both.
    pub fn is_worded(self) -> bool {
        matches!(self, Self::Latex | Self::Markdown)
    }

    /// The file of `fits` (a CSV without its provenance lines, which the caller adds for the
    /// input it read): the code of each fit in turn reads the data file as `code` says, the CSV
    /// cells are written with `csv`'s options, the tables in `lang` ([`FitExport::is_worded`]).
    pub fn write(self, fits: &[Fit], code: &CodeContext, csv: CsvOptions, lang: Lang) -> String {
        let each = |write: fn(&Fit, &CodeContext) -> String| {
            fits.iter()
                .map(|f| write(f, code))
                .collect::<Vec<_>>()
                .join("\n")
        };
        match self {
            Self::Coefficients => report::coefficients_csv_many_with(fits, csv),
            Self::Latex => report::latex_table(fits, lang),
            Self::Markdown => report::markdown_table(fits, lang),
            Self::RCode => each(report::r_code),
            Self::StataCode => each(report::stata_code),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_has_its_own_format_name_and_type() {
        let mut seen = std::collections::HashSet::new();
        for export in FitExport::ALL {
            assert!(seen.insert(export.format()), "{export:?}");
            assert!(seen.insert(export.file_name()), "{export:?}");
            assert_eq!(export.is_csv(), export.file_name().ends_with(".csv"));
            assert_eq!(
                export.is_code(),
                [".R", ".do"]
                    .iter()
                    .any(|x| export.file_name().ends_with(x))
            );
        }
    }
}
