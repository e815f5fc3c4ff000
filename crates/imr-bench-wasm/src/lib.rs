//! The benchmarks of `crates/imr-bench` compiled to wasm32 and driven from headless Chromium by
//! `bench/browser.mjs` (`make bench-browser`). Each benchmark is a class whose constructor makes
//! the input inside wasm with the very generators of the native benches (`imr_bench`), and
//! whose `run` is what is timed (by the caller, with `performance.now()`), as criterion times
//! only the routine: the fe fit on data in memory, the inequality analysis of a prepared
//! subject, the deaths aggregator fed chunk by chunk, and the generic CSV ingest (file bytes →
//! table → validated panel) of `imr fit`.
//!
//! Built with the workspace's release profile, the one the page is built with, so the figures
//! are what the page's engine gets (see bench/RESULTS.md).

use imr_bench::{inequality_observations, panel_columns};
use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_inequality::{BootstrapSpec, InequalitySpec, RateInput, Subject};
use imr_microdata::{DeathsAggregator, DeathsOptions};
use imr_models::{Estimator, PanelData, PanelSpec, VcovKind};
use wasm_bindgen::prelude::*;

fn js_error(err: impl std::fmt::Display) -> JsError {
    JsError::new(&err.to_string())
}

/// `fe` with clustered standard errors on `entities × periods` rows and `regressors` columns
/// (the native bench: 50,000 × 20 × 5).
#[wasm_bindgen]
pub struct FeBench {
    data: PanelData,
    spec: PanelSpec,
}

#[wasm_bindgen]
impl FeBench {
    #[wasm_bindgen(constructor)]
    pub fn new(entities: usize, periods: usize, regressors: usize) -> FeBench {
        FeBench {
            data: panel_columns(entities, periods, regressors).panel_data(),
            spec: PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Cluster),
        }
    }

    /// The same panel with the entity (and, with `two_way`, the period) absorbed as fixed
    /// effects (`imr fit --fe entity[,time]`), the model pyfixest fits; the native benches
    /// `fe_absorbed_cluster_1e6x5` and `fe_absorbed_2way_cluster_1e6x5`.
    pub fn absorbing(entities: usize, periods: usize, regressors: usize, two_way: bool) -> FeBench {
        FeBench {
            data: panel_columns(entities, periods, regressors).panel_data_absorbing(two_way),
            spec: PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Cluster),
        }
    }

    /// Fits once; returns the slopes then their standard errors (to check against native).
    pub fn run(&self) -> Result<Vec<f64>, JsError> {
        let fit = self.spec.fit(&self.data).map_err(js_error)?;
        Ok(fit
            .coefficients
            .iter()
            .map(|c| c.estimate)
            .chain(fit.coefficients.iter().map(|c| c.std_error))
            .collect())
    }
}

/// Inequality with `replicates` bootstrap replicates on `areas × years` (native: 5,570 × 30 ×
/// 1,000). `prepare` copies the observations into a subject (criterion's untimed setup), `run`
/// analyses it.
#[wasm_bindgen]
pub struct InequalityBench {
    observations: Vec<imr_inequality::AreaObservation>,
    spec: InequalitySpec,
    subject: Option<Subject>,
}

#[wasm_bindgen]
impl InequalityBench {
    #[wasm_bindgen(constructor)]
    pub fn new(areas: usize, years: usize, replicates: usize) -> InequalityBench {
        InequalityBench {
            observations: inequality_observations(areas, years),
            spec: InequalitySpec {
                bootstrap: BootstrapSpec {
                    replicates,
                    ..Default::default()
                },
            },
            subject: None,
        }
    }

    pub fn prepare(&mut self) {
        self.subject = Some(Subject::Rates(RateInput::per_1000(
            self.observations.clone(),
            false,
        )));
    }

    /// Analyses the prepared subject; returns the first year's Gini and its basic interval.
    pub fn run(&mut self) -> Result<Vec<f64>, JsError> {
        let subject = self
            .subject
            .take()
            .ok_or_else(|| JsError::new("call prepare() before run()"))?;
        let analysis = self.spec.analyse(&subject).map_err(js_error)?;
        let first = analysis
            .report
            .years
            .first()
            .ok_or_else(|| JsError::new("no year"))?;
        let gini = imr_inequality::Measure::Gini;
        let ci = first.intervals.intervals.get(&gini).copied();
        Ok(vec![
            first.measures.get(gini).unwrap_or(f64::NAN),
            ci.map_or(f64::NAN, |c| c[0]),
            ci.map_or(f64::NAN, |c| c[1]),
        ])
    }
}

/// The deaths microdata aggregator fed from JavaScript, chunk by chunk (the engine alone on the
/// main thread; the page's Web Worker is measured separately through the page).
#[wasm_bindgen]
pub struct DeathsBench {
    aggregator: Option<DeathsAggregator>,
}

#[wasm_bindgen]
impl DeathsBench {
    #[wasm_bindgen(constructor)]
    pub fn new() -> DeathsBench {
        DeathsBench {
            aggregator: Some(DeathsAggregator::new(DeathsOptions::default())),
        }
    }

    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        self.aggregator
            .as_mut()
            .ok_or_else(|| JsError::new("already finished"))?
            .push(chunk)
            .map(|_| ())
            .map_err(js_error)
    }

    /// Ends the file; returns [bytes, data rows, infant deaths].
    pub fn finish(&mut self) -> Result<Vec<f64>, JsError> {
        let aggregate = self
            .aggregator
            .take()
            .ok_or_else(|| JsError::new("already finished"))?
            .finish()
            .map_err(js_error)?;
        Ok(vec![
            aggregate.bytes as f64,
            aggregate.rows.rows_read as f64,
            aggregate.rows.rows_counted as f64,
        ])
    }
}

impl Default for DeathsBench {
    fn default() -> Self {
        DeathsBench::new()
    }
}

/// The generic CSV ingest of `imr fit` and the page: a file's bytes, pushed chunk by
/// chunk from JavaScript (not timed), then `run` — `RawTable::from_vec` and `build_panel` with
/// the entity and time columns named, the counterpart of the native criterion bench
/// `ingest/csv_*` (one thread: the page's engine has one).
#[wasm_bindgen]
pub struct CsvPanelBench {
    bytes: Vec<u8>,
}

#[wasm_bindgen]
impl CsvPanelBench {
    #[wasm_bindgen(constructor)]
    pub fn new() -> CsvPanelBench {
        CsvPanelBench { bytes: Vec::new() }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend_from_slice(chunk);
    }

    /// Reads the bytes pushed so far into a panel (they are given to the table, as `imr` and the
    /// page's worker give theirs: push the file again before the next run); returns [bytes,
    /// rows used, rows excluded].
    pub fn run(&mut self) -> Result<Vec<f64>, JsError> {
        let bytes = std::mem::take(&mut self.bytes);
        let size = bytes.len();
        let table = RawTable::from_vec("panel.csv", bytes).map_err(js_error)?;
        let roles = imr_bench::panel_roles(&table);
        let panel = build_panel(
            std::slice::from_ref(&table),
            &[roles],
            &IngestOptions::default(),
        )
        .map_err(js_error)?;
        Ok(vec![
            size as f64,
            panel.report.rows_used as f64,
            panel.report.rows_excluded as f64,
        ])
    }
}

impl Default for CsvPanelBench {
    fn default() -> Self {
        CsvPanelBench::new()
    }
}
