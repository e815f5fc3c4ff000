//! The engine's fixed words in Spanish: names of measures, units and subjects that reports and
//! charts write in English (see `imr_lang` for why texts are rendered per language).

use crate::trend::Correlation;
use crate::year::Measure;
use imr_stats::Lang;

/// A term the engine writes in English ("infant mortality rate", "per 1,000 live births",
/// "births", a measure's unit), in `lang`. Anything else (a column name) is returned as it is.
pub fn term(lang: Lang, english: &str) -> String {
    if lang == Lang::En {
        return english.to_string();
    }
    match english {
        "infant mortality rate" => "tasa de mortalidad infantil".into(),
        "per 1,000 live births" => "por 1.000 nacidos vivos".into(),
        "births" => "nacidos vivos".into(),
        "areas" => "comunas".into(),
        "ratio, no unit" => "razón, sin unidad".into(),
        other => match other
            .strip_prefix("per ")
            .and_then(|r| r.strip_suffix(" live births"))
        {
            Some(n) => format!("por {n} nacidos vivos"),
            None => other.to_string(),
        },
    }
}

impl Measure {
    /// [`Measure::label`] in a language.
    pub fn label_in(self, lang: Lang) -> &'static str {
        let es = match self {
            Measure::NAreas => "Número de comunas",
            Measure::PooledRate => "Tasa agrupada",
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

    /// [`Measure::unit`] in a language.
    pub fn unit_in(self, lang: Lang, value_unit: &str) -> String {
        term(lang, &self.unit(value_unit))
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

    #[test]
    fn engine_terms_have_spanish_names_and_columns_stay_as_they_are() {
        assert_eq!(
            term(Lang::Es, "infant mortality rate"),
            "tasa de mortalidad infantil"
        );
        assert_eq!(
            term(Lang::Es, "per 100 live births"),
            "por 100 nacidos vivos"
        );
        assert_eq!(term(Lang::Es, "ingreso_salud_pc"), "ingreso_salud_pc");
        assert_eq!(term(Lang::En, "births"), "births");
        for m in Measure::ALL {
            assert!(!m.label_in(Lang::Es).is_empty());
            assert_eq!(m.label_in(Lang::En), m.label());
        }
        assert_eq!(
            Measure::Gini.unit_in(Lang::Es, "per 1,000 live births"),
            "razón, sin unidad"
        );
    }
}
