//! The engines' values worded for people, as one trait, and the one check of their Spanish.

use crate::{decimal_points, english_label_words, Lang, Worded};

/// A value the engines word for people — an error, a note, a reason left out — rendered in a
/// language: every engine type with a text for a reader implements it ([`words_by_text!`](crate::words_by_text)), so
/// that one check, [`spanish_problems`], runs over any of them (the test that no English and no
/// decimal point reach the Spanish page, applied to the engines' values themselves).
pub trait Words {
    /// The value's text in `lang`.
    fn text(&self, lang: Lang) -> String;
}

impl Words for Worded {
    fn text(&self, lang: Lang) -> String {
        Worded::text(self, lang).to_owned()
    }
}

/// Implements [`Words`] for types with an inherent `text(&self, Lang) -> String`, by that method
/// (an inherent method is found before a trait's, so the impl calls the type's own wording).
#[macro_export]
macro_rules! words_by_text {
    ($($t:ty),+ $(,)?) => {
        $(impl $crate::Words for $t {
            fn text(&self, lang: $crate::Lang) -> String {
                <$t>::text(self, lang)
            }
        })+
    };
}

/// What the Spanish wording of `value` still holds of English — its words of
/// [`english_label_words`](crate::english_label_words) — and of the decimal point ([`decimal_points`](crate::decimal_points)); empty when it is
/// Spanish all the way. The one check of every engine value's Spanish text.
pub fn spanish_problems<W: Words + ?Sized>(value: &W) -> Vec<String> {
    let text = value.text(Lang::Es);
    let mut problems = english_label_words(&text);
    problems.extend(decimal_points(&text));
    problems.extend(bare_keys(&text));
    problems
}

/// The machine keys `text` holds outside quotation marks: words of lower-case letters and
/// digits joined by `_` (`rows_not_measured`, `copy_of_year`), which a text for a reader says in
/// words, or quotes when it names a column of the reader's file («nacidos_vivos»). A key inside
/// «…», “…”, "…" or back-ticks is quoted; a file name (`chile_imr_2001_2021.csv`) or a path is
/// not a key. A Spanish page said "en el JSON de imr, en rows_not_measured".
pub fn bare_keys(text: &str) -> Vec<String> {
    let is_key = |w: &str| {
        w.contains('_')
            && !w.starts_with('_')
            && !w.ends_with('_')
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    };
    let (mut found, mut word) = (Vec::new(), String::new());
    let (mut guillemets, mut curly, mut straight, mut code) = (0i32, 0i32, false, false);
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || matches!(c, '_' | '.' | '/' | '-') {
            word.push(c);
            continue;
        }
        let quoted = guillemets > 0 || curly > 0 || straight || code;
        let token = word.trim_end_matches(['.', '-', '/']);
        if !quoted && is_key(token) {
            found.push(token.to_owned());
        }
        word.clear();
        match c {
            '«' => guillemets += 1,
            '»' => guillemets -= 1,
            '“' => curly += 1,
            '”' => curly -= 1,
            '"' => straight = !straight,
            '`' => code = !code,
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::bare_keys;

    #[test]
    fn a_key_is_found_outside_quotes_and_not_inside_nor_in_a_file_name() {
        assert_eq!(
            bare_keys("en el JSON de imr, en rows_not_measured."),
            ["rows_not_measured"]
        );
        assert!(bare_keys("falta el valor de «nacidos_vivos» en 2019").is_empty());
        assert!(bare_keys("the “copy_of_year” column and `imr_core`").is_empty());
        assert!(bare_keys("lea public/data/chile_imr_2001_2021.csv o mapa_tmi.svg").is_empty());
        assert!(bare_keys("Tasa_Bruta y tasa bruta, _x y x_").is_empty());
        assert_eq!(bare_keys("«a» b_c «d»"), ["b_c"]);
    }
}
