//! [`RequestError`] in words of a language: the page shows a request's error in its own
//! language; `Display` is the English the `imr` command prints.

use super::{ColumnUse, RequestError};
use crate::Lang;
use imr_inequality::panel_input::KeyRole;

/// The spatial statistic a [`RequestError::Spatial`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpatialStatistic {
    Moran,
    /// Moran's I of the EB-standardised rates (Assunção & Reis 1999).
    EbMoran,
    Lisa,
}

impl SpatialStatistic {
    fn name(self, lang: Lang) -> &'static str {
        match self {
            SpatialStatistic::Moran => lang.pick("I de Moran", "Moran's I"),
            SpatialStatistic::EbMoran => {
                lang.pick("I de Moran de las tasas EB", "Moran's I of the EB rates")
            }
            SpatialStatistic::Lisa => "LISA",
        }
    }
}

impl std::fmt::Display for SpatialStatistic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name(Lang::En))
    }
}

impl ColumnUse {
    /// The use in words of `lang` ([`ColumnUse::word`] in English).
    pub fn word_in(self, lang: Lang) -> &'static str {
        if lang == Lang::En {
            return self.word();
        }
        match self {
            ColumnUse::Value => "del valor",
            ColumnUse::Weight => "del peso",
            ColumnUse::Against => "de la segunda serie",
            ColumnUse::AgainstWeight => "del peso de la segunda serie",
            ColumnUse::Group => "del grupo",
            ColumnUse::Rank => "del orden",
            ColumnUse::Outcome => "del resultado",
            ColumnUse::Regressor => "de un regresor",
            ColumnUse::Weights => "de los pesos",
            ColumnUse::Exposure => "de la exposición",
            ColumnUse::FixedEffect => "de un efecto fijo",
            ColumnUse::Cluster => "de los grupos de los errores estándar",
            ColumnUse::MapValue => "del valor mapeado",
        }
    }
}

impl From<KeyRole> for ColumnUse {
    /// The use of a key column the inequality engine found a row without.
    fn from(role: KeyRole) -> Self {
        match role {
            KeyRole::Group => ColumnUse::Group,
            KeyRole::Rank => ColumnUse::Rank,
        }
    }
}

/// A column the request names that the data do not have (or not as numbers), for a reader
/// who did not write the request (a shared link, a question of the Findings): the column by
/// its codebook label, not its internal name in back-ticks, and a hint that one of the loaded
/// columns can be chosen in its place, each by its label too. `imr` prints the `Display` text.
fn missing_column(lang: Lang, role: ColumnUse, name: &str, available: &[String]) -> String {
    let label = |column: &str| {
        let words = crate::column_words::choice_label(lang, column);
        // a built-in column (births) is hers under another name: its words alone
        if words == column || crate::panel::BUILTIN_COLUMNS.contains(&column) {
            format!("«{words}»")
        } else {
            format!("«{words}» ({column})")
        }
    };
    let choices = available
        .iter()
        .map(|c| label(c))
        .collect::<Vec<_>>()
        .join(", ");
    match (lang, available.is_empty()) {
        (Lang::Es, false) => format!(
            "Sus datos no tienen {}. Puede elegir en su lugar una columna parecida de sus datos como {}: {choices}.",
            label(name),
            role_name_in(role, lang)
        ),
        (Lang::Es, true) => format!(
            "Sus datos no tienen {}, ni otra columna numérica que pueda usarse como {}.",
            label(name),
            role_name_in(role, lang)
        ),
        (Lang::En, false) => format!(
            "Your data have no {}. You can choose a similar column of your data as the {} instead: {choices}.",
            label(name),
            role_name_in(role, lang)
        ),
        (Lang::En, true) => format!(
            "Your data have no {}, nor another numeric column to use as the {}.",
            label(name),
            role_name_in(role, lang)
        ),
    }
}

/// A column's use as a noun ("el valor", "the weight").
fn role_name_in(role: ColumnUse, lang: Lang) -> &'static str {
    if lang == Lang::En {
        return role.word();
    }
    match role {
        ColumnUse::Value => "valor",
        ColumnUse::Weight => "peso",
        ColumnUse::Against => "segunda serie",
        ColumnUse::AgainstWeight => "peso de la segunda serie",
        ColumnUse::Group => "grupo",
        ColumnUse::Rank => "orden",
        ColumnUse::Outcome => "resultado",
        ColumnUse::Regressor => "regresor",
        ColumnUse::Weights => "pesos",
        ColumnUse::Exposure => "exposición",
        ColumnUse::FixedEffect => "efecto fijo",
        ColumnUse::Cluster => "grupos de los errores estándar",
        ColumnUse::MapValue => "valor del mapa",
    }
}

impl RequestError {
    /// The error in `lang`. English is the `Display` text, but for a column the data do not
    /// have, which names it by its label and says what can be chosen instead.
    pub fn text(&self, lang: Lang) -> String {
        use RequestError::*;
        match self {
            NoNumericColumn {
                role,
                name,
                available,
            }
            | NoColumn {
                role,
                name,
                available,
            } => return missing_column(lang, *role, name, available),
            _ => {}
        }
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            NoNumericColumn { .. } | NoColumn { .. } => unreachable!("worded above"),
            NoRates => "los datos no tienen columnas de nacimientos y defunciones (o tasa)".into(),
            MissingKey(key) => format!(
                "{}, línea {}, columna «{}»: la columna {} necesita un valor en cada fila y esta no tiene",
                key.file,
                key.line,
                key.column,
                ColumnUse::from(key.role).word_in(lang)
            ),
            NoRegressors => "indique al menos un regresor".into(),
            WeightsNotSupported { model } => format!(
                "los pesos se aceptan en pooled, fe y twfe; `{model}` se estima sin pesos en R plm y Stata"
            ),
            AbsorbedNeedsWithin { model } => format!(
                "los efectos fijos absorbidos van con el modelo de efectos fijos intragrupos («fe») y con «poisson-fe»; «{model}» no los acepta"
            ),
            ClusterNeedsAbsorbedAndClustered { cluster } => format!(
                "los grupos (`{cluster}`) van con efectos fijos absorbidos y errores estándar \
                 agrupados (vcov cluster)"
            ),
            FixedEffects(error) => error.text(lang),
            Level(level) => {
                format!("el nivel de confianza debe estar entre 0 y 1, y es {level}")
            }
            BreaksWithoutCustom => {
                "los cortes solo se usan con la clasificación personalizada".into()
            }
            CustomWithoutBreaks => {
                "la clasificación personalizada necesita cortes, p. ej. 4,6,8".into()
            }
            UnknownColours(name) => format!(
                "esquema de colores desconocido {name:?}; use ylorrd, blues, viridis, cividis, burd o puor"
            ),
            SmoothWithValue => {
                "el suavizado se aplica a la tasa; no se combina con otra columna mapeada".into()
            }
            MapNeedsCounts => {
                "la tasa necesita columnas de nacimientos y defunciones (o tasa); mapee otra columna"
                    .into()
            }
            NoYear { year, years } => format!(
                "ninguna fila del año {year}; los datos tienen: {}",
                years
                    .iter()
                    .map(|y| y.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Boundaries { name, problem } if problem.is_readable() => {
                format!("{name}: {}", problem.text(lang))
            }
            Boundaries { name, problem } => {
                format!(
                    "{name}: no se pueden leer los límites ({})",
                    problem.text(lang)
                )
            }
            ModelFailed { model, error } => format!("modelo {model}: {}", error.text(lang)),
            SecondSeriesAnalysis { column, error } => {
                format!("segunda serie `{column}`: {}", error.text(lang))
            }
            Inequality(error) => error.text(lang),
            Rates(error) => error.text(lang),
            Spatial { statistic, error } => {
                format!("{}: {}", statistic.name(lang), error.text(lang))
            }
            Funnel(error) => format!("gráfico de embudo: {}", error.text(lang)),
            MapValues { year, error } => format!("año {year}: {}", error.text(lang)),
            Classification { year, error } => format!("año {year}: {}", error.text(lang)),
        }
    }
}

/// Why the boundaries of a map cannot be used: the map engine's own error, kept as a value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoundaryProblem {
    /// The file is not a readable TopoJSON or GeoJSON layer of areas.
    #[error(transparent)]
    Geometry(#[from] imr_map::geometry::GeometryError),
    /// The areas' neighbours (rook contiguity) cannot be found.
    #[error(transparent)]
    Weights(#[from] imr_map::weights::WeightsError),
    /// The areas cannot be laid out on the page.
    #[error(transparent)]
    Layout(#[from] imr_map::layout::LayoutError),
    /// None of the data's codes is an area of the boundaries (boxed: the error stays small).
    #[error(transparent)]
    NoCodeMatches(Box<CodeMismatch>),
}

impl From<CodeMismatch> for BoundaryProblem {
    fn from(mismatch: CodeMismatch) -> Self {
        BoundaryProblem::NoCodeMatches(Box::new(mismatch))
    }
}

impl BoundaryProblem {
    /// The problem in `lang` (English is the `Display` text).
    pub fn text(&self, lang: Lang) -> String {
        match self {
            BoundaryProblem::Geometry(e) => e.text(lang),
            BoundaryProblem::Weights(e) => e.text(lang),
            BoundaryProblem::Layout(e) => e.text(lang),
            BoundaryProblem::NoCodeMatches(e) => e.text(lang),
        }
    }

    /// The file can be read; the problem is what it holds (words that do not say "cannot read").
    fn is_readable(&self) -> bool {
        matches!(self, BoundaryProblem::NoCodeMatches(_))
    }
}

/// How many examples of codes and properties a [`CodeMismatch`] names.
pub const MISMATCH_EXAMPLES: usize = 5;

/// The data's codes and the boundaries' codes have nothing in common: what each side has, so
/// that the reader sees whether the code property, the padding or the file is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "none of these {data_codes} codes is in the boundaries: {} (the boundaries' {areas} areas \
     have codes like {} in the property `{code_property}`; the file's properties are {})",
    listed(data_examples, *data_codes),
    listed(boundary_examples, *areas),
    listed(properties, *property_count)
)]
pub struct CodeMismatch {
    /// Number of distinct data codes of the year.
    pub data_codes: usize,
    /// The first of them (at most `MISMATCH_EXAMPLES`).
    pub data_examples: Vec<String>,
    /// The property the areas' codes were read from.
    pub code_property: String,
    /// Number of areas in the boundaries.
    pub areas: usize,
    /// The first areas' codes (at most `MISMATCH_EXAMPLES`).
    pub boundary_examples: Vec<String>,
    /// Number of distinct feature properties in the file.
    pub property_count: usize,
    /// The first of them (at most 12).
    pub properties: Vec<String>,
}

/// `a, b, c` or `a, b, c, …` when there are more than listed.
fn listed(items: &[String], total: usize) -> String {
    let mut text = items.join(", ");
    if total > items.len() {
        text.push_str(", …");
    }
    text
}

impl CodeMismatch {
    /// The mismatch of the data codes `codes` (distinct) with the areas of `layer`.
    pub fn of(codes: &[&str], layer: &imr_map::GeoLayer, code_property: &str) -> Self {
        CodeMismatch {
            data_codes: codes.len(),
            data_examples: codes
                .iter()
                .take(MISMATCH_EXAMPLES)
                .map(|c| c.to_string())
                .collect(),
            code_property: code_property.to_string(),
            areas: layer.areas.len(),
            boundary_examples: layer
                .areas
                .iter()
                .take(MISMATCH_EXAMPLES)
                .map(|a| a.code.clone())
                .collect(),
            property_count: layer.properties.len(),
            properties: layer.properties.iter().take(12).cloned().collect(),
        }
    }

    /// The mismatch in `lang` (English is the `Display` text).
    pub fn text(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        format!(
            "ninguno de estos {} códigos está en los límites: {} (las {} áreas de los límites \
             tienen códigos como {} en la propiedad `{}`; las propiedades del archivo son {})",
            self.data_codes,
            listed(&self.data_examples, self.data_codes),
            self.areas,
            listed(&self.boundary_examples, self.areas),
            self.code_property,
            listed(&self.properties, self.property_count)
        )
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(RequestError, BoundaryProblem, CodeMismatch);

#[cfg(test)]
mod tests {
    use super::*;
    use imr_map::autocorrelation::AutocorrelationError;
    use imr_map::classify::ClassifyError;
    use imr_map::smoothing::SmoothError;

    #[test]
    fn english_is_unchanged_and_spanish_has_no_english_words() {
        let errors = [
            RequestError::NoNumericColumn {
                role: ColumnUse::Weights,
                name: "w".into(),
                available: vec!["x".into()],
            },
            RequestError::NoRates,
            RequestError::MapNeedsCounts,
            RequestError::NoYear {
                year: 2030,
                years: vec![2019, 2020],
            },
            RequestError::Spatial {
                statistic: SpatialStatistic::Moran,
                error: AutocorrelationError::Constant,
            },
            RequestError::Spatial {
                statistic: SpatialStatistic::Lisa,
                error: AutocorrelationError::TooFewAreas(2),
            },
            RequestError::Funnel(SmoothError::NoUsableArea),
            RequestError::MapValues {
                year: 2020,
                error: SmoothError::NoUsableArea,
            },
            RequestError::Classification {
                year: 2020,
                error: ClassifyError::NoData,
            },
            RequestError::Inequality(imr_inequality::InequalityError::Empty),
            RequestError::SecondSeriesAnalysis {
                column: "ingreso".into(),
                error: imr_inequality::InequalityError::Incomplete {
                    entity: "13101".into(),
                    time: 2020,
                    what: imr_inequality::Field::Group,
                },
            },
            RequestError::Rates(crate::rates::RateError::MissingColumn {
                missing: crate::ingest::Role::Births,
            }),
            RequestError::MissingKey(imr_inequality::panel_input::MissingKey {
                file: "datos.csv".into(),
                line: 7,
                column: "region".into(),
                role: KeyRole::Group,
            }),
            RequestError::Boundaries {
                name: "limites.json".into(),
                problem: BoundaryProblem::Geometry(imr_map::geometry::GeometryError::Empty),
            },
        ];
        assert_eq!(
            errors[12].text(Lang::Es),
            "datos.csv, línea 7, columna «region»: la columna del grupo necesita un valor en cada \
             fila y esta no tiene"
        );
        assert_eq!(
            errors[11].to_string(),
            "rates need births and deaths (or a rate) columns; the data have births missing — choose the column"
        );
        assert_eq!(
            errors[4].to_string(),
            "Moran's I: all values are equal: Moran's I is not defined"
        );
        assert_eq!(
            errors[6].to_string(),
            "funnel plot: no area has both deaths and births (births > 0)"
        );
        assert_eq!(
            errors[7].to_string(),
            "year 2020: no area has both deaths and births (births > 0)"
        );
        const ENGLISH: [&str; 15] = [
            "the", "is", "are", "not", "and", "has", "have", "year", "values", "area", "needs",
            "column", "births", "group", "missing",
        ];
        // A column the data do not have: by its label, with the loaded columns to choose.
        let missing = RequestError::NoNumericColumn {
            role: ColumnUse::Against,
            name: "ingreso_salud_pc".into(),
            available: vec!["pobreza".into(), "mi_variable".into()],
        };
        assert_eq!(
            missing.text(Lang::Es),
            "Sus datos no tienen «Ingresos municipales de salud por habitante» (ingreso_salud_pc). \
             Puede elegir en su lugar una columna parecida de sus datos como segunda serie: \
             «Pobreza por ingresos (CASEN)» (pobreza), «mi_variable»."
        );
        assert!(!missing.text(Lang::Es).contains('`'));
        assert!(missing.text(Lang::En).starts_with(
            "Your data have no «Municipal health income per inhabitant» (ingreso_salud_pc). You can choose"
        ));
        // `imr` prints what it printed.
        assert!(missing
            .to_string()
            .starts_with("the second series column `ingreso_salud_pc`"));
        for error in &errors {
            let text = error.text(Lang::Es);
            assert_eq!(
                imr_lang::spanish_problems(error),
                Vec::<String>::new(),
                "{text}"
            );
            assert_ne!(&text, &error.to_string());
            for word in text.split(|c: char| !c.is_alphanumeric()) {
                assert!(!ENGLISH.contains(&word), "{word:?} in {text:?}");
            }
        }
    }
}
