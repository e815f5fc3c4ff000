//! Any number of absorbed fixed effects (`imr fit --fe commune,year,region^year`): the
//! within transformation off several sets of dummies by alternating projections, with
//! singletons removed and the degrees of freedom of fixest/pyfixest.
//!
//! # Formulas
//! - **Projection.** With fixed effects `f = 1..F` and `P_f` the projection onto the dummies
//!   of `f` (subtracting the level means), the residual of the projection off all of them is
//!   the limit of `x ← (I − P_F)…(I − P_1) x` (the method of alternating projections, von
//!   Neumann–Halperin; Guimarães & Portugal 2010; Gaure 2013, *Comput. Stat. Data Anal.* 66).
//!   One fixed effect needs one projection. With two or more, each pair of sweeps is followed
//!   by an Irons–Tuck extrapolation `x ← GGx − (⟨Δ, Δ²⟩/⟨Δ², Δ²⟩) Δ`, `Δ = GGx − Gx`,
//!   `Δ² = GGx − 2Gx + x` (Irons & Tuck 1969; as fixest, Bergé 2018, and pyfixest), until a
//!   sweep changes no value by more than `1e-13` of the column's largest absolute value.
//! - **Singletons.** A row alone in its level of some fixed effect is fitted exactly by that
//!   level and carries no information on the slopes; such rows are removed, repeatedly until
//!   none is left (Correia 2015; fixest and pyfixest `fixef_rm = "singleton"`), and listed.
//! - **Degrees of freedom** (pyfixest 0.60 `ssc()` defaults, `k_fixef = "nonnested"`): with
//!   `L_f` the levels of fixed effect `f`, `K_fe = Σ L_f − (F − 1)` and `k` slopes,
//!   `iid`: `s² = SSR/(N − k − K_fe)`; `hc1`: `N/(N − k − K_fe)`; cluster (by entity, CR1):
//!   `G/(G−1) · (N−1)/(N − K_c)` with `K_c = k + K_fe − Σ_{f nested} L_f + #nested`, a fixed
//!   effect being nested when each of its levels lies within one cluster; t with `G − 1` df.
//!   Fixed effects are counted without detecting redundant levels beyond one per extra
//!   dimension, as pyfixest.
//! - **Analytic weights** `w_i > 0` (pyfixest `weights=`, `aweights`): `P_f` subtracts the
//!   weighted level means `Σ_{i∈g} w_i x_i / Σ_{i∈g} w_i` (the projection in the inner product
//!   `⟨a, b⟩_w = Σ w_i a_i b_i`, which the Irons–Tuck step uses too); the slopes are then the
//!   least squares of `√w · ỹ` on `√w · X̃`, as for the weighted within model. Rows with a
//!   missing or non-positive weight are excluded with the reason.

mod demean;
mod linear;
mod poisson;
mod rows;
mod usable;

pub(crate) use demean::Demeaner;
pub(crate) use rows::{absorbed_rows, AbsorbedRows};

use crate::data::PanelData;
use crate::drop_reason::DropReason;
use crate::engine::Extras;
use crate::error::{NotConverged, NotEnoughData, Unsupported};
use crate::estimators::Absorbs;
use crate::fit::{DroppedTerm, Fit};
use crate::fixed_effect::{AbsorbedEffect, FixedEffect};
use crate::linalg::LeastSquares;
use crate::linear::{Clusters, LinearCore};
use crate::spec::PanelSpec;
use crate::{Diagnostic, ModelError};
use std::borrow::Cow;

/// `K_fe = Σ L_f − (F − 1)`, and the same less the nested effects plus one per nested effect
/// (pyfixest `get_ssc`, `k_fixef = "nonnested"`).
pub(crate) fn fixed_effect_parameters(absorbed: &[AbsorbedEffect]) -> (usize, usize) {
    let total: usize = absorbed.iter().map(|a| a.levels).sum();
    let k_fe = total.saturating_sub(absorbed.len().saturating_sub(1));
    let nested: usize = absorbed
        .iter()
        .filter(|a| a.nested_in_entity)
        .map(|a| a.levels)
        .sum();
    let n_nested = absorbed.iter().filter(|a| a.nested_in_entity).count();
    (k_fe, k_fe + n_nested - nested)
}

/// Whether each level of `codes` lies within a single cluster.
pub(crate) fn nested_in(codes: &[u32], levels: usize, cluster: &[usize]) -> bool {
    let mut owner = vec![usize::MAX; levels];
    for (&g, &c) in codes.iter().zip(cluster) {
        let o = &mut owner[g as usize];
        if *o == usize::MAX {
            *o = c;
        } else if *o != c {
            return false;
        }
    }
    true
}

/// The clusters of an absorbed fit, set up once for the linear and the Poisson fit: the codes
/// of the first (or only) clustering, their number, and what they are.
pub(crate) struct ClusterSetup {
    cluster: Vec<usize>,
    n_clusters: usize,
    clusters: Clusters,
}

impl ClusterSetup {
    /// The entity, or the `--cluster` columns of `data` (two: two-way, with their
    /// intersection), taken from the rows.
    fn new(rows: &mut AbsorbedRows, data: &PanelData) -> Self {
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
        ClusterSetup {
            cluster,
            n_clusters,
            clusters,
        }
    }

    /// The fixed effects as fitted: an effect nested in any of the clusters is not counted in
    /// the CR1 factor (pyfixest).
    fn effects(&self, data: &PanelData, rows: &AbsorbedRows) -> Vec<AbsorbedEffect> {
        let nested = |codes: &[u32], levels: usize| match &self.clusters {
            Clusters::TwoWay { second, .. } => {
                nested_in(codes, levels, &self.cluster) || nested_in(codes, levels, second)
            }
            _ => nested_in(codes, levels, &self.cluster),
        };
        data.fixed_effects
            .iter()
            .zip(&rows.codes)
            .zip(&rows.levels)
            .map(|((fe, codes), &levels)| AbsorbedEffect {
                name: fe.name.clone(),
                levels,
                nested_in_entity: nested(codes, levels),
            })
            .collect()
    }

    /// The linear core of the last least squares on `design` with these clusters, the
    /// effects' parameters counted as pyfixest ([`fixed_effect_parameters`]).
    fn core(
        self,
        terms: Vec<String>,
        design: Vec<Vec<f64>>,
        ls: LeastSquares,
        absorbed: &[AbsorbedEffect],
    ) -> LinearCore {
        let (k_fe, k_fe_cluster) = fixed_effect_parameters(absorbed);
        let mut core = LinearCore::within(
            terms,
            design,
            ls,
            self.cluster,
            self.n_clusters,
            k_fe,
            k_fe_cluster,
        );
        core.clusters = self.clusters;
        core
    }
}

/// `column` demeaned off the effects in place: `Ok(true)` when no more than 1e-9 of its norm
/// is left (the effects absorb it); an error naming it when the projections do not converge.
fn demean_column(
    demeaner: &mut Demeaner,
    column: &mut [f64],
    work: &mut [Vec<f64>; 2],
    name: &str,
    effects: &[String],
) -> Result<bool, ModelError> {
    let before = crate::linear::norm(column);
    if !demeaner.demean(column, work) {
        return Err(ModelError::NotConverged(NotConverged::Absorb {
            effects: effects.join(", "),
            column: name.to_owned(),
        }));
    }
    Ok(crate::linear::norm(column) <= 1e-9 * before)
}

/// A regressor the effects absorb, with the reason.
fn absorbed_term(name: &str, effects: &[String]) -> DroppedTerm {
    DroppedTerm {
        term: name.to_owned(),
        reason: DropReason::AbsorbedByFixedEffects {
            name: name.to_owned(),
            effects: effects.to_vec(),
        },
    }
}

impl PanelSpec {
    /// The fit off every fixed effect of `data.fixed_effects`, with the estimator's
    /// [`Absorbs`]: the within regression ([`linear`]) or Poisson ([`poisson`]), clustered
    /// by entity or by the `--cluster` columns.
    pub(crate) fn fit_absorbed(&self, mut data: Cow<'_, PanelData>) -> Result<Fit, ModelError> {
        let Some(absorbs) = self.estimator.room().absorbs else {
            return Err(ModelError::Unsupported(Unsupported::Absorbed {
                model: self.estimator.to_string(),
            }));
        };
        let mut rows = absorbed_rows(&data, absorbs == Absorbs::Poisson)?;
        if let Cow::Owned(data) = &mut data {
            data.release_rows();
        }
        if rows.y.is_empty() {
            return Err(ModelError::NotEnoughData(NotEnoughData::NoRowLeft {
                excluded: rows.excluded.len(),
            }));
        }
        let cluster = ClusterSetup::new(&mut rows, &data);
        let absorbed = cluster.effects(&data, &rows);
        let row_diagnostics = rows.row_diagnostics();
        let excluded = std::mem::take(&mut rows.excluded);
        let (n_periods, singletons) = (rows.times, rows.singletons);
        let (weighted, uses_exposure) = (rows.weights.is_some(), rows.offset.is_some());
        let fit = match absorbs {
            Absorbs::Linear => linear::fit,
            Absorbs::Poisson => poisson::fit,
        };
        let mut est = fit(self, &data, rows, &absorbed, cluster, row_diagnostics)?;
        let mut diagnostics = std::mem::take(&mut est.diagnostics);
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
                n_periods,
                excluded,
                diagnostics,
                weighted,
                uses_exposure,
                fixed_effects: absorbed,
                singletons_removed: Some(singletons),
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_of_freedom_follow_pyfixest() {
        let effects = [
            AbsorbedEffect {
                name: "entity".into(),
                levels: 10,
                nested_in_entity: true,
            },
            AbsorbedEffect {
                name: "year".into(),
                levels: 5,
                nested_in_entity: false,
            },
        ];
        // K_fe = 10 + 5 − 1 = 14; nested: 14 − 10 + 1 = 5
        assert_eq!(fixed_effect_parameters(&effects), (14, 5));
        assert!(nested_in(&[0, 0, 1], 2, &[3, 3, 4]));
        assert!(!nested_in(&[0, 0, 1], 2, &[3, 4, 4]));
    }
}
