//! Defining identities of the measures, checked on random data (proptest).

use imr_inequality::measures::{gini_weighted, shares_from_weights, theil_decomposition, theil_t};
use imr_inequality::{
    AreaObservation, BootstrapSpec, InequalitySpec, Measure, RateInput, Subject, ValueInput,
    ValueObservation,
};
use proptest::prelude::*;

/// Areas of one year: (deaths, births, group, rank).
fn areas() -> impl Strategy<Value = Vec<(u32, u32, u8, u8)>> {
    prop::collection::vec((0u32..40, 1u32..4000, 0u8..4, 0u8..20), 2..25)
}

fn subject(areas: &[(u32, u32, u8, u8)], order: &[usize]) -> Subject {
    let obs = order
        .iter()
        .map(|&i| {
            let (d, b, g, r) = areas[i];
            AreaObservation {
                entity: format!("{i:05}"),
                time: 2020,
                events: d as f64,
                exposure: b as f64,
                group: Some(format!("g{g}")),
                rank: Some(r as f64),
                events_range: None,
            }
        })
        .collect();
    Subject::Rates(RateInput::per_1000(obs, false))
}

fn spec(replicates: usize, seed: u64) -> InequalitySpec {
    InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates,
            seed,
            level: 0.95,
        },
    }
}

fn rates_and_shares(areas: &[(u32, u32, u8, u8)]) -> (Vec<f64>, Vec<f64>) {
    let rates = areas
        .iter()
        .map(|a| 1000.0 * a.0 as f64 / a.1 as f64)
        .collect();
    let shares = shares_from_weights(&areas.iter().map(|a| a.1 as f64).collect::<Vec<_>>());
    (rates, shares)
}

proptest! {
    #[test]
    fn gini_and_theil_do_not_change_when_every_rate_is_scaled(
        areas in areas(), factor in 0.01f64..100.0
    ) {
        let (rates, shares) = rates_and_shares(&areas);
        let scaled: Vec<f64> = rates.iter().map(|r| r * factor).collect();
        if let (Ok(g), Ok(gs)) = (gini_weighted(&rates, &shares), gini_weighted(&scaled, &shares)) {
            prop_assert!((g - gs).abs() < 1e-12, "{g} vs {gs}");
        }
        if let (Ok(t), Ok(ts)) = (theil_t(&rates, &shares), theil_t(&scaled, &shares)) {
            prop_assert!((t - ts).abs() < 1e-12, "{t} vs {ts}");
        }
    }

    #[test]
    fn theil_between_plus_within_equals_theil_t(areas in areas()) {
        let (rates, shares) = rates_and_shares(&areas);
        let groups: Vec<usize> = areas.iter().map(|a| a.2 as usize).collect();
        if let Ok(t) = theil_t(&rates, &shares) {
            let d = theil_decomposition(&rates, &shares, &groups).unwrap();
            prop_assert!((d.between + d.within - t).abs() <= 1e-12, "{} + {} vs {t}", d.between, d.within);
            prop_assert!(d.between >= -1e-15 && d.within >= -1e-15);
        }
    }

    #[test]
    fn the_sorted_gini_equals_the_double_sum_definition(areas in areas()) {
        let (rates, shares) = rates_and_shares(&areas);
        let mu: f64 = rates.iter().zip(&shares).map(|(r, p)| r * p).sum();
        if mu > 0.0 {
            let mut sum = 0.0;
            for i in 0..rates.len() {
                for j in 0..rates.len() {
                    sum += shares[i] * shares[j] * (rates[i] - rates[j]).abs();
                }
            }
            let g = gini_weighted(&rates, &shares).unwrap();
            prop_assert!((g - sum / (2.0 * mu)).abs() < 1e-12);
        }
    }

    #[test]
    fn measures_and_intervals_do_not_depend_on_the_order_of_the_areas(
        areas in areas(), seed in any::<u64>(), rotate in 0usize..25
    ) {
        let n = areas.len();
        let forward: Vec<usize> = (0..n).collect();
        let mut shuffled: Vec<usize> = (0..n).rev().collect();
        shuffled.rotate_left(rotate % n);
        let a = spec(30, seed).analyse(&subject(&areas, &forward)).unwrap().report;
        let b = spec(30, seed).analyse(&subject(&areas, &shuffled)).unwrap().report;
        prop_assert_eq!(a.to_json(), b.to_json());
    }

    #[test]
    fn the_same_seed_gives_identical_intervals_bit_for_bit(areas in areas(), seed in any::<u64>()) {
        let order: Vec<usize> = (0..areas.len()).collect();
        let s = subject(&areas, &order);
        let a = spec(40, seed).analyse(&s).unwrap().report;
        let b = spec(40, seed).analyse(&s).unwrap().report;
        for (ya, yb) in a.years.iter().zip(&b.years) {
            for m in Measure::ALL {
                let (ia, ib) = (ya.interval(m), yb.interval(m));
                prop_assert_eq!(ia.map(|c| c.map(f64::to_bits)), ib.map(|c| c.map(f64::to_bits)));
            }
        }
    }

    #[test]
    fn concentration_index_lies_between_minus_one_and_one(areas in areas()) {
        let order: Vec<usize> = (0..areas.len()).collect();
        let r = spec(0, 1).analyse(&subject(&areas, &order)).unwrap().report;
        if let Some(c) = r.years[0].measures.get(Measure::ConcentrationIndex) {
            prop_assert!((-1.0 - 1e-12..=1.0 + 1e-12).contains(&c));
        }
    }
}

#[test]
fn a_different_seed_gives_different_intervals() {
    let areas: Vec<(u32, u32, u8, u8)> = (0..20)
        .map(|i| (3 + i % 7, 500 + 97 * i, (i % 3) as u8, (i % 11) as u8))
        .collect();
    let order: Vec<usize> = (0..20).collect();
    let s = subject(&areas, &order);
    let a = spec(100, 1).analyse(&s).unwrap().report;
    let b = spec(100, 2).analyse(&s).unwrap().report;
    assert_ne!(
        a.years[0].interval(Measure::Gini),
        b.years[0].interval(Measure::Gini)
    );
}

/// Adding a year must not change another year's intervals: each year has its own random stream.
#[test]
fn a_years_interval_does_not_depend_on_the_other_years() {
    let mk = |years: &[i64]| {
        let obs = years
            .iter()
            .flat_map(|&t| {
                (0..12).map(move |i| AreaObservation {
                    entity: format!("a{i:02}"),
                    time: t,
                    events: (2 + i % 5) as f64,
                    exposure: (300 + 50 * i) as f64,
                    group: None,
                    rank: None,
                    events_range: None,
                })
            })
            .collect();
        Subject::Rates(RateInput::per_1000(obs, false))
    };
    let one = spec(200, 9).analyse(&mk(&[2019])).unwrap().report;
    let two = spec(200, 9).analyse(&mk(&[2018, 2019])).unwrap().report;
    assert_eq!(
        one.years[0].interval(Measure::TheilT),
        two.years[1].interval(Measure::TheilT)
    );
}

/// For a value column the bootstrap resamples areas, so every interval brackets values that
/// resampled data can produce; with a large spread of values the Gini interval has width.
#[test]
fn value_column_intervals_come_from_resampled_areas_and_contain_the_estimate() {
    let obs = (0..30)
        .map(|i| ValueObservation {
            entity: format!("c{i:02}"),
            time: 2020,
            value: 50.0 + (i * i) as f64,
            weight: 1000.0 + 10.0 * i as f64,
            group: None,
            rank: None,
        })
        .collect();
    let subject = Subject::Values(ValueInput {
        observations: obs,
        value_name: "income".into(),
        weight_name: "population".into(),
        unit: "CLP".into(),
    });
    let r = spec(500, 3).analyse(&subject).unwrap().report;
    let y = &r.years[0];
    let g = y.measures.get(Measure::Gini).unwrap();
    let [lo, hi] = y.interval(Measure::Gini).unwrap();
    assert!(lo < g && g < hi, "{lo} < {g} < {hi}");
    assert!(r
        .notes
        .iter()
        .any(|n| n.to_string().contains("areas resampled with replacement")));
}

#[test]
fn derived_deaths_make_the_notes_say_intervals_are_approximate() {
    let obs = vec![
        AreaObservation {
            entity: "a".into(),
            time: 2020,
            events: 2.4,
            exposure: 300.0,
            group: None,
            rank: None,
            events_range: None,
        },
        AreaObservation {
            entity: "b".into(),
            time: 2020,
            events: 7.1,
            exposure: 900.0,
            group: None,
            rank: None,
            events_range: None,
        },
    ];
    let r = spec(20, 1)
        .analyse(&Subject::Rates(RateInput::per_1000(obs, true)))
        .unwrap()
        .report;
    assert!(r.subject.deaths_derived);
    assert!(r
        .notes
        .iter()
        .any(|n| n.to_string().contains("approximate")));
}

#[test]
fn duplicate_areas_in_a_year_are_an_error_naming_the_area() {
    let o = AreaObservation {
        entity: "13101".into(),
        time: 2020,
        events: 1.0,
        exposure: 10.0,
        group: None,
        rank: None,
        events_range: None,
    };
    let err = spec(0, 1)
        .analyse(&Subject::Rates(RateInput::per_1000(
            vec![o.clone(), o],
            false,
        )))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "area `13101` appears more than once in 2020"
    );
}

#[test]
fn a_group_missing_for_one_area_is_an_error_not_a_silent_drop() {
    let mk = |e: &str, g: Option<&str>| AreaObservation {
        entity: e.into(),
        time: 2020,
        events: 1.0,
        exposure: 10.0,
        group: g.map(String::from),
        rank: None,
        events_range: None,
    };
    let err = spec(0, 1)
        .analyse(&Subject::Rates(RateInput::per_1000(
            vec![mk("a", Some("r1")), mk("b", None)],
            false,
        )))
        .unwrap_err();
    assert!(err.to_string().contains("area `b`, 2020: group is missing"));
}

/// A repeated year is measured and marked but left out of every trend and correlation: the
/// trends equal those of the same data without that year, and a correlation over the years
/// pairs only the other years.
#[test]
fn a_repeated_year_is_measured_but_left_out_of_trends_and_correlations() {
    use imr_inequality::{correlate_reports, RepeatedYear};
    let deaths = |t: i64, i: i64| (1 + (i * (t - 2015)) % 7 + i % 3) as f64;
    let mk = |years: &[i64]| {
        let obs = years
            .iter()
            .flat_map(|&t| {
                // 2021 copies 2020's counts.
                let source = if t == 2021 { 2020 } else { t };
                (0..15).map(move |i| AreaObservation {
                    entity: format!("a{i:02}"),
                    time: t,
                    events: deaths(source, i),
                    exposure: (400 + 60 * i) as f64,
                    group: None,
                    rank: None,
                    events_range: None,
                })
            })
            .collect();
        Subject::Rates(RateInput::per_1000(obs, false))
    };
    let all = [2018, 2019, 2020, 2021, 2022, 2023];
    let without = [2018, 2019, 2020, 2022, 2023];
    let repeat = [RepeatedYear {
        time: 2021,
        repeat_of: 2020,
    }];
    let left = spec(0, 1)
        .analyse_leaving_out(&mk(&all), &repeat)
        .unwrap()
        .report;
    let short = spec(0, 1).analyse(&mk(&without)).unwrap().report;
    let counted = spec(0, 1).analyse(&mk(&all)).unwrap().report;
    assert_eq!(left.years.len(), 6);
    assert_eq!(left.years[3].repeat_of, Some(2020));
    assert_eq!(left.years[3].measures, counted.years[3].measures);
    assert_eq!(left.left_out_of_trends, repeat.to_vec());
    assert_eq!(left.trend, short.trend);
    assert_eq!(left.trend_adjusted, short.trend_adjusted);
    assert_eq!(left.change_split, short.change_split);
    assert_ne!(
        left.trend, counted.trend,
        "the repeat changes the trend when counted"
    );
    assert!(left
        .notes
        .iter()
        .any(|n| n.to_string().contains("2021 (a repeat of 2020)")));
    let json = serde_json::to_value(&left).unwrap();
    assert_eq!(json["years"][3]["repeat_of"], 2020);
    assert_eq!(json["left_out_of_trends"][0]["time"], 2021);
    // The per-year CSV marks it in a column of its own, absent without repeats.
    let none = imr_inequality::YearMarks::default();
    let csv = imr_inequality::csv::years_csv(&left, &none);
    assert!(csv.starts_with("time,repeat_of,"), "{csv}");
    assert!(csv.lines().any(|l| l.starts_with("2021,2020,")));
    assert!(csv.lines().any(|l| l.starts_with("2020,,")));
    assert!(!imr_inequality::csv::years_csv(&counted, &none).contains("repeat_of"));
    // Counted in the trends, a copy the marks name is marked all the same.
    let copy = imr_inequality::YearMarks::of_copies(
        repeat.iter().map(|r| (r.time, r.repeat_of)).collect(),
    );
    let csv = imr_inequality::csv::years_csv(&counted, &copy);
    assert!(csv.lines().any(|l| l.starts_with("2021,2020,")), "{csv}");
    // The correlation with a second series leaves the repeated year out of the pairs.
    let c = correlate_reports(&left, Measure::Gini, &counted, Measure::Gini, 0.95);
    assert_eq!(c.n_years, 5);
    let c = correlate_reports(&counted, Measure::Gini, &left, Measure::Gini, 0.95);
    assert_eq!(c.n_years, 5);
}

/// The seam in the bundled births (the health ministry's microdata of 2001–2006 count about 5%
/// fewer births than INE's registered totals, `public/data/codebook.csv`): a births ratio that is
/// the same for every area of a year moves the national rate but no inequality measure of that
/// year. The gamma–Poisson likelihood depends on births × μ only, so μ̂ takes the ratio and the
/// measures (functions of the relative dispersion) and their intervals do not move.
#[test]
fn the_adjusted_measures_do_not_move_when_every_area_s_births_take_one_ratio() {
    use imr_inequality::adjusted::{fit_year, AdjustedMeasure};
    // 80 areas of 40 to 7,000 births with rates spread around 8 per 1,000 (a fixed design).
    let births: Vec<f64> = (0..80u32).map(|k| 40.0 + f64::from(k * k) * 1.1).collect();
    let deaths: Vec<f64> = births
        .iter()
        .enumerate()
        .map(|(k, b)| (b * (0.004 + 0.008 * ((k * 37 % 80) as f64 / 80.0))).round())
        .collect();
    let base = fit_year(2003, &deaths, &births, 1000.0, 0.95).unwrap();
    for ratio in [0.95, 1.05, 1.5] {
        let scaled: Vec<f64> = births.iter().map(|b| b * ratio).collect();
        let moved = fit_year(2003, &deaths, &scaled, 1000.0, 0.95).unwrap();
        assert!((moved.mean_rate * ratio - base.mean_rate).abs() < 1e-6 * base.mean_rate);
        for m in AdjustedMeasure::ALL {
            let (a, b) = (base.value(m), moved.value(m));
            assert!(
                (a - b).abs() <= 1e-6 * a.abs().max(1e-9),
                "{m:?} at {ratio}: {a} vs {b}"
            );
            for (x, y) in base.interval(m).iter().zip(moved.interval(m)) {
                assert!(
                    (x - y).abs() <= 1e-5 * x.abs().max(1e-6),
                    "{m:?} interval at {ratio}: {x} vs {y}"
                );
            }
        }
    }
}

proptest! {
    /// Every bias-corrected value and basic interval lies in its measure's range: the P90/P10
    /// ratio of non-negative rates is never below 1 (the page once printed a corrected 0,8188
    /// with an interval from 0), a Gini stays in [0, 1].
    #[test]
    fn corrected_values_and_intervals_stay_in_the_measures_range(areas in areas(), seed in any::<u64>()) {
        let order: Vec<usize> = (0..areas.len()).collect();
        let report = spec(40, seed).analyse(&subject(&areas, &order)).unwrap().report;
        // The bounds by definition, not `Measure::range` (which is what is checked).
        let bounds = [
            (Measure::P90P10, 1.0, f64::INFINITY),
            (Measure::Gini, 0.0, 1.0),
            (Measure::Cov, 0.0, f64::INFINITY),
        ];
        for year in &report.years {
            for (measure, low, high) in bounds {
                if let Some(v) = year.intervals.bias_corrected.get(&measure).copied() {
                    prop_assert!(low <= v && v <= high, "{measure:?} corrected {v}");
                }
                if let Some([a, b]) = year.interval(measure) {
                    prop_assert!(low <= a && a <= b && b <= high, "{measure:?} [{a}, {b}]");
                }
            }
        }
    }
}
