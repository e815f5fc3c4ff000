//! The inequality answer's input: one value per year with its interval, and the trend.
//!
//! The Findings are written against [`InequalitySeries`] and [`InequalitySource`], not against
//! a particular measure. The page and the tests feed them from [`AdjustedGini`]: the Gini of the
//! communes' *true* rates (Poisson–gamma fit per year, profile-likelihood intervals, and the
//! inverse-variance trend that carries each year's uncertainty; `imr_inequality::adjusted`), the
//! same numbers as the Inequality view and `imr inequality`'s `adjusted` / `trend_adjusted`.
//! [`ObservedGini`] (the Gini of the *observed* rates, which Poisson noise inflates, and its OLS
//! trend) is shown beside it for comparison with studies that measured that one, and is marked
//! [`SeriesKind::Observed`] in every sentence.

use imr_core::inequality::adjusted::{adjusted_trend, AdjustedMeasure, BirthsRatioRange};
use imr_core::inequality::panel_input::{subject_from_rows, SubjectColumns};
use imr_core::inequality::{
    linear_trend, BootstrapSpec, InequalitySpec, Measure, RepeatedYear, DEFAULT_SEED,
};
use imr_core::panel::Panel;
use serde::Serialize;

/// Where an inequality series comes from; the sentences say which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesKind {
    /// Gini of the observed rates (inflated by Poisson noise), no interval per year; its trend
    /// is the OLS line through the yearly values.
    Observed,
    /// Inequality of true rates, adjusted for Poisson noise.
    Adjusted,
}

/// One year's inequality value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InequalityYear {
    pub time: i64,
    pub value: f64,
    /// 95% interval (upper limit +∞ when the data give none).
    pub ci: Option<[f64; 2]>,
    /// With deaths derived from published rates: the value's range over the ratio of true to
    /// given births and the rates' rounding, and the 95% interval of range and chance together
    /// (`imr_inequality::adjusted::sensitivity`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_ci: Option<[f64; 2]>,
}

/// Inequality of rates per year and its trend: what question 2 (and 3) need.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InequalitySeries {
    pub kind: SeriesKind,
    /// Name of the measure in Spanish and English ("Gini").
    pub measure_es: String,
    pub measure_en: String,
    pub years: Vec<InequalityYear>,
    /// Trend slope in the measure's unit per year, and its 95% interval (`None` with too few
    /// years).
    pub slope_per_year: Option<f64>,
    pub slope_ci: Option<[f64; 2]>,
    /// Deaths were derived from published rates × a births proxy, not counted: the adjusted
    /// measures are then approximate (a quasi-likelihood fit).
    pub approximate: bool,
    /// The range of true / given births behind the years' `range` ([low, high]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub births_ratio: Option<[f64; 2]>,
    /// Years in `years` left out of the trend (and of the correlation of question 3) as repeats
    /// of the previous year.
    pub left_out_of_trend: Vec<i64>,
}

/// Anything that measures the inequality of rates of a panel per year. The years of `repeated`
/// (repeats of the previous year, `imr_core::repeats`) keep their value but stay out of the
/// trend.
pub trait InequalitySource {
    fn series(&self, panel: &Panel, repeated: &[RepeatedYear]) -> Result<InequalitySeries, String>;
}

/// The Gini of the observed commune rates weighted by births, per year (as `imr inequality`'s
/// `gini`, no bootstrap), and the OLS trend of the yearly values
/// ([`imr_core::inequality::linear_trend`]): the measure a study of observed rates reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ObservedGini;

/// The inequality analysis of the panel's rates with `replicates` bootstrap replicates (the
/// adjusted measures need none).
fn analyse_rates(
    panel: &Panel,
    replicates: usize,
    repeated: &[RepeatedYear],
    births_ratio: Option<BirthsRatioRange>,
) -> Result<imr_core::inequality::InequalityReport, String> {
    if !panel.has_rates() {
        return Err("the data have no births and deaths (or rate)".into());
    }
    let rows = panel.inequality_rows();
    let (mut subject, _left_out) = subject_from_rows(
        &rows,
        SubjectColumns::Rates {
            deaths_derived: panel.deaths_derived,
        },
        None,
        None,
    )
    .map_err(|e| e.to_string())?;
    // The range the Inequality view and `imr inequality --births-ratio` apply, the same way.
    subject.set_births_ratio(births_ratio);
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates,
            seed: DEFAULT_SEED,
            level: 0.95,
        },
    };
    Ok(spec
        .analyse_leaving_out(&subject, repeated)
        .map_err(|e| e.to_string())?
        .report)
}

impl InequalitySource for ObservedGini {
    fn series(&self, panel: &Panel, repeated: &[RepeatedYear]) -> Result<InequalitySeries, String> {
        let report = analyse_rates(panel, 0, repeated, None)?;
        let years: Vec<InequalityYear> = report
            .years
            .iter()
            .filter_map(|y| {
                Some(InequalityYear {
                    time: y.time(),
                    value: y.measures.get(Measure::Gini)?,
                    ci: None,
                    range: None,
                    range_ci: None,
                })
            })
            .collect();
        Ok(InequalitySeries::with_trend(
            SeriesKind::Observed,
            "Gini",
            "Gini",
            years,
            repeated,
        ))
    }
}

/// The birth-weighted Gini of the communes' true rates per year (`imr_inequality::adjusted`:
/// deaths ~ Poisson(births · λ), λ ~ Gamma with squared CV θ fitted by maximum likelihood;
/// Gini = Γ(k + ½) / (√π · k · Γ(k)) with k = 1/θ for the birth-weighted distribution, 95%
/// profile-likelihood interval), and its trend by inverse-variance weighted least squares with
/// the Knapp–Hartung variance ([`imr_core::inequality::adjusted::AdjustedTrend`]). Years where the
/// model cannot be fitted (fewer than 10 communes or 10 deaths) are left out.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AdjustedGini {
    /// Where deaths are derived from published rates, the range of true births over the births
    /// given over which the answer is recomputed ("between X and Y"); `None`: the engine's
    /// default, 0.7–1.0 (`imr inequality --births-ratio`, the Inequality view's field).
    pub births_ratio: Option<BirthsRatioRange>,
}

impl InequalitySource for AdjustedGini {
    fn series(&self, panel: &Panel, repeated: &[RepeatedYear]) -> Result<InequalitySeries, String> {
        let report = analyse_rates(panel, 0, repeated, self.births_ratio)?;
        let measure = AdjustedMeasure::Gini;
        let years: Vec<InequalityYear> = report
            .years
            .iter()
            .filter_map(|y| {
                let adjusted = y.adjusted_year()?;
                let sensitivity = adjusted.sensitivity.as_ref();
                Some(InequalityYear {
                    time: y.time(),
                    value: adjusted.value(measure),
                    ci: Some(adjusted.interval(measure)),
                    range: sensitivity.map(|s| s.range(measure)),
                    range_ci: sensitivity.map(|s| s.interval(measure)),
                })
            })
            .collect();
        let trend = report.trend_adjusted_of(measure);
        let births_ratio = report
            .adjusted_years()
            .find_map(|a| a.sensitivity.as_ref())
            .map(|s| [s.births_ratio.low, s.births_ratio.high]);
        Ok(InequalitySeries {
            kind: SeriesKind::Adjusted,
            measure_es: "Gini".into(),
            measure_en: "Gini".into(),
            slope_per_year: trend.map(|t| t.slope),
            slope_ci: trend.map(|t| [t.ci_low, t.ci_high]),
            births_ratio,
            years,
            approximate: panel.deaths_derived,
            left_out_of_trend: report.left_out_of_trends.iter().map(|r| r.time).collect(),
        })
    }
}

impl InequalitySeries {
    /// A series with the OLS trend of its yearly values (interval from year-to-year scatter,
    /// Student's t on n − 2 degrees of freedom; see [`imr_core::inequality::linear_trend`]),
    /// without the years of `repeated`.
    pub fn with_trend(
        kind: SeriesKind,
        measure_es: &str,
        measure_en: &str,
        years: Vec<InequalityYear>,
        repeated: &[RepeatedYear],
    ) -> InequalitySeries {
        let left_out: Vec<i64> = repeated
            .iter()
            .map(|r| r.time)
            .filter(|t| years.iter().any(|y| y.time == *t))
            .collect();
        let points: Vec<(i64, f64)> = years
            .iter()
            .filter(|y| !left_out.contains(&y.time))
            .map(|y| (y.time, y.value))
            .collect();
        let trend = linear_trend(&points, 0.95);
        InequalitySeries {
            kind,
            measure_es: measure_es.into(),
            measure_en: measure_en.into(),
            slope_per_year: trend.as_ref().map(|t| t.slope),
            slope_ci: trend.and_then(|t| t.ci_low.zip(t.ci_high).map(|(a, b)| [a, b])),
            years,
            approximate: false,
            births_ratio: None,
            left_out_of_trend: left_out,
        }
    }
}

impl InequalitySeries {
    /// The series restricted to the years `first..=last`, with its trend recomputed on them by
    /// its own method: the inverse-variance trend of the adjusted measure
    /// ([`imr_core::inequality::adjusted::adjusted_trend`], as the engine's report computes it),
    /// the OLS line of the observed one.
    pub fn within(&self, first: i64, last: i64) -> InequalitySeries {
        let years: Vec<InequalityYear> = self
            .years
            .iter()
            .filter(|y| (first..=last).contains(&y.time))
            .copied()
            .collect();
        let in_trend = |y: &&InequalityYear| !self.left_out_of_trend.contains(&y.time);
        let (slope, ci) = match self.kind {
            SeriesKind::Adjusted => {
                let points: Vec<(i64, f64, [f64; 2])> = years
                    .iter()
                    .filter(in_trend)
                    .filter_map(|y| y.ci.map(|ci| (y.time, y.value, ci)))
                    .collect();
                let t = adjusted_trend(&points, 0.95);
                (t.map(|t| t.slope), t.map(|t| [t.ci_low, t.ci_high]))
            }
            SeriesKind::Observed => {
                let points: Vec<(i64, f64)> = years
                    .iter()
                    .filter(in_trend)
                    .map(|y| (y.time, y.value))
                    .collect();
                let t = linear_trend(&points, 0.95);
                (
                    t.as_ref().map(|t| t.slope),
                    t.and_then(|t| t.ci_low.zip(t.ci_high).map(|(a, b)| [a, b])),
                )
            }
        };
        InequalitySeries {
            kind: self.kind,
            measure_es: self.measure_es.clone(),
            measure_en: self.measure_en.clone(),
            slope_per_year: slope,
            slope_ci: ci,
            approximate: self.approximate,
            births_ratio: self.births_ratio,
            left_out_of_trend: self
                .left_out_of_trend
                .iter()
                .copied()
                .filter(|t| (first..=last).contains(t))
                .collect(),
            years,
        }
    }

    /// The number of years the trend rests on.
    pub fn years_in_trend(&self) -> usize {
        self.years
            .iter()
            .filter(|y| !self.left_out_of_trend.contains(&y.time))
            .count()
    }
}
