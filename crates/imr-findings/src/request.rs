//! The Findings as a request: what the Findings view and `imr findings` both run, and the
//! command line that reproduces the view's report.

use crate::year_span::YearSpan;
use crate::{compute, AdjustedGini, Findings, Options};
use imr_core::inequality::adjusted::BirthsRatioRange;
use imr_core::panel::Panel;
use imr_core::Lang;

/// What a user can choose about the Findings: whether the rows flagged as implausible enter the
/// answers, and which years they cover. Everything else (the questions, the regressors and their
/// units, the inequality measure: the Gini of true rates, [`AdjustedGini`]) is fixed by the
/// study.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FindingsRequest {
    /// Keep the rows flagged as implausible (by default they are left out).
    pub include_flagged: bool,
    /// Keep the years that repeat the previous year in the trends and the correlation (by
    /// default they are left out of those).
    pub include_repeated_years: bool,
    /// The input is the bundled dataset: set by the caller, not an argument (the page when it
    /// shows its bundled data, `imr findings` when its one input is the bundled file byte for
    /// byte), so that both write the same report.
    pub bundled_data: bool,
    /// Where deaths are derived from published rates, the range of true births over the births
    /// given for the inequality answer's "between X and Y" (`None`: 0.7–1.0), as
    /// `imr inequality --births-ratio` and the Inequality view's field (one setting, in the link
    /// as `ineq-births-ratio`).
    pub births_ratio: Option<BirthsRatioRange>,
    /// The years the five answers cover (`None`: every year of the data), as `imr findings
    /// --years 2001-2011` and the view's period buttons. The answer on the reference study
    /// always reads every year.
    pub years: Option<YearSpan>,
}

impl FindingsRequest {
    /// The `imr` subcommand of this request.
    pub const SUBCOMMAND: &'static str = "findings";

    /// The computation options of the request.
    pub fn options(&self) -> Options {
        Options {
            include_flagged: self.include_flagged,
            include_repeated_years: self.include_repeated_years,
            bundled_data: self.bundled_data,
            span: self.years,
            ..Options::default()
        }
    }

    /// The five answers on `panel`.
    pub fn run(&self, panel: &Panel) -> Findings {
        let inequality = AdjustedGini {
            births_ratio: self.births_ratio,
        };
        compute(panel, &self.options(), &inequality)
    }

    /// The file name of the printable report in `lang` (as the page downloads it).
    pub fn report_name(lang: Lang) -> &'static str {
        lang.pick("hallazgos_imr.html", "imr_findings.html")
    }

    /// The arguments of `imr findings` after the input: the options, the language and the
    /// report's file name.
    pub fn to_args(&self, lang: Lang, out: &str) -> Vec<String> {
        let mut args = Vec::new();
        if self.include_flagged {
            args.push("--include-flagged".to_string());
        }
        if self.include_repeated_years {
            args.push("--include-repeated-years".to_string());
        }
        if let Some(range) = self.births_ratio {
            args.extend(["--births-ratio".to_string(), range.to_string()]);
        }
        if let Some(span) = self.years {
            args.extend(["--years".to_string(), span.to_string()]);
        }
        args.extend(["--lang".to_string(), lang.tag().to_string()]);
        args.extend(["--out".to_string(), out.to_string()]);
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arguments_name_every_choice() {
        let r = FindingsRequest {
            include_flagged: true,
            include_repeated_years: false,
            bundled_data: false,
            births_ratio: None,
            years: Some("2001-2011".parse().unwrap()),
        };
        assert_eq!(
            r.to_args(Lang::Es, FindingsRequest::report_name(Lang::Es)),
            [
                "--include-flagged",
                "--years",
                "2001-2011",
                "--lang",
                "es",
                "--out",
                "hallazgos_imr.html"
            ]
        );
        assert_eq!(
            FindingsRequest::default().to_args(Lang::En, "x.html"),
            ["--lang", "en", "--out", "x.html"]
        );
        let narrow = FindingsRequest {
            births_ratio: Some("0.9,1.1".parse().unwrap()),
            ..FindingsRequest::default()
        };
        assert_eq!(
            narrow.to_args(Lang::En, "x.html"),
            [
                "--births-ratio",
                "0.9,1.1",
                "--lang",
                "en",
                "--out",
                "x.html"
            ]
        );
        assert!(r.options().include_flagged);
        assert!(!FindingsRequest::default().options().include_flagged);
    }
}
