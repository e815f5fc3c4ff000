//! The births of the bundled panel: registered live births per commune and year, estimated by
//! spreading each region's registered births (DEIS, by the mother's region of residence) over
//! the region's communes in proportion to INE's projected population aged 0.
//!
//! # Formula
//! For region r, year t, with registered births N_rt and communes i of population aged 0 P_it:
//! the exact share is q_it = N_rt · P_it / Σ_j P_jt; the estimate B_it is ⌊q_it⌋ plus one for the
//! N_rt − Σ⌊q_jt⌋ communes of largest remainder q_it − ⌊q_it⌋ (ties to the lower commune code):
//! Hamilton's largest-remainder apportionment (Balinski & Young, *Fair Representation*, 2001,
//! ch. 2). So every B_it is an integer within 1 of q_it, and Σ_i B_it = N_rt exactly: the
//! regional and national sums are the published registered births.
//!
//! What it is not: births by commune of residence (DEIS/INE publish them, but no copy could be
//! obtained for this build). Within a region the commune shares are those of the population
//! aged 0; the gap between the projection and registered births (about 0.73 nationally in 2023,
//! 0.91 in 2019) is removed region by region, not commune by commune.

use crate::sources::CutCommune;
use crate::DatasetError;
use std::collections::BTreeMap;

/// Estimated registered births by (commune code, year): each (region, year) total of
/// `regional` apportioned over the panel communes of the region by their population aged 0
/// (`age0`), as the module doc says. Every (code, year) of `age0` gets an estimate.
pub fn apportion(
    panel: &BTreeMap<String, CutCommune>,
    age0: &BTreeMap<(String, u16), u64>,
    regional: &BTreeMap<(String, u16), u64>,
) -> Result<BTreeMap<(String, u16), u64>, DatasetError> {
    let mut groups: BTreeMap<(&str, u16), Vec<(&str, u64)>> = BTreeMap::new();
    for ((code, year), &population) in age0 {
        let commune = panel.get(code).ok_or_else(|| {
            DatasetError::Inconsistent(format!("commune {code} has a population but no region"))
        })?;
        groups
            .entry((commune.region_code.as_str(), *year))
            .or_default()
            .push((code.as_str(), population));
    }
    let mut births = BTreeMap::new();
    for ((region, year), communes) in groups {
        let total = *regional.get(&(region.to_owned(), year)).ok_or_else(|| {
            DatasetError::Inconsistent(format!(
                "no registered births for region {region}, year {year}"
            ))
        })?;
        let shares = largest_remainder(total, &communes).ok_or_else(|| {
            DatasetError::Inconsistent(format!(
                "region {region}, year {year}: the population aged 0 of its communes sums to 0, \
                 so its {total} births cannot be spread"
            ))
        })?;
        for ((code, _), share) in communes.iter().zip(shares) {
            births.insert(((*code).to_owned(), year), share);
        }
    }
    Ok(births)
}

/// `total` split over `weights` (in their order) by largest remainders; `None` when the weights
/// sum to 0. Exact in integers: q_i = total · w_i / W is compared through its remainder
/// (total · w_i) mod W, so no rounding decides a unit.
fn largest_remainder(total: u64, weights: &[(&str, u64)]) -> Option<Vec<u64>> {
    let weight_sum: u128 = weights.iter().map(|(_, w)| u128::from(*w)).sum();
    if weight_sum == 0 {
        return None;
    }
    let products: Vec<u128> = weights
        .iter()
        .map(|(_, w)| u128::from(total) * u128::from(*w))
        .collect();
    let mut shares: Vec<u64> = products
        .iter()
        .map(|p| u64::try_from(p / weight_sum).unwrap_or(u64::MAX))
        .collect();
    let given: u64 = shares.iter().sum();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    // Largest remainder first; equal remainders by the lower code (the input order is by code).
    order.sort_by(|&a, &b| (products[b] % weight_sum).cmp(&(products[a] % weight_sum)));
    for &i in order.iter().take((total - given) as usize) {
        shares[i] += 1;
    }
    Some(shares)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_hand_worked_split_gives_the_largest_remainders_their_unit() {
        // 10 births over populations 1, 1, 1: shares 3.33 each, the one extra unit to the first
        // code (equal remainders go to the lower code).
        let split = largest_remainder(10, &[("a", 1), ("b", 1), ("c", 1)]).unwrap();
        assert_eq!(split, vec![4, 3, 3]);
        // 100 over 50, 30, 20 with a total of 7: 3.5, 2.1, 1.4 → 3 + 2 + 1 = 6, the unit to 3.5.
        let split = largest_remainder(7, &[("a", 50), ("b", 30), ("c", 20)]).unwrap();
        assert_eq!(split, vec![4, 2, 1]);
    }

    #[test]
    fn no_population_cannot_carry_births() {
        assert_eq!(largest_remainder(5, &[("a", 0), ("b", 0)]), None);
    }

    proptest! {
        #[test]
        fn the_split_sums_to_the_total_and_stays_within_one_of_the_exact_share(
            total in 0u64..1_000_000,
            weights in proptest::collection::vec(0u64..100_000, 1..40),
        ) {
            prop_assume!(weights.iter().any(|&w| w > 0));
            let named: Vec<(&str, u64)> = weights.iter().map(|&w| ("x", w)).collect();
            let split = largest_remainder(total, &named).unwrap();
            prop_assert_eq!(split.iter().sum::<u64>(), total);
            let weight_sum: f64 = weights.iter().map(|&w| w as f64).sum();
            for (share, &w) in split.iter().zip(&weights) {
                let exact = total as f64 * w as f64 / weight_sum;
                prop_assert!((*share as f64 - exact).abs() < 1.0 + 1e-9, "{} vs {}", share, exact);
            }
        }
    }
}
