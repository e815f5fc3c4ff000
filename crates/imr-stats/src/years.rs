//! The years a series lacks: a year without data is shown as a gap (a band on a chart, a
//! "no data" entry in a year list), never bridged as if the years before and after were
//! consecutive (the bundled data have no commune figures for 2016 and 2020).

/// The step between years: the smallest positive difference between two consecutive years of
/// `years` (ascending; 1 for yearly data); `None` with fewer than two distinct years. Two years
/// alone show no rhythm: their step is 1, so a reader's 2019 and 2021 leave 2020 as a gap (her
/// chart drew a line across it), while three years five apart are data every five years.
pub fn year_step(years: &[i64]) -> Option<i64> {
    let differences: Vec<i64> = (years.windows(2))
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0)
        .collect();
    match differences.as_slice() {
        [] => None,
        [_] => Some(1),
        more => more.iter().copied().min(),
    }
}

/// The years on the data's step from the first year of `years` (ascending) to the last that
/// `years` does not have.
///
/// ```
/// use imr_stats::years::missing_years;
/// assert_eq!(missing_years(&[2013, 2014, 2015, 2017, 2018, 2019, 2021]), vec![2016, 2020]);
/// // Data every five years: no gap between 2002 and 2017.
/// assert_eq!(missing_years(&[2002, 2007, 2012, 2017]), Vec::<i64>::new());
/// // Two years alone show no rhythm: the year between them is missing.
/// assert_eq!(missing_years(&[2019, 2021]), vec![2020]);
/// ```
pub fn missing_years(years: &[i64]) -> Vec<i64> {
    let (Some(step), Some(&first), Some(&last)) = (year_step(years), years.first(), years.last())
    else {
        return Vec::new();
    };
    (0..)
        .map(|k| first + k * step)
        .take_while(|t| *t <= last)
        .filter(|t| !years.contains(t))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The missing years and the given ones never overlap, lie within the first and the
        /// last, and together they are every step between them.
        #[test]
        fn missing_and_given_years_tile_the_range(mut years in proptest::collection::vec(1990i64..2030, 0..20)) {
            years.sort_unstable();
            years.dedup();
            let missing = missing_years(&years);
            for t in &missing {
                prop_assert!(years.binary_search(t).is_err());
                prop_assert!(years.first() < Some(t) && Some(t) < years.last());
            }
            if let (Some(step), Some(first), Some(last)) = (year_step(&years), years.first(), years.last()) {
                // Every given year is on the step from the first, as the smallest difference
                // divides none of them necessarily: count only the on-step years.
                let on_step = years.iter().filter(|t| (*t - first) % step == 0).count();
                prop_assert_eq!(on_step + missing.len(), ((last - first) / step + 1) as usize);
            }
        }
    }

    #[test]
    fn one_year_or_none_has_no_gap() {
        assert!(missing_years(&[]).is_empty());
        assert!(missing_years(&[2019]).is_empty());
        assert_eq!(year_step(&[2019]), None);
    }
}
