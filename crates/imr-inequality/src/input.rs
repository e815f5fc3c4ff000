//! Inputs as plain data, and their grouping into years of areas.
//!
//! The app and the command line adapt their validated panel into one of two subjects:
//!
//! * [`Subject::Rates`]: deaths (events) and births (exposure) per area and year; the area rate is
//!   r_i = `per` · events_i / exposure_i (per 1,000 live births by default) and the weight of an area
//!   is its births. Areas are those with exposure > 0 that year.
//! * [`Subject::Values`]: any numeric column with a weight column, e.g. municipal health income per
//!   capita weighted by population. Areas are those with weight > 0 that year.

use crate::error::{Field, InequalityError};
use crate::quantity::{Quantity, Unit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One area in one year, for rates: `events` (deaths < 1 year) over `exposure` (live births).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AreaObservation {
    /// Area code (a commune's CUT).
    pub entity: String,
    /// Year.
    pub time: i64,
    /// Deaths under one year (may be non-integer when derived from a published rate).
    pub events: f64,
    /// Live births.
    pub exposure: f64,
    /// Group for the Theil decomposition (e.g. region), when requested.
    pub group: Option<String>,
    /// Socioeconomic rank variable (e.g. poverty rate), when requested; areas are ordered by it
    /// ascending.
    pub rank: Option<f64>,
    /// The least and greatest whole deaths consistent with the sources when `events` is not
    /// exactly known (reconstructed from a rounded rate); `None`: exact. The adjusted measures
    /// carry it ([`crate::adjusted::CountRangeBound`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events_range: Option<[f64; 2]>,
}

impl AreaObservation {
    /// `events` over `exposure` in area `entity` and year `time`, with no group and no rank.
    pub fn new(entity: impl Into<String>, time: i64, events: f64, exposure: f64) -> Self {
        AreaObservation {
            entity: entity.into(),
            time,
            events,
            exposure,
            group: None,
            rank: None,
            events_range: None,
        }
    }
}

/// One area in one year, for any weighted value (`--of COL --weight COL`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueObservation {
    /// Area code.
    pub entity: String,
    /// Year.
    pub time: i64,
    /// The value studied (≥ 0), e.g. health income per capita.
    pub value: f64,
    /// Its weight (≥ 0), e.g. population.
    pub weight: f64,
    /// Group for the Theil decomposition, when requested.
    pub group: Option<String>,
    /// Rank variable, when requested.
    pub rank: Option<f64>,
}

/// Rates of events over exposure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RateInput {
    pub observations: Vec<AreaObservation>,
    /// Rate multiplier: 1000 for rates per 1,000 live births.
    pub per: f64,
    /// True when deaths were computed from published rates and births (then deaths may be
    /// non-integer and the Poisson bootstrap intervals are approximate).
    pub deaths_derived: bool,
    /// The plausible range of true births / births given, over which the adjusted measures are
    /// recomputed when deaths were derived ([`crate::adjusted::sensitivity`]).
    #[serde(default)]
    pub births_ratio: BirthsRatioRange,
}

impl RateInput {
    /// Rates per 1,000 live births (births ratio range 0.7–1.0).
    pub fn per_1000(observations: Vec<AreaObservation>, deaths_derived: bool) -> Self {
        RateInput {
            observations,
            per: 1000.0,
            deaths_derived,
            births_ratio: BirthsRatioRange::default(),
        }
    }
}

/// Points of the grid of births ratios (both ends included).
pub const BIRTHS_RATIO_GRID: usize = 7;

/// The plausible range of c = true births / births given, over which the adjusted measures
/// are recomputed when deaths were derived ([`crate::adjusted::sensitivity`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BirthsRatioRange {
    pub low: f64,
    pub high: f64,
}

impl Default for BirthsRatioRange {
    /// 0.7–1.0: Chile's registered births over INE's population aged 0 were about 0.91 (2019)
    /// and 0.73 (2023); 1.0 when the births given are the rates' own denominator.
    fn default() -> Self {
        BirthsRatioRange {
            low: 0.7,
            high: 1.0,
        }
    }
}

impl BirthsRatioRange {
    /// The grid of ratios, from low to high (one point when low = high). Invalid ranges (limits
    /// outside [0.01, 100] or not numbers, as a hand-edited saved analysis may hold) fall back to
    /// [`BirthsRatioRange::default`].
    pub fn grid(&self) -> Vec<f64> {
        let plausible = |c: f64| (0.01..=100.0).contains(&c);
        let valid = plausible(self.low) && plausible(self.high);
        let (lo, hi) = if valid {
            (self.low.min(self.high), self.low.max(self.high))
        } else {
            let d = BirthsRatioRange::default();
            (d.low, d.high)
        };
        if hi - lo < 1e-12 {
            return vec![lo];
        }
        let steps = (BIRTHS_RATIO_GRID - 1) as f64;
        (0..BIRTHS_RATIO_GRID)
            .map(|j| lo + (hi - lo) * j as f64 / steps)
            .collect()
    }
}

impl std::fmt::Display for BirthsRatioRange {
    /// `LOW,HIGH` as `imr inequality --births-ratio` takes it and the page's link keeps it
    /// (shortest decimals: `0.9,1`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.low, self.high)
    }
}

impl std::str::FromStr for BirthsRatioRange {
    /// Why the text is not a range, in English (the command line's words).
    type Err = String;

    /// `LOW,HIGH`: two ratios with 0.01 ≤ LOW ≤ HIGH ≤ 100 (spaces around each allowed).
    fn from_str(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let number = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|v| (0.01..=100.0).contains(v))
                .ok_or_else(|| format!("`{s}` is not a ratio between 0.01 and 100"))
        };
        match parts.as_slice() {
            [low, high] => {
                let (low, high) = (number(low)?, number(high)?);
                if low > high {
                    return Err(format!("the low end {low} is above the high end {high}"));
                }
                Ok(BirthsRatioRange { low, high })
            }
            _ => Err("expected LOW,HIGH, e.g. 0.9,1.1".to_string()),
        }
    }
}

/// A weighted value column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueInput {
    pub observations: Vec<ValueObservation>,
    /// Name of the value column, shown in notes and charts.
    pub value_name: String,
    /// Name of the weight column.
    pub weight_name: String,
    /// Unit of the value, shown on axes (e.g. "CLP per capita"); may be empty.
    pub unit: String,
}

/// What is measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Subject {
    Rates(RateInput),
    Values(ValueInput),
}

impl Subject {
    /// Unit of the area values, for axes and notes.
    pub fn unit(&self) -> Unit {
        match self {
            Subject::Rates(input) => Unit::PerLiveBirths { per: input.per },
            Subject::Values(input) => Unit::Given(input.unit.clone()),
        }
    }

    /// Rates with deaths derived from published rates are recomputed over this range of true
    /// births over the births given (`None` keeps the default); a value column has no births.
    pub fn set_births_ratio(&mut self, range: Option<BirthsRatioRange>) {
        if let (Subject::Rates(rates), Some(range)) = (self, range) {
            rates.births_ratio = range;
        }
    }

    /// What the area value is (the infant mortality rate or the value column).
    pub fn value_name(&self) -> Quantity {
        match self {
            Subject::Rates(_) => Quantity::InfantMortalityRate,
            Subject::Values(input) => Quantity::Column(input.value_name.clone()),
        }
    }
}

/// The areas of one year, sorted by entity so that results do not depend on input order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct YearAreas {
    pub time: i64,
    pub entities: Vec<String>,
    /// Area values r_i (rates per `per`, or the value column).
    pub values: Vec<f64>,
    /// Weights w_i (births or the weight column), all > 0.
    pub weights: Vec<f64>,
    /// Events (deaths) per area, rates only: the Poisson bootstrap redraws these.
    pub events: Option<Vec<f64>>,
    /// The range of each area's events where some area's are not exactly known (`[e, e]` for
    /// the exact ones); `None` when every area's are.
    pub event_ranges: Option<Vec<[f64; 2]>>,
    /// Group index per area (into `group_names`), when every area has a group.
    pub groups: Option<Vec<usize>>,
    pub group_names: Vec<String>,
    /// Rank variable per area, when every area has one.
    pub ranks: Option<Vec<f64>>,
    /// Rows of that year left out because their weight (births) is 0.
    pub zero_weight_rows: usize,
}

struct Row<'a> {
    entity: &'a str,
    time: i64,
    value: f64,
    weight: f64,
    events: Option<f64>,
    events_range: Option<[f64; 2]>,
    group: Option<&'a str>,
    rank: Option<f64>,
}

fn check_number(entity: &str, time: i64, field: Field, x: f64) -> Result<(), InequalityError> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(InequalityError::InvalidNumber {
            entity: entity.to_string(),
            time,
            field,
            found: x,
        })
    }
}

/// Validate the subject and group it into years (ascending), areas sorted by entity.
pub(crate) fn years_from_subject(subject: &Subject) -> Result<Vec<YearAreas>, InequalityError> {
    let mut rows = Vec::new();
    match subject {
        Subject::Rates(input) => {
            if !(input.per.is_finite() && input.per > 0.0) {
                return Err(InequalityError::InvalidSetting(format!(
                    "the rate multiplier must be > 0, found {}",
                    input.per
                )));
            }
            for obs in &input.observations {
                check_number(&obs.entity, obs.time, Field::Deaths, obs.events)?;
                check_number(&obs.entity, obs.time, Field::Births, obs.exposure)?;
                let value = if obs.exposure > 0.0 {
                    input.per * obs.events / obs.exposure
                } else {
                    0.0
                };
                rows.push(Row {
                    entity: &obs.entity,
                    time: obs.time,
                    value,
                    weight: obs.exposure,
                    events: Some(obs.events),
                    events_range: obs.events_range,
                    group: obs.group.as_deref(),
                    rank: obs.rank,
                });
            }
        }
        Subject::Values(input) => {
            for obs in &input.observations {
                check_number(&obs.entity, obs.time, Field::Value, obs.value)?;
                check_number(&obs.entity, obs.time, Field::Weight, obs.weight)?;
                rows.push(Row {
                    entity: &obs.entity,
                    time: obs.time,
                    value: obs.value,
                    weight: obs.weight,
                    events: None,
                    events_range: None,
                    group: obs.group.as_deref(),
                    rank: obs.rank,
                });
            }
        }
    }
    if rows.is_empty() {
        return Err(InequalityError::Empty);
    }
    let mut by_year: BTreeMap<i64, Vec<Row>> = BTreeMap::new();
    for row in rows {
        if let Some(rank) = row.rank {
            if !rank.is_finite() {
                return Err(InequalityError::InvalidRank {
                    entity: row.entity.to_string(),
                    time: row.time,
                    found: rank,
                });
            }
        }
        by_year.entry(row.time).or_default().push(row);
    }
    let mut years = Vec::with_capacity(by_year.len());
    for (time, mut rows) in by_year {
        rows.sort_by(|a, b| a.entity.cmp(b.entity));
        for pair in rows.windows(2) {
            if pair[0].entity == pair[1].entity {
                return Err(InequalityError::DuplicateArea {
                    entity: pair[0].entity.to_string(),
                    time,
                });
            }
        }
        let zero_weight_rows = rows.iter().filter(|r| r.weight == 0.0).count();
        rows.retain(|r| r.weight > 0.0);
        let groups = complete_column(&rows, time, Field::Group, |r| r.group.map(str::to_string))?;
        let ranks = complete_column(&rows, time, Field::Rank, |r| r.rank)?;
        let (groups, group_names) = match groups {
            Some(labels) => {
                let mut names: Vec<String> = labels.clone();
                names.sort();
                names.dedup();
                let index = labels
                    .iter()
                    .map(|g| names.binary_search(g).expect("name was collected above"))
                    .collect();
                (Some(index), names)
            }
            None => (None, Vec::new()),
        };
        let events = match subject {
            Subject::Rates(_) => Some(rows.iter().map(|r| r.events.unwrap_or(0.0)).collect()),
            Subject::Values(_) => None,
        };
        let event_ranges = rows
            .iter()
            .any(|r| r.events_range.is_some_and(|[lo, hi]| hi > lo))
            .then(|| {
                rows.iter()
                    .map(|r| {
                        let e = r.events.unwrap_or(0.0);
                        r.events_range.unwrap_or([e, e])
                    })
                    .collect()
            });
        years.push(YearAreas {
            time,
            entities: rows.iter().map(|r| r.entity.to_string()).collect(),
            values: rows.iter().map(|r| r.value).collect(),
            weights: rows.iter().map(|r| r.weight).collect(),
            events,
            event_ranges,
            groups,
            group_names,
            ranks,
            zero_weight_rows,
        });
    }
    Ok(years)
}

/// All areas of the year have the column, or none has it; a mix is an error.
fn complete_column<T>(
    rows: &[Row],
    time: i64,
    what: Field,
    get: impl Fn(&Row) -> Option<T>,
) -> Result<Option<Vec<T>>, InequalityError> {
    let present = rows.iter().filter(|r| get(r).is_some()).count();
    if present == 0 {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        match get(row) {
            Some(x) => out.push(x),
            None => {
                return Err(InequalityError::Incomplete {
                    entity: row.entity.to_string(),
                    time,
                    what,
                })
            }
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::{BirthsRatioRange, RateInput, Subject, ValueInput};
    use proptest::prelude::*;

    #[test]
    fn a_births_ratio_range_is_set_on_rates_and_none_keeps_the_default() {
        let narrow: BirthsRatioRange = "0.9,1.1".parse().unwrap();
        let mut rates = Subject::Rates(RateInput::per_1000(Vec::new(), true));
        rates.set_births_ratio(None);
        assert!(
            matches!(&rates, Subject::Rates(r) if r.births_ratio == BirthsRatioRange::default())
        );
        rates.set_births_ratio(Some(narrow));
        assert!(matches!(&rates, Subject::Rates(r) if r.births_ratio == narrow));
        let values = Subject::Values(ValueInput {
            observations: Vec::new(),
            value_name: "x".into(),
            weight_name: "w".into(),
            unit: String::new(),
        });
        let mut changed = values.clone();
        changed.set_births_ratio(Some(narrow));
        assert_eq!(changed, values, "a value column has no births");
    }

    #[test]
    fn a_births_ratio_range_reads_low_comma_high_and_says_what_is_wrong() {
        let range: BirthsRatioRange = " 0.9 , 1.1 ".parse().unwrap();
        assert_eq!((range.low, range.high), (0.9, 1.1));
        assert_eq!(BirthsRatioRange::default().to_string(), "0.7,1");
        for (text, why) in [
            ("1.1,0.9", "the low end 1.1 is above the high end 0.9"),
            ("0,1", "`0` is not a ratio between 0.01 and 100"),
            ("0.9,x", "`x` is not a ratio between 0.01 and 100"),
            ("0.9,NaN", "`NaN` is not a ratio between 0.01 and 100"),
            ("0.9", "expected LOW,HIGH, e.g. 0.9,1.1"),
            ("0.7,0.8,0.9", "expected LOW,HIGH, e.g. 0.9,1.1"),
        ] {
            assert_eq!(
                text.parse::<BirthsRatioRange>(),
                Err(why.to_string()),
                "{text}"
            );
        }
    }

    proptest! {
        /// What is written (the command's argument, the page's link) reads back as the same
        /// range, bit for bit.
        #[test]
        fn a_written_range_reads_back_the_same(low in 0.01f64..=100.0, high in 0.01f64..=100.0) {
            let range = BirthsRatioRange { low: low.min(high), high: low.max(high) };
            prop_assert_eq!(range.to_string().parse::<BirthsRatioRange>(), Ok(range));
        }
    }
}
