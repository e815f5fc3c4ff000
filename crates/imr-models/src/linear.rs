//! The linear fit every linear estimator ends in ([`LinearCore`]) and its covariance, with
//! the pieces the estimators share: weights, norms, the within-variation test, collinear and
//! time-invariant terms, and Stata's R². The estimators themselves are in
//! [`crate::estimators`].

use crate::convention::Convention;
use crate::drop_reason::{DropReason, Stage};
use crate::error::NotEnoughData;
use crate::fit::{DroppedTerm, Reference};
use crate::linalg::LeastSquares;
use crate::prepared::Prepared;
use crate::spec::{Estimator, VcovKind};
use crate::vcov::{cluster_meat, hc_meat, sandwich};
use crate::within::demean;
use crate::ModelError;
use nalgebra::DMatrix;

/// A linear fit on a transformed design, ready for its covariance.
pub(crate) struct LinearCore {
    /// Names of the kept coefficients, in order.
    pub terms: Vec<String>,
    pub ls: LeastSquares,
    /// Transformed (and weighted) design columns, all candidates; `ls.kept` indexes them.
    pub design: Vec<Vec<f64>>,
    pub n: usize,
    /// Residual degrees of freedom for `iid`/`hc1`: n minus every estimated parameter.
    pub df_resid: usize,
    /// Number of coefficients counted in the CR1 factor (n − 1)/(n − K_c).
    pub k_cluster: usize,
    /// Cluster (entity) of each transformed row and number of clusters.
    pub cluster: Vec<usize>,
    pub n_clusters: usize,
    /// What `cluster` is: the entity, a column, or the first of two (two-way clustering).
    pub clusters: Clusters,
}

/// The clusters of a linear fit's clustered covariance.
#[derive(Debug, Clone, Default)]
pub(crate) enum Clusters {
    /// The entity (`LinearCore::cluster`).
    #[default]
    Entity,
    /// A column (`LinearCore::cluster`), `imr fit --cluster COL`.
    Column(String),
    /// Two columns: `LinearCore::cluster` is the first, `second` the other and `both` their
    /// intersection (`imr fit --cluster a,b`).
    TwoWay {
        names: [String; 2],
        second: Vec<usize>,
        n_second: usize,
        both: Vec<usize>,
        n_both: usize,
    },
}

/// Covariance, reference distribution and convention text of the coefficients: of a linear fit
/// ([`LinearCore::covariance`]), or of `poisson-fe` (normal reference).
pub(crate) struct CoefficientVcov {
    pub covariance: DMatrix<f64>,
    pub reference: Reference,
    pub df: Option<usize>,
    pub convention: Convention,
}

impl LinearCore {
    /// The core of a fit whose only parameters are its kept coefficients (pooled, between,
    /// random effects): `n` is the number of rows of `cluster`, the residual degrees of freedom
    /// `n − k` and the CR1 factor counts the `k` kept coefficients.
    pub fn of_kept(
        names: &[String],
        design: Vec<Vec<f64>>,
        ls: LeastSquares,
        cluster: Vec<usize>,
        n_clusters: usize,
    ) -> LinearCore {
        let (n, k) = (cluster.len(), ls.kept.len());
        LinearCore {
            terms: ls.kept.iter().map(|&j| names[j].clone()).collect(),
            n,
            df_resid: n.saturating_sub(k),
            k_cluster: k,
            cluster,
            n_clusters,
            clusters: Clusters::Entity,
            design,
            ls,
        }
    }

    /// The core of a within fit clustered by `cluster`: `k_absorbed` effect parameters were
    /// swept out of `design`, so the residual degrees of freedom are `n − k − k_absorbed`; the
    /// CR1 factor counts the `k` kept coefficients and `k_absorbed_cluster` of the swept
    /// parameters (those not nested in the clusters, plus the constant). `n` is the number of
    /// rows of `cluster`.
    pub fn within(
        terms: Vec<String>,
        design: Vec<Vec<f64>>,
        ls: LeastSquares,
        cluster: Vec<usize>,
        n_clusters: usize,
        k_absorbed: usize,
        k_absorbed_cluster: usize,
    ) -> LinearCore {
        let (n, k) = (cluster.len(), ls.kept.len());
        LinearCore {
            terms,
            n,
            df_resid: n.saturating_sub(k + k_absorbed),
            k_cluster: k + k_absorbed_cluster,
            cluster,
            n_clusters,
            clusters: Clusters::Entity,
            design,
            ls,
        }
    }

    pub fn kept_columns(&self) -> Vec<&[f64]> {
        self.ls
            .kept
            .iter()
            .map(|&j| self.design[j].as_slice())
            .collect()
    }

    pub fn s2(&self) -> f64 {
        self.ls.ssr() / self.df_resid as f64
    }

    /// The classical covariance `s² (ZᵀZ)⁻¹`.
    pub fn classical(&self) -> DMatrix<f64> {
        &self.ls.xtx_inv * self.s2()
    }

    /// The covariance under `kind`, with `estimator`'s reference distribution
    /// ([`Reference::of`]: t with the residual degrees of freedom, or `G − 1` clustered).
    pub fn covariance(
        &self,
        kind: VcovKind,
        estimator: Estimator,
    ) -> Result<CoefficientVcov, ModelError> {
        let n = self.n;
        let df = self.df_resid;
        let z_or_t = |df: usize| Reference::of(estimator, df);
        match kind {
            VcovKind::Iid => {
                let (reference, dfi) = z_or_t(df);
                Ok(CoefficientVcov {
                    covariance: self.classical(),
                    convention: Convention::Classical { df, t_df: dfi },
                    reference,
                    df: dfi,
                })
            }
            VcovKind::Hc1 => {
                let meat = hc_meat(&self.kept_columns(), &self.ls.resid);
                let factor = n as f64 / df as f64;
                let (reference, dfi) = z_or_t(df);
                Ok(CoefficientVcov {
                    covariance: sandwich(&self.ls.xtx_inv, &meat, factor),
                    convention: Convention::Hc1 { n, df, t_df: dfi },
                    reference,
                    df: dfi,
                })
            }
            VcovKind::Cluster => {
                let g = match &self.clusters {
                    Clusters::TwoWay { n_second, .. } => self.n_clusters.min(*n_second),
                    _ => self.n_clusters,
                };
                if g < 2 {
                    return Err(ModelError::NotEnoughData(
                        NotEnoughData::ClusterNeedsTwoEntities,
                    ));
                }
                if n <= self.k_cluster {
                    return Err(ModelError::NotEnoughData(NotEnoughData::TooFewForCluster {
                        n,
                        k: self.k_cluster,
                    }));
                }
                let columns = self.kept_columns();
                let meat = |cluster: &[usize], count: usize| {
                    cluster_meat(&columns, &self.ls.resid, cluster, count)
                };
                // CR1: G/(G−1)·(N−1)/(N−K); two-way, every term with G = min(G_a, G_b)
                // (pyfixest's default G_df = "min", as fixest)
                let factor =
                    g as f64 / (g - 1) as f64 * (n - 1) as f64 / (n - self.k_cluster) as f64;
                let (reference, dfi) = z_or_t(g - 1);
                let bread = &self.ls.xtx_inv;
                let (covariance, convention) = match &self.clusters {
                    Clusters::Entity => (
                        sandwich(bread, &meat(&self.cluster, self.n_clusters), factor),
                        Convention::Cluster {
                            g,
                            n,
                            k: self.k_cluster,
                            t_df: dfi,
                        },
                    ),
                    Clusters::Column(column) => (
                        sandwich(bread, &meat(&self.cluster, self.n_clusters), factor),
                        Convention::ClusterBy {
                            column: column.clone(),
                            g,
                            n,
                            k: self.k_cluster,
                            t_df: dfi,
                        },
                    ),
                    Clusters::TwoWay {
                        names,
                        second,
                        n_second,
                        both,
                        n_both,
                    } => {
                        // Cameron, Gelbach & Miller (2011): V_a + V_b − V_ab
                        let m = meat(&self.cluster, self.n_clusters) + meat(second, *n_second)
                            - meat(both, *n_both);
                        (
                            sandwich(bread, &m, factor),
                            Convention::TwoWayCluster {
                                columns: names.clone(),
                                g_a: self.n_clusters,
                                g_b: *n_second,
                                n,
                                k: self.k_cluster,
                                t_df: dfi,
                            },
                        )
                    }
                };
                Ok(CoefficientVcov {
                    covariance,
                    convention,
                    reference,
                    df: dfi,
                })
            }
        }
    }
}

pub(crate) fn sqrt_weights(prep: &Prepared) -> Option<Vec<f64>> {
    prep.weights
        .as_ref()
        .map(|w| w.iter().map(|v| v.sqrt()).collect())
}

pub(crate) fn scaled(values: &[f64], sqrt_w: Option<&[f64]>) -> Vec<f64> {
    match sqrt_w {
        Some(s) => values.iter().zip(s).map(|(v, s)| v * s).collect(),
        None => values.to_vec(),
    }
}

/// [`scaled`] of a vector the caller no longer needs: scaled in place, not copied.
pub(crate) fn scaled_owned(mut values: Vec<f64>, sqrt_w: Option<&[f64]>) -> Vec<f64> {
    if let Some(s) = sqrt_w {
        values.iter_mut().zip(s).for_each(|(v, s)| *v *= s);
    }
    values
}

pub(crate) fn norm(values: &[f64]) -> f64 {
    values.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// Whether a column varies within at least one entity.
pub(crate) fn varies_within(column: &[f64], entity: &[usize], n_entities: usize) -> bool {
    varies_within_given(column, &demean(column, entity, n_entities, None))
}

/// [`varies_within`] with the column's (unweighted) within transformation already computed.
fn varies_within_given(column: &[f64], within: &[f64]) -> bool {
    norm(within) > 1e-10 * norm(column).max(f64::MIN_POSITIVE)
}

/// The regressors among `columns` that vary within entities, each with its design column
/// `design_of(j, within)` made from its unweighted within transformation (which decides
/// whether it varies, and is computed once), and the others dropped as time-invariant.
pub(crate) fn varying_within(
    prep: &Prepared,
    columns: &[usize],
    mut design_of: impl FnMut(usize, Vec<f64>) -> Vec<f64>,
) -> (Vec<usize>, Vec<Vec<f64>>, Vec<DroppedTerm>) {
    let g = prep.n_entities();
    let (mut candidates, mut design, mut dropped) = (Vec::new(), Vec::new(), Vec::new());
    for &j in columns {
        let within = demean(&prep.x[j], &prep.entity, g, None);
        if varies_within_given(&prep.x[j], &within) {
            candidates.push(j);
            design.push(design_of(j, within));
        } else {
            dropped.push(DroppedTerm {
                term: prep.x_names[j].clone(),
                reason: time_invariant_reason(&prep.x_names[j]),
            });
        }
    }
    (candidates, design, dropped)
}

pub(crate) fn time_invariant_reason(name: &str) -> DropReason {
    DropReason::TimeInvariant {
        name: name.to_string(),
        differences: false,
    }
}

/// The regressors `least_squares` dropped as collinear at `stage`, design column `c` named
/// `name_of(c)`.
pub(crate) fn collinear_terms(
    ls: &LeastSquares,
    name_of: impl Fn(usize) -> String,
    stage: Stage,
) -> Vec<DroppedTerm> {
    ls.collinear(name_of)
        .into_iter()
        .map(|(name, earlier)| DroppedTerm {
            reason: collinear_reason(&name, &earlier, stage),
            term: name,
        })
        .collect()
}

pub(crate) fn collinear_reason(name: &str, earlier: &[String], stage: Stage) -> DropReason {
    DropReason::Collinear {
        name: name.to_string(),
        earlier: earlier.to_vec(),
        stage,
    }
}
