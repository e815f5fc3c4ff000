//! `imr fit --fe … --cluster`: the built binary clusters by any column, one- and two-way, on the
//! generated panel of imr-models' goldens (singletons, repeated (entity, year) keys, missing
//! values) and reproduces pyfixest 0.60.0 (values in
//! `crates/imr-models/tests/golden/panel.ols_2fe.*.csv`, written by `make_panel_goldens.py`).
//! Absorbed effects need no unique key, so the rows that repeat one are kept, as pyfixest does.

use std::collections::HashMap;
mod common;

const PANEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../imr-models/tests/golden/data/cluster_panel.csv"
);

fn golden(case: &str) -> HashMap<String, f64> {
    common::pyfixest_golden(&format!("panel.{case}"))
}

/// The panel without its count columns: `y ~ x1 + x2` reads no births or deaths, so a row
/// missing its deaths is not excluded on reading (pyfixest drops no row for a column the
/// formula does not name).
fn panel_without_counts(dir: &std::path::Path) -> String {
    let text = std::fs::read_to_string(PANEL).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(',').collect();
        out += &fields[..7].join(",");
        out.push('\n');
    }
    let path = dir.join("panel.csv");
    std::fs::write(&path, out).unwrap();
    path.display().to_string()
}

#[test]
fn clusters_by_any_column_one_and_two_way_match_pyfixest() {
    let dir = std::env::temp_dir().join(format!("imr-fit-cluster-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = panel_without_counts(&dir);
    for (cluster, case) in [
        ("region", "region"),
        ("sector", "sector"),
        ("region,year", "region_year"),
        ("sector,year", "sector_year"),
    ] {
        let doc = common::json(&[
            "fit",
            &file,
            "--entity",
            "entity",
            "--time",
            "year",
            "--y",
            "y",
            "--x",
            "x1,x2",
            "--fe",
            "entity,year",
            "--cluster",
            cluster,
        ]);
        let expected = golden(&format!("ols_2fe.{case}"));
        for c in doc["coefficients"].as_array().unwrap() {
            let term = c["term"].as_str().unwrap();
            for (key, field) in [("coef", "estimate"), ("se", "std_error")] {
                let want = expected[&format!("{key}.{term}")];
                let got = c[field].as_f64().unwrap();
                assert!(
                    (got - want).abs() <= 1e-6 * want.abs(),
                    "{cluster} {key}.{term}: {got} vs {want}"
                );
            }
        }
        assert_eq!(doc["nobs"].as_f64(), Some(expected["nobs"]), "{cluster}");
        assert_eq!(
            doc["inference"]["df"].as_f64(),
            Some(expected["df_t"]),
            "{cluster}"
        );
        // the repeated keys are rows of the fit; nothing is excluded on reading
        assert_eq!(doc["input"]["rows_excluded"], 0, "{cluster}");
        assert_eq!(
            doc["rows"]["excluded_by_model"].as_f64(),
            Some(expected["rows_excluded"]),
            "{cluster}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cluster_without_absorbed_effects_or_with_hc1_is_a_usage_error() {
    for extra in [
        vec!["--cluster", "region"],
        vec!["--fe", "entity", "--cluster", "region", "--vcov", "hc1"],
    ] {
        let mut args = vec![
            "fit", PANEL, "--entity", "entity", "--time", "year", "--y", "y", "--x", "x1,x2",
        ];
        args.extend(extra);
        let stderr = common::fails(2, &args);
        assert!(stderr.contains("--cluster region"), "{stderr}");
    }
    // an unknown cluster column is named with the columns there are
    let stderr = common::fails(
        2,
        &[
            "fit",
            PANEL,
            "--entity",
            "entity",
            "--time",
            "year",
            "--y",
            "y",
            "--x",
            "x1,x2",
            "--fe",
            "entity",
            "--cluster",
            "province",
        ],
    );
    assert!(stderr.contains("province"), "{stderr}");
}

#[test]
fn poisson_with_absorbed_effects_matches_pyfixest_fepois() {
    // pyfixest: fepois("deaths ~ x1 + x2 | entity + year", offset=log(births)); the row
    // without deaths is excluded on reading, the singletons and the entities without a death
    // by the model: 18 rows in all, as pyfixest drops
    for (extra, case) in [
        (vec!["--vcov", "iid"], "pois_2fe.iid"),
        (vec!["--vcov", "hc1"], "pois_2fe.hc1"),
        (vec!["--vcov", "cluster"], "pois_2fe.entity"),
        (vec!["--cluster", "region,year"], "pois_2fe.region_year"),
    ] {
        let mut args = vec![
            "fit",
            PANEL,
            "--entity",
            "entity",
            "--time",
            "year",
            "--y",
            "deaths",
            "--exposure",
            "births",
            "--x",
            "x1,x2",
            "--model",
            "poisson-fe",
            "--fe",
            "entity,year",
        ];
        args.extend(extra);
        let doc = common::json(&args);
        let expected = golden(case);
        for c in doc["coefficients"].as_array().unwrap() {
            let term = c["term"].as_str().unwrap();
            for (key, field) in [("coef", "estimate"), ("se", "std_error")] {
                let want = expected[&format!("{key}.{term}")];
                let got = c[field].as_f64().unwrap();
                assert!(
                    (got - want).abs() <= 1e-6 * want.abs(),
                    "{case} {key}.{term}: {got} vs {want}"
                );
            }
        }
        assert_eq!(doc["nobs"].as_f64(), Some(expected["nobs"]), "{case}");
        let rows = &doc["rows"];
        let excluded = rows["excluded_at_input"].as_f64().unwrap()
            + rows["excluded_by_model"].as_f64().unwrap();
        assert_eq!(excluded, expected["rows_excluded"], "{case}");
    }
}

#[test]
fn a_cross_section_without_a_time_column_matches_pyfixest() {
    // one row per county, no year: pooled OLS (iid, HC1) and the state effects absorbed with
    // one- and two-way clusters (`golden/panel.cs_*.csv`)
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../imr-models/tests/golden/data/cross_section.csv"
    );
    for (extra, case) in [
        (vec!["--model", "pooled", "--vcov", "iid"], "cs_ols.iid"),
        (vec!["--model", "pooled", "--vcov", "hc1"], "cs_ols.hc1"),
        (vec!["--fe", "state", "--cluster", "state"], "cs_fe.state"),
        (
            vec!["--fe", "state", "--cluster", "state,size"],
            "cs_fe.state_size",
        ),
    ] {
        let mut args = vec![
            "fit", file, "--entity", "county", "--y", "y", "--x", "x1,x2",
        ];
        args.extend(extra);
        let doc = common::json(&args);
        let expected = golden(case);
        let coefficients = doc["coefficients"].as_array().unwrap();
        assert_eq!(
            coefficients.len() * 2 + 3,
            expected.len(),
            "{case}: {coefficients:?}"
        );
        for c in coefficients {
            let term = match c["term"].as_str().unwrap() {
                "(Intercept)" => "Intercept",
                other => other,
            };
            for (key, field) in [("coef", "estimate"), ("se", "std_error")] {
                let want = expected[&format!("{key}.{term}")];
                let got = c[field].as_f64().unwrap();
                assert!(
                    (got - want).abs() <= 1e-6 * want.abs(),
                    "{case} {key}.{term}: {got} vs {want}"
                );
            }
        }
        assert_eq!(doc["nobs"].as_f64(), Some(expected["nobs"]), "{case}");
        assert_eq!(
            doc["inference"]["df"].as_f64(),
            Some(expected["df_t"]),
            "{case}"
        );
        assert_eq!(
            doc["rows"]["excluded_by_model"].as_f64(),
            Some(expected["rows_excluded"]),
            "{case}"
        );
    }
}
