//! The engine in WebAssembly gives the reference numbers: ingest of the bundled dataset and of a
//! Latin-1 agency file, Garwood intervals, the 4-area inequality fixture, Grunfeld fixed effects
//! with clustered errors, and GeoDa's map breaks. Each value's source is cited beside it.
#![cfg(target_arch = "wasm32")]

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::rates::{rate_with_interval, RateTable};
use wasm_bindgen_test::wasm_bindgen_test;

const BUNDLED: &[u8] = include_bytes!("../../../public/data/chile_imr_2001_2021.csv");
const LATIN1: &[u8] = include_bytes!("../../imr-core/tests/data/latin1_semicolon.csv");
const GRUNFELD: &[u8] = include_bytes!("../../imr-cli/tests/data/grunfeld.csv");
const SINIM_LAG: &[u8] =
    include_bytes!("../../imr-core/tests/data/lag/sinim_tmi_ine_nacimientos_2017_2023.csv");

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[wasm_bindgen_test]
fn the_bundled_dataset_loads_whole_with_counted_deaths() {
    let table = RawTable::from_bytes("chile_imr_2001_2021.csv", BUNDLED).unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    // 345 communes × 21 years; the rows without deaths (2016, 2020, the communes before their
    // creation in 2004, rates SINIM did not publish) are excluded with their reason.
    assert_eq!(panel.report.rows_read, 7245);
    assert_eq!(
        panel.report.rows_used + panel.report.rows_excluded,
        panel.report.rows_read
    );
    assert!(panel.report.rows_excluded >= 690);
    assert_eq!(panel.entities().len(), 345);
    assert!(!panel.deaths_derived);
    let rates = RateTable::from_panel(&panel).unwrap();
    assert!(!rates.approximate_intervals);
    // 2001–2021 without 2016 and 2020; INE's national count of 2001.
    assert_eq!(rates.national.len(), 19);
    assert_eq!(rates.national[0].estimate.deaths, 2159.0);
}

#[wasm_bindgen_test]
fn a_latin1_semicolon_file_reads_as_natively() {
    let table = RawTable::from_bytes("x.csv", LATIN1).unwrap();
    assert_eq!(table.encoding.label(), "windows-1252");
    assert_eq!(table.dialect.delimiter, b';');
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    assert_eq!(panel.report.rows_used, 4);
    assert!(panel.rows().any(|r| r.entity == "16101"));
}

/// SINIM's rates as labelled 2019–2023 beside INE's births 2017–2023
/// (crates/imr-core/tests/data/lag/PROVENANCE.md): the rates of 2019 fit the births of 2017 in
/// 126 of 127 testable communes, pooled 496 of 508 (the native test's numbers), and a lag of 2
/// moves them to 2017–2021.
#[wasm_bindgen_test]
fn sinim_rates_are_found_two_years_late_and_moved() {
    let table = RawTable::from_bytes("sinim.csv", SINIM_LAG).unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(
        std::slice::from_ref(&table),
        std::slice::from_ref(&roles),
        &IngestOptions::default(),
    )
    .unwrap();
    let report = panel.report.rate_lag.as_ref().unwrap();
    assert_eq!(report.lag, Some(2));
    let y2019 = report.years[0].lags[2];
    assert_eq!((y2019.fits, y2019.testable), (126, 127));
    assert_eq!((report.lags[2].fits, report.lags[2].testable), (496, 508));
    let lagged = IngestOptions {
        rate_lag: Some(2),
        ..IngestOptions::default()
    };
    let panel = build_panel(&[table], &[roles], &lagged).unwrap();
    assert_eq!(panel.times(), vec![2017, 2018, 2019, 2020, 2021]);
    assert_eq!(
        (panel.report.rows_used, panel.report.rows_excluded),
        (1725, 697)
    );
}

/// Garwood 95% for 0 events: upper 3.688879 (−ln 0.025); 21 events in 3,000 births:
/// 4.333110–10.700244 per 1,000 (SciPy 1.17.1 chi2.ppf).
#[wasm_bindgen_test]
fn garwood_intervals_match_the_reference() {
    let (_, lo, hi) = rate_with_interval(0.0, 1000.0);
    assert_eq!(lo, Some(0.0));
    assert!(close(hi.unwrap(), 3.688879, 1e-5));
    let (_, lo, hi) = rate_with_interval(21.0, 3000.0);
    assert!(close(lo.unwrap(), 4.333110, 1e-5));
    assert!(close(hi.unwrap(), 10.700244, 1e-5));
}

/// tests/reference/README.md, 4-area fixture: Gini 0.1895425, Theil T 0.1051573, MLD not available.
#[wasm_bindgen_test]
fn the_four_area_fixture_gives_the_published_inequality() {
    use imr_core::inequality::{
        AreaObservation, BootstrapSpec, InequalitySpec, Measure, RateInput, Subject,
    };
    let births = [1000.0, 200.0, 50.0, 3000.0];
    let deaths = [8.0, 4.0, 0.0, 15.0];
    let obs = (0..4)
        .map(|i| AreaObservation::new(format!("area{i}"), 2019, deaths[i], births[i]))
        .collect();
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 50,
            ..BootstrapSpec::default()
        },
    };
    let analysis = spec
        .analyse(&Subject::Rates(RateInput::per_1000(obs, false)))
        .unwrap();
    let year = &analysis.report.years[0];
    assert!(close(
        year.measures.get(Measure::Gini).unwrap(),
        0.1895425,
        5e-8
    ));
    assert!(close(
        year.measures.get(Measure::TheilT).unwrap(),
        0.1051573,
        5e-8
    ));
    assert!(year.measures.get(Measure::Mld).is_none());
}

/// tests/reference/README.md: Grunfeld within, Stata `xtreg, fe vce(cluster firm)`:
/// value 0.1101238 (SE 0.0151945), capital 0.3100653 (SE 0.0527518).
#[wasm_bindgen_test]
fn grunfeld_fixed_effects_with_clustered_errors_match_stata() {
    use imr_core::models::{Column, Estimator, PanelData, PanelSpec, VcovKind};
    let table = RawTable::from_bytes("grunfeld.csv", GRUNFELD).unwrap();
    let mut roles = table.guessed_roles.clone();
    roles.entity = Some(0);
    roles.time = Some(1);
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    let entity: Vec<String> = panel.rows().map(|r| r.entity.to_owned()).collect();
    let time: Vec<i64> = panel.rows().map(|r| r.time).collect();
    let data = PanelData::new(
        entity,
        time,
        Column::new("invest", panel.numeric_column("invest").unwrap()),
    )
    .regressor(Column::new("value", panel.numeric_column("value").unwrap()))
    .regressor(Column::new(
        "capital",
        panel.numeric_column("capital").unwrap(),
    ));
    let fit = PanelSpec::new(Estimator::Fe)
        .with_vcov(VcovKind::Cluster)
        .fit(&data)
        .unwrap();
    let value = fit.coefficient("value").unwrap();
    let capital = fit.coefficient("capital").unwrap();
    assert!(close(value.estimate, 0.1101238, 1e-7));
    assert!(close(value.std_error, 0.0151945, 1e-7));
    assert!(close(capital.estimate, 0.3100653, 1e-7));
    assert!(close(capital.std_error, 0.0527518, 1e-7));
}

/// tests/reference/README.md, GeoDa on 1..9: quantile k=3 breaks [3.5, 6.5]; natural breaks k=3 [4, 7].
#[wasm_bindgen_test]
fn geoda_breaks_on_one_to_nine() {
    use imr_core::map::{classify, Method};
    let values: Vec<Option<f64>> = (1..=9).map(|v| Some(v as f64)).collect();
    let q = classify(&values, &Method::Quantile { classes: 3 }).unwrap();
    assert_eq!(q.breaks, vec![3.5, 6.5]);
    let j = classify(&values, &Method::NaturalBreaks { classes: 3 }).unwrap();
    assert_eq!(j.breaks, vec![4.0, 7.0]);
}

/// The page's memory check before it decodes a big table (`src/components/csv_upload/decode.rs`
/// asks for 5× the table's encoding): 2.5 GiB can be set aside in wasm32's 4 GiB, in parts,
/// though no single allocation may exceed `isize::MAX` (2 GiB here) — as one `Vec`, the check
/// refused every table above 214 MB until 2026-12-02 (bench/RESULTS.md, "Big files").
#[wasm_bindgen_test]
fn the_memory_check_reserves_more_than_two_gib_in_parts() {
    let bytes = 5usize << 29;
    assert!(Vec::<u8>::new().try_reserve_exact(bytes).is_err());
    assert!(imr_worker::can_allocate(bytes));
    // More than wasm32's whole memory is refused, not an abort.
    assert!(!imr_worker::can_allocate(usize::MAX));
}
