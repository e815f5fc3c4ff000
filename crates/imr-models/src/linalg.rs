//! Least squares by Householder QR with a sequential rank check.
//!
//! # Formula
//! For a design `X` (n × p) and outcome `y`, the columns are processed in order; column j is
//! reflected by the Householder transformations of the columns kept before it, and dropped as
//! collinear when the norm of its part orthogonal to them is at most `RANK_TOL` times its own
//! norm (the sequential rule of R's `lm` and Stata's `_rmcoll`: the later column is dropped).
//! With `X_k = Q R` for the kept columns, `β = R⁻¹ Qᵀy` and `(X_kᵀX_k)⁻¹ = R⁻¹R⁻ᵀ`; no normal
//! equations are formed, so the conditioning is that of `X`, not of `XᵀX`.
//!
//! Reference: Golub & Van Loan, *Matrix Computations*, 4th ed., §5.2 and §5.3.

use nalgebra::{DMatrix, DVector};

/// Relative tolerance of the rank check.
pub(crate) const RANK_TOL: f64 = 1e-9;

/// A least-squares solution on the kept columns.
#[derive(Debug, Clone)]
pub(crate) struct LeastSquares {
    /// Indices (into the input columns) of the columns kept, in input order.
    pub kept: Vec<usize>,
    /// Indices of the columns dropped as collinear with earlier ones.
    pub dropped: Vec<usize>,
    /// Coefficients of the kept columns.
    pub beta: DVector<f64>,
    /// `(X_kᵀX_k)⁻¹`, the "bread" of every covariance.
    pub xtx_inv: DMatrix<f64>,
    /// Residuals `y − X_k β`.
    pub resid: Vec<f64>,
}

impl LeastSquares {
    /// The columns dropped as collinear, in drop order, each as `(name, earlier)`: its name and
    /// the names of the kept columns before it, of which it is a linear combination. `name`
    /// maps an input column index to its name.
    pub fn collinear(&self, name: impl Fn(usize) -> String) -> Vec<(String, Vec<String>)> {
        self.dropped
            .iter()
            .map(|&d| {
                let earlier = self
                    .kept
                    .iter()
                    .filter(|&&k| k < d)
                    .map(|&k| name(k))
                    .collect();
                (name(d), earlier)
            })
            .collect()
    }

    /// Sum of squared residuals.
    pub fn ssr(&self) -> f64 {
        self.resid.iter().map(|e| e * e).sum()
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `[dot(v, c) for c in columns]`, four columns per pass over `v`. Each sum keeps its own
/// accumulator and adds the same products in the same order as [`dot`] (starting from −0.0,
/// as `f64: Sum` does), so the results are bit for bit those of [`dot`]; the passes are
/// fewer and the four independent additions overlap instead of waiting on one another.
fn dots(v: &[f64], columns: &[&[f64]]) -> Vec<f64> {
    let mut out = Vec::with_capacity(columns.len());
    for group in columns.chunks(4) {
        match *group {
            [a, b, c, d] => out.extend_from_slice(&dots_in_one_pass(v, [a, b, c, d])),
            [a, b, c] => out.extend_from_slice(&dots_in_one_pass(v, [a, b, c])),
            [a, b] => out.extend_from_slice(&dots_in_one_pass(v, [a, b])),
            [a] => out.push(dot(v, a)),
            _ => unreachable!("chunks of one to four"),
        }
    }
    out
}

/// `[dot(v, c) for c in columns]` for `N` columns in one pass over `v`: `N` accumulators from
/// −0.0, each adding `v[i] · c[i]` in order of `i` (see [`dots`]).
fn dots_in_one_pass<const N: usize>(v: &[f64], columns: [&[f64]; N]) -> [f64; N] {
    let columns = columns.map(|c| &c[..v.len()]);
    let mut s = [-0.0f64; N];
    for i in 0..v.len() {
        let x = v[i];
        for (sum, column) in s.iter_mut().zip(&columns) {
            *sum += x * column[i];
        }
    }
    s
}

/// Solves `min ‖y − Xβ‖` for the columns `x` (each of length n).
pub(crate) fn least_squares(x: &[Vec<f64>], y: &[f64]) -> LeastSquares {
    let n = y.len();
    let p = x.len();
    let mut work: Vec<Vec<f64>> = x.to_vec();
    let mut qty: Vec<f64> = y.to_vec();
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    // Column m of R (for the m-th kept column) is r_cols[m][0..=m].
    let mut r_cols: Vec<Vec<f64>> = Vec::new();
    for j in 0..p {
        let rank = kept.len();
        let own_norm = dot(&x[j], &x[j]).sqrt();
        let (done, rest) = work.split_at_mut(j + 1);
        let column = &mut done[j];
        let tail_norm = dot(&column[rank..], &column[rank..]).sqrt();
        if rank >= n || own_norm == 0.0 || tail_norm <= RANK_TOL * own_norm {
            dropped.push(j);
            continue;
        }
        // Householder vector v = column[rank..] − alpha e1, alpha = −sign(c0)‖c‖.
        let alpha = if column[rank] >= 0.0 {
            -tail_norm
        } else {
            tail_norm
        };
        column[rank] -= alpha;
        let v = &column[rank..];
        // vᵀv, vᵀ(each later column) and vᵀ(Qᵀy) in one pass (see `dots`), then the reflections.
        let products = {
            let mut targets: Vec<&[f64]> = Vec::with_capacity(rest.len() + 2);
            targets.push(v);
            targets.extend(rest.iter().map(|other| &other[rank..]));
            targets.push(&qty[rank..]);
            dots(v, &targets)
        };
        let vtv = products[0];
        for (other, &p) in rest.iter_mut().zip(&products[1..]) {
            let s = 2.0 * p / vtv;
            other[rank..]
                .iter_mut()
                .zip(v)
                .for_each(|(o, vi)| *o -= s * vi);
        }
        let s = 2.0 * products[products.len() - 1] / vtv;
        qty[rank..]
            .iter_mut()
            .zip(v)
            .for_each(|(o, vi)| *o -= s * vi);
        let mut r_col = column[..rank].to_vec();
        r_col.push(alpha);
        r_cols.push(r_col);
        kept.push(j);
    }
    let k = kept.len();
    let r = DMatrix::from_fn(k, k, |i, m| if i <= m { r_cols[m][i] } else { 0.0 });
    let r_inv = upper_triangular_inverse(&r);
    let beta = &r_inv * DVector::from_column_slice(&qty[..k]);
    let xtx_inv = &r_inv * r_inv.transpose();
    let mut resid = y.to_vec();
    for (m, &j) in kept.iter().enumerate() {
        let b = beta[m];
        resid.iter_mut().zip(&x[j]).for_each(|(e, xv)| *e -= b * xv);
    }
    LeastSquares {
        kept,
        dropped,
        beta,
        xtx_inv,
        resid,
    }
}

/// Inverse of an upper-triangular matrix with a non-zero diagonal, by back substitution.
pub(crate) fn upper_triangular_inverse(r: &DMatrix<f64>) -> DMatrix<f64> {
    let k = r.nrows();
    let identity = DMatrix::<f64>::identity(k, k);
    r.solve_upper_triangular(&identity)
        .expect("diagonal of R is non-zero by the rank check")
}

/// Inverse of a symmetric positive-definite matrix by Cholesky, or `None` if it is not
/// positive definite.
pub(crate) fn spd_inverse(a: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    nalgebra::Cholesky::new(a.clone()).map(|c| c.inverse())
}
