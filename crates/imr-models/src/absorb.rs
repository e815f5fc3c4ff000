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

use crate::data::{check_len, ExcludedRow, PanelData};
use crate::error::InvalidValue;
use crate::exclusion::{ExclusionReason, ValueProblem};
use crate::ModelError;
use std::collections::HashMap;
use std::hash::Hash;

/// A fixed effect to absorb: a name (`region^year`) and the level of each input row.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedEffect {
    /// The name shown in the output: a column, or columns joined by `^` for an interaction.
    pub name: String,
    /// One code per input row (equal codes, same level); `None` is a missing level and
    /// excludes the row.
    pub codes: Vec<Option<u32>>,
}

impl FixedEffect {
    /// Codes by first appearance of each key (`None`: missing).
    pub fn from_keys<K: Eq + Hash>(
        name: impl Into<String>,
        keys: impl IntoIterator<Item = Option<K>>,
    ) -> Self {
        let mut index: HashMap<K, u32> = HashMap::new();
        let codes = keys
            .into_iter()
            .map(|key| {
                key.map(|k| {
                    let next = index.len() as u32;
                    *index.entry(k).or_insert(next)
                })
            })
            .collect();
        FixedEffect {
            name: name.into(),
            codes,
        }
    }

    /// The interaction of fixed effects (one level per combination present), named with `^`
    /// as fixest. A row missing in any part is missing. Parts must have the same length.
    pub fn interact(parts: &[FixedEffect]) -> Self {
        let name = parts
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join("^");
        let n = parts.first().map_or(0, |p| p.codes.len());
        let keys = (0..n).map(|row| {
            parts
                .iter()
                .map(|p| p.codes.get(row).copied().flatten())
                .collect::<Option<Vec<u32>>>()
        });
        FixedEffect::from_keys(name, keys)
    }
}

/// Parses `commune,year,region^year` into terms, each a list of column names (one, or the
/// parts of an interaction). Spaces around names are ignored; `+` separates terms as `,` does.
pub fn parse_fixed_effects(spec: &str) -> Result<Vec<Vec<String>>, ModelError> {
    let mut terms = Vec::new();
    for term in spec.split([',', '+']) {
        let parts: Vec<String> = term.split('^').map(|p| p.trim().to_string()).collect();
        if parts.iter().any(String::is_empty) {
            return Err(ModelError::InvalidValue(InvalidValue::EmptyFixedEffect {
                spec: spec.to_owned(),
                term: term.trim().to_owned(),
            }));
        }
        terms.push(parts);
    }
    Ok(terms)
}

/// A fixed effect as used in the fit: its name, levels among the rows used, and whether it is
/// nested in the entity clusters.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AbsorbedEffect {
    /// The name (`region^year`).
    pub name: String,
    /// Levels among the rows used.
    pub levels: usize,
    /// Every level lies within one entity (not counted in the cluster small-sample factor).
    pub nested_in_entity: bool,
}

/// The rows of an absorbed fit after exclusions and singleton removal, in input order.
pub(crate) struct AbsorbedRows {
    /// Dense level codes per fixed effect, `codes[f][i]`.
    pub codes: Vec<Vec<u32>>,
    pub levels: Vec<usize>,
    /// Dense entity code of each row (the clusters).
    pub entity: Vec<usize>,
    pub n_entities: usize,
    pub y: Vec<f64>,
    pub x: Vec<Vec<f64>>,
    /// The analytic weights of the rows, when the fit is weighted.
    pub weights: Option<Vec<f64>>,
    /// `ln(exposure)` of the rows, for Poisson with an exposure.
    pub offset: Option<Vec<f64>>,
    /// Rows dropped because their outcome is zero in every row of a level (Poisson).
    pub zero_outcome: usize,
    pub times: usize,
    pub excluded: Vec<ExcludedRow>,
    pub singletons: usize,
    /// Dense codes of each cluster column of [`PanelData::cluster`] and their numbers of
    /// clusters (empty: clustered by entity).
    pub clusters: Vec<(Vec<usize>, usize)>,
}

impl AbsorbedRows {
    /// The diagnostics every absorbed fit reports of its rows: those excluded (listed) and the
    /// singletons removed (counted).
    pub fn row_diagnostics(&self) -> Vec<crate::diagnostic::Diagnostic> {
        use crate::diagnostic::Diagnostic;
        let mut diagnostics = Vec::new();
        if !self.excluded.is_empty() {
            diagnostics.push(Diagnostic::RowsExcluded {
                rows: self.excluded.iter().map(|r| r.row).collect(),
            });
        }
        if self.singletons > 0 {
            diagnostics.push(Diagnostic::SingletonsRemoved {
                rows: self.singletons,
            });
        }
        diagnostics
    }
}

fn row_label(data: &PanelData, row: usize) -> usize {
    if data.row_labels.is_empty() {
        row + 1
    } else {
        data.row_labels[row]
    }
}

/// Dense codes `0..L` in order of first appearance, for the rows listed.
fn densify(codes: &[Option<u32>], rows: &[u32]) -> (Vec<u32>, usize) {
    let max = rows
        .iter()
        .filter_map(|&r| codes[r as usize])
        .max()
        .map_or(0, |m| m as usize + 1);
    let mut map = vec![u32::MAX; max];
    let mut levels = 0u32;
    let dense = rows
        .iter()
        .map(|&r| {
            let c = codes[r as usize].unwrap_or(0) as usize;
            if map[c] == u32::MAX {
                map[c] = levels;
                levels += 1;
            }
            map[c]
        })
        .collect();
    (dense, levels as usize)
}

/// Why `row` cannot enter an absorbed fit: every missing value, missing level or cluster,
/// non-positive weight or exposure, and (Poisson) negative count, joined by "; ".
fn exclusion_reason(
    data: &PanelData,
    exposure: Option<&crate::data::Column>,
    poisson: bool,
    row: usize,
) -> ExclusionReason {
    let finite = |v: &f64| v.is_finite();
    let positive = |v: &f64| *v > 0.0;
    let missing: Vec<String> = std::iter::once(&data.y)
        .chain(&data.x)
        .chain(&data.weights)
        .chain(exposure)
        .filter(|c| !finite(&c.values[row]))
        .map(|c| c.name.clone())
        .collect();
    let without_level = |effects: &[FixedEffect]| -> Vec<String> {
        effects
            .iter()
            .filter(|f| f.codes[row].is_none())
            .map(|f| f.name.clone())
            .collect()
    };
    let no_level = without_level(&data.fixed_effects);
    let no_cluster = without_level(&data.cluster);
    let mut problems = Vec::new();
    if !missing.is_empty() {
        problems.push(ValueProblem::MissingValue { columns: missing });
    }
    if !no_level.is_empty() {
        problems.push(ValueProblem::MissingFixedEffect { effects: no_level });
    }
    if !no_cluster.is_empty() {
        problems.push(ValueProblem::MissingCluster {
            clusters: no_cluster,
        });
    }
    if let Some(w) = data.weights.as_ref().filter(|w| {
        let v = &w.values[row];
        finite(v) && !positive(v)
    }) {
        problems.push(ValueProblem::NonPositiveWeight {
            column: w.name.clone(),
            value: w.values[row],
        });
    }
    if poisson && data.y.values[row] < 0.0 {
        problems.push(ValueProblem::NegativeCount {
            column: data.y.name.clone(),
            value: data.y.values[row],
        });
    }
    if let Some(e) = exposure.filter(|e| {
        let v = &e.values[row];
        finite(v) && !positive(v)
    }) {
        problems.push(ValueProblem::NonPositiveExposure {
            column: e.name.clone(),
            value: e.values[row],
        });
    }
    ExclusionReason::Values(problems)
}

/// Excludes rows with a missing value or level (listed with the reason), then removes
/// singletons repeatedly (listed too), and gathers the columns of the rows left.
///
/// `poisson`: the exposure (when given) must be positive and enters as `ln(exposure)`; and the
/// rows of a level whose outcome is zero in every row are removed with the singletons (the
/// level's effect would be −∞: they carry no information on the slopes; pyfixest `fepois`'s
/// separation check "fe", Stata `xtpoisson, fe`), repeatedly, as a removal can leave a
/// singleton.
pub(crate) fn absorbed_rows(data: &PanelData, poisson: bool) -> Result<AbsorbedRows, ModelError> {
    let exposure = data.exposure.as_ref().filter(|_| poisson);
    let n_rows = data.n_rows();
    check_len("time", data.time.len(), n_rows)?;
    check_len(&data.y.name, data.y.values.len(), n_rows)?;
    for column in &data.x {
        check_len(&column.name, column.values.len(), n_rows)?;
    }
    for fe in data.fixed_effects.iter().chain(&data.cluster) {
        check_len(&fe.name, fe.codes.len(), n_rows)?;
    }
    if let Some(w) = &data.weights {
        check_len(&w.name, w.values.len(), n_rows)?;
    }
    if let Some(e) = exposure {
        check_len(&e.name, e.values.len(), n_rows)?;
    }
    if !data.row_labels.is_empty() {
        check_len("row labels", data.row_labels.len(), n_rows)?;
    }
    // Usable rows, column by column (sequential passes), then the reasons for the others.
    let finite = |v: &f64| v.is_finite();
    let mut usable = vec![true; n_rows];
    for column in std::iter::once(&data.y)
        .chain(&data.x)
        .chain(&data.weights)
        .chain(exposure)
    {
        for (u, v) in usable.iter_mut().zip(&column.values) {
            *u &= finite(v);
        }
    }
    if poisson {
        // a count cannot be negative
        for (u, v) in usable.iter_mut().zip(&data.y.values) {
            *u &= *v >= 0.0;
        }
    }
    let positive = |v: &f64| *v > 0.0;
    for column in data.weights.iter().chain(exposure) {
        for (u, v) in usable.iter_mut().zip(&column.values) {
            *u &= positive(v);
        }
    }
    for fe in data.fixed_effects.iter().chain(&data.cluster) {
        for (u, c) in usable.iter_mut().zip(&fe.codes) {
            *u &= c.is_some();
        }
    }
    let mut excluded = Vec::new();
    let mut rows: Vec<u32> = Vec::with_capacity(n_rows);
    for (row, &ok) in usable.iter().enumerate() {
        if ok {
            rows.push(row as u32);
            continue;
        }
        excluded.push(ExcludedRow {
            row: row_label(data, row),
            reason: exclusion_reason(data, exposure, poisson, row),
        });
    }
    drop(usable);

    // Singletons, repeatedly: removing one can leave another level with a single row. The
    // dense codes of the last round (with no singleton) are those of the fit.
    let mut singletons = 0;
    let mut zero_outcome = 0;
    let (codes, levels) = loop {
        let mut codes = Vec::with_capacity(data.fixed_effects.len());
        let mut levels = Vec::with_capacity(data.fixed_effects.len());
        let mut single_in: Vec<Option<Removal>> = Vec::new();
        for (f, fe) in data.fixed_effects.iter().enumerate() {
            let (dense, l) = densify(&fe.codes, &rows);
            let mut counts = vec![0u32; l];
            for &c in &dense {
                counts[c as usize] += 1;
            }
            if counts.contains(&1) {
                if single_in.is_empty() {
                    single_in = vec![None; rows.len()];
                }
                for (i, &c) in dense.iter().enumerate() {
                    if counts[c as usize] == 1 && single_in[i].is_none() {
                        single_in[i] = Some(Removal::Singleton(f));
                    }
                }
            }
            if poisson {
                let mut sums = vec![0.0f64; l];
                for (&c, &r) in dense.iter().zip(&rows) {
                    sums[c as usize] += data.y.values[r as usize];
                }
                if sums.contains(&0.0) {
                    if single_in.is_empty() {
                        single_in = vec![None; rows.len()];
                    }
                    for (i, &c) in dense.iter().enumerate() {
                        if sums[c as usize] == 0.0 && single_in[i].is_none() {
                            single_in[i] = Some(Removal::ZeroOutcome(f));
                        }
                    }
                }
            }
            codes.push(dense);
            levels.push(l);
        }
        if single_in.is_empty() {
            break (codes, levels);
        }
        let mut kept = Vec::with_capacity(rows.len());
        for (&row, single) in rows.iter().zip(&single_in) {
            match single {
                None => kept.push(row),
                Some(Removal::Singleton(f)) => {
                    singletons += 1;
                    excluded.push(ExcludedRow {
                        row: row_label(data, row as usize),
                        reason: ExclusionReason::Singleton {
                            effect: data.fixed_effects[*f].name.clone(),
                        },
                    });
                }
                Some(Removal::ZeroOutcome(f)) => {
                    zero_outcome += 1;
                    excluded.push(ExcludedRow {
                        row: row_label(data, row as usize),
                        reason: ExclusionReason::ZeroOutcomeLevel {
                            outcome: data.y.name.clone(),
                            effect: data.fixed_effects[*f].name.clone(),
                        },
                    });
                }
            }
        }
        rows = kept;
    };
    excluded.sort_by_key(|e| e.row);

    // Entity codes for the clusters, dense in order of first appearance.
    let ids = data.entity.ids();
    let mut code_of = vec![u32::MAX; data.entity.labels().len()];
    let mut n_entities = 0usize;
    let entity: Vec<usize> = rows
        .iter()
        .map(|&r| {
            let code = &mut code_of[ids[r as usize] as usize];
            if *code == u32::MAX {
                *code = n_entities as u32;
                n_entities += 1;
            }
            *code as usize
        })
        .collect();
    drop(code_of);
    let all_rows = rows.len() == n_rows;
    let gather = |values: &[f64]| -> Vec<f64> {
        if all_rows {
            values.to_vec()
        } else {
            rows.iter().map(|&r| values[r as usize]).collect()
        }
    };
    let times = distinct_times(rows.iter().map(|&r| data.time[r as usize]));
    let clusters = data
        .cluster
        .iter()
        .map(|c| {
            let (dense, count) = densify(&c.codes, &rows);
            (dense.into_iter().map(|d| d as usize).collect(), count)
        })
        .collect();
    Ok(AbsorbedRows {
        codes,
        levels,
        n_entities,
        entity,
        y: gather(&data.y.values),
        x: data.x.iter().map(|c| gather(&c.values)).collect(),
        weights: data.weights.as_ref().map(|w| gather(&w.values)),
        offset: exposure.map(|e| gather(&e.values).into_iter().map(f64::ln).collect()),
        zero_outcome,
        times,
        excluded,
        singletons,
        clusters,
    })
}

/// Why a row leaves an absorbed fit in the removal rounds: it is alone in its level of fixed
/// effect `f`, or (Poisson) its level of `f` has a zero outcome in every row.
#[derive(Clone, Copy)]
enum Removal {
    Singleton(usize),
    ZeroOutcome(usize),
}

/// Number of distinct times: a bitmap over the range when it is small (years), else a sort.
fn distinct_times(times: impl Iterator<Item = i64> + Clone) -> usize {
    let (min, max) = times
        .clone()
        .fold((i64::MAX, i64::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
    if min > max {
        return 0;
    }
    match usize::try_from(max.wrapping_sub(min)) {
        Ok(span) if span < 1 << 24 => {
            let mut seen = vec![false; span + 1];
            for t in times {
                seen[(t - min) as usize] = true;
            }
            seen.iter().filter(|&&s| s).count()
        }
        _ => {
            let mut all: Vec<i64> = times.collect();
            all.sort_unstable();
            all.dedup();
            all.len()
        }
    }
}

/// The levels of every fixed effect, with `1 / count` (or `1 / Σ w`) per level, built once per
/// fit.
pub(crate) struct Demeaner<'a> {
    codes: &'a [Vec<u32>],
    /// Analytic weights of the rows; `None` is every weight 1.
    weights: Option<&'a [f64]>,
    inverse_counts: Vec<Vec<f64>>,
    /// Scratch sums, one per level of the largest fixed effect.
    sums: Vec<f64>,
}

/// Largest number of sweep pairs before giving up.
const MAX_ITERATIONS: usize = 10_000;
/// Convergence: no value changes by more than this fraction of the column's largest value.
const TOLERANCE: f64 = 1e-13;

impl<'a> Demeaner<'a> {
    pub fn new(codes: &'a [Vec<u32>], levels: &[usize], weights: Option<&'a [f64]>) -> Self {
        let inverse_counts = codes
            .iter()
            .zip(levels)
            .map(|(c, &l)| {
                let mut counts = vec![0.0f64; l];
                match weights {
                    None => c.iter().for_each(|&g| counts[g as usize] += 1.0),
                    Some(w) => c.iter().zip(w).for_each(|(&g, &w)| counts[g as usize] += w),
                }
                counts
                    .into_iter()
                    .map(|n| if n > 0.0 { 1.0 / n } else { 0.0 })
                    .collect()
            })
            .collect();
        Demeaner {
            codes,
            weights,
            inverse_counts,
            sums: vec![0.0; levels.iter().copied().max().unwrap_or(0)],
        }
    }

    /// `x ← (I − P_f) x`; returns the largest absolute mean subtracted.
    fn project(&mut self, f: usize, x: &mut [f64]) -> f64 {
        let codes = &self.codes[f];
        let inverse = &self.inverse_counts[f];
        let sums = &mut self.sums[..inverse.len()];
        sums.iter_mut().for_each(|s| *s = 0.0);
        match self.weights {
            None => {
                for (&v, &g) in x.iter().zip(codes) {
                    sums[g as usize] += v;
                }
            }
            Some(weights) => {
                for ((&v, &g), &w) in x.iter().zip(codes).zip(weights) {
                    sums[g as usize] += w * v;
                }
            }
        }
        let mut largest = 0.0f64;
        for (s, &w) in sums.iter_mut().zip(inverse) {
            *s *= w;
            largest = largest.max(s.abs());
        }
        for (v, &g) in x.iter_mut().zip(codes) {
            *v -= sums[g as usize];
        }
        largest
    }

    /// One sweep over every fixed effect; returns the largest change of any value (bounded
    /// by the sum of the largest means subtracted).
    fn sweep(&mut self, x: &mut [f64]) -> f64 {
        (0..self.codes.len()).map(|f| self.project(f, x)).sum()
    }

    /// Demeans `x` in place; `work` (same length) is scratch space. Returns whether it
    /// converged.
    pub fn demean(&mut self, x: &mut [f64], work: &mut [Vec<f64>; 2]) -> bool {
        match self.codes.len() {
            0 => return true,
            1 => {
                self.project(0, x);
                return true;
            }
            _ => {}
        }
        let scale = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let tolerance = TOLERANCE * scale.max(f64::MIN_POSITIVE);
        let [gx, ggx] = work;
        for _ in 0..MAX_ITERATIONS {
            gx.copy_from_slice(x);
            if self.sweep(gx) <= tolerance {
                x.copy_from_slice(gx);
                return true;
            }
            ggx.copy_from_slice(gx);
            if self.sweep(ggx) <= tolerance {
                x.copy_from_slice(ggx);
                return true;
            }
            // Irons–Tuck: x ← GGx − (⟨Δ, Δ²⟩/⟨Δ², Δ²⟩) Δ, in the weighted inner product
            let (mut num, mut den) = (0.0f64, 0.0f64);
            let terms = x
                .iter()
                .zip(gx.iter())
                .zip(ggx.iter())
                .map(|((&a, &b), &c)| {
                    let delta = c - b;
                    let delta2 = c - 2.0 * b + a;
                    (delta * delta2, delta2 * delta2)
                });
            match self.weights {
                None => terms.for_each(|(n, d)| {
                    num += n;
                    den += d;
                }),
                Some(weights) => terms.zip(weights).for_each(|((n, d), &w)| {
                    num += w * n;
                    den += w * d;
                }),
            }
            if den > 0.0 && num.is_finite() {
                let step = num / den;
                for ((v, &b), &c) in x.iter_mut().zip(gx.iter()).zip(ggx.iter()) {
                    *v = c - step * (c - b);
                }
            } else {
                x.copy_from_slice(ggx);
            }
        }
        false
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Entity × period codes of an unbalanced panel with holes (4 × 4 levels, 10 rows) and a
    /// column to demean.
    fn unbalanced_two_way() -> (Vec<u32>, Vec<u32>, Vec<f64>) {
        let entity = vec![0, 0, 0, 1, 1, 2, 2, 2, 3, 3];
        let period = vec![0, 1, 2, 0, 2, 1, 2, 3, 0, 3];
        let x = (0..10)
            .map(|i| ((i * 7 % 5) as f64) * 1.3 + i as f64)
            .collect();
        (entity, period, x)
    }

    #[test]
    fn one_fixed_effect_subtracts_the_level_means() {
        let codes = vec![vec![0, 0, 1, 1, 1]];
        let mut d = Demeaner::new(&codes, &[2], None);
        let mut x = vec![1.0, 3.0, 2.0, 4.0, 6.0];
        let mut work = [vec![0.0; 5], vec![0.0; 5]];
        assert!(d.demean(&mut x, &mut work));
        assert_eq!(x, [-1.0, 1.0, -2.0, 0.0, 2.0]);
    }

    #[test]
    fn two_fixed_effects_on_an_unbalanced_panel_leave_residuals_orthogonal_to_both() {
        // entity × period with holes: alternating projections must converge to the residual
        // orthogonal to every dummy (all level sums zero).
        let (entity, period, mut x) = unbalanced_two_way();
        let codes = vec![entity.clone(), period.clone()];
        let mut d = Demeaner::new(&codes, &[4, 4], None);
        let mut work = [vec![0.0; 10], vec![0.0; 10]];
        assert!(d.demean(&mut x, &mut work));
        for (c, l) in [(&entity, 4), (&period, 4)] {
            let mut sums = vec![0.0; l];
            for (&g, v) in c.iter().zip(&x) {
                sums[g as usize] += v;
            }
            assert!(sums.iter().all(|s| s.abs() < 1e-10), "{sums:?}");
        }
    }

    #[test]
    fn weighted_demeaning_leaves_residuals_weight_orthogonal_to_every_level() {
        // Σ_{i∈g} w_i x̃_i = 0 for every level g of both effects: the weighted projection, not
        // the unweighted one (whose plain level sums would be zero instead).
        let (entity, period, mut x) = unbalanced_two_way();
        let weights: Vec<f64> = (0..10).map(|i| 0.5 + (i * 3 % 7) as f64).collect();
        let codes = vec![entity.clone(), period.clone()];
        let mut d = Demeaner::new(&codes, &[4, 4], Some(&weights));
        let mut work = [vec![0.0; 10], vec![0.0; 10]];
        assert!(d.demean(&mut x, &mut work));
        for (c, l) in [(&entity, 4), (&period, 4)] {
            let mut weighted = vec![0.0; l];
            let mut plain = vec![0.0; l];
            for ((&g, v), w) in c.iter().zip(&x).zip(&weights) {
                weighted[g as usize] += w * v;
                plain[g as usize] += v;
            }
            assert!(weighted.iter().all(|s| s.abs() < 1e-9), "{weighted:?}");
            assert!(plain.iter().any(|s| s.abs() > 1e-3), "{plain:?}");
        }
    }

    #[test]
    fn fixed_effects_parse_with_interactions() {
        assert_eq!(
            parse_fixed_effects("commune, year,region^year").unwrap(),
            vec![
                vec!["commune".to_string()],
                vec!["year".to_string()],
                vec!["region".to_string(), "year".to_string()]
            ]
        );
        assert!(parse_fixed_effects("commune,,year").is_err());
        assert!(parse_fixed_effects("region^").is_err());
    }

    #[test]
    fn an_interaction_has_one_level_per_combination_and_missing_propagates() {
        let a = FixedEffect::from_keys("a", [Some("x"), Some("x"), Some("y"), None]);
        let b = FixedEffect::from_keys("b", [Some(1), Some(2), Some(1), Some(1)]);
        let ab = FixedEffect::interact(&[a, b]);
        assert_eq!(ab.name, "a^b");
        assert_eq!(ab.codes, vec![Some(0), Some(1), Some(2), None]);
    }

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
