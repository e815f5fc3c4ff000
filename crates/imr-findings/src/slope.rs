//! A trend's slope with its interval, and what the interval says of its sign: what the answer on
//! the study states and the leave-one-year-out check ([`crate::pivotal`]) tests.

use crate::inequality::InequalitySeries;
use crate::words::{Direction, MIN_YEARS_FOR_TREND};
use imr_core::inequality::Trend;
use serde::Serialize;

/// A trend's slope per year and its 95% interval, over `n_years` years from `first` to `last`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Slope {
    pub slope: f64,
    pub ci: Option<[f64; 2]>,
    pub n_years: usize,
    pub first: i64,
    pub last: i64,
}

impl Slope {
    pub(crate) fn of_trend(t: &Trend) -> Slope {
        Slope {
            slope: t.slope,
            ci: t.ci_low.zip(t.ci_high).map(|(a, b)| [a, b]),
            n_years: t.n_years,
            first: t.first_time,
            last: t.last_time,
        }
    }

    pub(crate) fn of_series(s: &InequalitySeries) -> Option<Slope> {
        let years: Vec<i64> = s
            .years
            .iter()
            .map(|y| y.time)
            .filter(|t| !s.left_out_of_trend.contains(t))
            .collect();
        Some(Slope {
            slope: s.slope_per_year?,
            ci: s.slope_ci,
            n_years: years.len(),
            first: *years.first()?,
            last: *years.last()?,
        })
    }

    /// What the interval says of the sign; `None` without an interval or with too few years.
    pub fn direction(&self) -> Option<Direction> {
        (self.n_years >= MIN_YEARS_FOR_TREND)
            .then_some(self.ci)
            .flatten()
            .map(|ci| Direction::of(ci, 0.0))
    }
}
