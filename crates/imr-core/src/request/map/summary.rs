//! [`MapSummary`]: what a map shows, as `imr map` prints it in JSON (with the input's account
//! and the output path beside it).

use imr_map::autocorrelation::{Lisa, LisaCluster, Moran};
use imr_map::classify::ClassInfo;
use serde::Serialize;

/// A limit or statistic that is a number only when finite (JSON has no infinity): `None`
/// otherwise, written as `null`.
pub(super) fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// The map of one year in numbers: what was mapped and how, its classes with limits and counts,
/// the areas flagged, without data or not drawn, the codes matched and unmatched on either side,
/// Moran's I (permutation and analytical tests, and the EB-standardised I of a rate map) and the
/// LISA counts. Serialised, its keys are those of `imr map`'s JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapSummary {
    /// The year mapped.
    pub year: i64,
    /// The earlier year whose values the mapped year repeats (a year the source copied,
    /// [`crate::repeats`]); absent when it is not a copy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<i64>,
    /// Whether the mapped year's deaths were reconstructed from a published rate
    /// ([`crate::reconstructed`]); absent when they were not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deaths_reconstructed: bool,
    /// The mapped column, `rate` for the rate.
    pub value: String,
    /// The smoothing's `--smooth` name.
    pub smoothing: &'static str,
    /// The contiguity's `--contiguity` name.
    pub contiguity: &'static str,
    /// The classification's name.
    pub method: &'static str,
    /// The class breaks.
    pub breaks: Vec<f64>,
    pub classes: Vec<ClassSummary>,
    /// How many areas the boundaries have.
    pub areas: usize,
    /// The codes of the areas whose row is flagged as implausible.
    pub flagged: Vec<String>,
    /// Whether the flagged areas entered the breaks and statistics (`--include-flagged`).
    pub flagged_in_breaks: bool,
    /// The codes of the flagged areas left out of the estimates (empty when included).
    pub flagged_left_out: Vec<String>,
    /// The codes of the areas without a value (flagged ones left out aside).
    pub no_data: Vec<String>,
    /// How many data codes have a boundary.
    pub matched_data: usize,
    /// The data codes without a boundary.
    pub unmatched_data: Vec<String>,
    /// The boundary codes without data.
    pub unmatched_geometry: Vec<String>,
    /// The codes of the areas the layout leaves out of the drawing.
    pub not_drawn: Vec<String>,
    /// Moran's I of the mapped values, when asked for (`--moran`).
    pub moran: Option<MoranSummary>,
    /// The EB-standardised Moran's I of a rate map, when asked for.
    pub eb_moran: Option<MoranSummary>,
    /// The LISA cluster counts, when the map is coloured by cluster (`--lisa`).
    pub lisa: Option<LisaSummary>,
}

/// One class of the map: its limits (`None` for an open end), count and legend label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassSummary {
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub count: usize,
    pub label: String,
}

impl ClassSummary {
    /// The class with its label at `decimals` decimals.
    pub fn of(class: &ClassInfo, decimals: usize) -> ClassSummary {
        ClassSummary {
            lower: finite(class.lower),
            upper: finite(class.upper),
            count: class.count,
            label: class.label(decimals),
        }
    }
}

/// A Moran's I test: the statistic, its permutation test and the analytical z and p under
/// normality and randomisation (`None` where not finite or not defined).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoranSummary {
    pub i: f64,
    pub expected: f64,
    pub p_value: f64,
    pub z: f64,
    pub permutations: usize,
    pub seed: u64,
    /// The areas with a value that entered the statistic.
    pub areas: usize,
    pub z_norm: Option<f64>,
    pub p_norm: Option<f64>,
    pub z_rand: Option<f64>,
    pub p_rand: Option<f64>,
}

impl From<Moran> for MoranSummary {
    fn from(m: Moran) -> MoranSummary {
        MoranSummary {
            i: m.i,
            expected: m.expected,
            p_value: m.p_value,
            z: m.z,
            permutations: m.permutations,
            seed: m.seed,
            areas: m.n,
            z_norm: finite(m.z_norm),
            p_norm: finite(m.p_norm),
            z_rand: m.z_rand.and_then(finite),
            p_rand: m.p_rand.and_then(finite),
        }
    }
}

/// How many areas fall in each LISA cluster, with the test's settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LisaSummary {
    pub alpha: f64,
    pub permutations: usize,
    pub seed: u64,
    pub high_high: usize,
    pub low_low: usize,
    pub high_low: usize,
    pub low_high: usize,
    pub not_significant: usize,
    pub neighbourless: usize,
    pub no_data: usize,
}

impl From<&Lisa> for LisaSummary {
    fn from(l: &Lisa) -> LisaSummary {
        let count = |c: LisaCluster| l.clusters.iter().filter(|&&k| k == c).count();
        LisaSummary {
            alpha: l.alpha,
            permutations: l.permutations,
            seed: l.seed,
            high_high: count(LisaCluster::HighHigh),
            low_low: count(LisaCluster::LowLow),
            high_low: count(LisaCluster::HighLow),
            low_high: count(LisaCluster::LowHigh),
            not_significant: count(LisaCluster::NotSignificant),
            neighbourless: count(LisaCluster::Neighbourless),
            no_data: count(LisaCluster::NoData),
        }
    }
}
