//! Checks of the two languages' texts: none empty, and none left untranslated.

use super::{en::EN, es::ES, Messages};
use serde_json::Value;
use std::collections::BTreeMap;

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
            .filter(|(_, text)| text.trim().is_empty())
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
