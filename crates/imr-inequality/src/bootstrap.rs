//! Bootstrap percentile intervals for every measure of a year.
//!
//! # Method
//! * Rates ([`BootstrapMethod::PoissonDeaths`], parametric): births b_i are held fixed and each
//!   area's deaths are redrawn as d*_i ~ Poisson(d_i) = Poisson(b_i r_i / 1000); the replicate's
//!   rates are r*_i = 1000 d*_i / b_i. An area with 0 observed deaths has a Poisson mean of 0 and
//!   stays at 0 in every replicate (a known limit of the parametric bootstrap at the observed
//!   rate: it understates the uncertainty of small areas with no deaths). When deaths were derived
//!   from published rates they may be non-integer, and the intervals are approximate.
//! * A weighted value column ([`BootstrapMethod::ResampleAreas`], nonparametric): a Poisson
//!   redraw has no meaning for, say, health income per capita, so the n areas of the year are
//!   resampled with replacement (each carries its value, weight, group and rank).
//!
//! Each of the B replicates is measured exactly as the observed data; the interval at level
//! 1 − α is the type-7 α/2 and 1 − α/2 quantiles of the B replicate values (the percentile
//! interval). A measure gets no interval when it is not defined in some replicate (e.g. the mean
//! log deviation when a redraw gives an area 0 deaths): the defined replicates alone would be a
//! biased sample.
//!
//! Reproducibility: one ChaCha8 generator seeded with `ChaCha8Rng::seed_from_u64(seed)` and set
//! to stream = the year, so a year's interval depends only on (seed, that year's areas) and not
//! on the other years nor on the input order (areas are sorted by entity first). Identical bit for
//! bit on the same platform; the browser (wasm32) and a native build use different `ln`/`exp`
//! implementations, which can in rare replicates change a Poisson draw.
//!
//! Reference: Efron, B. & Tibshirani, R. J. (1993) *An Introduction to the Bootstrap*, Chapman &
//! Hall: ch. 6 (parametric and nonparametric bootstrap), ch. 13 (percentile intervals).

use crate::error::InequalityError;
use crate::input::YearAreas;
use crate::year::{compute_year, Measure, SubjectKind, YearData, YearMeasures};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Poisson};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How replicates are drawn; chosen by the subject (rates → Poisson, values → resampling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BootstrapMethod {
    PoissonDeaths,
    ResampleAreas,
}

/// Bootstrap settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BootstrapSpec {
    /// Number of replicates B (0: no intervals).
    pub replicates: usize,
    /// Seed of the generator.
    pub seed: u64,
    /// Confidence level 1 − α, e.g. 0.95.
    pub level: f64,
}

/// Default number of replicates (`--bootstrap`).
pub const DEFAULT_REPLICATES: usize = 1000;
/// Default seed (`--seed`).
pub const DEFAULT_SEED: u64 = 20_240_601;

impl Default for BootstrapSpec {
    fn default() -> Self {
        BootstrapSpec {
            replicates: DEFAULT_REPLICATES,
            seed: DEFAULT_SEED,
            level: 0.95,
        }
    }
}

/// Percentile intervals of one year.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct YearIntervals {
    pub intervals: BTreeMap<Measure, [f64; 2]>,
    /// Measures that have a value but no interval, and why.
    pub not_available: BTreeMap<Measure, String>,
}

/// Bootstrap intervals of every measure that has a value in `observed`.
pub(crate) fn bootstrap_year(
    areas: &YearAreas,
    kind: SubjectKind,
    per: f64,
    spec: &BootstrapSpec,
    observed: &YearMeasures,
) -> Result<YearIntervals, InequalityError> {
    let mut out = YearIntervals::default();
    if spec.replicates == 0 || areas.values.is_empty() {
        return Ok(out);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    rng.set_stream(areas.time as u64);
    let wanted: Vec<Measure> = Measure::ALL
        .into_iter()
        .filter(|m| m.has_interval() && observed.get(*m).is_some())
        .collect();
    let mut draws: BTreeMap<Measure, Vec<f64>> = wanted
        .iter()
        .map(|m| (*m, Vec::with_capacity(spec.replicates)))
        .collect();
    let mut missing: BTreeMap<Measure, usize> = BTreeMap::new();
    let n = areas.values.len();
    match (kind, &areas.events) {
        (SubjectKind::Rate, Some(events)) => {
            let mut poissons = Vec::with_capacity(n);
            for (i, &d) in events.iter().enumerate() {
                poissons.push(if d > 0.0 {
                    Some(Poisson::new(d).map_err(|_| InequalityError::InvalidNumber {
                        entity: areas.entities[i].clone(),
                        time: areas.time,
                        field: "deaths",
                        found: d,
                    })?)
                } else {
                    None
                });
            }
            let mut values = vec![0.0; n];
            for _ in 0..spec.replicates {
                for i in 0..n {
                    let d: f64 = match &poissons[i] {
                        Some(dist) => dist.sample(&mut rng),
                        None => 0.0,
                    };
                    values[i] = per * d / areas.weights[i];
                }
                let data = YearData {
                    time: areas.time,
                    kind,
                    values: &values,
                    weights: &areas.weights,
                    groups: areas.groups.as_deref(),
                    ranks: areas.ranks.as_deref(),
                };
                collect(&compute_year(&data), &wanted, &mut draws, &mut missing);
            }
        }
        _ => {
            let mut values = vec![0.0; n];
            let mut weights = vec![0.0; n];
            let mut groups = areas.groups.as_ref().map(|_| vec![0usize; n]);
            let mut ranks = areas.ranks.as_ref().map(|_| vec![0.0; n]);
            for _ in 0..spec.replicates {
                for k in 0..n {
                    let i = rng.random_range(0..n as u32) as usize;
                    values[k] = areas.values[i];
                    weights[k] = areas.weights[i];
                    if let (Some(g), Some(src)) = (groups.as_mut(), areas.groups.as_ref()) {
                        g[k] = src[i];
                    }
                    if let (Some(r), Some(src)) = (ranks.as_mut(), areas.ranks.as_ref()) {
                        r[k] = src[i];
                    }
                }
                let data = YearData {
                    time: areas.time,
                    kind,
                    values: &values,
                    weights: &weights,
                    groups: groups.as_deref(),
                    ranks: ranks.as_deref(),
                };
                collect(&compute_year(&data), &wanted, &mut draws, &mut missing);
            }
        }
    }
    let alpha = 1.0 - spec.level;
    for (m, mut xs) in draws {
        if let Some(&k) = missing.get(&m) {
            out.not_available.insert(
                m,
                format!(
                    "not defined in {k} of {} bootstrap replicates, so no interval is given",
                    spec.replicates
                ),
            );
            continue;
        }
        xs.sort_by(f64::total_cmp);
        let low = imr_stats::quantile_type7(&xs, alpha / 2.0).expect("non-empty");
        let high = imr_stats::quantile_type7(&xs, 1.0 - alpha / 2.0).expect("non-empty");
        out.intervals.insert(m, [low, high]);
    }
    Ok(out)
}

fn collect(
    replicate: &YearMeasures,
    wanted: &[Measure],
    draws: &mut BTreeMap<Measure, Vec<f64>>,
    missing: &mut BTreeMap<Measure, usize>,
) {
    for m in wanted {
        match replicate.get(*m) {
            Some(x) => draws.get_mut(m).expect("wanted measure").push(x),
            None => *missing.entry(*m).or_insert(0) += 1,
        }
    }
}
