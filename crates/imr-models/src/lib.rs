//! Panel-data models of infant mortality: pooled, fixed effects (one and two way), random
//! effects (Swamy–Arora), between, first differences, Mundlak correlated random effects and
//! Poisson fixed effects, with classical, HC1 and entity-clustered (CR1) covariances, the
//! usual specification tests, and report exports (CSV, Markdown, LaTeX, R and Stata code,
//! an SVG coefficient plot). Any number of fixed effects can be absorbed in the within model
//! ([`PanelData::absorb`], [`FixedEffect`], with `^` interactions as fixest), as pyfixest does.
//!
//! Pure Rust (compiles to wasm32: no threads, no clocks). The shape follows linfa: a settings
//! type, [`PanelSpec`], whose [`PanelSpec::fit`] takes plain [`PanelData`] and returns a
//! [`Fit`] that serialises to the `imr fit --format json` contract.
//!
//! ```
//! use imr_models::{Column, Estimator, PanelData, PanelSpec, VcovKind};
//! let entity: Vec<String> = ["a", "a", "a", "b", "b", "b"].iter().map(|s| s.to_string()).collect();
//! let time = vec![1, 2, 3, 1, 2, 3];
//! let data = PanelData::new(entity, time, Column::complete("y", &[1.0, 2.1, 2.9, 5.0, 6.2, 6.8]))
//!     .regressor(Column::complete("x", &[1.0, 2.0, 3.0, 1.0, 2.0, 3.0]));
//! let fit = PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Iid).fit(&data).unwrap();
//! assert!((fit.coefficient("x").unwrap().estimate - 0.925).abs() < 1e-12);
//! ```

/// `Display` and `Serialize` of a value rendered per language: both are its English text
/// (`$type::$text(Lang::En)`), which `imr fit` prints and the JSON carries.
macro_rules! english_display_and_json {
    ($($type:ty => $text:ident),+ $(,)?) => {$(
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.$text($crate::Lang::En))
            }
        }

        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    )+};
}

mod absorbed;
pub mod convention;
mod data;
pub mod diagnostic;
mod drop_reason;
mod engine;
mod error;
mod estimated;
mod estimators;
mod exclusion;
mod fit;
mod fixed_effect;
mod hypothesis;
mod input;
mod linalg;
mod linear;
mod number;
mod prepared;
mod r2;
mod reader;
mod registry;
pub mod report;
mod spec;
mod test_words;
pub mod vcov;
mod vcov_words;
mod within;

pub use data::{Column, Entities, ExcludedRow, PanelData};
pub use diagnostic::Diagnostic;
pub use drop_reason::{DropReason, Stage};
pub use error::{InvalidValue, ModelError, NoRegressors, NotConverged, NotEnoughData, Unsupported};
pub use exclusion::{EntityDropReason, ExclusionReason, ValueProblem};
pub use fit::{
    ChiSquaredTest, Coefficient, DroppedEntity, DroppedTerm, FTest, Fit, Inference, Tests,
    ThetaSummary,
};
pub use fixed_effect::{parse_fixed_effects, AbsorbedEffect, FixedEffect};
pub use imr_stats::{Caption, Lang};
pub use input::{ColumnRole, MissingColumn, ModelColumns};
pub use reader::Reader;
pub use spec::{cre_mean_of, Estimator, PanelSpec, VcovKind, INTERCEPT};
pub use test_words::{Hypothesis, TestCaveat};
