//! The fitted model: coefficient table, dropped terms, fit statistics, tests and diagnostics.
//!
//! [`Fit`] serialises to the `imr fit --format json` contract (README, "The `imr` command"): `model`, `vcov`,
//! `nobs`, `n_entities`, `n_periods`, `rows_excluded`, `coefficients`, `dropped_terms`,
//! `r2_within`, `r2_between`, `r2_overall`, `sigma2_u`, `sigma2_e`, `theta`, `tests`; then
//! additional keys (`outcome`, `inference`, `vcov_convention`, `diagnostics`, …). A statistic
//! that does not apply to the model is `null`.

use crate::data::ExcludedRow;
use crate::spec::{Estimator, VcovKind};
use nalgebra::{DMatrix, DVector};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// One row of the coefficient table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coefficient {
    /// Regressor name, or `(Intercept)`.
    pub term: String,
    /// Point estimate.
    pub estimate: f64,
    /// Standard error under the fit's covariance convention.
    pub std_error: f64,
    /// `estimate / std_error` (t or z, see [`Inference`]).
    pub statistic: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// Lower end of the confidence interval `estimate − c·std_error`.
    pub conf_low: f64,
    /// Upper end of the confidence interval.
    pub conf_high: f64,
    /// `poisson-fe` only: incidence-rate ratio `exp(estimate)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub irr: Option<f64>,
    /// `poisson-fe` only: `exp(conf_low)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub irr_conf_low: Option<f64>,
    /// `poisson-fe` only: `exp(conf_high)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub irr_conf_high: Option<f64>,
}

/// A requested regressor that the model could not estimate, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedTerm {
    /// The regressor.
    pub term: String,
    /// Why, in words, with what to do instead (rendered per language; English in the JSON).
    pub reason: crate::drop_reason::DropReason,
}

/// An entity left out of the estimation (e.g. all-zero outcome in `poisson-fe`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedEntity {
    /// The entity label.
    pub entity: String,
    /// Why, worded per language (English in the JSON).
    pub reason: crate::EntityDropReason,
}

/// A test with a χ² reference distribution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChiSquaredTest {
    /// The statistic.
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: usize,
    /// Upper-tail p-value.
    pub p_value: f64,
    /// The null hypothesis (JSON: its English text).
    pub hypothesis: crate::Hypothesis,
    /// A caveat, e.g. a covariance difference that is not positive definite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<crate::test_words::TestCaveat>,
}

/// A test with an F reference distribution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FTest {
    /// The statistic.
    pub statistic: f64,
    /// Numerator degrees of freedom.
    pub df1: usize,
    /// Denominator degrees of freedom.
    pub df2: usize,
    /// Upper-tail p-value.
    pub p_value: f64,
    /// The null hypothesis (JSON: its English text).
    pub hypothesis: crate::Hypothesis,
}

/// The specification tests reported with a fit; `None` where a test does not apply.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Tests {
    /// Hausman FE vs RE (fe, re).
    pub hausman: Option<ChiSquaredTest>,
    /// F test that all entity (twfe: entity and period) effects are zero (fe, twfe).
    pub f_effects: Option<FTest>,
    /// Breusch–Pagan LM test for random effects (pooled, re, cre).
    pub breusch_pagan: Option<ChiSquaredTest>,
    /// Mundlak test: the coefficients on the entity means are zero (cre), under the fit's
    /// covariance — a Hausman test robust to the chosen covariance.
    pub mundlak: Option<ChiSquaredTest>,
}

/// The reference distribution of the coefficient tests and intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inference {
    /// `"t"` or `"z"`.
    pub distribution: String,
    /// Degrees of freedom of t (G − 1 under clustering, N − K otherwise); `null` for z.
    pub df: Option<usize>,
    /// Confidence level of the intervals.
    pub conf_level: f64,
}

/// Minimum, median and maximum of the entity-specific θ_i of an unbalanced `re`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThetaSummary {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

/// A fitted panel model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    /// The estimator.
    pub model: Estimator,
    /// The covariance convention.
    pub vcov: VcovKind,
    /// Observations used (for `fd`: differences; for `be`: rows behind the entity means).
    pub nobs: usize,
    /// Entities used.
    pub n_entities: usize,
    /// Distinct periods among the rows used.
    pub n_periods: usize,
    /// Input rows not used (each listed in `excluded_rows`).
    pub rows_excluded: usize,
    /// The coefficient table.
    pub coefficients: Vec<Coefficient>,
    /// Requested regressors that could not be estimated, with the reason.
    pub dropped_terms: Vec<DroppedTerm>,
    /// Within R², `corr²((x_it − x̄_i)ᵀβ, y_it − ȳ_i)` (Stata `xtreg` definition).
    pub r2_within: Option<f64>,
    /// Between R², `corr²(x̄_iᵀβ, ȳ_i)` over entities.
    pub r2_between: Option<f64>,
    /// Overall R², `corr²(x_itᵀβ, y_it)`.
    pub r2_overall: Option<f64>,
    /// Variance of the entity effects (re, cre).
    pub sigma2_u: Option<f64>,
    /// Variance of the idiosyncratic error (fe, twfe, re, cre).
    pub sigma2_e: Option<f64>,
    /// Quasi-demeaning factor θ = 1 − √(σ²_e/(Tσ²_u + σ²_e)) (re, cre; balanced panels).
    pub theta: Option<f64>,
    /// Specification tests.
    pub tests: Tests,
    /// The outcome column.
    pub outcome: String,
    /// The regressors requested, in order (before any were dropped).
    pub regressors: Vec<String>,
    /// Weights column, if the fit is weighted.
    pub weights: Option<String>,
    /// Exposure column (`poisson-fe`).
    pub exposure: Option<String>,
    /// t or z, and the degrees of freedom.
    pub inference: Inference,
    /// The covariance convention, in words in either language (English in the JSON).
    pub vcov_convention: crate::convention::Convention,
    /// θ_i range for unbalanced `re`/`cre`.
    pub theta_summary: Option<ThetaSummary>,
    /// Plain-language remarks about the data and the fit (rendered per language; English in
    /// the JSON).
    pub diagnostics: Vec<crate::Diagnostic>,
    /// Every input row not used, with the reason.
    pub excluded_rows: Vec<ExcludedRow>,
    /// Entities not used, with the reason.
    pub dropped_entities: Vec<DroppedEntity>,
    /// Absorbed fixed effects (`imr fit --fe`) with their levels; absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixed_effects: Vec<crate::AbsorbedEffect>,
    /// Rows removed as singletons of an absorbed fixed effect (`--fe`; each also listed in
    /// `excluded_rows`); absent without `--fe`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub singletons_removed: Option<usize>,
    /// Covariance matrix of the coefficients, in table order (not serialised).
    #[serde(skip)]
    pub covariance: Vec<Vec<f64>>,
}

impl Fit {
    /// The coefficient of a term.
    pub fn coefficient(&self, term: &str) -> Option<&Coefficient> {
        self.coefficients.iter().find(|c| c.term == term)
    }

    /// The JSON of the `imr fit --format json` contract.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a Fit always serialises")
    }
}

/// Critical value and p-values of the reference distribution.
pub(crate) enum Reference {
    T(f64),
    Z,
}

impl Reference {
    /// The reference distribution of `estimator`'s Wald statistics, and the t degrees of
    /// freedom the fit reports: normal when [`Estimator::uses_z`] (no degrees of freedom),
    /// else Student's t with `df`. The one place that decides z or t; every estimator's
    /// covariance goes through it.
    pub fn of(estimator: Estimator, df: usize) -> (Reference, Option<usize>) {
        if estimator.uses_z() {
            (Reference::Z, None)
        } else {
            (Reference::T(df as f64), Some(df))
        }
    }

    pub fn p_value(&self, statistic: f64) -> f64 {
        if !statistic.is_finite() {
            return f64::NAN;
        }
        match self {
            Reference::T(df) => {
                let t = StudentsT::new(0.0, 1.0, *df).expect("df > 0 checked by the caller");
                2.0 * t.sf(statistic.abs())
            }
            Reference::Z => {
                let z = Normal::new(0.0, 1.0).expect("standard normal");
                2.0 * z.sf(statistic.abs())
            }
        }
    }

    pub fn critical(&self, conf_level: f64) -> f64 {
        let q = 0.5 + conf_level / 2.0;
        match self {
            Reference::T(df) => StudentsT::new(0.0, 1.0, *df)
                .expect("df > 0 checked by the caller")
                .inverse_cdf(q),
            Reference::Z => Normal::new(0.0, 1.0)
                .expect("standard normal")
                .inverse_cdf(q),
        }
    }
}

/// Builds the coefficient table from estimates and their covariance.
pub(crate) fn coefficient_table(
    terms: &[String],
    beta: &DVector<f64>,
    vcov: &DMatrix<f64>,
    reference: &Reference,
    conf_level: f64,
) -> Vec<Coefficient> {
    let critical = reference.critical(conf_level);
    terms
        .iter()
        .enumerate()
        .map(|(i, term)| {
            let estimate = beta[i];
            let std_error = vcov[(i, i)].max(0.0).sqrt();
            let statistic = estimate / std_error;
            Coefficient {
                term: term.clone(),
                estimate,
                std_error,
                statistic,
                p_value: reference.p_value(statistic),
                conf_low: estimate - critical * std_error,
                conf_high: estimate + critical * std_error,
                irr: None,
                irr_conf_low: None,
                irr_conf_high: None,
            }
        })
        .collect()
}
