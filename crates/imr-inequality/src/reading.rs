//! How a report is read on screen and in the exports beside it: the decimals of each measure,
//! the measures a report has, which flagged values are inflated inequality, the numbers that
//! explain a flag, and the Lorenz years drawn by default. The page's Inequality view only
//! formats what these return (it does no arithmetic on the data), and `imr inequality` uses the
//! same choices for the charts it writes.

use crate::adjusted::AdjustedMeasure;
use crate::quantity::Unit;
use crate::report::{InequalityAnalysis, InequalityReport, YearResult};
use crate::year::Measure;

impl Measure {
    /// Decimals to show a value of this measure with, given the unit of the area values:
    /// counts none, values in that unit 2, percentages 1, ratios 4.
    pub fn display_decimals(self, value_unit: &Unit) -> usize {
        let unit = self.unit(value_unit);
        if self.is_count() {
            0
        } else if unit == Unit::Percent {
            1
        } else if unit == *value_unit {
            2
        } else {
            4
        }
    }
}

impl Measure {
    /// Decimals to show a slope per year (or a change) of this measure with: one more than its
    /// values ([`Measure::display_decimals`]), as yearly changes are small.
    pub fn slope_display_decimals(self, value_unit: &Unit) -> usize {
        self.display_decimals(value_unit) + 1
    }
}

impl AdjustedMeasure {
    /// Decimals to show an adjusted measure with: the squared coefficient of variation and the
    /// P90/P10 ratio 2, the others (indices in [0, 1] or close to it) 3.
    pub fn display_decimals(self) -> usize {
        match self {
            AdjustedMeasure::Scv | AdjustedMeasure::P90P10 => 2,
            _ => 3,
        }
    }
}

/// The sentence under a table of `measures` of a subject of `kind` naming those shown without
/// an interval ([`Measure::shows_interval`]) and why; `None` when each has one.
pub fn no_interval_note(
    lang: imr_stats::Lang,
    measures: &[Measure],
    kind: crate::year::SubjectKind,
) -> Option<String> {
    let names: Vec<&str> = (measures.iter())
        .filter(|m| !m.shows_interval(kind))
        .map(|m| m.label_in(lang))
        .collect();
    (!names.is_empty()).then(|| {
        let names = names.join(", ");
        match lang {
            imr_stats::Lang::Es => format!(
                "Sin intervalo: {names}. El remuestreo de Poisson lleva las tasas de las comunas \
                 pequeñas a cero y desde cero: sus intervalos quedarían a un lado del valor."
            ),
            imr_stats::Lang::En => format!(
                "No interval: {names}. The Poisson bootstrap moves small communes' rates to and \
                 from zero: their intervals would lie to one side of the value."
            ),
        }
    })
}

/// An interval as the inequality tables write it ("0,005 – 0,120"): each bound at `decimals`,
/// or more where a bound other than zero would read as zero (`bound_decimals`); a bound
/// without limit "∞". The observed, adjusted and trend tables' one writing of an interval.
pub fn table_interval(lang: imr_stats::Lang, [lo, hi]: [f64; 2], decimals: usize) -> String {
    let bound = |x: f64| match x {
        x if x.is_finite() => lang.grouped(x, bound_decimals(x, decimals)),
        x if x > 0.0 => "∞".to_owned(),
        _ => "−∞".to_owned(),
    };
    format!("{} – {}", bound(lo), bound(hi))
}

/// The decimals to write an interval's bound `x` with in a column of `decimals`: more where a
/// bound other than zero would read as zero, enough for its first significant digit (a Theil
/// index's lower bound 0.0001 read "0,000" beside a Gini's "0,005" of the same interval, as if
/// it reached no inequality, which an interval that does is said in words instead).
fn bound_decimals(x: f64, decimals: usize) -> usize {
    let shown_as_zero = x.abs() < 0.5 * 10f64.powi(-(decimals as i32));
    if x == 0.0 || !x.is_finite() || !shown_as_zero {
        return decimals;
    }
    // 0.0001 → 4, 0.00004 → 5: the place of the first digit that is not zero
    (-x.abs().log10()).ceil().max(decimals as f64) as usize
}

/// Whether any year of a report has a flagged value ([`YearResult::is_noticeably_biased`]), and
/// whether any flagged value is inflated inequality ([`YearResult::is_inflated`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BiasFlags {
    pub any: bool,
    pub inflated: bool,
}

impl InequalityReport {
    /// The measures with a value in at least one year, in [`Measure::ALL`]'s order (the columns
    /// of the per-year table and of [`crate::csv::years_csv`]).
    pub fn measures_present(&self) -> Vec<Measure> {
        Measure::ALL
            .into_iter()
            .filter(|m| self.years.iter().any(|y| y.measures.applies(*m)))
            .collect()
    }

    /// The measures that can be drawn over the years: present, with at least one value.
    pub fn series_measures(&self) -> Vec<Measure> {
        self.measures_present()
            .into_iter()
            .filter(|m| !self.series(*m).is_empty())
            .collect()
    }

    /// Whether any present measure of any year is flagged, and whether any flag is inflation.
    pub fn bias_flags(&self) -> BiasFlags {
        let present = self.measures_present();
        let mut flags = BiasFlags::default();
        for y in &self.years {
            for m in &present {
                if y.is_noticeably_biased(*m) {
                    flags.any = true;
                    flags.inflated |= y.is_inflated(*m);
                }
            }
        }
        flags
    }
}

/// The numbers behind a flagged value: observed value, bootstrap bias (mean of the replicates −
/// estimate; Efron & Tibshirani 1993, §10.2), bias-corrected value (estimate − bias), the bias
/// relative to the observed value in percent (100·bias/|estimate|, `None` for an estimate of
/// 0), and the percentile interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BiasReading {
    pub observed: Option<f64>,
    pub bias: f64,
    pub corrected: Option<f64>,
    pub relative_percent: Option<f64>,
    pub percentile: Option<[f64; 2]>,
    /// Inflated inequality ([`YearResult::is_inflated`]) rather than a shift either way.
    pub inflated: bool,
}

impl YearResult {
    /// Whether `measure` is inequality inflated by small-area noise: a dispersion measure whose
    /// bootstrap replicates lie above it (positive bias), as the "Inflated inequality" note says.
    pub fn is_inflated(&self, measure: Measure) -> bool {
        measure.is_dispersion() && self.bias(measure).is_some_and(|b| b > 0.0)
    }

    /// [`YearResult::noise_share`] in percent (100 × share), as the adjusted table shows it.
    pub fn noise_share_percent(&self, measure: AdjustedMeasure) -> Option<f64> {
        self.noise_share(measure).map(|s| 100.0 * s)
    }

    /// The numbers that explain the flag of `measure` (see [`BiasReading`]).
    pub fn bias_reading(&self, measure: Measure) -> BiasReading {
        let observed = self.measures.get(measure);
        let bias = self.bias(measure).unwrap_or(0.0);
        BiasReading {
            observed,
            bias,
            corrected: self.bias_corrected(measure),
            relative_percent: observed
                .filter(|v| *v != 0.0)
                .map(|v| 100.0 * bias / v.abs()),
            percentile: self.percentile_interval(measure),
            inflated: self.is_inflated(measure),
        }
    }
}

impl InequalityAnalysis {
    /// The years of the report, ascending.
    pub fn years(&self) -> Vec<i64> {
        self.report.years.iter().map(YearResult::time).collect()
    }

    /// The Lorenz years drawn when the reader has chosen none: the first and the last year (one
    /// year when there is only one).
    pub fn default_lorenz_years(&self) -> Vec<i64> {
        let years = self.years();
        match (years.first(), years.last()) {
            (Some(a), Some(b)) if a != b => vec![*a, *b],
            (Some(a), _) => vec![*a],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_measures_without_an_interval_are_named_once() {
        use super::no_interval_note;
        use crate::year::Measure;
        use crate::year::SubjectKind::{Rate, Value};
        let lang = imr_stats::Lang::Es;
        assert_eq!(
            no_interval_note(lang, &[Measure::Gini, Measure::TheilT], Rate),
            None
        );
        let shown = [Measure::Gini, Measure::Median, Measure::P90P10];
        // a value column's areas are resampled: its quantiles keep their intervals
        assert_eq!(no_interval_note(lang, &shown, Value), None);
        let note = no_interval_note(lang, &shown, Rate).unwrap();
        assert!(note.starts_with(&format!(
            "Sin intervalo: {}, {}. ",
            Measure::Median.label_in(lang),
            Measure::P90P10.label_in(lang)
        )));
    }

    #[test]
    fn a_bound_above_zero_is_never_written_as_zero() {
        use super::bound_decimals;
        assert_eq!(bound_decimals(0.0001, 3), 4);
        assert_eq!(bound_decimals(0.00004, 3), 5);
        assert_eq!(bound_decimals(0.0004, 3), 4);
        // what shows at its decimals keeps them; zero is zero, infinity ∞
        for x in [0.0, 0.0005, 0.038, 1.25, f64::INFINITY] {
            assert_eq!(bound_decimals(x, 3), 3, "{x}");
        }
        let lang = imr_stats::Lang::Es;
        assert_eq!(
            super::table_interval(lang, [0.0001, 0.02], 3),
            "0,0001 – 0,020"
        );
        assert_eq!(
            super::table_interval(lang, [0.5, f64::INFINITY], 2),
            "0,50 – ∞"
        );
        for x in [0.0001, 0.00004, 0.0004, 0.000_000_7, 0.00049] {
            let d = bound_decimals(x, 3);
            let written = format!("{x:.d$}");
            assert!(
                written.trim_end_matches('0') != "0.",
                "{x} written {written}"
            );
        }
    }

    use super::*;
    use crate::{AreaObservation, InequalitySpec, RateInput, Subject};

    fn analysis(years: &[i64]) -> InequalityAnalysis {
        let mut obs = Vec::new();
        for &time in years {
            for (i, (deaths, births)) in [(8.0, 1000.0), (4.0, 200.0), (0.0, 50.0), (15.0, 3000.0)]
                .into_iter()
                .enumerate()
            {
                obs.push(AreaObservation {
                    entity: format!("0{i}"),
                    time,
                    events: deaths,
                    exposure: births,
                    group: None,
                    rank: None,
                    events_range: None,
                });
            }
        }
        let subject = Subject::Rates(RateInput::per_1000(obs, false));
        InequalitySpec::default().analyse(&subject).unwrap()
    }

    #[test]
    fn decimals_follow_the_unit() {
        let unit = &Unit::PerLiveBirths { per: 1000.0 };
        assert_eq!(Measure::NAreas.display_decimals(unit), 0);
        assert_eq!(Measure::PooledRate.display_decimals(unit), 2);
        assert_eq!(Measure::IndexOfDisparity.display_decimals(unit), 1);
        assert_eq!(Measure::Gini.display_decimals(unit), 4);
        assert_eq!(Measure::Gini.slope_display_decimals(unit), 5);
        assert_eq!(AdjustedMeasure::Scv.display_decimals(), 2);
        assert_eq!(AdjustedMeasure::Gini.display_decimals(), 3);
    }

    #[test]
    fn measures_present_leave_out_what_needs_a_group_or_rank() {
        let a = analysis(&[2019, 2020]);
        let present = a.report.measures_present();
        assert!(present.contains(&Measure::Gini));
        assert!(!present.contains(&Measure::TheilBetween));
        assert!(!present.contains(&Measure::ConcentrationIndex));
        let drawn = a.report.series_measures();
        assert!(drawn.iter().all(|m| present.contains(m)));
        assert!(drawn.contains(&Measure::Gini));
    }

    #[test]
    fn lorenz_years_default_to_the_first_and_last() {
        assert_eq!(
            analysis(&[2019, 2020, 2021]).default_lorenz_years(),
            vec![2019, 2021]
        );
        assert_eq!(analysis(&[2020]).default_lorenz_years(), vec![2020]);
    }

    #[test]
    fn a_bias_reading_holds_the_year_numbers_and_the_relative_bias() {
        // 4 areas, 1000 replicates: the Gini of these small areas is biased upwards.
        let a = analysis(&[2019]);
        let y = &a.report.years[0];
        let r = y.bias_reading(Measure::Gini);
        let gini = y.measures.get(Measure::Gini).unwrap();
        assert!((gini - 0.1895425).abs() < 1e-7);
        assert_eq!(r.observed, Some(gini));
        assert_eq!(r.bias, y.bias(Measure::Gini).unwrap());
        assert_eq!(r.corrected, y.bias_corrected(Measure::Gini));
        let relative = r.relative_percent.unwrap();
        assert!((relative * gini / 100.0 - r.bias).abs() < 1e-12);
        assert_eq!(r.inflated, r.bias > 0.0);
        // The pooled rate is not a dispersion measure: never inflation.
        assert!(!y.is_inflated(Measure::PooledRate));
        let flags = a.report.bias_flags();
        assert_eq!(
            flags.any,
            a.report
                .measures_present()
                .iter()
                .any(|m| y.is_noticeably_biased(*m))
        );
        assert!(!flags.inflated || flags.any);
    }

    #[test]
    fn counts_and_order_statistics_offer_no_bias_correction() {
        // The retest's "Mediana 4,77 ⚠ corregido por sesgo: 6,83" and "Comunas con cero 119 …
        // 83,6": the page showed a resampled correction of a median and of a count.
        let a = analysis(&[2019]);
        let y = &a.report.years[0];
        for m in [
            Measure::Median,
            Measure::P25,
            Measure::Max,
            Measure::ZeroAreas,
        ] {
            assert!(y.bias(m).is_some(), "{m:?} was resampled");
            assert!(
                y.intervals.bias_corrected.contains_key(&m),
                "{m:?} kept for the JSON"
            );
            assert_eq!(y.bias_corrected(m), None, "{m:?}");
            assert!(!y.is_noticeably_biased(m), "{m:?}");
            // nor an interval, which would lie to one side of the value (shows_interval)
            assert_eq!(
                (y.interval(m), y.percentile_interval(m)),
                (None, None),
                "{m:?}"
            );
        }
        assert!(y.interval(Measure::Gini).is_some());
        assert!(y.bias_corrected(Measure::Gini).is_some());
        assert!(y.bias_corrected(Measure::PooledRate).is_some());
        let json = serde_json::to_value(y).unwrap();
        assert!(json["bias_corrected"]["median"].is_number());
        assert!(json["ci"]["median"].is_array() && json["ci_percentile"]["p25"].is_array());
    }
}
