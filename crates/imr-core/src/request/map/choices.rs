//! The choices of a map offered as names: the smoothing of the rate ([`Smooth`]) and the
//! classification ([`ClassScheme`]), as `imr map` takes them and the Map view lists them.

use serde::{Deserialize, Serialize};

/// Smoothing of the mapped rate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Smooth {
    /// Raw rate per 1,000
    #[default]
    None,
    /// Global empirical Bayes (Marshall 1991)
    Eb,
    /// Spatial empirical Bayes (the area and its neighbours, see --contiguity)
    SpatialEb,
    /// Excess risk: observed / expected deaths at the pooled rate of the year
    ExcessRisk,
}

impl Smooth {
    /// The smoothings in the order offered.
    pub const ALL: [Smooth; 4] = [
        Smooth::None,
        Smooth::Eb,
        Smooth::SpatialEb,
        Smooth::ExcessRisk,
    ];

    /// The name on the command line and in the JSON summary.
    pub fn name(self) -> &'static str {
        match self {
            Smooth::None => "none",
            Smooth::Eb => "eb",
            Smooth::SpatialEb => "spatial-eb",
            Smooth::ExcessRisk => "excess-risk",
        }
    }
}

/// Classification of the mapped values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ClassScheme {
    /// Classes with equal counts
    #[default]
    Quantile,
    /// Classes of equal width
    Equal,
    /// Natural breaks (Jenks, exact Fisher optimisation)
    Jenks,
    /// Box map: outliers beyond 1.5 interquartile ranges, quartiles
    Box,
    /// Standard deviations from the mean
    Stddev,
    /// Your own breaks (--breaks)
    Custom,
}

impl ClassScheme {
    /// The schemes in the order offered.
    pub const ALL: [ClassScheme; 6] = [
        ClassScheme::Quantile,
        ClassScheme::Equal,
        ClassScheme::Jenks,
        ClassScheme::Box,
        ClassScheme::Stddev,
        ClassScheme::Custom,
    ];

    /// Quantile, equal and Jenks classes take a number of classes; the others do not.
    pub fn uses_class_count(self) -> bool {
        matches!(
            self,
            ClassScheme::Quantile | ClassScheme::Equal | ClassScheme::Jenks
        )
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ClassScheme::Quantile => "quantile",
            ClassScheme::Equal => "equal",
            ClassScheme::Jenks => "jenks",
            ClassScheme::Box => "box",
            ClassScheme::Stddev => "stddev",
            ClassScheme::Custom => "custom",
        }
    }
}
