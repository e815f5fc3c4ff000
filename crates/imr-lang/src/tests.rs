//! The language's numbers, words and lists, and the wrapping of captions.

use super::*;

#[test]
fn english_words_are_found_and_identifiers_are_not_words() {
    assert_eq!(
        super::english_words("The rate of `the_column` is missing."),
        ["the", "rate", "of", "is", "missing"]
    );
    assert!(super::english_words("falta el valor de `rows_not_measured` en 2019").is_empty());
}

#[test]
fn label_words_are_found_one_at_a_time() {
    assert_eq!(
        super::english_label_words("Pesos (pooled, fe, twfe) · (km (great-circle)) · ▸ Data"),
        ["pooled", "great-circle", "data"]
    );
    assert!(super::english_label_words(
        "Ingresos municipales de salud per cápita (miles de pesos (M$) por persona, nominales)"
    )
    .is_empty());
    // No label word is Spanish too: a Spanish sentence of the page does not trip it.
    assert!(super::english_label_words(
        "Tasa de mortalidad infantil por comuna y año; la media, la mediana y todos los valores"
    )
    .is_empty());
}

#[test]
fn decimal_points_are_found_and_thousands_points_are_not() {
    assert_eq!(
        super::decimal_points("z = -1,12, p = 0.1050; 9.0 – 111.0 (5.80)"),
        ["0.1050", "9.0", "111.0", "5.80"]
    );
    assert!(super::decimal_points(
        "1.725 filas · 1.480,97 · 12.345.678,9 · 0,25 · 2019–2023 · imr-atlas 0.1.0 (imr-core 0.1.0)"
    )
    .is_empty());
    assert_eq!(super::decimal_points("0.200 y 1.72"), ["0.200", "1.72"]);
    // a version anywhere ("esta versión de imr-atlas (0.1.0)") is not a number
    assert!(super::decimal_points("versión de imr-atlas (0.1.0), 2.10.3").is_empty());
}

#[test]
fn figures_are_plain_in_english_and_grouped_in_spanish() {
    assert_eq!(Lang::En.figure(12345.67, 1), "12345.7");
    assert_eq!(Lang::Es.figure(12345.67, 1), "12.345,7");
    assert_eq!(Lang::En.figure(-0.001, 2), "0.00");
    assert_eq!(Lang::Es.figure(-0.001, 2), "0,00");
    assert_eq!(Lang::En.figure(-2.5, 1), "-2.5");
}

#[test]
fn tags_pick_a_language_and_round_trip() {
    assert_eq!(Lang::from_tag("en-GB"), Lang::En);
    assert_eq!(Lang::from_tag("es-CL"), Lang::Es);
    assert_eq!(Lang::from_tag("fr"), Lang::Es);
    for lang in [Lang::Es, Lang::En] {
        assert_eq!(lang.tag().parse::<Lang>(), Ok(lang));
        assert_eq!(lang.to_string(), lang.tag());
    }
    assert!("de".parse::<Lang>().is_err());
}

#[test]
fn spanish_uses_a_decimal_comma_and_thousands_points() {
    assert_eq!(Lang::Es.grouped(1234567.891, 2), "1.234.567,89");
    assert_eq!(Lang::En.grouped(1234567.891, 2), "1,234,567.89");
    assert_eq!(Lang::Es.grouped(-0.5, 1), "−0,5");
    assert_eq!(Lang::Es.grouped(-0.001, 1), "0,0");
    assert_eq!(Lang::En.grouped(999.0, 0), "999");
    assert_eq!(Lang::En.grouped(-1000.0, 0), "−1,000");
    assert_eq!(Lang::Es.grouped(f64::NAN, 2), "—");
}

proptest::proptest! {
    /// Without its thousands separators and with a decimal point, a grouped number is
    /// Rust's own formatting of it (up to the sign of a value that rounds to zero).
    #[test]
    fn grouping_only_adds_separators(value in -1e12f64..1e12, decimals in 0usize..6) {
        let plain = format!("{value:.decimals$}");
        let plain = if plain.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
            plain.trim_start_matches('-').to_string()
        } else {
            plain
        };
        // The minus sign is U+2212 in both languages, as in every sentence.
        let en = Lang::En.grouped(value, decimals).replace(',', "").replace('−', "-");
        let es = Lang::Es.grouped(value, decimals).replace('.', "").replace(',', ".").replace('−', "-");
        proptest::prop_assert_eq!(&en, &plain);
        proptest::prop_assert_eq!(&es, &plain);
    }
}

/// A version keeps its name's line, and the words are all there, in order.
#[test]
fn a_source_line_never_starts_a_line_with_a_version() {
    let line = "Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv) · motor imr-atlas 0.1.0 (imr-core 0.1.0) · 2026-12-05";
    for width in 20..=line.len() {
        let lines = wrap_source_line(line, width);
        assert_eq!(lines.join(" "), line, "{width}");
        for l in &lines {
            assert!(!l.starts_with("0.1.0"), "{width}: {lines:?}");
        }
    }
    assert!(wrap_source_line("", 30).is_empty());
}

/// A table's negative number is written as a sentence's: the minus sign U+2212, never the
/// hyphen-minus, in both languages; grouping and decimal marks as before.
#[test]
fn a_grouped_negative_has_the_minus_sign_of_a_sentence() {
    assert_eq!(Lang::Es.grouped(-1234.5, 1), "−1.234,5");
    assert_eq!(Lang::En.grouped(-1234.5, 1), "−1,234.5");
    assert_eq!(
        Lang::Es.grouped(-0.08, 2),
        Lang::Es.decimal_signed(-0.08, 2)
    );
    assert_eq!(
        Lang::En.grouped(-0.08, 2),
        Lang::En.decimal_signed(-0.08, 2)
    );
    assert_eq!(Lang::Es.grouped(-0.001, 2), "0,00");
    assert!(!Lang::Es.grouped(-5.0, 0).contains('-'));
    // A chart's Spanish figure is the table's number.
    assert_eq!(Lang::Es.figure(-2.5, 1), "−2,5");
}

#[test]
fn years_are_written_as_their_spans_and_never_claim_a_year_they_skip() {
    let bundled: Vec<i64> = (2001..=2021)
        .filter(|y| ![2016, 2020].contains(y))
        .collect();
    assert_eq!(Lang::Es.years(&bundled), "2001–2015, 2017–2019 y 2021");
    assert_eq!(Lang::En.years(&bundled), "2001–2015, 2017–2019 and 2021");
    assert_eq!(Lang::Es.years(&[2021, 2019, 2020, 2019]), "2019–2021");
    assert_eq!(Lang::En.years(&[2019, 2021]), "2019 and 2021");
    assert_eq!(Lang::Es.years(&[2021]), "2021");
    assert_eq!(Lang::Es.years(&[]), "");
    assert_eq!(
        Lang::Es.years(&[i64::MAX, i64::MAX - 1]),
        format!("{}–{}", i64::MAX - 1, i64::MAX)
    );
}

proptest::proptest! {
    /// Every year given is inside a span written, and every year a span covers was given.
    #[test]
    fn the_spans_cover_the_years_given_and_no_other(years in proptest::collection::vec(1990i64..2030, 0..30)) {
        let text = Lang::En.years(&years);
        let mut covered = Vec::new();
        for part in text.split([',', ' ']).filter(|p| !p.is_empty() && *p != "and") {
            match part.split_once('–') {
                Some((a, b)) => covered.extend(a.parse::<i64>().unwrap()..=b.parse::<i64>().unwrap()),
                None => covered.push(part.parse::<i64>().unwrap()),
            }
        }
        let mut given = years.clone();
        given.sort_unstable();
        given.dedup();
        proptest::prop_assert_eq!(covered, given);
    }
}

/// A type with its own `text` gets [`Words`] by [`words_by_text!`], which calls that method (not
/// itself), and [`spanish_problems`] finds English words and decimal points in its Spanish.
#[test]
fn words_by_text_calls_the_types_own_wording_and_the_check_finds_english() {
    struct Note(f64);
    impl Note {
        fn text(&self, lang: Lang) -> String {
            match lang {
                Lang::Es => format!("la tasa es {}", self.0),
                Lang::En => format!("the rate is {}", self.0),
            }
        }
    }
    crate::words_by_text!(Note);
    let note = Note(5.8);
    assert_eq!(Words::text(&note, Lang::En), "the rate is 5.8");
    assert_eq!(spanish_problems(&note), ["5.8"]);
    assert!(spanish_problems(&Note(6.0)).is_empty());
    let worded = Worded {
        es: "tasa de las comunas".into(),
        en: "rate of the communes".into(),
    };
    assert!(spanish_problems(&worded).is_empty());
    let english = Worded {
        es: "rate of the communes".into(),
        en: String::new(),
    };
    assert_eq!(
        spanish_problems(&english),
        ["rate", "of", "the", "communes"]
    );
}
