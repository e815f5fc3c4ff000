//! Tests of note.rs.

use super::*;

fn all() -> Vec<Note> {
    let flagged = vec![("gini".to_string(), vec![2020, 2021])];
    vec![
        Note::RateAreas {
            unit: Unit::PerLiveBirths { per: 1000.0 },
        },
        Note::ValueAreas {
            value: Quantity::Column("ingreso".into()),
            weight: Quantity::Column("poblacion".into()),
        },
        Note::UnweightedQuantiles,
        Note::NoBootstrap,
        Note::BootstrapIntervals {
            percent: 95.0,
            replicates: 200,
            method: BootstrapMethod::PoissonDeaths,
            seed: 7,
        },
        Note::BootstrapIntervals {
            percent: 95.0,
            replicates: 200,
            method: BootstrapMethod::ResampleAreas,
            seed: 7,
        },
        Note::DerivedDeaths,
        Note::Trend { percent: 95.0 },
        Note::ZeroWeightRows {
            weight: Quantity::Births,
            rows: vec![(2, 2019)],
        },
        Note::InflatedInequality {
            kind: SubjectKind::Rate,
            measures: flagged.clone(),
            example: Some(BiasExample {
                key: "gini".into(),
                time: 2020,
                observed: 0.3,
                bias_corrected: 0.2,
                percentile: [0.3, 0.4],
                ci: [0.2, 0.3],
            }),
        },
        Note::InflatedInequality {
            kind: SubjectKind::Value,
            measures: flagged.clone(),
            example: None,
        },
        Note::ShiftedReplicates { measures: flagged },
        Note::NotAvailable {
            key: "mld".into(),
            why: crate::Reason::Undefined(crate::Unavailable::ZeroValues { count: 1 }),
            years: vec![2019, 2020],
        },
        Note::RowsLeftOut { count: 3 },
        Note::RepeatedYearsLeftOut {
            years: vec![crate::report::RepeatedYear {
                time: 2022,
                repeat_of: 2021,
            }],
        },
    ]
}

#[test]
fn every_note_renders_in_both_languages_and_they_differ() {
    for n in all() {
        let (en, es) = (n.render(Lang::En), n.render(Lang::Es));
        assert!(!en.is_empty() && !es.is_empty());
        assert_ne!(en, es, "{en}");
        assert_eq!(n.to_string(), en);
        assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
        // No machine key in a reader's sentence ("en rows_not_measured").
        assert_eq!(imr_lang::bare_keys(&es), Vec::<String>::new(), "{es}");
    }
}

#[test]
fn the_spanish_notes_use_the_public_health_register() {
    let rate = Note::RateAreas {
        unit: Unit::PerLiveBirths { per: 1000.0 },
    };
    assert_eq!(
        rate.render(Lang::Es),
        "Se consideran las comunas con nacidos vivos > 0 en el año; las tasas son por 1.000 nacidos vivos. Las medidas ponderadas usan la proporción de nacidos vivos."
    );
    assert_eq!(
        rate.to_string(),
        "Areas are those with births > 0 in the year; rates are per 1,000 live births. Weighted measures use birth shares."
    );
    assert!(Note::DerivedDeaths
        .render(Lang::Es)
        .contains("intervalos de Poisson son aproximados"));
    assert_eq!(
        serde_json::to_string(&Note::NoBootstrap).unwrap(),
        "\"No bootstrap replicates were asked for: no intervals.\""
    );
}
