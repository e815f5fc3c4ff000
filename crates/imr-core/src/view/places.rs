//! The Map view's commune search: a commune found by what a reader types, so that communes too
//! small to tap (Santiago's in the region inset are a few pixels wide on a phone) can be chosen
//! from a list.

use crate::data::names::normalise_name;

/// How a place is offered in the search's list: "Santiago (13101)".
pub fn place_choice(name: &str, code: &str) -> String {
    format!("{name} ({code})")
}

/// The area `text` names among `codes` and `names` (same order): a choice of the list as
/// [`place_choice`] writes it, a code, or a name, ignoring case, accents and punctuation; when
/// no name is equal, the one name that starts with the text. `None` when nothing or more than
/// one area fits.
pub fn find_place(codes: &[String], names: &[String], text: &str) -> Option<usize> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Some(at) = (0..codes.len()).find(|&a| place_choice(&names[a], &codes[a]) == text) {
        return Some(at);
    }
    if let Some(at) = codes.iter().position(|c| c == text) {
        return Some(at);
    }
    let wanted = normalise_name(text);
    if wanted.is_empty() {
        return None;
    }
    let folded: Vec<String> = names.iter().map(|n| normalise_name(n)).collect();
    let equal: Vec<usize> = (0..folded.len()).filter(|&a| folded[a] == wanted).collect();
    if let [one] = equal[..] {
        return Some(one);
    }
    if !equal.is_empty() {
        return None;
    }
    let starting: Vec<usize> = (0..folded.len())
        .filter(|&a| folded[a].starts_with(&wanted))
        .collect();
    match starting[..] {
        [one] => Some(one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places() -> (Vec<String>, Vec<String>) {
        let codes = ["13101", "13123", "08101", "13401"]
            .map(String::from)
            .to_vec();
        let names = ["Santiago", "Providencia", "Concepción", "San Bernardo"]
            .map(String::from)
            .to_vec();
        (codes, names)
    }

    #[test]
    fn a_commune_is_found_by_its_choice_code_or_name_without_accents() {
        let (codes, names) = places();
        assert_eq!(find_place(&codes, &names, "Santiago (13101)"), Some(0));
        assert_eq!(find_place(&codes, &names, "13123"), Some(1));
        assert_eq!(find_place(&codes, &names, "concepcion"), Some(2));
        assert_eq!(find_place(&codes, &names, " SANTIAGO "), Some(0));
        assert_eq!(find_place(&codes, &names, "provi"), Some(1));
        assert_eq!(place_choice(&names[3], &codes[3]), "San Bernardo (13401)");
    }

    #[test]
    fn nothing_or_an_ambiguous_start_finds_no_commune() {
        let (codes, names) = places();
        assert_eq!(find_place(&codes, &names, ""), None);
        assert_eq!(find_place(&codes, &names, "san"), None);
        assert_eq!(find_place(&codes, &names, "Valparaíso"), None);
    }
}
