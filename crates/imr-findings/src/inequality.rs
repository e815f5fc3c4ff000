//! The inequality answer's input: one value per year with its interval, and the trend.
//!
//! **Swap point.** The Findings are written against [`InequalitySeries`] and
//! [`InequalitySource`], not against a particular measure. Today the page feeds them from
//! [`ObservedGiniPlaceholder`]: the Gini of the *observed* commune rates (bootstrap intervals of
//! `imr-inequality`), marked [`SeriesKind::ObservedPlaceholder`] and said so in every sentence,
//! because observed rates of small communes carry Poisson noise that inflates inequality. When
//! the adjusted inequality of true rates (`crates/imr-inequality/src/adjusted/`) is merged,
//! implement [`InequalitySource`] over it returning [`SeriesKind::Adjusted`], and pass that
//! source to [`crate::compute`] instead.

use imr_core::inequality::panel_input::{subject_from_rows, PanelRowRef, SubjectColumns};
use imr_core::inequality::{linear_trend, BootstrapSpec, InequalitySpec, Measure, DEFAULT_SEED};
use imr_core::panel::Panel;
use serde::Serialize;

/// Where an inequality series comes from; the sentences say which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesKind {
    /// Gini of observed rates, bootstrap bias-corrected: a placeholder until the adjusted
    /// measure is wired in.
    ObservedPlaceholder,
    /// Inequality of true rates, adjusted for Poisson noise.
    Adjusted,
}

/// One year's inequality value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InequalityYear {
    pub time: i64,
    pub value: f64,
    /// 95% interval.
    pub ci: Option<[f64; 2]>,
}

/// Inequality of rates per year and its trend: what question 2 (and 3) need.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InequalitySeries {
    pub kind: SeriesKind,
    /// Name of the measure in Spanish and English ("Gini").
    pub measure_es: String,
    pub measure_en: String,
    pub years: Vec<InequalityYear>,
    /// Trend slope in the measure's unit per year, and its 95% interval (`None` with too few
    /// years).
    pub slope_per_year: Option<f64>,
    pub slope_ci: Option<[f64; 2]>,
}

/// Anything that measures the inequality of rates of a panel per year.
pub trait InequalitySource {
    fn series(&self, panel: &Panel) -> Result<InequalitySeries, String>;
}

/// Placeholder source: the Gini of the observed commune rates weighted by births, bias-corrected
/// by the Inequality view's bootstrap (Poisson-redrawn deaths; value = estimate − bias, basic
/// interval, seed [`DEFAULT_SEED`]) and the OLS trend of the yearly values
/// ([`imr_core::inequality::linear_trend`]). See the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObservedGiniPlaceholder {
    /// Bootstrap replicates (the Inequality view uses 200).
    pub replicates: usize,
}

impl InequalitySource for ObservedGiniPlaceholder {
    fn series(&self, panel: &Panel) -> Result<InequalitySeries, String> {
        if !(panel.has_births && panel.has_deaths) {
            return Err("the data have no births and deaths (or rate)".into());
        }
        let rows: Vec<PanelRowRef> = panel
            .rows
            .iter()
            .map(|r| PanelRowRef {
                file: &r.file,
                line: r.line,
                entity: &r.entity,
                time: r.time,
                births: r.births,
                deaths: r.deaths,
            })
            .collect();
        let (subject, _left_out) = subject_from_rows(
            &rows,
            SubjectColumns::Rates {
                deaths_derived: panel.deaths_derived,
            },
            None,
            None,
        )
        .map_err(|e| e.to_string())?;
        let spec = InequalitySpec {
            bootstrap: BootstrapSpec {
                replicates: self.replicates,
                seed: DEFAULT_SEED,
                level: 0.95,
            },
        };
        let analysis = spec.analyse(&subject).map_err(|e| e.to_string())?;
        // The bootstrap's bias-corrected value, on which its basic interval is centred (the
        // observed Gini of small areas is inflated by Poisson noise; the interval may not even
        // contain it). Without replicates, the observed value and no interval.
        let years: Vec<InequalityYear> = analysis
            .report
            .years
            .iter()
            .filter_map(|y| {
                let observed = y.measures.get(Measure::Gini)?;
                Some(InequalityYear {
                    time: y.time(),
                    value: y.bias_corrected(Measure::Gini).unwrap_or(observed),
                    ci: y.interval(Measure::Gini),
                })
            })
            .collect();
        Ok(InequalitySeries::with_trend(
            SeriesKind::ObservedPlaceholder,
            "Gini",
            "Gini",
            years,
        ))
    }
}

impl InequalitySeries {
    /// A series with the OLS trend of its yearly values (interval from year-to-year scatter,
    /// Student's t on n − 2 degrees of freedom; see [`imr_core::inequality::linear_trend`]).
    pub fn with_trend(
        kind: SeriesKind,
        measure_es: &str,
        measure_en: &str,
        years: Vec<InequalityYear>,
    ) -> InequalitySeries {
        let points: Vec<(i64, f64)> = years.iter().map(|y| (y.time, y.value)).collect();
        let trend = linear_trend(&points, 0.95);
        InequalitySeries {
            kind,
            measure_es: measure_es.into(),
            measure_en: measure_en.into(),
            slope_per_year: trend.as_ref().map(|t| t.slope),
            slope_ci: trend.and_then(|t| t.ci_low.zip(t.ci_high).map(|(a, b)| [a, b])),
            years,
        }
    }
}
