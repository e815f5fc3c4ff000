//! Tests of embed.rs.

use super::*;

/// One precision per column: question 4's embed read "0,381", "1,41", "1,12" in one column.
#[test]
fn a_column_of_measurements_has_one_precision() {
    let rows: Vec<Vec<String>> = [["pobreza", "0.381", "10"], ["sapu", "1.412", "1"]]
        .iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect();
    assert_eq!(column_decimals(&rows, 1, "change_per_1000"), 3);
    assert_eq!(column_decimals(&rows, 2, "per"), 2);
    // A column of zeros as the Gini columns beside it ("0,000"; it read "0,00").
    let zeros: Vec<Vec<String>> = vec![vec!["0".into()], vec!["0".into()]];
    assert_eq!(column_decimals(&zeros, 0, "ci_low"), 3);
    assert_eq!(
        cell_with(Lang::Es, "change_per_1000", "1.412", Some(3)),
        "1,412"
    );
    assert_eq!(cell_with(Lang::Es, "per", "10", Some(2)), "10");
}

#[test]
fn spanish_cells_take_a_decimal_comma_and_codes_stay() {
    assert_eq!(cell_in(Lang::Es, "value", "7.123456"), "7,12");
    assert_eq!(cell_in(Lang::Es, "value", "-0.5"), "−0,500");
    assert_eq!(cell_in(Lang::Es, "value", "0.052381"), "0,052");
    assert_eq!(cell_in(Lang::Es, "value", "1234.5678"), "1.234,57");
    assert_eq!(cell_in(Lang::Es, "code", "13101"), "13101");
    assert_eq!(cell_in(Lang::Es, "value", "Santiago"), "Santiago");
    // A measurement of exactly zero is written as the others (a bare "0" stood beside
    // "0,069"); a year, a code, a change asked for stay as written.
    assert_eq!(cell_in(Lang::Es, "adjusted_gini", "0"), "0,000");
    assert_eq!(cell_in(Lang::Es, "ci_low", "0"), "0,000");
    assert_eq!(cell_in(Lang::Es, "year", "2011"), "2011");
    assert_eq!(cell_in(Lang::Es, "per", "10"), "10");
    assert_eq!(
        cell_in(Lang::Es, "value", "gasto_salud_pc"),
        "gasto_salud_pc"
    );
    assert_eq!(cell_in(Lang::En, "value", "7.123456"), "7.12");
    assert_eq!(cell_in(Lang::Es, "value", ""), "");
    // Counts with the thousands separator; a code of the same digits stays as it is.
    assert_eq!(cell_in(Lang::Es, "births", "24158"), "24.158");
    assert_eq!(cell_in(Lang::En, "births", "24158"), "24,158");
    assert_eq!(cell_in(Lang::Es, "code", "13101"), "13101");
}

/// Question 4's table in Spanish words (issue 42: "pobreza", "gasto_salud_pc", "re", "fe"
/// on the Spanish page); English and the reader's own columns ("Pobreza (%)" standing for
/// the study's poverty too) keep their names.
#[test]
fn the_covariates_and_models_of_question_4_are_spanish_words() {
    assert_eq!(cell_in(Lang::Es, "term", "pobreza"), "Pobreza");
    assert_eq!(cell_in(Lang::Es, "term", "gasto_salud_pc"), "Gasto salud");
    assert_eq!(cell_in(Lang::Es, "term", "Pobreza (%)"), "Pobreza (%)");
    assert_eq!(cell_in(Lang::Es, "term", "mi_columna"), "mi_columna");
    assert_eq!(cell_in(Lang::Es, "model", "fe"), "Efectos fijos");
    assert_eq!(cell_in(Lang::Es, "model", "re"), "Efectos aleatorios");
    assert_eq!(cell_in(Lang::Es, "model", "otro"), "otro");
    assert_eq!(
        cell_in(Lang::En, "term", "gasto_salud_pc"),
        "gasto_salud_pc"
    );
    assert_eq!(cell_in(Lang::En, "model", "fe"), "fe");
    // a number under another column is still a number
    assert_eq!(cell_in(Lang::Es, "per", "10.5"), "10,50");
}

/// The figure's file says what it is (issue 42: "figura_rates.html" named the question by
/// its code), in the answer's language, with safe characters only.
#[test]
fn a_figure_file_is_named_by_its_question_in_safe_characters() {
    let answer = |number, title: &str| Answer {
        question: "rates",
        number,
        title: title.into(),
        headline: String::new(),
        details: vec![],
        caveats: vec![],
        method: vec![],
        chart_title: String::new(),
        chart_svg: String::new(),
        data: Default::default(),
        view: "data",
    };
    let es = answer(Some(1), "¿Baja la mortalidad infantil?");
    assert_eq!(
        file_name(&es, Lang::Es),
        "imr-atlas_pregunta-1_baja-la-mortalidad-infantil.html"
    );
    let en = answer(Some(1), "Is infant mortality falling?");
    assert_eq!(
        file_name(&en, Lang::En),
        "imr-atlas_question-1_is-infant-mortality-falling.html"
    );
    let study = answer(None, "¿Confirman estos datos el estudio?");
    assert_eq!(
        file_name(&study, Lang::Es),
        "imr-atlas_estudio_confirman-estos-datos-el-estudio.html"
    );
    let hostile = answer(Some(2), "../../etc/passwd \\ C:\\ ñandú «x» 日本 ");
    let name = file_name(&hostile, Lang::Es);
    assert_eq!(name, "imr-atlas_pregunta-2_etc-passwd-c-nandu-x.html");
    assert_eq!(
        file_name(&answer(Some(3), "日本"), Lang::En),
        "imr-atlas_question-3.html"
    );
    let long = answer(Some(4), &"palabra ".repeat(40));
    let name = file_name(&long, Lang::Es);
    assert!(
        name.len() <= "imr-atlas_pregunta-4_.html".len() + 60,
        "{name}"
    );
    assert!(name.ends_with("-palabra.html"), "{name}");
    for name in [file_name(&hostile, Lang::Es), file_name(&long, Lang::Es)] {
        assert!(name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c)));
    }
}

#[test]
fn every_column_has_words_without_english_in_the_spanish() {
    for (name, es, en) in COLUMN_WORDS {
        assert!(imr_lang::english_words(es).is_empty(), "{name}: {es}");
        assert_eq!(column_words(Lang::En, name), en);
    }
    assert!(imr_lang::english_words(bundled_credit(Lang::Es)).is_empty());
    assert_eq!(column_words(Lang::Es, "unknown_column"), "unknown_column");
}
