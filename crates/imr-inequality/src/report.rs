//! The whole analysis: measures and intervals per year, trends, notes; and the report that
//! serialises to the `imr inequality --format json` contract (README, "The `imr` command").

use crate::adjusted::{
    adjusted_trend, correlate_adjusted, fit_year_with, split_change, AdjustedCorrelation,
    AdjustedMeasure, AdjustedTrend, AdjustedUnavailable, AdjustedYear, BirthsRatioRange,
    ChangeSplit, LeftOutOfTrend, RoundingBound, CORRELATION_DRAWS,
};
use crate::bootstrap::{bootstrap_year, BootstrapMethod, BootstrapSpec, YearIntervals};
use crate::distribution::{box_plot_from_areas, lorenz_from_areas, BoxPlotStats, LorenzCurve};
use crate::error::InequalityError;
use crate::input::{years_from_subject, Subject};
pub use crate::note::RepeatedYear;
use crate::note::{BiasExample, FlaggedMeasures, Note};
use crate::quantity::{Quantity, Unit};
use crate::trend::{correlate, linear_trend, Correlation, Trend};
use crate::year::{compute_year, Measure, SubjectKind, YearData, YearMeasures};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeMap;

/// Settings of an inequality analysis (`spec.analyse(&subject)`).
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct InequalitySpec {
    pub bootstrap: BootstrapSpec,
}

/// What was measured and how the intervals were drawn; written into the report so that a number
/// can be traced to its settings.
/// Its words are values ([`Quantity`], [`Unit`]) worded per language; the JSON carries their
/// English text.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SubjectInfo {
    pub kind: SubjectKind,
    /// The infant mortality rate or the value column.
    pub value_name: Quantity,
    /// The unit of the area values.
    pub unit: Unit,
    /// Births or the weight column.
    pub weight_name: Quantity,
    /// Deaths computed from published rates (intervals approximate).
    pub deaths_derived: bool,
    pub bootstrap_method: BootstrapMethod,
    pub bootstrap_replicates: usize,
    pub seed: u64,
    pub level: f64,
}

/// Measures and intervals of one year.
#[derive(Debug, Clone, PartialEq)]
pub struct YearResult {
    pub measures: YearMeasures,
    pub intervals: YearIntervals,
    /// The inequality of the true rates ([`crate::adjusted`]): `None` for a value column,
    /// the reason when the year has too few areas or deaths.
    pub adjusted: Option<Result<AdjustedYear, AdjustedUnavailable>>,
    /// The earlier year whose values this year repeats, when it is left out of the trends and
    /// correlations ([`RepeatedYear`]); its measures are still computed and shown.
    pub repeat_of: Option<i64>,
}

impl YearResult {
    pub fn time(&self) -> i64 {
        self.measures.time
    }

    /// The `ci` interval of a measure: the basic (bias-corrected) bootstrap interval, `None`
    /// when there is none or the measure [shows none](Measure::shows_interval). See
    /// [`crate::bootstrap`] for why it is not the percentile interval.
    pub fn interval(&self, measure: Measure) -> Option<[f64; 2]> {
        let shown = measure.shows_interval(self.measures.kind);
        self.intervals
            .intervals
            .get(&measure)
            .copied()
            .filter(|_| shown)
    }

    /// The plain percentile interval of the replicates (`ci_percentile`), for a measure that
    /// [shows its interval](Measure::shows_interval).
    pub fn percentile_interval(&self, measure: Measure) -> Option<[f64; 2]> {
        let shown = measure.shows_interval(self.measures.kind);
        self.intervals
            .percentile
            .get(&measure)
            .copied()
            .filter(|_| shown)
    }

    /// Bootstrap bias, mean of the replicates − the estimate (`bias`).
    pub fn bias(&self, measure: Measure) -> Option<f64> {
        self.intervals.bias.get(&measure).copied()
    }

    /// The estimate minus its bootstrap bias, clipped to the measure's range (`bias_corrected`);
    /// `None` for a measure without a meaningful correction ([`Measure::has_bias_correction`]:
    /// counts and order statistics), whose resampled bias stays in the JSON's `bias_corrected`.
    pub fn bias_corrected(&self, measure: Measure) -> Option<f64> {
        if !measure.has_bias_correction() {
            return None;
        }
        self.intervals.bias_corrected.get(&measure).copied()
    }

    /// The adjusted measures, when the year has them.
    pub fn adjusted_year(&self) -> Option<&AdjustedYear> {
        self.adjusted.as_ref()?.as_ref().ok()
    }

    /// The year's point of an adjusted trend or correlation: (year, value, interval as shown —
    /// the union over the births ratio when deaths were derived). `None` without adjusted
    /// measures or when the year is left out ([`AdjustedYear::left_out_of_trend`]).
    pub fn adjusted_trend_point(&self, measure: AdjustedMeasure) -> Option<(i64, f64, [f64; 2])> {
        let a = self.adjusted_year()?;
        if a.left_out_of_trend().is_some() {
            return None;
        }
        let ci = a.shown_interval(measure);
        ci[1]
            .is_finite()
            .then(|| (self.time(), a.value(measure), ci))
    }

    /// Share of the observed measure that is random variation (see
    /// [`AdjustedYear::noise_share`]).
    pub fn noise_share(&self, measure: AdjustedMeasure) -> Option<f64> {
        let observed = self.measures.get(measure.observed()?);
        self.adjusted_year()?.noise_share(measure, observed)
    }

    /// The shares the adjusted interval allows (see [`AdjustedYear::noise_share_interval`]).
    pub fn noise_share_interval(&self, measure: AdjustedMeasure) -> Option<[f64; 2]> {
        let observed = self.measures.get(measure.observed()?);
        self.adjusted_year()?
            .noise_share_interval(measure, observed)
    }

    /// Whether the bootstrap says the estimate is noticeably shifted: the bias is more than
    /// [`NOTABLE_RELATIVE_BIAS`] of the estimate, or the percentile interval excludes it.
    /// Never for a measure without a meaningful correction ([`Measure::has_bias_correction`]).
    pub fn is_noticeably_biased(&self, measure: Measure) -> bool {
        if !measure.has_bias_correction() {
            return false;
        }
        let (Some(estimate), Some(bias)) = (self.measures.get(measure), self.bias(measure)) else {
            return false;
        };
        let excluded = self
            .percentile_interval(measure)
            .is_some_and(|[lo, hi]| estimate < lo || estimate > hi);
        excluded || bias.abs() > NOTABLE_RELATIVE_BIAS * estimate.abs()
    }
}

/// Relative bootstrap bias, |bias| / |estimate|, above which the notes warn (10%).
pub const NOTABLE_RELATIVE_BIAS: f64 = 0.10;

impl Serialize for YearResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = self.measures.kind;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("time", &self.measures.time)?;
        if let Some(of) = self.repeat_of {
            map.serialize_entry("repeat_of", &of)?;
        }
        self.measures.serialize_into(&mut map)?;
        let intervals = &self.intervals;
        map.serialize_entry("ci", &keyed(&intervals.intervals, kind))?;
        map.serialize_entry("ci_percentile", &keyed(&intervals.percentile, kind))?;
        map.serialize_entry("bias", &keyed(&intervals.bias, kind))?;
        map.serialize_entry("bias_corrected", &keyed(&intervals.bias_corrected, kind))?;
        let mut reasons: Vec<(&str, String)> = self
            .measures
            .not_available
            .iter()
            .map(|(m, why)| (m.key(kind), why.to_string()))
            .collect();
        for (m, why) in &self.intervals.not_available {
            reasons.push((m.key(kind), format!("interval: {why}")));
        }
        if !reasons.is_empty() {
            map.serialize_entry("not_available", &BTreeMapInOrder(reasons))?;
        }
        match &self.adjusted {
            None => {}
            Some(Ok(adj)) => {
                let all = AdjustedMeasure::ALL;
                map.serialize_entry("adjusted", &keyed_adjusted(all, |m| adj.value(m)))?;
                let ci = keyed_adjusted(all, |m| adj.interval(m));
                map.serialize_entry("adjusted_ci", &ci)?;
                map.serialize_entry("excess_variation", &adj.excess_variation)?;
                let with_observed = all.into_iter().filter(|m| m.observed().is_some());
                let noise = keyed_adjusted(with_observed, |m| self.noise_share(m));
                map.serialize_entry("noise_share", &noise)?;
                map.serialize_entry(
                    "adjusted_model",
                    &AdjustedModelJson {
                        mean_rate: adj.mean_rate,
                        theta: adj.fit.theta,
                        theta_ci: adj.fit.theta_ci,
                        log_likelihood: adj.fit.log_likelihood,
                        log_likelihood_poisson: adj.fit.log_likelihood_poisson,
                        upper_limit_at_bound: adj.fit.upper_limit_at_bound,
                        scv_moment: adj.scv_moment,
                        n_areas: adj.n_areas,
                        deaths: adj.deaths,
                        count_range: adj.count_range,
                    },
                )?;
                if let Some(why) = adj.left_out_of_trend() {
                    map.serialize_entry(
                        "adjusted_left_out_of_trend",
                        &LeftOutJson {
                            text: why.text(crate::Lang::En),
                            why,
                        },
                    )?;
                }
                if let Some(sens) = &adj.sensitivity {
                    map.serialize_entry(
                        "adjusted_sensitivity",
                        &SensitivityJson {
                            births_ratio: sens.births_ratio,
                            rounding: sens.rounding,
                            range: keyed_adjusted(all, |m| sens.range(m)),
                            ci: keyed_adjusted(all, |m| sens.interval(m)),
                            theta_range: sens.theta_range,
                            theta_ci: sens.theta_interval,
                            upper_open: sens.upper_open,
                            excess_p_value_max: sens.excess_p_value_max,
                        },
                    )?;
                }
            }
            Some(Err(why)) => {
                map.serialize_entry("adjusted", &Option::<f64>::None)?;
                map.serialize_entry("adjusted_ci", &Option::<f64>::None)?;
                map.serialize_entry("excess_variation", &Option::<f64>::None)?;
                map.serialize_entry(
                    "adjusted_not_available",
                    &UnavailableJson {
                        text: why.text(crate::Lang::En),
                        why,
                    },
                )?;
            }
        }
        map.end()
    }
}

#[derive(serde::Serialize)]
struct AdjustedModelJson {
    /// μ̂ per 1,000 live births.
    mean_rate: f64,
    /// θ̂, squared CV of the true rates, and its profile-likelihood interval.
    theta: f64,
    theta_ci: [f64; 2],
    log_likelihood: f64,
    log_likelihood_poisson: f64,
    upper_limit_at_bound: bool,
    scv_moment: Option<f64>,
    n_areas: usize,
    deaths: f64,
    /// Counts known only within a range, carried into the lower limits (`adjusted_ci`).
    #[serde(skip_serializing_if = "Option::is_none")]
    count_range: Option<crate::adjusted::CountRangeBound>,
}

#[derive(serde::Serialize)]
struct LeftOutJson {
    #[serde(flatten)]
    why: LeftOutOfTrend,
    text: String,
}

/// `adjusted_sensitivity` of a year: the adjusted measures over the births ratio and the
/// rounding bound ([`crate::adjusted::sensitivity`]); `ci` is the interval of the answer as
/// shown (upper limit `null` when open).
#[derive(serde::Serialize)]
struct SensitivityJson {
    births_ratio: BirthsRatioRange,
    rounding: Option<RoundingBound>,
    range: BTreeMapInOrder<[f64; 2]>,
    ci: BTreeMapInOrder<[f64; 2]>,
    theta_range: [f64; 2],
    theta_ci: [f64; 2],
    upper_open: bool,
    excess_p_value_max: f64,
}

#[derive(serde::Serialize)]
struct UnavailableJson<'a> {
    #[serde(flatten)]
    why: &'a AdjustedUnavailable,
    text: String,
}

/// How the adjusted measures were made (top-level `adjusted_method` of the JSON).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AdjustedMethod {
    pub model: &'static str,
    pub interval: &'static str,
    pub excess_variation_test: &'static str,
    pub trend: &'static str,
    /// Deaths were derived from published rates: the adjusted measures are approximate.
    pub approximate: bool,
    pub note: String,
}

impl AdjustedMethod {
    fn new(deaths_derived: bool) -> Self {
        AdjustedMethod {
            model: "poisson_gamma_negative_binomial_ml",
            interval: "profile_likelihood",
            excess_variation_test: "likelihood_ratio_boundary_mixture",
            trend: "inverse_variance_wls_knapp_hartung",
            approximate: deaths_derived,
            note: crate::adjusted::method_note(deaths_derived, crate::Lang::En),
        }
    }
}

/// Key/value pairs serialised as a JSON object in the given order.
struct BTreeMapInOrder<V>(Vec<(&'static str, V)>);

/// The values of the measures under their keys for `kind`, in measure order.
fn keyed<V: Copy>(values: &BTreeMap<Measure, V>, kind: SubjectKind) -> BTreeMapInOrder<V> {
    BTreeMapInOrder(values.iter().map(|(m, v)| (m.key(kind), *v)).collect())
}

/// `value` of each adjusted measure under its key, in the order given.
fn keyed_adjusted<V>(
    measures: impl IntoIterator<Item = AdjustedMeasure>,
    value: impl Fn(AdjustedMeasure) -> V,
) -> BTreeMapInOrder<V> {
    BTreeMapInOrder(measures.into_iter().map(|m| (m.key(), value(m))).collect())
}

/// The values of `(measure, value)` pairs under their measures' keys (`key`), in the order given.
fn keyed_pairs<M: Copy, V>(
    pairs: &[(M, V)],
    key: impl Fn(M) -> &'static str,
) -> BTreeMapInOrder<&V> {
    BTreeMapInOrder(pairs.iter().map(|(m, v)| (key(*m), v)).collect())
}

impl<V: Serialize> Serialize for BTreeMapInOrder<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The report of `imr inequality --format json`: `subject`, `years`, `trend`, `notes`.
#[derive(Debug, Clone, PartialEq)]
pub struct InequalityReport {
    pub subject: SubjectInfo,
    /// One entry per year, ascending.
    pub years: Vec<YearResult>,
    /// Trend of each measure with a value in at least two years, in measure order.
    pub trend: Vec<(Measure, Trend)>,
    /// What was measured and how, and warnings; rendered per language (English in the JSON).
    pub notes: Vec<Note>,
    /// Trend of each adjusted measure with a value in at least two years.
    pub trend_adjusted: Vec<(AdjustedMeasure, AdjustedTrend)>,
    /// First-to-last change of each measure with an observed counterpart, split into true
    /// change and change from noise.
    pub change_split: Vec<(AdjustedMeasure, ChangeSplit)>,
    /// `None` for a value column.
    pub adjusted_method: Option<AdjustedMethod>,
    /// Years left out of `trend`, `trend_adjusted`, `change_split` and the correlations (still in
    /// `years`, with their `repeat_of`).
    pub left_out_of_trends: Vec<RepeatedYear>,
}

impl Serialize for InequalityReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("subject", &self.subject)?;
        map.serialize_entry("years", &self.years)?;
        let kind = self.subject.kind;
        let trend = keyed_pairs(&self.trend, |m| m.key(kind));
        map.serialize_entry("trend", &trend)?;
        if !self.left_out_of_trends.is_empty() {
            map.serialize_entry("left_out_of_trends", &self.left_out_of_trends)?;
        }
        map.serialize_entry("notes", &self.notes)?;
        if let Some(method) = &self.adjusted_method {
            let trend = keyed_pairs(&self.trend_adjusted, AdjustedMeasure::key);
            map.serialize_entry("trend_adjusted", &trend)?;
            let split = keyed_pairs(&self.change_split, AdjustedMeasure::key);
            map.serialize_entry("change_split", &split)?;
            map.serialize_entry("adjusted_method", method)?;
        }
        map.end()
    }
}

/// A measure's value in one year, with its interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeriesPoint {
    pub time: i64,
    pub value: f64,
    pub ci: Option<[f64; 2]>,
}

impl InequalityReport {
    /// The years left out of the trends as copies of an earlier year, `(year, the year it
    /// repeats)`: what the charts draw as copies.
    pub fn copies(&self) -> Vec<(i64, i64)> {
        (self.years.iter())
            .filter_map(|y| y.repeat_of.map(|of| (y.time(), of)))
            .collect()
    }

    /// The years where `measure` has a value, ascending, with their intervals.
    pub fn series(&self, measure: Measure) -> Vec<SeriesPoint> {
        self.years
            .iter()
            .filter_map(|y| {
                y.measures.get(measure).map(|value| SeriesPoint {
                    time: y.time(),
                    value,
                    ci: y.interval(measure),
                })
            })
            .collect()
    }

    /// [`InequalityReport::series`] as a chart with bands draws it: a year with an interval at
    /// its bias-corrected value, on which its basic bootstrap interval is centred
    /// ([`crate::bootstrap`]), so that the line runs inside its band (the observed value,
    /// inflated by Poisson noise, can lie above all of it); a year without one at its value.
    pub fn series_in_band(&self, measure: Measure) -> Vec<SeriesPoint> {
        self.years
            .iter()
            .filter_map(|y| {
                let ci = y.interval(measure);
                let observed = y.measures.get(measure)?;
                let value = match ci {
                    Some(_) => y.bias_corrected(measure).unwrap_or(observed),
                    None => observed,
                };
                Some(SeriesPoint {
                    time: y.time(),
                    value,
                    ci,
                })
            })
            .collect()
    }

    /// The trend of a measure, if it has one.
    pub fn trend_of(&self, measure: Measure) -> Option<&Trend> {
        self.trend
            .iter()
            .find(|(m, _)| *m == measure)
            .map(|(_, t)| t)
    }

    /// The trend of an adjusted measure, if it has one.
    pub fn trend_adjusted_of(&self, measure: AdjustedMeasure) -> Option<&AdjustedTrend> {
        self.trend_adjusted
            .iter()
            .find(|(m, _)| *m == measure)
            .map(|(_, t)| t)
    }

    /// The change split of an adjusted measure, if it has one.
    pub fn change_split_of(&self, measure: AdjustedMeasure) -> Option<&ChangeSplit> {
        self.change_split
            .iter()
            .find(|(m, _)| *m == measure)
            .map(|(_, t)| t)
    }

    /// [`InequalityReport::series`] without the years left out of trends and correlations.
    pub fn series_in_trends(&self, measure: Measure) -> Vec<SeriesPoint> {
        let out = &self.left_out_of_trends;
        let mut s = self.series(measure);
        s.retain(|p| !out.iter().any(|r| r.time == p.time));
        s
    }

    /// The years with adjusted measures, ascending.
    pub fn adjusted_years(&self) -> impl Iterator<Item = &AdjustedYear> {
        self.years.iter().filter_map(YearResult::adjusted_year)
    }

    /// The report as pretty JSON (the CLI's `--format json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report has only string keys and numbers")
    }
}

/// Correlation over the years of `measure_a` in `a` and `measure_b` in `b` (e.g. the Gini of
/// infant mortality and the Gini of health income per capita), at confidence `level`.
pub fn correlate_reports(
    a: &InequalityReport,
    measure_a: Measure,
    b: &InequalityReport,
    measure_b: Measure,
    level: f64,
) -> Correlation {
    let pts = |r: &InequalityReport, m| -> Vec<(i64, f64)> {
        r.series_in_trends(m)
            .iter()
            .map(|p| (p.time, p.value))
            .collect()
    };
    // A year either report leaves out (a repeated year) leaves the pair.
    let mut a_pts = pts(a, measure_a);
    a_pts.retain(|(t, _)| !b.left_out_of_trends.iter().any(|r| r.time == *t));
    correlate(&a_pts, &pts(b, measure_b), level)
}

/// Correlation over the years between the adjusted Gini of the infant mortality report `imr`
/// and the (observed) Gini of `other` (e.g. health income per capita), with the observed
/// correlation beside it, without the years either report leaves out of its trends (a repeated
/// year); at `imr`'s confidence level, seeded with its bootstrap seed so that
/// the page and `imr inequality --against …` print the same interval. `None` when `imr` has no
/// adjusted measures or fewer than 4 common years. See [`correlate_adjusted`] for the formula.
pub fn correlate_reports_adjusted(
    imr: &InequalityReport,
    other: &InequalityReport,
) -> Option<AdjustedCorrelation> {
    imr.adjusted_method.as_ref()?;
    let left_out = |t: i64| {
        imr.left_out_of_trends
            .iter()
            .chain(&other.left_out_of_trends)
            .any(|r| r.time == t)
    };
    let adjusted: Vec<(i64, f64, [f64; 2])> = imr
        .years
        .iter()
        .filter(|y| !left_out(y.time()))
        .filter_map(|y| y.adjusted_trend_point(AdjustedMeasure::Gini))
        .collect();
    let pts = |r: &InequalityReport| -> Vec<(i64, f64)> {
        r.series(Measure::Gini)
            .iter()
            .filter(|p| !left_out(p.time))
            .map(|p| (p.time, p.value))
            .collect()
    };
    let mut c = correlate_adjusted(
        &adjusted,
        &pts(other),
        &pts(imr),
        imr.subject.level,
        CORRELATION_DRAWS,
        imr.subject.seed,
    )?;
    c.against = other.subject.value_name.to_string();
    Some(c)
}

/// Everything the page shows: the report plus the Lorenz curves and box plots per year.
#[derive(Debug, Clone, PartialEq)]
pub struct InequalityAnalysis {
    pub report: InequalityReport,
    /// One curve per year whose total is > 0.
    pub lorenz: Vec<LorenzCurve>,
    /// One box plot per year with at least one area.
    pub box_plots: Vec<BoxPlotStats>,
}

impl InequalitySpec {
    /// Measure every year of `subject`, with bootstrap intervals, trends and notes.
    pub fn analyse(&self, subject: &Subject) -> Result<InequalityAnalysis, InequalityError> {
        self.analyse_leaving_out(subject, &[])
    }

    /// [`InequalitySpec::analyse`], with the years of `repeated` measured and shown but left
    /// out of every trend, change split and correlation (and a [`Note::RepeatedYearsLeftOut`]
    /// saying so). A repeated year absent from `subject` is ignored.
    pub fn analyse_leaving_out(
        &self,
        subject: &Subject,
        repeated: &[RepeatedYear],
    ) -> Result<InequalityAnalysis, InequalityError> {
        let level = self.bootstrap.level;
        if !(level > 0.0 && level < 1.0) {
            return Err(InequalityError::InvalidSetting(format!(
                "the confidence level must be in (0, 1), found {level}"
            )));
        }
        let areas_by_year = years_from_subject(subject)?;
        let (kind, per, method, weight_name, deaths_derived, births_ratio) = match subject {
            Subject::Rates(r) => (
                SubjectKind::Rate,
                r.per,
                BootstrapMethod::PoissonDeaths,
                Quantity::Births,
                r.deaths_derived,
                r.deaths_derived.then_some(r.births_ratio),
            ),
            Subject::Values(v) => (
                SubjectKind::Value,
                1.0,
                BootstrapMethod::ResampleAreas,
                Quantity::of_column(&v.weight_name),
                false,
                None,
            ),
        };
        let mut years = Vec::with_capacity(areas_by_year.len());
        for areas in &areas_by_year {
            let measures = compute_year(&YearData::from_areas(areas, kind));
            let intervals = bootstrap_year(areas, kind, per, &self.bootstrap, &measures)?;
            let adjusted = areas.events.as_ref().map(|deaths| {
                let year =
                    fit_year_with(areas.time, deaths, &areas.weights, per, level, births_ratio)?;
                Ok(match &areas.event_ranges {
                    // Areas of zero births are not in `areas` (their weight is 0).
                    Some(ranges) => year.carrying_count_ranges(ranges, &areas.weights),
                    None => year,
                })
            });
            years.push(YearResult {
                measures,
                intervals,
                adjusted,
                repeat_of: repeated
                    .iter()
                    .find(|r| r.time == areas.time)
                    .map(|r| r.repeat_of),
            });
        }
        let left_out_of_trends: Vec<RepeatedYear> = years
            .iter()
            .filter_map(|y| {
                y.repeat_of.map(|of| RepeatedYear {
                    time: y.time(),
                    repeat_of: of,
                })
            })
            .collect();
        let in_trends = || years.iter().filter(|y| y.repeat_of.is_none());
        let mut trend = Vec::new();
        for m in Measure::ALL {
            let pts: Vec<(i64, f64)> = in_trends()
                .filter_map(|y| y.measures.get(m).map(|v| (y.time(), v)))
                .collect();
            if let Some(t) = linear_trend(&pts, level) {
                trend.push((m, t));
            }
        }
        let mut trend_adjusted = Vec::new();
        let mut change_split = Vec::new();
        for m in AdjustedMeasure::ALL {
            let pts: Vec<(i64, f64, [f64; 2])> = in_trends()
                .filter_map(|y| y.adjusted_trend_point(m))
                .collect();
            if let Some(t) = adjusted_trend(&pts, level) {
                trend_adjusted.push((m, t));
            }
            if let Some(observed) = m.observed() {
                let pts: Vec<(i64, f64, f64)> = in_trends()
                    .filter_map(|y| {
                        Some((
                            y.time(),
                            y.measures.get(observed)?,
                            y.adjusted_year()?.value(m),
                        ))
                    })
                    .collect();
                if let Some(split) = split_change(&pts) {
                    change_split.push((m, split));
                }
            }
        }
        let adjusted_method =
            (kind == SubjectKind::Rate).then(|| AdjustedMethod::new(deaths_derived));
        let subject_info = SubjectInfo {
            kind,
            value_name: subject.value_name(),
            unit: subject.unit(),
            weight_name,
            deaths_derived,
            bootstrap_method: method,
            bootstrap_replicates: self.bootstrap.replicates,
            seed: self.bootstrap.seed,
            level,
        };
        let mut notes = notes(&subject_info, &areas_by_year, &years);
        if !left_out_of_trends.is_empty() {
            notes.push(Note::RepeatedYearsLeftOut {
                years: left_out_of_trends.clone(),
            });
        }
        Ok(InequalityAnalysis {
            report: InequalityReport {
                subject: subject_info,
                years,
                trend,
                notes,
                trend_adjusted,
                change_split,
                adjusted_method,
                left_out_of_trends,
            },
            lorenz: areas_by_year.iter().filter_map(lorenz_from_areas).collect(),
            box_plots: areas_by_year
                .iter()
                .filter_map(box_plot_from_areas)
                .collect(),
        })
    }
}

fn notes(
    info: &SubjectInfo,
    areas_by_year: &[crate::input::YearAreas],
    years: &[YearResult],
) -> Vec<Note> {
    let percent = info.level * 100.0;
    let mut notes = Vec::new();
    match info.kind {
        SubjectKind::Rate => notes.push(Note::RateAreas {
            unit: info.unit.clone(),
        }),
        SubjectKind::Value => notes.push(Note::ValueAreas {
            value: info.value_name.clone(),
            weight: info.weight_name.clone(),
        }),
    }
    notes.push(Note::UnweightedQuantiles);
    if info.bootstrap_replicates == 0 {
        notes.push(Note::NoBootstrap);
    } else {
        notes.push(Note::BootstrapIntervals {
            percent,
            replicates: info.bootstrap_replicates,
            method: info.bootstrap_method,
            seed: info.seed,
        });
        if info.deaths_derived {
            notes.push(Note::DerivedDeaths);
        }
    }
    notes.push(Note::Trend { percent });
    let zero_weight: Vec<(usize, i64)> = areas_by_year
        .iter()
        .filter(|a| a.zero_weight_rows > 0)
        .map(|a| (a.zero_weight_rows, a.time))
        .collect();
    if !zero_weight.is_empty() {
        notes.push(Note::ZeroWeightRows {
            weight: info.weight_name.clone(),
            rows: zero_weight,
        });
    }
    notes.extend(bias_notes(info.kind, years));
    // by measure, then by the English note text (the order of the notes in every language)
    let mut unavailable: BTreeMap<(Measure, String), (crate::Reason, Vec<i64>)> = BTreeMap::new();
    for y in years {
        let reasons = y.measures.not_available.iter();
        // an interval the page does not show is not missing in some years (shows_interval)
        let intervals =
            (y.intervals.not_available.iter()).filter(|(m, _)| m.shows_interval(info.kind));
        for (m, why) in reasons.chain(intervals) {
            unavailable
                .entry((*m, why.note_text(crate::Lang::En)))
                .or_insert_with(|| (why.clone(), Vec::new()))
                .1
                .push(y.time());
        }
    }
    for ((m, _), (why, times)) in unavailable {
        notes.push(Note::NotAvailable {
            key: m.key(info.kind).to_string(),
            why,
            years: times,
        });
    }
    notes
}

/// The flagged measures by JSON key, in measure order.
fn flagged(kind: SubjectKind, flagged: &BTreeMap<Measure, Vec<i64>>) -> FlaggedMeasures {
    flagged
        .iter()
        .map(|(m, times)| (m.key(kind).to_string(), times.clone()))
        .collect()
}

/// Plain-language warnings when the bootstrap replicates are shifted from the estimate (relative
/// bias above 10%, or a percentile interval that excludes its estimate): one note for the
/// dispersion measures, which small-area noise inflates, one for the others.
fn bias_notes(kind: SubjectKind, years: &[YearResult]) -> Vec<Note> {
    let mut dispersion: BTreeMap<Measure, Vec<i64>> = BTreeMap::new();
    let mut other: BTreeMap<Measure, Vec<i64>> = BTreeMap::new();
    for y in years {
        for m in Measure::ALL {
            if y.is_noticeably_biased(m) {
                let upward_dispersion = m.is_dispersion() && y.bias(m).is_some_and(|b| b > 0.0);
                let target = if upward_dispersion {
                    &mut dispersion
                } else {
                    &mut other
                };
                target.entry(m).or_default().push(y.time());
            }
        }
    }
    let mut notes = Vec::new();
    if !dispersion.is_empty() {
        let first = dispersion.iter().next().expect("not empty");
        let example = years.iter().find(|y| y.time() == first.1[0]).and_then(|y| {
            let m = *first.0;
            Some(BiasExample {
                key: m.key(kind).to_string(),
                time: y.time(),
                observed: y.measures.get(m)?,
                bias_corrected: y.bias_corrected(m)?,
                percentile: y.percentile_interval(m)?,
                ci: y.interval(m)?,
            })
        });
        notes.push(Note::InflatedInequality {
            kind,
            measures: flagged(kind, &dispersion),
            example,
        });
    }
    if !other.is_empty() {
        notes.push(Note::ShiftedReplicates {
            measures: flagged(kind, &other),
        });
    }
    notes
}
