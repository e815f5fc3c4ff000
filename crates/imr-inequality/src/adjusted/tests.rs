use super::*;

/// The bound of counts known within a range: Σ w V / Σ w m² with w = 1/(m + θ m²)². By hand,
/// at μ̂ = 0.006 and θ = 0.01: 6 whole numbers (27–32) in 5,930 births, m = 35.58, V = 35/12,
/// w = 1/(35.58 + 12.659364)² = 4.2973117e-4; an exact count of 4 in 300 births, m = 1.8,
/// w = 1/(1.8 + 0.0324)² = 0.29782382. θ_c = 4.2973117e-4 × 2.916667 / (4.2973117e-4 ×
/// 1265.9364 + 0.29782382 × 3.24) = 1.2533826e-3 / 1.5089615 = 8.306259e-4. An area alone:
/// V / m².
#[test]
fn a_range_of_counts_lowers_the_interval_by_its_bound() {
    let b =
        CountRangeBound::of(&[[27.0, 32.0], [4.0, 4.0]], &[5930.0, 300.0], 0.006, 0.01).unwrap();
    assert_eq!(b.areas, 1);
    assert!((b.theta - 8.306259e-4).abs() < 1e-10, "{}", b.theta);
    let alone = CountRangeBound::of(&[[27.0, 32.0]], &[5930.0], 0.006, 0.01).unwrap();
    assert!((alone.theta - (35.0 / 12.0) / (5930.0f64 * 0.006).powi(2)).abs() < 1e-15);
    assert_eq!(
        CountRangeBound::of(&[[4.0, 4.0]], &[300.0], 0.006, 0.01),
        None
    );
    // Carried into a fitted year: the lower limits drop, the values and upper limits stay.
    let births: Vec<f64> = (0..40).map(|i| 200.0 + 60.0 * i as f64).collect();
    let deaths: Vec<f64> = births
        .iter()
        .enumerate()
        .map(|(i, b)| (b * 0.007 * (1.0 + 0.4 * ((i % 5) as f64 - 2.0) / 2.0)).round())
        .collect();
    let year = fit_year(2019, &deaths, &births, 1000.0, 0.95).unwrap();
    let ranges: Vec<[f64; 2]> = deaths
        .iter()
        .zip(&births)
        .map(|(d, b)| {
            if *b >= 1000.0 {
                [d - 1.0, d + 1.0]
            } else {
                [*d, *d]
            }
        })
        .collect();
    let carried = year.clone().carrying_count_ranges(&ranges, &births);
    let bound = carried.count_range.unwrap();
    assert_eq!(bound.areas, births.iter().filter(|b| **b >= 1000.0).count());
    for m in AdjustedMeasure::ALL {
        assert_eq!(carried.value(m), year.value(m));
        assert_eq!(carried.interval(m)[1], year.interval(m)[1]);
        let low = (year.fit.theta_ci[0] - bound.theta).max(0.0);
        assert_eq!(carried.interval(m)[0], m.of_theta(low));
        assert!(carried.interval(m)[0] <= year.interval(m)[0]);
    }
}

/// The table's test cell never says a bare "Sí" beside intervals from zero: a year whose
/// rates differ beyond chance keeps its "Sí", qualified once a range of counts lowers its
/// intervals to zero (2018 of the bundled data: "Sí (p = 0,031)" beside "0,000 – 0,127").
#[test]
fn the_test_cell_qualifies_its_yes_when_the_intervals_reach_zero() {
    let births: Vec<f64> = (0..40).map(|i| 1000.0 + 100.0 * i as f64).collect();
    let deaths: Vec<f64> = births
        .iter()
        .enumerate()
        .map(|(i, b)| (b * 0.007 * (1.0 + 0.8 * ((i % 5) as f64 - 2.0) / 2.0)).round())
        .collect();
    let year = fit_year(2019, &deaths, &births, 1000.0, 0.95).unwrap();
    assert!(year.excess_variation.p_value < 0.05);
    assert!(year.interval(AdjustedMeasure::Gini)[0] > 0.0);
    let yes = year.excess_variation_words(Lang::Es);
    assert!(yes.starts_with("Sí (p "), "{yes}");
    let wide: Vec<[f64; 2]> = deaths.iter().map(|d| [0.0, 2.0 * d + 5.0]).collect();
    let carried = year.carrying_count_ranges(&wide, &births);
    assert_eq!(carried.interval(AdjustedMeasure::Gini)[0], 0.0);
    let qualified = carried.excess_variation_words(Lang::Es);
    assert!(
        qualified.starts_with("Sí, pero podría ser muy poca (p "),
        "{qualified}"
    );
}

#[test]
fn few_areas_or_deaths_are_typed_reasons() {
    assert_eq!(
        fit_year(2019, &[1.0; 5], &[100.0; 5], 1000.0, 0.95),
        Err(AdjustedUnavailable::TooFewAreas {
            n_areas: 5,
            minimum: MIN_AREAS
        })
    );
    assert_eq!(
        fit_year(2019, &[0.0; 40], &[100.0; 40], 1000.0, 0.95),
        Err(AdjustedUnavailable::TooFewDeaths {
            deaths: 0.0,
            minimum: MIN_DEATHS
        })
    );
}

#[test]
fn equal_observed_rates_give_no_true_inequality() {
    let births = vec![1000.0; 50];
    let deaths = vec![7.0; 50];
    let y = fit_year(2019, &deaths, &births, 1000.0, 0.95).unwrap();
    assert_eq!(y.fit.theta, 0.0);
    assert_eq!(y.value(AdjustedMeasure::Gini), 0.0);
    assert_eq!(y.interval(AdjustedMeasure::Gini)[0], 0.0);
    assert!(y.interval(AdjustedMeasure::Gini)[1] > 0.0);
    assert_eq!(y.excess_variation.p_value, 1.0);
    assert!((y.mean_rate - 7.0).abs() < 1e-12);
}
