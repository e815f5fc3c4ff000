//! The reader's choices ([`MapOptions`]), kept in the URL fragment, and the [`MapRequest`] they
//! make.

use super::{Geometry, MapError};
use crate::i18n::Lang;
use imr_core::map::colour::Scheme;
use imr_core::request::{ClassScheme, Contiguity, MapRequest, Smooth, LISA_PERMUTATIONS};
use leptos::prelude::*;

/// The reader's choices, each kept in the URL fragment under its key (a shared link reopens the
/// same map): `year`, `variable`, `smooth`, `scheme`, `classes`, `breaks`, `colours`, `lisa`,
/// `contiguity`
/// (and the selected commune, [`super::selection::Selection`], under `commune`).
/// The include-flagged choice is the views' shared one
/// ([`crate::state::AnalysisState`], key `include-flagged`).
#[derive(Clone, Copy)]
pub(crate) struct MapOptions {
    pub year: RwSignal<Option<i64>>,
    /// `rate` or a numeric column.
    pub variable: RwSignal<String>,
    pub smooth: RwSignal<Smooth>,
    pub scheme: RwSignal<ClassScheme>,
    pub classes: RwSignal<usize>,
    /// The custom breaks as typed.
    pub breaks: RwSignal<String>,
    /// A colour scheme's name or `auto`.
    pub colours: RwSignal<String>,
    pub lisa: RwSignal<bool>,
    /// Neighbours of the spatial EB rate, Moran's I and the LISA.
    pub contiguity: RwSignal<Contiguity>,
}

impl MapOptions {
    pub(super) fn from_fragment() -> Self {
        let fragment = crate::fragment::fragment();
        MapOptions {
            year: fragment.synced_with(
                "year",
                None::<i64>,
                |y| y.map(|v| v.to_string()).unwrap_or_default(),
                |s| Some(s.parse().ok()),
            ),
            variable: fragment.synced("variable", "rate".to_string()),
            smooth: fragment.synced_with(
                "smooth",
                Smooth::None,
                |c| c.name().to_owned(),
                |s| Smooth::ALL.into_iter().find(|c| c.name() == s),
            ),
            scheme: fragment.synced_with(
                "scheme",
                ClassScheme::Quantile,
                |c| c.name().to_owned(),
                |s| ClassScheme::ALL.into_iter().find(|c| c.name() == s),
            ),
            classes: fragment.synced("classes", 5usize),
            breaks: fragment.synced("breaks", String::new()),
            colours: fragment.synced("colours", "auto".to_string()),
            lisa: fragment.synced("lisa", false),
            contiguity: fragment.synced_with(
                "contiguity",
                Contiguity::Queen,
                |c| c.name().to_owned(),
                Contiguity::from_name,
            ),
        }
    }

    /// The request of the current choices on `geo` (`None` before a year is known; an error
    /// when the custom breaks do not read as numbers). Smoothing applies to the rate only; a
    /// colour name the engine does not know is `auto`; Moran's I and the LISA use
    /// [`LISA_PERMUTATIONS`] permutations and the default seed.
    pub(super) fn request(
        &self,
        lang: Lang,
        geo: &Geometry,
        include_flagged: bool,
    ) -> Option<Result<MapRequest, MapError>> {
        let year = self.year.get()?;
        let variable = self.variable.get();
        let rate = variable == "rate";
        let scheme = self.scheme.get();
        let breaks = if scheme == ClassScheme::Custom {
            match parse_breaks(&self.breaks.get()) {
                Ok(b) => b,
                Err(e) => return Some(Err(e)),
            }
        } else {
            Vec::new()
        };
        let colours = self.colours.get();
        Some(Ok(MapRequest {
            year,
            lang,
            value: (!rate).then_some(variable),
            smooth: if rate {
                self.smooth.get()
            } else {
                Smooth::None
            },
            geometry: geo.file.clone(),
            code_property: geo.code_property.clone(),
            name_property: geo.name_property.clone().unwrap_or_default(),
            scheme,
            classes: self.classes.get(),
            breaks,
            colours: Scheme::from_name(&colours).is_some().then_some(colours),
            moran: Some(LISA_PERMUTATIONS),
            lisa: self.lisa.get(),
            contiguity: self.contiguity.get(),
            include_flagged,
            ..MapRequest::default()
        }))
    }
}

/// The custom breaks as typed: numbers separated by commas, semicolons or spaces (at least one;
/// the engine checks that they increase), or [`MapError::Breaks`] with the text.
fn parse_breaks(text: &str) -> Result<Vec<f64>, MapError> {
    let parsed: Result<Vec<f64>, _> = text
        .split([',', ';', ' '])
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse::<f64>())
        .collect();
    match parsed {
        Ok(b) if !b.is_empty() => Ok(b),
        _ => Err(MapError::Breaks(text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_breaks;

    /// Breaks read with commas, semicolons or spaces; nothing or a word is an error quoting
    /// what was read.
    #[test]
    fn custom_breaks_read_as_numbers_or_say_what_was_read() {
        assert_eq!(parse_breaks("4, 6;8 12.5"), Ok(vec![4.0, 6.0, 8.0, 12.5]));
        assert!(parse_breaks("").is_err());
        assert_eq!(
            parse_breaks("4, six").unwrap_err(),
            super::MapError::Breaks("4, six".into())
        );
    }
}
