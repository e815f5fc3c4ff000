//! Clustering by any column, one- and two-way (`imr fit --cluster a` / `--cluster a,b`), on a
//! generated unbalanced panel with singletons, repeated (entity, year) keys and missing values,
//! against pyfixest 0.60.0 (`feols` / `fepois` with their default singleton removal and
//! small-sample corrections: `ssc(k_adj=True, k_fixef="nonnested", G_adj=True, G_df="min")`;
//! two-way as Cameron, Gelbach & Miller 2011, `V_a + V_b − V_ab`). Data and values are written by
//! `golden/make_panel_goldens.py`; versions in `golden/panel_versions.txt`.
//!
//! Tolerances: coefficients and standard errors 1e-6 relative; counts and degrees of freedom
//! exact.

mod common;
use common::{check_goldens, read_table, Tolerances};
use imr_models::{Estimator, PanelData, PanelSpec, VcovKind};

const TOLERANCES: Tolerances = Tolerances {
    coef: 1e-6,
    se: 1e-6,
};
/// The pyfixest version the goldens come from (also in golden/panel_versions.txt).
const PYFIXEST: &str = "pyfixest 0.60.0";

/// The generated panel with `y` (or `deaths`) on x1, x2, the effects absorbed and the clusters.
fn panel(y: &str, effects: &[&str], cluster: &[&str]) -> PanelData {
    let t = read_table("golden/data/cluster_panel.csv");
    let data = t.panel("entity", "year", y, &["x1", "x2"]);
    let data = effects
        .iter()
        .fold(data, |data, name| data.absorb(t.fixed_effect(name)));
    data.with_cluster(cluster.iter().map(|c| t.fixed_effect(c)).collect())
}

fn check(estimator: Estimator, data: &PanelData, vcov: VcovKind, golden: &str) {
    let versions = std::fs::read_to_string(format!(
        "{}/tests/golden/panel_versions.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert!(versions.contains(PYFIXEST), "{versions}");
    let golden = format!("golden/panel.{golden}.csv");
    let fit = PanelSpec::new(estimator)
        .with_vcov(vcov)
        .fit(data)
        .unwrap_or_else(|e| panic!("{golden}: {e}"));
    let compared = check_goldens(&fit, &golden, &TOLERANCES, |key| {
        let actual = match key {
            "nobs" => Some(fit.nobs as f64),
            "rows_excluded" => Some(fit.rows_excluded as f64),
            "df_t" => fit.inference.df.map(|d| d as f64),
            other => panic!("{golden}: unknown key {other}"),
        };
        Some((actual, 1e-12))
    });
    assert!(compared >= 6, "{golden}");
    // every input row is used or listed with its reason
    assert_eq!(
        fit.nobs + fit.excluded_rows.len(),
        data.n_rows(),
        "{golden}"
    );
}

#[test]
fn one_way_clusters_by_any_column_match_pyfixest() {
    for column in ["region", "sector"] {
        let data = panel("y", &["entity", "year"], &[column]);
        check(
            Estimator::Fe,
            &data,
            VcovKind::Cluster,
            &format!("ols_2fe.{column}"),
        );
        let fit = PanelSpec::new(Estimator::Fe).fit(&data).unwrap();
        assert!(
            fit.vcov_convention
                .to_string()
                .starts_with(&format!("clustered by `{column}` (CR1)")),
            "{}",
            fit.vcov_convention
        );
    }
}

#[test]
fn two_way_clusters_match_pyfixest() {
    for (a, b) in [("region", "year"), ("sector", "year")] {
        let data = panel("y", &["entity", "year"], &[a, b]);
        check(
            Estimator::Fe,
            &data,
            VcovKind::Cluster,
            &format!("ols_2fe.{a}_{b}"),
        );
    }
}

#[test]
fn clusters_without_absorbed_effects_or_three_ways_are_refused() {
    let data = panel("y", &[], &["region"]);
    let err = PanelSpec::new(Estimator::Pooled).fit(&data).unwrap_err();
    assert!(
        err.to_string().contains("clusters other than the entity"),
        "{err}"
    );
    let data = panel("y", &["entity"], &["region", "sector", "year"]);
    let err = PanelSpec::new(Estimator::Fe).fit(&data).unwrap_err();
    assert!(
        err.to_string().contains("one or two columns, not 3"),
        "{err}"
    );
}

/// The generated panel's deaths on x1, x2 with births as exposure and the effects absorbed.
fn counts(effects: &[&str], cluster: &[&str]) -> PanelData {
    let t = read_table("golden/data/cluster_panel.csv");
    panel("deaths", effects, cluster)
        .with_exposure(imr_models::Column::new("births", t.numbers("births")))
}

#[test]
fn poisson_with_one_absorbed_effect_matches_pyfixest_fepois() {
    for (vcov, case) in [
        (VcovKind::Iid, "iid"),
        (VcovKind::Hc1, "hc1"),
        (VcovKind::Cluster, "entity"),
    ] {
        let data = counts(&["entity"], &[]);
        check_poisson(&data, vcov, &format!("pois_1fe.{case}"));
    }
}

#[test]
fn poisson_with_two_absorbed_effects_and_two_way_clusters_matches_pyfixest_fepois() {
    for (vcov, cluster, case) in [
        (VcovKind::Iid, &[][..], "iid"),
        (VcovKind::Hc1, &[][..], "hc1"),
        (VcovKind::Cluster, &[][..], "entity"),
        (VcovKind::Cluster, &["region", "year"][..], "region_year"),
    ] {
        let data = counts(&["entity", "year"], cluster);
        check_poisson(&data, vcov, &format!("pois_2fe.{case}"));
    }
}

#[test]
fn poisson_lists_the_rows_of_all_zero_levels_and_singletons() {
    let fit = PanelSpec::new(Estimator::PoissonFe)
        .fit(&counts(&["entity"], &[]))
        .unwrap();
    let reasons: Vec<String> = fit
        .excluded_rows
        .iter()
        .map(|r| r.reason.to_string())
        .collect();
    // e011 and e023 have no death in any row; e004 and e041 are seen once
    assert_eq!(
        reasons
            .iter()
            .filter(|r| r.starts_with("`deaths` is zero in every row"))
            .count(),
        13,
        "{reasons:?}"
    );
    assert_eq!(
        reasons
            .iter()
            .filter(|r| r.starts_with("singleton"))
            .count(),
        2
    );
    assert!(reasons
        .iter()
        .any(|r| r.contains("missing value in `deaths`")));
    assert!(fit.coefficients.iter().all(|c| c.irr.is_some()));
}

/// As [`check`] for Poisson: pyfixest's `df_t` is not compared (inference here is normal, as
/// fixest's `fepois`).
fn check_poisson(data: &PanelData, vcov: VcovKind, golden: &str) {
    let path = format!("golden/panel.{golden}.csv");
    let fit = PanelSpec::new(Estimator::PoissonFe)
        .with_vcov(vcov)
        .fit(data)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let compared = check_goldens(&fit, &path, &TOLERANCES, |key| match key {
        "nobs" => Some((Some(fit.nobs as f64), 1e-12)),
        "rows_excluded" => Some((Some(fit.rows_excluded as f64), 1e-12)),
        "df_t" => None,
        other => panic!("{path}: unknown key {other}"),
    });
    assert!(compared >= 6, "{path}");
    assert_eq!(fit.nobs + fit.excluded_rows.len(), data.n_rows(), "{path}");
}
