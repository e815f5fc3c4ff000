//! [`MapRequest`]: the choropleth of one year, its summary, its data table and its funnel plot
//! (`imr map`). Both callers validate it against the panel ([`MapRequest::validate`], the one
//! check); the command line then runs it whole ([`ValidatedMap::run`]); the page's Map view runs
//! its stages on boundaries it decoded once ([`ValidatedMap::year_slice`],
//! [`ValidatedMap::colour`], [`ValidatedMap::lisa_colouring`], [`ValidatedMap::moran_test`],
//! [`AreaRates::of`]) and writes the same files ([`MapExport::write`]), so that a new year only
//! recolours.

use super::{push_opt, ColumnUse, RequestError};
use crate::panel::Panel;
use crate::plausibility::Plausibility;
use crate::repeats::{repeat_of_year, RepeatedYear};
use crate::Lang;
use imr_map::classify::Method;
use imr_map::colour::Scheme;
use imr_map::smoothing::Smoothing;
use imr_map::year_map::{default_scheme, Measure};
use serde::{Deserialize, Serialize};

mod choices;
#[cfg(test)]
mod copy_tests;
mod exports;
mod prepared;
mod run;
mod stages;
mod summary;
#[cfg(test)]
mod tests;
mod year_marks;

pub use choices::{ClassScheme, Smooth};
pub use exports::{MapExport, MapFigure};
pub use imr_map::weights::Contiguity;
pub use prepared::PreparedBoundaries;
pub use stages::{AreaRates, Coloured, MapCredits, YearSlice};
pub use summary::{ClassSummary, LisaSummary, MapSummary, MoranSummary};
pub use year_marks::year_without_data_note;

/// Permutations of the LISA test when the request does not say (the page uses 999 too).
pub const LISA_PERMUTATIONS: usize = 999;
/// Significance level of the LISA clusters (the page's too).
pub const LISA_ALPHA: f64 = 0.05;

/// `Lang` as its tag (`en`, `es`) in serialised requests.
mod lang_tag {
    use crate::Lang;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(lang: &Lang, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(lang.tag())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
        let tag = String::deserialize(d)?;
        tag.parse().map_err(serde::de::Error::custom)
    }
}

/// The map of one year: the options of `imr map` that change what is drawn (where the map,
/// its data and its funnel plot are written is the caller's business).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapRequest {
    /// The year to map.
    pub year: i64,
    /// Language of the map's texts (title, legend, source lines).
    #[serde(with = "lang_tag")]
    pub lang: Lang,
    /// A numeric column mapped instead of the infant mortality rate (`rate` is the rate).
    pub value: Option<String>,
    /// Smoothing of the rate.
    pub smooth: Smooth,
    /// Boundaries file (TopoJSON or GeoJSON, WGS84); `None`: the bundled communes.
    pub geometry: Option<String>,
    /// Feature property holding the area code.
    pub code_property: String,
    /// Feature property holding the area name.
    pub name_property: String,
    /// TopoJSON object to read (`None`: the only one, or `comunas`).
    pub object: Option<String>,
    /// Classification.
    pub scheme: ClassScheme,
    /// Number of classes (quantile, equal, jenks).
    pub classes: usize,
    /// Breaks of the custom classification, increasing.
    pub breaks: Vec<f64>,
    /// Colour scheme by name (`None`: ylorrd, burd for box and stddev).
    pub colours: Option<String>,
    /// Moran's I with this many permutations (also the LISA's permutations).
    pub moran: Option<usize>,
    /// Seed of the permutation tests.
    pub seed: u64,
    /// Colour by LISA cluster instead of by class.
    pub lisa: bool,
    /// Neighbours of the spatial EB rate, Moran's I and the LISA: queen (areas sharing a border
    /// or a corner, GeoDa's and libpysal's default) or rook (a border).
    #[serde(default)]
    pub contiguity: Contiguity,
    /// Keep the rows flagged as implausible ([`crate::plausibility`]) in the map; by default
    /// they are left out of the smoothing, the classes, Moran's I and the LISA and the funnel
    /// plot, and drawn as "flagged, left out" (`imr map --include-flagged` keeps them).
    pub include_flagged: bool,
}

impl Default for MapRequest {
    fn default() -> Self {
        MapRequest {
            year: 0,
            lang: Lang::En,
            value: None,
            smooth: Smooth::None,
            geometry: None,
            code_property: "codigo_comuna".into(),
            name_property: "nombre_comuna".into(),
            object: None,
            scheme: ClassScheme::Quantile,
            classes: 5,
            breaks: Vec::new(),
            colours: None,
            moran: None,
            seed: 1,
            lisa: false,
            contiguity: Contiguity::Queen,
            include_flagged: false,
        }
    }
}

/// The boundaries' text, their name in messages and how they are credited on the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boundaries {
    pub text: String,
    pub name: String,
    pub credit: String,
}

/// What the map writes besides the request: its provenance (input files and today's date),
/// the CSV options of its data table and whether the funnel plot is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapContext<'a> {
    /// The input files' names, comma-separated.
    pub source: &'a str,
    /// `YYYY-MM-DD`.
    pub today: &'a str,
    /// Options of the data table.
    pub csv: crate::escape::CsvOptions,
    /// Draw the funnel plot too.
    pub with_funnel: bool,
}

/// A [`MapRequest`] checked against a panel ([`MapRequest::validate`]): the request, its
/// classification, measure and colours, and the year's rows it maps.
#[derive(Debug, Clone)]
pub struct ValidatedMap {
    request: MapRequest,
    method: Method,
    measure: Measure,
    scheme: Scheme,
    rows: YearRows,
    /// The mapped year when it copies an earlier one ([`crate::repeats`]) and the map shows
    /// rates (a copy of the outcome; a column's map is not one).
    copy_of: Option<RepeatedYear>,
    /// The mapped year when its deaths were reconstructed from a published rate
    /// ([`crate::reconstructed`]) and the map shows rates.
    reconstructed: Option<crate::reconstructed::ReconstructedYear>,
}

/// The rows of the mapped year, one per entity in panel order: code, counts, the mapped
/// column's value (none for the rate) and whether the row is flagged as implausible
/// ([`Plausibility::is_flagged`], the rule every view and command shares).
#[derive(Debug, Clone)]
struct YearRows {
    codes: Vec<String>,
    deaths: Vec<Option<f64>>,
    births: Vec<Option<f64>>,
    column: Option<Vec<Option<f64>>>,
    flagged: Vec<bool>,
    /// The row's deaths were reconstructed from a published rate
    /// ([`crate::reconstructed::reconstructed_rows`]).
    reconstructed: Vec<bool>,
}

/// What a [`MapRequest`] draws.
#[derive(Debug, Clone)]
pub struct MapResult {
    /// The choropleth (SVG).
    pub svg: String,
    /// The map's data as CSV (no provenance header).
    pub csv: String,
    /// The funnel plot (SVG), when asked for.
    pub funnel_svg: Option<String>,
    /// The map in numbers, as `imr map` prints it: classes with limits and counts, areas
    /// without data, codes matched and unmatched on either side, Moran's I and LISA counts.
    pub summary: MapSummary,
    /// Data codes that have no boundary, listed in the request's language.
    pub unmatched_data: Vec<String>,
}

impl MapRequest {
    /// The subcommand of `imr` that runs this request.
    pub const SUBCOMMAND: &'static str = "map";

    /// The mapped column, `None` for the rate (`rate` names the rate too).
    pub fn value_column(&self) -> Option<&str> {
        self.value.as_deref().filter(|v| *v != "rate")
    }

    /// The request's own settings checked: breaks go with the custom classification (which
    /// needs them), smoothing with the rate, the colour scheme must exist.
    fn settings(&self) -> Result<(Method, Measure, Scheme), RequestError> {
        if self.scheme != ClassScheme::Custom && !self.breaks.is_empty() {
            return Err(RequestError::BreaksWithoutCustom);
        }
        let method = match self.scheme {
            ClassScheme::Quantile => Method::Quantile {
                classes: self.classes,
            },
            ClassScheme::Equal => Method::EqualInterval {
                classes: self.classes,
            },
            ClassScheme::Jenks => Method::NaturalBreaks {
                classes: self.classes,
            },
            ClassScheme::Box => Method::BoxMap { hinge: 1.5 },
            ClassScheme::Stddev => Method::StdDev,
            ClassScheme::Custom if self.breaks.is_empty() => {
                return Err(RequestError::CustomWithoutBreaks)
            }
            ClassScheme::Custom => Method::Custom {
                breaks: self.breaks.clone(),
            },
        };
        let value_column = self.value_column();
        if value_column.is_some() && self.smooth != Smooth::None {
            return Err(RequestError::SmoothWithValue);
        }
        let measure = match (value_column, self.smooth) {
            (Some(name), _) => Measure::Column(name.to_string()),
            (None, Smooth::None) => Measure::Rate(Smoothing::None),
            (None, Smooth::Eb) => Measure::Rate(Smoothing::GlobalEb),
            (None, Smooth::SpatialEb) => Measure::Rate(Smoothing::SpatialEb),
            (None, Smooth::ExcessRisk) => Measure::ExcessRisk,
        };
        let scheme = match &self.colours {
            Some(name) => {
                Scheme::from_name(name).ok_or_else(|| RequestError::UnknownColours(name.clone()))?
            }
            None => default_scheme(&method),
        };
        Ok((method, measure, scheme))
    }

    /// The one check of a map, before anything is drawn: the request's own settings (breaks
    /// with the custom classification, smoothing with the rate, a known colour scheme), then
    /// against `panel`: the year has rows, the mapped column is numeric, the rate (or its
    /// smoothing) has births and deaths to work from. The validated map keeps the year's rows;
    /// the boundaries are checked when it is drawn ([`ValidatedMap::year_slice`]).
    pub fn validate(&self, panel: &Panel) -> Result<ValidatedMap, RequestError> {
        let (method, measure, scheme) = self.settings()?;
        let year_rows: Vec<usize> = (0..panel.len())
            .filter(|&i| panel.time_values()[i] == self.year)
            .collect();
        if year_rows.is_empty() {
            return Err(RequestError::NoYear {
                year: self.year,
                years: panel.times(),
            });
        }
        let column = self
            .value_column()
            .map(|name| super::numeric(panel, name, ColumnUse::MapValue))
            .transpose()?;
        if measure.needs_counts() && !panel.has_rates() {
            return Err(RequestError::MapNeedsCounts);
        }
        let plausibility = Plausibility::check(panel);
        let codes: Vec<String> = year_rows
            .iter()
            .map(|&i| panel.entity(i).to_owned())
            .collect();
        let reconstructed = crate::reconstructed::reconstructed_rows(panel);
        let rows = YearRows {
            reconstructed: year_rows.iter().map(|&i| reconstructed[i]).collect(),
            flagged: (codes.iter())
                .map(|code| plausibility.is_flagged(code, self.year))
                .collect(),
            deaths: year_rows.iter().map(|&i| panel.row(i).deaths).collect(),
            births: year_rows.iter().map(|&i| panel.row(i).births).collect(),
            column: column.map(|col| year_rows.iter().map(|&i| col[i]).collect()),
            codes,
        };
        let copy_of = measure
            .needs_counts()
            .then(|| repeat_of_year(panel, self.year))
            .flatten();
        let reconstructed = measure
            .needs_counts()
            .then(|| {
                (crate::reconstructed::reconstructed_years(panel).into_iter())
                    .find(|y| y.time == self.year)
            })
            .flatten();
        Ok(ValidatedMap {
            request: self.clone(),
            method,
            measure,
            scheme,
            rows,
            copy_of,
            reconstructed,
        })
    }

    /// Validates and draws the map of `panel` on `boundaries` (see [`ValidatedMap::run`]).
    pub fn run(
        &self,
        panel: &Panel,
        boundaries: &Boundaries,
        context: MapContext<'_>,
    ) -> Result<MapResult, RequestError> {
        self.validate(panel)?.run(boundaries, context)
    }

    /// The `imr map` arguments after the input that reproduce this request, with the map
    /// written to `out` (defaults left out, except the year and the output).
    pub fn to_args(&self, out: &str) -> Vec<String> {
        let mut args = vec!["--year".to_string(), self.year.to_string()];
        if self.lang != Lang::En {
            args.extend(["--lang".to_string(), self.lang.tag().to_string()]);
        }
        push_opt(&mut args, "--value", self.value.as_deref());
        if self.smooth != Smooth::None {
            args.extend(["--smooth".to_string(), self.smooth.name().to_string()]);
        }
        push_opt(&mut args, "--geometry", self.geometry.as_deref());
        let defaults = MapRequest::default();
        if self.code_property != defaults.code_property {
            args.extend(["--code-property".to_string(), self.code_property.clone()]);
        }
        if self.name_property != defaults.name_property {
            args.extend(["--name-property".to_string(), self.name_property.clone()]);
        }
        push_opt(&mut args, "--object", self.object.as_deref());
        // The classification is always spelled out (the page's readers see how the map was
        // classed), with the number of classes where the scheme uses one (or it is not the
        // default).
        args.extend(["--scheme".to_string(), self.scheme.name().to_string()]);
        if self.scheme.uses_class_count() || self.classes != defaults.classes {
            args.extend(["--classes".to_string(), self.classes.to_string()]);
        }
        if !self.breaks.is_empty() {
            let breaks: Vec<String> = self.breaks.iter().map(f64::to_string).collect();
            args.extend(["--breaks".to_string(), breaks.join(",")]);
        }
        push_opt(&mut args, "--colours", self.colours.as_deref());
        if let Some(n) = self.moran {
            args.extend(["--moran".to_string(), n.to_string()]);
        }
        if self.seed != defaults.seed {
            args.extend(["--seed".to_string(), self.seed.to_string()]);
        }
        if self.lisa {
            args.push("--lisa".into());
        }
        if self.contiguity != defaults.contiguity {
            args.extend([
                "--contiguity".to_string(),
                self.contiguity.name().to_string(),
            ]);
        }
        if self.include_flagged {
            args.push("--include-flagged".into());
        }
        args.extend([MapExport::Map.flag().to_string(), out.to_string()]);
        args
    }
}
