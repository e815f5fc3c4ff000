//! The projection off every absorbed effect: alternating projections with Irons–Tuck
//! acceleration, unweighted or with analytic weights (the formulas are in the parent module).

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
}
