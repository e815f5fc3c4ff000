//! What to fit: the estimator, the covariance convention and the confidence level.

use serde::{Deserialize, Serialize};

/// The term name of the intercept, in every estimator that has one.
pub const INTERCEPT: &str = "(Intercept)";

/// What Mundlak's model (`cre`) appends to a regressor's name for its entity mean (`x_mean`),
/// the name the R and Stata code keep.
pub(crate) const CRE_MEAN_SUFFIX: &str = "_mean";

/// The regressor whose entity mean `term` is in a `cre` fit of `regressors`: `x` for its
/// `x_mean`. `None` for any other term, a regressor of the data named `…_mean` among them.
pub fn cre_mean_of<'t>(term: &'t str, regressors: &[String]) -> Option<&'t str> {
    let base = term.strip_suffix(CRE_MEAN_SUFFIX)?;
    let is_regressor = |name: &str| regressors.iter().any(|r| r == name);
    (is_regressor(base) && !is_regressor(term)).then_some(base)
}

/// The enum of the registered estimators ([`crate::registry`]) and [`Estimator::ALL`].
macro_rules! estimator_enum {
    ($($(#[doc = $doc:literal])* $variant:ident = $module:ident, $help:literal;)+) => {
        /// A panel-data estimator. The serialised names are the `--model` values of `imr fit`
        /// ([`Estimator::name`]: the variant in kebab case, as clap names the values too).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        #[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
        #[non_exhaustive]
        pub enum Estimator {
            $(
                $(#[doc = $doc])*
                #[cfg_attr(feature = "clap", value(help = $help))]
                $variant,
            )+
        }

        impl Estimator {
            /// Every estimator, in the order shown to users.
            pub const ALL: [Estimator; [$(stringify!($variant)),+].len()] =
                [$(Estimator::$variant),+];
        }
    };
}

crate::registry::estimators!(estimator_enum);

impl std::fmt::Display for Estimator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How the covariance matrix of the coefficients is estimated. See [`crate::vcov`] for formulas.
/// Serialised as [`VcovKind::name`], the `--vcov` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum VcovKind {
    /// Classical (homoskedastic, independent errors).
    #[cfg_attr(
        feature = "clap",
        value(help = "Classical (fe: s² = SSR/(N − G − k), as Stata xtreg, fe and plm)")
    )]
    Iid,
    /// White heteroskedasticity-robust with the HC1 factor n/(n − K).
    #[cfg_attr(
        feature = "clap",
        value(help = "White heteroskedasticity-robust, n/(n − K)")
    )]
    Hc1,
    /// Clustered by entity, CR1 (Stata / fixest small-sample factor).
    #[cfg_attr(
        feature = "clap",
        value(
            help = "Clustered by entity, CR1: G/(G−1)·(N−1)/(N−K), as Stata vce(cluster); t with G − 1 df"
        )
    )]
    Cluster,
}

impl VcovKind {
    /// Every covariance kind.
    pub const ALL: [VcovKind; 3] = [VcovKind::Iid, VcovKind::Hc1, VcovKind::Cluster];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            VcovKind::Iid => "iid",
            VcovKind::Hc1 => "hc1",
            VcovKind::Cluster => "cluster",
        }
    }

    /// Parses a `--vcov` value.
    pub fn from_name(name: &str) -> Option<VcovKind> {
        VcovKind::ALL.into_iter().find(|v| v.name() == name)
    }
}

impl std::fmt::Display for VcovKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The settings of a panel model: `PanelSpec::new(Estimator::Fe).fit(&data)`.
///
/// Weights and exposure are columns of the data ([`crate::PanelData::weights`],
/// [`crate::PanelData::exposure`]); the spec only says how to use them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PanelSpec {
    /// Which estimator.
    pub estimator: Estimator,
    /// Which covariance convention.
    pub vcov: VcovKind,
    /// Confidence level of the intervals, e.g. 0.95.
    pub conf_level: f64,
}

impl PanelSpec {
    /// The estimator with the defaults: clustered by entity, 95% intervals.
    pub fn new(estimator: Estimator) -> Self {
        PanelSpec {
            estimator,
            vcov: VcovKind::Cluster,
            conf_level: 0.95,
        }
    }

    /// Same spec with another covariance.
    pub fn with_vcov(mut self, vcov: VcovKind) -> Self {
        self.vcov = vcov;
        self
    }

    /// Same spec with another confidence level.
    pub fn with_conf_level(mut self, conf_level: f64) -> Self {
        self.conf_level = conf_level;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_estimator_and_covariance_serialises_as_its_command_line_name() {
        for e in Estimator::ALL {
            let json = format!("\"{}\"", e.name());
            assert_eq!(serde_json::to_string(&e).unwrap(), json);
            assert_eq!(serde_json::from_str::<Estimator>(&json).unwrap(), e);
        }
        for v in VcovKind::ALL {
            let json = format!("\"{}\"", v.name());
            assert_eq!(serde_json::to_string(&v).unwrap(), json);
            assert_eq!(serde_json::from_str::<VcovKind>(&json).unwrap(), v);
        }
    }
}
