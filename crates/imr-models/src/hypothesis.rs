//! Specification tests: F test of the effects, Breusch–Pagan LM, Hausman, Wald.

use crate::fit::{ChiSquaredTest, FTest};
use nalgebra::{DMatrix, DVector, SymmetricEigen};
use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor};

fn chi2_sf(statistic: f64, df: usize) -> f64 {
    if df == 0 || !statistic.is_finite() {
        return f64::NAN;
    }
    if statistic <= 0.0 {
        return 1.0;
    }
    ChiSquared::new(df as f64).expect("df > 0").sf(statistic)
}

/// F test that the effects absorbed by a fixed-effects model are all zero.
///
/// # Formula
/// `F = ((SSR_pooled − SSR_fe)/df1) / (SSR_fe/df2)`, with `df1` the number of effects beyond
/// the pooled intercept (G − 1 for entity effects) and `df2 = n − G − k` the residual degrees
/// of freedom of the fixed-effects model (R plm `pFtest`; Stata's "F test that all u_i=0").
pub(crate) fn f_effects(
    ssr_pooled: f64,
    ssr_fe: f64,
    df1: usize,
    df2: usize,
    hypothesis: crate::Hypothesis,
) -> Option<FTest> {
    if df1 == 0 || df2 == 0 {
        return None;
    }
    let statistic = ((ssr_pooled - ssr_fe) / df1 as f64) / (ssr_fe / df2 as f64);
    let p_value = if statistic.is_finite() {
        FisherSnedecor::new(df1 as f64, df2 as f64)
            .expect("positive df")
            .sf(statistic.max(0.0))
    } else {
        f64::NAN
    };
    Some(FTest {
        statistic,
        df1,
        df2,
        p_value,
        hypothesis,
    })
}

/// Breusch–Pagan Lagrange-multiplier test for random entity effects.
///
/// # Formula
/// With pooled-OLS residuals `e_it`, `T_i` observations of entity i and `n = Σ T_i`:
/// `LM = n² / (2 Σ_i T_i(T_i − 1)) · (Σ_i (Σ_t e_it)² / Σ_it e_it² − 1)²`, χ²(1).
/// Balanced: `nT/(2(T−1)) · (…)²` (Breusch & Pagan 1980); unbalanced: Baltagi & Li (1990),
/// as R plm `plmtest(type = "bp")`.
pub(crate) fn breusch_pagan(
    resid: &[f64],
    entity: &[usize],
    n_entities: usize,
) -> Option<ChiSquaredTest> {
    let n = resid.len() as f64;
    let mut sums = vec![0.0; n_entities];
    let mut counts = vec![0usize; n_entities];
    for (&e, &g) in resid.iter().zip(entity) {
        sums[g] += e;
        counts[g] += 1;
    }
    let pairs: f64 = counts
        .iter()
        .map(|&t| (t * t.saturating_sub(1)) as f64)
        .sum();
    let ssr: f64 = resid.iter().map(|e| e * e).sum();
    if pairs == 0.0 || ssr == 0.0 {
        return None;
    }
    let ratio = sums.iter().map(|s| s * s).sum::<f64>() / ssr;
    let statistic = n * n / (2.0 * pairs) * (ratio - 1.0).powi(2);
    Some(ChiSquaredTest {
        statistic,
        df: 1,
        p_value: chi2_sf(statistic, 1),
        hypothesis: crate::Hypothesis::NoEffectVariance,
        note: None,
    })
}

/// Wald test that `beta = 0` under covariance `vcov`: `W = βᵀV⁻¹β`, χ²(m).
pub(crate) fn wald(
    beta: &DVector<f64>,
    vcov: &DMatrix<f64>,
    hypothesis: crate::Hypothesis,
) -> Option<ChiSquaredTest> {
    let m = beta.len();
    if m == 0 {
        return None;
    }
    let inverse = crate::linalg::spd_inverse(vcov)?;
    let statistic = (beta.transpose() * inverse * beta)[(0, 0)];
    Some(ChiSquaredTest {
        statistic,
        df: m,
        p_value: chi2_sf(statistic, m),
        hypothesis,
        note: None,
    })
}

/// Hausman test of fixed against random effects on the common time-varying slopes.
///
/// # Formula
/// `H = (b_FE − b_RE)ᵀ (V_FE − V_RE)⁻¹ (b_FE − b_RE)`, χ²(m), with the classical covariances
/// of both models (Hausman 1978; R plm `phtest`, Stata `hausman`). When `V_FE − V_RE` is not
/// positive definite (it can happen in finite samples), the statistic uses the generalised
/// inverse over the positive eigenvalues, df = their number, and a note says so.
pub(crate) fn hausman(
    b_fe: &DVector<f64>,
    v_fe: &DMatrix<f64>,
    b_re: &DVector<f64>,
    v_re: &DMatrix<f64>,
) -> Option<ChiSquaredTest> {
    let m = b_fe.len();
    if m == 0 {
        return None;
    }
    let q = b_fe - b_re;
    let v = v_fe - v_re;
    let hypothesis = crate::Hypothesis::EffectsUncorrelated;
    // `V_FE − V_RE` positive definite: the Wald test of `q = 0` under it
    if let Some(test) = wald(&q, &v, hypothesis) {
        return Some(test);
    }
    let eigen = SymmetricEigen::new(v);
    let largest = eigen
        .eigenvalues
        .iter()
        .fold(0.0f64, |a, &l| a.max(l.abs()));
    let mut statistic = 0.0;
    let mut rank = 0;
    for (j, &lambda) in eigen.eigenvalues.iter().enumerate() {
        if lambda > 1e-12 * largest {
            let u = eigen.eigenvectors.column(j);
            statistic += u.dot(&q).powi(2) / lambda;
            rank += 1;
        }
    }
    let mut eigenvalues: Vec<f64> = eigen.eigenvalues.iter().copied().collect();
    eigenvalues.sort_by(f64::total_cmp);
    let note = crate::test_words::TestCaveat::GeneralisedInverse { eigenvalues, rank };
    Some(ChiSquaredTest {
        statistic,
        df: rank,
        p_value: if rank > 0 {
            chi2_sf(statistic, rank)
        } else {
            f64::NAN
        },
        hypothesis,
        note: Some(note),
    })
}

#[cfg(test)]
mod hausman_tests {
    use super::*;

    /// `V_FE − V_RE` with one negative eigenvalue: the statistic is the generalised-inverse form
    /// over the two positive eigenvalues. Reference (NumPy 2.4 / SciPy 1.17.1):
    /// `w, U = np.linalg.eigh(V); stat = Σ_{w_j>0} (U_jᵀ q)² / w_j` = 0.7133564002898034,
    /// `scipy.stats.chi2.sf(stat, 2)` = 0.6999977206593925.
    #[test]
    fn a_non_positive_definite_difference_uses_the_positive_eigenvalues_and_says_so() {
        let q = DVector::from_vec(vec![1.0, 2.0, -1.0]);
        let v = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, -1.0, 0.5, 0.0, 0.5, 2.0]);
        // b_FE − b_RE = q and V_FE − V_RE = v, with b_RE = 0 and V_RE = 0.
        let test = hausman(&q, &v, &DVector::zeros(3), &DMatrix::zeros(3, 3)).unwrap();
        assert!(
            (test.statistic - 0.7133564002898034).abs() < 1e-12,
            "{}",
            test.statistic
        );
        assert_eq!(test.df, 2);
        assert!(
            (test.p_value - 0.6999977206593925).abs() < 1e-9,
            "{}",
            test.p_value
        );
        assert!(test.note.is_some(), "the generalised inverse is flagged");
    }

    #[test]
    fn a_positive_definite_difference_gives_the_plain_quadratic_form() {
        // q = (1, 2), V = diag(4, 1): H = 1/4 + 4 = 4.25 on 2 df; chi2.sf(4.25, 2) = exp(-4.25/2).
        let q = DVector::from_vec(vec![1.0, 2.0]);
        let v = DMatrix::from_diagonal(&DVector::from_vec(vec![4.0, 1.0]));
        let test = hausman(&q, &v, &DVector::zeros(2), &DMatrix::zeros(2, 2)).unwrap();
        assert!((test.statistic - 4.25).abs() < 1e-12);
        assert_eq!(test.df, 2);
        assert!((test.p_value - (-4.25f64 / 2.0).exp()).abs() < 1e-12);
        assert!(test.note.is_none());
    }
}
