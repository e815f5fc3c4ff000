//! `PanelSpec::fit`: from plain data to a [`Fit`].

use crate::data::{ExcludedRow, PanelData};
use crate::error::{InvalidValue, NoRegressors, NotEnoughData, Unsupported};
use crate::estimated::Estimated;
use crate::estimators::labels;
use crate::fit::{coefficient_table, Fit, Inference};
use crate::prepared::{prepare, Needs};
use crate::spec::PanelSpec;
use crate::{Diagnostic, ModelError};
use std::borrow::Cow;

/// What goes into a [`Fit`] besides the estimates.
pub(crate) struct Extras {
    pub n_periods: usize,
    pub excluded: Vec<ExcludedRow>,
    pub diagnostics: Vec<Diagnostic>,
    pub weighted: bool,
    pub uses_exposure: bool,
    pub fixed_effects: Vec<crate::AbsorbedEffect>,
    pub singletons_removed: Option<usize>,
}

impl PanelSpec {
    /// Fits the model to the data.
    ///
    /// Rows with a missing value in the outcome, a regressor, the weights or the exposure
    /// (when used) are excluded and listed; the rest are sorted by entity and time, so the
    /// result does not depend on the row order.
    pub fn fit(&self, data: &PanelData) -> Result<Fit, ModelError> {
        self.fit_data(Cow::Borrowed(data))
    }

    /// [`PanelSpec::fit`] of data given away: its rows are freed once the model has its own
    /// sorted copy of the rows it uses, so the two are not held together through the fit (the
    /// peak memory of `imr fit` on a large file). The result is the same.
    pub fn fit_owned(&self, data: PanelData) -> Result<Fit, ModelError> {
        self.fit_data(Cow::Owned(data))
    }

    fn fit_data(&self, mut data: Cow<'_, PanelData>) -> Result<Fit, ModelError> {
        if !(self.conf_level > 0.0 && self.conf_level < 1.0) {
            return Err(ModelError::InvalidValue(InvalidValue::Level(
                self.conf_level,
            )));
        }
        if data.x.is_empty() {
            return Err(ModelError::NoRegressors(NoRegressors::NoneGiven));
        }
        if data.cluster.len() > 2 {
            return Err(ModelError::Unsupported(Unsupported::ClusterWays {
                given: data.cluster.len(),
            }));
        }
        if !data.fixed_effects.is_empty() {
            return self.fit_absorbed(data);
        }
        if !data.cluster.is_empty() {
            return Err(ModelError::Unsupported(Unsupported::ClusterColumn {
                model: self.estimator.to_string(),
            }));
        }
        let estimator = self.estimator;
        let room = estimator.room();
        let weighted = data.weights.is_some();
        if weighted && !room.takes_weights {
            return Err(ModelError::Unsupported(Unsupported::Weights {
                model: estimator.to_string(),
                poisson: room.takes_exposure,
            }));
        }
        let uses_exposure = room.takes_exposure && data.exposure.is_some();
        let mut prep = prepare(
            &data,
            Needs {
                weights: weighted,
                exposure: uses_exposure,
            },
        )?;
        if let Cow::Owned(data) = &mut data {
            data.release_rows();
        }
        if prep.n() == 0 {
            return Err(ModelError::NotEnoughData(NotEnoughData::NoCompleteRow {
                excluded: prep.excluded.len(),
            }));
        }
        let mut diagnostics = Vec::new();
        if !prep.excluded.is_empty() {
            diagnostics.push(Diagnostic::RowsExcluded {
                rows: prep.excluded.iter().map(|r| r.row).collect(),
            });
        }
        if data.exposure.is_some() && !uses_exposure {
            diagnostics.push(Diagnostic::ExposureIgnored { estimator });
        }
        if room.takes_exposure && data.exposure.is_none() {
            diagnostics.push(Diagnostic::NoExposure);
        }
        if room.lists_singletons {
            let counts = prep.entity_counts();
            let singletons: Vec<&String> = counts
                .iter()
                .zip(&prep.entity_labels)
                .filter_map(|(&c, l)| (c == 1).then_some(l))
                .collect();
            if !singletons.is_empty() {
                diagnostics.push(Diagnostic::Singletons {
                    entities: labels(singletons),
                });
            }
        }
        let mut est = (room.fit)(&mut prep, self)?;
        diagnostics.append(&mut est.diagnostics);
        Ok(self.assemble(
            &data,
            est,
            Extras {
                n_periods: prep.n_periods(),
                excluded: prep.excluded,
                diagnostics,
                weighted,
                uses_exposure,
                fixed_effects: Vec::new(),
                singletons_removed: None,
            },
        ))
    }

    /// The [`Fit`] from the estimates and what the fit found on the way.
    pub(crate) fn assemble(&self, data: &PanelData, est: Estimated, extras: Extras) -> Fit {
        let Extras {
            n_periods,
            excluded,
            diagnostics,
            weighted,
            uses_exposure,
            fixed_effects,
            singletons_removed,
        } = extras;
        let estimator = self.estimator;
        let mut coefficients = coefficient_table(
            &est.terms,
            &est.beta,
            &est.covariance,
            &est.reference,
            self.conf_level,
        );
        if est.irr {
            for c in &mut coefficients {
                c.irr = Some(c.estimate.exp());
                c.irr_conf_low = Some(c.conf_low.exp());
                c.irr_conf_high = Some(c.conf_high.exp());
            }
        }
        let covariance = (0..est.covariance.nrows())
            .map(|i| est.covariance.row(i).iter().copied().collect())
            .collect();
        Fit {
            model: estimator,
            vcov: self.vcov,
            nobs: est.nobs,
            n_entities: est.n_entities,
            n_periods,
            rows_excluded: excluded.len(),
            coefficients,
            dropped_terms: est.dropped_terms,
            r2_within: est.r2.0,
            r2_between: est.r2.1,
            r2_overall: est.r2.2,
            sigma2_u: est.sigma2_u,
            sigma2_e: est.sigma2_e,
            theta: est.theta,
            tests: est.tests,
            outcome: data.y.name.clone(),
            regressors: data.x.iter().map(|c| c.name.clone()).collect(),
            weights: if weighted {
                data.weights.as_ref().map(|w| w.name.clone())
            } else {
                None
            },
            exposure: if uses_exposure {
                data.exposure.as_ref().map(|e| e.name.clone())
            } else {
                None
            },
            inference: Inference {
                distribution: if est.df.is_some() { "t" } else { "z" }.to_string(),
                df: est.df,
                conf_level: self.conf_level,
            },
            vcov_convention: est.convention,
            theta_summary: est.theta_summary,
            diagnostics,
            excluded_rows: excluded,
            dropped_entities: est.dropped_entities,
            fixed_effects,
            singletons_removed,
            covariance,
        }
    }
}
