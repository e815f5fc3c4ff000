//! Checks of the two languages' texts: none empty, none left untranslated, and every text with
//! parameters uses all of them in both languages.

use super::{en::EN, es::ES, Messages};
use serde::Serializer;
use serde_json::Value;
use std::collections::BTreeMap;

/// A text with parameters filled with markers ‹1›, ‹2›, … so that the tests read it as a text.
pub(super) trait Sample {
    fn sample(&self) -> String;
}

/// `Sample` for the formats of 1 to 8 `&str` parameters (the only shape [`Messages`] uses).
macro_rules! sample_formats {
    ($($n:literal: ($($arg:literal),+)),+ $(,)?) => {$(
        impl Sample for fn($(sample_formats!(@str $arg)),+) -> String {
            fn sample(&self) -> String {
                self($(concat!("‹", $arg, "›")),+)
            }
        }
    )+};
    (@str $arg:literal) => { &str };
}

sample_formats! {
    1: ("1"),
    2: ("1", "2"),
    3: ("1", "2", "3"),
    4: ("1", "2", "3", "4"),
    5: ("1", "2", "3", "4", "5"),
    6: ("1", "2", "3", "4", "5", "6"),
    7: ("1", "2", "3", "4", "5", "6", "7"),
    8: ("1", "2", "3", "4", "5", "6", "7", "8"),
}

/// Serializes a format as its [`Sample`] (`serialize_with` of every format field): a format
/// field without it does not compile under test, so no format escapes the checks below.
pub(super) fn sampled<F: Sample, S: Serializer>(
    format: &F,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format.sample())
}

/// The parameter markers in a sampled text, in order.
fn markers(text: &str) -> Vec<String> {
    text.split('‹')
        .skip(1)
        .filter_map(|rest| rest.split_once('›').map(|(n, _)| n.to_string()))
        .collect()
}

/// Fields whose text is the same in both languages on purpose (symbols, file formats, names).
/// Empty today: every text of the page differs between Spanish and English.
const SAME_IN_BOTH: &[&str] = &[];

/// Every text of `messages` by its field path ("map.hide_table").
fn texts(messages: &Messages) -> BTreeMap<String, String> {
    let Value::Object(groups) = serde_json::to_value(messages).expect("texts serialize") else {
        panic!("Messages serializes to an object");
    };
    let mut out = BTreeMap::new();
    for (group, fields) in groups {
        let Value::Object(fields) = fields else {
            panic!("group {group} serializes to an object");
        };
        for (field, text) in fields {
            let Value::String(text) = text else {
                panic!("{group}.{field} is not a text");
            };
            out.insert(format!("{group}.{field}"), text);
        }
    }
    out
}

/// The fields with the same text in both languages that `allowed` does not list.
fn untranslated(
    es: &BTreeMap<String, String>,
    en: &BTreeMap<String, String>,
    allowed: &[&str],
) -> Vec<String> {
    es.iter()
        .filter(|(field, text)| en.get(*field) == Some(*text) && !allowed.contains(&field.as_str()))
        .map(|(field, text)| format!("{field} = {text:?}"))
        .collect()
}

#[test]
fn both_languages_have_the_same_fields() {
    let (es, en) = (texts(&ES), texts(&EN));
    assert!(es.len() > 200, "only {} texts found", es.len());
    assert!(es.keys().eq(en.keys()));
}

#[test]
fn no_text_is_empty() {
    for (lang, messages) in [("es", &ES), ("en", &EN)] {
        let empty: Vec<String> = texts(messages)
            .into_iter()
            .filter(|(_, text)| {
                let mut bare = text.clone();
                for m in markers(text) {
                    bare = bare.replace(&format!("‹{m}›"), "");
                }
                bare.trim().is_empty()
            })
            .map(|(field, _)| field)
            .collect();
        assert!(empty.is_empty(), "empty texts in {lang}: {empty:?}");
    }
}

#[test]
fn every_spanish_text_differs_from_its_english_one() {
    let found = untranslated(&texts(&ES), &texts(&EN), SAME_IN_BOTH);
    assert!(
        found.is_empty(),
        "same text in both languages (translate it, or list it in SAME_IN_BOTH): {found:?}"
    );
}

#[test]
fn an_untranslated_text_is_found_unless_allowed() {
    let es = BTreeMap::from([
        ("a.format".to_string(), "CSV".to_string()),
        ("a.cancel".to_string(), "Cancel".to_string()),
    ]);
    let en = BTreeMap::from([
        ("a.format".to_string(), "CSV".to_string()),
        ("a.cancel".to_string(), "Cancel".to_string()),
    ]);
    assert_eq!(
        untranslated(&es, &en, &["a.format"]),
        vec!["a.cancel = \"Cancel\"".to_string()]
    );
    assert_eq!(
        untranslated(&es, &en, &["a.format", "a.cancel"]),
        Vec::<String>::new()
    );
}

#[test]
fn every_format_uses_all_its_parameters_in_both_languages() {
    let (es, en) = (texts(&ES), texts(&EN));
    let mut formats = 0;
    for (field, es_text) in &es {
        let (mut es_markers, mut en_markers) = (markers(es_text), markers(&en[field]));
        es_markers.sort();
        en_markers.sort();
        assert_eq!(
            es_markers, en_markers,
            "{field}: the languages use different parameters"
        );
        if let Some(last) = es_markers
            .iter()
            .filter_map(|m| m.parse::<usize>().ok())
            .max()
        {
            formats += 1;
            let all: Vec<String> = (1..=last).map(|k| k.to_string()).collect();
            es_markers.dedup();
            assert_eq!(es_markers, all, "{field}: a parameter is never used");
        }
    }
    assert!(formats > 30, "only {formats} formats found");
}

#[test]
fn a_sampled_format_shows_its_markers() {
    let format: fn(&str, &str) -> String = |name, n| format!("{name}: {n} rows");
    assert_eq!(format.sample(), "‹1›: ‹2› rows");
    assert_eq!(markers(&format.sample()), vec!["1", "2"]);
}

#[test]
fn one_row_not_used_is_said_in_the_singular() {
    let (es, en) = (ES.models.rows_with_missing, EN.models.rows_with_missing);
    assert!(es("1").starts_with("1 fila no se usó ("), "{}", es("1"));
    assert!(es("1.725").starts_with("1.725 filas no se usaron ("));
    assert!(en("1").starts_with("1 row was not used ("), "{}", en("1"));
    assert!(en("2").starts_with("2 rows were not used ("));
}

/// The page's "how was it computed" folds and the Findings answers' fold (written by the
/// engine, `imr_findings::method::heading`) have one title: a reader meets one name for one
/// kind of fold.
#[test]
fn the_method_folds_have_the_engines_title() {
    use imr_core::Lang;
    assert_eq!(
        ES.common.how_this_calculated,
        imr_findings::method::heading(Lang::Es)
    );
    assert_eq!(
        EN.common.how_this_calculated,
        imr_findings::method::heading(Lang::En)
    );
}

/// The weights' label names in words the models that take weights, and those are the linear
/// pooled and fixed-effects models (the engine's registry): a claim, so tested.
#[test]
fn the_weights_label_names_the_models_that_take_weights() {
    use imr_core::models::Estimator;
    let weighted: Vec<&str> = Estimator::ALL
        .into_iter()
        .filter(|e| e.takes_weights())
        .map(|e| e.name())
        .collect();
    assert_eq!(weighted, ["pooled", "fe", "twfe"]);
    assert_eq!(
        ES.models.weights_label,
        "Pesos (MCO agrupado y efectos fijos lineales)"
    );
    assert_eq!(
        EN.models.weights_label,
        "Weights (pooled OLS and linear fixed effects)"
    );
}

/// The engines' and libraries' names a reader of the Spanish page does not know (a colour
/// ramp's code, a covariance's, a program's): the page's labels, options, headings and notes
/// say what they are in words, and name them only where a method is described.
const CODE_NAMES: [&str; 12] = [
    "YlOrRd",
    "Viridis",
    "Cividis",
    "iid",
    "HC1",
    "CR1",
    "CRV1",
    "LISA",
    "GeoDa",
    "bootstrap",
    "pyfixest",
    "sandwich",
];

/// The texts that describe a method (a "how was it computed" fold, the note on the
/// intervals), where the technical names are kept for whoever wants to look them up.
fn describes_a_method(field: &str) -> bool {
    field.contains("method") || ["inequality.bootstrap_note", "map.lisa_note"].contains(&field)
}

/// The code names of `text` (whole words: "iid", not "liquidez").
fn code_names_in(text: &str) -> Vec<&'static str> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .collect();
    CODE_NAMES
        .into_iter()
        .filter(|name| words.iter().any(|w| w.eq_ignore_ascii_case(name)))
        .collect()
}

#[test]
fn no_spanish_label_names_a_code_outside_the_method_texts() {
    let found: Vec<String> = texts(&ES)
        .into_iter()
        .filter(|(field, _)| !describes_a_method(field))
        .filter_map(|(field, text)| {
            let names = code_names_in(&text);
            (!names.is_empty()).then(|| format!("{field}: {names:?} in {text:?}"))
        })
        .collect();
    assert!(found.is_empty(), "code names in Spanish labels: {found:#?}");
    assert_eq!(
        code_names_in("Robustos (HC1), bootstrap"),
        ["HC1", "bootstrap"]
    );
    assert!(code_names_in("liquidez y ganancias").is_empty());
}

/// A reader of the page can neither open the repository's files nor type the link's
/// parameters: no text, method or not, sends her to `docs/…` or names a parameter of the link
/// (`include-flagged`) other than as the command's option (`--include-flagged`).
#[test]
fn no_text_names_a_file_of_the_repository_or_a_parameter_of_the_link() {
    for (lang, messages) in [("es", &ES), ("en", &EN)] {
        for (field, text) in texts(messages) {
            let without_options = text.replace("--include-flagged", "");
            assert!(
                !without_options.contains("include-flagged")
                    && !text.contains("docs/")
                    && !text.contains(".md"),
                "{lang} {field}: {text:?}"
            );
        }
    }
}

/// The map's colour schemes are named by their colours in both languages, never by the
/// ramp's code name (the `value` of each option keeps it, for the link and `imr map --scheme`).
#[test]
fn the_colour_schemes_are_named_by_their_colours() {
    for m in [&ES, &EN] {
        for label in [
            m.map.scheme_ylorrd,
            m.map.scheme_blues,
            m.map.scheme_viridis,
            m.map.scheme_cividis,
        ] {
            assert!(code_names_in(label).is_empty(), "{label}");
        }
    }
    assert_eq!(ES.map.scheme_ylorrd, "Amarillo a rojo (secuencial)");
    assert_eq!(EN.map.scheme_ylorrd, "Yellow to red (sequential)");
}

/// The standard errors are offered and named on the Models view in words, in both languages:
/// the conventions' names (iid, HC1, CR1) are in the diagnostics' "how was it computed" text.
#[test]
fn the_standard_errors_are_named_in_words() {
    use imr_core::models::VcovKind;
    use imr_core::Lang;
    for lang in [Lang::Es, Lang::En] {
        for vcov in VcovKind::ALL {
            let label = vcov.label_in(lang);
            assert!(code_names_in(label).is_empty(), "{label}");
            assert_ne!(label, vcov.name(), "{label}");
        }
    }
    assert_eq!(
        VcovKind::Hc1.label_in(Lang::Es),
        "Robustos a heterocedasticidad"
    );
}

/// A missing answer's hint in the Models and Data views names the place below it by its
/// heading (`imr_findings`' `unavailable`: "más abajo, en «Características (variables
/// explicativas)»"): the headings it names.
#[test]
fn the_takeaway_hints_name_the_views_headings() {
    assert_eq!(
        [ES.models.regressors, EN.models.regressors],
        [
            "Características (variables explicativas)",
            "Characteristics (explanatory variables)"
        ]
    );
    assert_eq!(
        [ES.data.files_columns, EN.data.files_columns],
        ["Archivos y columnas", "Files and columns"]
    );
}
