//! Computing the five answers from a panel, with the engines the detailed views use.

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
    let repeated = if options.include_repeated_years {
        Vec::new()
    } else {
        repeated_years(panel)
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
            other_columns: in_span.numeric_names.clone(),
        }),
    };
    let mut regressors = options.regressors.clone();
    regressors.insert(
        regressors.len().min(1),
        health_column
            .clone()
            .unwrap_or_else(|| options.health_income_columns[0].clone()),
    );
    let times = in_span.times();
    Findings {
        rates: rates_found,
        inequality: inequality_found,
        health_income,
        models: models(in_span, &regressors),
        where_highest: where_highest(in_span, options.top_communes),
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

/// Question 3: Gini of health income per capita per year (weighted by births, no bootstrap:
/// only the yearly values enter the correlation) correlated with the IMR inequality series.
fn health_income(
    panel: &Panel,
    column: &str,
    imr: &InequalitySeries,
) -> Outcome<HealthIncomeFinding> {
    let values = panel
        .numeric_column(column)
        .ok_or_else(|| Unavailable::MissingColumn {
            column: column.into(),
        })?;
    let weights = panel.numeric_column("births").ok_or(Unavailable::NoRates)?;
    let rows = panel.inequality_rows();
    let (subject, _) = subject_from_rows(
        &rows,
        SubjectColumns::Values {
            values: Column {
                name: column,
                cells: &values,
            },
            weights: Column {
                name: "births",
                cells: &weights,
            },
        },
        None,
        None,
    )
    .map_err(|e| Unavailable::Engine {
        message: e.to_string(),
    })?;
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 0,
            ..BootstrapSpec::default()
        },
    };
    let analysis = spec.analyse(&subject).map_err(|e| Unavailable::Engine {
        message: e.to_string(),
    })?;
    // The years the IMR series leaves out of its trend (repeats) leave the correlation too.
    let kept = |t: i64| !imr.left_out_of_trend.contains(&t);
    let income_gini: Vec<(i64, f64)> = analysis
        .report
        .series(Measure::Gini)
        .iter()
        .filter(|p| kept(p.time))
        .map(|p| (p.time, p.value))
        .collect();
    let imr_inequality: Vec<(i64, f64)> = imr
        .years
        .iter()
        .filter(|y| kept(y.time))
        .map(|y| (y.time, y.value))
        .collect();
    let mut correlation = correlate(&imr_inequality, &income_gini, 0.95);
    // With the adjusted series, the Pearson interval carries each year's own uncertainty (the
    // Inequality view's and `imr inequality --against`'s method: Monte Carlo draws of each
    // year's adjusted value from its interval, composed with Fisher z; JCGM 101:2008), not the
    // yearly values taken as exact.
    if imr.kind == crate::SeriesKind::Adjusted {
        let with_intervals: Vec<(i64, f64, [f64; 2])> = imr
            .years
            .iter()
            .filter(|y| kept(y.time))
            .filter_map(|y| y.ci.map(|ci| (y.time, y.value, ci)))
            .collect();
        if let Some(adjusted) = correlate_adjusted(
            &with_intervals,
            &income_gini,
            &[],
            0.95,
            CORRELATION_DRAWS,
            DEFAULT_SEED,
        ) {
            correlation.pearson = Some(adjusted.r);
            correlation.pearson_ci = Some([adjusted.ci_low, adjusted.ci_high]);
        }
    }
    Ok(HealthIncomeFinding {
        column: column.into(),
        correlation,
        income_gini,
        imr_inequality,
    })
}

/// Fits one linear estimator of the rate on `regressors`, clustered by commune (the Models
/// view's default standard errors).
fn fit(
    panel: &Panel,
    estimator: Estimator,
    regressors: &[String],
) -> Result<imr_core::models::Fit, String> {
    let data = panel
        .model_data(&ModelColumns::new("rate", regressors.to_vec()))
        .map_err(|e| e.to_string())?;
    PanelSpec::new(estimator)
        .with_vcov(VcovKind::Cluster)
        .fit(&data)
        .map_err(|e| e.to_string())
}

/// Question 4: the Models view's first default model, fixed effects (within communes,
/// clustered CR1 standard errors), for what it estimates; the regressors it drops as constant
/// within communes from its second default model, random effects (Swamy–Arora).
fn models(panel: &Panel, wanted: &[(String, f64)]) -> Outcome<ModelsFinding> {
    if !panel.has_rates() {
        return Err(Unavailable::NoRates);
    }
    type Wanted<'a> = Vec<&'a (String, f64)>;
    let (present, missing): (Wanted, Wanted) = wanted
        .iter()
        .partition(|(c, _)| panel.numeric_names.iter().any(|n| n == c));
    if present.is_empty() {
        return Err(Unavailable::MissingColumns {
            columns: wanted.iter().map(|(c, _)| c.clone()).collect(),
            other_columns: panel.numeric_names.clone(),
        });
    }
    let names: Vec<String> = present.iter().map(|(c, _)| c.clone()).collect();
    let engine = |message: String| Unavailable::Engine { message };
    let fe = fit(panel, Estimator::Fe, &names).map_err(engine)?;
    let re = fit(panel, Estimator::Re, &names).map_err(engine)?;
    let mut terms = Vec::new();
    let mut time_invariant = Vec::new();
    let mut random_effects = Vec::new();
    for (column, per) in present {
        let from = |f: &imr_core::models::Fit| {
            f.coefficients
                .iter()
                .find(|c| &c.term == column)
                .map(|c| ModelTerm {
                    column: column.clone(),
                    per: *per,
                    estimate: c.estimate * per,
                    ci: [c.conf_low * per, c.conf_high * per],
                    estimator: f.model,
                })
        };
        match from(&fe) {
            Some(t) => terms.push(t),
            None => {
                time_invariant.push(column.clone());
                if let Some(t) = from(&re) {
                    terms.push(t);
                }
            }
        }
        random_effects.extend(from(&re));
    }
    Ok(ModelsFinding {
        outcome: "rate".into(),
        terms,
        random_effects,
        hausman_p: fe.tests.hausman.as_ref().map(|h| h.p_value),
        random_effects_pooled: re.sigma2_u.is_some_and(|s| s <= 0.0),
        time_invariant,
        missing: missing.iter().map(|(c, _)| c.clone()).collect(),
        nobs: fe.nobs,
        n_entities: fe.n_entities,
    })
}

/// The 95% interval of the gamma posterior behind a global empirical-Bayes rate, per 1,000
/// (the map's, where its formula and reference are).
pub use imr_core::map::uncertainty::eb_posterior_interval;

/// Question 5: deaths and births of each commune summed over the years, smoothed by global
/// empirical Bayes (the map engine's [`global_eb`]), with posterior intervals; the communes whose
/// whole interval lies above the national rate, highest first (at most `top`, more when the last
/// one ties with others).
fn where_highest(panel: &Panel, top: usize) -> Outcome<WhereFinding> {
    if !panel.has_rates() {
        return Err(Unavailable::NoRates);
    }
    let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for r in panel.rows() {
        if let (Some(b), Some(d)) = (r.births, r.deaths) {
            let e = sums.entry(r.entity).or_default();
            e.0 += d;
            e.1 += b;
        }
    }
    let entities: Vec<&str> = sums.keys().copied().collect();
    let deaths: Vec<Option<f64>> = sums.values().map(|v| Some(v.0)).collect();
    let births: Vec<Option<f64>> = sums.values().map(|v| Some(v.1)).collect();
    let eb = global_eb(&deaths, &births).map_err(|e| Unavailable::Engine {
        message: e.to_string(),
    })?;
    let theta = eb.prior_rate / 1000.0;
    let names = imr_core::ingest::codes::CutCodes::embedded();
    let mut communes: Vec<CommuneRate> = entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (d, b) = (deaths[i]?, births[i]?);
            let smoothed = eb.rates[i]?;
            Some(CommuneRate {
                entity: (*e).to_owned(),
                name: panel
                    .chile_codes
                    .then(|| names.commune(e).map(|c| c.name.clone()))
                    .flatten(),
                smoothed_per_1000: smoothed,
                ci: eb_posterior_interval(theta, eb.prior_variance, d, b),
                raw_per_1000: 1000.0 * d / b,
                births: b,
            })
        })
        .collect();
    let n_communes = communes.len();
    // Only the communes whose whole interval lies above the national rate are named: a sentence
    // about "the highest rates" names no commune that chance alone could put there.
    communes.retain(|c| c.ci.is_some_and(|[lo, _]| lo > eb.prior_rate));
    let n_above_national = communes.len();
    communes.sort_by(|a, b| {
        b.smoothed_per_1000
            .total_cmp(&a.smoothed_per_1000)
            .then(a.entity.cmp(&b.entity))
    });
    // Never cut inside a tie: every commune equal to the last one named is named too.
    let keep = match communes.get(top.saturating_sub(1)) {
        Some(last) if top > 0 => {
            let cut = last.smoothed_per_1000;
            communes
                .iter()
                .take_while(|c| c.smoothed_per_1000 >= cut)
                .count()
        }
        _ => communes.len().min(top),
    };
    communes.truncate(keep);
    let times = panel.times();
    Ok(WhereFinding {
        whole_country: whole_country(panel),
        first_time: times.first().copied().unwrap_or_default(),
        last_time: times.last().copied().unwrap_or_default(),
        national_per_1000: eb.prior_rate,
        top: communes,
        n_above_national,
        n_communes,
    })
}
