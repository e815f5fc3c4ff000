//! Honest rates for small areas: the raw rate, empirical Bayes smoothed rates (global and spatial)
//! and excess risk.
//!
//! Inputs are aligned slices, one entry per area: `deaths` (O_i, infant deaths) and `births` (P_i,
//! live births). An area is *usable* when both are present and finite, O_i ≥ 0 and P_i > 0; the
//! others get `None` (no rate is invented for an area without births). Zero deaths are data: a
//! rate of 0 is a valid raw rate, and smoothing pulls it towards the reference rate.
//! All rates are returned per 1,000 live births.

use crate::weights::Weights;

/// Why smoothing could not be done.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SmoothError {
    #[error("deaths ({deaths}) and births ({births}) have different lengths")]
    LengthMismatch { deaths: usize, births: usize },
    #[error("the weights cover {weights} areas but there are {areas}")]
    WeightsMismatch { weights: usize, areas: usize },
    #[error("no area has both deaths and births (births > 0)")]
    NoUsableArea,
    #[error("spatial empirical Bayes needs neighbours (spatial weights)")]
    NoWeights,
    /// A rate overflowed: counts near f64::MAX, or births so small that deaths/births is infinite.
    #[error(
        "area {area}: its deaths and births (or those of its neighbourhood) are too large, or its \
         births too small, to give a finite rate"
    )]
    RateNotFinite { area: usize },
    /// The funnel's exact Poisson limits are computed for totals up to [`MAX_FUNNEL_COUNT`].
    #[error(
        "the funnel plot needs total deaths and births of at most {limit} (found {deaths} deaths, \
         {births} births)"
    )]
    CountsBeyondFunnel {
        deaths: String,
        births: String,
        limit: String,
    },
}

impl SmoothError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: crate::Lang) -> String {
        use SmoothError::*;
        if lang == crate::Lang::En {
            return self.to_string();
        }
        match self {
            LengthMismatch { deaths, births } => format!(
                "las defunciones ({deaths}) y los nacimientos ({births}) tienen largos distintos"
            ),
            WeightsMismatch { weights, areas } => {
                format!("los pesos espaciales cubren {weights} áreas pero hay {areas}")
            }
            NoUsableArea => {
                "ningún área tiene defunciones y nacimientos (nacimientos > 0)".into()
            }
            NoWeights => "el Bayes empírico espacial necesita vecinos (pesos espaciales)".into(),
            RateNotFinite { area } => format!(
                "área {area}: sus defunciones y nacimientos (o los de su vecindario) son demasiado grandes, o sus nacimientos demasiado pocos, para dar una tasa finita"
            ),
            CountsBeyondFunnel {
                deaths,
                births,
                limit,
            } => format!(
                "el gráfico de embudo necesita un total de defunciones y de nacimientos de a lo sumo {limit} (hay {deaths} defunciones y {births} nacimientos)"
            ),
        }
    }
}

/// Largest total of deaths or births the funnel plot accepts. Its exact Poisson limits and tests
/// (statrs' incomplete gamma and χ² quantiles) are fast and finite well below this (checked up
/// to 10¹⁵) but do not finish in reasonable time near 10²⁰; a country has about 10⁵–10⁷ births a
/// year, the world about 1.3·10⁸.
pub const MAX_FUNNEL_COUNT: f64 = 1e12;

/// The values, or [`SmoothError::RateNotFinite`] for the first area whose value overflowed.
fn all_finite(values: Vec<Option<f64>>) -> Result<Vec<Option<f64>>, SmoothError> {
    match values
        .iter()
        .position(|v| v.is_some_and(|v| !v.is_finite()))
    {
        Some(area) => Err(SmoothError::RateNotFinite { area }),
        None => Ok(values),
    }
}

/// Which rate to map: the choice the page's selector and `imr map --smooth` share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Smoothing {
    /// Raw rate 1000·O/P.
    #[default]
    None,
    /// Global empirical Bayes ([`global_eb`]).
    GlobalEb,
    /// Spatial empirical Bayes ([`spatial_eb`]).
    SpatialEb,
}

impl Smoothing {
    /// Words for a subtitle.
    pub fn label(self) -> &'static str {
        match self {
            Smoothing::None => "raw rate",
            Smoothing::GlobalEb => "empirical Bayes smoothed (global, Marshall 1991)",
            Smoothing::SpatialEb => {
                "empirical Bayes smoothed (spatial, each area with its neighbours)"
            }
        }
    }

    /// [`Smoothing::label`] in a language.
    pub fn label_in(self, lang: imr_stats::Lang) -> &'static str {
        let es = match self {
            Smoothing::None => "tasa observada",
            Smoothing::GlobalEb => "suavizada por Bayes empírico (global, Marshall 1991)",
            Smoothing::SpatialEb => {
                "suavizada por Bayes empírico (espacial, cada área con sus vecinas)"
            }
        };
        lang.pick(es, self.label())
    }

    /// Rates per 1,000 for each area under this choice.
    pub fn rates(
        self,
        deaths: &[Option<f64>],
        births: &[Option<f64>],
        weights: Option<&Weights>,
    ) -> Result<Vec<Option<f64>>, SmoothError> {
        match self {
            Smoothing::None => raw_rates(deaths, births),
            Smoothing::GlobalEb => Ok(global_eb(deaths, births)?.rates),
            Smoothing::SpatialEb => {
                spatial_eb(deaths, births, weights.ok_or(SmoothError::NoWeights)?)
            }
        }
    }
}

/// Rates per 1,000 births.
pub const PER: f64 = 1000.0;

/// Deaths and births of an area that can enter a rate: both known and finite, deaths ≥ 0,
/// births > 0.
fn usable(deaths: Option<f64>, births: Option<f64>) -> Option<(f64, f64)> {
    match (deaths, births) {
        (Some(o), Some(p)) if o.is_finite() && p.is_finite() && o >= 0.0 && p > 0.0 => Some((o, p)),
        _ => None,
    }
}

/// [`usable`] for each area.
pub(crate) fn usable_pairs(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
) -> Vec<Option<(f64, f64)>> {
    deaths
        .iter()
        .zip(births)
        .map(|(&o, &p)| usable(o, p))
        .collect()
}

fn check(deaths: &[Option<f64>], births: &[Option<f64>]) -> Result<(), SmoothError> {
    if deaths.len() != births.len() {
        return Err(SmoothError::LengthMismatch {
            deaths: deaths.len(),
            births: births.len(),
        });
    }
    Ok(())
}

/// Raw rate per 1,000: r_i = 1000 · O_i / P_i.
pub fn raw_rates(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
) -> Result<Vec<Option<f64>>, SmoothError> {
    check(deaths, births)?;
    all_finite(
        deaths
            .iter()
            .zip(births)
            .map(|(&o, &p)| usable(o, p).map(|(o, p)| PER * o / p))
            .collect(),
    )
}

/// Global empirical Bayes estimates and the prior they shrink towards.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalEb {
    /// Prior mean θ (pooled rate), per 1,000.
    pub prior_rate: f64,
    /// Prior variance σ² of the rate, per birth squared (not scaled).
    pub prior_variance: f64,
    /// Shrinkage weight w_i given to each area's own rate.
    pub weights: Vec<Option<f64>>,
    /// Smoothed rates per 1,000.
    pub rates: Vec<Option<f64>>,
}

/// Moment estimates of a gamma prior from a set of areas, and the shrunken rate of one area.
///
/// # Formula (Marshall 1991, *Applied Statistics* 40:283–294, as implemented in GeoDa)
/// With r_j = O_j/P_j over the areas j of the set S (n of them):
///
/// * θ = Σ O_j / Σ P_j
/// * P̄ = Σ P_j / n
/// * σ² = max(0, Σ P_j (r_j − θ)² / Σ P_j − θ / P̄)
/// * w_i = σ² / (σ² + θ / P_i)
/// * EB_i = w_i r_i + (1 − w_i) θ
///
/// When σ² = 0 every area gets θ (the data show no more variation than Poisson noise).
pub(crate) fn eb_prior(set: impl Iterator<Item = (f64, f64)> + Clone) -> Option<(f64, f64)> {
    let (mut sum_o, mut sum_p, mut n) = (0.0, 0.0, 0usize);
    for (o, p) in set.clone() {
        sum_o += o;
        sum_p += p;
        n += 1;
    }
    if n == 0 || sum_p <= 0.0 {
        return None;
    }
    let theta = sum_o / sum_p;
    let p_bar = sum_p / n as f64;
    let spread: f64 = set.map(|(o, p)| p * (o / p - theta).powi(2)).sum::<f64>() / sum_p;
    Some((theta, (spread - theta / p_bar).max(0.0)))
}

fn eb_shrink(theta: f64, variance: f64, o: f64, p: f64) -> (f64, f64) {
    let w = if variance > 0.0 {
        variance / (variance + theta / p)
    } else {
        0.0
    };
    (w, w * (o / p) + (1.0 - w) * theta)
}

/// Global empirical Bayes smoothing: every area shrinks towards the pooled rate of all areas.
///
/// See `eb_prior` for the formula. Golden: the 4-area fixture of `tests/reference/README.md`.
pub fn global_eb(deaths: &[Option<f64>], births: &[Option<f64>]) -> Result<GlobalEb, SmoothError> {
    // Raw rates first: an infinite one is reported as such, before the prior turns it into NaN.
    raw_rates(deaths, births)?;
    let pairs = usable_pairs(deaths, births);
    let (theta, variance) =
        eb_prior(pairs.iter().flatten().copied()).ok_or(SmoothError::NoUsableArea)?;
    let shrunk: Vec<Option<(f64, f64)>> = pairs
        .iter()
        .map(|pair| pair.map(|(o, p)| eb_shrink(theta, variance, o, p)))
        .collect();
    Ok(GlobalEb {
        prior_rate: PER * theta,
        prior_variance: variance,
        weights: all_finite(shrunk.iter().map(|s| s.map(|(w, _)| w)).collect())?,
        rates: all_finite(shrunk.iter().map(|s| s.map(|(_, r)| PER * r)).collect())?,
    })
}

/// Spatial empirical Bayes smoothing (GeoDa's "Spatial Empirical Bayes"): each area shrinks towards
/// the pooled rate of its neighbourhood, the area itself and its neighbours (queen or rook, as
/// the weights were built). The same estimator as esda's `Spatial_Empirical_Bayes(e, b, w)`
/// (golden: `tests/reference/spatial/`), except that esda has no missing values while here an
/// unusable neighbour is left out of S_i.
///
/// # Formula
/// For area i, S_i = {i} ∪ N(i), keeping usable areas only; θ_i, σ²_i and P̄_i are the formulas of
/// the global estimator computed over S_i (P̄_i = Σ_{S_i} P_j / |S_i|), then
/// w_i = σ²_i / (σ²_i + θ_i / P_i) and SEB_i = w_i r_i + (1 − w_i) θ_i. An area without usable
/// neighbours (an island) has θ_i = r_i and σ²_i = 0, so it keeps its raw rate.
///
/// # Worked example (the six-cell fixture `tests/data/six_cells.topojson`)
/// Rook neighbours: A{B,C}, B{A,D,E}, C{A,D}, D{B,C}, E{B}, F{} (F is an island).
/// Births P = [1000, 200, 50, 3000, 500, 100], deaths O = [8, 4, 0, 15, 2, 1].
///
/// * E: S = {E, B}, ΣO = 6, ΣP = 700, θ = 3/350 = 0.008571429, P̄ = 350.
///   ΣP(r − θ)²/ΣP = [500(0.004 − θ)² + 200(0.02 − θ)²]/700 = 0.036571429/700 = 5.2244898e-5;
///   θ/P̄ = 2.4489796e-5, so σ² = 2.7755102e-5; θ/P_E = 1.7142857e-5; w = 34/55 = 0.6181818;
///   SEB = 0.6181818·4 + 0.3818182·8.571429 = 316/55 = 5.745455 per 1,000.
/// * C: S = {C, A, D}, ΣO = 23, ΣP = 4050, θ = 0.005679012, P̄ = 1350;
///   ΣP(r − θ)²/ΣP = 0.008382716/4050 = 2.069807e-6 < θ/P̄ = 4.206676e-6, so σ² = 0 and
///   SEB = θ = 5.679012 per 1,000 (C's zero deaths are pulled to its neighbourhood's rate).
/// * F: S = {F}: SEB = r_F = 10 per 1,000.
pub fn spatial_eb(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
    weights: &Weights,
) -> Result<Vec<Option<f64>>, SmoothError> {
    raw_rates(deaths, births)?;
    if weights.len() != deaths.len() {
        return Err(SmoothError::WeightsMismatch {
            weights: weights.len(),
            areas: deaths.len(),
        });
    }
    let pairs = usable_pairs(deaths, births);
    if pairs.iter().all(Option::is_none) {
        return Err(SmoothError::NoUsableArea);
    }
    all_finite(
        spatial_priors(&pairs, weights)
            .iter()
            .zip(&pairs)
            .map(|(prior, pair)| {
                let ((theta, variance), (o, p)) = ((*prior)?, (*pair)?);
                Some(PER * eb_shrink(theta, variance, o, p).1)
            })
            .collect(),
    )
}

/// The prior (θ_i, σ²_i) of each usable area's neighbourhood S_i = {i} ∪ N(i) (usable areas
/// only), as [`spatial_eb`] shrinks it; `None` for an unusable area.
pub(crate) fn spatial_priors(
    pairs: &[Option<(f64, f64)>],
    weights: &Weights,
) -> Vec<Option<(f64, f64)>> {
    (0..pairs.len())
        .map(|i| {
            pairs[i]?;
            let set = std::iter::once(i)
                .chain(weights.neighbours(i).iter().copied())
                .filter_map(|j| pairs.get(j).copied().flatten());
            eb_prior(set)
        })
        .collect()
}

/// EB-standardised rates of Assunção & Reis (1999, *Statistics in Medicine* 18:2147–2162), the
/// variable of the EB Moran's I ([`crate::autocorrelation::moran_rate`]).
///
/// # Formula (esda 2.x `smoothing.assuncao_rate`; GeoDa's "EB Rate Standardization" is the same
/// statistic, its handling of a negative α + β/P_i was not checked against GeoDa here)
/// Over the n usable areas, with r_i = O_i / P_i:
///
/// * β = Σ O / Σ P, P̄ = Σ P / n, s² = Σ P_i (r_i − β)² / Σ P;
/// * α = s² − β / P̄ (not truncated at 0);
/// * v_i = α + β / P_i, or β / P_i where that is negative;
/// * z_i = (r_i − β) / √v_i.
///
/// Rates per birth (not per 1,000): the z_i are unit-free. An area whose v_i is 0 (all deaths
/// are zero, β = 0) gets `None`, as the z is not defined.
pub fn eb_standardised_rates(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
) -> Result<Vec<Option<f64>>, SmoothError> {
    raw_rates(deaths, births)?;
    let pairs = usable_pairs(deaths, births);
    let (mut sum_o, mut sum_p, mut n) = (0.0, 0.0, 0usize);
    for (o, p) in pairs.iter().flatten() {
        sum_o += o;
        sum_p += p;
        n += 1;
    }
    if n == 0 || sum_p <= 0.0 {
        return Err(SmoothError::NoUsableArea);
    }
    let beta = sum_o / sum_p;
    let spread: f64 = pairs
        .iter()
        .flatten()
        .map(|(o, p)| p * (o / p - beta).powi(2))
        .sum::<f64>()
        / sum_p;
    let alpha = spread - beta / (sum_p / n as f64);
    all_finite(
        pairs
            .iter()
            .map(|pair| {
                let (o, p) = (*pair)?;
                let raw = alpha + beta / p;
                let variance = if raw < 0.0 { beta / p } else { raw };
                (variance > 0.0).then(|| (o / p - beta) / variance.sqrt())
            })
            .collect(),
    )
}

/// Observed and expected deaths and their ratio.
#[derive(Debug, Clone, PartialEq)]
pub struct ExcessRisk {
    /// Reference (national) rate θ = ΣO/ΣP over usable areas, per 1,000.
    pub reference_rate: f64,
    /// Expected deaths E_i = θ · P_i.
    pub expected: Vec<Option<f64>>,
    /// Excess risk (standardised mortality ratio) O_i / E_i; 1 = as expected.
    pub ratio: Vec<Option<f64>>,
}

/// Excess risk as in GeoDa: ER_i = O_i / E_i with E_i = θ P_i and θ the pooled rate of all usable
/// areas (equivalently r_i / θ).
pub fn excess_risk(
    deaths: &[Option<f64>],
    births: &[Option<f64>],
) -> Result<ExcessRisk, SmoothError> {
    raw_rates(deaths, births)?;
    let pairs = usable_pairs(deaths, births);
    let (sum_o, sum_p) = pairs
        .iter()
        .flatten()
        .fold((0.0, 0.0), |(so, sp), (o, p)| (so + o, sp + p));
    if sum_p <= 0.0 {
        return Err(SmoothError::NoUsableArea);
    }
    let theta = sum_o / sum_p;
    let expected: Vec<Option<f64>> = pairs
        .iter()
        .map(|pair| pair.map(|(_, p)| theta * p))
        .collect();
    let ratio = pairs
        .iter()
        .zip(&expected)
        .map(|(pair, e)| match (pair, e) {
            (Some((o, _)), Some(e)) if *e > 0.0 => Some(o / e),
            _ => None,
        })
        .collect();
    Ok(ExcessRisk {
        reference_rate: PER * theta,
        expected: all_finite(expected)?,
        ratio: all_finite(ratio)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some(v: &[f64]) -> Vec<Option<f64>> {
        v.iter().map(|x| Some(*x)).collect()
    }

    /// Deaths and births of the 4-area fixture of tests/reference/README.md.
    fn four_areas() -> [Vec<Option<f64>>; 2] {
        [
            some(&[8.0, 4.0, 0.0, 15.0]),
            some(&[1000.0, 200.0, 50.0, 3000.0]),
        ]
    }

    /// The 4-area fixture of tests/reference/README.md ("Global empirical Bayes (Marshall 1991,
    /// as GeoDa)"): births [1000, 200, 50, 3000], deaths [8, 4, 0, 15] →
    /// EB per 1,000 = [7.0935, 8.2697, 6.1036, 5.3920].
    #[test]
    fn global_empirical_bayes_matches_the_four_area_golden() {
        let eb = global_eb(&four_areas()[0], &four_areas()[1]).unwrap();
        let expected = [7.0935, 8.2697, 6.1036, 5.3920];
        for (got, want) in eb.rates.iter().zip(expected) {
            assert!((got.unwrap() - want).abs() < 5e-5, "{got:?} vs {want}");
        }
        assert!((eb.prior_rate - 6.352941).abs() < 1e-6);
    }

    #[test]
    fn raw_rates_are_per_thousand_and_zero_births_give_no_rate() {
        let r = raw_rates(
            &some(&[8.0, 0.0, 1.0]),
            &[Some(1000.0), Some(50.0), Some(0.0)],
        )
        .unwrap();
        assert_eq!(r, vec![Some(8.0), Some(0.0), None]);
    }

    #[test]
    fn areas_without_data_are_left_out_of_the_prior_and_get_no_estimate() {
        let with_gap = global_eb(
            &[Some(8.0), Some(4.0), None, Some(0.0), Some(15.0)],
            &[
                Some(1000.0),
                Some(200.0),
                Some(70.0),
                Some(50.0),
                Some(3000.0),
            ],
        )
        .unwrap();
        assert_eq!(with_gap.rates[2], None);
        assert!((with_gap.rates[0].unwrap() - 7.0935).abs() < 5e-5);
    }

    #[test]
    fn excess_risk_is_the_rate_over_the_pooled_rate() {
        let er = excess_risk(&four_areas()[0], &four_areas()[1]).unwrap();
        let theta = 27.0 / 4250.0;
        assert!((er.ratio[0].unwrap() - 0.008 / theta).abs() < 1e-12);
        assert!((er.expected[1].unwrap() - 200.0 * theta).abs() < 1e-12);
        assert_eq!(er.ratio[2], Some(0.0));
        // Observed deaths equal expected deaths in total.
        let total_expected: f64 = er.expected.iter().flatten().sum();
        assert!((total_expected - 27.0).abs() < 1e-9);
    }

    #[test]
    fn mismatched_lengths_are_an_error() {
        assert!(matches!(
            raw_rates(&[Some(1.0)], &[]),
            Err(SmoothError::LengthMismatch { .. })
        ));
    }
}
