//! The engine's fixed words in Spanish: names of measures, units and subjects that reports and
//! charts write in English (see `imr_stats::lang` for why texts are rendered per language).

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

/// Why a measure or its interval is not available (the text of [`crate::Unavailable`] or of the
/// bootstrap, as stored in the report), in `lang`. Unknown text is returned as it is.
pub fn reason(lang: Lang, english: &str) -> String {
    if lang == Lang::En {
        return english.to_string();
    }
    if let Some(rest) = english.strip_prefix("no interval, ") {
        return format!("sin intervalo, {}", reason(lang, rest));
    }
    if let Some((k, rest)) = english
        .strip_prefix("not defined in ")
        .and_then(|r| r.split_once(" of "))
    {
        if let Some(b) = rest.strip_suffix(" bootstrap replicates, so no interval is given") {
            return format!(
                "no está definida en {k} de {b} réplicas bootstrap, por lo que no hay intervalo"
            );
        }
    }
    if let Some(n) = english.strip_suffix(
        " area(s) have value 0 and the logarithm of 0 is undefined; zeros are data and are not replaced",
    ) {
        return format!(
            "{n} comuna(s) tienen valor 0 y el logaritmo de 0 no está definido; los ceros son datos y no se reemplazan"
        );
    }
    match english {
        "no area with a positive weight (births) this year" => {
            "ninguna comuna con peso positivo (nacidos vivos) este año".into()
        }
        "the pooled mean is 0, so a ratio to it is undefined" => {
            "la media agrupada es 0, por lo que una razón respecto de ella no está definida".into()
        }
        "the 10th percentile is 0, so the ratio is undefined" => {
            "el percentil 10 es 0, por lo que la razón no está definida".into()
        }
        "the lowest or highest quintile of the rank holds no area (an area with a large weight straddles the cut-off)" => {
            "el quintil más bajo o más alto del orden no contiene comunas (una comuna con mucho peso cruza el punto de corte)".into()
        }
        "the lowest quintile has value 0, so the ratio is undefined" => {
            "el quintil más bajo tiene valor 0, por lo que la razón no está definida".into()
        }
        "every area has the same rank value: no gradient can be estimated" => {
            "todas las comunas tienen el mismo valor de orden: no se puede estimar un gradiente".into()
        }
        "the fitted value at the bottom of the rank is ≤ 0, so the relative index is undefined" => {
            "el valor ajustado en la base del orden es ≤ 0, por lo que el índice relativo no está definido".into()
        }
        other => other.to_string(),
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
    fn every_reason_of_unavailability_has_a_spanish_text() {
        use crate::Unavailable::*;
        for u in [
            NoAreas,
            ZeroMean,
            ZeroValues { count: 3 },
            ZeroP10,
            EmptyQuintile,
            ZeroLowestQuintile,
            NoRankVariation,
            NonPositiveIntercept,
        ] {
            let en = u.to_string();
            assert_ne!(reason(Lang::Es, &en), en, "{en}");
            assert_eq!(reason(Lang::En, &en), en);
            let no_interval = format!("no interval, {en}");
            assert!(reason(Lang::Es, &no_interval).starts_with("sin intervalo, "));
            assert_ne!(
                reason(Lang::Es, &no_interval),
                format!("sin intervalo, {en}")
            );
        }
        assert_eq!(
            reason(
                Lang::Es,
                "not defined in 3 of 200 bootstrap replicates, so no interval is given"
            ),
            "no está definida en 3 de 200 réplicas bootstrap, por lo que no hay intervalo"
        );
    }

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
