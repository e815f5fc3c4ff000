//! Golden tests on the Grunfeld panel against published values (`tests/reference/README.md`:
//! R plm and Stata `xtreg`). The reference figures are printed with 6–8 significant digits, so
//! the tolerance is half a unit in the last printed digit.

mod common;
use common::{assert_close, fit, grunfeld};
use imr_models::{Estimator, PanelSpec, VcovKind};

/// Relative tolerance matching numbers printed with about seven significant digits.
const PRINTED: f64 = 5e-7;

#[test]
fn within_estimates_and_classical_errors_match_plm_and_stata() {
    // R plm(model = "within"); Stata xtreg, fe: value 0.1101238 (0.0118567), capital 0.3100653 (0.0173545)
    let fit = fit(&grunfeld(), Estimator::Fe, VcovKind::Iid);
    let value = fit.coefficient("value").unwrap();
    let capital = fit.coefficient("capital").unwrap();
    assert_close("value", value.estimate, 0.1101238, PRINTED);
    assert_close("value se", value.std_error, 0.0118567, 5e-6);
    assert_close("capital", capital.estimate, 0.3100653, PRINTED);
    assert_close("capital se", capital.std_error, 0.0173545, 5e-6);
    assert_eq!(fit.inference.df, Some(188));
    assert!(fit.coefficient("(Intercept)").is_none());
}

#[test]
fn within_clustered_errors_match_stata_cr1_with_k_plus_one() {
    // Stata xtreg, fe vce(cluster firm): value SE 0.0151945, capital SE 0.0527518; df = G − 1 = 9
    let fit = fit(&grunfeld(), Estimator::Fe, VcovKind::Cluster);
    for (term, expected) in [("value", 0.0151945), ("capital", 0.0527518)] {
        let se = fit.coefficient(term).unwrap().std_error;
        assert_close(&format!("{term} se"), se, expected, 5e-6);
    }
    assert_eq!(fit.inference.df, Some(9));
}

#[test]
fn f_test_of_entity_effects_matches_plm() {
    // R plm pFtest: F = 49.177 on (9, 188)
    let fit = fit(&grunfeld(), Estimator::Fe, VcovKind::Iid);
    let f = fit.tests.f_effects.as_ref().unwrap();
    assert_close("F", f.statistic, 49.177, 1e-5);
    assert_eq!((f.df1, f.df2), (9, 188));
}

#[test]
fn random_effects_swamy_arora_matches_plm() {
    // R plm(model = "random"): (Intercept) −57.834415, value 0.109781, capital 0.308113;
    // σ²_u = 7089.80, σ²_e = 2784.46, θ = 0.8612
    let fit = fit(&grunfeld(), Estimator::Re, VcovKind::Iid);
    for (term, expected, tol) in [
        ("(Intercept)", -57.834415, 1e-8),
        ("value", 0.109781, 5e-6),
        ("capital", 0.308113, 5e-6),
    ] {
        let estimate = fit.coefficient(term).unwrap().estimate;
        assert_close(term, estimate, expected, tol);
    }
    assert_close("sigma2_u", fit.sigma2_u.unwrap(), 7089.80, 1e-6);
    assert_close("sigma2_e", fit.sigma2_e.unwrap(), 2784.46, 2e-6);
    assert_close("theta", fit.theta.unwrap(), 0.8612, 1e-4);
    assert_eq!(fit.inference.distribution, "z");
}

#[test]
fn hausman_and_breusch_pagan_match_plm() {
    // R plm phtest: χ²(2) = 2.3303669; plmtest(type = "bp"): LM = 798.16155
    let fit = fit(&grunfeld(), Estimator::Re, VcovKind::Iid);
    let h = fit.tests.hausman.as_ref().unwrap();
    assert_close("Hausman", h.statistic, 2.3303669, PRINTED);
    assert_eq!(h.df, 2);
    let bp = fit.tests.breusch_pagan.as_ref().unwrap();
    assert_close("BP LM", bp.statistic, 798.16155, PRINTED);
    // the fe fit reports the same Hausman statistic
    let fe = PanelSpec::new(Estimator::Fe).fit(&grunfeld()).unwrap();
    assert_close(
        "Hausman from fe",
        fe.tests.hausman.unwrap().statistic,
        2.3303669,
        PRINTED,
    );
}
