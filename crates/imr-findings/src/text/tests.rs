use super::*;
use super::{models::*, place::*};

#[test]
fn too_few_years_are_counted_in_the_singular_and_the_plural() {
    let sentence = |lang, n| {
        trend_sentence(
            lang, "la tasa", "the rate", "", "", n, 2023, 2023, None, None,
        )
    };
    for (lang, n, expected) in [
        (
            Lang::En,
            1,
            "With 1 year, too few years to say whether the rate is falling or rising.",
        ),
        (
            Lang::En,
            0,
            "With 0 years, too few years to say whether the rate is falling or rising.",
        ),
        (
            Lang::Es,
            1,
            "Con 1 año, son muy pocos años para decir si la tasa baja o sube.",
        ),
        (
            Lang::Es,
            2,
            "Con 2 años, son muy pocos años para decir si la tasa baja o sube.",
        ),
    ] {
        assert_eq!(sentence(lang, n), expected);
    }
}

/// Question 4's choice of model says what the Hausman test found, never that it rejected
/// random effects when it did not; and, when random effects estimated no variance between
/// communes, that they are then a pooled comparison of different communes.
#[test]
fn the_model_choice_says_what_the_hausman_test_and_random_effects_found() {
    let term = |estimator, ci: [f64; 2]| crate::ModelTerm {
        column: "pobreza".into(),
        per: 10.0,
        estimate: (ci[0] + ci[1]) / 2.0,
        ci,
        estimator,
    };
    let finding = |p: f64, pooled: bool| ModelsFinding {
        outcome: "rate".into(),
        terms: vec![term(Estimator::Fe, [-0.5, 0.5])],
        random_effects: vec![term(Estimator::Re, [0.1, 0.9])],
        hausman_p: Some(p),
        random_effects_pooled: pooled,
        time_invariant: vec![],
        missing: vec![],
        nobs: 2387,
        n_entities: 344,
    };
    let rejects = model_choice(Lang::Es, &finding(0.01, false)).unwrap();
    assert!(rejects.contains("(p = 0,010) rechaza"), "{rejects}");
    assert!(!rejects.contains("no rechaza"), "{rejects}");
    let keeps = model_choice(Lang::Es, &finding(0.054, true)).unwrap();
    assert!(keeps.contains("(p = 0,054) no rechaza"), "{keeps}");
    assert!(keeps.contains("no prueba que sea válido"), "{keeps}");
    // The term whose interval excludes zero under random effects only is named.
    assert!(
        keeps.contains("cambia la conclusión sobre: 10 puntos porcentuales"),
        "{keeps}"
    );
    assert!(
        keeps.contains("varianza entre comunas igual a cero"),
        "{keeps}"
    );
    let en = model_choice(Lang::En, &finding(0.054, false)).unwrap();
    assert!(
        en.contains("does not reject") && !en.contains("variance between communes of zero"),
        "{en}"
    );
    // The headline's count of observations has its thousands separator.
    let headline = models_answer(Lang::Es, &finding(0.054, false)).headline;
    assert!(
        headline.contains("(2.387 observaciones, 344 comunas)"),
        "{headline}"
    );
}

/// Two communes that would read alike at two decimals are written with three: the ranking never
/// prints equal numbers in different places (the newcomer's "Arauco (9,5) … Cañete (9,5)").
#[test]
fn communes_that_would_read_alike_are_written_with_more_decimals() {
    let commune = |name: &str, rate: f64| crate::CommuneRate {
        entity: name.into(),
        name: Some(name.into()),
        smoothed_per_1000: rate,
        ci: Some([rate - 1.0, rate + 1.0]),
        raw_per_1000: rate,
        births: 1000.0,
    };
    let finding = |rates: &[f64]| WhereFinding {
        first_time: 2001,
        last_time: 2021,
        years: (2001..=2021)
            .filter(|y| ![2016, 2020].contains(y))
            .collect(),
        national_per_1000: 7.65,
        whole_country: true,
        top: rates
            .iter()
            .enumerate()
            .map(|(i, r)| commune(&format!("C{i}"), *r))
            .collect(),
        n_above_national: rates.len(),
        n_communes: 345,
    };
    let tied = where_answer(Lang::Es, &finding(&[10.15, 9.5341, 9.5329])).headline;
    assert!(
        tied.contains("C1 (9,534;") && tied.contains("C2 (9,533;"),
        "{tied}"
    );
    // Otherwise two decimals, as the reference beside them and every rate of the page, in
    // every file's answer (one decimal in one, two in another read as a change of precision).
    let apart = where_answer(Lang::Es, &finding(&[10.15, 9.54, 9.53])).headline;
    assert!(
        apart.contains("C1 (9,54;") && apart.contains("C2 (9,53;") && apart.contains("7,65"),
        "{apart}"
    );
}

/// One commune above the reference is "1 de 345 comunas tiene", never "tienen".
#[test]
fn one_commune_above_takes_the_singular() {
    let one = WhereFinding {
        first_time: 2001,
        last_time: 2021,
        years: (2001..=2021)
            .filter(|y| ![2016, 2020].contains(y))
            .collect(),
        national_per_1000: 7.65,
        whole_country: true,
        top: vec![crate::CommuneRate {
            entity: "08301".into(),
            name: Some("Antuco".into()),
            smoothed_per_1000: 15.3,
            ci: Some([7.5, 25.8]),
            raw_per_1000: 15.3,
            births: 300.0,
        }],
        n_above_national: 1,
        n_communes: 345,
    };
    let es = where_answer(Lang::Es, &one).headline;
    assert!(es.contains("1 de 345 comunas tiene una tasa"), "{es}");
    // The years summed as they are: the two without data are not inside a span.
    assert!(
        es.starts_with("Con 2001–2015, 2017–2019 y 2021 sumados,"),
        "{es}"
    );
    let en = where_answer(Lang::En, &one).headline;
    assert!(en.contains("1 of 345 communes has a rate"), "{en}");
}

/// Every covariate of the study's preset (imr_data::study, the one list of them) has the
/// Findings' words: a sentence never falls back to "unidades más de pobreza".
#[test]
fn every_study_covariate_has_its_words() {
    for c in imr_core::data::study::STUDY_COVARIATES {
        assert!(TERMS.iter().any(|t| t.column == c.column), "{}", c.column);
    }
}

#[test]
fn every_question_has_its_own_title_in_both_languages() {
    for lang in [Lang::Es, Lang::En] {
        let titles: std::collections::BTreeSet<_> = crate::QUESTIONS
            .iter()
            .map(|q| question_title_and_view(lang, q).0)
            .collect();
        assert_eq!(titles.len(), crate::QUESTIONS.len(), "{lang:?}");
    }
}

#[test]
fn a_known_covariate_is_worded_with_its_amount_and_an_unknown_one_by_its_name() {
    assert_eq!(
        term_phrase(Lang::En, "pobreza", 10.0),
        "10 percentage points more income poverty"
    );
    assert_eq!(
        term_phrase(Lang::Es, "dist_hospital_km", 10.0),
        "10 km más de distancia al hospital de segundo o tercer nivel más cercano"
    );
    assert_eq!(
        term_label(Lang::Es, "ingreso_salud_pc", 10.0),
        "Ingreso salud +M$10"
    );
    assert_eq!(term_label(Lang::En, "sapu", 1.0), "SAPU/SAR");
    assert_eq!(
        term_phrase(Lang::Es, "otra", 1.0),
        "1 unidades más de «otra»"
    );
    // A reader's column standing for the study's is hers: named by her name, never by the
    // bundled measure's words ("pobreza por ingresos" of her "Pobreza (%)").
    assert_eq!(
        term_phrase(Lang::Es, "Pobreza (%)", 10.0),
        "10 unidades más de «Pobreza (%)»"
    );
    assert_eq!(term_label(Lang::En, "otra", 1.0), "otra +1");
    // The label's name without its amount, as the time-invariant list writes it.
    let name = |lang, column| term_words(lang, column, "", |t| &t.name);
    assert_eq!(
        name(Lang::En, "dist_hospital_km").as_deref(),
        Some("Hospital dist.")
    );
    assert_eq!(
        name(Lang::Es, "sin_educacion_formal_2017").as_deref(),
        Some("Sin escolaridad")
    );
    for t in &TERMS {
        for (label, name) in t.label.iter().zip(t.name) {
            assert!(label.starts_with(name), "{label} / {name}");
        }
    }
}

/// A coefficient plot draws each study covariate per the change question 4 reports it per
/// (distance per 50 km, not per km, where it was drawn at zero), cre's commune mean of one per
/// the same change, and any other column per unit under its own words.
#[test]
fn a_plot_draws_the_study_covariates_per_question_fours_change() {
    let regressors: Vec<String> = ["pobreza", "dist_hospital_km", "mi_columna"]
        .map(String::from)
        .to_vec();
    let terms = [
        "pobreza",
        "dist_hospital_km",
        "dist_hospital_km_mean",
        "mi_columna",
    ];
    let rows = plot_terms(Lang::Es, terms, &regressors);
    let per = |column: &str| {
        (imr_core::data::study::STUDY_COVARIATES.iter())
            .find(|c| c.column == column)
            .unwrap()
            .per
    };
    assert_eq!(
        rows.changes,
        vec![
            ("pobreza".to_string(), per("pobreza")),
            ("dist_hospital_km".to_string(), 50.0),
            ("dist_hospital_km_mean".to_string(), 50.0),
        ]
    );
    let label = |term: &str| {
        rows.labels
            .iter()
            .find(|(t, _)| t == term)
            .unwrap()
            .1
            .clone()
    };
    assert_eq!(label("dist_hospital_km"), "Dist. hospital +50 km");
    assert_eq!(
        label("dist_hospital_km_mean"),
        "Dist. hospital +50 km, media de la comuna"
    );
    assert_eq!(label("pobreza"), "Pobreza +10 puntos");
    assert_eq!(
        label("mi_columna"),
        imr_core::column_words::term_label(Lang::Es, "mi_columna", &regressors)
    );
}

/// Every number of question 4's terms has the same decimals: the bundled answer read "0,38",
/// "0,383", "1,41", "0,0584" side by side (a newcomer took them for changes of precision).
#[test]
fn question_four_writes_every_term_with_the_same_decimals() {
    let term = |column: &str, estimator, ci: [f64; 2]| crate::ModelTerm {
        column: column.into(),
        per: 10.0,
        estimate: (ci[0] + ci[1]) / 2.0,
        ci,
        estimator,
    };
    let finding = ModelsFinding {
        outcome: "rate".into(),
        terms: vec![
            term("pobreza", Estimator::Re, [-0.357, 1.119]),
            term("gasto_salud_pc", Estimator::Fe, [-0.646, -0.120]),
            term("dist_hospital_km", Estimator::Re, [0.0204, 0.0964]),
        ],
        random_effects: vec![],
        hausman_p: Some(0.24),
        random_effects_pooled: false,
        time_invariant: vec![],
        missing: vec![],
        nobs: 2387,
        n_entities: 344,
    };
    let parts = models_answer(Lang::Es, &finding);
    let text = format!("{} {}", parts.headline, parts.details.join(" "));
    let decimals: std::collections::BTreeSet<usize> = text
        .split(|c: char| !(c.is_ascii_digit() || c == ','))
        .filter_map(|n| n.split_once(',').map(|(_, d)| d.len()))
        .filter(|&d| d > 0)
        .collect();
    assert_eq!(decimals, [3].into(), "{text}");
    assert!(
        text.contains("0,058 por 1.000 (IC 95%: 0,020 a 0,096"),
        "{text}"
    );
}
