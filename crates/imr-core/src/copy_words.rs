//! The words of a copied year in the Models view, apart from [`crate::repeats`] (the rule and
//! the trends' words), which is long enough.

use crate::repeats::RepeatedYear;
use crate::Lang;

impl RepeatedYear {
    /// The Models view's sentence when the data have copied years: its fits use them as years
    /// like the others, while the Findings' answer above them (and question 4) leave them out,
    /// so their observations differ (a newcomer read "42 observaciones" over a table of 63, the
    /// copy never named). `None` without copies.
    pub fn models_text(repeats: &[RepeatedYear], lang: Lang) -> Option<String> {
        let first = repeats.first()?;
        let copies: Vec<i64> = repeats.iter().map(|r| r.time).collect();
        let list = lang.years(&copies);
        Some(match (repeats.len(), lang) {
            (1, Lang::Es) => format!("{list} repite {} (una copia de la fuente): estos modelos lo usan como un año más, mientras la respuesta de arriba, como los Hallazgos, lo deja fuera; por eso cuentan distintas observaciones.", first.repeat_of),
            (_, Lang::Es) => format!("{list} repiten el año anterior (copias de la fuente): estos modelos los usan como años más, mientras la respuesta de arriba, como los Hallazgos, los deja fuera; por eso cuentan distintas observaciones."),
            (1, Lang::En) => format!("{list} repeats {} (a copy in the source): these models use it as a year like the others, while the answer above, as the Findings, leaves it out; so their observations differ.", first.repeat_of),
            (_, Lang::En) => format!("{list} repeat the year before (copies in the source): these models use them as years like the others, while the answer above, as the Findings, leaves them out; so their observations differ."),
        })
    }
}

#[cfg(test)]
mod models_text_tests {
    use super::*;

    #[test]
    fn the_models_view_names_the_copy_it_uses() {
        let copy = RepeatedYear {
            time: 2020,
            repeat_of: 2019,
            equal_areas: 21,
            compared_areas: 21,
        };
        assert_eq!(
            RepeatedYear::models_text(&[copy], Lang::Es).unwrap(),
            "2020 repite 2019 (una copia de la fuente): estos modelos lo usan como un año más, mientras la respuesta de arriba, como los Hallazgos, lo deja fuera; por eso cuentan distintas observaciones."
        );
        assert_eq!(RepeatedYear::models_text(&[], Lang::Es), None);
    }
}
