//! Whether a verdict on a trend rests on a single year: the leave-one-year-out check of the
//! reference study's answer.

use crate::inequality::InequalitySeries;
use crate::slope::Slope;

/// The years of `series` between `first` and `last` whose leaving out alone changes the
/// direction its trend's interval gives (a leave-one-year-out check of a verdict, as a
/// jackknife over the years): an answer resting on one year says so.
pub fn pivotal_years(series: &InequalitySeries, first: i64, last: i64) -> Vec<i64> {
    let direction = |s: &InequalitySeries| Slope::of_series(&s.within(first, last))?.direction();
    let Some(verdict) = direction(series) else {
        return Vec::new();
    };
    (series.years.iter())
        .map(|y| y.time)
        .filter(|t| (first..=last).contains(t) && !series.left_out_of_trend.contains(t))
        .filter(|&t| {
            let mut without = series.clone();
            without.left_out_of_trend.push(t);
            direction(&without) != Some(verdict)
        })
        .collect()
}
