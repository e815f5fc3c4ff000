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

/// A newcomer's file names poverty "Pobreza (%)": question 4 fits it as the study's poverty
/// (issue 42: her column was neither used nor preselected) under her name, and question 3 does
/// not offer it again.
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
    // Named by her name: it stands for the study's poverty, but it is her measure, not the
    // bundled CASEN income poverty the study's words describe.
    assert!(said.contains("más de «Pobreza (%)»"), "{said}");
    assert!(!said.contains("pobreza por ingresos"), "{said}");
    // Question 3 does not offer her poverty column, which question 4 uses, as a stand-in.
    let health = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "health-income")
        .unwrap();
    assert!(
        !health.headline.contains("Pobreza (%)"),
        "{}",
        health.headline
    );
}

/// Her file gives one poverty figure per commune, the same every year: fixed effects have
/// nothing to estimate, and question 4 said only "«fe» no tiene ningún regresor…" (issue 42).
/// Random effects answer it, said to be so, and the study's columns her file lacks are named in
/// words, not by the bundled data's column names.
#[test]
fn a_poverty_constant_over_the_years_is_answered_by_random_effects() {
    let mut csv =
        String::from("Código comuna;Comuna;Año;Nacidos vivos;Defunciones infantiles;Pobreza (%)\n");
    for (i, poverty) in ["7,5", "12,0", "9,1", "15,3", "4,2", "11,8"]
        .iter()
        .enumerate()
    {
        for (year, deaths) in [(2010, 5 + i), (2011, 7 + i % 3), (2012, 4 + 2 * i)] {
            csv.push_str(&format!(
                "{};Comuna {i};{year};{};{deaths};{poverty}\n",
                13101 + i,
                800 + 150 * i
            ));
        }
    }
    let f = findings(&csv, &Options::default());
    let models = f.models.as_ref().expect("question 4 answered");
    assert_eq!(models.time_invariant, ["Pobreza (%)"]);
    assert_eq!(models.terms.len(), 1);
    assert_eq!(models.terms[0].estimator.name(), "re");
    assert_eq!(models.hausman_p, None);
    let answer = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "models")
        .unwrap();
    let said = format!(
        "{} {} {}",
        answer.headline,
        answer.details.join(" "),
        answer.caveats.join(" ")
    );
    assert!(
        answer.headline.contains("la característica no se asocia")
            || answer.headline.contains("la característica se asocia"),
        "{}",
        answer.headline
    );
    assert!(said.contains("efectos aleatorios"), "{said}");
    // Question 3 (no health money in her file) does not offer her poverty column, which
    // question 4 answers with, as another column to choose (it said "Sus datos tienen otra
    // columna numérica: «Pobreza (%)»" under the answer that used it).
    let health = (f.answers(Lang::Es).into_iter())
        .find(|a| a.question == "health-income")
        .unwrap();
    assert!(health.headline.contains("ingreso"), "{}", health.headline);
    assert!(
        !health.headline.contains("Pobreza (%)"),
        "{}",
        health.headline
    );
    for code in [
        "ingreso_salud_pc",
        "sin_educacion_formal_2017",
        "dist_hospital_km",
        "«fe»",
    ] {
        assert!(!said.contains(code), "{code} in {said}");
    }
    assert!(said.contains("Sin escolaridad"), "{said}");
    // Neither health money is in her file: both are named missing, as the bundled data answer
    // with whichever they have (the spending there; it asked for the income alone).
    assert!(
        said.contains("Ingreso salud") && said.contains("Gasto salud"),
        "{said}"
    );
}
