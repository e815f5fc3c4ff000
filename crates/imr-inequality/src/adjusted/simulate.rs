//! Simulation study of the adjusted measures against known true rates (`imr simulate`).
//!
//! Each replicate draws the communes' true rates λ_i ~ Gamma(mean μ, CV c) once (c = 0: all
//! equal), holds them fixed over the scenario's years, and draws deaths y_it ~ Poisson(b_it λ_i)
//! with births b_it = round(b_i · (1 + Δ · t / (T − 1))) (Δ = the relative change of births from
//! the first to the last year). The truth of a year is the measure of the realised true rates
//! weighted by that year's births — exactly what the observed measure would be without noise.
//! Every replicate is analysed by [`crate::InequalitySpec::analyse`] as real data would be.
//!
//! Reproducibility: one ChaCha8 generator seeded with `seed_from_u64(seed)` per scenario.

use crate::adjusted::AdjustedMeasure;
use crate::bootstrap::BootstrapSpec;
use crate::input::{AreaObservation, RateInput, Subject};
use crate::measures::{atkinson_half, coefficient_of_variation, gini_weighted, theil_t};
use crate::report::InequalitySpec;
use crate::year::Measure;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, Poisson};
use serde::Serialize;

/// One scenario of the study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    pub name: String,
    /// Coefficient of variation of the true rates (0: every commune has the same rate).
    pub true_cv: f64,
    /// Mean true rate, per 1,000 births.
    pub mean_rate: f64,
    /// Births per commune in the first year.
    #[serde(skip)]
    pub births: Vec<f64>,
    /// Number of years (1 for a single year).
    pub years: usize,
    /// Relative change of births from the first to the last year (−0.3: 30% fewer).
    pub births_change: f64,
}

/// Results of one measure in one scenario (over replicates and years).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct MeasureSummary {
    pub truth_mean: f64,
    pub observed_mean: f64,
    /// Mean of the bootstrap `bias_corrected` (NaN without bootstrap).
    pub bias_corrected_mean: f64,
    /// Share of the bootstrap `ci` covering the truth (NaN without bootstrap).
    pub bias_corrected_ci_coverage: f64,
    pub adjusted_mean: f64,
    /// Standard deviation of the adjusted values over years × replicates (the Monte Carlo
    /// error of `adjusted_mean` is this / √n).
    pub adjusted_sd: f64,
    /// (mean adjusted − mean truth) / mean truth.
    pub adjusted_relative_bias: f64,
    /// Share of the adjusted intervals covering the truth.
    pub adjusted_coverage: f64,
    /// Years × replicates with an adjusted value.
    pub n: usize,
}

/// Results of one scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioResult {
    pub scenario: Scenario,
    pub replicates: usize,
    pub gini: MeasureSummary,
    pub theil_t: MeasureSummary,
    pub cov: MeasureSummary,
    pub atkinson_0_5: MeasureSummary,
    /// Share of years where the excess-variation test rejects at 5%.
    pub excess_rejects_5pct: f64,
    /// Years with no adjusted measures (too few deaths or areas).
    pub adjusted_unavailable: usize,
    /// With several years: share of panels whose adjusted Gini trend interval covers the true
    /// trend (OLS slope of the yearly true Gini), and share whose observed Gini trend interval
    /// excludes zero.
    pub adjusted_trend_covers_truth: Option<f64>,
    pub adjusted_trend_covers_zero: Option<f64>,
    pub observed_trend_excludes_zero: Option<f64>,
}

#[derive(Default)]
struct Acc {
    truth: f64,
    observed: f64,
    bc: f64,
    bc_cover: usize,
    bc_n: usize,
    adjusted: f64,
    adjusted_sq: f64,
    cover: usize,
    n: usize,
}

impl Acc {
    fn summary(&self) -> MeasureSummary {
        let n = self.n.max(1) as f64;
        let bc_n = self.bc_n as f64;
        let truth_mean = self.truth / n;
        MeasureSummary {
            truth_mean,
            observed_mean: self.observed / n,
            bias_corrected_mean: self.bc / bc_n,
            bias_corrected_ci_coverage: self.bc_cover as f64 / bc_n,
            adjusted_mean: self.adjusted / n,
            adjusted_sd: ((self.adjusted_sq - self.adjusted * self.adjusted / n)
                / (n - 1.0).max(1.0))
            .max(0.0)
            .sqrt(),
            adjusted_relative_bias: (self.adjusted / n - truth_mean) / truth_mean,
            adjusted_coverage: self.cover as f64 / n,
            n: self.n,
        }
    }
}

fn ols_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let tb = points.iter().map(|p| p.0).sum::<f64>() / n;
    let yb = points.iter().map(|p| p.1).sum::<f64>() / n;
    let stt: f64 = points.iter().map(|p| (p.0 - tb).powi(2)).sum();
    points.iter().map(|p| (p.0 - tb) * (p.1 - yb)).sum::<f64>() / stt
}

/// The true measure of rates `lambda` weighted by `births`.
fn truth(measure: AdjustedMeasure, lambda: &[f64], births: &[f64]) -> f64 {
    let (l, b): (Vec<f64>, Vec<f64>) = lambda
        .iter()
        .zip(births)
        .filter(|(_, b)| **b > 0.0)
        .map(|(l, b)| (*l, *b))
        .unzip();
    let total: f64 = b.iter().sum();
    let shares: Vec<f64> = b.iter().map(|x| x / total).collect();
    let r = match measure {
        AdjustedMeasure::Gini => gini_weighted(&l, &shares),
        AdjustedMeasure::TheilT => theil_t(&l, &shares),
        AdjustedMeasure::Cov => coefficient_of_variation(&l, &shares),
        AdjustedMeasure::Atkinson05 => atkinson_half(&l, &shares),
        _ => Ok(f64::NAN),
    };
    r.unwrap_or(f64::NAN)
}

/// Run `replicates` replicates of a scenario; `bootstrap` replicates per year for the existing
/// bias-corrected value and `ci` (0: skip them). Intervals at 95%.
pub fn run(scenario: &Scenario, replicates: usize, bootstrap: usize, seed: u64) -> ScenarioResult {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let measures = [
        AdjustedMeasure::Gini,
        AdjustedMeasure::TheilT,
        AdjustedMeasure::Cov,
        AdjustedMeasure::Atkinson05,
    ];
    let mut acc: [Acc; 4] = Default::default();
    let (mut rejects, mut tested, mut unavailable) = (0usize, 0usize, 0usize);
    let (mut trend_truth, mut trend_zero, mut obs_excl, mut n_trend) = (0, 0, 0, 0);
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: bootstrap,
            seed,
            ..BootstrapSpec::default()
        },
    };
    let n_years = scenario.years.max(1);
    let mu = scenario.mean_rate / 1000.0;
    for _ in 0..replicates {
        let lambda: Vec<f64> = if scenario.true_cv > 0.0 {
            let k = 1.0 / (scenario.true_cv * scenario.true_cv);
            let g = Gamma::new(k, mu / k).expect("positive shape and scale");
            scenario.births.iter().map(|_| g.sample(&mut rng)).collect()
        } else {
            vec![mu; scenario.births.len()]
        };
        let mut observations = Vec::new();
        let mut births_by_year = Vec::new();
        for t in 0..n_years {
            let factor = if n_years > 1 {
                1.0 + scenario.births_change * t as f64 / (n_years - 1) as f64
            } else {
                1.0
            };
            let births: Vec<f64> = scenario
                .births
                .iter()
                .map(|b| (b * factor).round().max(0.0))
                .collect();
            for (i, (&b, &l)) in births.iter().zip(&lambda).enumerate() {
                let mean = b * l;
                let deaths = if mean > 0.0 {
                    Poisson::new(mean).expect("positive mean").sample(&mut rng)
                } else {
                    0.0
                };
                observations.push(AreaObservation::new(
                    format!("{i:05}"),
                    2019 + t as i64,
                    deaths,
                    b,
                ));
            }
            births_by_year.push(births);
        }
        let subject = Subject::Rates(RateInput::per_1000(observations, false));
        let Ok(analysis) = spec.analyse(&subject) else {
            continue;
        };
        let report = &analysis.report;
        let lambda_per_1000: Vec<f64> = lambda.iter().map(|l| l * 1000.0).collect();
        let mut true_gini = Vec::new();
        for (year, births) in report.years.iter().zip(&births_by_year) {
            true_gini.push((
                year.time() as f64,
                truth(AdjustedMeasure::Gini, &lambda_per_1000, births),
            ));
            let Some(Ok(adj)) = &year.adjusted else {
                unavailable += 1;
                continue;
            };
            tested += 1;
            if adj.excess_variation.p_value < 0.05 {
                rejects += 1;
            }
            for (a, &m) in acc.iter_mut().zip(&measures) {
                let truth = truth(m, &lambda_per_1000, births);
                let observed_measure = m.observed().expect("these four have one");
                a.truth += truth;
                a.observed += year.measures.get(observed_measure).unwrap_or(f64::NAN);
                a.adjusted += adj.value(m);
                a.adjusted_sq += adj.value(m).powi(2);
                let [lo, hi] = adj.interval(m);
                if lo - 1e-12 <= truth && truth <= hi + 1e-12 {
                    a.cover += 1;
                }
                a.n += 1;
                if let (Some(bc), Some([lo, hi])) = (
                    year.bias_corrected(observed_measure),
                    year.interval(observed_measure),
                ) {
                    a.bc += bc;
                    a.bc_n += 1;
                    if lo <= truth && truth <= hi {
                        a.bc_cover += 1;
                    }
                }
            }
        }
        if n_years > 1 {
            let true_slope = ols_slope(&true_gini);
            if let Some(t) = report.trend_adjusted_of(AdjustedMeasure::Gini) {
                n_trend += 1;
                if t.ci_low <= true_slope && true_slope <= t.ci_high {
                    trend_truth += 1;
                }
                if t.ci_low <= 0.0 && 0.0 <= t.ci_high {
                    trend_zero += 1;
                }
            }
            if let Some(t) = report.trend_of(Measure::Gini) {
                if let (Some(lo), Some(hi)) = (t.ci_low, t.ci_high) {
                    if lo > 0.0 || hi < 0.0 {
                        obs_excl += 1;
                    }
                }
            }
        }
    }
    let share = |k: usize| (n_trend > 0).then(|| k as f64 / n_trend as f64);
    ScenarioResult {
        scenario: scenario.clone(),
        replicates,
        gini: acc[0].summary(),
        theil_t: acc[1].summary(),
        cov: acc[2].summary(),
        atkinson_0_5: acc[3].summary(),
        excess_rejects_5pct: rejects as f64 / tested.max(1) as f64,
        adjusted_unavailable: unavailable,
        adjusted_trend_covers_truth: share(trend_truth),
        adjusted_trend_covers_zero: share(trend_zero),
        observed_trend_excludes_zero: share(obs_excl),
    }
}

/// The standard grid of the README table, on births `births` (the README: the bundled 2019 births):
/// true CV 0, 0.1, …, 0.6 on the births, on births × 10, on births × ¼ with a mean rate of
/// 3 per 1,000 (zero-heavy years), and 5 years of constant true rates with births falling 30%
/// at CV 0 and 0.3.
pub fn standard_grid(births: &[f64]) -> Vec<Scenario> {
    let scenario =
        |name: &str, cv: f64, mean: f64, scale: f64, years: usize, change: f64| Scenario {
            name: name.to_string(),
            true_cv: cv,
            mean_rate: mean,
            births: births.iter().map(|b| (b * scale).round()).collect(),
            years,
            births_change: change,
        };
    let mut grid = Vec::new();
    for cv in [0.0, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6] {
        grid.push(scenario("births as given", cv, 7.0, 1.0, 1, 0.0));
    }
    for cv in [0.0, 0.15, 0.3, 0.5] {
        grid.push(scenario("births x10", cv, 7.0, 10.0, 1, 0.0));
    }
    for cv in [0.0, 0.3, 0.5] {
        grid.push(scenario(
            "zero-heavy (births x0.25, 3 per 1,000)",
            cv,
            3.0,
            0.25,
            1,
            0.0,
        ));
    }
    for cv in [0.0, 0.3] {
        grid.push(scenario(
            "5 years, births falling 30%",
            cv,
            7.0,
            1.0,
            5,
            -0.3,
        ));
    }
    grid
}
