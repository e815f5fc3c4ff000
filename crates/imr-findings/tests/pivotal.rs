//! The answer on the reference study says when its verdict rests on a single year (a newcomer
//! read a flat "No" whose interval, −0.0134 to −0.0006, barely missed zero): every year it names
//! changes the verdict when left out alone, and no year it does not name does.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::Lang;
use imr_findings::pivotal::pivotal_years;
use imr_findings::{compute, AdjustedGini, Options, StudyComparison};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2001_2021.csv");

#[test]
fn the_study_answer_names_exactly_the_years_its_verdict_rests_on() {
    let table = RawTable::from_bytes("chile_imr_2001_2021.csv", BUNDLED.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    let f = compute(&panel, &Options::default(), &AdjustedGini::default());
    let study: &StudyComparison = f.study.as_ref().expect("the study's years are there");
    let series = &f.inequality.as_ref().unwrap().series;
    let (first, last) = (study.study.first, study.study.last);
    assert_eq!(study.pivotal_years, pivotal_years(series, first, last));
    let verdict = study.inequality_verdict();
    for y in series
        .years
        .iter()
        .filter(|y| (first..=last).contains(&y.time))
    {
        let mut without = series.clone();
        without.left_out_of_trend.push(y.time);
        let other = StudyComparison::of(
            f.rates.as_ref().unwrap(),
            &imr_findings::InequalityFinding {
                series: without,
                ..f.inequality.as_ref().unwrap().clone()
            },
        )
        .unwrap()
        .inequality_verdict();
        assert_eq!(
            other != verdict,
            study.pivotal_years.contains(&y.time),
            "{}: {other:?} vs {verdict:?}",
            y.time
        );
    }
    let headline = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "study")
        .unwrap()
        .headline;
    if study.pivotal_years.is_empty() {
        assert!(!headline.contains("aunque por poco"), "{headline}");
    } else {
        assert!(headline.contains("aunque por poco"), "{headline}");
        assert!(headline.contains(&format!(
            "dejando fuera uno solo de estos años ({})",
            Lang::Es.years(&study.pivotal_years)
        )));
    }
}
