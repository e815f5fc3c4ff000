//! What the area values or their weights are ([`Quantity`]) and their unit ([`Unit`]), as
//! values worded in Spanish or English (re-exported by [`crate::words`], the engine's words).
//! They depend on nothing else of the crate, so that the inputs ([`crate::input`]) and the
//! measures ([`crate::year`]) can carry them.

use imr_stats::Lang;

/// What the area values or their weights are ([`crate::SubjectInfo::value_name`],
/// [`crate::SubjectInfo::weight_name`]): one of the engine's own quantities, worded per
/// language, or a column of the input, whose name is the same in every language.
#[derive(Debug, Clone, PartialEq)]
pub enum Quantity {
    /// The infant mortality rate of the area (deaths over live births).
    InfantMortalityRate,
    /// The live births of the area, the rates' weights.
    Births,
    /// A column of the input, by name.
    Column(String),
}

impl Quantity {
    /// The quantity in `lang`: "infant mortality rate", "tasa de mortalidad infantil"; a
    /// column's name as it is.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Quantity::InfantMortalityRate => lang
                .pick("tasa de mortalidad infantil", "infant mortality rate")
                .into(),
            Quantity::Births => lang.pick("nacidos vivos", "births").into(),
            Quantity::Column(name) => name.clone(),
        }
    }

    /// A column of the input by its name: the panel's births column (`births`, the name the
    /// ingest gives it) is the engine's [`Quantity::Births`], worded per language; any other
    /// column is [`Quantity::Column`].
    pub fn of_column(name: &str) -> Self {
        match name {
            "births" => Quantity::Births,
            _ => Quantity::Column(name.to_owned()),
        }
    }

    /// The quantity in a Spanish sentence: its words, or a column's name in «».
    pub fn quoted_es(&self) -> String {
        match self {
            Quantity::Column(name) => format!("«{name}»"),
            _ => self.text(Lang::Es),
        }
    }
}

/// The unit of the area values ([`crate::SubjectInfo::unit`]) or of a measure
/// ([`crate::Measure::unit`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Unit {
    /// A rate per `per` live births ("per 1,000 live births").
    PerLiveBirths { per: f64 },
    /// A count of areas.
    Areas,
    /// A percentage.
    Percent,
    /// A ratio, no unit.
    Ratio,
    /// The unit the caller gave a value column (e.g. "CLP per capita"), as it is; may be empty.
    Given(String),
}

impl Unit {
    /// The unit in `lang`: "per 1,000 live births", "por 1.000 nacidos vivos".
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Unit::PerLiveBirths { per }, Lang::En) if *per == 1000.0 => {
                "per 1,000 live births".into()
            }
            (Unit::PerLiveBirths { per }, Lang::Es) if *per == 1000.0 => {
                "por 1.000 nacidos vivos".into()
            }
            (Unit::PerLiveBirths { per }, Lang::En) => format!("per {per} live births"),
            (Unit::PerLiveBirths { per }, Lang::Es) => format!("por {per} nacidos vivos"),
            (Unit::Areas, _) => lang.pick("comunas", "areas").into(),
            (Unit::Percent, _) => "%".into(),
            (Unit::Ratio, _) => lang.pick("razón, sin unidad", "ratio, no unit").into(),
            (Unit::Given(unit), _) => unit.clone(),
        }
    }

    /// Whether the unit has no words (a value column given without a unit).
    pub fn is_empty(&self) -> bool {
        matches!(self, Unit::Given(unit) if unit.is_empty())
    }
}

/// English, the text of the JSON report and of `imr inequality`.
macro_rules! english_display_and_json {
    ($($type:ty),+) => {$(
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.text(Lang::En))
            }
        }

        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }
    )+};
}

english_display_and_json!(Quantity, Unit);

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(Quantity, Unit);
