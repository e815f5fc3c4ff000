//! Whole infant deaths from a published integer rate and the births it was computed on.
//!
//! SINIM publishes the infant mortality rate of a commune as an integer per 1,000 live births,
//! t = round(1000 · d / b), computed by the health ministry from d deaths under one year and b
//! live births. Given t and b, the deaths are the whole numbers d ≥ 0 with
//! |1000 · d / b − t| ≤ 1/2, i.e. the integers of the window
//!
//! ```text
//! (t − 1/2) · b / 1000  ≤  d  ≤  (t + 1/2) · b / 1000
//! ```
//!
//! (both ends included: a rate exactly halfway is accepted whichever way it was rounded). The
//! window is b / 1000 deaths wide, so below 1,000 births at most one whole number fits — the
//! deaths are then known exactly —, above it several may, and a rate published on other births
//! than the ones given may have none ([`Reconstruction::NoneFits`]).
//!
//! Computed in integers: d fits iff |1000 · d − t · b| · 2 ≤ b, so no rounding of floating
//! point can move a window's edge.

/// What the published rate says about the deaths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reconstruction {
    /// Exactly one whole number of deaths reproduces the rate.
    Exact(u64),
    /// Several do: every whole number from `low` to `high`; `nearest` is the one closest to
    /// t · b / 1000 (the lower of two equally close).
    Range { low: u64, high: u64, nearest: u64 },
    /// None does: the rate was not computed on these births. `nearest` is the whole number
    /// closest to t · b / 1000, `low` and `high` the whole numbers just outside the window.
    NoneFits { low: u64, high: u64, nearest: u64 },
    /// No births: a rate per birth says nothing about deaths.
    NoBirths,
}

/// The deaths that reproduce the integer rate `rate_per_1000` on `births` live births.
pub fn deaths_from_rate(rate_per_1000: u64, births: u64) -> Reconstruction {
    if births == 0 {
        return Reconstruction::NoBirths;
    }
    let (t, b) = (u128::from(rate_per_1000), u128::from(births));
    // Window [(2t − 1) b / 2000, (2t + 1) b / 2000], in integers.
    let low_edge_numerator = (2 * t).saturating_sub(1) * b;
    let high_edge_numerator = (2 * t + 1) * b;
    let low = if t == 0 {
        0
    } else {
        low_edge_numerator.div_ceil(2000)
    };
    let high = high_edge_numerator / 2000;
    // Nearest whole number to t · b / 1000, the lower one on a tie.
    let centre_times_1000 = t * b;
    let floor = centre_times_1000 / 1000;
    let nearest = if (centre_times_1000 % 1000) * 2 > 1000 {
        floor + 1
    } else {
        floor
    };
    let narrow = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    if low > high {
        // The window holds no integer: `high` < window < `low`.
        Reconstruction::NoneFits {
            low: narrow(high),
            high: narrow(low),
            nearest: narrow(nearest),
        }
    } else if low == high {
        Reconstruction::Exact(narrow(low))
    } else {
        Reconstruction::Range {
            low: narrow(low),
            high: narrow(high),
            nearest: narrow(nearest.clamp(low, high)),
        }
    }
}

/// Whether `deaths` on `births` gives the integer rate `rate_per_1000` (rounded either way at
/// exactly one half).
pub fn reproduces(rate_per_1000: u64, deaths: u64, births: u64) -> bool {
    births > 0 && {
        let (t, d, b) = (
            i128::from(rate_per_1000),
            i128::from(deaths),
            i128::from(births),
        );
        (1000 * d - t * b).abs() * 2 <= b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_communes_give_one_whole_number_or_none() {
        // General Lagos 2021: one birth, rate 1000.
        assert_eq!(deaths_from_rate(1000, 1), Reconstruction::Exact(1));
        // 127 births, rate 8: 1000·1/127 = 7.87 → 8.
        assert_eq!(deaths_from_rate(8, 127), Reconstruction::Exact(1));
        assert_eq!(deaths_from_rate(0, 300), Reconstruction::Exact(0));
        // 262 births, rate 12: 3 deaths give 11.45, 4 give 15.27; nothing gives 12.
        assert_eq!(
            deaths_from_rate(12, 262),
            Reconstruction::NoneFits {
                low: 3,
                high: 4,
                nearest: 3
            }
        );
        assert_eq!(deaths_from_rate(5, 0), Reconstruction::NoBirths);
    }

    #[test]
    fn large_communes_give_a_range() {
        // 8,000 births, rate 6: 44 to 52 deaths all round to 6 (44 → 5.5, 52 → 6.5).
        assert_eq!(
            deaths_from_rate(6, 8000),
            Reconstruction::Range {
                low: 44,
                high: 52,
                nearest: 48
            }
        );
    }

    proptest! {
        /// Every whole number of the answer reproduces the rate, and the whole numbers just
        /// outside do not: the answer is exactly the set of fitting deaths.
        #[test]
        fn the_answer_is_exactly_the_fitting_deaths(births in 1u64..20_000, deaths in 0u64..400) {
            prop_assume!(deaths <= births);
            // The rate the health ministry would publish (half rounded up).
            let rate = (2000 * deaths + births) / (2 * births);
            let fits: Vec<u64> = (0..=births.min(2000)).filter(|d| reproduces(rate, *d, births)).collect();
            prop_assert!(fits.contains(&deaths));
            match deaths_from_rate(rate, births) {
                Reconstruction::Exact(d) => prop_assert_eq!(fits, vec![d]),
                Reconstruction::Range { low, high, nearest } => {
                    prop_assert_eq!(fits, (low..=high).collect::<Vec<_>>());
                    prop_assert!((low..=high).contains(&nearest));
                }
                other => prop_assert!(false, "{other:?} for {deaths} deaths on {births} births"),
            }
        }

        #[test]
        fn none_fits_only_when_no_whole_number_reproduces_the_rate(rate in 0u64..60, births in 1u64..3000) {
            let any = (0..=births).any(|d| reproduces(rate, d, births));
            let none = matches!(deaths_from_rate(rate, births), Reconstruction::NoneFits { .. });
            prop_assert_eq!(any, !none);
        }
    }
}
