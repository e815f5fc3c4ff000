//! Inequality of area rates (infant mortality across communes) or of any weighted value, per
//! year, with bootstrap intervals, trends over the years, correlation of two series, Lorenz
//! curves, box plots, CSV tables and deterministic SVG charts.
//!
//! Pure Rust with no threads, clock or OS randomness, so the same code runs in the browser
//! (wasm32) and in the `imr` command line.
//!
//! ```
//! use imr_inequality::{AreaObservation, InequalitySpec, Measure, RateInput, Subject};
//! let obs = |entity: &str, deaths: f64, births: f64| AreaObservation::new(entity, 2019, deaths, births);
//! let subject = Subject::Rates(RateInput::per_1000(
//!     vec![obs("01101", 8.0, 1000.0), obs("01107", 4.0, 200.0), obs("01401", 0.0, 50.0), obs("02101", 15.0, 3000.0)],
//!     false,
//! ));
//! let analysis = InequalitySpec::default().analyse(&subject).unwrap();
//! let gini = analysis.report.years[0].measures.get(Measure::Gini).unwrap();
//! assert!((gini - 0.1895425).abs() < 1e-7);
//! ```

pub mod adjusted;
pub mod answer;
pub mod bootstrap;
pub mod chart;
pub mod csv;
pub mod distribution;
pub mod error;
pub mod input;
pub mod measures;
pub mod note;
pub mod panel_input;
pub mod quantity;
pub mod reading;
pub mod report;
pub mod simulate;
pub mod trend;
pub mod words;
pub mod year;
pub mod year_marks;

pub use bootstrap::{
    BootstrapMethod, BootstrapSpec, YearIntervals, DEFAULT_REPLICATES, DEFAULT_SEED,
};
pub use distribution::{
    box_plot_stats, lorenz_curve, BoxPlotStats, LorenzCurve, LorenzPoint, Outlier,
};
pub use error::{Field, InequalityError};
pub use imr_stats::{Caption, Lang};
pub use input::{AreaObservation, RateInput, Subject, ValueInput, ValueObservation};
pub use measures::{Reason, Unavailable};
pub use note::Note;
pub use reading::{no_interval_note, table_interval, BiasFlags, BiasReading};
pub use report::{
    correlate_reports, correlate_reports_adjusted, AdjustedMethod, InequalityAnalysis,
    InequalityReport, InequalitySpec, RepeatedYear, SeriesPoint, SubjectInfo, YearResult,
    NOTABLE_RELATIVE_BIAS,
};
pub use trend::{correlate, linear_trend, Correlation, Trend};
pub use year::{Measure, Needs, SubjectKind, YearMeasures};
pub use year_marks::YearMarks;
