//! [`Estimated`]: what an estimator's fit gives the engine, before `PanelSpec::fit` assembles
//! the [`crate::Fit`].

use crate::error::NotEnoughData;
use crate::fit::{DroppedEntity, DroppedTerm, Reference, Tests, ThetaSummary};
use crate::linear::{CoefficientVcov, LinearCore};
use crate::spec::PanelSpec;
use crate::{Diagnostic, ModelError};
use nalgebra::{DMatrix, DVector};

/// Everything estimator-specific that goes into a [`crate::Fit`]: what each estimator's `fit`
/// returns ([`crate::estimators::Room::fit`]).
pub(crate) struct Estimated {
    pub terms: Vec<String>,
    pub beta: DVector<f64>,
    pub covariance: DMatrix<f64>,
    pub reference: Reference,
    pub df: Option<usize>,
    pub convention: crate::convention::Convention,
    pub dropped_terms: Vec<DroppedTerm>,
    /// Entities left out of the fit, with the reason (poisson-fe).
    pub dropped_entities: Vec<DroppedEntity>,
    /// Within, between and overall R².
    pub r2: (Option<f64>, Option<f64>, Option<f64>),
    pub sigma2_u: Option<f64>,
    pub sigma2_e: Option<f64>,
    pub theta: Option<f64>,
    pub theta_summary: Option<ThetaSummary>,
    pub tests: Tests,
    pub nobs: usize,
    pub n_entities: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Report incidence-rate ratios (Poisson).
    pub irr: bool,
}

impl Estimated {
    /// The coefficients and their covariance with nothing estimator-specific yet: no dropped
    /// terms, R², variance components, specification tests or diagnostics (each estimator adds
    /// its own).
    pub fn bare(
        terms: Vec<String>,
        beta: DVector<f64>,
        vcov: CoefficientVcov,
        nobs: usize,
        n_entities: usize,
    ) -> Self {
        Estimated {
            terms,
            beta,
            covariance: vcov.covariance,
            reference: vcov.reference,
            df: vcov.df,
            convention: vcov.convention,
            dropped_terms: Vec::new(),
            dropped_entities: Vec::new(),
            r2: (None, None, None),
            sigma2_u: None,
            sigma2_e: None,
            theta: None,
            theta_summary: None,
            tests: Tests::default(),
            nobs,
            n_entities,
            diagnostics: Vec::new(),
            irr: false,
        }
    }

    /// The coefficients of a linear fit with `spec`'s covariance.
    pub fn linear(core: &LinearCore, spec: &PanelSpec) -> Result<Self, ModelError> {
        if core.df_resid == 0 {
            return Err(ModelError::NotEnoughData(NotEnoughData::NoResidualDf {
                n: core.n,
                k: core.ls.kept.len(),
            }));
        }
        let v = core.covariance(spec.vcov, spec.estimator)?;
        Ok(Estimated::bare(
            core.terms.clone(),
            core.ls.beta.clone(),
            v,
            core.n,
            core.n_clusters,
        ))
    }
}
