//! `PanelSpec::fit`: from plain data to a [`Fit`].

use crate::absorb::{
    absorbed_rows, fixed_effect_parameters, nested_in, AbsorbedEffect, Demeaner, FixedEffect,
};
use crate::data::{prepare, ExcludedRow, Needs, PanelData, Prepared};
use crate::error::{InvalidValue, NoRegressors, NotConverged, NotEnoughData, Unsupported};
use crate::exclusion::{EntityDropReason, ExclusionReason};
use crate::fit::{
    coefficient_table, ChiSquaredTest, DroppedEntity, DroppedTerm, Fit, Inference, Reference,
    Tests, ThetaSummary,
};
use crate::hypothesis::{breusch_pagan, f_effects, hausman, wald};
use crate::linear::{
    be_core, fd_core, fe_core, pooled_core, r2_stata, twfe_core, Clusters, CoefficientVcov,
    LinearCore,
};
use crate::random::{mundlak_augment, re_core, re_core_given};
use crate::spec::{Estimator, PanelSpec, VcovKind};
use crate::{Diagnostic, ModelError};
use nalgebra::{DMatrix, DVector};
use std::borrow::Cow;

/// Everything estimator-specific that goes into a [`Fit`].
struct Estimated {
    terms: Vec<String>,
    beta: DVector<f64>,
    covariance: DMatrix<f64>,
    reference: Reference,
    df: Option<usize>,
    convention: crate::convention::Convention,
    dropped_terms: Vec<DroppedTerm>,
    r2: (Option<f64>, Option<f64>, Option<f64>),
    sigma2_u: Option<f64>,
    sigma2_e: Option<f64>,
    theta: Option<f64>,
    theta_summary: Option<ThetaSummary>,
    tests: Tests,
    nobs: usize,
    n_entities: usize,
    diagnostics: Vec<Diagnostic>,
    irr: bool,
}

impl Estimated {
    /// The coefficients and their covariance with nothing estimator-specific yet: no dropped
    /// terms, R², variance components, specification tests or diagnostics (each estimator adds
    /// its own).
    fn bare(
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

    fn linear(core: &LinearCore, vcov: VcovKind, use_z: bool) -> Result<Self, ModelError> {
        if core.df_resid == 0 {
            return Err(ModelError::NotEnoughData(NotEnoughData::NoResidualDf {
                n: core.n,
                k: core.ls.kept.len(),
            }));
        }
        let v = core.covariance(vcov, use_z)?;
        Ok(Estimated::bare(
            core.terms.clone(),
            core.ls.beta.clone(),
            v,
            core.n,
            core.n_clusters,
        ))
    }
}

fn sub_vector(v: &DVector<f64>, idx: &[usize]) -> DVector<f64> {
    DVector::from_iterator(idx.len(), idx.iter().map(|&i| v[i]))
}

fn sub_matrix(m: &DMatrix<f64>, idx: &[usize]) -> DMatrix<f64> {
    DMatrix::from_fn(idx.len(), idx.len(), |a, b| m[(idx[a], idx[b])])
}

/// Hausman FE vs RE on the common slopes, with classical covariances. An `Err` says why the
/// test is not available (the fit itself goes on: the test is a diagnostic).
///
/// `fe` is the unweighted within regression on every regressor, with its number of kept
/// regressors, and `re` the random-effects fit, when the caller has them already (each is
/// computed here otherwise; the same numbers either way).
fn hausman_test(
    prep: &Prepared,
    fe: Option<(&LinearCore, usize)>,
    re: Option<&crate::random::ReCore>,
) -> Result<Option<ChiSquaredTest>, ModelError> {
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let owned_fe;
    let (fe, fe_kept) = match fe {
        Some(given) => given,
        None => {
            let (core, _, kept) = fe_core(prep, &all, false);
            owned_fe = core;
            (&owned_fe, kept.len())
        }
    };
    if fe.df_resid == 0 {
        return Ok(None);
    }
    let owned_re;
    let re = match re {
        Some(re) => re,
        None => {
            owned_re = re_core_given(prep, fe, fe_kept)?;
            &owned_re
        }
    };
    let mut fe_idx = Vec::new();
    let mut re_idx = Vec::new();
    for (i, term) in fe.terms.iter().enumerate() {
        if let Some(r) = re.core.terms.iter().position(|t| t == term) {
            fe_idx.push(i);
            re_idx.push(r);
        }
    }
    Ok(hausman(
        &sub_vector(&fe.ls.beta, &fe_idx),
        &sub_matrix(&fe.classical(), &fe_idx),
        &sub_vector(&re.core.ls.beta, &re_idx),
        &sub_matrix(&re.core.classical(), &re_idx),
    ))
}

fn slopes_of(core: &LinearCore, prep: &Prepared, has_intercept: bool) -> (Vec<usize>, Vec<f64>) {
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

fn labels(labels: Vec<&String>) -> Vec<String> {
    labels.into_iter().cloned().collect()
}

fn fit_pooled(prep: &Prepared, spec: &PanelSpec, weighted: bool) -> Result<Estimated, ModelError> {
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let (core, dropped) = pooled_core(prep, &all);
    let mut est = Estimated::linear(&core, spec.vcov, false)?;
    est.dropped_terms = dropped;
    let (columns, beta) = slopes_of(&core, prep, true);
    est.r2 = r2_stata(prep, &columns, &beta, weighted);
    if !weighted {
        est.tests.breusch_pagan = breusch_pagan(&core.ls.resid, &prep.entity, prep.n_entities());
    }
    Ok(est)
}

fn fit_fe(prep: &Prepared, spec: &PanelSpec, weighted: bool) -> Result<Estimated, ModelError> {
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let (core, dropped, kept) = fe_core(prep, &all, weighted);
    if kept.is_empty() {
        return Err(no_regressors("fe", &dropped));
    }
    let mut est = Estimated::linear(&core, spec.vcov, false)?;
    est.dropped_terms = dropped;
    est.sigma2_e = Some(core.s2());
    let (columns, beta) = slopes_of(&core, prep, false);
    est.r2 = r2_stata(prep, &columns, &beta, weighted);
    // What follows reads the within fit's coefficients, (XᵀX)⁻¹ and residuals only: its design
    // and clusters go, and the pooled fit of the F test is dropped once its SSR is read (each
    // was a copy of the regressors held through the Hausman test's random-effects fit).
    let mut core = core;
    core.design = Vec::new();
    core.cluster = Vec::new();
    let pooled_ssr = pooled_core(prep, &kept).0.ls.ssr();
    est.tests.f_effects = f_effects(
        pooled_ssr,
        core.ls.ssr(),
        prep.n_entities() - 1,
        core.df_resid,
        crate::Hypothesis::NoEntityEffects,
    );
    if weighted {
        est.diagnostics.push(Diagnostic::HausmanWeighted);
    } else {
        // the fit above is the unweighted within regression on every regressor: reused
        match hausman_test(prep, Some((&core, kept.len())), None) {
            Ok(test) => est.tests.hausman = test,
            Err(why) => est.diagnostics.push(Diagnostic::HausmanUnavailable { why }),
        }
    }
    Ok(est)
}

fn fit_twfe(prep: &Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let (core, dropped, kept, absorbed) = twfe_core(prep)?;
    if kept.is_empty() {
        return Err(no_regressors("twfe", &dropped));
    }
    let mut est = Estimated::linear(&core, spec.vcov, false)?;
    est.dropped_terms = dropped;
    est.sigma2_e = Some(core.s2());
    // within R² of the model with year effects: 1 − SSR / Σ w (y − ȳ_i)²
    let y_within = crate::within::demean(
        &prep.y,
        &prep.entity,
        prep.n_entities(),
        prep.weights.as_deref(),
    );
    let tss: f64 = match &prep.weights {
        Some(w) => y_within.iter().zip(w).map(|(v, w)| w * v * v).sum(),
        None => y_within.iter().map(|v| v * v).sum(),
    };
    est.r2 = (Some(1.0 - core.ls.ssr() / tss), None, None);
    let pooled_ssr = pooled_core(prep, &kept).0.ls.ssr();
    est.tests.f_effects = f_effects(
        pooled_ssr,
        core.ls.ssr(),
        absorbed - 1,
        core.df_resid,
        crate::Hypothesis::NoEntityOrYearEffects,
    );
    Ok(est)
}

fn fit_be(prep: &Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let (core, dropped) = be_core(prep, &all);
    let mut est = Estimated::linear(&core, spec.vcov, false)?;
    est.dropped_terms = dropped;
    est.nobs = prep.n();
    let (columns, beta) = slopes_of(&core, prep, true);
    est.r2 = r2_stata(prep, &columns, &beta, false);
    Ok(est)
}

fn fit_fd(prep: &Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let (core, dropped, kept, per_entity) = fd_core(prep);
    if core.n == 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::NoFirstDifference));
    }
    if kept.is_empty() {
        return Err(no_regressors("fd", &dropped));
    }
    let mut est = Estimated::linear(&core, spec.vcov, false)?;
    est.dropped_terms = dropped;
    let breaks = prep.n() - core.n - prep.n_entities();
    let without: Vec<&String> = per_entity
        .iter()
        .zip(&prep.entity_labels)
        .filter_map(|(&c, l)| (c == 0).then_some(l))
        .collect();
    est.diagnostics.push(Diagnostic::FirstDifferences {
        differences: core.n,
        rows: prep.n(),
        after_gap: breaks,
    });
    if !without.is_empty() {
        est.diagnostics.push(Diagnostic::NoConsecutivePeriods {
            entities: labels(without),
        });
    }
    Ok(est)
}

fn fit_re(
    prep: &Prepared,
    spec: &PanelSpec,
    mean_columns: &[usize],
) -> Result<Estimated, ModelError> {
    let re = re_core(prep)?;
    let mut est = Estimated::linear(&re.core, spec.vcov, true)?;
    est.dropped_terms = re.dropped.clone();
    est.diagnostics.extend(re.diagnostics.iter().cloned());
    est.sigma2_u = Some(re.sigma2_u);
    est.sigma2_e = Some(re.sigma2_e);
    let counts = prep.entity_counts();
    if counts.iter().all(|&c| c == counts[0]) {
        est.theta = Some(re.theta[0]);
    } else {
        let mut sorted = re.theta.clone();
        sorted.sort_by(f64::total_cmp);
        est.theta_summary = Some(ThetaSummary {
            min: sorted[0],
            median: imr_stats::quantile_type7(&sorted, 0.5).unwrap_or(f64::NAN),
            max: sorted[sorted.len() - 1],
        });
        est.diagnostics.push(Diagnostic::UnbalancedTheta);
    }
    let (columns, beta) = slopes_of(&re.core, prep, re.has_intercept);
    est.r2 = r2_stata(prep, &columns, &beta, false);
    let all: Vec<usize> = (0..prep.x.len()).collect();
    let (pooled, _) = pooled_core(prep, &all);
    est.tests.breusch_pagan = breusch_pagan(&pooled.ls.resid, &prep.entity, prep.n_entities());
    if mean_columns.is_empty() {
        est.tests.hausman = hausman_test(prep, None, Some(&re))?;
    } else {
        let idx: Vec<usize> = mean_columns
            .iter()
            .filter_map(|&j| est.terms.iter().position(|t| *t == prep.x_names[j]))
            .collect();
        est.tests.mundlak = wald(
            &sub_vector(&est.beta, &idx),
            &sub_matrix(&est.covariance, &idx),
            crate::Hypothesis::MundlakMeansZero,
        );
    }
    Ok(est)
}

fn no_regressors(model: &str, dropped: &[DroppedTerm]) -> ModelError {
    ModelError::NoRegressors(NoRegressors::AllDropped {
        model: model.to_owned(),
        reasons: dropped.iter().map(|d| d.reason.clone()).collect(),
    })
}

fn fit_poisson(
    prep: &mut Prepared,
    spec: &PanelSpec,
) -> Result<(Estimated, Vec<DroppedEntity>), ModelError> {
    let negative: Vec<usize> = prep
        .y
        .iter()
        .zip(&prep.row_label)
        .filter_map(|(&y, &row)| (y < 0.0).then_some(row))
        .collect();
    if !negative.is_empty() {
        let rows: Vec<String> = negative.iter().take(10).map(|r| r.to_string()).collect();
        return Err(ModelError::InvalidValue(InvalidValue::NegativeCount {
            outcome: prep.y_name.clone(),
            rows: rows.join(", "),
        }));
    }
    // Entities that carry no information on the coefficients: the outcome zero in every
    // period (the entity's effect would be −∞) or a single row (its effect fits the row
    // exactly). Both are dropped and listed, as Stata `xtpoisson, fe` and pyfixest `fepois`.
    let g = prep.n_entities();
    let mut sum_y = vec![0.0; g];
    let mut rows_of = vec![0usize; g];
    for (&y, &e) in prep.y.iter().zip(&prep.entity) {
        sum_y[e] += y;
        rows_of[e] += 1;
    }
    let all_zero = |e: usize| sum_y[e] == 0.0;
    let single = |e: usize| !all_zero(e) && rows_of[e] == 1;
    let mut dropped_entities = Vec::new();
    let (mut zero_labels, mut single_labels) = (Vec::new(), Vec::new());
    for (e, label) in prep.entity_labels.iter().enumerate() {
        let reason = if all_zero(e) {
            zero_labels.push(label.clone());
            EntityDropReason::AllZeroOutcome {
                outcome: prep.y_name.clone(),
            }
        } else if single(e) {
            single_labels.push(label.clone());
            EntityDropReason::SingleRow
        } else {
            continue;
        };
        dropped_entities.push(DroppedEntity {
            entity: label.clone(),
            reason,
        });
    }
    if !dropped_entities.is_empty() {
        let keep: Vec<bool> = prep
            .entity
            .iter()
            .map(|&e| !all_zero(e) && !single(e))
            .collect();
        for (i, &k) in keep.iter().enumerate() {
            if !k {
                let e = prep.entity[i];
                let label = &prep.entity_labels[e];
                prep.excluded.push(ExcludedRow {
                    row: prep.row_label[i],
                    reason: if all_zero(e) {
                        ExclusionReason::EntityAllZero {
                            entity: label.clone(),
                            outcome: prep.y_name.clone(),
                        }
                    } else {
                        ExclusionReason::EntitySingleRow {
                            entity: label.clone(),
                        }
                    },
                });
            }
        }
        prep.retain_rows(&keep);
    }
    if prep.n_entities() == 0 {
        return Err(ModelError::NotEnoughData(NotEnoughData::OutcomeAllZero {
            outcome: prep.y_name.clone(),
        }));
    }
    let core = crate::poisson::poisson_fe(prep, spec.vcov)?;
    let mut diagnostics = vec![Diagnostic::PoissonConverged {
        iterations: core.iterations,
    }];
    if !zero_labels.is_empty() {
        diagnostics.push(Diagnostic::AllZeroEntities {
            outcome: prep.y_name.clone(),
            entities: zero_labels,
        });
    }
    if !single_labels.is_empty() {
        diagnostics.push(Diagnostic::SingleRowEntities {
            entities: single_labels,
        });
    }
    let vcov = CoefficientVcov {
        covariance: core.covariance,
        reference: Reference::Z,
        df: None,
        convention: core.convention,
    };
    Ok((
        Estimated {
            dropped_terms: core.dropped,
            diagnostics,
            irr: true,
            ..Estimated::bare(core.terms, core.beta, vcov, prep.n(), prep.n_entities())
        },
        dropped_entities,
    ))
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
    dropped_entities: Vec<DroppedEntity>,
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
        let weighted = data.weights.is_some();
        if weighted && !estimator.takes_weights() {
            return Err(ModelError::Unsupported(Unsupported::Weights {
                model: estimator.to_string(),
                poisson: estimator == Estimator::PoissonFe,
            }));
        }
        let uses_exposure = estimator == Estimator::PoissonFe && data.exposure.is_some();
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
        if estimator == Estimator::PoissonFe && data.exposure.is_none() {
            diagnostics.push(Diagnostic::NoExposure);
        }
        if matches!(
            estimator,
            Estimator::Fe | Estimator::Twfe | Estimator::Re | Estimator::Cre | Estimator::Fd
        ) {
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
        let mut dropped_entities = Vec::new();
        let mut est = match estimator {
            Estimator::Pooled => fit_pooled(&prep, self, weighted)?,
            Estimator::Fe => fit_fe(&prep, self, weighted)?,
            Estimator::Twfe => fit_twfe(&prep, self)?,
            Estimator::Be => fit_be(&prep, self)?,
            Estimator::Fd => fit_fd(&prep, self)?,
            Estimator::Re => fit_re(&prep, self, &[])?,
            Estimator::Cre => {
                let (augmented, means) = mundlak_augment(&prep);
                let mut est = fit_re(&augmented, self, &means)?;
                // the mean columns are added by the model: never report them as dropped
                est.dropped_terms
                    .retain(|d| !means.iter().any(|&j| augmented.x_names[j] == d.term));
                est
            }
            Estimator::PoissonFe => {
                let (est, dropped) = fit_poisson(&mut prep, self)?;
                dropped_entities = dropped;
                est
            }
        };
        diagnostics.append(&mut est.diagnostics);
        Ok(self.assemble(
            &data,
            est,
            Extras {
                n_periods: prep.n_periods(),
                excluded: prep.excluded,
                diagnostics,
                dropped_entities,
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
        let poisson = self.estimator == Estimator::PoissonFe;
        if self.estimator != Estimator::Fe && !poisson {
            return Err(ModelError::Unsupported(Unsupported::Absorbed {
                model: self.estimator.to_string(),
            }));
        }
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
        let mut est = Estimated::linear(&core, self.vcov, false)?;
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
                dropped_entities: Vec::new(),
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
                CoefficientVcov {
                    covariance: bread * ((n - 1) as f64 / df as f64),
                    reference: Reference::Z,
                    df: None,
                    convention: crate::convention::Convention::PoissonAbsorbedModel { n, df },
                }
            }
            kind => core.covariance(kind, true)?,
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
                dropped_entities: Vec::new(),
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
            dropped_entities,
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
            dropped_entities,
            fixed_effects,
            singletons_removed,
            covariance,
        }
    }
}
