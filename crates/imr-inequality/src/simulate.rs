//! Simulation study of the adjusted measures against known true rates (`imr simulate`).
//!
//! Each replicate draws the communes' true rates λ_i ~ Gamma(mean μ, CV c) once (c = 0: all
//! equal), holds them fixed over the scenario's years, and draws deaths y_it ~ Poisson(b_it λ_i)
//! with births b_it = round(b_i · (1 + Δ · t / (T − 1))) (Δ = the relative change of births from
//! the first to the last year). The truth of a year is the measure of the realised true rates
//! weighted by that year's births — exactly what the observed measure would be without noise.
//! Every replicate is analysed by [`crate::InequalitySpec::analyse`] as real data would be.
//!
//! The inputs scenarios ([`inputs_grid`]) add what the bundled data do to the counts: the births
//! given are a proxy P_i with true births B_i = round(c_t P_i) (c_t from `births_ratio[0]` in
//! the first year to `births_ratio[1]` in the last), deaths are drawn on the true births,
//! y_it ~ Poisson(B_it λ_i), the rate 1000 y / B is published rounded to `rounding_step`, and the
//! deaths are derived back on the proxy, d = rate · P / 1000, and analysed as derived deaths
//! (with the sensitivity range, [`crate::adjusted::sensitivity`]). The truth is then weighted by
//! the true births. The true rates may also be a two-point mixture instead of a gamma
//! distribution ([`TrueRates`]), to see what the gamma assumption does to each measure.
//!
//! Reproducibility: one ChaCha8 generator seeded with `seed_from_u64(seed)` per scenario.

use crate::adjusted::AdjustedMeasure;
use crate::bootstrap::BootstrapSpec;
use crate::input::{AreaObservation, RateInput, Subject};
use crate::measures::{atkinson_half, coefficient_of_variation, gini_weighted, theil_t};
use crate::report::InequalitySpec;
use crate::year::Measure;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, Poisson};
use serde::Serialize;

/// The distribution of the communes' true rates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TrueRates {
    /// Gamma with the scenario's mean and `true_cv` (all equal at CV 0).
    #[default]
    Gamma,
    /// A share `share` of the communes (drawn at random) at `ratio` times the rate of the rest,
    /// scaled to the scenario's mean; `true_cv` is then √(s(1 − s))(r − 1)/(1 + s(r − 1)).
    TwoPoint { share: f64, ratio: f64 },
}

/// One scenario of the study.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
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
    pub true_rates: TrueRates,
    /// True births / births given in the first and last year (linear between); `None`: the
    /// births given are the true births and deaths are counted, not derived.
    pub births_ratio: Option<[f64; 2]>,
    /// Step (per 1,000) to which the published rate is rounded before deaths are derived back
    /// (with `births_ratio`, or alone with a ratio of 1).
    pub rounding_step: Option<f64>,
    /// The rate is published as an integer per 1,000 on the true births and the deaths are
    /// reconstructed from it as the bundled data's 2017–2021 are: the whole number nearest
    /// rate × births / 1000 among those that reproduce it, with their range carried
    /// ([`imr_stats::rounded`], [`crate::adjusted::CountRangeBound`]). Counted, not derived.
    pub reconstructed: bool,
}

impl Scenario {
    /// Whether deaths are derived from published rates (proxy or rounding).
    pub fn derived(&self) -> bool {
        self.births_ratio.is_some() || self.rounding_step.is_some()
    }

    /// The CV of the true rates' distribution.
    pub fn distribution_cv(&self) -> f64 {
        match self.true_rates {
            TrueRates::Gamma => self.true_cv,
            TrueRates::TwoPoint { share, ratio } => {
                (share * (1.0 - share)).sqrt() * (ratio - 1.0) / (1.0 + share * (ratio - 1.0))
            }
        }
    }
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
    /// With derived deaths: means of the range's ends over the births ratio, the share of
    /// ranges containing the truth, the share of intervals as shown (range and intervals
    /// together) covering it, and (mean midpoint of the range − mean truth) / mean truth. NaN
    /// without.
    pub range_low_mean: f64,
    pub range_high_mean: f64,
    pub range_covers: f64,
    pub shown_coverage: f64,
    pub range_mid_relative_bias: f64,
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
    /// With derived deaths: share of years where it rejects at 5% at every births ratio of the
    /// range (NaN without).
    pub excess_rejects_5pct_every_ratio: f64,
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
    range_low: f64,
    range_high: f64,
    range_cover: usize,
    shown_cover: usize,
    n_range: usize,
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
            range_low_mean: self.range_low / self.n_range as f64,
            range_high_mean: self.range_high / self.n_range as f64,
            range_covers: self.range_cover as f64 / self.n_range as f64,
            shown_coverage: self.shown_cover as f64 / self.n_range as f64,
            range_mid_relative_bias: (0.5 * (self.range_low + self.range_high)
                / self.n_range as f64
                - truth_mean)
                / truth_mean,
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
    let (mut rejects_every, mut tested_every) = (0usize, 0usize);
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
        let lambda: Vec<f64> = match scenario.true_rates {
            TrueRates::Gamma if scenario.true_cv > 0.0 => {
                let k = 1.0 / (scenario.true_cv * scenario.true_cv);
                let g = Gamma::new(k, mu / k).expect("positive shape and scale");
                scenario.births.iter().map(|_| g.sample(&mut rng)).collect()
            }
            TrueRates::Gamma => vec![mu; scenario.births.len()],
            TrueRates::TwoPoint { share, ratio } => {
                let base = mu / (1.0 + share * (ratio - 1.0));
                scenario
                    .births
                    .iter()
                    .map(|_| {
                        if rng.random::<f64>() < share {
                            base * ratio
                        } else {
                            base
                        }
                    })
                    .collect()
            }
        };
        let mut observations = Vec::new();
        // The true births of each year (the truth's weights).
        let mut births_by_year = Vec::new();
        for t in 0..n_years {
            let along = if n_years > 1 {
                t as f64 / (n_years - 1) as f64
            } else {
                0.0
            };
            let factor = 1.0 + scenario.births_change * along;
            let ratio = scenario
                .births_ratio
                .map_or(1.0, |[first, last]| first + (last - first) * along);
            let given: Vec<f64> = scenario
                .births
                .iter()
                .map(|b| (b * factor).round().max(0.0))
                .collect();
            let births: Vec<f64> = given.iter().map(|p| (ratio * p).round()).collect();
            for (i, ((&b, &p), &l)) in births.iter().zip(&given).zip(&lambda).enumerate() {
                let mean = b * l;
                let deaths = if mean > 0.0 {
                    Poisson::new(mean).expect("positive mean").sample(&mut rng)
                } else {
                    0.0
                };
                let (deaths, exposure, range) = if scenario.derived() {
                    let rate = if b > 0.0 { 1000.0 * deaths / b } else { 0.0 };
                    let published = scenario
                        .rounding_step
                        .map_or(rate, |step| (rate / step).round() * step);
                    (published * p / 1000.0, p, None)
                } else if scenario.reconstructed && b > 0.0 {
                    // Rounded half up, as a published integer rate is.
                    let rate = (1000.0 * deaths / b + 0.5).floor() as u64;
                    match imr_stats::deaths_from_rate(rate, b as u64) {
                        imr_stats::Reconstruction::Exact(d) => (d as f64, b, None),
                        imr_stats::Reconstruction::Range { low, high, nearest }
                        | imr_stats::Reconstruction::NoneFits { low, high, nearest } => {
                            (nearest as f64, b, Some([low as f64, high as f64]))
                        }
                        imr_stats::Reconstruction::NoBirths => (0.0, b, None),
                    }
                } else {
                    (deaths, b, None)
                };
                let mut observation =
                    AreaObservation::new(format!("{i:05}"), 2019 + t as i64, deaths, exposure);
                observation.events_range = range;
                observations.push(observation);
            }
            births_by_year.push(births);
        }
        let subject = Subject::Rates(RateInput::per_1000(observations, scenario.derived()));
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
            if let Some(sens) = &adj.sensitivity {
                tested_every += 1;
                if sens.excess_p_value_max < 0.05 {
                    rejects_every += 1;
                }
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
                if let Some(sens) = &adj.sensitivity {
                    let [r_lo, r_hi] = sens.range(m);
                    let [s_lo, s_hi] = sens.interval(m);
                    a.range_low += r_lo;
                    a.range_high += r_hi;
                    a.n_range += 1;
                    if r_lo - 1e-12 <= truth && truth <= r_hi + 1e-12 {
                        a.range_cover += 1;
                    }
                    if s_lo - 1e-12 <= truth && truth <= s_hi + 1e-12 {
                        a.shown_cover += 1;
                    }
                }
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
        excess_rejects_5pct_every_ratio: rejects_every as f64 / tested_every as f64,
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
            ..Scenario::default()
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

/// The inputs grid (`imr simulate --grid inputs`), on births given `births` (the README: the
/// bundled 2019 population aged 0, the proxy), mean rate 7 per 1,000:
/// * proxy: true births 0.91 and 0.73 × the births given, rates rounded to integers as SINIM
///   publishes them, at true CV 0, 0.1 and 0.3;
/// * rounding alone (true births = births given) to 1 and to 0.1 per 1,000;
/// * 5 years with the ratio falling from 0.91 to 0.73 (integer rates), at CV 0 and 0.1;
/// * counted deaths with the true rates a two-point mixture (10% of communes at 3× the rate of
///   the rest, CV 0.49) and a gamma of the same CV: what the shape does to the Gini and the CoV.
pub fn inputs_grid(births: &[f64]) -> Vec<Scenario> {
    let base = |name: &str, cv: f64| Scenario {
        name: name.to_string(),
        true_cv: cv,
        mean_rate: 7.0,
        births: births.to_vec(),
        years: 1,
        ..Scenario::default()
    };
    let mut grid = Vec::new();
    for (name, ratio, step) in [
        ("proxy c = 0.91, integer rates", [0.91, 0.91], 1.0),
        ("proxy c = 0.73, integer rates", [0.73, 0.73], 1.0),
        ("rates rounded to 1", [1.0, 1.0], 1.0),
        ("rates rounded to 0.1", [1.0, 1.0], 0.1),
        ("proxy c = 0.73, rates to 0.1", [0.73, 0.73], 0.1),
    ] {
        for cv in [0.0, 0.1, 0.3] {
            grid.push(Scenario {
                births_ratio: Some(ratio),
                rounding_step: Some(step),
                ..base(name, cv)
            });
        }
    }
    for cv in [0.0, 0.1] {
        grid.push(Scenario {
            years: 5,
            births_ratio: Some([0.91, 0.73]),
            rounding_step: Some(1.0),
            ..base("5 years, c falling 0.91 to 0.73, integer rates", cv)
        });
    }
    let mixture = Scenario {
        true_rates: TrueRates::TwoPoint {
            share: 0.1,
            ratio: 3.0,
        },
        ..base("counted deaths, 10% of communes at 3x", 0.0)
    };
    let cv = mixture.distribution_cv();
    grid.push(Scenario {
        true_cv: cv,
        ..mixture
    });
    grid.push(base("counted deaths, gamma of the same CV", cv));
    grid
}
