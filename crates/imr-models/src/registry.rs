//! The one place an estimator is registered: one line per estimator, in the order shown to users,
//! naming its variant of [`crate::Estimator`] (with its documentation), its file under
//! `estimators/` and its `imr fit --help` text. spec.rs makes the enum and `Estimator::ALL` of
//! it, estimators/mod.rs the `mod`s and `Estimator::room`; everything else an estimator says of
//! itself is in its file's `ROOM`.
//!
//! A table below the modules that read it (spec.rs and estimators/), so that neither reads the
//! other for it.

/// Calls `$then!` with every estimator as `/// doc` `Variant = module, "help";`.
macro_rules! estimators {
    ($then:ident) => {
        $then! {
            /// Pooled OLS with an intercept, ignoring the panel structure.
            Pooled = pooled, "Pooled OLS with intercept";
            /// Entity fixed effects (the within estimator).
            Fe = fe, "Entity fixed effects (within)";
            /// Entity and period (year) fixed effects.
            Twfe = twfe, "Entity and year fixed effects";
            /// Random effects, Swamy–Arora variance components.
            Re = re, "Random effects, Swamy–Arora";
            /// Between estimator: OLS on entity means, with intercept.
            Be = be, "Between (OLS on entity means)";
            /// First differences, no intercept.
            Fd = fd, "First differences, no intercept";
            /// Mundlak correlated random effects: `re` plus the entity means of the time-varying
            /// regressors.
            Cre = cre, "Mundlak correlated random effects (re + entity means)";
            /// Poisson with entity fixed effects (conditional ML), exposure as log offset.
            PoissonFe = poisson_fe, "Poisson with entity effects; --exposure enters as log offset";
        }
    };
}

pub(crate) use estimators;
