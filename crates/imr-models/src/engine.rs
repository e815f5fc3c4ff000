//! `PanelSpec::fit`: from plain data to a [`Fit`].

use crate::absorb::{
    absorbed_rows, fixed_effect_parameters, nested_in, AbsorbedEffect, Demeaner, FixedEffect,
};
use crate::data::{prepare, ExcludedRow, Needs, PanelData};
use crate::error::{InvalidValue, NoRegressors, NotConverged, NotEnoughData, Unsupported};
use crate::estimators::{labels, no_regressors, Absorbs};
use crate::fit::{
    coefficient_table, DroppedEntity, DroppedTerm, Fit, Inference, Reference, Tests, ThetaSummary,
};
use crate::linear::{Clusters, CoefficientVcov, LinearCore};
use crate::spec::{PanelSpec, VcovKind};
use crate::{Diagnostic, ModelError};
use nalgebra::{DMatrix, DVector};
use std::borrow::Cow;

/// Everything estimator-specific that goes into a [`Fit`]: what each estimator's `fit`
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

/// The clusters of an absorbed fit: the codes of the first (or only) clustering, their number,
/// and what they are.
struct ClusterSetup {
    cluster: Vec<usize>,
    n_clusters: usize,
    clusters: Clusters,
}

/// What goes into a [`Fit`] besides the estimates.
struct Extras {
    n_periods: usize,
    excluded: Vec<ExcludedRow>,
    diagnostics: Vec<Diagnostic>,
    weighted: bool,
    uses_exposure: bool,
    fixed_effects: Vec<crate::AbsorbedEffect>,
    singletons_removed: Option<usize>,
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

    /// The within regression off every fixed effect of `data.fixed_effects` (see
    /// [`crate::absorb`] for the formulas), clustered by entity.
    fn fit_absorbed(&self, mut data: Cow<'_, PanelData>) -> Result<Fit, ModelError> {
        let Some(absorbs) = self.estimator.room().absorbs else {
            return Err(ModelError::Unsupported(Unsupported::Absorbed {
                model: self.estimator.to_string(),
            }));
        };
        let poisson = absorbs == Absorbs::Poisson;
        let rows = absorbed_rows(&data, poisson)?;
        if let Cow::Owned(data) = &mut data {
            data.release_rows();
        }
        let n = rows.y.len();
        if n == 0 {
            return Err(ModelError::NotEnoughData(NotEnoughData::NoRowLeft {
                excluded: rows.excluded.len(),
            }));
        }
        // The clusters: the entity, or the `--cluster` columns (two: two-way).
        let mut rows = rows;
        let n_entities = rows.n_entities;
        let mut cluster_columns = std::mem::take(&mut rows.clusters);
        let (cluster, n_clusters, clusters) = match cluster_columns.len() {
            0 => (
                std::mem::take(&mut rows.entity),
                rows.n_entities,
                Clusters::Entity,
            ),
            1 => {
                let (codes, count) = cluster_columns.remove(0);
                (codes, count, Clusters::Column(data.cluster[0].name.clone()))
            }
            _ => {
                let (second, n_second) = cluster_columns.remove(1);
                let (first, n_first) = cluster_columns.remove(0);
                let both = FixedEffect::from_keys(
                    "",
                    first.iter().zip(&second).map(|(&a, &b)| Some((a, b))),
                );
                let n_both = both
                    .codes
                    .iter()
                    .flatten()
                    .max()
                    .map_or(0, |m| *m as usize + 1);
                let both: Vec<usize> = both.codes.iter().map(|c| c.unwrap_or(0) as usize).collect();
                let names = [data.cluster[0].name.clone(), data.cluster[1].name.clone()];
                (
                    first,
                    n_first,
                    Clusters::TwoWay {
                        names,
                        second,
                        n_second,
                        both,
                        n_both,
                    },
                )
            }
        };
        // an effect nested in any of the clusters is not counted in the CR1 factor (pyfixest)
        let nested = |codes: &[u32], levels: usize| match &clusters {
            Clusters::TwoWay { second, .. } => {
                nested_in(codes, levels, &cluster) || nested_in(codes, levels, second)
            }
            _ => nested_in(codes, levels, &cluster),
        };
        let absorbed: Vec<AbsorbedEffect> = data
            .fixed_effects
            .iter()
            .zip(&rows.codes)
            .zip(&rows.levels)
            .map(|((fe, codes), &levels)| AbsorbedEffect {
                name: fe.name.clone(),
                levels,
                nested_in_entity: nested(codes, levels),
            })
            .collect();
        if poisson {
            let cluster = ClusterSetup {
                cluster,
                n_clusters,
                clusters,
            };
            return self.fit_absorbed_poisson(&data, rows, absorbed, cluster, n_entities);
        }
        let effect_names: Vec<String> = absorbed.iter().map(|a| a.name.clone()).collect();
        let mut diagnostics = rows.row_diagnostics();
        let weights = rows.weights.as_deref();
        let sqrt_w: Option<Vec<f64>> = weights.map(|w| w.iter().map(|v| v.sqrt()).collect());
        let mut demeaner = Demeaner::new(&rows.codes, &rows.levels, weights);
        let mut work = [vec![0.0; n], vec![0.0; n]];
        let mut y = rows.y;
        if !demeaner.demean(&mut y, &mut work) {
            return Err(ModelError::NotConverged(NotConverged::Absorb {
                effects: effect_names.join(", "),
                column: data.y.name.clone(),
            }));
        }
        let mut dropped = Vec::new();
        let mut candidates = Vec::new();
        let mut design = Vec::new();
        for (j, mut column) in rows.x.into_iter().enumerate() {
            let name = &data.x[j].name;
            let before = crate::linear::norm(&column);
            if !demeaner.demean(&mut column, &mut work) {
                return Err(ModelError::NotConverged(NotConverged::Absorb {
                    effects: effect_names.join(", "),
                    column: name.clone(),
                }));
            }
            if crate::linear::norm(&column) <= 1e-9 * before {
                dropped.push(DroppedTerm {
                    term: name.clone(),
                    reason: crate::diagnostic::DropReason::AbsorbedByFixedEffects {
                        name: name.clone(),
                        effects: effect_names.clone(),
                    },
                });
                continue;
            }
            candidates.push(j);
            design.push(crate::linear::scaled_owned(column, sqrt_w.as_deref()));
        }
        drop(work);
        // weighted: the least squares of √w·ỹ on √w·X̃ (SSR and TSS are then weighted sums)
        let y = crate::linear::scaled_owned(y, sqrt_w.as_deref());
        let ls = crate::linalg::least_squares(&design, &y);
        dropped.extend(crate::linear::collinear_terms(
            &ls,
            |c| data.x[candidates[c]].name.clone(),
            crate::diagnostic::Stage::AbsorbedEffects,
        ));
        if ls.kept.is_empty() {
            return Err(no_regressors("fe", &dropped));
        }
        let (k_fe, k_fe_cluster) = fixed_effect_parameters(&absorbed);
        let terms = ls
            .kept
            .iter()
            .map(|&c| data.x[candidates[c]].name.clone())
            .collect();
        let mut core =
            LinearCore::within(terms, design, ls, cluster, n_clusters, k_fe, k_fe_cluster);
        core.clusters = clusters;
        let mut est = Estimated::linear(&core, self)?;
        est.n_entities = n_entities;
        est.dropped_terms = dropped;
        est.sigma2_e = Some(core.s2());
        let tss: f64 = y.iter().map(|v| v * v).sum();
        est.r2 = (Some(1.0 - core.ls.ssr() / tss), None, None);
        diagnostics.push(Diagnostic::AbsorbedEffects {
            effects: absorbed
                .iter()
                .map(|a| (a.name.clone(), a.levels))
                .collect(),
        });
        Ok(self.assemble(
            &data,
            est,
            Extras {
                n_periods: rows.times,
                excluded: rows.excluded,
                diagnostics,
                weighted: sqrt_w.is_some(),
                uses_exposure: false,
                fixed_effects: absorbed,
                singletons_removed: Some(rows.singletons),
            },
        ))
    }

    /// Poisson regression off every fixed effect of `data.fixed_effects` (pyfixest `fepois`,
    /// fixest `fepois`): iteratively reweighted least squares, each step the weighted within
    /// regression of the working response on the regressors.
    ///
    /// # Formula
    /// With `μ` the current mean and `η = ln μ`, the working response `z = η − o + y/μ − 1`
    /// (`o` = ln exposure) and the regressors are demeaned off the effects with weights `μ`
    /// (alternating projections, [`Demeaner`]); `δ` is the least squares of `√μ·z̃` on `√μ·X̃`;
    /// then `η ← z − (z̃ − X̃δ) + o`. Started at `μ = (y + ȳ)/2`; stops when the deviance
    /// `D = 2 Σ [y ln(y/μ) − (y − μ)]` changes by less than 1e-12·(0.1 + |D|) (fixest's rule).
    /// Bread `B = (X̃ᵀWX̃)⁻¹` and scores `û_i √μ_i x̃_i`, `û = √μ(z̃ − X̃δ)`, of the last step;
    /// `iid` = `(N−1)/(N−K)·B`, `hc1` = `N/(N−K)·B(Σ s_i s_iᵀ)B`, clustered = CR1 as the linear
    /// model (one- or two-way), `K` counting the coefficients and the effects' levels less one
    /// per effect after the first (pyfixest `ssc()`). Inference normal (z).
    ///
    /// Reference: Correia, Guimarães & Zylkin (2020), "Fast Poisson estimation with
    /// high-dimensional fixed effects", *Stata Journal* 20(1), 95–115; pyfixest 0.60 `Fepois`.
    fn fit_absorbed_poisson(
        &self,
        data: &PanelData,
        rows: crate::absorb::AbsorbedRows,
        absorbed: Vec<AbsorbedEffect>,
        cluster: ClusterSetup,
        n_entities: usize,
    ) -> Result<Fit, ModelError> {
        if data.weights.is_some() {
            return Err(ModelError::Unsupported(Unsupported::Weights {
                model: self.estimator.to_string(),
                poisson: true,
            }));
        }
        let n = rows.y.len();
        let y = &rows.y;
        let effect_names: Vec<String> = absorbed.iter().map(|a| a.name.clone()).collect();
        let offset = |i: usize| rows.offset.as_ref().map_or(0.0, |o| o[i]);
        let deviance = |mu: &[f64]| -> f64 {
            2.0 * y
                .iter()
                .zip(mu)
                .map(|(&y, &m)| {
                    let log_term = if y > 0.0 { y * (y / m).ln() } else { 0.0 };
                    log_term - (y - m)
                })
                .sum::<f64>()
        };
        let mean = y.iter().sum::<f64>() / n as f64;
        let mut mu: Vec<f64> = y.iter().map(|&v| (v + mean) / 2.0).collect();
        let mut eta: Vec<f64> = mu.iter().map(|m| m.ln()).collect();
        let mut last = deviance(&mu);
        let mut work = [vec![0.0; n], vec![0.0; n]];
        let mut dropped = Vec::new();
        // the regressors kept (indices into data.x), decided at the first step
        let mut columns: Option<Vec<usize>> = None;
        let mut iterations = 0;
        let demean_failed = |column: &str| {
            ModelError::NotConverged(NotConverged::Absorb {
                effects: effect_names.join(", "),
                column: column.to_owned(),
            })
        };
        let (ls, design, sqrt_w) = loop {
            iterations += 1;
            let z: Vec<f64> = (0..n)
                .map(|i| eta[i] - offset(i) + y[i] / mu[i] - 1.0)
                .collect();
            let mut demeaner = Demeaner::new(&rows.codes, &rows.levels, Some(&mu));
            let mut z_tilde = z.clone();
            if !demeaner.demean(&mut z_tilde, &mut work) {
                return Err(demean_failed(&data.y.name));
            }
            let sqrt_w: Vec<f64> = mu.iter().map(|m| m.sqrt()).collect();
            let candidates: Vec<usize> = match &columns {
                Some(kept) => kept.clone(),
                None => (0..rows.x.len()).collect(),
            };
            let mut x_tilde = Vec::with_capacity(candidates.len());
            let mut kept_here = Vec::with_capacity(candidates.len());
            for &j in &candidates {
                let mut column = rows.x[j].clone();
                let before = crate::linear::norm(&column);
                if !demeaner.demean(&mut column, &mut work) {
                    return Err(demean_failed(&data.x[j].name));
                }
                if columns.is_none() && crate::linear::norm(&column) <= 1e-9 * before {
                    dropped.push(DroppedTerm {
                        term: data.x[j].name.clone(),
                        reason: crate::diagnostic::DropReason::AbsorbedByFixedEffects {
                            name: data.x[j].name.clone(),
                            effects: effect_names.clone(),
                        },
                    });
                    continue;
                }
                kept_here.push(j);
                x_tilde.push(column);
            }
            let design: Vec<Vec<f64>> = x_tilde
                .iter()
                .map(|c| c.iter().zip(&sqrt_w).map(|(v, s)| v * s).collect())
                .collect();
            let wz: Vec<f64> = z_tilde.iter().zip(&sqrt_w).map(|(v, s)| v * s).collect();
            let ls = crate::linalg::least_squares(&design, &wz);
            if columns.is_none() {
                dropped.extend(crate::linear::collinear_terms(
                    &ls,
                    |c| data.x[kept_here[c]].name.clone(),
                    crate::diagnostic::Stage::AbsorbedEffects,
                ));
                let kept: Vec<usize> = ls.kept.iter().map(|&c| kept_here[c]).collect();
                if kept.is_empty() {
                    return Err(no_regressors("poisson-fe", &dropped));
                }
                let all_kept = kept.len() == kept_here.len();
                columns = Some(kept);
                if !all_kept {
                    // the step again on the columns kept only
                    continue;
                }
            }
            // η ← z − (z̃ − X̃δ) + o, the working residual being û/√μ
            for i in 0..n {
                eta[i] = z[i] - ls.resid[i] / sqrt_w[i] + offset(i);
                mu[i] = eta[i].exp();
            }
            let current = deviance(&mu);
            if !current.is_finite() {
                return Err(ModelError::NotConverged(NotConverged::PoissonIterations {
                    iterations,
                }));
            }
            let change = (current - last).abs() / (0.1 + last.abs());
            last = current;
            if change < 1e-12 {
                break (ls, design, sqrt_w);
            }
            if iterations >= 100 {
                return Err(ModelError::NotConverged(NotConverged::PoissonIterations {
                    iterations,
                }));
            }
        };
        drop(work);
        drop(sqrt_w);
        let columns = columns.unwrap_or_default();
        let terms: Vec<String> = columns.iter().map(|&j| data.x[j].name.clone()).collect();
        let (k_fe, k_fe_cluster) = fixed_effect_parameters(&absorbed);
        let bread = ls.xtx_inv.clone();
        let mut core = LinearCore::within(
            terms.clone(),
            design,
            ls,
            cluster.cluster,
            cluster.n_clusters,
            k_fe,
            k_fe_cluster,
        );
        core.clusters = cluster.clusters;
        if core.df_resid == 0 {
            return Err(ModelError::NotEnoughData(NotEnoughData::NoResidualDf {
                n,
                k: terms.len(),
            }));
        }
        let vcov = match self.vcov {
            VcovKind::Iid => {
                let df = core.df_resid;
                let (reference, t_df) = Reference::of(self.estimator, df);
                CoefficientVcov {
                    covariance: bread * ((n - 1) as f64 / df as f64),
                    reference,
                    df: t_df,
                    convention: crate::convention::Convention::PoissonAbsorbedModel { n, df },
                }
            }
            kind => core.covariance(kind, self.estimator)?,
        };
        let beta = core.ls.beta.clone();
        let mut est = Estimated::bare(terms, beta, vcov, n, n_entities);
        est.irr = true;
        est.dropped_terms = dropped;
        let mut diagnostics = vec![Diagnostic::PoissonConverged { iterations }];
        diagnostics.extend(rows.row_diagnostics());
        if rows.zero_outcome > 0 {
            diagnostics.push(Diagnostic::ZeroOutcomeRowsRemoved {
                outcome: data.y.name.clone(),
                rows: rows.zero_outcome,
            });
        }
        diagnostics.push(Diagnostic::AbsorbedEffects {
            effects: absorbed
                .iter()
                .map(|a| (a.name.clone(), a.levels))
                .collect(),
        });
        let uses_exposure = rows.offset.is_some();
        Ok(self.assemble(
            data,
            est,
            Extras {
                n_periods: rows.times,
                excluded: rows.excluded,
                diagnostics,
                weighted: false,
                uses_exposure,
                fixed_effects: absorbed,
                singletons_removed: Some(rows.singletons),
            },
        ))
    }

    /// The [`Fit`] from the estimates and what the fit found on the way.
    fn assemble(&self, data: &PanelData, est: Estimated, extras: Extras) -> Fit {
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
