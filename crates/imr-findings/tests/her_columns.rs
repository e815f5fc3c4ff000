//! A reader's own names for the study's columns: a covariate written as a person writes it
//! ("Pobreza (%)" for `pobreza`) is the study's (`imr_core::data::study::column_for`).

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::Lang;
use imr_findings::{compute, AdjustedGini, Findings, Options};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2001_2021.csv");

fn findings(csv: &str, options: &Options) -> Findings {
    let table = RawTable::from_bytes("mis_datos.csv", csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    compute(&panel, options, &AdjustedGini::default())
}

/// A newcomer's file names poverty "Pobreza (%)": question 4 fits it as the study's poverty and
/// words it so (issue 42: her column was neither used nor preselected).
#[test]
fn the_studys_poverty_under_the_name_she_wrote_answers_question_4() {
    let header = BUNDLED
        .lines()
        .next()
        .unwrap()
        .replace(",pobreza,", ",Pobreza (%),");
    let csv: String = std::iter::once(header.as_str())
        .chain(BUNDLED.lines().skip(1))
        .map(|l| format!("{l}\n"))
        .collect();
    let f = findings(&csv, &Options::default());
    let models = f.models.as_ref().expect("question 4 answered");
    assert!(
        models.terms.iter().any(|t| t.column == "Pobreza (%)"),
        "{:?}",
        models.terms.iter().map(|t| &t.column).collect::<Vec<_>>()
    );
    let text = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "models")
        .unwrap();
    let said = format!("{} {}", text.headline, text.details.join(" "));
    assert!(!said.contains("unidades más de Pobreza"), "{said}");
}
