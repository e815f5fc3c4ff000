//! Spatial autocorrelation: global Moran's I with a permutation test, and local Moran (LISA)
//! clusters, as in GeoDa (Anselin 1995, "Local indicators of spatial association — LISA",
//! *Geographical Analysis* 27:93–115).
//!
//! # Formula
//! Areas without a value are left out, with their links. With z_i = x_i − x̄ and row-standardised
//! weights w_ij = 1/|N(i)| for j ∈ N(i) (0 for an area without neighbours), the spatial lag is
//! L_i = Σ_j w_ij z_j, and
//!
//! * I = (n / S₀) · Σ_i z_i L_i / Σ_i z_i², with S₀ = Σ_ij w_ij (the number of areas with a
//!   neighbour); under no autocorrelation E\[I\] = −1/(n − 1);
//! * local I_i = (z_i / m₂) · L_i with m₂ = Σ z_i² / n.
//!
//! Inference by permutation with a seeded ChaCha8 generator, so results are reproducible:
//! globally the values are randomly reassigned to areas; locally (conditional permutation) x_i stays
//! and its |N(i)| neighbours are drawn from the other areas. The pseudo p-value is
//! (M + 1)/(R + 1), with R permutations and M the number at least as extreme as the observed
//! statistic on its side (≥ when above the permutation reference E\[I\] or 0 for local I, ≤ when
//! below), as GeoDa reports it.
//!
//! # Analytical inference for the global I (Cliff & Ord 1981, *Spatial Processes*, ch. 2)
//! Beside the permutation test, the moments of I under the two null hypotheses of Cliff and
//! Ord, as esda's `Moran` computes them (`z_norm`, `z_rand`, `p_norm`, `p_rand`), with the
//! row-standardised weights of the areas kept: S₀ = Σ_ij w_ij, S₁ = ½ Σ_ij (w_ij + w_ji)²,
//! S₂ = Σ_i (w_i· + w_·i)², E\[I\] = −1/(n − 1);
//!
//! * normality: V_N = (n² S₁ − n S₂ + 3 S₀²) / ((n² − 1) S₀²) − E\[I\]²;
//! * randomisation, with the kurtosis b₂ = n Σ z⁴ / (Σ z²)²:
//!   V_R = [n((n² − 3n + 3) S₁ − n S₂ + 3 S₀²) − b₂((n² − n) S₁ − 2n S₂ + 6 S₀²)]
//!   / ((n − 1)(n − 2)(n − 3) S₀²) − E\[I\]²;
//! * z = (I − E\[I\]) / √V, two-sided p = 2(1 − Φ(|z|)) (esda's default `two_tailed=True`).
//!
//! The randomisation variance needs n ≥ 4; with 3 areas it is not given (`None`).
//!
//! # EB-standardised Moran's I (Assunção & Reis 1999, *Statistics in Medicine* 18:2147–2162)
//! [`moran_rate`]: Moran's I of the EB-standardised rates of
//! [`crate::smoothing::eb_standardised_rates`] instead of the raw rates, which have unequal
//! variances when births differ; esda's `Moran_Rate(adjusted=True)` and GeoDa's "Moran's I
//! with EB Rate".

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::weights::Weights;

/// Why a statistic could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AutocorrelationError {
    #[error("the weights cover {weights} areas but there are {values} values")]
    WeightsMismatch { weights: usize, values: usize },
    #[error("Moran's I needs at least 3 areas with a value and a neighbour; there are {0}")]
    TooFewAreas(usize),
    #[error("all values are equal: Moran's I is not defined")]
    Constant,
    #[error("at least one permutation is needed")]
    NoPermutations,
}

impl AutocorrelationError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: crate::Lang) -> String {
        use AutocorrelationError::*;
        match (self, lang) {
            (_, crate::Lang::En) => self.to_string(),
            (WeightsMismatch { weights, values }, _) => {
                format!("los pesos espaciales cubren {weights} áreas pero hay {values} valores")
            }
            (TooFewAreas(n), _) => {
                format!("el I de Moran necesita al menos 3 áreas con un valor y un vecino; hay {n}")
            }
            (Constant, _) => "todos los valores son iguales: el I de Moran no está definido".into(),
            (NoPermutations, _) => "hace falta al menos una permutación".into(),
        }
    }
}

/// Global Moran's I and its permutation test.
#[derive(Debug, Clone, PartialEq)]
pub struct Moran {
    pub i: f64,
    /// −1/(n − 1).
    pub expected: f64,
    /// Mean and standard deviation of I over the permutations, and the pseudo z-value.
    pub permutation_mean: f64,
    pub permutation_sd: f64,
    pub z: f64,
    /// Pseudo p-value (M + 1)/(R + 1).
    pub p_value: f64,
    pub permutations: usize,
    pub seed: u64,
    /// Number of areas used (with a value).
    pub n: usize,
    /// Analytical inference under normality (Cliff & Ord): z and its two-sided p-value.
    pub z_norm: f64,
    pub p_norm: f64,
    /// Analytical inference under randomisation (Cliff & Ord): z and its two-sided p-value;
    /// `None` with fewer than 4 areas or a non-positive variance.
    pub z_rand: Option<f64>,
    pub p_rand: Option<f64>,
}

/// Moments of I under the null: variance under normality and under randomisation.
#[derive(Debug, Clone, Copy, PartialEq)]
struct NullVariances {
    normality: f64,
    randomisation: Option<f64>,
}

/// Cliff & Ord's variances of I for the row-standardised weights of `weights` and the
/// deviations `z` (see the module notes for the formulas).
fn null_variances(z: &[f64], weights: &Weights) -> NullVariances {
    let count = z.len();
    let n = count as f64;
    let row_weight = |i: usize| {
        let k = weights.neighbours(i).len();
        if k == 0 {
            0.0
        } else {
            1.0 / k as f64
        }
    };
    let mut s0 = 0.0;
    let mut s1 = 0.0;
    let mut s2 = 0.0;
    for i in 0..count {
        let wi = row_weight(i);
        let neighbours = weights.neighbours(i);
        let row_sum = wi * neighbours.len() as f64;
        let mut column_sum = 0.0;
        for &j in neighbours {
            let wj = row_weight(j);
            // Symmetric neighbours: w_ij = 1/k_i and w_ji = 1/k_j.
            s1 += (wi + wj).powi(2);
            column_sum += wj;
        }
        s0 += row_sum;
        s2 += (row_sum + column_sum).powi(2);
    }
    s1 /= 2.0;
    let s02 = s0 * s0;
    let expected = -1.0 / (n - 1.0);
    let normality =
        (n * n * s1 - n * s2 + 3.0 * s02) / ((n - 1.0) * (n + 1.0) * s02) - expected * expected;
    let randomisation = (count >= 4).then(|| {
        let m2 = z.iter().map(|v| v * v).sum::<f64>() / n;
        let m4 = z.iter().map(|v| v.powi(4)).sum::<f64>() / n;
        let kurtosis = m4 / (m2 * m2);
        let a = n * ((n * n - 3.0 * n + 3.0) * s1 - n * s2 + 3.0 * s02);
        let b = kurtosis * ((n * n - n) * s1 - 2.0 * n * s2 + 6.0 * s02);
        (a - b) / ((n - 1.0) * (n - 2.0) * (n - 3.0) * s02) - expected * expected
    });
    NullVariances {
        normality,
        randomisation,
    }
}

/// z and two-sided normal p-value of `i` for a null variance, `None` when it is not positive.
fn analytical(i: f64, expected: f64, variance: f64) -> Option<(f64, f64)> {
    (variance > 0.0 && variance.is_finite()).then(|| {
        let z = (i - expected) / variance.sqrt();
        (
            z,
            statrs::function::erf::erfc(z.abs() / std::f64::consts::SQRT_2),
        )
    })
}

/// LISA cluster of an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LisaCluster {
    NotSignificant,
    HighHigh,
    LowLow,
    LowHigh,
    HighLow,
    /// No neighbour with a value: no local statistic.
    Neighbourless,
    NoData,
}

impl LisaCluster {
    /// Label as in GeoDa's cluster map legend.
    pub fn label(self) -> &'static str {
        self.label_in(imr_stats::Lang::En)
    }

    /// The legend label in `lang` (Spanish as in the Spanish-language GeoDa literature:
    /// "Alto-Alto", "Bajo-Bajo", …).
    pub fn label_in(self, lang: imr_stats::Lang) -> &'static str {
        if lang == imr_stats::Lang::Es {
            return match self {
                LisaCluster::NotSignificant => "No significativo",
                LisaCluster::HighHigh => "Alto-Alto",
                LisaCluster::LowLow => "Bajo-Bajo",
                LisaCluster::LowHigh => "Bajo-Alto",
                LisaCluster::HighLow => "Alto-Bajo",
                LisaCluster::Neighbourless => "Sin vecinos",
                LisaCluster::NoData => "Sin datos",
            };
        }
        match self {
            LisaCluster::NotSignificant => "Not significant",
            LisaCluster::HighHigh => "High-High",
            LisaCluster::LowLow => "Low-Low",
            LisaCluster::LowHigh => "Low-High",
            LisaCluster::HighLow => "High-Low",
            LisaCluster::Neighbourless => "Neighbourless",
            LisaCluster::NoData => "No data",
        }
    }

    /// GeoDa's cluster map colours.
    pub fn colour(self) -> &'static str {
        match self {
            LisaCluster::NotSignificant => "#eeeeee",
            LisaCluster::HighHigh => "#ff0000",
            LisaCluster::LowLow => "#0000ff",
            LisaCluster::LowHigh => "#a7adf9",
            LisaCluster::HighLow => "#f4ada8",
            LisaCluster::Neighbourless => "#999999",
            LisaCluster::NoData => "#ffffff",
        }
    }
}

/// Local Moran results, one entry per input value.
#[derive(Debug, Clone, PartialEq)]
pub struct Lisa {
    pub local_i: Vec<Option<f64>>,
    pub p_values: Vec<Option<f64>>,
    pub clusters: Vec<LisaCluster>,
    pub alpha: f64,
    pub permutations: usize,
    pub seed: u64,
}

/// Values kept (with a value), their weights, and the map back to input indexes.
struct Prepared {
    z: Vec<f64>,
    weights: Weights,
    original: Vec<usize>,
}

fn prepare(values: &[Option<f64>], weights: &Weights) -> Result<Prepared, AutocorrelationError> {
    if weights.len() != values.len() {
        return Err(AutocorrelationError::WeightsMismatch {
            weights: weights.len(),
            values: values.len(),
        });
    }
    let keep: Vec<bool> = values
        .iter()
        .map(|v| v.is_some_and(f64::is_finite))
        .collect();
    let original: Vec<usize> = (0..values.len()).filter(|&i| keep[i]).collect();
    let x: Vec<f64> = original
        .iter()
        .map(|&i| values[i].expect("kept values exist"))
        .collect();
    let weights = weights.subset(&keep);
    let linked = (0..weights.len())
        .filter(|&i| !weights.neighbours(i).is_empty())
        .count();
    if x.len() < 3 || linked < 2 {
        return Err(AutocorrelationError::TooFewAreas(linked.min(x.len())));
    }
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let z: Vec<f64> = x.iter().map(|v| v - mean).collect();
    if z.iter().all(|d| d.abs() <= 1e-12 * mean.abs().max(1.0)) {
        return Err(AutocorrelationError::Constant);
    }
    Ok(Prepared {
        z,
        weights,
        original,
    })
}

fn lag(z: &[f64], neighbours: &[usize]) -> f64 {
    if neighbours.is_empty() {
        0.0
    } else {
        neighbours.iter().map(|&j| z[j]).sum::<f64>() / neighbours.len() as f64
    }
}

fn moran_of(z: &[f64], weights: &Weights, s0: f64) -> f64 {
    let n = z.len() as f64;
    let num: f64 = (0..z.len())
        .map(|i| z[i] * lag(z, weights.neighbours(i)))
        .sum();
    let den: f64 = z.iter().map(|v| v * v).sum();
    n / s0 * num / den
}

/// Global Moran's I of `values` (None = no data) with `permutations` random permutations.
pub fn moran(
    values: &[Option<f64>],
    weights: &Weights,
    permutations: usize,
    seed: u64,
) -> Result<Moran, AutocorrelationError> {
    if permutations == 0 {
        return Err(AutocorrelationError::NoPermutations);
    }
    let Prepared { z, weights, .. } = prepare(values, weights)?;
    let n = z.len();
    let s0 = (0..n)
        .filter(|&i| !weights.neighbours(i).is_empty())
        .count() as f64;
    let observed = moran_of(&z, &weights, s0);
    let expected = -1.0 / (n as f64 - 1.0);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut shuffled = z.clone();
    let mut draws = Vec::with_capacity(permutations);
    for _ in 0..permutations {
        // Fisher–Yates shuffle.
        for k in (1..n).rev() {
            let j = rng.random_range(0..=k);
            shuffled.swap(k, j);
        }
        draws.push(moran_of(&shuffled, &weights, s0));
    }
    let mean = draws.iter().sum::<f64>() / permutations as f64;
    let sd = (draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>()
        / (permutations as f64 - 1.0).max(1.0))
    .sqrt();
    let variances = null_variances(&z, &weights);
    let (z_norm, p_norm) =
        analytical(observed, expected, variances.normality).unwrap_or((f64::NAN, f64::NAN));
    let randomisation = variances
        .randomisation
        .and_then(|v| analytical(observed, expected, v));
    let extreme = if observed >= expected {
        draws.iter().filter(|&&d| d >= observed).count()
    } else {
        draws.iter().filter(|&&d| d <= observed).count()
    };
    Ok(Moran {
        i: observed,
        expected,
        permutation_mean: mean,
        permutation_sd: sd,
        z: if sd > 0.0 {
            (observed - mean) / sd
        } else {
            f64::NAN
        },
        p_value: (extreme + 1) as f64 / (permutations + 1) as f64,
        permutations,
        seed,
        n,
        z_norm,
        p_norm,
        z_rand: randomisation.map(|r| r.0),
        p_rand: randomisation.map(|r| r.1),
    })
}

/// The EB-standardised Moran's I of Assunção & Reis (1999): [`moran`] of
/// [`crate::smoothing::eb_standardised_rates`] of the deaths and births, as esda's
/// `Moran_Rate(e, b, w, adjusted=True)`. Areas without usable counts are left out with their
/// links, as in [`moran`].
pub fn moran_rate(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
    weights: &Weights,
    permutations: usize,
    seed: u64,
) -> Result<Moran, MoranRateError> {
    let standardised = crate::smoothing::eb_standardised_rates(deaths, births)?;
    Ok(moran(&standardised, weights, permutations, seed)?)
}

/// Why the EB-standardised Moran's I could not be computed: the rates or the statistic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoranRateError {
    #[error(transparent)]
    Rates(#[from] crate::smoothing::SmoothError),
    #[error(transparent)]
    Moran(#[from] AutocorrelationError),
}

impl MoranRateError {
    /// The error in `lang`.
    pub fn text(&self, lang: crate::Lang) -> String {
        match self {
            MoranRateError::Rates(e) => e.text(lang),
            MoranRateError::Moran(e) => e.text(lang),
        }
    }
}

/// Local Moran's I with conditional permutations, and clusters at significance `alpha`.
pub fn lisa(
    values: &[Option<f64>],
    weights: &Weights,
    permutations: usize,
    seed: u64,
    alpha: f64,
) -> Result<Lisa, AutocorrelationError> {
    if permutations == 0 {
        return Err(AutocorrelationError::NoPermutations);
    }
    let total = values.len();
    let Prepared {
        z,
        weights,
        original,
    } = prepare(values, weights)?;
    let n = z.len();
    let m2 = z.iter().map(|v| v * v).sum::<f64>() / n as f64;
    let mut local_i = vec![None; total];
    let mut p_values = vec![None; total];
    let mut clusters = vec![LisaCluster::NoData; total];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pool: Vec<usize> = Vec::with_capacity(n);
    for i in 0..n {
        let out = original[i];
        let neighbours = weights.neighbours(i);
        let k = neighbours.len();
        if k == 0 {
            clusters[out] = LisaCluster::Neighbourless;
            continue;
        }
        let observed_lag = lag(&z, neighbours);
        let observed = z[i] / m2 * observed_lag;
        pool.clear();
        pool.extend((0..n).filter(|&j| j != i));
        let mut extreme = 0usize;
        for _ in 0..permutations {
            // Partial Fisher–Yates: the first k entries of the pool are a random k-subset.
            let mut sum = 0.0;
            for t in 0..k {
                let j = rng.random_range(t..pool.len());
                pool.swap(t, j);
                sum += z[pool[t]];
            }
            let permuted = z[i] / m2 * (sum / k as f64);
            if (observed >= 0.0 && permuted >= observed) || (observed < 0.0 && permuted <= observed)
            {
                extreme += 1;
            }
        }
        let p = (extreme + 1) as f64 / (permutations + 1) as f64;
        local_i[out] = Some(observed);
        p_values[out] = Some(p);
        clusters[out] = if p > alpha || z[i] == 0.0 || observed_lag == 0.0 {
            LisaCluster::NotSignificant
        } else {
            match (z[i] > 0.0, observed_lag > 0.0) {
                (true, true) => LisaCluster::HighHigh,
                (false, false) => LisaCluster::LowLow,
                (false, true) => LisaCluster::LowHigh,
                (true, false) => LisaCluster::HighLow,
            }
        };
    }
    Ok(Lisa {
        local_i,
        p_values,
        clusters,
        alpha,
        permutations,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×n chain: area i neighbours i−1 and i+1.
    fn chain(n: usize) -> Weights {
        Weights::from_lists(
            (0..n)
                .map(|i| {
                    let mut l = Vec::new();
                    if i > 0 {
                        l.push(i - 1);
                    }
                    if i + 1 < n {
                        l.push(i + 1);
                    }
                    l
                })
                .collect(),
        )
        .unwrap()
    }

    /// Chain of 4 with x = [1, 2, 3, 4]: z = [−1.5, −0.5, 0.5, 1.5], Σz² = 5; row-standardised lags
    /// L = [−0.5, −0.5, 0.5, 0.5]; Σ z L = 0.75 + 0.25 + 0.25 + 0.75 = 2; S₀ = 4, n = 4 → I = 2/5 = 0.4.
    #[test]
    fn morans_i_of_a_trend_on_a_chain_matches_the_hand_computation() {
        let values: Vec<Option<f64>> = [1.0, 2.0, 3.0, 4.0].iter().map(|v| Some(*v)).collect();
        let m = moran(&values, &chain(4), 99, 1).unwrap();
        assert!((m.i - 0.4).abs() < 1e-12);
        assert!((m.expected + 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn the_same_seed_gives_the_same_p_value_and_a_clustered_pattern_is_significant() {
        // Two blocks of 15 on a chain: strongly positively autocorrelated.
        let values: Vec<Option<f64>> = (0..30)
            .map(|i| Some(if i < 15 { 1.0 } else { 9.0 } + (i % 3) as f64 * 0.1))
            .collect();
        let w = chain(30);
        let a = moran(&values, &w, 499, 42).unwrap();
        let b = moran(&values, &w, 499, 42).unwrap();
        assert_eq!(a, b);
        assert!(a.i > 0.8, "{}", a.i);
        assert!(a.p_value <= 0.01, "{}", a.p_value);
        // An alternating pattern is negatively autocorrelated.
        let alt: Vec<Option<f64>> = (0..30).map(|i| Some((i % 2) as f64)).collect();
        let c = moran(&alt, &w, 499, 42).unwrap();
        assert!(c.i < -0.9 && c.p_value <= 0.01, "{c:?}");
    }

    /// The page says the permutation p-value is one-sided (the share of permutations at least as
    /// extreme in the observed direction) and the analytical one two-sided, "so it
    /// can be about twice as large": on weakly patterned 12×12 grids (clustered or dispersed)
    /// whose analytical p under randomisation lies between 0.02 and 0.6, the permutation p is
    /// close to half of it.
    #[test]
    fn the_permutation_p_is_about_half_the_two_sided_analytical_p() {
        let w = grid(12);
        let mut compared = 0;
        for seed in 0..16u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let values: Vec<Option<f64>> = (0..144)
                .map(|i| Some((i / 12) as f64 * 0.04 + rng.random_range(0.0..3.0)))
                .collect();
            let m = moran(&values, &w, 4999, seed).unwrap();
            let Some(p_rand) = m.p_rand else { continue };
            if !(0.02..=0.6).contains(&p_rand) {
                continue;
            }
            compared += 1;
            let ratio = m.p_value / (p_rand / 2.0);
            assert!(
                (0.7..=1.4).contains(&ratio),
                "{seed}: {} vs {p_rand}",
                m.p_value
            );
        }
        assert!(compared >= 6, "{compared} patterns compared");
    }

    /// Rook neighbours on a side × side grid, areas numbered row by row.
    fn grid(side: usize) -> Weights {
        let lists = (0..side * side)
            .map(|i| {
                let (r, c) = (i / side, i % side);
                let mut l = Vec::new();
                if r > 0 {
                    l.push(i - side);
                }
                if r + 1 < side {
                    l.push(i + side);
                }
                if c > 0 {
                    l.push(i - 1);
                }
                if c + 1 < side {
                    l.push(i + 1);
                }
                l
            })
            .collect();
        Weights::from_lists(lists).unwrap()
    }

    /// On a 10×10 grid with x = row + column (0..18), the corner (0, 0) has neighbours 1 and 1:
    /// only one pair of the other 99 values averages as low, so its pseudo p-value is tiny and it
    /// is Low-Low; the opposite corner is High-High; a cell with x = 9 (z = 0) is not significant.
    #[test]
    fn lisa_finds_low_low_and_high_high_corners_of_a_gradient_and_skips_missing_values() {
        let mut values: Vec<Option<f64>> =
            (0..100).map(|i| Some((i / 10 + i % 10) as f64)).collect();
        values[50] = None;
        let w = grid(10);
        let l = lisa(&values, &w, 999, 7, 0.05).unwrap();
        assert_eq!(l.clusters[50], LisaCluster::NoData);
        assert_eq!(
            l.clusters[0],
            LisaCluster::LowLow,
            "p = {:?}",
            l.p_values[0]
        );
        assert_eq!(
            l.clusters[99],
            LisaCluster::HighHigh,
            "p = {:?}",
            l.p_values[99]
        );
        assert!(l.p_values[0].unwrap() < 0.01);
        // Row 4, column 5: x = 9, close to the mean; not significant.
        assert_eq!(l.clusters[45], LisaCluster::NotSignificant);
        assert_eq!(l, lisa(&values, &w, 999, 7, 0.05).unwrap());
    }

    #[test]
    fn constant_values_have_no_morans_i() {
        let values = vec![Some(2.0); 5];
        assert_eq!(
            moran(&values, &chain(5), 9, 0),
            Err(AutocorrelationError::Constant)
        );
    }

    #[test]
    fn errors_are_worded_in_spanish_and_display_stays_english() {
        use crate::classify::ClassifyError;
        use crate::smoothing::SmoothError;
        use crate::Lang;
        assert_eq!(
            AutocorrelationError::TooFewAreas(2).text(Lang::Es),
            "el I de Moran necesita al menos 3 áreas con un valor y un vecino; hay 2"
        );
        assert_eq!(
            AutocorrelationError::TooFewAreas(2).text(Lang::En),
            "Moran's I needs at least 3 areas with a value and a neighbour; there are 2"
        );
        assert_eq!(
            SmoothError::NoUsableArea.text(Lang::Es),
            "ningún área tiene defunciones y nacimientos (nacimientos > 0)"
        );
        assert_eq!(
            ClassifyError::BadClassCount(20).text(Lang::Es),
            "el número de clases debe estar entre 1 y 12, no 20"
        );
    }
}
