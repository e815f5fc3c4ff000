//! `imr rates|inequality|fit|map` print the bytes recorded in tests/data/snapshots, which
//! tests/data/snapshots/make.sh wrote with the `imr` of commit dcb7ece (dates as `<DATE>`: the
//! runs here fix the date with `SOURCE_DATE_EPOCH`; the map's path as `<OUT>`). A change of
//! output must be deliberate: re-record with make.sh and say why in the commit.

use imr_cli::commands::fit::{FitDocument, FitRows};
use imr_cli::commands::input::{load_panel, InputArgs};
use imr_cli::commands::rates::InputSummary;
use imr_core::models::{Estimator, VcovKind};
use imr_core::request::FitRequest;

mod common;

const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/snapshots");

/// The stdout of `imr args` run in the crate's directory, its exports dated
/// [`common::FIXED_DATE`] (`SOURCE_DATE_EPOCH`), written `<DATE>` as in the snapshots.
fn imr(args: &[&str]) -> String {
    common::stdout_dated(args).replace(common::FIXED_DATE, "<DATE>")
}

fn snapshot(name: &str) -> String {
    std::fs::read_to_string(format!("{SNAPSHOTS}/{name}")).unwrap()
}

fn assert_same(name: &str, actual: &str) {
    let expected = snapshot(name);
    if actual != expected {
        let line = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .map_or(actual.lines().count().min(expected.lines().count()), |l| l);
        panic!(
            "{name} differs from the recorded output at line {}:\n  now: {:?}\n  was: {:?}",
            line + 1,
            actual.lines().nth(line),
            expected.lines().nth(line)
        );
    }
}

const COMMUNES: &str = "tests/data/inequality_communes.csv";
const GRUNFELD: &str = "tests/data/grunfeld.csv";

#[test]
fn rates_print_what_they_printed() {
    assert_same("rates.json", &imr(&["rates", COMMUNES]));
    assert_same("rates.csv", &imr(&["rates", COMMUNES, "--format", "csv"]));
}

#[test]
fn inequality_prints_what_it_printed() {
    assert_same(
        "inequality.json",
        &imr(&[
            "inequality",
            COMMUNES,
            "--group",
            "zona",
            "--rank",
            "pobreza",
            "--bootstrap",
            "40",
            "--against",
            "ingreso_salud",
            "--against-weight",
            "poblacion",
        ]),
    );
    assert_same(
        "inequality_values.csv",
        &imr(&[
            "inequality",
            COMMUNES,
            "--of",
            "ingreso_salud",
            "--weight",
            "poblacion",
            "--bootstrap",
            "40",
            "--format",
            "csv",
        ]),
    );
    assert_same(
        "inequality_trend.svg",
        &imr(&[
            "inequality",
            COMMUNES,
            "--bootstrap",
            "20",
            "--format",
            "svg-trend",
            "--lang",
            "es",
        ]),
    );
}

#[test]
fn fit_prints_what_it_printed_and_the_request_runs_to_the_same_json() {
    let re = imr(&common::grunfeld_args(
        "value,capital",
        &["--model", "re", "--vcov", "cluster"],
    ));
    assert_same("fit_re.json", &re);
    assert_same(
        "fit_twfe.json",
        &imr(&common::grunfeld_args("value", &common::TWFE_SNAPSHOT_ARGS)),
    );
    // The request itself, as the Models view runs it, gives the recorded JSON.
    let panel = load_panel(&InputArgs {
        // relative, as the recorded command named it (tests run in the crate's directory)
        files: vec![GRUNFELD.into()],
        entity: Some("firm".into()),
        time: Some("year".into()),
        deaths: None,
        births: None,
        rate: None,
        sheet: Vec::new(),
        sheets: None,
        time_value: Vec::new(),
        rate_lag: None,
    })
    .unwrap();
    let fit = FitRequest {
        y: "invest".into(),
        x: vec!["value".into(), "capital".into()],
        model: Estimator::Re,
        vcov: VcovKind::Cluster,
        ..FitRequest::default()
    }
    .run(&panel)
    .unwrap();
    let document = FitDocument {
        fit: &fit,
        input: InputSummary::new(&panel),
        rows: FitRows::new(&panel.report, panel.len(), &fit),
    };
    assert_same("fit_re.json", &document.to_json().unwrap());
}

#[test]
fn map_prints_and_draws_what_it_did() {
    let dir = std::env::temp_dir().join(format!("imr-snapshot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("map.svg");
    let out_str = out.to_str().unwrap();
    let summary = imr(&common::cells_2019(&[
        "--smooth",
        "eb",
        "--classes",
        "3",
        "--moran",
        "99",
        "--lisa",
        "--lang",
        "es",
        "--out",
        out_str,
    ]));
    assert_same("map.json", &summary.replace(out_str, "<OUT>"));
    let svg = std::fs::read_to_string(&out)
        .unwrap()
        .replace(common::FIXED_DATE, "<DATE>");
    assert_same("map.svg", &svg);
    std::fs::remove_dir_all(&dir).unwrap();
}
