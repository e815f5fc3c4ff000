//! Tests of model_words.rs.

use super::*;
use crate::request::FitRequest;

#[test]
fn numbers_take_the_languages_decimal_mark() {
    assert_eq!(number_in(Lang::En, 0.07634), "0.07634");
    assert_eq!(number_in(Lang::Es, 0.07634), "0,07634");
    assert_eq!(opt_number_in(Lang::Es, None), "—");
    assert_eq!(number_in(Lang::Es, -0.07634), "−0,07634");
    assert_eq!(number_in(Lang::En, -0.07634), "−0.07634");
}

#[test]
fn the_engines_remarks_name_columns_in_words_with_grouped_counts() {
    use imr_models::{Diagnostic, ExclusionReason, ValueProblem};
    let missing = ExclusionReason::Values(vec![ValueProblem::MissingValue {
        columns: vec!["rate".into(), "births".into()],
    }]);
    assert_eq!(
        missing.render(reader(Lang::Es)),
        "falta el valor de «Tasa de mortalidad infantil (por 1.000 nacidos vivos)» y \
         «Nacimientos»"
    );
    assert_eq!(missing.to_string(), "missing value in `rate`, `births`");
    let effects = Diagnostic::AbsorbedEffects {
        effects: vec![("entity".into(), 4144), ("time".into(), 1)],
    };
    assert_eq!(
        effects.render(reader(Lang::Es)),
        "efectos fijos absorbidos: «Entidad» (4.144 niveles) y «Período» (1 nivel)"
    );
    assert_eq!(
        effects.render(reader(Lang::En)),
        "absorbed fixed effects: “Entity” (4,144 levels) and “Period” (1 level)"
    );
}

#[test]
fn five_percent_is_the_line_between_the_verdicts() {
    assert_eq!(p_words(Lang::En, 0.0499), "rejected at 5%");
    assert_eq!(p_words(Lang::En, 0.05), "not rejected at 5%");
    assert_eq!(p_words(Lang::Es, 0.01), "se rechaza al 5%");
    assert_eq!(p_words(Lang::En, f64::NAN), "not rejected at 5%");
    // A p-value below one in a thousand is "< 0,001", not "8,076e-10".
    assert_eq!(p_text(Lang::Es, 8.076e-10), "< 0,001");
    assert_eq!(p_text(Lang::En, 4.125e-6), "< 0.001");
    assert_eq!(p_text(Lang::Es, 0.0763), "= 0,07630");
}

#[test]
fn the_diagnostics_of_a_random_effects_fit_read_in_each_language() {
    let csv = "comuna,anio,nacimientos,defunciones,pobreza,sapu\n\
               01101,2019,1000,8,10,1\n01101,2020,1100,7,9,1\n01101,2021,1050,9,8.5,1\n\
               05101,2019,500,4,20,0\n05101,2020,520,6,19,0\n05101,2021,510,2,18.5,0\n\
               13101,2019,3000,18,5,1\n13101,2020,3100,20,6,1\n13101,2021,2950,15,5.5,1\n\
               08101,2019,2000,14,12,0\n08101,2020,1900,10,13,0\n08101,2021,1950,12,12.5,0\n";
    let panel = crate::test_support::panel_of(csv);
    let request = FitRequest {
        x: vec!["pobreza".into(), "sapu".into()],
        weights: Some("births".into()),
        ..FitRequest::default()
    };
    let re = request
        .for_model(Estimator::Re)
        .run(&panel)
        .expect("re fits");
    let en = diagnostic_lines(Lang::En, &re, true);
    assert_eq!(
        en[0],
        "12 observations of 4 entities over 3 periods; inference: normal (z)."
    );
    assert!(en
        .iter()
        .any(|l| l.starts_with("Weights are not available for re")));
    assert!(en.iter().any(|l| l.starts_with("Breusch–Pagan LM (H0: ")));
    let es = diagnostic_lines(Lang::Es, &re, false);
    assert!(es[0].starts_with("12 observaciones de 4 entidades en 3 períodos"));
    // Hausman: no evidence against random effects is not proof that they hold (as the
    // Findings say of the same test), nor a claim that they are consistent.
    let hausman = (es.iter().find(|l| l.contains("Hausman"))).expect("a Hausman line");
    assert!(
        hausman.contains("eso no prueba que sean válidos")
            || hausman.contains("prefiera efectos fijos"),
        "{hausman}"
    );
    assert!(
        !hausman.contains("consistente y más eficiente"),
        "{hausman}"
    );
    // one entity, one period: said in the singular
    let one = Fit {
        n_entities: 1,
        n_periods: 1,
        ..re.clone()
    };
    let first = |lang| diagnostic_lines(lang, &one, false).remove(0);
    assert!(first(Lang::Es).starts_with("12 observaciones de 1 entidad en 1 período;"));
    assert!(first(Lang::En).starts_with("12 observations of 1 entity over 1 period;"));
    assert!(!es.iter().any(|l| l.contains("pesos")));
    // The covariance convention in the page's language, too.
    assert!(es
        .iter()
        .any(|l| l.starts_with("Errores estándar: agrupados por entidad (CR1)")));
    assert!(en
        .iter()
        .any(|l| l.starts_with("Standard errors: clustered by entity (CR1)")));
    // The fe fit drops the time-invariant sapu, with its codebook label.
    let fe = request
        .for_model(Estimator::Fe)
        .run(&panel)
        .expect("fe fits");
    let en = diagnostic_lines(Lang::En, &fe, true);
    assert!(
        en.iter()
            .any(|l| l.starts_with("Dropped term «sapu», ") && l.contains("SAPU")),
        "{en:?}"
    );
    assert!(en.iter().any(|l| l.starts_with("F test of entity effects")));
    // Clustered by entity: t with G − 1 = 3 degrees of freedom.
    assert!(en[0].ends_with("inference: t with 3 df."), "{}", en[0]);
    let es = diagnostic_lines(Lang::Es, &fe, false);
    // One full stop (the abbreviation "g.l." ended in two).
    assert!(
        es[0].ends_with("inferencia: t con 3 grados de libertad."),
        "{}",
        es[0]
    );
}
