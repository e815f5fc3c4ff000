//! Absorbed fixed effects (`--fe`) against pyfixest 0.60.0 (`feols`, default singleton removal
//! and small-sample corrections; demeaning tolerance 1e-12): Grunfeld (unbalanced, missing
//! values) with firm + year, and a generated unbalanced panel with 1, 2 and 3 fixed effects
//! (entity, year, region^year), unweighted and with analytic weights (`weights="w"`, one
//! missing), under iid, HC1 and CRV1 by entity. Values and data are
//! written by `golden/make_fe_goldens.py`; versions in `golden/fe_versions.txt`.
//!
//! Tolerances: coefficients 1e-6 relative (the bar; observed: within 1e-11 and 1e-10),
//! standard errors 1e-4 relative, counts and degrees of freedom exact.

mod common;
use common::{check_goldens, near, read_table, Table, Tolerances};
use imr_models::{Column, Estimator, FixedEffect, PanelData, PanelSpec, VcovKind};

const TOLERANCES: Tolerances = Tolerances {
    coef: 1e-6,
    se: 1e-4,
};
/// The pyfixest version the goldens come from (also in golden/fe_versions.txt).
const PYFIXEST: &str = "pyfixest 0.60.0";

fn with_effects(table: &Table, data: PanelData, effects: &[&str]) -> PanelData {
    effects.iter().fold(data, |data, term| {
        let parts: Vec<FixedEffect> = term.split('^').map(|p| table.fixed_effect(p)).collect();
        data.absorb(if parts.len() == 1 {
            parts.into_iter().next().unwrap()
        } else {
            FixedEffect::interact(&parts)
        })
    })
}

fn grunfeld(effects: &[&str]) -> PanelData {
    let t = read_table("golden/data/grunfeld_unbalanced.csv");
    let data = t.panel("firm", "year", "invest", &["value", "capital"]);
    with_effects(&t, data, effects)
}

fn panel(effects: &[&str]) -> PanelData {
    let t = read_table("golden/data/fe_panel.csv");
    let data = t.panel("entity", "year", "y", &["x1", "x2", "x3"]);
    with_effects(&t, data, effects)
}

fn weighted(effects: &[&str]) -> PanelData {
    let t = read_table("golden/data/fe_panel.csv");
    panel(effects).with_weights(Column::new("w", t.numbers("w")))
}

fn check(data: &PanelData, case: &str) {
    let versions = std::fs::read_to_string(format!(
        "{}/tests/golden/fe_versions.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert!(versions.contains(PYFIXEST), "{versions}");
    for vcov in [VcovKind::Iid, VcovKind::Hc1, VcovKind::Cluster] {
        let golden = format!("golden/fe.{case}.{}.csv", vcov.name());
        let fit = PanelSpec::new(Estimator::Fe)
            .with_vcov(vcov)
            .fit(data)
            .unwrap_or_else(|e| panic!("{golden}: {e}"));
        let compared = check_goldens(&fit, &golden, &TOLERANCES, |key| {
            let actual = match key {
                "nobs" => Some(fit.nobs as f64),
                "rows_excluded" => Some(fit.rows_excluded as f64),
                "df_t" => fit.inference.df.map(|d| d as f64),
                "r2_within" => fit.r2_within,
                other => panic!("{golden}: unknown key {other}"),
            };
            Some((actual, 1e-8))
        });
        assert!(compared >= 8, "{golden}");
        // every input row is used or listed with its reason
        assert_eq!(
            fit.nobs + fit.excluded_rows.len(),
            data.n_rows(),
            "{golden}"
        );
    }
}

#[test]
fn grunfeld_firm_and_year_match_pyfixest() {
    check(&grunfeld(&["firm", "year"]), "grunfeld_2fe");
}

#[test]
fn one_fixed_effect_matches_pyfixest() {
    check(&panel(&["entity"]), "panel_1fe");
}

#[test]
fn two_fixed_effects_match_pyfixest() {
    check(&panel(&["entity", "year"]), "panel_2fe");
}

#[test]
fn three_fixed_effects_with_an_interaction_match_pyfixest() {
    check(&panel(&["entity", "year", "region^year"]), "panel_3fe");
}

#[test]
fn weighted_two_fixed_effects_match_pyfixest() {
    check(&weighted(&["entity", "year"]), "panel_2fe_w");
}

#[test]
fn weighted_three_fixed_effects_match_pyfixest_and_name_the_weights() {
    let data = weighted(&["entity", "year", "region^year"]);
    check(&data, "panel_3fe_w");
    let fit = PanelSpec::new(Estimator::Fe).fit(&data).unwrap();
    assert_eq!(fit.weights.as_deref(), Some("w"));
    assert!(
        fit.excluded_rows
            .iter()
            .any(|r| r.reason.to_string() == "missing value in `w`"),
        "{:?}",
        fit.excluded_rows
    );
}

#[test]
fn a_non_positive_weight_excludes_its_row_with_the_reason() {
    let t = read_table("golden/data/fe_panel.csv");
    let mut w = t.numbers("w");
    w[3] = Some(0.0); // the fourth data row: line 5 of the file, its row label
    let data = panel(&["entity", "year"]).with_weights(Column::new("w", w));
    let fit = PanelSpec::new(Estimator::Fe).fit(&data).unwrap();
    assert!(
        fit.excluded_rows
            .iter()
            .any(|r| r.row == 5
                && r.reason.to_string() == "weight `w` is 0 (weights must be positive)"),
        "{:?}",
        fit.excluded_rows
    );
    assert_eq!(fit.nobs + fit.excluded_rows.len(), data.n_rows());
}

#[test]
fn singletons_are_removed_repeatedly_counted_and_listed() {
    let data = panel(&["entity", "year", "region^year"]);
    let fit = PanelSpec::new(Estimator::Fe).fit(&data).unwrap();
    // e005 is seen once; e200's two rows are each alone in their region-year
    assert_eq!(fit.singletons_removed, Some(3));
    let singles = fit
        .excluded_rows
        .iter()
        .filter(|r| r.reason.to_string().starts_with("singleton"))
        .count();
    assert_eq!(singles, 3);
    let names: Vec<&str> = fit.fixed_effects.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["entity", "year", "region^year"]);
    assert!(fit.fixed_effects[0].nested_in_entity && !fit.fixed_effects[1].nested_in_entity);
    let json = fit.to_json();
    assert!(json.contains("\"singletons_removed\": 3"), "{json}");
}

#[test]
fn one_way_absorbed_equals_the_fe_model_coefficients() {
    // the entity fixed effect absorbed equals the within (fe) estimator on the same rows
    let t = read_table("golden/data/grunfeld_unbalanced.csv");
    let plain = t.panel("firm", "year", "invest", &["value", "capital"]);
    let absorbed = with_effects(&t, plain.clone(), &["firm"]);
    let spec = PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Cluster);
    let (a, b) = (spec.fit(&plain).unwrap(), spec.fit(&absorbed).unwrap());
    for (x, y) in a.coefficients.iter().zip(&b.coefficients) {
        assert!(near(y.estimate, x.estimate, 1e-10), "{x:?} {y:?}");
        // same CR1 factor: K = k + 1 when the effect is nested in the clusters
        assert!(near(y.std_error, x.std_error, 1e-8), "{x:?} {y:?}");
    }
}

#[test]
fn a_regressor_absorbed_by_the_effects_is_dropped_with_the_reason() {
    let t = read_table("golden/data/fe_panel.csv");
    let year: Vec<Option<f64>> = t.numbers("year");
    let data = t
        .panel("entity", "year", "y", &["x1"])
        .regressor(imr_models::Column::new("trend", year));
    let data = with_effects(&t, data, &["entity", "year"]);
    let fit = PanelSpec::new(Estimator::Fe).fit(&data).unwrap();
    assert!(fit.coefficient("trend").is_none());
    assert_eq!(fit.dropped_terms.len(), 1);
    assert!(fit.dropped_terms[0]
        .reason
        .to_string()
        .contains("fixed effects `entity`, `year`"));
}

#[test]
fn other_estimators_refuse_absorbed_effects() {
    let data = panel(&["entity", "year"]);
    let err = PanelSpec::new(Estimator::Re).fit(&data).unwrap_err();
    assert!(
        err.to_string()
            .contains("use the fe or poisson-fe estimator"),
        "{err}"
    );
}
