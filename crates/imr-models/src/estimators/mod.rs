//! One file per estimator, as linfa keeps one per algorithm: the core that fits it on the
//! [`Prepared`] panel, the adapter that turns the core into the [`Estimated`] part of a
//! [`crate::Fit`], and the R and Stata lines that reproduce it. Each file ends in a [`Room`],
//! which `Estimator::room` (below, made from the one registry, [`crate::registry`]) returns;
//! nothing else names an estimator. What an
//! [`Estimator`] says of itself (name, label, weights, z or t) is read from its room here, so
//! that spec.rs, which the estimators' code reads, does not read them.
//!
//! Beside them, within_regression.rs: the within regression that `fe` fits and `re` builds on.
//!
//! Adding one: write `estimators/<name>.rs` with its `ROOM` and add its line to the registry
//! (registry.rs): the variant of [`Estimator`], its place in `Estimator::ALL`, its module and
//! its arm in `Estimator::room` all come from that line.

mod within_regression;

use crate::error::NoRegressors;
use crate::estimated::Estimated;
use crate::fit::{DroppedTerm, Fit};
use crate::linear::LinearCore;
use crate::prepared::Prepared;
use crate::report::code::stata::StataModel;
use crate::spec::{Estimator, PanelSpec};
use crate::ModelError;
use nalgebra::{DMatrix, DVector};

/// How an estimator fits with absorbed fixed effects (`PanelData::absorb`, `imr fit --fe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Absorbs {
    /// The within regression off every effect (pyfixest `feols`).
    Linear,
    /// Poisson off every effect (pyfixest `fepois`).
    Poisson,
}

/// Everything that makes an estimator what it is, in its own file.
pub(crate) struct Room {
    /// The `--model` value and JSON name ([`crate::Estimator::name`]).
    pub name: &'static str,
    /// The short label in Spanish and in English ([`crate::Estimator::label_in`]).
    pub label: (&'static str, &'static str),
    /// Its name for a reader, in Spanish and English, lower case where the language writes it
    /// so inside a sentence ("efectos fijos"): the page's sentences and the exported plot.
    pub plain: (&'static str, &'static str),
    /// What it compares, in plain words ("cada comuna comparada consigo misma en el tiempo"),
    /// in Spanish and English: beside the plain name in the exported plot's legend.
    pub compares: (&'static str, &'static str),
    /// Takes analytic weights ([`crate::Estimator::takes_weights`]).
    pub takes_weights: bool,
    /// Inference on the normal distribution (z) rather than Student's t: read through
    /// [`crate::Estimator::uses_z`] by [`crate::fit::Reference::of`], the one place that
    /// decides.
    pub uses_z: bool,
    /// Takes an exposure, entering as a log offset (a count model).
    pub takes_exposure: bool,
    /// Reports the entities seen once (`Diagnostic::Singletons`).
    pub lists_singletons: bool,
    /// Fits the prepared panel (sorted by entity and time, complete rows only).
    pub fit: fn(&mut Prepared, &PanelSpec) -> Result<Estimated, ModelError>,
    /// Fits with absorbed fixed effects, if the estimator can.
    pub absorbs: Option<Absorbs>,
    /// The R code of the model itself (see `report::code::r`): sets `m`, `s`, `prefix`,
    /// `cols`, `V`, `ref_df`, `sizes` and `tests`.
    pub r_model: fn(&Fit) -> String,
    /// The Stata lines of the model, after the data are read and `xtset`.
    pub stata_model: fn(&StataModel) -> String,
}

/// Each registered estimator's module ([`crate::registry`]) and `Estimator::room`.
macro_rules! estimator_rooms {
    ($($(#[doc = $doc:literal])* $variant:ident = $module:ident, $help:literal;)+) => {
        $(pub(crate) mod $module;)+

        impl Estimator {
            /// The estimator's room: its file under `estimators/`, where everything that
            /// makes it what it is lives.
            pub(crate) fn room(self) -> &'static Room {
                match self {
                    $(Estimator::$variant => &$module::ROOM,)+
                }
            }
        }
    };
}

crate::registry::estimators!(estimator_rooms);

impl Estimator {
    /// The name used on the command line and in JSON (`fe`, `poisson-fe`, …).
    pub fn name(self) -> &'static str {
        self.room().name
    }

    /// The estimator's one short label in a language ("Fixed effects (within)", "Efectos fijos
    /// (intragrupos)"): the Models view, the coefficient plot, the exported code and the findings'
    /// longer phrases all start from it.
    pub fn label_in(self, lang: imr_stats::Lang) -> &'static str {
        let (es, en) = self.room().label;
        lang.pick(es, en)
    }

    /// The estimator's name for a reader, lower case inside a sentence ("efectos fijos",
    /// "random effects"), without the technical detail of [`Estimator::label_in`].
    pub fn plain_in(self, lang: imr_stats::Lang) -> &'static str {
        let (es, en) = self.room().plain;
        lang.pick(es, en)
    }

    /// What the estimator compares, in plain words ("each commune compared with itself over
    /// time").
    pub fn compares_in(self, lang: imr_stats::Lang) -> &'static str {
        let (es, en) = self.room().compares;
        lang.pick(es, en)
    }

    /// The English [`Estimator::label_in`] (the exported R and Stata code, the JSON's words).
    pub fn label(self) -> &'static str {
        self.label_in(imr_stats::Lang::En)
    }

    /// Parses a `--model` value.
    pub fn from_name(name: &str) -> Option<Estimator> {
        Estimator::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Whether the estimator takes analytic weights: pooled, fe and twfe, as R and Stata do
    /// (the others are fitted unweighted in R plm and Stata).
    pub fn takes_weights(self) -> bool {
        self.room().takes_weights
    }

    /// Inference uses the normal distribution (z) rather than Student's t (re, cre,
    /// poisson-fe, as Stata). The rule every fit follows: `Reference::of` reads it.
    pub fn uses_z(self) -> bool {
        self.room().uses_z
    }
}

pub(crate) fn sub_vector(v: &DVector<f64>, idx: &[usize]) -> DVector<f64> {
    DVector::from_iterator(idx.len(), idx.iter().map(|&i| v[i]))
}

pub(crate) fn sub_matrix(m: &DMatrix<f64>, idx: &[usize]) -> DMatrix<f64> {
    DMatrix::from_fn(idx.len(), idx.len(), |a, b| m[(idx[a], idx[b])])
}

/// Every regressor column of the panel.
pub(crate) fn all_columns(prep: &Prepared) -> Vec<usize> {
    (0..prep.x.len()).collect()
}

/// The regressor columns of a fit's slopes and the slopes, its intercept (first) left out.
pub(crate) fn slopes_of(
    core: &LinearCore,
    prep: &Prepared,
    has_intercept: bool,
) -> (Vec<usize>, Vec<f64>) {
    let offset = usize::from(has_intercept);
    let columns = core.terms[offset..]
        .iter()
        .map(|t| {
            prep.x_names
                .iter()
                .position(|n| n == t)
                .expect("term is a column")
        })
        .collect();
    (columns, core.ls.beta.iter().skip(offset).copied().collect())
}

pub(crate) fn labels(labels: Vec<&String>) -> Vec<String> {
    labels.into_iter().cloned().collect()
}

pub(crate) fn no_regressors(model: &str, dropped: &[DroppedTerm]) -> ModelError {
    ModelError::NoRegressors(NoRegressors::AllDropped {
        model: model.to_owned(),
        reasons: dropped.iter().map(|d| d.reason.clone()).collect(),
    })
}
