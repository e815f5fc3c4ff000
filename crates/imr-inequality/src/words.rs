//! The engine's words in Spanish and English: what is measured ([`Quantity`]), its unit
//! ([`Unit`]) and the names of measures, as values that reports and charts word in their
//! language (see `imr_lang` for why texts are rendered per language). [`Quantity`] and [`Unit`]
//! are defined in [`crate::quantity`], below the inputs and measures that carry them.

pub use crate::quantity::{Quantity, Unit};
use crate::trend::Correlation;
use crate::year::Measure;
use imr_stats::Lang;

/// The title of a copied year's band in a chart over the years: "2022: copia de 2021" (the
/// Inequality view's line charts and the Findings' year charts write it with this one function).
pub fn copy_title(lang: Lang, time: i64, of: i64) -> String {
    format!("{time}: {} {of}", lang.pick("copia de", "a copy of"))
}

/// Fewer years than this and a trend is not stated as one: a line through two points has no
/// interval of its own (Student's t on n − 2 = 0 degrees of freedom), and the precision-weighted
/// line of the adjusted measures, which has one, is then the change between the two years. The
/// Findings' answers and the Inequality view's notes share this one rule.
pub const MIN_YEARS_FOR_TREND: usize = 3;

/// The note over a table of trends of `years` years: how the slope and its interval are computed
/// ([`crate::linear_trend`]); with fewer than 3 years, that there is a slope but no interval,
/// since Student's t on n − 2 degrees of freedom needs at least one.
pub fn trend_method_note(lang: Lang, years: usize) -> String {
    if years < 2 {
        // One year measured ("con 0 años hay pendiente" was said of a one-year file).
        lang.pick(
            "Con un solo año no hay tendencia que medir.",
            "With a single year there is no trend to measure.",
        )
        .to_string()
    } else if years >= MIN_YEARS_FOR_TREND {
        lang.pick(
            "Recta ajustada a los valores de cada año (mínimos cuadrados); su intervalo de 95% es ancho con pocos años.",
            "A straight line fitted to the yearly values (least squares); its 95% interval is wide with few years.",
        )
        .to_string()
    } else {
        match lang {
            Lang::Es => format!("Recta por los valores de cada año: con {years} años hay pendiente pero no intervalo, que necesita al menos 3 años."),
            Lang::En => format!("A straight line through the yearly values: with {years} years there is a slope but no interval, which needs at least 3 years."),
        }
    }
}

/// The note over the table of trends of the adjusted measures: their slope weighs each year by
/// its precision and its interval carries each year's uncertainty, so it has one even with two
/// years, unlike the observed measures' OLS trend ([`trend_method_note`]); both tables stand in
/// one view and a reader saw the one contradict the other (issue 42 re-run). With fewer than
/// [`MIN_YEARS_FOR_TREND`] years it says the line is the change between them, not a trend, as
/// the Findings' answers say of the same data. In plain words: the
/// method's names (OLS, Knapp–Hartung) are in the method fold and the JSON, not here.
pub fn adjusted_trend_note(lang: Lang, years: usize) -> String {
    if years >= MIN_YEARS_FOR_TREND {
        return lang
            .pick(
                "Recta que da más peso a los años medidos con más precisión: su intervalo lleva la incertidumbre de cada año.",
                "A straight line giving more weight to the years measured more precisely: its interval carries each year's uncertainty.",
            )
            .to_string();
    }
    // Two years: the Findings say "too few years" of the same data; the note says why both hold.
    match lang {
        Lang::Es => format!("Con {years} años, esta recta es el cambio entre ellos por año, con un intervalo que lleva la incertidumbre de cada año; no basta para hablar de una tendencia, que necesita al menos {MIN_YEARS_FOR_TREND} años (como en los Hallazgos)."),
        Lang::En => format!("With {years} years, this line is the change between them per year, with an interval carrying each year's uncertainty; it is not enough to speak of a trend, which needs at least {MIN_YEARS_FOR_TREND} years (as in the Findings)."),
    }
}

/// The answer of a year's excess-variation test to the adjusted table's question "¿Variación más
/// allá del azar?": "Sí (p < 0,001)" below 5% ("Sí, pero podría ser muy poca" when the
/// measures' intervals reach zero), else "No se distingue (p = 0,108)"; the likelihood
/// ratio itself goes in the cell's title ([`excess_variation_detail`]). The retest read
/// "LR = 0,00, p = 1,000" as jargon under a yes/no heading.
pub fn excess_variation_answer(lang: Lang, p_value: f64, interval_reaches_zero: bool) -> String {
    let p = if p_value < 0.001 {
        format!("p < {}", lang.decimal(0.001, 3))
    } else {
        format!("p = {}", lang.decimal(p_value, 3))
    };
    let answer = match (p_value < 0.05, interval_reaches_zero) {
        (true, false) => lang.pick("Sí", "Yes"),
        // The test and the interval answer different questions: the rates differ by more
        // than chance (the test), by how much could be almost nothing (the interval's lower
        // limit at zero). "Sí" beside "0,000 – 0,127" read as a contradiction (issue 42).
        (true, true) => lang.pick(
            "Sí, pero podría ser muy poca",
            "Yes, but it could be very little",
        ),
        (false, _) => lang.pick("No se distingue", "Not distinguishable"),
    };
    format!("{answer} ({p})")
}

/// The test behind [`excess_variation_answer`], for the cell's title: "Razón de verosimilitudes
/// = 17,90 frente a tasas iguales (p de ½χ²₀ + ½χ²₁)".
pub fn excess_variation_detail(lang: Lang, statistic: f64) -> String {
    let lr = lang.decimal(statistic, 2);
    match lang {
        Lang::Es => format!("Razón de verosimilitudes = {lr} frente a tasas iguales en todas las comunas (p de ½χ²₀ + ½χ²₁)"),
        Lang::En => format!("Likelihood ratio = {lr} against equal rates in every commune (p from ½χ²₀ + ½χ²₁)"),
    }
}

impl Measure {
    /// [`Measure::label`] in a language.
    pub fn label_in(self, lang: Lang) -> &'static str {
        let es = match self {
            Measure::NAreas => "Número de comunas",
            Measure::PooledRate => "Tasa de todas las comunas",
            Measure::Median => "Mediana",
            Measure::P10 => "Percentil 10",
            Measure::P25 => "Percentil 25",
            Measure::P75 => "Percentil 75",
            Measure::P90 => "Percentil 90",
            Measure::P90P10 => "Razón P90/P10",
            Measure::Min => "Mínimo",
            Measure::Max => "Máximo",
            Measure::ZeroAreas => "Comunas con cero",
            Measure::Gini => "Gini (ponderado)",
            Measure::GiniUnweighted => "Gini (sin ponderar)",
            Measure::TheilT => "Theil T",
            Measure::Mld => "Desviación logarítmica media",
            Measure::Cov => "Coeficiente de variación",
            Measure::Atkinson05 => "Atkinson (ε = 0,5)",
            Measure::MeanAbsDev => "Desviación absoluta media",
            Measure::IndexOfDisparity => "Índice de disparidad",
            Measure::TheilBetween => "Theil T entre grupos",
            Measure::TheilWithin => "Theil T dentro de grupos",
            Measure::ConcentrationIndex => "Índice de concentración",
            Measure::Sii => "Índice de desigualdad de la pendiente",
            Measure::Rii => "Índice relativo de desigualdad",
            Measure::QuintileRatio => "Razón de quintiles extremos",
            Measure::QuintileDifference => "Diferencia de quintiles extremos",
        };
        lang.pick(es, self.label())
    }
}

impl Correlation {
    /// The few-years warning in a language.
    pub fn warning_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.warning.clone(),
            Lang::Es => format!(
                "Solo {} años en común: una correlación con tan pocos puntos tiene poca potencia y \
                 un intervalo amplio, y dos series que derivan en el tiempo se correlacionan aunque \
                 no haya relación entre ellas. Léala como descripción, no como evidencia de una causa.",
                self.n_years
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The note says an interval only where [`crate::linear_trend`] gives one (3 years or more):
    /// a newcomer's two-year file read "Student's t with n − 2 df" over a table with none.
    /// The method's names stay out of the note (plain words, issue 42).
    #[test]
    fn the_trend_note_promises_an_interval_only_when_there_is_one() {
        let one = trend_method_note(Lang::Es, 1);
        assert_eq!(one, "Con un solo año no hay tendencia que medir.");
        assert_eq!(trend_method_note(Lang::Es, 0), one);
        for years in 1..6 {
            for lang in [Lang::Es, Lang::En] {
                let note = trend_method_note(lang, years);
                for jargon in ["MCO", "OLS", "Student", "g.l.", " df"] {
                    assert!(!note.contains(jargon), "{note}");
                }
            }
        }
        for jargon in ["Knapp", "Hartung"] {
            for years in 2..5 {
                assert!(!adjusted_trend_note(Lang::Es, years).contains(jargon));
                assert!(!adjusted_trend_note(Lang::En, years).contains(jargon));
            }
        }
        // Two years: the adjusted line is said to be the change between them, not a trend, as
        // the Findings say "too few years" of the same data; three or more, a trend.
        assert!(adjusted_trend_note(Lang::Es, 2).contains("no basta para hablar de una tendencia"));
        assert!(adjusted_trend_note(Lang::En, 2).contains("not enough to speak of a trend"));
        assert!(!adjusted_trend_note(Lang::Es, MIN_YEARS_FOR_TREND).contains("no basta"));
        for years in 2..6 {
            let points: Vec<(i64, f64)> = (0..years).map(|k| (2000 + k, (k * k) as f64)).collect();
            let trend = crate::linear_trend(&points, 0.95).unwrap();
            for lang in [Lang::Es, Lang::En] {
                let note = trend_method_note(lang, years as usize);
                // "its 95% interval is wide" (the interval promised) or "no interval".
                let promises = note.contains("95%");
                assert_eq!(promises, trend.ci_low.is_some(), "{years}: {note}");
            }
        }
    }

    #[test]
    fn the_excess_variation_cell_answers_its_question() {
        assert_eq!(
            excess_variation_answer(Lang::Es, 0.0000116, false),
            "Sí (p < 0,001)"
        );
        assert_eq!(
            excess_variation_answer(Lang::Es, 0.0054, false),
            "Sí (p = 0,005)"
        );
        // 2018 of the bundled data: every adjusted interval from 0 beside p = 0,031.
        assert_eq!(
            excess_variation_answer(Lang::Es, 0.031, true),
            "Sí, pero podría ser muy poca (p = 0,031)"
        );
        assert_eq!(
            excess_variation_answer(Lang::Es, 1.0, true),
            "No se distingue (p = 1,000)"
        );
        assert_eq!(
            excess_variation_answer(Lang::En, 0.108, false),
            "Not distinguishable (p = 0.108)"
        );
        assert!(excess_variation_detail(Lang::Es, 17.9028)
            .starts_with("Razón de verosimilitudes = 17,90 "));
    }

    #[test]
    fn every_quantity_and_unit_is_worded_in_spanish_without_english_words() {
        let quantities = [Quantity::InfantMortalityRate, Quantity::Births];
        let units = [
            Unit::PerLiveBirths { per: 1000.0 },
            Unit::PerLiveBirths { per: 100.0 },
            Unit::Areas,
            Unit::Ratio,
        ];
        let texts = quantities
            .iter()
            .map(|q| (q.text(Lang::Es), q.text(Lang::En), q.to_string()))
            .chain(
                units
                    .iter()
                    .map(|u| (u.text(Lang::Es), u.text(Lang::En), u.to_string())),
            );
        for (es, en, display) in texts {
            assert_ne!(es, en);
            assert_eq!(display, en);
            assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
        }
        assert_eq!(
            Unit::PerLiveBirths { per: 100.0 }.text(Lang::Es),
            "por 100 nacidos vivos"
        );
    }

    #[test]
    fn columns_and_given_units_stay_as_they_are() {
        let column = Quantity::Column("ingreso_salud_pc".into());
        assert_eq!(column.text(Lang::Es), "ingreso_salud_pc");
        assert_eq!(Unit::Given("CLP".into()).text(Lang::Es), "CLP");
        assert!(Unit::Given(String::new()).is_empty());
        assert_eq!(
            serde_json::to_string(&Unit::PerLiveBirths { per: 1000.0 }).unwrap(),
            "\"per 1,000 live births\""
        );
        for m in Measure::ALL {
            assert!(!m.label_in(Lang::Es).is_empty());
            assert_eq!(m.label_in(Lang::En), m.label());
        }
        assert_eq!(
            Measure::Gini
                .unit(&Unit::PerLiveBirths { per: 1000.0 })
                .text(Lang::Es),
            "razón, sin unidad"
        );
    }

    /// The panel's births column is the engine's births, worded per language (its English is
    /// the column's name, so English texts and the JSON are unchanged); any other column keeps
    /// its name, in «» in a Spanish sentence.
    #[test]
    fn the_births_column_is_births_and_other_columns_keep_their_names() {
        assert_eq!(Quantity::of_column("births"), Quantity::Births);
        assert_eq!(
            super::copy_title(Lang::Es, 2022, 2021),
            "2022: copia de 2021"
        );
        assert_eq!(
            super::copy_title(Lang::En, 2022, 2021),
            "2022: a copy of 2021"
        );
        assert_eq!(Quantity::of_column("births").text(Lang::En), "births");
        assert_eq!(Quantity::of_column("births").quoted_es(), "nacidos vivos");
        let other = Quantity::of_column("poblacion");
        assert_eq!(other, Quantity::Column("poblacion".into()));
        assert_eq!(other.quoted_es(), "«poblacion»");
    }
}
