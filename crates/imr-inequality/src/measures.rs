//! Inequality measures of one year's areas: the formulas, one function each.
//!
//! Throughout: areas i = 1…n with value r_i ≥ 0 (a rate per 1,000 live births, or any value
//! column) and weight w_i > 0 (births, or any weight column); p_i = w_i / Σ_j w_j is the weight
//! share (birth share) and μ = Σ_i p_i r_i the weighted (pooled) mean. For rates, μ equals the
//! pooled rate 1000·Σ deaths / Σ births.
//!
//! Every function returns `Err(Unavailable)` with the reason when the measure is not defined for
//! these data; zeros are data and are never replaced by a small number.

use imr_stats::Lang;
use std::fmt;

/// The natural logarithm of the Theil and mean-log-deviation measures, from the `libm` crate (a
/// port of musl's): `f64::ln` calls the platform's library natively but a Rust port in the
/// browser (wasm32), which differ in the last bit for some arguments, so the page's CSV and
/// `imr`'s differed in the 16th digit of the Theil T. One implementation on both makes the
/// page's downloads and `imr`'s byte-identical.
fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Why a measure is not available for a year.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Unavailable {
    /// The year has no area with a positive weight.
    NoAreas,
    /// The weighted mean μ is 0 (every area value is 0), so relative measures divide by 0.
    ZeroMean,
    /// `count` areas have value 0 and the measure takes a logarithm of each value.
    ZeroValues { count: usize },
    /// The 10th percentile is 0, so the p90/p10 ratio divides by 0.
    ZeroP10,
    /// The lowest or highest rank quintile holds no area (an area holding a large birth share
    /// straddles the cut-off).
    EmptyQuintile,
    /// The lowest rank quintile has value 0, so the ratio divides by 0.
    ZeroLowestQuintile,
    /// Every area has the same rank value: no gradient can be estimated.
    NoRankVariation,
    /// The fitted value at the lowest rank (intercept a) is ≤ 0, so the RII (a + b)/a has no meaning.
    NonPositiveIntercept,
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::NoAreas => write!(f, "no area with a positive weight (births) this year"),
            Unavailable::ZeroMean => write!(f, "the pooled mean is 0, so a ratio to it is undefined"),
            Unavailable::ZeroValues { count } => write!(
                f,
                "{count} area(s) have value 0 and the logarithm of 0 is undefined; zeros are data and are not replaced"
            ),
            Unavailable::ZeroP10 => write!(f, "the 10th percentile is 0, so the ratio is undefined"),
            Unavailable::EmptyQuintile => write!(
                f,
                "the lowest or highest quintile of the rank holds no area (an area with a large weight straddles the cut-off)"
            ),
            Unavailable::ZeroLowestQuintile => {
                write!(f, "the lowest quintile has value 0, so the ratio is undefined")
            }
            Unavailable::NoRankVariation => {
                write!(f, "every area has the same rank value: no gradient can be estimated")
            }
            Unavailable::NonPositiveIntercept => write!(
                f,
                "the fitted value at the bottom of the rank is ≤ 0, so the relative index is undefined"
            ),
        }
    }
}

impl Unavailable {
    /// The reason in `lang`; English is the [`fmt::Display`] text (JSON and `imr` output).
    pub fn text(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            Unavailable::NoAreas => "ninguna comuna con peso positivo (nacidos vivos) este año".into(),
            Unavailable::ZeroMean => {
                "la media agrupada es 0, por lo que una razón respecto de ella no está definida".into()
            }
            Unavailable::ZeroValues { count: 1 } => "1 comuna tiene valor 0 y el logaritmo de 0 no está definido; los ceros son datos y no se reemplazan".into(),
            Unavailable::ZeroValues { count } => format!(
                "{count} comunas tienen valor 0 y el logaritmo de 0 no está definido; los ceros son datos y no se reemplazan"
            ),
            Unavailable::ZeroP10 => "el percentil 10 es 0, por lo que la razón no está definida".into(),
            Unavailable::EmptyQuintile => "el quintil más bajo o más alto del orden no contiene comunas (una comuna con mucho peso cruza el punto de corte)".into(),
            Unavailable::ZeroLowestQuintile => {
                "el quintil más bajo tiene valor 0, por lo que la razón no está definida".into()
            }
            Unavailable::NoRankVariation => {
                "todas las comunas tienen el mismo valor de orden: no se puede estimar un gradiente".into()
            }
            Unavailable::NonPositiveIntercept => "el valor ajustado en la base del orden es ≤ 0, por lo que el índice relativo no está definido".into(),
        }
    }
}

/// Why a measure of a year, or its interval, is not available: kept as a value and rendered in a
/// language on demand (never stored as text and parsed back).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// The measure has no value this year.
    Undefined(Unavailable),
    /// The measure has a value but no interval: it is not defined in `undefined` of the
    /// `replicates` bootstrap replicates.
    UndefinedInReplicates { undefined: usize, replicates: usize },
}

impl Reason {
    /// Whether the reason is about the interval (the measure itself has a value).
    pub fn is_interval(&self) -> bool {
        matches!(self, Reason::UndefinedInReplicates { .. })
    }

    /// The reason in `lang`; English is the [`fmt::Display`] text.
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Reason::Undefined(why), _) => why.text(lang),
            (Reason::UndefinedInReplicates { undefined, replicates }, Lang::En) => format!(
                "not defined in {undefined} of {replicates} bootstrap replicates, so no interval is given"
            ),
            (Reason::UndefinedInReplicates { undefined, replicates }, Lang::Es) => format!(
                "no está definida en {undefined} de {replicates} remuestreos, por lo que no hay intervalo"
            ),
        }
    }

    /// The reason as the notes say it, after "sin intervalo en 2021:" for an interval's
    /// ([`crate::Note::NotAvailable`]): why, once ("no está definida en 23 de 200 remuestreos";
    /// the note said "no disponible en 2021: sin intervalo, …, por lo que no hay intervalo").
    pub fn note_text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Reason::Undefined(_), _) => self.text(lang),
            (
                Reason::UndefinedInReplicates {
                    undefined,
                    replicates,
                },
                Lang::En,
            ) => format!("not defined in {undefined} of {replicates} bootstrap replicates"),
            (
                Reason::UndefinedInReplicates {
                    undefined,
                    replicates,
                },
                Lang::Es,
            ) => {
                format!("no está definida en {undefined} de {replicates} remuestreos")
            }
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// A measure's value, or why it is not available.
pub type MeasureResult = Result<f64, Unavailable>;

/// Weight shares p_i = w_i / Σ w_j.
///
/// # Formula
/// p_i = w_i / Σ_j w_j, for weights w_i > 0.
pub fn shares_from_weights(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

/// Weighted mean μ = Σ p_i r_i (the pooled rate, for rates weighted by births).
pub fn weighted_mean(values: &[f64], shares: &[f64]) -> MeasureResult {
    if values.is_empty() {
        return Err(Unavailable::NoAreas);
    }
    Ok(values.iter().zip(shares).map(|(r, p)| p * r).sum())
}

fn positive_mean(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = weighted_mean(values, shares)?;
    if mu > 0.0 {
        Ok(mu)
    } else {
        Err(Unavailable::ZeroMean)
    }
}

/// Indices of `values` in ascending order, ties broken by position (areas are sorted by entity
/// beforehand, so the order is deterministic).
pub(crate) fn ascending_order(values: &[f64]) -> Vec<usize> {
    let mut order = Vec::new();
    ascending_order_into(values, &mut Vec::new(), &mut order);
    order
}

/// `f64::total_cmp` as an integer key: keys compare as `total_cmp` compares the values (the
/// same bit transformation the standard library applies).
fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// [`ascending_order`] into reused buffers (the bootstrap sorts every replicate). Sorting the
/// (key, position) pairs, which are all distinct, gives exactly the order of a stable sort by
/// `total_cmp` with ties by position, several times faster than sorting indices through a
/// comparison closure.
pub(crate) fn ascending_order_into(
    values: &[f64],
    keys: &mut Vec<(i64, usize)>,
    order: &mut Vec<usize>,
) {
    keys.clear();
    keys.extend(
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| (total_order_key(v), i)),
    );
    keys.sort_unstable();
    order.clear();
    order.extend(keys.iter().map(|&(_, i)| i));
}

/// Weighted Gini coefficient of area values.
///
/// # Formula
/// G = Σ_i Σ_j p_i p_j |r_i − r_j| / (2μ), with p_i the weight shares and μ = Σ p_i r_i.
/// Computed in O(n log n): with areas sorted ascending by r and L_i = Σ_{j before i} p_j the share
/// below area i, G = Σ_i p_i r_i (2 L_i + p_i − 1) / μ (ties contribute |r_i − r_j| = 0 either way).
///
/// Reference: Gini, C. (1912) *Variabilità e mutabilità*; weighted form as in Lerman, R. I. &
/// Yitzhaki, S. (1989) "Improving the accuracy of estimates of Gini coefficients",
/// *J Econometrics* 42:43–47, and the WHO Health Equity Assessment Toolkit technical notes (2017).
pub fn gini_weighted(values: &[f64], shares: &[f64]) -> MeasureResult {
    gini_with_order(values, shares, &ascending_order(values))
}

/// [`gini_weighted`] with the ascending order of `values` already known (computed once per year).
pub(crate) fn gini_with_order(values: &[f64], shares: &[f64], order: &[usize]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    let mut below = 0.0;
    let mut sum = 0.0;
    for &i in order {
        sum += shares[i] * values[i] * (2.0 * below + shares[i] - 1.0);
        below += shares[i];
    }
    Ok(sum / mu)
}

/// Unweighted Gini coefficient, without small-sample correction (R `ineq::Gini(corr = FALSE)`,
/// pysal `inequality.gini.Gini`).
///
/// # Formula
/// G = Σ_i Σ_j |r_i − r_j| / (2 n² r̄), with n areas and r̄ = Σ r_i / n: the weighted formula
/// with every p_i = 1/n.
///
/// Reference: Gini (1912); Cowell, F. (2011) *Measuring Inequality*, 3rd ed., Oxford UP, ch. 2.
pub fn gini_unweighted(values: &[f64]) -> MeasureResult {
    let equal = vec![1.0 / values.len() as f64; values.len()];
    gini_weighted(values, &equal)
}

/// Theil T index (GE(1)), weighted.
///
/// # Formula
/// T = Σ_i p_i (r_i/μ) ln(r_i/μ), with 0·ln 0 = 0 for areas with r_i = 0.
///
/// Reference: Theil, H. (1967) *Economics and Information Theory*, North-Holland; WHO HEAT
/// technical notes (2017), "Theil index" (HEAT reports T × 1000).
pub fn theil_t(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    Ok(theil_t_with_mean(values, shares, mu))
}

fn theil_t_with_mean(values: &[f64], shares: &[f64], mu: f64) -> f64 {
    values
        .iter()
        .zip(shares)
        .filter(|(r, _)| **r > 0.0)
        .map(|(r, p)| p * (r / mu) * ln(r / mu))
        .sum()
}

/// Mean log deviation (Theil L, GE(0)), weighted.
///
/// # Formula
/// MLD = Σ_i p_i ln(μ / r_i). Not available when any r_i = 0 (ln of μ/0 is infinite); zeros
/// are not replaced.
///
/// Reference: Theil (1967); Shorrocks, A. F. (1980) "The class of additively decomposable
/// inequality measures", *Econometrica* 48(3):613–625.
pub fn mean_log_deviation(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    let zeros = values.iter().filter(|r| **r == 0.0).count();
    if zeros > 0 {
        return Err(Unavailable::ZeroValues { count: zeros });
    }
    Ok(values.iter().zip(shares).map(|(r, p)| p * ln(mu / r)).sum())
}

/// Coefficient of variation, weighted (a ratio, not a percentage).
///
/// # Formula
/// CoV = √(Σ_i p_i (r_i − μ)²) / μ. The numerator squared is the between-group variance (BGV)
/// of WHO HEAT; its root is the BGSD.
///
/// Reference: WHO HEAT technical notes (2017), "Between-group variance" and "Coefficient of
/// variation".
pub fn coefficient_of_variation(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    let variance: f64 = values
        .iter()
        .zip(shares)
        .map(|(r, p)| p * (r - mu) * (r - mu))
        .sum();
    Ok(variance.sqrt() / mu)
}

/// Atkinson index with inequality aversion ε = 0.5, weighted.
///
/// # Formula
/// A(0.5) = 1 − (Σ_i p_i (r_i/μ)^0.5)².
///
/// Reference: Atkinson, A. B. (1970) "On the measurement of inequality", *J Econ Theory*
/// 2(3):244–263.
pub fn atkinson_half(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    let s: f64 = values
        .iter()
        .zip(shares)
        .map(|(r, p)| p * (r / mu).sqrt())
        .sum();
    Ok(1.0 - s * s)
}

/// Weighted mean absolute deviation from the weighted mean, in the unit of the values.
///
/// # Formula
/// MAD = Σ_i p_i |r_i − μ|.
///
/// Reference: WHO HEAT technical notes (2017), "Mean difference from mean (weighted)".
pub fn mean_absolute_deviation(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = weighted_mean(values, shares)?;
    Ok(values
        .iter()
        .zip(shares)
        .map(|(r, p)| p * (r - mu).abs())
        .sum())
}

/// Index of disparity, in percent, with the pooled mean as reference.
///
/// # Formula
/// ID = 100 · (Σ_i |r_i − μ| / n) / μ: the unweighted average absolute difference of the n area
/// values from the pooled (weighted) mean, relative to it.
///
/// Reference: Pearcy, J. N. & Keppel, K. G. (2002) "A summary measure of health disparity",
/// *Public Health Rep* 117(3):273–280; WHO HEAT technical notes (2017), "Index of disparity
/// (unweighted)".
pub fn index_of_disparity(values: &[f64], shares: &[f64]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    let n = values.len() as f64;
    Ok(100.0 * values.iter().map(|r| (r - mu).abs()).sum::<f64>() / n / mu)
}

/// Between- and within-group parts of Theil T.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TheilDecomposition {
    pub between: f64,
    pub within: f64,
}

/// Decomposition of Theil T by groups (e.g. regions) into between and within parts.
///
/// # Formula
/// For group g: P_g = Σ_{i∈g} p_i (its weight share), μ_g = Σ_{i∈g} p_i r_i / P_g (its mean),
/// s_g = P_g μ_g / μ (its share of the total), T_g = Σ_{i∈g} (p_i/P_g)(r_i/μ_g) ln(r_i/μ_g).
/// T_between = Σ_g s_g ln(μ_g/μ), T_within = Σ_g s_g T_g, and T_between + T_within = T exactly
/// (a group with μ_g = 0 has s_g = 0 and contributes nothing).
///
/// Reference: Shorrocks (1980), *Econometrica* 48(3):613–625; Theil (1967).
pub fn theil_decomposition(
    values: &[f64],
    shares: &[f64],
    groups: &[usize],
) -> Result<TheilDecomposition, Unavailable> {
    let mu = positive_mean(values, shares)?;
    let n_groups = groups.iter().max().map_or(0, |g| g + 1);
    let mut weight = vec![0.0; n_groups];
    let mut total = vec![0.0; n_groups];
    for ((r, p), &g) in values.iter().zip(shares).zip(groups) {
        weight[g] += p;
        total[g] += p * r;
    }
    let mut within_sum = vec![0.0; n_groups];
    for ((r, p), &g) in values.iter().zip(shares).zip(groups) {
        if *r > 0.0 {
            let mu_g = total[g] / weight[g];
            within_sum[g] += (p / weight[g]) * (r / mu_g) * ln(r / mu_g);
        }
    }
    let mut between = 0.0;
    let mut within = 0.0;
    for g in 0..n_groups {
        if weight[g] == 0.0 || total[g] == 0.0 {
            continue;
        }
        let mu_g = total[g] / weight[g];
        let share = total[g] / mu;
        between += share * ln(mu_g / mu);
        within += share * within_sum[g];
    }
    Ok(TheilDecomposition { between, within })
}

/// Fractional rank R_i of each area by an ascending rank variable (e.g. poverty).
///
/// # Formula
/// Areas sorted ascending by the rank variable x; R_i = Σ_{j: x_j < x_i} p_j + ½ Σ_{j: x_j = x_i} p_j,
/// the cumulative weight share at the midpoint of the area (areas with equal x share one rank,
/// so the result does not depend on their order).
///
/// Reference: O'Donnell, O., van Doorslaer, E., Wagstaff, A. & Lindelow, M. (2008) *Analyzing
/// Health Equity Using Household Survey Data*, World Bank, ch. 8.
pub fn fractional_ranks(ranks: &[f64], shares: &[f64]) -> Vec<f64> {
    let order = ascending_order(ranks);
    let mut out = vec![0.0; ranks.len()];
    let mut start = 0;
    let mut below = 0.0;
    while start < order.len() {
        let x = ranks[order[start]];
        let mut end = start;
        let mut tied = 0.0;
        while end < order.len() && ranks[order[end]] == x {
            tied += shares[order[end]];
            end += 1;
        }
        for &i in &order[start..end] {
            out[i] = below + tied / 2.0;
        }
        below += tied;
        start = end;
    }
    out
}

/// Concentration index of the values along the rank.
///
/// # Formula
/// C = 2 Σ_i p_i r_i R_i / μ − 1, with R_i the fractional rank ([`fractional_ranks`]). C > 0 when
/// values concentrate among areas with a high rank value (e.g. high poverty); C ∈ [−1, 1].
///
/// Reference: Kakwani, N., Wagstaff, A. & van Doorslaer, E. (1997) "Socioeconomic inequalities in
/// health: measurement, computation, and statistical inference", *J Econometrics* 77(1):87–103.
pub fn concentration_index(values: &[f64], shares: &[f64], fractional: &[f64]) -> MeasureResult {
    let mu = positive_mean(values, shares)?;
    let s: f64 = values
        .iter()
        .zip(shares)
        .zip(fractional)
        .map(|((r, p), rr)| p * r * rr)
        .sum();
    Ok(2.0 * s / mu - 1.0)
}

/// Slope index of inequality and relative index of inequality.
#[derive(Debug, Clone, PartialEq)]
pub struct SlopeIndex {
    /// b: fitted difference between the top (R = 1) and bottom (R = 0) of the rank.
    pub sii: f64,
    /// (a + b)/a, or why not available.
    pub rii: MeasureResult,
    /// Intercept a: fitted value at R = 0.
    pub intercept: f64,
}

/// Slope (SII) and relative (RII) index of inequality from the weighted least-squares line.
///
/// # Formula
/// Fit r_i = a + b·R_i by least squares with weights p_i: R̄ = Σ p_i R_i, r̄ = μ,
/// b = Σ p_i (R_i − R̄)(r_i − μ) / Σ p_i (R_i − R̄)², a = μ − b R̄. SII = b (absolute gap, top
/// minus bottom of the rank); RII = (a + b)/a (ratio of fitted values at R = 1 and R = 0),
/// not available when a ≤ 0.
///
/// Reference: Pamuk, E. R. (1985) *Population Studies* 39(1):17–31; Mackenbach, J. P. & Kunst,
/// A. E. (1997) "Measuring the magnitude of socio-economic inequalities in health", *Soc Sci Med*
/// 44(6):757–771.
pub fn slope_index(
    values: &[f64],
    shares: &[f64],
    fractional: &[f64],
) -> Result<SlopeIndex, Unavailable> {
    let mu = weighted_mean(values, shares)?;
    let r_bar: f64 = fractional.iter().zip(shares).map(|(rr, p)| p * rr).sum();
    let mut sxy = 0.0;
    let mut sxx = 0.0;
    for ((r, p), rr) in values.iter().zip(shares).zip(fractional) {
        sxy += p * (rr - r_bar) * (r - mu);
        sxx += p * (rr - r_bar) * (rr - r_bar);
    }
    if sxx <= 0.0 {
        return Err(Unavailable::NoRankVariation);
    }
    let b = sxy / sxx;
    let a = mu - b * r_bar;
    let rii = if a > 0.0 {
        Ok((a + b) / a)
    } else {
        Err(Unavailable::NonPositiveIntercept)
    };
    Ok(SlopeIndex {
        sii: b,
        rii,
        intercept: a,
    })
}

/// Rate ratio and difference between the highest and the lowest quintile of the rank.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtremeQuintiles {
    /// Q5 / Q1.
    pub ratio: MeasureResult,
    /// Q5 − Q1.
    pub difference: f64,
}

/// Extreme-quintile ratio and difference.
///
/// # Formula
/// Area i belongs to quintile q_i = min(⌊5 R_i⌋, 4) + 1 of the rank (R_i its fractional rank, so
/// quintiles hold about a fifth of the births each). The quintile's value is its weighted mean
/// m_q = Σ_{i∈q} p_i r_i / Σ_{i∈q} p_i (for rates, its pooled rate). Ratio = m_5 / m_1,
/// difference = m_5 − m_1.
///
/// Reference: Kunst, A. E. & Mackenbach, J. P. (1994) *Measuring socioeconomic inequalities in
/// health*, WHO Regional Office for Europe; O'Donnell et al. (2008), ch. 7.
pub fn extreme_quintiles(
    values: &[f64],
    shares: &[f64],
    fractional: &[f64],
) -> Result<ExtremeQuintiles, Unavailable> {
    let mut weight = [0.0; 5];
    let mut total = [0.0; 5];
    for ((r, p), rr) in values.iter().zip(shares).zip(fractional) {
        let q = ((5.0 * rr).floor() as usize).min(4);
        weight[q] += p;
        total[q] += p * r;
    }
    if weight[0] == 0.0 || weight[4] == 0.0 {
        return Err(Unavailable::EmptyQuintile);
    }
    let low = total[0] / weight[0];
    let high = total[4] / weight[4];
    let ratio = if low > 0.0 {
        Ok(high / low)
    } else {
        Err(Unavailable::ZeroLowestQuintile)
    };
    Ok(ExtremeQuintiles {
        ratio,
        difference: high - low,
    })
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(Unavailable, Reason);

#[cfg(test)]
mod tests {
    #[test]
    fn every_reason_of_unavailability_has_a_spanish_text() {
        use super::Unavailable::*;
        for u in [
            NoAreas,
            ZeroMean,
            ZeroValues { count: 3 },
            ZeroP10,
            EmptyQuintile,
            ZeroLowestQuintile,
            NoRankVariation,
            NonPositiveIntercept,
        ] {
            let en = u.to_string();
            assert_eq!(u.text(Lang::En), en);
            assert_ne!(u.text(Lang::Es), en, "{en}");
            let reason = super::Reason::Undefined(u.clone());
            assert_eq!(reason.note_text(Lang::Es), u.text(Lang::Es));
        }
        let interval = super::Reason::UndefinedInReplicates {
            undefined: 3,
            replicates: 200,
        };
        assert_eq!(
            interval.to_string(),
            "not defined in 3 of 200 bootstrap replicates, so no interval is given"
        );
        assert_eq!(
            interval.note_text(Lang::Es),
            "no está definida en 3 de 200 remuestreos"
        );
        assert_eq!(
            interval.note_text(Lang::En),
            "not defined in 3 of 200 bootstrap replicates"
        );
        let note = crate::Note::NotAvailable {
            key: "mld".into(),
            why: interval,
            years: vec![2021],
        };
        // "no disponible …: sin intervalo, …, por lo que no hay intervalo" said it twice
        assert_eq!(
            note.render(Lang::Es),
            "Desviación logarítmica media sin intervalo en 2021: no está definida en 3 de 200 remuestreos."
        );
        assert_eq!(
            note.render(Lang::En),
            "mld has no interval in 2021: not defined in 3 of 200 bootstrap replicates."
        );
    }

    use super::*;

    /// Two areas, equal weights, values 0 and 1: ΣΣ p p |r_i − r_j| = 2·¼·1 = ½ and μ = ½,
    /// so G = ½ / (2·½) = ½.
    #[test]
    fn gini_of_two_equal_areas_zero_and_one_is_one_half() {
        let g = gini_weighted(&[0.0, 1.0], &[0.5, 0.5]).unwrap();
        assert!((g - 0.5).abs() < 1e-15);
    }

    #[test]
    fn equal_values_have_no_inequality() {
        let v = [4.0, 4.0, 4.0];
        let p = shares_from_weights(&[1.0, 2.0, 3.0]);
        assert!(gini_weighted(&v, &p).unwrap().abs() < 1e-15);
        assert!(theil_t(&v, &p).unwrap().abs() < 1e-15);
        assert!(mean_log_deviation(&v, &p).unwrap().abs() < 1e-15);
        assert!(atkinson_half(&v, &p).unwrap().abs() < 1e-15);
    }

    #[test]
    fn all_zero_values_make_relative_measures_unavailable() {
        let v = [0.0, 0.0];
        let p = [0.5, 0.5];
        assert_eq!(gini_weighted(&v, &p), Err(Unavailable::ZeroMean));
        assert_eq!(theil_t(&v, &p), Err(Unavailable::ZeroMean));
        assert_eq!(mean_absolute_deviation(&v, &p), Ok(0.0));
    }

    /// Ties in the rank share one fractional rank: shares ¼, ¼, ½ with ranks 1, 1, 2 give
    /// R = ¼, ¼, ¾.
    #[test]
    fn tied_ranks_share_their_midpoint() {
        let r = fractional_ranks(&[1.0, 1.0, 2.0], &[0.25, 0.25, 0.5]);
        assert_eq!(r, vec![0.25, 0.25, 0.75]);
    }

    /// Five equal areas with values 1..5 along ranks 1..5: R = 0.1, 0.3, …, 0.9, each its own
    /// quintile, so Q5/Q1 = 5 and Q5 − Q1 = 4; the least-squares slope over R is 1/0.2 = 5,
    /// a = 3 − 5·0.5 = 0.5, RII = 5.5/0.5 = 11.
    #[test]
    fn a_linear_gradient_gives_the_expected_slope_and_quintiles() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        let p = [0.2; 5];
        let rr = fractional_ranks(&v, &p);
        let s = slope_index(&v, &p, &rr).unwrap();
        assert!((s.sii - 5.0).abs() < 1e-12);
        assert!((s.rii.unwrap() - 11.0).abs() < 1e-12);
        let q = extreme_quintiles(&v, &p, &rr).unwrap();
        assert!((q.ratio.unwrap() - 5.0).abs() < 1e-12);
        assert!((q.difference - 4.0).abs() < 1e-12);
    }
}
