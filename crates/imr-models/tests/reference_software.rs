//! Golden tests against Python linearmodels 7.1 and statsmodels 0.15.0 on three public panels:
//! `wage_panel` (balanced, 545 × 8, time-invariant regressors and a regressor collinear with
//! the year effects), `jobtraining` (157 firms × 3 years, missing values, unbalanced after
//! exclusion) and Grunfeld made unbalanced (rows deleted, values blanked). Values and data are
//! written by `golden/make_goldens.py`; versions in `golden/versions.txt`.
//!
//! Tolerances: coefficients 1e-8 relative, standard errors and statistics 1e-6 relative.

mod common;
use common::{check_goldens, fit, read_table, Tolerances};
use imr_models::{Estimator, Fit, PanelData, VcovKind};

const TOLERANCES: Tolerances = Tolerances {
    coef: 1e-8,
    se: 1e-6,
};

fn wage() -> PanelData {
    read_table("golden/data/wage_panel.csv").panel(
        "nr",
        "year",
        "lwage",
        &[
            "exper", "expersq", "union", "married", "hours", "educ", "black",
        ],
    )
}

fn jobtraining() -> PanelData {
    read_table("golden/data/jobtraining.csv").panel(
        "fcode",
        "year",
        "lscrap",
        &["hrsemp", "grant", "lemploy", "union"],
    )
}

fn grunfeld_unbalanced() -> PanelData {
    read_table("golden/data/grunfeld_unbalanced.csv").panel(
        "firm",
        "year",
        "invest",
        &["value", "capital"],
    )
}

/// Compares every value in the golden file with the fit; returns the number compared.
fn check(fit: &Fit, golden: &str) -> usize {
    let path = format!("golden/{golden}.csv");
    let compared = check_goldens(fit, &path, &TOLERANCES, |key| {
        let actual = match key {
            "sigma2_e" => fit.sigma2_e,
            "sigma2_u" => fit.sigma2_u,
            "r2_within" => fit.r2_within,
            "r2_between" => fit.r2_between,
            "r2_overall" => fit.r2_overall,
            "f_effects" => fit.tests.f_effects.as_ref().map(|f| f.statistic),
            "f_effects.df1" => fit.tests.f_effects.as_ref().map(|f| f.df1 as f64),
            "f_effects.df2" => fit.tests.f_effects.as_ref().map(|f| f.df2 as f64),
            "hausman" => fit.tests.hausman.as_ref().map(|h| h.statistic),
            "hausman.df" => fit.tests.hausman.as_ref().map(|h| h.df as f64),
            "breusch_pagan" => fit.tests.breusch_pagan.as_ref().map(|t| t.statistic),
            "theta_min" => fit.theta_summary.as_ref().map(|t| t.min).or(fit.theta),
            "theta_max" => fit.theta_summary.as_ref().map(|t| t.max).or(fit.theta),
            "nobs" => Some(fit.nobs as f64),
            "n_entities" => Some(fit.n_entities as f64),
            // linearmodels' own within R² (same definition for fe; checked via r2_within)
            "r2_within_lm" => return None,
            other => panic!("{golden}: unknown golden key {other}"),
        };
        Some((actual, TOLERANCES.se))
    });
    assert!(compared > 0);
    compared
}

fn check_linear_suite(data: &PanelData, name: &str) {
    use Estimator::*;
    use VcovKind::*;
    let cases = [
        (Pooled, Iid, "pooled.iid"),
        (Pooled, Hc1, "pooled.hc1"),
        (Pooled, Cluster, "pooled.cluster"),
        (Fe, Iid, "fe.iid"),
        (Fe, Hc1, "fe.hc1"),
        (Fe, Cluster, "fe.cluster"),
        (Twfe, Iid, "twfe.iid"),
        (Twfe, Cluster, "twfe.cluster"),
        (Re, Iid, "re.iid"),
        (Re, Cluster, "re.cluster"),
        (Cre, Iid, "cre.iid"),
        (Be, Iid, "be.iid"),
        (Fd, Iid, "fd.iid"),
        (Fd, Cluster, "fd.cluster"),
    ];
    for (estimator, vcov, case) in cases {
        check(&fit(data, estimator, vcov), &format!("{name}.{case}"));
    }
}

#[test]
fn every_linear_model_on_the_balanced_wage_panel_matches_linearmodels() {
    check_linear_suite(&wage(), "wage");
}

#[test]
fn every_linear_model_on_jobtraining_with_missing_values_matches_linearmodels() {
    check_linear_suite(&jobtraining(), "jobtraining");
}

#[test]
fn every_linear_model_on_unbalanced_grunfeld_matches_linearmodels() {
    check_linear_suite(&grunfeld_unbalanced(), "grunfeld_unbalanced");
}

#[test]
fn time_invariant_regressors_are_dropped_from_fe_with_the_reason_and_kept_by_re() {
    let fe = fit(&wage(), Estimator::Fe, VcovKind::Cluster);
    let dropped: Vec<&str> = fe.dropped_terms.iter().map(|d| d.term.as_str()).collect();
    assert_eq!(dropped, ["educ", "black"]);
    assert!(fe.dropped_terms[0]
        .reason
        .to_string()
        .contains("does not vary within entities"));
    assert!(fe.dropped_terms[0].reason.to_string().contains("`cre`"));
    let re = fit(&wage(), Estimator::Re, VcovKind::Cluster);
    assert!(re.coefficient("educ").is_some() && re.dropped_terms.is_empty());
}

#[test]
fn random_effects_of_time_invariant_regressors_have_no_within_r2() {
    // educ and black never change within a man: x'β has no within variation, so its within
    // correlation with y is undefined (plm reports none); it was rounding noise (~1e-34).
    let invariant =
        read_table("golden/data/wage_panel.csv").panel("nr", "year", "lwage", &["educ", "black"]);
    let re = fit(&invariant, Estimator::Re, VcovKind::Cluster);
    assert_eq!(re.r2_within, None);
    assert!(re.r2_between.unwrap() > 0.01 && re.r2_overall.unwrap() > 0.01);
    // One regressor that varies within men gives it back.
    let re_all = fit(&wage(), Estimator::Re, VcovKind::Cluster);
    assert!(re_all.r2_within.unwrap() > 0.01);
}

#[test]
fn a_regressor_collinear_with_the_year_effects_is_named_by_twfe() {
    // exper rises by exactly one a year for every man in wage_panel
    let twfe = fit(&wage(), Estimator::Twfe, VcovKind::Iid);
    let exper = twfe
        .dropped_terms
        .iter()
        .find(|d| d.term == "exper")
        .unwrap();
    assert!(
        exper
            .reason
            .to_string()
            .contains("collinear with the year effects"),
        "{}",
        exper.reason
    );
}

#[test]
fn rows_with_missing_values_are_counted_and_listed_by_line() {
    let table = read_table("golden/data/jobtraining.csv");
    let fe = fit(&jobtraining(), Estimator::Fe, VcovKind::Iid);
    // every excluded row has a missing value in one of the model's columns, and its line
    let missing_lines: Vec<usize> = (0..table.rows.len())
        .filter(|&i| {
            ["lscrap", "hrsemp", "grant", "lemploy", "union"]
                .iter()
                .any(|c| table.rows[i][table.index(c)].is_empty())
        })
        .map(|i| i + 2)
        .collect();
    let listed: Vec<usize> = fe.excluded_rows.iter().map(|r| r.row).collect();
    assert_eq!(listed, missing_lines);
    assert_eq!(fe.rows_excluded, missing_lines.len());
    assert_eq!(fe.nobs + fe.rows_excluded, table.rows.len());
    assert!(fe.excluded_rows[0]
        .reason
        .to_string()
        .starts_with("missing value in `"));
}

#[test]
fn poisson_fe_matches_statsmodels_glm_with_entity_dummies() {
    let counts = read_table("golden/data/grunfeld_counts.csv");
    let grunfeld_counts = counts
        .panel("firm", "year", "invest_count", &["value"])
        .with_exposure(imr_models::Column::new(
            "capital",
            counts.numbers("capital"),
        ));
    let jobs = read_table("golden/data/jobtraining.csv").panel(
        "fcode",
        "year",
        "employ",
        &["grant", "d88", "d89"],
    );
    for (data, name) in [
        (&grunfeld_counts, "grunfeld_counts"),
        (&jobs, "jobtraining"),
    ] {
        for vcov in [VcovKind::Iid, VcovKind::Cluster] {
            check(
                &fit(data, Estimator::PoissonFe, vcov),
                &format!("{name}.poisson.{}", vcov.name()),
            );
        }
    }
}
