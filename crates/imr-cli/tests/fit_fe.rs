//! `imr fit --fe`: the built binary absorbs entity + year + region^year on the generated panel of
//! imr-models' goldens and reproduces pyfixest 0.60.0 (values in
//! `crates/imr-models/tests/golden/fe.panel_3fe.*.csv` and, with `--weights w`,
//! `fe.panel_3fe_w.*.csv`, written by `make_fe_goldens.py`).

use std::collections::HashMap;
mod common;

const PANEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../imr-models/tests/golden/data/fe_panel.csv"
);

/// `imr fit` of y on x1, x2, x3 in the generated panel plus `extra`.
fn fit_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "fit", PANEL, "--entity", "entity", "--time", "year", "--y", "y", "--x", "x1,x2,x3",
    ];
    args.extend_from_slice(extra);
    args
}

fn imr_fit(extra: &[&str]) -> std::process::Output {
    common::imr(&fit_args(extra))
}

fn golden(case: &str) -> HashMap<String, f64> {
    common::pyfixest_golden(&format!("fe.{case}"))
}

/// Runs `imr fit` with `extra` and compares coefficients (1e-6), standard errors (1e-4), nobs and
/// rows excluded with the pyfixest golden `case`; returns the JSON for further checks.
fn fit_matches_golden(extra: &[&str], case: &str) -> serde_json::Value {
    let fit = common::json(&fit_args(extra));
    let expected = golden(case);
    for c in fit["coefficients"].as_array().unwrap() {
        let term = c["term"].as_str().unwrap();
        let (b, se) = (
            expected[&format!("coef.{term}")],
            expected[&format!("se.{term}")],
        );
        let got_b = c["estimate"].as_f64().unwrap();
        let got_se = c["std_error"].as_f64().unwrap();
        assert!(
            (got_b - b).abs() <= 1e-6 * b.abs(),
            "{case} {term}: {got_b} vs {b}"
        );
        assert!(
            (got_se - se).abs() <= 1e-4 * se,
            "{case} {term}: {got_se} vs {se}"
        );
    }
    assert_eq!(fit["nobs"].as_f64(), Some(expected["nobs"]), "{case}");
    assert_eq!(
        fit["rows_excluded"].as_f64(),
        Some(expected["rows_excluded"]),
        "{case}"
    );
    fit
}

#[test]
fn weighted_absorbed_effects_match_pyfixest_under_every_covariance() {
    for vcov in ["iid", "hc1", "cluster"] {
        let fit = fit_matches_golden(
            &[
                "--fe",
                "entity,year,region^year",
                "--weights",
                "w",
                "--vcov",
                vcov,
            ],
            &format!("panel_3fe_w.{vcov}"),
        );
        assert_eq!(fit["weights"], "w");
    }
}

#[test]
fn three_absorbed_effects_match_pyfixest_under_every_covariance() {
    for vcov in ["iid", "hc1", "cluster"] {
        let case = format!("panel_3fe.{vcov}");
        let fit = fit_matches_golden(&["--fe", "entity,year,region^year", "--vcov", vcov], &case);
        let expected = golden(&case);
        assert_eq!(fit["inference"]["df"].as_f64(), Some(expected["df_t"]));
        assert_eq!(fit["singletons_removed"], 3);
        let names: Vec<&str> = fit["fixed_effects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["entity", "year", "region^year"]);
    }
}

#[test]
fn an_unknown_fixed_effect_column_is_a_usage_error_naming_it() {
    let out = imr_fit(&["--fe", "entity,province"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--fe province: no column `province`"), "{err}");
    let out = imr_fit(&["--fe", "entity,,year"]);
    assert!(!out.status.success());
}

#[test]
fn fe_with_another_model_is_refused() {
    let out = imr_fit(&["--fe", "entity", "--model", "re"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--model fe"));
}

#[test]
fn help_documents_the_fe_syntax() {
    let out = common::imr(&["fit", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--fe commune,year,region^year"), "{help}");
}

#[test]
fn the_r_and_stata_code_absorb_the_same_effects_and_name_the_reproducing_command() {
    let code = |format| {
        common::stdout(&fit_args(&[
            "--fe",
            "entity,year,region^year",
            "--format",
            format,
        ]))
    };
    let r = code("r");
    assert!(
        r.contains("  \"region^year\" = interaction(d[[\"region\"]], d[[\"year\"]], drop = TRUE)")
            && r.contains("m <- lm(Y ~ fe[[1]] + fe[[2]] + fe[[3]] + X)"),
        "{r}"
    );
    assert!(
        r.contains("--fe 'entity,year,region^year' --format json"),
        "{r}"
    );
    let stata = code("stata");
    assert!(
        stata.contains("egen fe_3 = group(region year)\n"),
        "{stata}"
    );
    assert!(
        stata.contains("reghdfe y x1 x2 x3, absorb(fe_1 fe_2 fe_3) vce(cluster entity_id)\n"),
        "{stata}"
    );
}
