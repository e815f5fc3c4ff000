//! Computing the five answers from a panel, with the engines the detailed views use.

mod health;
mod models;
mod place;

use health::health_income;
use models::models;
use place::where_highest;

use crate::inequality::{InequalitySeries, InequalitySource, ObservedGini};
use crate::study::StudyComparison;
use crate::year_span::YearSpan;
use crate::{
    CommuneRate, Findings, HealthIncomeFinding, InequalityFinding, ModelTerm, ModelsFinding,
    Outcome, RatesFinding, Unavailable, WhereFinding, YearRate,
};
use imr_core::inequality::adjusted::{correlate_adjusted, CORRELATION_DRAWS};
use imr_core::inequality::panel_input::{subject_from_rows, Column, SubjectColumns};
use imr_core::inequality::{
    correlate, linear_trend, BootstrapSpec, InequalitySpec, Measure, RepeatedYear, DEFAULT_SEED,
};
use imr_core::map::smoothing::global_eb;
use imr_core::models::{Estimator, ModelColumns, PanelSpec, VcovKind};
use imr_core::panel::Panel;
use imr_core::plausibility::Plausibility;
use imr_core::rates::RateTable;
use imr_core::repeats::repeated_years;
use imr_core::stats::quantile::quantile_type7;
use std::collections::BTreeMap;

/// Settings of the answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Include the rows flagged as implausible ([`Plausibility`]); by default they are left out.
    pub include_flagged: bool,
    /// Keep the years that repeat the previous year ([`imr_core::repeats`]) in the trends and
    /// the correlation; by default they are left out of those (and still shown per year).
    pub include_repeated_years: bool,
    /// The input is the bundled dataset (see [`FindingsRequest::bundled_data`]): the inequality
    /// answer then says what its births are and what that means ([`bundled_births_note`]).
    ///
    /// [`FindingsRequest::bundled_data`]: crate::FindingsRequest::bundled_data
    /// [`bundled_births_note`]: crate::bundled_births_note
    pub bundled_data: bool,
    /// Columns of municipal health money per inhabitant (question 3 and a regressor of question
    /// 4), each with the change a model sentence is about: the one with the most years in common
    /// with the inequality of infant mortality is used (the bundled data have health spending
    /// for 2006–2012 and health income for 2019–2021, two measures kept apart).
    pub health_income_columns: Vec<(String, f64)>,
    /// The other regressors of question 4 with the change each sentence is about, in the
    /// column's unit: the study's covariates (`imr_core::data::study`), the Models view's
    /// defaults.
    pub regressors: Vec<(String, f64)>,
    /// Communes listed in question 5 at most (only those whose interval lies above the national
    /// rate are named).
    pub top_communes: usize,
    /// The years the five answers cover (`None`: all).
    pub span: Option<YearSpan>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            include_flagged: false,
            include_repeated_years: false,
            bundled_data: false,
            health_income_columns: study_covariates(true),
            regressors: study_covariates(false),
            top_communes: 5,
            span: None,
        }
    }
}

/// The study's covariates (`imr_core::data::study::STUDY_COVARIATES`) that are health money, or
/// the others, each with the change a sentence is about.
fn study_covariates(health_money: bool) -> Vec<(String, f64)> {
    (imr_core::data::study::STUDY_COVARIATES.iter())
        .filter(|c| c.health_money == health_money)
        .map(|c| (c.column.to_owned(), c.per))
        .collect()
}

/// All five answers on `panel` (flagged rows left out unless `options.include_flagged`), on the
/// years of `options.span`, and the answer on the reference study from every year.
pub fn compute(panel: &Panel, options: &Options, inequality: &dyn InequalitySource) -> Findings {
    let flags = Plausibility::check(panel);
    // Found on the data as loaded, flagged rows included: a copied year is a property of the
    // source, the same whichever rows an answer uses.
    // Every copy is drawn as one; only those not included are left out of the trends.
    let copied = repeated_years(panel);
    let repeated = if options.include_repeated_years {
        Vec::new()
    } else {
        copied.clone()
    };
    let for_trends = imr_core::repeats::for_trends(&repeated);
    let kept;
    let used: &Panel = if options.include_flagged || flags.is_empty() {
        panel
    } else {
        kept = flags.without_flagged(panel);
        &kept
    };
    // Every year: the study's comparison reads them all; the span's answers are cut from them
    // (the inequality of each year does not depend on the others).
    let all_rates = rates(used, &for_trends);
    let all_inequality: Outcome<InequalityFinding> = if used.has_rates() {
        inequality
            .series(used, &for_trends)
            .map_err(|message| Unavailable::Engine { message })
            .map(|series| InequalityFinding {
                series,
                observed: ObservedGini.series(used, &for_trends).ok(),
            })
    } else {
        Err(Unavailable::NoRates)
    };
    let study = match (&all_rates, &all_inequality) {
        (Ok(r), Ok(i)) if used.chile_codes => StudyComparison::of(r, i),
        _ => None,
    };
    let spanned;
    let (in_span, rates_found, inequality_found) = match options.span {
        None => (used, all_rates, all_inequality),
        Some(span) => {
            spanned = used.filtered(|r| span.contains(r.time));
            let found = all_inequality.map(|f| InequalityFinding {
                series: f.series.within(span.first, span.last),
                observed: f.observed.map(|o| o.within(span.first, span.last)),
            });
            (&spanned, rates(&spanned, &for_trends), found)
        }
    };
    let health_column = health_column(in_span, &options.health_income_columns, &inequality_found);
    let health_income = match (&inequality_found, &health_column) {
        (Ok(f), Some((column, _))) => health_income(in_span, column, &f.series),
        (Err(e), _) => Err(e.clone()),
        (Ok(_), None) => Err(Unavailable::MissingColumns {
            columns: options
                .health_income_columns
                .iter()
                .map(|(c, _)| c.clone())
                .collect(),
            // not a column question 4 already uses as a covariate of the study (her "Pobreza
            // (%)" was offered here beside the answer that used it)
            other_columns: (in_span.numeric_names.iter())
                .filter(|n| {
                    !(options.regressors.iter()).any(|(c, _)| {
                        imr_core::data::study::column_for(c, std::slice::from_ref(n)).is_some()
                    })
                })
                .cloned()
                .collect(),
        }),
    };
    // The health money the data have; without any, every candidate is named as missing (the
    // answer asked for the income alone after an upload, while on the bundled data it answers
    // with the spending).
    let mut regressors = options.regressors.clone();
    let at = regressors.len().min(1);
    match &health_column {
        Some(column) => regressors.insert(at, column.clone()),
        None => {
            let candidates = options.health_income_columns.iter().cloned();
            regressors.splice(at..at, candidates);
        }
    }
    // A copied year is not a second observation of the communes: the pooled rates of
    // question 5 and the panel models leave out the copies not included, as the trends do (a
    // copy of 2019 as 2020 made a commune "clearly above" the reference; issue 42 re-run).
    let without_copies;
    let pooled: &Panel = if repeated.is_empty() {
        in_span
    } else {
        without_copies = in_span.filtered(|r| !repeated.iter().any(|y| y.time == r.time));
        &without_copies
    };
    let times = in_span.times();
    Findings {
        rates: rates_found,
        inequality: inequality_found,
        health_income,
        models: models(pooled, &regressors),
        where_highest: where_highest(pooled, options.top_communes),
        flagged_left_out: if options.include_flagged {
            0
        } else {
            flags.len()
        },
        flagged_total: flags.len(),
        bundled_data: options.bundled_data,
        flagged_rows_left_out: if options.include_flagged {
            Vec::new()
        } else {
            flags.flagged.clone()
        },
        repeated_left_out: repeated,
        copied_years: copied,
        reconstructed_years: imr_core::reconstructed::reconstructed_years(panel),
        unapplied_rate_lag: unapplied_rate_lag(panel),
        span: times.first().zip(times.last()).map(|(a, b)| [*a, *b]),
        study,
    }
}

/// The lag the published rates were found to have ([`imr_core::lag::detect`], in the ingest
/// report) when it is not zero and no file had it applied (`--rate-lag`, the Data view's "use
/// the lag found"): the answers then read each rate in the year it was published with.
fn unapplied_rate_lag(panel: &Panel) -> Option<imr_core::lag::LagCount> {
    let report = panel.report.rate_lag.as_ref()?;
    let applied = panel.report.files.iter().any(|f| f.rate_lag.is_some());
    match &report.verdict {
        imr_core::lag::LagVerdict::Describes { lag, .. } if lag.lag > 0 && !applied => Some(*lag),
        _ => None,
    }
}

/// Whether the panel is the whole country: Chile's communes, at least
/// [`crate::WHOLE_COUNTRY_COMMUNES`] of them. The pooled rate is then called national (on every
/// view: the Data view's table says the same as the Findings).
pub fn whole_country(panel: &Panel) -> bool {
    panel.chile_codes && panel.entities().len() >= crate::WHOLE_COUNTRY_COMMUNES
}

/// The health-money column of `candidates` with values in the most years that also have a
/// value of infant-mortality inequality (the first on a tie); `None` when the data have none.
fn health_column(
    panel: &Panel,
    candidates: &[(String, f64)],
    inequality: &Outcome<InequalityFinding>,
) -> Option<(String, f64)> {
    let imr_years: std::collections::BTreeSet<i64> = match inequality {
        Ok(f) => f.series.years.iter().map(|y| y.time).collect(),
        Err(_) => panel.times().into_iter().collect(),
    };
    candidates
        .iter()
        .filter_map(|(column, per)| {
            let values = panel.numeric_column(column)?;
            let years: std::collections::BTreeSet<i64> = panel
                .rows()
                .zip(values)
                .filter(|(r, v)| v.is_some() && imr_years.contains(&r.time))
                .map(|(r, _)| r.time)
                .collect();
            Some((years.len(), column, per))
        })
        .filter(|(n, _, _)| *n > 0)
        // The most years; on a tie the earlier candidate (max_by keeps the last maximum).
        .rev()
        .max_by_key(|(n, _, _)| *n)
        .map(|(_, column, per)| (column.clone(), *per))
}

/// Question 1 from the rate table: pooled rate with its exact interval, median commune rate,
/// and the OLS trend of the pooled rate (without the years of `repeated`).
fn rates(panel: &Panel, repeated: &[RepeatedYear]) -> Outcome<RatesFinding> {
    let table = RateTable::from_panel(panel).map_err(|_| Unavailable::NoRates)?;
    let mut by_year: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for r in &table.rows {
        if let Some(rate) = r.estimate.rate {
            by_year.entry(r.time).or_default().push(rate);
        }
    }
    let years: Vec<YearRate> = table
        .national
        .iter()
        .map(|n| {
            let median = by_year.get_mut(&n.time).and_then(|v| {
                v.sort_by(f64::total_cmp);
                quantile_type7(v, 0.5)
            });
            YearRate {
                time: n.time,
                pooled_per_1000: n.estimate.rate,
                pooled_ci: n
                    .estimate
                    .ci_low
                    .zip(n.estimate.ci_high)
                    .map(|(a, b)| [a, b]),
                median_per_1000: median,
                n_areas: n.n_areas,
            }
        })
        .collect();
    let in_trend = |y: &&YearRate| !repeated.iter().any(|r| r.time == y.time);
    let points: Vec<(i64, f64)> = years
        .iter()
        .filter(in_trend)
        .filter_map(|y| y.pooled_per_1000.map(|r| (y.time, r)))
        .collect();
    let medians: Vec<(i64, f64)> = years
        .iter()
        .filter(in_trend)
        .filter_map(|y| y.median_per_1000.map(|m| (y.time, m)))
        .collect();
    Ok(RatesFinding {
        whole_country: whole_country(panel),
        trend: linear_trend(&points, 0.95),
        median_trend: linear_trend(&medians, 0.95),
        years,
        approximate: table.approximate_intervals,
    })
}

/// The 95% interval of the gamma posterior behind a global empirical-Bayes rate, per 1,000
/// (the map's, where its formula and reference are).
pub use imr_core::map::uncertainty::eb_posterior_interval;
