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
    problems
}
