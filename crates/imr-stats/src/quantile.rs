//! Sample quantiles by linear interpolation.
//!
//! # Formula (Hyndman & Fan 1996, type 7; R `quantile(type = 7)`, NumPy's default)
//! For sorted values x₍₁₎ ≤ … ≤ x₍ₙ₎ and probability p ∈ [0, 1]: h = (n − 1)·p,
//! Q(p) = x₍⌊h⌋+1₎ + (h − ⌊h⌋)·(x₍⌊h⌋+2₎ − x₍⌊h⌋+1₎).
//!
//! Reference: Hyndman, R. J. & Fan, Y. (1996) "Sample quantiles in statistical packages",
//! *The American Statistician* 50(4):361–365.

/// Type-7 quantile of `sorted` (ascending, no NaN) at probability `p`. `None` when empty or
/// `p` is outside [0, 1].
pub fn quantile_type7(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=1.0).contains(&p) {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// numpy.percentile([1..9], [10, 25, 50, 75, 90]) = [1.8, 3, 5, 7, 8.2] (NumPy 1.26, linear).
    #[test]
    fn matches_numpy_linear_percentiles() {
        let x: Vec<f64> = (1..=9).map(f64::from).collect();
        let expected = [
            (0.10, 1.8),
            (0.25, 3.0),
            (0.5, 5.0),
            (0.75, 7.0),
            (0.90, 8.2),
        ];
        for (p, q) in expected {
            assert!((quantile_type7(&x, p).unwrap() - q).abs() < 1e-12);
        }
    }

    #[test]
    fn empty_input_has_no_quantile() {
        assert_eq!(quantile_type7(&[], 0.5), None);
    }
}
