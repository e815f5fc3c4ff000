//! The words of a copied year in the Models view, apart from [`crate::repeats`] (the rule and
//! the trends' words), which is long enough.

use crate::repeats::RepeatedYear;
use crate::Lang;

impl RepeatedYear {
    /// The Models view's sentence when the data have copied years: its fits leave them out, as
    /// the Findings' answer above them (question 4) and the trends do, each row listed among the
    /// rows left out (`imr fit --include-repeated-years` and the checkbox under it keep them). A
    /// newcomer read "42 observaciones" over a table of 63 when the fits used the copy. `None`
    /// without copies.
    pub fn models_text(repeats: &[RepeatedYear], lang: Lang) -> Option<String> {
        let first = repeats.first()?;
        let copies: Vec<i64> = repeats.iter().map(|r| r.time).collect();
        let list = lang.years(&copies);
        Some(match (repeats.len(), lang) {
            (1, Lang::Es) => format!("{list} repite {} (una copia de la fuente, no un año de datos): estos modelos lo dejan fuera, como la respuesta de arriba y los Hallazgos; sus filas se listan entre las excluidas.", first.repeat_of),
            (_, Lang::Es) => format!("{list} repiten el año anterior (copias de la fuente, no años de datos): estos modelos los dejan fuera, como la respuesta de arriba y los Hallazgos; sus filas se listan entre las excluidas."),
            (1, Lang::En) => format!("{list} repeats {} (a copy in the source, not a year of data): these models leave it out, as the answer above and the Findings do; its rows are listed among those left out.", first.repeat_of),
            (_, Lang::En) => format!("{list} repeat the year before (copies in the source, not years of data): these models leave them out, as the answer above and the Findings do; their rows are listed among those left out."),
        })
    }
}

#[cfg(test)]
mod models_text_tests {
    use super::*;

    #[test]
    fn the_models_view_names_the_copy_it_leaves_out() {
        let copy = RepeatedYear {
            time: 2020,
            repeat_of: 2019,
            equal_areas: 21,
            compared_areas: 21,
        };
        assert_eq!(
            RepeatedYear::models_text(&[copy], Lang::Es).unwrap(),
            "2020 repite 2019 (una copia de la fuente, no un año de datos): estos modelos lo dejan fuera, como la respuesta de arriba y los Hallazgos; sus filas se listan entre las excluidas."
        );
        assert_eq!(RepeatedYear::models_text(&[], Lang::Es), None);
    }
}
