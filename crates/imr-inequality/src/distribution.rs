//! The distribution of area values in a year: Lorenz curve and box-plot statistics.

use crate::input::YearAreas;
use serde::{Deserialize, Serialize};

/// One point of a Lorenz curve: cumulative weight share (births) and cumulative share of the
/// total (deaths, for rates).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LorenzPoint {
    pub weight_share: f64,
    pub total_share: f64,
}

/// The weighted Lorenz curve of one year.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LorenzCurve {
    pub time: i64,
    /// From (0, 0) to (1, 1), one point per area after it.
    pub points: Vec<LorenzPoint>,
}

/// Weighted Lorenz curve.
///
/// # Formula
/// Areas sorted ascending by value r (ties by entity); after the k-th area,
/// x_k = Σ_{i≤k} w_i / Σ w (cumulative share of births) and y_k = Σ_{i≤k} w_i r_i / Σ w r
/// (cumulative share of deaths, for rates). The curve starts at (0, 0); twice the area between it
/// and the diagonal is the weighted Gini. `None` when the total Σ w r is 0 or there is no area.
///
/// Reference: Lorenz, M. O. (1905) "Methods of measuring the concentration of wealth",
/// *Publ Am Stat Assoc* 9(70):209–219.
pub fn lorenz_curve(time: i64, values: &[f64], weights: &[f64]) -> Option<LorenzCurve> {
    let total_weight: f64 = weights.iter().sum();
    let total: f64 = values.iter().zip(weights).map(|(r, w)| r * w).sum();
    if values.is_empty() || total <= 0.0 || total_weight <= 0.0 {
        return None;
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    let mut points = Vec::with_capacity(values.len() + 1);
    points.push(LorenzPoint {
        weight_share: 0.0,
        total_share: 0.0,
    });
    let (mut cw, mut ct) = (0.0, 0.0);
    for i in order {
        cw += weights[i];
        ct += weights[i] * values[i];
        points.push(LorenzPoint {
            weight_share: cw / total_weight,
            total_share: ct / total,
        });
    }
    Some(LorenzCurve { time, points })
}

/// An area drawn as an outlier in a box plot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outlier {
    pub entity: String,
    pub value: f64,
}

/// Box-plot statistics of the area values of one year (unweighted: one area, one point).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoxPlotStats {
    pub time: i64,
    pub n_areas: usize,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    /// Smallest value ≥ q1 − 1.5·IQR.
    pub whisker_low: f64,
    /// Largest value ≤ q3 + 1.5·IQR.
    pub whisker_high: f64,
    /// Areas beyond the whiskers, ascending by value.
    pub outliers: Vec<Outlier>,
}

/// Tukey box-plot statistics.
///
/// # Formula
/// q1, median, q3 are type-7 quantiles of the n area values (Hyndman & Fan 1996); IQR = q3 − q1;
/// the whiskers reach the most extreme values within [q1 − 1.5·IQR, q3 + 1.5·IQR]; values beyond
/// are outliers. `None` when the year has no area.
///
/// Reference: Tukey, J. W. (1977) *Exploratory Data Analysis*, Addison-Wesley; McGill, R.,
/// Tukey, J. W. & Larsen, W. A. (1978) "Variations of box plots", *Am Stat* 32(1):12–16.
pub fn box_plot_stats(time: i64, entities: &[String], values: &[f64]) -> Option<BoxPlotStats> {
    if values.is_empty() {
        return None;
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| {
        values[a]
            .total_cmp(&values[b])
            .then(entities[a].cmp(&entities[b]))
    });
    let sorted: Vec<f64> = order.iter().map(|&i| values[i]).collect();
    let q = |p: f64| imr_stats::quantile_type7(&sorted, p).expect("non-empty");
    let (q1, median, q3) = (q(0.25), q(0.5), q(0.75));
    let iqr = q3 - q1;
    let (fence_low, fence_high) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    let inside: Vec<f64> = sorted
        .iter()
        .copied()
        .filter(|v| *v >= fence_low && *v <= fence_high)
        .collect();
    let outliers = order
        .iter()
        .filter(|&&i| values[i] < fence_low || values[i] > fence_high)
        .map(|&i| Outlier {
            entity: entities[i].clone(),
            value: values[i],
        })
        .collect();
    Some(BoxPlotStats {
        time,
        n_areas: values.len(),
        min: sorted[0],
        q1,
        median,
        q3,
        max: sorted[sorted.len() - 1],
        whisker_low: inside.first().copied().unwrap_or(q1),
        whisker_high: inside.last().copied().unwrap_or(q3),
        outliers,
    })
}

pub(crate) fn lorenz_from_areas(areas: &YearAreas) -> Option<LorenzCurve> {
    lorenz_curve(areas.time, &areas.values, &areas.weights)
}

pub(crate) fn box_plot_from_areas(areas: &YearAreas) -> Option<BoxPlotStats> {
    box_plot_stats(areas.time, &areas.entities, &areas.values)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values 1..9 (GeoDa box map reference, tests/reference/README.md): hinges 3 and 7,
    /// fences −3 and 13, so no outlier and whiskers at 1 and 9.
    #[test]
    fn box_plot_of_one_to_nine_has_hinges_three_and_seven() {
        let entities: Vec<String> = (1..=9).map(|i| format!("a{i}")).collect();
        let values: Vec<f64> = (1..=9).map(f64::from).collect();
        let b = box_plot_stats(2020, &entities, &values).unwrap();
        assert_eq!((b.q1, b.median, b.q3), (3.0, 5.0, 7.0));
        assert_eq!((b.whisker_low, b.whisker_high), (1.0, 9.0));
        assert!(b.outliers.is_empty());
    }

    #[test]
    fn a_far_value_is_an_outlier_and_the_whisker_stops_before_it() {
        let entities: Vec<String> = (1..=5).map(|i| format!("a{i}")).collect();
        let values = [1.0, 2.0, 3.0, 4.0, 100.0];
        let b = box_plot_stats(2020, &entities, &values).unwrap();
        assert_eq!(b.whisker_high, 4.0);
        assert_eq!(
            b.outliers,
            vec![Outlier {
                entity: "a5".into(),
                value: 100.0
            }]
        );
    }

    #[test]
    fn lorenz_curve_ends_at_one_one_and_lies_below_the_diagonal() {
        let c = lorenz_curve(2020, &[8.0, 20.0, 0.0, 5.0], &[1000.0, 200.0, 50.0, 3000.0]).unwrap();
        let last = c.points.last().unwrap();
        assert!((last.weight_share - 1.0).abs() < 1e-15 && (last.total_share - 1.0).abs() < 1e-15);
        assert!(c
            .points
            .iter()
            .all(|p| p.total_share <= p.weight_share + 1e-15));
    }
}
