//! The files of an inequality analysis: one value per file, naming the engine function that
//! writes it and the `imr inequality` options that write it. `imr inequality --format` takes its
//! values from [`InequalityExport::ALL`] and the Inequality view's downloads and shown commands
//! come from the same values, so a downloaded file and the command beside it cannot disagree.

use super::inequality::InequalityResult;
use crate::inequality::chart::{
    box_plot_svg_flagged, lorenz_svg_in, two_series_of, two_series_svg_in,
};
use crate::inequality::csv::{
    box_plot_csv, box_plot_outliers_csv, lorenz_csv_of_years, measure_series_csv, trend_csv,
    two_series_report_csv, years_csv,
};
use crate::inequality::{Measure, SubjectKind};
use crate::{Caption, Lang};

/// One file of an inequality analysis (besides the JSON document of `imr inequality`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InequalityExport {
    /// The per-year table: one row per year, a column per measure and its interval (CSV).
    Table,
    /// The linear trend of every measure over the years: slope, interval, change (CSV).
    Trends,
    /// Line chart of one measure over the years with its interval band (SVG).
    MeasureChart,
    /// The series the measure chart draws, per year with its interval (CSV).
    MeasureSeries,
    /// Lorenz curves of the chosen years, every year when none is chosen (SVG).
    LorenzChart,
    /// The Lorenz curve points of the chosen years (CSV).
    LorenzPoints,
    /// Box plots of the area values per year (SVG).
    BoxChart,
    /// The box-plot statistics per year (CSV).
    BoxStatistics,
    /// The box plots' outliers: area, year, value (CSV).
    Outliers,
    /// One measure of the infant mortality rate and of a second column over the years, with
    /// their correlation (SVG); needs the second series.
    AgainstChart,
    /// The two series of the against chart side by side (CSV); needs the second series.
    AgainstSeries,
}

/// What the reader chose that some files show: the measure of the measure and against charts,
/// and the years of the Lorenz curves (empty: every year).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExportChoices<'a> {
    /// The measure drawn (`--measure`).
    pub measure: Measure,
    /// The Lorenz years (`--years`); empty for every year.
    pub years: &'a [i64],
}

impl Default for ExportChoices<'_> {
    /// The Gini (`imr inequality`'s default `--measure`) and every year.
    fn default() -> Self {
        ExportChoices {
            measure: Measure::Gini,
            years: &[],
        }
    }
}

/// Why a file cannot be written from the results at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportError {
    /// The against chart and series need the second series (`--against`).
    NeedsSecondSeries,
}

impl InequalityExport {
    /// Every file, in the order `imr inequality --help` lists them.
    pub const ALL: [InequalityExport; 11] = [
        Self::Table,
        Self::MeasureChart,
        Self::LorenzChart,
        Self::BoxChart,
        Self::Trends,
        Self::MeasureSeries,
        Self::LorenzPoints,
        Self::BoxStatistics,
        Self::Outliers,
        Self::AgainstChart,
        Self::AgainstSeries,
    ];

    /// The value of `imr inequality --format` that writes this file.
    pub fn format(self) -> &'static str {
        match self {
            Self::Table => "csv",
            Self::Trends => "csv-trends",
            Self::MeasureChart => "svg-trend",
            Self::MeasureSeries => "csv-measure",
            Self::LorenzChart => "svg-lorenz",
            Self::LorenzPoints => "csv-lorenz",
            Self::BoxChart => "svg-box",
            Self::BoxStatistics => "csv-box",
            Self::Outliers => "csv-outliers",
            Self::AgainstChart => "svg-against",
            Self::AgainstSeries => "csv-against",
        }
    }

    /// The file of a `--format` value, if it names one.
    pub fn from_format(format: &str) -> Option<InequalityExport> {
        Self::ALL.into_iter().find(|e| e.format() == format)
    }

    /// What the file holds, in English (the `--help` of `--format`).
    pub fn description(self) -> &'static str {
        match self {
            Self::Table => {
                "The per-year table: one row per year, a column per measure and its interval"
            }
            Self::Trends => {
                "The linear trend of every measure over the years (slope, interval, change) as CSV"
            }
            Self::MeasureChart => {
                "SVG line chart of --measure over the years with its interval band"
            }
            Self::MeasureSeries => {
                "The series drawn by svg-trend: --measure per year with its interval, as CSV"
            }
            Self::LorenzChart => "SVG Lorenz curves of --years (all years when absent)",
            Self::LorenzPoints => {
                "The Lorenz curve points of --years (all years when absent), as CSV"
            }
            Self::BoxChart => "SVG box plots of the area values per year",
            Self::BoxStatistics => "The box-plot statistics per year, as CSV",
            Self::Outliers => "The box plots' outliers (area, year, value), as CSV",
            Self::AgainstChart => {
                "SVG of --measure of the infant mortality rate and of the --against column \
                 (weighted by --against-weight, bootstrapped the same way) over the years, with \
                 their correlation"
            }
            Self::AgainstSeries => "The two series of svg-against side by side, as CSV",
        }
    }

    /// Whether the file is an SVG chart (its words in a language, its provenance in its foot);
    /// the others are CSV, which take the provenance lines at their head.
    pub fn is_svg(self) -> bool {
        matches!(
            self,
            Self::MeasureChart | Self::LorenzChart | Self::BoxChart | Self::AgainstChart
        )
    }

    /// Whether the file needs the second series of the request (`--against`).
    pub fn needs_second_series(self) -> bool {
        matches!(self, Self::AgainstChart | Self::AgainstSeries)
    }

    /// The `imr inequality` options after the request's own that write this file: `--format`,
    /// then `--measure` for the files of one measure, `--years` for the Lorenz files when years
    /// are chosen, `--lang` for a chart (its words) and `--csv-lang es` for a Spanish CSV.
    pub fn args(self, choices: &ExportChoices, lang: Lang) -> Vec<String> {
        let mut args = vec!["--format".to_string(), self.format().to_string()];
        match self {
            Self::MeasureChart | Self::MeasureSeries | Self::AgainstChart | Self::AgainstSeries => {
                args.extend([
                    "--measure".to_string(),
                    choices.measure.key(SubjectKind::Rate).to_string(),
                ])
            }
            Self::LorenzChart | Self::LorenzPoints if !choices.years.is_empty() => {
                let years: Vec<String> = choices.years.iter().map(i64::to_string).collect();
                args.extend(["--years".to_string(), years.join(",")]);
            }
            _ => {}
        }
        if self.is_svg() {
            args.extend(["--lang".to_string(), lang.tag().to_string()]);
        } else {
            // a CSV in the page's language: `--csv-lang es` on the Spanish page
            args.extend(crate::spreadsheet_csv::csv_lang_args(lang));
        }
        args
    }

    /// The file's text (a CSV without its provenance lines, which the caller adds for the
    /// input it read; an SVG with `caption`'s language and provenance line) from the analysis
    /// `result` and, for the against files, the second series measured on its own (`second`:
    /// [`InequalityRequest::second_series`](super::InequalityRequest::second_series)).
    ///
    /// The box plots mark the values of the rows `result` left out as flagged (their
    /// [`InequalityResult::flagged`]), the one rule of the page and `imr`.
    pub fn write(
        self,
        result: &InequalityResult,
        second: Option<&InequalityResult>,
        choices: &ExportChoices,
        caption: &Caption,
    ) -> Result<String, ExportError> {
        let analysis = &result.analysis;
        let report = &analysis.report;
        let other = || {
            second
                .map(|s| &s.analysis.report)
                .ok_or(ExportError::NeedsSecondSeries)
        };
        Ok(match self {
            Self::Table => years_csv(report, &result.year_marks()),
            Self::Trends => trend_csv(report),
            Self::MeasureChart => imr_inequality::chart::line::measure_over_years_svg_with(
                report,
                choices.measure,
                caption,
                &result.year_marks(),
            ),
            Self::MeasureSeries => {
                measure_series_csv(report, choices.measure, &result.year_marks())
            }
            Self::LorenzChart => lorenz_svg_in(
                &analysis.lorenz,
                choices.years,
                &report.subject,
                caption,
                &result.year_marks(),
            ),
            Self::LorenzPoints => lorenz_csv_of_years(&analysis.lorenz, choices.years),
            Self::BoxChart => {
                // Flagged rows left out are not in the boxes; kept ones stay off the axis.
                let is_flagged = |entity: &str, time: i64| {
                    result
                        .flagged_kept
                        .iter()
                        .any(|f| f.time == time && f.entity == entity)
                };
                box_plot_svg_flagged(
                    &analysis.box_plots,
                    &report.subject,
                    caption,
                    &is_flagged,
                    &result.year_marks(),
                )
            }
            Self::BoxStatistics => box_plot_csv(&analysis.box_plots, &result.year_marks()),
            Self::Outliers => box_plot_outliers_csv(&analysis.box_plots),
            Self::AgainstChart => {
                // The rates' series draws every copy found, included or not, and reconstructed year.
                let other = other()?;
                let (mut top, mut bottom, correlation) =
                    two_series_of(report, other, choices.measure, caption.lang);
                top.marks = result.year_marks();
                // A column in the reader's words ("gasto municipal en salud por habitante"),
                // not its code name, as the page's sentences name it.
                if let imr_inequality::words::Quantity::Column(name) = &other.subject.value_name {
                    let (lang, label) = (caption.lang, choices.measure.label_in(caption.lang));
                    let words = crate::column_words::in_sentence(lang, name);
                    bottom.name = match lang {
                        crate::Lang::Es => format!("{label} de {words}"),
                        crate::Lang::En => format!("{label} of {words}"),
                    };
                }
                two_series_svg_in(&top, &bottom, &correlation, caption)
            }
            Self::AgainstSeries => two_series_report_csv(report, other()?, choices.measure),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_names_one_file_and_back() {
        for export in InequalityExport::ALL {
            assert_eq!(InequalityExport::from_format(export.format()), Some(export));
            assert_eq!(
                export.is_svg(),
                export.format().starts_with("svg-"),
                "{export:?}"
            );
        }
        assert_eq!(InequalityExport::from_format("json"), None);
    }

    #[test]
    fn the_options_name_the_measure_the_years_and_the_language_where_the_file_shows_them() {
        let choices = ExportChoices {
            measure: Measure::TheilT,
            years: &[2019, 2023],
        };
        let words = |e: InequalityExport| e.args(&choices, Lang::Es).join(" ");
        assert_eq!(
            words(InequalityExport::MeasureChart),
            "--format svg-trend --measure theil_t --lang es"
        );
        assert_eq!(
            words(InequalityExport::LorenzPoints),
            "--format csv-lorenz --years 2019,2023 --csv-lang es"
        );
        assert_eq!(
            words(InequalityExport::BoxStatistics),
            "--format csv-box --csv-lang es"
        );
        assert_eq!(
            InequalityExport::BoxStatistics
                .args(&choices, Lang::En)
                .join(" "),
            "--format csv-box"
        );
        let every_year = ExportChoices {
            years: &[],
            ..choices
        };
        assert_eq!(
            InequalityExport::LorenzChart
                .args(&every_year, Lang::En)
                .join(" "),
            "--format svg-lorenz --lang en"
        );
    }

    /// A copied year looks like a copy in the Lorenz curves and the box plot whether it is left
    /// out of the trends or included (`--include-repeated-years`): included, it counts in the
    /// trends, and it is still drawn as what it is (issue 42: "a copy must look like a copy
    /// wherever it is drawn, included or not").
    #[test]
    fn a_copied_year_is_drawn_as_a_copy_included_or_not() {
        use crate::request::InequalityRequest;
        let bundled = crate::test_support::bundled_panel();
        let mut csv = String::from("codigo,anio,nacidos_vivos,defunciones,gasto\n");
        for i in 0..bundled.len() {
            let row = bundled.row(i);
            let years: &[i64] = match bundled.time_values()[i] {
                2019 => &[2019],
                2021 => &[2021, 2022],
                _ => &[],
            };
            if let (Some(b), Some(d)) = (row.births, row.deaths) {
                for year in years {
                    // A second series that varies between communes and years.
                    let gasto = (b % 97.0) + *year as f64 % 7.0;
                    csv += &format!("{},{year},{b},{d},{gasto}\n", bundled.entity(i));
                }
            }
        }
        let panel = crate::test_support::panel_of(&csv);
        for include in [false, true] {
            let request = InequalityRequest {
                bootstrap: 0,
                include_repeated_years: include,
                ..InequalityRequest::default()
            };
            let result = request.validate(&panel).unwrap().run().unwrap();
            let second = InequalityRequest {
                subject: crate::request::InequalitySubject::Values {
                    of: "gasto".into(),
                    weight: "births".into(),
                },
                ..request.clone()
            };
            let second = second.validate(&panel).unwrap().run().unwrap();
            assert_eq!(result.repeated.is_empty(), include);
            assert_eq!(result.copies(), vec![(2022, 2021)]);
            for (lang, mark) in [
                (imr_stats::Lang::Es, "2022 (copia de 2021)"),
                (imr_stats::Lang::En, "2022 (a copy of 2021)"),
            ] {
                let caption = imr_stats::Caption {
                    lang,
                    ..imr_stats::Caption::default()
                };
                for export in [InequalityExport::LorenzChart, InequalityExport::BoxChart] {
                    let svg = export
                        .write(&result, None, &ExportChoices::default(), &caption)
                        .unwrap();
                    assert!(svg.contains(mark), "{include} {export:?}: {svg}");
                }
                // The measure over the years: the copy's band, and what it is in its description.
                let line = InequalityExport::MeasureChart
                    .write(&result, None, &ExportChoices::default(), &caption)
                    .unwrap();
                let title = imr_inequality::words::copy_title(lang, 2022, 2021);
                assert!(line.contains(&format!("<title>{title}</title>")), "{line}");
                // The rates beside a second series: the rates' series draws the copy.
                let against = InequalityExport::AgainstChart
                    .write(&result, Some(&second), &ExportChoices::default(), &caption)
                    .unwrap();
                assert!(
                    against.contains(&format!("<title>{title}</title>")),
                    "{against}"
                );
                // The adjusted Gini over the years, as the Inequality view draws it.
                let adjusted = crate::inequality::answer::adjusted_svg_with(
                    &result.analysis.report,
                    crate::inequality::adjusted::AdjustedMeasure::Gini,
                    &caption,
                    &result.year_marks(),
                )
                .unwrap();
                assert!(
                    adjusted.contains(&format!("<title>{title}</title>")),
                    "{adjusted}"
                );
                let counted =
                    lang.pick("incluida, cuenta en la tendencia", "it counts in the trend");
                assert_eq!(line.contains(counted), include, "{line}");
            }
        }
    }
}
