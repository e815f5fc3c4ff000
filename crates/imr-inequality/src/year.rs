//! All measures of one year, the list of measure names, and how they are computed together.

use crate::input::YearAreas;
use crate::measures::{self, MeasureResult, Unavailable};
use crate::quantity::Unit;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeMap;

/// Whether the areas hold rates (events over births) or a weighted value column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    Rate,
    Value,
}

/// Every per-year measure, in the order of the table, the JSON and the CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Measure {
    NAreas,
    PooledRate,
    Median,
    P10,
    P25,
    P75,
    P90,
    P90P10,
    Min,
    Max,
    ZeroAreas,
    Gini,
    GiniUnweighted,
    TheilT,
    Mld,
    Cov,
    Atkinson05,
    MeanAbsDev,
    IndexOfDisparity,
    TheilBetween,
    TheilWithin,
    ConcentrationIndex,
    Sii,
    Rii,
    QuintileRatio,
    QuintileDifference,
}

/// Which optional input a measure needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    Group,
    Rank,
}

impl Measure {
    /// All measures, in display order.
    pub const ALL: [Measure; 26] = [
        Measure::NAreas,
        Measure::PooledRate,
        Measure::Median,
        Measure::P10,
        Measure::P25,
        Measure::P75,
        Measure::P90,
        Measure::P90P10,
        Measure::Min,
        Measure::Max,
        Measure::ZeroAreas,
        Measure::Gini,
        Measure::GiniUnweighted,
        Measure::TheilT,
        Measure::Mld,
        Measure::Cov,
        Measure::Atkinson05,
        Measure::MeanAbsDev,
        Measure::IndexOfDisparity,
        Measure::TheilBetween,
        Measure::TheilWithin,
        Measure::ConcentrationIndex,
        Measure::Sii,
        Measure::Rii,
        Measure::QuintileRatio,
        Measure::QuintileDifference,
    ];

    /// The JSON/CSV key (`data-measure` on the page). The count of zero areas is
    /// `zero_death_areas` for rates and `zero_value_areas` for a value column.
    pub fn key(self, kind: SubjectKind) -> &'static str {
        match self {
            Measure::NAreas => "n_areas",
            Measure::PooledRate => "pooled_rate",
            Measure::Median => "median",
            Measure::P10 => "p10",
            Measure::P25 => "p25",
            Measure::P75 => "p75",
            Measure::P90 => "p90",
            Measure::P90P10 => "p90_p10",
            Measure::Min => "min",
            Measure::Max => "max",
            Measure::ZeroAreas => match kind {
                SubjectKind::Rate => "zero_death_areas",
                SubjectKind::Value => "zero_value_areas",
            },
            Measure::Gini => "gini",
            Measure::GiniUnweighted => "gini_unweighted",
            Measure::TheilT => "theil_t",
            Measure::Mld => "mld",
            Measure::Cov => "cov",
            Measure::Atkinson05 => "atkinson_0_5",
            Measure::MeanAbsDev => "mean_abs_dev",
            Measure::IndexOfDisparity => "index_of_disparity",
            Measure::TheilBetween => "theil_between",
            Measure::TheilWithin => "theil_within",
            Measure::ConcentrationIndex => "concentration_index",
            Measure::Sii => "sii",
            Measure::Rii => "rii",
            Measure::QuintileRatio => "quintile_ratio",
            Measure::QuintileDifference => "quintile_difference",
        }
    }

    /// The measure whose key is `key` (either zero-area key is accepted).
    pub fn from_key(key: &str) -> Option<Measure> {
        Measure::ALL
            .into_iter()
            .find(|m| m.key(SubjectKind::Rate) == key || m.key(SubjectKind::Value) == key)
    }

    /// A label for tables and chart titles.
    pub fn label(self) -> &'static str {
        match self {
            Measure::NAreas => "Number of areas",
            Measure::PooledRate => "Pooled rate",
            Measure::Median => "Median",
            Measure::P10 => "10th percentile",
            Measure::P25 => "25th percentile",
            Measure::P75 => "75th percentile",
            Measure::P90 => "90th percentile",
            Measure::P90P10 => "P90/P10 ratio",
            Measure::Min => "Minimum",
            Measure::Max => "Maximum",
            Measure::ZeroAreas => "Areas with zero",
            Measure::Gini => "Gini (weighted)",
            Measure::GiniUnweighted => "Gini (unweighted)",
            Measure::TheilT => "Theil T",
            Measure::Mld => "Mean log deviation",
            Measure::Cov => "Coefficient of variation",
            Measure::Atkinson05 => "Atkinson (ε = 0.5)",
            Measure::MeanAbsDev => "Mean absolute deviation",
            Measure::IndexOfDisparity => "Index of disparity",
            Measure::TheilBetween => "Theil T between groups",
            Measure::TheilWithin => "Theil T within groups",
            Measure::ConcentrationIndex => "Concentration index",
            Measure::Sii => "Slope index of inequality",
            Measure::Rii => "Relative index of inequality",
            Measure::QuintileRatio => "Extreme-quintile ratio",
            Measure::QuintileDifference => "Extreme-quintile difference",
        }
    }

    /// Unit of the measure, given the unit of the area values (`value_unit`).
    pub fn unit(self, value_unit: &Unit) -> Unit {
        match self {
            Measure::PooledRate
            | Measure::Median
            | Measure::P10
            | Measure::P25
            | Measure::P75
            | Measure::P90
            | Measure::Min
            | Measure::Max
            | Measure::MeanAbsDev
            | Measure::Sii
            | Measure::QuintileDifference => value_unit.clone(),
            Measure::NAreas | Measure::ZeroAreas => Unit::Areas,
            Measure::IndexOfDisparity => Unit::Percent,
            _ => Unit::Ratio,
        }
    }

    /// Which optional input the measure needs.
    pub fn needs(self) -> Needs {
        match self {
            Measure::TheilBetween | Measure::TheilWithin => Needs::Group,
            Measure::ConcentrationIndex
            | Measure::Sii
            | Measure::Rii
            | Measure::QuintileRatio
            | Measure::QuintileDifference => Needs::Rank,
            _ => Needs::Nothing,
        }
    }

    /// Whether the measure is a count (serialised as an integer).
    pub fn is_count(self) -> bool {
        matches!(self, Measure::NAreas | Measure::ZeroAreas)
    }

    /// The values the measure can take, (low, high): the bias-corrected value and the basic
    /// interval are clipped to it. Rates, counts, dispersion and ratio measures are ≥ 0 (the
    /// P90/P10 ratio ≥ 1); the
    /// Gini indices and the Atkinson index are in [0, 1], the concentration index in [−1, 1];
    /// the slope index, the relative index (whose intercept can be negative) and the quintile
    /// difference are unbounded.
    pub fn range(self) -> (f64, f64) {
        match self {
            Measure::Gini | Measure::GiniUnweighted | Measure::Atkinson05 => (0.0, 1.0),
            Measure::ConcentrationIndex => (-1.0, 1.0),
            // The 90th percentile over the 10th of non-negative values: never below 1 (a
            // bias-corrected value below it is clipped to it, not printed as 0,82).
            Measure::P90P10 => (1.0, f64::INFINITY),
            Measure::Sii | Measure::Rii | Measure::QuintileDifference => {
                (f64::NEG_INFINITY, f64::INFINITY)
            }
            _ => (0.0, f64::INFINITY),
        }
    }

    /// Whether the measure describes the spread of the area values (inequality or dispersion),
    /// which Poisson noise in small areas inflates.
    pub fn is_dispersion(self) -> bool {
        matches!(
            self,
            Measure::P90P10
                | Measure::Gini
                | Measure::GiniUnweighted
                | Measure::TheilT
                | Measure::Mld
                | Measure::Cov
                | Measure::Atkinson05
                | Measure::MeanAbsDev
                | Measure::IndexOfDisparity
                | Measure::TheilBetween
                | Measure::TheilWithin
        )
    }

    /// Whether a bootstrap interval is reported (every measure except the number of areas,
    /// which the bootstrap holds fixed).
    pub fn has_interval(self) -> bool {
        self != Measure::NAreas
    }

    /// Whether the page, its CSV and its charts show the measure's bootstrap interval for a
    /// subject of `kind`. For rates, where its bias correction holds
    /// ([`Measure::has_bias_correction`]): the pooled rate and the inequality indices, not the
    /// areas with zero nor the order statistics. The Poisson bootstrap moves small communes'
    /// rates to and from zero, so that the replicates of a quantile, an extreme or a count of
    /// zeros sit to one side of the value, and neither the basic nor the percentile interval
    /// holds it (the bundled 2001: P25 4,44 with "8,88 – 8,88", the median 8,24 with
    /// "8,74 – 10,22", the areas with zero 68 with "28 – 47", in a newcomer's review of the
    /// page). For a value column, whose areas are resampled, every interval
    /// ([`Measure::has_interval`]). The JSON keeps them all for analysts, as it keeps every
    /// resampled bias; the table says why a value stands alone
    /// ([`crate::reading::no_interval_note`]).
    pub fn shows_interval(self, kind: SubjectKind) -> bool {
        match kind {
            SubjectKind::Rate => self.has_bias_correction(),
            SubjectKind::Value => self.has_interval(),
        }
    }

    /// Whether the bootstrap's bias correction (estimate − (mean of replicates − estimate)) is
    /// offered and flagged for this measure: for the pooled rate and the inequality indices,
    /// smooth functions of the areas' counts, yes; for counts (areas, areas with zero) and order
    /// statistics (median, percentiles, their ratio, minimum, maximum), no — the resampled bias
    /// of a count is not a count, and the bootstrap's bias estimate of a sample quantile or
    /// extreme is unreliable (Efron & Tibshirani 1993, §7.2–7.3 and §10; for the maximum,
    /// Bickel & Freedman 1981). The JSON keeps every resampled bias for analysts; the page and
    /// the notes show the correction only where this holds.
    pub fn has_bias_correction(self) -> bool {
        !matches!(
            self,
            Measure::NAreas
                | Measure::ZeroAreas
                | Measure::Median
                | Measure::P10
                | Measure::P25
                | Measure::P75
                | Measure::P90
                | Measure::P90P10
                | Measure::Min
                | Measure::Max
        )
    }
}

/// Every measure of one year (or of one bootstrap replicate), with the reason for each one that
/// applies but is not available.
#[derive(Debug, Clone, PartialEq)]
pub struct YearMeasures {
    pub time: i64,
    pub kind: SubjectKind,
    /// Whether groups were given (the decomposition applies) and whether ranks were.
    pub has_group: bool,
    pub has_rank: bool,
    /// Value per measure, indexed by `Measure as usize`.
    values: [Option<f64>; Measure::ALL.len()],
    /// Why a measure that applies is not available.
    pub not_available: BTreeMap<Measure, crate::Reason>,
}

impl YearMeasures {
    /// The value of a measure, `None` when it does not apply or is not available.
    pub fn get(&self, measure: Measure) -> Option<f64> {
        self.values[measure as usize]
    }

    /// Whether the measure applies to this analysis (group and rank measures need their column).
    pub fn applies(&self, measure: Measure) -> bool {
        match measure.needs() {
            Needs::Nothing => true,
            Needs::Group => self.has_group,
            Needs::Rank => self.has_rank,
        }
    }

    /// Why a measure is not available, if it is not.
    pub fn reason(&self, measure: Measure) -> Option<&crate::Reason> {
        self.not_available.get(&measure)
    }

    pub fn n_areas(&self) -> usize {
        self.get(Measure::NAreas).unwrap_or(0.0) as usize
    }

    fn set(&mut self, measure: Measure, result: MeasureResult) {
        match result {
            Ok(x) => self.values[measure as usize] = Some(x),
            Err(why) => {
                self.not_available
                    .insert(measure, crate::Reason::Undefined(why));
            }
        }
    }

    /// Serialise the measures that apply (as numbers, or `null` with a reason elsewhere) into a
    /// JSON-like map: used by the report.
    pub(crate) fn serialize_into<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        for m in Measure::ALL {
            if !self.applies(m) {
                continue;
            }
            let key = m.key(self.kind);
            match self.get(m) {
                Some(x) if m.is_count() => map.serialize_entry(key, &(x as u64))?,
                Some(x) => map.serialize_entry(key, &x)?,
                None => map.serialize_entry(key, &Option::<f64>::None)?,
            }
        }
        Ok(())
    }
}

impl Serialize for YearMeasures {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("time", &self.time)?;
        self.serialize_into(&mut map)?;
        map.end()
    }
}

/// The inputs of one year's (or one bootstrap replicate's) measures.
pub(crate) struct YearData<'a> {
    pub time: i64,
    pub kind: SubjectKind,
    pub values: &'a [f64],
    pub weights: &'a [f64],
    pub groups: Option<&'a [usize]>,
    pub ranks: Option<&'a [f64]>,
}

impl<'a> YearData<'a> {
    pub fn from_areas(areas: &'a YearAreas, kind: SubjectKind) -> Self {
        YearData {
            time: areas.time,
            kind,
            values: &areas.values,
            weights: &areas.weights,
            groups: areas.groups.as_deref(),
            ranks: areas.ranks.as_deref(),
        }
    }
}

/// Compute every measure of one year.
///
/// Distribution measures (median, percentiles, min, max) are unweighted across areas, with
/// type-7 quantiles (R `quantile(type = 7)`, NumPy's default; Hyndman & Fan 1996).
/// `p90_p10` = p90 / p10. The other measures are in [`crate::measures`].
pub(crate) fn compute_year(data: &YearData) -> YearMeasures {
    compute_year_with(data, &mut YearScratch::default())
}

/// Buffers reused from one bootstrap replicate to the next, and the weight shares when every
/// replicate has the same weights (the Poisson bootstrap holds births fixed). The values are
/// those [`compute_year`] computes afresh, bit for bit.
#[derive(Debug, Default)]
pub(crate) struct YearScratch {
    fixed_shares: Option<Vec<f64>>,
    equal: Vec<f64>,
    keys: Vec<(i64, usize)>,
    order: Vec<usize>,
    sorted: Vec<f64>,
}

impl YearScratch {
    /// For replicates that all have these weights.
    pub fn with_fixed_weights(weights: &[f64]) -> Self {
        YearScratch {
            fixed_shares: Some(measures::shares_from_weights(weights)),
            ..Default::default()
        }
    }
}

/// [`compute_year`] with reused buffers (see [`YearScratch`]).
pub(crate) fn compute_year_with(data: &YearData, scratch: &mut YearScratch) -> YearMeasures {
    let mut out = YearMeasures {
        time: data.time,
        kind: data.kind,
        has_group: data.groups.is_some(),
        has_rank: data.ranks.is_some(),
        values: [None; Measure::ALL.len()],
        not_available: BTreeMap::new(),
    };
    let values = data.values;
    out.set(Measure::NAreas, Ok(values.len() as f64));
    if values.is_empty() {
        for m in Measure::ALL.into_iter().skip(1) {
            if out.applies(m) {
                out.set(m, Err(Unavailable::NoAreas));
            }
        }
        return out;
    }
    let YearScratch {
        fixed_shares,
        equal,
        keys,
        order,
        sorted,
    } = scratch;
    let computed_shares;
    let shares: &[f64] = match fixed_shares {
        Some(fixed) => {
            debug_assert_eq!(fixed.len(), data.weights.len());
            fixed
        }
        None => {
            computed_shares = measures::shares_from_weights(data.weights);
            &computed_shares
        }
    };
    measures::ascending_order_into(values, keys, order);
    sorted.clear();
    sorted.extend(order.iter().map(|&i| values[i]));
    let sorted: &[f64] = sorted;
    let order: &[usize] = order;
    let q = |p: f64| imr_stats::quantile_type7(sorted, p).expect("non-empty, p in [0, 1]");
    let (p10, p90) = (q(0.10), q(0.90));
    out.set(Measure::PooledRate, measures::weighted_mean(values, shares));
    out.set(Measure::Median, Ok(q(0.5)));
    out.set(Measure::P10, Ok(p10));
    out.set(Measure::P25, Ok(q(0.25)));
    out.set(Measure::P75, Ok(q(0.75)));
    out.set(Measure::P90, Ok(p90));
    out.set(
        Measure::P90P10,
        if p10 > 0.0 {
            Ok(p90 / p10)
        } else {
            Err(Unavailable::ZeroP10)
        },
    );
    out.set(Measure::Min, Ok(sorted[0]));
    out.set(Measure::Max, Ok(sorted[sorted.len() - 1]));
    out.set(
        Measure::ZeroAreas,
        Ok(values.iter().filter(|r| **r == 0.0).count() as f64),
    );
    out.set(
        Measure::Gini,
        measures::gini_with_order(values, shares, order),
    );
    if equal.len() != values.len() {
        *equal = vec![1.0 / values.len() as f64; values.len()];
    }
    out.set(
        Measure::GiniUnweighted,
        measures::gini_with_order(values, equal, order),
    );
    out.set(Measure::TheilT, measures::theil_t(values, shares));
    out.set(Measure::Mld, measures::mean_log_deviation(values, shares));
    out.set(
        Measure::Cov,
        measures::coefficient_of_variation(values, shares),
    );
    out.set(Measure::Atkinson05, measures::atkinson_half(values, shares));
    out.set(
        Measure::MeanAbsDev,
        measures::mean_absolute_deviation(values, shares),
    );
    out.set(
        Measure::IndexOfDisparity,
        measures::index_of_disparity(values, shares),
    );
    if let Some(groups) = data.groups {
        match measures::theil_decomposition(values, shares, groups) {
            Ok(d) => {
                out.set(Measure::TheilBetween, Ok(d.between));
                out.set(Measure::TheilWithin, Ok(d.within));
            }
            Err(why) => {
                out.set(Measure::TheilBetween, Err(why.clone()));
                out.set(Measure::TheilWithin, Err(why));
            }
        }
    }
    if let Some(ranks) = data.ranks {
        let fractional = measures::fractional_ranks(ranks, shares);
        out.set(
            Measure::ConcentrationIndex,
            measures::concentration_index(values, shares, &fractional),
        );
        match measures::slope_index(values, shares, &fractional) {
            Ok(s) => {
                out.set(Measure::Sii, Ok(s.sii));
                out.set(Measure::Rii, s.rii);
            }
            Err(why) => {
                out.set(Measure::Sii, Err(why.clone()));
                out.set(Measure::Rii, Err(why));
            }
        }
        match measures::extreme_quintiles(values, shares, &fractional) {
            Ok(x) => {
                out.set(Measure::QuintileRatio, x.ratio);
                out.set(Measure::QuintileDifference, Ok(x.difference));
            }
            Err(why) => {
                out.set(Measure::QuintileRatio, Err(why.clone()));
                out.set(Measure::QuintileDifference, Err(why));
            }
        }
    }
    out
}
