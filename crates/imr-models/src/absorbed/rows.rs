//! The rows of an absorbed fit: the usable rows (usable.rs), singletons (and, Poisson, levels
//! with a zero count in every row) removed repeatedly, and the columns gathered.

use super::usable::{check_lengths, usable_rows};
use crate::data::{ExcludedRow, PanelData};
use crate::exclusion::ExclusionReason;
use crate::ModelError;

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
    check_lengths(data, exposure)?;
    let (rows, mut excluded) = usable_rows(data, exposure, poisson);
    let n_rows = data.n_rows();
    // Singletons, repeatedly: removing one can leave another level with a single row. The
    // dense codes of the last round (with no singleton) are those of the fit.
    let mut singletons = 0;
    let mut zero_outcome = 0;
    let mut rows = rows;
    let (codes, levels) = loop {
        let (codes, levels, single_in) = removals(data, &rows, poisson);
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
                        row: data.row_label(row as usize),
                        reason: ExclusionReason::Singleton {
                            effect: data.fixed_effects[*f].name.clone(),
                        },
                    });
                }
                Some(Removal::ZeroOutcome(f)) => {
                    zero_outcome += 1;
                    excluded.push(ExcludedRow {
                        row: data.row_label(row as usize),
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

/// One round of removals: the dense codes and levels of every fixed effect among `rows`, and
/// why each row leaves (alone in a level, or a level with a zero count in every row); the
/// list is empty when none does.
fn removals(
    data: &PanelData,
    rows: &[u32],
    poisson: bool,
) -> (Vec<Vec<u32>>, Vec<usize>, Vec<Option<Removal>>) {
    let mut codes = Vec::with_capacity(data.fixed_effects.len());
    let mut levels = Vec::with_capacity(data.fixed_effects.len());
    let mut single_in: Vec<Option<Removal>> = Vec::new();
    for (f, fe) in data.fixed_effects.iter().enumerate() {
        let (dense, l) = densify(&fe.codes, rows);
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
            for (&c, &r) in dense.iter().zip(rows) {
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
    (codes, levels, single_in)
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
