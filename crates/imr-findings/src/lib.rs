//! imr-findings: the study's five questions answered on the loaded data, first.
//!
//! 1. **rates** — the national pooled rate and the median commune rate per year, and whether the
//!    rate is falling (linear trend with its interval);
//! 2. **inequality** — the inequality of rates per year and whether it changed (an
//!    [`InequalitySeries`], from any [`InequalitySource`]);
//! 3. **health-income** — the correlation over the years between that inequality and the
//!    inequality of municipal health income per capita;
//! 4. **models** — panel-model coefficients of poverty, schooling, SAPU, health income and
//!    distance to hospital, per meaningful unit;
//! 5. **where** — the communes with the highest empirical-Bayes smoothed rates, with intervals.
//!
//! Before them, when the data are Chile's communes and cover the study's years, [`study`] sets the
//! reference study's conclusion (Morales 2016: over 2001–2011 the median commune rate was stable
//! and inequality between communes rose) beside what the loaded counts show, on the study's
//! period and on the whole series. The answers cover the years a request chooses
//! ([`FindingsRequest::years`]), by default all of them.
//!
//! Every sentence is generated from these values by the wording rules of [`words`] (association,
//! not causation; "not distinguishable from zero" when an interval covers zero; "too few years to
//! say"), in Spanish or English ([`Findings::answers`]). Nothing here knows of the browser.

pub mod chart;
pub mod compute;
pub mod embed;
pub mod inequality;
pub mod method;
mod parts;
pub mod pivotal;
pub mod report;
pub mod request;
pub mod slope;
pub mod study;
pub mod text;
pub mod words;
pub mod year_span;

pub use compute::{compute, Options};
pub use inequality::{
    AdjustedGini, InequalitySeries, InequalitySource, InequalityYear, ObservedGini, SeriesKind,
};
pub use parts::Table;
pub use request::FindingsRequest;
pub use study::{PeriodTrends, StudyComparison, StudyYear, STUDY};
pub use text::{bundled_births_note, Answer};
pub use year_span::YearSpan;

use imr_core::inequality::Correlation;
use imr_core::inequality::Trend;
use serde::Serialize;

/// Communes of Chile's 345 that make the data "the whole country" (95%): fewer, and the pooled
/// rate is the rate of the communes loaded, not a national rate.
pub const WHOLE_COUNTRY_COMMUNES: usize = 328;

/// The pooled rate of one year.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct YearRate {
    pub time: i64,
    /// Pooled rate per 1,000: 1000 · ΣD / ΣB over the communes with births.
    pub pooled_per_1000: Option<f64>,
    /// Exact Poisson (Garwood) 95% interval of the pooled rate.
    pub pooled_ci: Option<[f64; 2]>,
    /// Median of the commune rates (type-7 quantile, unweighted).
    pub median_per_1000: Option<f64>,
    pub n_areas: usize,
}

/// Question 1: is infant mortality falling?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatesFinding {
    pub years: Vec<YearRate>,
    /// OLS trend of the pooled rate, per 1,000 per year ([`imr_core::inequality::linear_trend`]).
    pub trend: Option<Trend>,
    /// OLS trend of the median commune rate, per 1,000 per year.
    pub median_trend: Option<Trend>,
    /// The data are the whole country (Chile's communes, nearly all of them): the pooled rate
    /// is then called national, else "the rate of the communes loaded".
    pub whole_country: bool,
    /// Deaths derived from published rates: the intervals are approximate.
    pub approximate: bool,
}

/// Question 2: how unequal are the rates, and did that change?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InequalityFinding {
    /// The inequality of true rates (adjusted for Poisson noise): the answer.
    pub series: InequalitySeries,
    /// The Gini of the observed rates and its trend, for comparison with studies that measured
    /// it (Poisson noise inflates it, more in years with fewer births).
    pub observed: Option<InequalitySeries>,
}

/// Question 3: does the inequality of IMR move with the inequality of municipal health income?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HealthIncomeFinding {
    /// Column of health income per capita used.
    pub column: String,
    /// Gini of health income per capita per year (weighted by births), `(year, value)`.
    pub income_gini: Vec<(i64, f64)>,
    /// The IMR inequality series it is correlated with (the same as question 2's).
    pub imr_inequality: Vec<(i64, f64)>,
    /// Pearson and Spearman correlation over the common years with Fisher-z intervals
    /// ([`imr_core::inequality::correlate`]); with the adjusted series, the Pearson interval
    /// also carries each year's uncertainty
    /// ([`imr_core::inequality::adjusted::correlate_adjusted`]).
    pub correlation: Correlation,
}

/// One regressor of question 4.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelTerm {
    /// Column name (`pobreza`, `sapu`, …).
    pub column: String,
    /// The change the sentence is about, in the column's unit (10 percentage points, 50 km…).
    pub per: f64,
    /// Coefficient × `per`: change in the rate per 1,000 for that change.
    pub estimate: f64,
    /// 95% interval × `per`.
    pub ci: [f64; 2],
    /// Which estimator gave it.
    pub estimator: imr_core::models::Estimator,
}

/// Question 4: what goes with higher mortality in the panel models?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelsFinding {
    pub outcome: String,
    /// The answer: fixed effects where they estimate a term, random effects for the terms
    /// constant within communes.
    pub terms: Vec<ModelTerm>,
    /// Every term as random effects estimate it (Swamy–Arora, clustered): what the other model
    /// says, shown when the Hausman test does not reject it.
    pub random_effects: Vec<ModelTerm>,
    /// p-value of the Hausman test of fixed against random effects (classical covariances), when
    /// computed: below 0.05 random effects are rejected as inconsistent.
    pub hausman_p: Option<f64>,
    /// The random-effects model estimated no variance between communes (Swamy–Arora σ²_u
    /// truncated at 0): it is then pooled OLS, treating every commune-year as independent.
    pub random_effects_pooled: bool,
    /// Regressors the fixed-effects model cannot estimate (constant within communes), answered
    /// from random effects instead.
    pub time_invariant: Vec<String>,
    /// Regressors asked for but absent from the data.
    pub missing: Vec<String>,
    pub nobs: usize,
    pub n_entities: usize,
}

/// One commune of question 5.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommuneRate {
    pub entity: String,
    pub name: Option<String>,
    /// Empirical-Bayes smoothed rate per 1,000 (global, Marshall 1991), all years pooled.
    pub smoothed_per_1000: f64,
    /// 95% interval of the gamma posterior behind it (see [`compute::eb_posterior_interval`]).
    pub ci: Option<[f64; 2]>,
    /// Raw pooled rate per 1,000 and the births it rests on.
    pub raw_per_1000: f64,
    pub births: f64,
}

/// Question 5: where are rates highest?
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WhereFinding {
    /// The first and last of [`WhereFinding::years`].
    pub first_time: i64,
    pub last_time: i64,
    /// The years summed: those with deaths and births of some commune (the bundled 2016 and
    /// 2020 have none and are not among them).
    pub years: Vec<i64>,
    /// The prior (pooled) rate per 1,000 the communes are shrunk towards.
    pub national_per_1000: f64,
    /// As [`RatesFinding::whole_country`].
    pub whole_country: bool,
    /// Communes whose whole interval lies above the national rate, highest smoothed rate first:
    /// at most the request's number, more when the last one named ties with others.
    pub top: Vec<CommuneRate>,
    /// Communes whose whole interval lies above the national rate (all of them, named or not).
    pub n_above_national: usize,
    pub n_communes: usize,
}

/// The answer to one question, or why there is none on these data.
pub type Outcome<T> = Result<T, Unavailable>;

/// Why a question cannot be answered on the loaded data.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Unavailable {
    /// The data have no births and deaths (or rate).
    NoRates,
    /// A column the question needs is absent.
    MissingColumn { column: String },
    /// None of the columns the question can use is present (the regressors of question 4),
    /// with the data's other numeric columns, which the reader may choose instead in the view
    /// that answers the question in full.
    MissingColumns {
        columns: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        other_columns: Vec<String>,
    },
    /// The engine could not compute it; its message (English).
    Engine { message: String },
}

/// Serialises an [`Outcome`] as its answer's values, or `{"unavailable": reason}` when the data
/// cannot answer it (not serde's `{"Ok": …}` / `{"Err": …}` of a `Result`).
fn plain_outcome<T: Serialize, S: serde::Serializer>(
    outcome: &Outcome<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    match outcome {
        Ok(answer) => answer.serialize(serializer),
        Err(why) => {
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry("unavailable", why)?;
            map.end()
        }
    }
}

/// All five answers. Serialised (`imr findings --format json`), each answer is its values or
/// `{"unavailable": reason}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Findings {
    #[serde(serialize_with = "plain_outcome")]
    pub rates: Outcome<RatesFinding>,
    #[serde(serialize_with = "plain_outcome")]
    pub inequality: Outcome<InequalityFinding>,
    #[serde(serialize_with = "plain_outcome")]
    pub health_income: Outcome<HealthIncomeFinding>,
    #[serde(serialize_with = "plain_outcome")]
    pub models: Outcome<ModelsFinding>,
    #[serde(serialize_with = "plain_outcome")]
    pub where_highest: Outcome<WhereFinding>,
    /// Rows flagged as implausible and left out of every answer (0 when included).
    pub flagged_left_out: usize,
    /// Rows flagged in the data (left out or not).
    pub flagged_total: usize,
    /// The rows left out as flagged, with their reasons (empty when included): the same rows
    /// `imr inequality` lists in `rows_not_measured` and `imr fit` in `excluded_rows`.
    pub flagged_rows_left_out: Vec<imr_core::plausibility::FlaggedRow>,
    /// Years left out of the trends and the correlation (questions 1–3) as repeats of the
    /// previous year (empty when included); still shown year by year.
    pub repeated_left_out: Vec<imr_core::repeats::RepeatedYear>,
    /// Every year whose values repeat the year before, left out of the trends or included
    /// (`--include-repeated-years`): each chart over the years draws it as a copy either way.
    /// Not in the JSON, which lists the years left out.
    #[serde(skip)]
    pub copied_years: Vec<imr_core::repeats::RepeatedYear>,
    /// Years whose deaths were reconstructed from a published rate ([`imr_core::reconstructed`]):
    /// in every answer like the others, drawn as what they are on each chart over the years.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reconstructed_years: Vec<imr_core::reconstructed::ReconstructedYear>,
    /// The publication lag found in the published rates and not applied ([`imr_core::lag`]):
    /// the rates of year Y fit the births of year Y − lag, so the answers' years are those the
    /// rates were published with, not those they describe ([`Findings::lag_note`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unapplied_rate_lag: Option<imr_core::lag::LagCount>,
    /// The answers are about the bundled dataset.
    pub bundled_data: bool,
    /// The first and last year the answers cover (all the data's years unless a request chose
    /// a span).
    pub span: Option<[i64; 2]>,
    /// The reference study's conclusion set beside these data (Chilean communes covering the
    /// study's years; computed on every year of the data whatever the span).
    pub study: Option<StudyComparison>,
}

/// The five questions, in order, by their test id (`data-question`).
pub const QUESTIONS: [&str; 5] = ["rates", "inequality", "health-income", "models", "where"];

/// The test id of the answer on the reference study, shown before the five when there is one.
pub const STUDY_QUESTION: &str = "study";
