//! Shared helpers of the integration tests: the golden fixture `tests/golden/areas.csv`.
#![allow(dead_code)]

use imr_inequality::{AreaObservation, RateInput, Subject, ValueInput, ValueObservation};

pub struct FixtureRow {
    pub entity: String,
    pub time: i64,
    pub deaths: f64,
    pub births: f64,
    pub region: String,
    pub poverty: f64,
    pub income: f64,
    pub population: f64,
}

/// Rows of `tests/golden/areas.csv` (a plain comma-separated file without quotes).
pub fn fixture_rows() -> Vec<FixtureRow> {
    let text = include_str!("../golden/areas.csv");
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            FixtureRow {
                entity: f[0].to_string(),
                time: f[1].parse().unwrap(),
                deaths: f[2].parse().unwrap(),
                births: f[3].parse().unwrap(),
                region: f[4].to_string(),
                poverty: f[5].parse().unwrap(),
                income: f[6].parse().unwrap(),
                population: f[7].parse().unwrap(),
            }
        })
        .collect()
}

/// Infant mortality of the fixture, with region groups and poverty ranks.
pub fn fixture_rates(with_group: bool, with_rank: bool) -> Subject {
    let obs = fixture_rows()
        .into_iter()
        .map(|r| AreaObservation {
            entity: r.entity,
            time: r.time,
            events: r.deaths,
            exposure: r.births,
            group: with_group.then_some(r.region),
            rank: with_rank.then_some(r.poverty),
            events_range: None,
        })
        .collect();
    Subject::Rates(RateInput::per_1000(obs, false))
}

/// Health income per capita of the fixture weighted by population (`equal_weights`: weight 1).
pub fn fixture_income(equal_weights: bool) -> Subject {
    let obs = fixture_rows()
        .into_iter()
        .map(|r| ValueObservation {
            entity: r.entity,
            time: r.time,
            value: r.income,
            weight: if equal_weights { 1.0 } else { r.population },
            group: Some(r.region),
            rank: Some(r.poverty),
        })
        .collect();
    Subject::Values(ValueInput {
        observations: obs,
        value_name: "health income per capita".into(),
        weight_name: "population".into(),
        unit: "thousand CLP per person".into(),
    })
}

pub fn close(actual: f64, expected: f64, rel: f64) -> bool {
    (actual - expected).abs() <= rel * expected.abs().max(1.0)
}
