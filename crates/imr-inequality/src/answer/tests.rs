//! The answer's sentence and chart on known reports.

use super::*;
use crate::adjusted::TrendMethod;

#[test]
fn the_answer_speaks_both_languages_with_its_numbers() {
    let a = Answer {
        first: YearValue {
            time: 2019,
            value: 0.05,
            ci: [0.0, 0.1],
            range: Some([0.01, 0.05]),
            range_ci: Some([0.0, 0.1]),
        },
        last: Some(YearValue {
            time: 2023,
            value: 0.12,
            ci: [0.05, f64::INFINITY],
            range: Some([0.02, 0.12]),
            range_ci: Some([0.0, f64::INFINITY]),
        }),
        trend: Some(AdjustedTrend {
            slope: 0.02,
            ci_low: -0.007,
            ci_high: 0.055,
            n_years: 5,
            method: TrendMethod::InverseVarianceWls,
        }),
        noise_share: Some(0.557),
        noise_share_range: None,
        approximate: true,
        births_ratio: Some(BirthsRatioRange::default()),
    };
    let en = a.render(Lang::En);
    // The verdict first, then the two years, then the trend it rests on.
    assert!(
        en.starts_with("No clear change: between 2019 and 2023"),
        "{en}"
    );
    // 2019's interval reaches zero: indistinguishable from zero, as the Findings say of such a
    // year, whatever its estimate (0.050 beside "0.000–0.100" read as a measured inequality).
    assert!(en.contains(
        "was indistinguishable from zero (it could reach 0.100) in 2019 and 0.120 (95% CI from 0.050, no upper limit) in 2023; its trend (0.0200 a year; 95% CI −0.0070 to 0.0550) is not distinguishable from zero."
    ), "{en}");
    assert!(
        en.contains("(from 70% to 100% of the births given)"),
        "{en}"
    );
    assert!(en.contains("the Gini is between 0.010 and 0.050 in 2019 and is between 0.020 and 0.120 in 2023 (95% CI of range and chance together: 0.000–0.100 and from 0.000, no upper limit)"), "{en}");
    assert!(en.contains("About 56% of the observed inequality (2023)"));
    assert!(en.contains("Approximate"));
    let es = a.render(Lang::Es);
    assert!(
        es.starts_with("Sin cambio claro: entre 2019 y 2023"),
        "{es}"
    );
    // Plain words in the headline: the measure's name is in the fold ([`method`]), not here.
    assert!(
        es.contains("ajustada por el azar de las comunas pequeñas, fue indistinguible de cero"),
        "{es}"
    );
    assert!(
        en.contains("adjusted for the chance of small communes, was indistinguishable"),
        "{en}"
    );
    for text in [&es, &en] {
        assert!(
            !text.contains("ponderado") && !text.contains("weighted"),
            "{text}"
        );
    }
    assert!(method(Lang::Es).contains("Gini ponderado por nacimientos"));
    assert!(method(Lang::En).contains("birth-weighted Gini"));
    assert!(imr_lang::english_words(method(Lang::Es)).is_empty());
    assert!(
        es.contains("fue indistinguible de cero (podría llegar a 0,100) en 2019 y 0,120 (IC 95%: desde 0,050, sin límite superior) en 2023; su tendencia (0,0200 por año; IC 95%: −0,0070 a 0,0550) no se distingue de cero."),
        "{es}"
    );
    // Two years: the change between them, no trend and no verdict of a rise.
    let two = Answer {
        trend: Some(AdjustedTrend {
            n_years: 2,
            ci_low: 0.004,
            ..a.trend.unwrap()
        }),
        ..a
    };
    let es2 = two.render(Lang::Es);
    assert!(es2.starts_with("Solo dos años: entre 2019 y 2023"), "{es2}");
    assert!(es2.contains("con dos años hay un cambio, no una tendencia: de uno al otro, 0,0200 por año (IC 95%: 0,0040 a 0,0550)."), "{es2}");
    assert!(!es2.contains("Aumentó") && !es2.contains("tendencia es"));
    let en2 = Answer {
        trend: Some(AdjustedTrend {
            n_years: 2,
            ..a.trend.unwrap()
        }),
        ..a
    }
    .render(Lang::En);
    assert!(en2.contains("from one to the other, 0.0200 a year (95% CI −0.0070 to 0.0550), not distinguishable from zero."), "{en2}");
    // A year whose interval reaches zero is said in words, never "0,000" alone; a clear
    // fall is said first.
    let zero = Answer {
        first: YearValue {
            ci: [0.0, 0.123],
            value: 0.0,
            ..a.first
        },
        trend: Some(AdjustedTrend {
            slope: -0.01,
            ci_low: -0.02,
            ci_high: -0.001,
            ..a.trend.unwrap()
        }),
        births_ratio: None,
        ..a.clone()
    };
    let es = zero.render(Lang::Es);
    assert!(es.starts_with("Disminuyó: entre 2019 y 2023"), "{es}");
    assert!(
        es.contains("fue indistinguible de cero (podría llegar a 0,123) en 2019"),
        "{es}"
    );
    assert!(
        es.contains("no distinguen diferencias reales entre comunas más allá del azar"),
        "{es}"
    );
    assert!(!es.contains("0,000 (IC"), "{es}");
    let es = a.render(Lang::Es);
    assert!(es.contains("Cerca del 56%"));
    assert!(
        es.contains("el Gini está entre 0,010 y 0,050 en 2019 y está entre 0,020 y 0,120 en 2023"),
        "{es}"
    );
    assert!(es.contains("desde 0,050, sin límite superior"), "{es}");
    // A range from zero is said as its upper end, never "entre 0,000 y 0,009".
    let from_zero = Answer {
        first: YearValue {
            range: Some([0.0, 0.009]),
            ..a.first
        },
        ..a
    };
    let es = from_zero.render(Lang::Es);
    assert!(
        es.contains("el Gini no pasa de 0,009 en 2019 y está entre 0,020 y 0,120 en 2023"),
        "{es}"
    );
    assert!(!es.contains("entre 0,000"), "{es}");
    assert!(from_zero
        .render(Lang::En)
        .contains("the Gini is at most 0.009 in 2019"));
}

#[test]
fn an_adjusted_cell_at_zero_is_said_in_words() {
    // The retest's cell "0,000 / 0,000 – 0,115".
    let (head, limit) = zero_cell_words(Lang::Es, [0.0, 0.1149], 3, 0.0).unwrap();
    assert_eq!(head, "indistinguible de cero");
    assert_eq!(limit, "podría llegar a 0,115");
    let (head, limit) = zero_cell_words(Lang::En, [0.0, 0.1149], 3, 0.0).unwrap();
    assert_eq!(
        (head.as_str(), limit.as_str()),
        ("indistinguishable from zero", "could reach 0.115")
    );
    // An estimate that shows (2021's 0,038) with an interval from zero: in words too, as the
    // answer says it (the table kept "0,038 / 0,000 – 0,123" beside "indistinguible de cero").
    assert_eq!(
        zero_cell_words(Lang::Es, [0.0, 0.123], 3, 0.0),
        Some((
            "indistinguible de cero".to_owned(),
            "podría llegar a 0,123".to_owned()
        ))
    );
    // An interval off zero or open: the numbers.
    assert_eq!(zero_cell_words(Lang::Es, [0.001, 0.1], 3, 0.0), None);
    assert_eq!(
        zero_cell_words(Lang::Es, [0.0, f64::INFINITY], 3, 0.0),
        None
    );
    // The P90/P10 ratio is 1 without inequality: its cell of the same year says so (it kept
    // "1,73 / 1,00 – 3,21" beside cells saying "indistinguible de cero").
    let equal = crate::adjusted::AdjustedMeasure::P90P10.of_theta(0.0);
    assert_eq!(equal, 1.0);
    assert_eq!(
        zero_cell_words(Lang::Es, [1.0, 3.214], 2, equal),
        Some((
            "indistinguible de 1".to_owned(),
            "podría llegar a 3,21".to_owned()
        ))
    );
    assert_eq!(zero_cell_words(Lang::Es, [1.02, 3.2], 2, equal), None);
    // Every other adjusted measure is 0 without inequality.
    for m in crate::adjusted::AdjustedMeasure::ALL {
        let at_zero = m.of_theta(0.0);
        assert!(
            at_zero == 0.0 || m == crate::adjusted::AdjustedMeasure::P90P10,
            "{m:?}"
        );
    }
}
