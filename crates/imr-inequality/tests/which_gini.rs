//! The note that says which of a year's three Ginis to quote names the adjusted one with the
//! numbers the report holds, and the observed and bias-corrected ones as what they are.

mod common;

use common::fixture_rates;
use imr_inequality::adjusted::AdjustedMeasure;
use imr_inequality::answer::which_gini_to_quote;
use imr_inequality::{BootstrapSpec, InequalitySpec, Lang, Measure};

#[test]
fn the_note_quotes_the_adjusted_gini_of_the_last_year_and_says_what_the_others_are() {
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 200,
            seed: 42,
            level: 0.95,
        },
    };
    let report = spec.analyse(&fixture_rates(false, false)).unwrap().report;
    let last = report
        .years
        .iter()
        .rev()
        .find(|y| y.adjusted_year().is_some())
        .expect("the fixture has adjusted years");
    let es = which_gini_to_quote(&report, Lang::Es).unwrap();
    let d3 = |x: f64| Lang::Es.decimal_signed(x, 3);
    let adjusted = last.adjusted_year().unwrap().value(AdjustedMeasure::Gini);
    let observed = last.measures.get(Measure::Gini).unwrap();
    let corrected = last.bias_corrected(Measure::Gini).unwrap();
    assert!(
        es.starts_with(&format!(
            "¿Qué Gini citar? El ajustado por el azar: en {}, ",
            last.time()
        )),
        "{es}"
    );
    // Each number the note gives is the report's, in its place.
    assert!(
        es.contains(&d3(adjusted)) || es.contains("indistinguible de cero"),
        "{es}"
    );
    assert!(
        es.contains(&format!("El observado ({})", d3(observed))),
        "{es}"
    );
    assert!(
        es.contains(&format!("El corregido por sesgo ({})", d3(corrected))),
        "{es}"
    );
    // "and so is larger" is a claim, made only where it holds.
    assert_eq!(
        es.contains("y por eso es mayor"),
        observed > adjusted,
        "{es}"
    );
    let en = which_gini_to_quote(&report, Lang::En).unwrap();
    assert!(
        en.starts_with("Which Gini to quote? The one adjusted for chance"),
        "{en}"
    );
}

/// With too few communes no year is measured: the view's answer says why, where the answer
/// would stand (a 5-commune file went from the title straight to the controls).
#[test]
fn with_too_few_communes_the_answer_says_why_there_is_none() {
    use imr_inequality::answer::{answer, no_answer_reason};
    use imr_inequality::{AreaObservation, RateInput, Subject};
    let mut entities: Vec<String> = common::fixture_rows()
        .into_iter()
        .map(|r| r.entity)
        .collect();
    entities.sort();
    entities.dedup();
    entities.truncate(5);
    let obs = common::fixture_rows()
        .into_iter()
        .filter(|r| entities.contains(&r.entity))
        .map(|r| AreaObservation {
            entity: r.entity,
            time: r.time,
            events: r.deaths,
            exposure: r.births,
            group: None,
            rank: None,
            events_range: None,
        })
        .collect();
    let subject = Subject::Rates(RateInput::per_1000(obs, false));
    let report = InequalitySpec::default().analyse(&subject).unwrap().report;
    assert!(answer(&report).is_none());
    let es = no_answer_reason(&report, Lang::Es).unwrap();
    assert!(
        es.starts_with("No se puede separar la desigualdad real del azar en "),
        "{es}"
    );
    assert!(es.contains("comunas con nacimientos"), "{es}");
    assert!(which_gini_to_quote(&report, Lang::Es).is_none());
    // With adjusted years there is an answer and no reason.
    let full = InequalitySpec::default()
        .analyse(&fixture_rates(false, false))
        .unwrap()
        .report;
    assert!(no_answer_reason(&full, Lang::Es).is_none());
}
