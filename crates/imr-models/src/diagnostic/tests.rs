//! The diagnostics' words in both languages.

use super::*;

fn all() -> Vec<Diagnostic> {
    let names = |n: usize| (1..=n).map(|i| format!("e{i}")).collect::<Vec<_>>();
    vec![
        Diagnostic::RowsExcluded {
            rows: (1..=12).collect(),
        },
        Diagnostic::ExposureIgnored {
            estimator: Estimator::Fe,
        },
        Diagnostic::NoExposure,
        Diagnostic::Singletons { entities: names(1) },
        Diagnostic::HausmanWeighted,
        Diagnostic::HausmanUnavailable {
            why: crate::ModelError::NotEnoughData(crate::NotEnoughData::OutcomeAllZero {
                outcome: "defunciones".into(),
            }),
        },
        Diagnostic::FirstDifferences {
            differences: 9,
            rows: 12,
            after_gap: 1,
        },
        Diagnostic::NoConsecutivePeriods { entities: names(7) },
        Diagnostic::UnbalancedTheta,
        Diagnostic::NegativeSigmaU { value: -0.139187 },
        Diagnostic::PoissonConverged { iterations: 4 },
        Diagnostic::AllZeroEntities {
            outcome: "deaths".into(),
            entities: names(2),
        },
        Diagnostic::SingleRowEntities { entities: names(2) },
        Diagnostic::ZeroOutcomeRowsRemoved {
            outcome: "deaths".into(),
            rows: 4,
        },
        Diagnostic::SingletonsRemoved { rows: 3 },
        Diagnostic::AbsorbedEffects {
            effects: vec![("comuna".into(), 345), ("region^anio".into(), 320)],
        },
    ]
}

/// A reader whose words for `deaths` are the page's.
fn reader(lang: Lang) -> Reader {
    Reader::new(lang, |lang, name| match name {
        "deaths" => lang.pick("Defunciones", "Deaths").to_owned(),
        other => other.to_owned(),
    })
}

#[test]
fn every_diagnostic_renders_in_both_languages_and_they_differ() {
    for d in all() {
        let (en, es) = (d.render(reader(Lang::En)), d.render(reader(Lang::Es)));
        assert!(!en.is_empty() && !es.is_empty());
        assert_ne!(en, es, "{en}");
        assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
        assert_eq!(imr_lang::decimal_points(&es), Vec::<String>::new(), "{es}");
        for words in [&en, &es] {
            // A model error's English is what imr prints, names in back-ticks (error/).
            let error = words == &en && matches!(d, Diagnostic::HausmanUnavailable { .. });
            assert!(
                error || !words.contains('`'),
                "an internal name in back-ticks: {words}"
            );
            assert!(!words.contains("(s)") && !words.contains("(es)"), "{words}");
            assert!(!words.contains("excluded_rows"), "{words}");
        }
    }
}

#[test]
fn a_negative_variance_is_a_plain_number_in_the_readers_notation() {
    // The Spanish page wrote "(-1,3919e-1)": a hyphen and a power of ten for −0.139.
    let negative = Diagnostic::NegativeSigmaU { value: -0.139187 };
    assert!(negative
        .render(reader(Lang::Es))
        .contains("negativa (−0,1392);"));
    assert!(negative
        .render(reader(Lang::En))
        .contains("negative (−0.1392);"));
    let tiny = Diagnostic::NegativeSigmaU { value: -1.39187e-7 };
    assert!(tiny.render(reader(Lang::Es)).contains("(−1,392e-7)"));
    // The JSON keeps the machine's form.
    assert!(negative.to_string().contains("(-1.3919e-1)"));
}

#[test]
fn counts_are_grouped_and_agree_in_number() {
    let many = Diagnostic::RowsExcluded {
        rows: (1..=4144).collect(),
    };
    assert_eq!(
        many.render(reader(Lang::Es)),
        "4.144 filas excluidas por valores faltantes o no utilizables (filas 1, 2, 3, 4, 5, \
         6, 7, 8, 9, 10 y 4.134 más); cada una figura con su motivo en la lista de filas \
         excluidas"
    );
    assert_eq!(
        many.render(reader(Lang::En)),
        "4,144 rows excluded for missing or unusable values (rows 1, 2, 3, 4, 5, 6, 7, 8, 9, \
         10 and 4,134 more); each is listed with its reason among the excluded rows"
    );
    let one = Diagnostic::RowsExcluded { rows: vec![7] };
    assert!(one
        .render(reader(Lang::Es))
        .starts_with("1 fila excluida por valores faltantes o no utilizables (fila 7);"));
    assert!(one
        .render(reader(Lang::En))
        .starts_with("1 row excluded for missing or unusable values (row 7);"));
    assert_eq!(
        Diagnostic::PoissonConverged { iterations: 1 }.render(reader(Lang::Es)),
        "el modelo de Poisson convergió en 1 iteración de Newton"
    );
    assert_eq!(
        Diagnostic::PoissonConverged { iterations: 4 }.render(reader(Lang::En)),
        "the Poisson model converged in 4 Newton iterations"
    );
    assert_eq!(
        Diagnostic::SingletonsRemoved { rows: 1200 }.render(reader(Lang::Es)),
        "1.200 observaciones eliminadas por quedar solas en su nivel de un efecto fijo \
         (repetidamente, como fixest y pyfixest); cada una figura con su motivo en la lista \
         de filas excluidas"
    );
}

#[test]
fn columns_are_said_in_the_readers_words() {
    let d = Diagnostic::AllZeroEntities {
        outcome: "deaths".into(),
        entities: vec!["01101".into()],
    };
    assert_eq!(
        d.render(reader(Lang::Es)),
        "1 entidad excluida por tener «Defunciones» = 0 en todos los períodos: 01101"
    );
    let effects = Diagnostic::AbsorbedEffects {
        effects: vec![("commune".into(), 345), ("region^year".into(), 1)],
    };
    assert_eq!(
        effects.render(reader(Lang::Es)),
        "efectos fijos absorbidos: «commune» (345 niveles) y «region» × «year» (1 nivel)"
    );
    assert_eq!(
        Diagnostic::NoConsecutivePeriods {
            entities: (1..=7).map(|i| format!("e{i}")).collect()
        }
        .render(reader(Lang::Es)),
        "7 entidades sin dos períodos consecutivos no aportan diferencias: e1, e2, e3, e4, \
         e5 y 2 más"
    );
}

#[test]
fn the_json_keeps_its_english_sentences_word_for_word() {
    assert_eq!(
        Diagnostic::RowsExcluded {
            rows: (1..=12).collect()
        }
        .to_string(),
        "12 row(s) excluded for missing or unusable values (rows 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 2 more); see excluded_rows"
    );
    assert_eq!(
        Diagnostic::PoissonConverged { iterations: 4 }.to_string(),
        "poisson-fe converged in 4 Newton iteration(s)"
    );
    assert_eq!(
        Diagnostic::NoConsecutivePeriods {
            entities: (1..=7).map(|i| format!("e{i}")).collect()
        }
        .to_string(),
        "7 entities without two consecutive periods contribute no difference: `e1`, `e2`, `e3`, `e4`, `e5`, and 2 more"
    );
    assert_eq!(
        Diagnostic::AbsorbedEffects {
            effects: vec![("commune".into(), 345), ("region^year".into(), 320)],
        }
        .to_string(),
        "absorbed fixed effects (levels): `commune` (345), `region^year` (320)"
    );
    assert_eq!(
        serde_json::to_string(&Diagnostic::HausmanWeighted).unwrap(),
        "\"the Hausman test is not computed for weighted fits\""
    );
}
