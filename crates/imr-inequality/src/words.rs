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
    } else if years >= 3 {
        lang.pick(
            "MCO sobre los valores anuales, t de Student con n − 2 g.l.; con pocos años el intervalo es ancho.",
            "OLS over the yearly values, Student's t with n − 2 df; with few years the interval is wide.",
        )
        .to_string()
    } else {
        match lang {
            Lang::Es => format!("MCO sobre los valores anuales: con {years} años hay pendiente pero no intervalo, que necesita al menos 3 años."),
            Lang::En => format!("OLS over the yearly values: with {years} years there is a slope but no interval, which needs at least 3 years."),
        }
    }
}

/// The note over the table of trends of the adjusted measures: their slope weighs each year by
/// its precision and its interval carries each year's uncertainty, so it has one even with two
/// years, unlike the observed measures' OLS trend ([`trend_method_note`]); both tables stand in
/// one view and a reader saw the one contradict the other (issue 42 re-run).
pub fn adjusted_trend_note(lang: Lang) -> &'static str {
    lang.pick(
        "Pendiente ponderada por la precisión de cada año (Knapp y Hartung): su intervalo lleva la incertidumbre de cada año, así que existe aun con 2 años, a diferencia de la tendencia de las medidas observadas.",
        "Slope weighting each year by its precision (Knapp and Hartung): its interval carries each year's uncertainty, so it exists even with 2 years, unlike the trend of the observed measures.",
    )
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
    #[test]
    fn the_trend_note_promises_an_interval_only_when_there_is_one() {
        let one = trend_method_note(Lang::Es, 1);
        assert_eq!(one, "Con un solo año no hay tendencia que medir.");
        assert_eq!(trend_method_note(Lang::Es, 0), one);
        for years in 2..6 {
            let points: Vec<(i64, f64)> = (0..years).map(|k| (2000 + k, (k * k) as f64)).collect();
            let trend = crate::linear_trend(&points, 0.95).unwrap();
            for lang in [Lang::Es, Lang::En] {
                let note = trend_method_note(lang, years as usize);
                let promises = note.contains("Student");
                assert_eq!(promises, trend.ci_low.is_some(), "{years}: {note}");
            }
        }
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
