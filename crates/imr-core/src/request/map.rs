//! [`MapRequest`]: the choropleth of one year, its summary, its data table and its funnel plot
//! (`imr map`). The command line runs it whole ([`MapRequest::run`]); the page's Map view runs
//! its stages on boundaries it decoded once ([`MapRequest::year_slice`], [`ValidatedMap::colour`],
//! [`MapRequest::lisa_colouring`], [`MapRequest::moran_test`], [`MapRequest::funnel_figure`],
//! [`AreaRates::of`]), so that a new year only recolours.

use super::{push_opt, ColumnUse, RequestError};
use crate::panel::Panel;
use crate::Lang;
use imr_map::autocorrelation::{lisa, moran, Lisa, LisaCluster, Moran};
use imr_map::classify::{Classification, Method};
use imr_map::colour::Scheme;
use imr_map::funnel::funnel;
use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::{LayoutSpec, MapLayout};
use imr_map::smoothing::{excess_risk, global_eb, raw_rates, spatial_eb, Smoothing};
use imr_map::svg::{choropleth_svg, funnel_svg, Colouring, FunnelText, MapText};
use imr_map::weights::Weights;
use imr_map::year_map::{colour_values_flagged, default_scheme, map_csv_with, Measure, YearData};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Permutations of the LISA test when the request does not say (the page uses 999 too).
pub const LISA_PERMUTATIONS: usize = 999;
/// Significance level of the LISA clusters (the page's too).
pub const LISA_ALPHA: f64 = 0.05;

/// Smoothing of the mapped rate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Smooth {
    /// Raw rate per 1,000
    #[default]
    None,
    /// Global empirical Bayes (Marshall 1991)
    Eb,
    /// Spatial empirical Bayes (neighbours sharing a border, and the commune itself)
    SpatialEb,
    /// Excess risk: observed / expected deaths at the pooled rate of the year
    ExcessRisk,
}

impl Smooth {
    /// The smoothings in the order offered.
    pub const ALL: [Smooth; 4] = [
        Smooth::None,
        Smooth::Eb,
        Smooth::SpatialEb,
        Smooth::ExcessRisk,
    ];

    /// The name on the command line and in the JSON summary.
    pub fn name(self) -> &'static str {
        match self {
            Smooth::None => "none",
            Smooth::Eb => "eb",
            Smooth::SpatialEb => "spatial-eb",
            Smooth::ExcessRisk => "excess-risk",
        }
    }
}

/// Classification of the mapped values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ClassScheme {
    /// Classes with equal counts
    #[default]
    Quantile,
    /// Classes of equal width
    Equal,
    /// Natural breaks (Jenks, exact Fisher optimisation)
    Jenks,
    /// Box map: outliers beyond 1.5 interquartile ranges, quartiles
    Box,
    /// Standard deviations from the mean
    Stddev,
    /// Your own breaks (--breaks)
    Custom,
}

impl ClassScheme {
    /// The schemes in the order offered.
    pub const ALL: [ClassScheme; 6] = [
        ClassScheme::Quantile,
        ClassScheme::Equal,
        ClassScheme::Jenks,
        ClassScheme::Box,
        ClassScheme::Stddev,
        ClassScheme::Custom,
    ];

    /// Quantile, equal and Jenks classes take a number of classes; the others do not.
    pub fn uses_class_count(self) -> bool {
        matches!(
            self,
            ClassScheme::Quantile | ClassScheme::Equal | ClassScheme::Jenks
        )
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ClassScheme::Quantile => "quantile",
            ClassScheme::Equal => "equal",
            ClassScheme::Jenks => "jenks",
            ClassScheme::Box => "box",
            ClassScheme::Stddev => "stddev",
            ClassScheme::Custom => "custom",
        }
    }
}

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
    /// Compute the class breaks with the plausibility-flagged values too.
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

/// A [`MapRequest`] checked without the data: classification, measure and colours.
#[derive(Debug, Clone)]
pub struct ValidatedMap {
    method: Method,
    measure: Measure,
    scheme: Scheme,
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
    /// The JSON summary: classes with limits and counts, areas without data, codes unmatched
    /// on either side, Moran's I and LISA counts.
    pub summary: serde_json::Value,
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

    /// The checks that need no data: breaks go with the custom classification (which needs
    /// them), smoothing with the rate, the colour scheme must exist.
    pub fn check(&self) -> Result<ValidatedMap, RequestError> {
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
        Ok(ValidatedMap {
            method,
            measure,
            scheme,
        })
    }

    /// Draws the map of `panel` on `boundaries` (see [`ValidatedMap::run`]).
    pub fn run(
        &self,
        panel: &Panel,
        boundaries: &Boundaries,
        context: MapContext<'_>,
    ) -> Result<MapResult, RequestError> {
        self.check()?.run(self, panel, boundaries, context)
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
        if self.include_flagged {
            args.push("--include-flagged".into());
        }
        args.extend(["--out".to_string(), out.to_string()]);
        args
    }
}

/// JSON has no infinity: open class limits are null.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// One year's rows aligned to the areas of the boundaries, with each area's plausibility flag.
#[derive(Debug, Clone, PartialEq)]
pub struct YearSlice {
    /// The year.
    pub year: i64,
    /// Deaths, births and the mapped column per area, and the codes unmatched on either side.
    pub data: YearData,
    /// Per area: the year's row is flagged as implausible (left out of the class breaks unless
    /// the request includes flagged values).
    pub flagged: Vec<bool>,
}

/// What the map's source lines say: the input files, the boundaries' credit and the date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapCredits<'a> {
    /// The input files' names, comma-separated.
    pub source: &'a str,
    /// The bundled boundaries' credit or the boundaries' file name.
    pub boundaries: &'a str,
    /// `YYYY-MM-DD`.
    pub today: &'a str,
}

/// The mapped values of a year, their classes and colours, and the map's texts.
#[derive(Debug, Clone)]
pub struct Coloured {
    /// The mapped value per area (rate, smoothed rate, excess risk or column).
    pub values: Vec<Option<f64>>,
    /// Classes of the values (breaks, limits, counts, class of each area).
    pub classification: Classification,
    /// Fill, class and legend of each area, with the method and flagged notes.
    pub colouring: Colouring,
    /// Title, subtitle, legend title and source lines, in the request's language.
    pub text: MapText,
}

/// Every rate of each area, for the map's data table: the raw rate per 1,000 with its exact
/// (Garwood) 95% interval, the global and spatial empirical Bayes rates (Marshall 1991) and the
/// excess risk (observed / expected deaths at the year's pooled rate). `None` where an area has
/// no data or an estimator fails for the year (the same values as the CSV's columns).
#[derive(Debug, Clone, PartialEq)]
pub struct AreaRates {
    pub rate_per_1000: Vec<Option<f64>>,
    pub ci95_low: Vec<Option<f64>>,
    pub ci95_high: Vec<Option<f64>>,
    pub eb_global: Vec<Option<f64>>,
    pub eb_spatial: Vec<Option<f64>>,
    pub excess_risk: Vec<Option<f64>>,
}

impl AreaRates {
    /// The rates of `data` (one entry per area), neighbours from `weights`.
    pub fn of(data: &YearData, weights: &Weights) -> Self {
        let n = data.deaths.len();
        let (d, b) = (&data.deaths, &data.births);
        let raw = raw_rates(d, b).unwrap_or_else(|_| vec![None; n]);
        let intervals: Vec<_> = d
            .iter()
            .zip(b)
            .map(|(dd, bb)| match (dd, bb) {
                (Some(dd), Some(bb)) => crate::rates::rate_with_interval(*dd, *bb),
                _ => (None, None, None),
            })
            .collect();
        AreaRates {
            rate_per_1000: raw.iter().zip(&intervals).map(|(r, i)| r.or(i.0)).collect(),
            ci95_low: intervals.iter().map(|i| i.1).collect(),
            ci95_high: intervals.iter().map(|i| i.2).collect(),
            eb_global: global_eb(d, b)
                .map(|g| g.rates)
                .unwrap_or_else(|_| vec![None; n]),
            eb_spatial: spatial_eb(d, b, weights).unwrap_or_else(|_| vec![None; n]),
            excess_risk: excess_risk(d, b)
                .map(|e| e.ratio)
                .unwrap_or_else(|_| vec![None; n]),
        }
    }
}

impl MapRequest {
    /// The rows of `request.year` (one per entity) aligned to the areas of `layer`, with the
    /// mapped column when the request names one, and each area flagged by `is_flagged(entity,
    /// year)`.
    pub fn year_slice(
        &self,
        panel: &Panel,
        layer: &GeoLayer,
        is_flagged: impl Fn(&str, i64) -> bool,
    ) -> Result<YearSlice, RequestError> {
        let year_rows: Vec<usize> = (0..panel.rows.len())
            .filter(|&i| panel.rows[i].time == self.year)
            .collect();
        if year_rows.is_empty() {
            return Err(RequestError::NoYear {
                year: self.year,
                years: panel.times(),
            });
        }
        let codes: Vec<&str> = year_rows
            .iter()
            .map(|&i| panel.rows[i].entity.as_str())
            .collect();
        let column = self
            .value_column()
            .map(|name| super::numeric(panel, name, ColumnUse::MapValue))
            .transpose()?;
        let deaths: Vec<Option<f64>> = year_rows.iter().map(|&i| panel.rows[i].deaths).collect();
        let births: Vec<Option<f64>> = year_rows.iter().map(|&i| panel.rows[i].births).collect();
        let column_of_year: Option<Vec<Option<f64>>> = column
            .as_ref()
            .map(|col| year_rows.iter().map(|&i| col[i]).collect());
        let data = YearData::from_rows(layer, &codes, &deaths, &births, column_of_year.as_deref());
        let mut flagged = vec![false; layer.areas.len()];
        for (k, area) in data.matching.area_of_entity.iter().enumerate() {
            if let Some(area) = *area {
                flagged[area] = is_flagged(codes[k], self.year);
            }
        }
        Ok(YearSlice {
            year: self.year,
            data,
            flagged,
        })
    }

    /// The LISA cluster colouring of `values` (permutations: the request's Moran permutations
    /// or [`LISA_PERMUTATIONS`]; significance [`LISA_ALPHA`]), legend in the request's language.
    pub fn lisa_colouring(
        &self,
        values: &[Option<f64>],
        weights: &Weights,
    ) -> Result<(Colouring, Lisa), RequestError> {
        let l = lisa(
            values,
            weights,
            self.moran.unwrap_or(LISA_PERMUTATIONS),
            self.seed,
            LISA_ALPHA,
        )
        .map_err(|e| RequestError::Analysis(format!("LISA: {e}")))?;
        let colouring = Colouring::from_lisa_in(values, &l.clusters, LISA_ALPHA, self.lang);
        Ok((colouring, l))
    }

    /// Moran's I of `values` with its permutation test, when the request asks for it.
    pub fn moran_test(
        &self,
        values: &[Option<f64>],
        weights: &Weights,
    ) -> Option<Result<Moran, RequestError>> {
        let permutations = self.moran?;
        Some(
            moran(values, weights, permutations, self.seed)
                .map_err(|e| RequestError::Analysis(format!("Moran's I: {e}"))),
        )
    }

    /// The funnel plot (SVG) of the year's raw rates against births, with the map's source
    /// lines (`text`).
    pub fn funnel_figure(
        &self,
        data: &YearData,
        layout: &MapLayout,
        text: &MapText,
    ) -> Result<String, RequestError> {
        let f = funnel(&data.deaths, &data.births, 60)
            .map_err(|e| RequestError::Analysis(format!("funnel plot: {e}")))?;
        Ok(funnel_svg(
            &f,
            &layout.codes,
            &layout.names,
            &FunnelText {
                title: self
                    .lang
                    .pick(
                        "Mortalidad infantil según nacidos vivos",
                        "Infant mortality against births",
                    )
                    .into(),
                year: self.year.to_string(),
                source: text.source.clone(),
                lang: self.lang,
                metadata: text.metadata.clone(),
            },
        ))
    }
}

impl ValidatedMap {
    /// The measure mapped (its decimals and its file-name word).
    pub fn measure(&self) -> &Measure {
        &self.measure
    }

    /// The values of the measure on `slice`, classed without the plausibility-flagged areas
    /// unless the request includes them, coloured by class, and the map's texts with their
    /// source lines (`credits`).
    pub fn colour(
        &self,
        request: &MapRequest,
        panel: &Panel,
        slice: &YearSlice,
        weights: &Weights,
        credits: MapCredits<'_>,
    ) -> Result<Coloured, RequestError> {
        if self.measure.needs_counts()
            && !(panel.has_births && (panel.has_deaths || panel.deaths_derived))
        {
            return Err(RequestError::MapNeedsCounts);
        }
        let lang = request.lang;
        let year_error = |e: &dyn std::fmt::Display| {
            RequestError::Analysis(format!("year {}: {e}", request.year))
        };
        let values = self
            .measure
            .values(&slice.data, weights)
            .map_err(|e| year_error(&e))?;
        let (classification, mut colouring) = colour_values_flagged(
            &values,
            &slice.flagged,
            request.include_flagged,
            &self.method,
            self.scheme,
            self.measure.decimals(),
            lang,
        )
        .map_err(|e| year_error(&e))?;
        colouring.method_note =
            imr_map::svg::method_note(&classification.method, classification.classes.len(), lang);
        let text = self.measure.text_in(
            lang,
            &request.year.to_string(),
            credits.source,
            credits.boundaries,
            Some(credits.today),
        );
        Ok(Coloured {
            values,
            classification,
            colouring,
            text,
        })
    }

    /// Draws the map of `request.year`: the year's rows (one per entity) matched to the
    /// boundaries, the measure (rate, smoothed rate, excess risk or a column), classes computed
    /// without the plausibility-flagged areas unless asked, coloured by class or by LISA
    /// cluster; the data table, and the funnel plot when asked for.
    pub fn run(
        self,
        request: &MapRequest,
        panel: &Panel,
        boundaries: &Boundaries,
        context: MapContext<'_>,
    ) -> Result<MapResult, RequestError> {
        let lang = request.lang;
        let geometry_error = |e: &dyn std::fmt::Display| RequestError::Boundaries {
            name: boundaries.name.clone(),
            message: e.to_string(),
        };
        let keys = PropertyKeys {
            code: request.code_property.clone(),
            name: Some(request.name_property.clone()),
            ..PropertyKeys::default()
        };
        let layer = GeoLayer::from_str(&boundaries.text, request.object.as_deref(), &keys)
            .map_err(|e| geometry_error(&e))?;
        let plausibility = crate::plausibility::Plausibility::check(panel);
        let slice = request.year_slice(panel, &layer, |code, year| {
            plausibility.is_flagged(code, year)
        })?;
        let n_areas = layer.areas.len();
        let weights = Weights::rook(&layer).map_err(|e| geometry_error(&e))?;
        let coloured = self.colour(
            request,
            panel,
            &slice,
            &weights,
            MapCredits {
                source: context.source,
                boundaries: &boundaries.credit,
                today: context.today,
            },
        )?;
        let Coloured {
            values,
            classification,
            colouring,
            text: map_text,
        } = coloured;
        let decimals = self.measure.decimals();
        let layout =
            MapLayout::build(&layer, &LayoutSpec::auto(&layer)).map_err(|e| geometry_error(&e))?;
        let year = request.year.to_string();
        // The LISA cluster map colours by cluster instead of class (the page's "LISA cluster map").
        let (colouring, lisa_summary) = if request.lisa {
            let (colouring, l) = request.lisa_colouring(&values, &weights)?;
            let count = |c: LisaCluster| l.clusters.iter().filter(|&&k| k == c).count();
            let summary = json!({
                "alpha": l.alpha, "permutations": l.permutations, "seed": l.seed,
                "high_high": count(LisaCluster::HighHigh), "low_low": count(LisaCluster::LowLow),
                "high_low": count(LisaCluster::HighLow), "low_high": count(LisaCluster::LowHigh),
                "not_significant": count(LisaCluster::NotSignificant),
                "neighbourless": count(LisaCluster::Neighbourless), "no_data": count(LisaCluster::NoData),
            });
            (colouring, summary)
        } else {
            (colouring, serde_json::Value::Null)
        };
        let svg = choropleth_svg(&layout, &colouring, &map_text);
        let data = &slice.data;
        let matching = &data.matching;
        let csv = map_csv_with(
            &layer,
            &weights,
            &year,
            data,
            &values,
            &classification,
            context.csv,
        );
        let funnel_svg = if context.with_funnel {
            Some(request.funnel_figure(data, &layout, &map_text)?)
        } else {
            None
        };
        let moran_summary = match request.moran_test(&values, &weights) {
            Some(m) => {
                let m = m?;
                json!({"i": m.i, "expected": m.expected, "p_value": m.p_value, "z": m.z,
                       "permutations": m.permutations, "seed": m.seed, "areas": m.n})
            }
            None => serde_json::Value::Null,
        };
        let flagged = &slice.flagged;
        let no_data: Vec<&str> = (0..n_areas)
            .filter(|&a| classification.class_of[a].is_none())
            .map(|a| layer.areas[a].code.as_str())
            .collect();
        let summary = json!({
            "year": request.year,
            "value": request.value_column().unwrap_or("rate"),
            "smoothing": request.smooth.name(),
            "method": self.method.name(),
            "breaks": classification.breaks,
            "classes": classification.classes.iter().map(|c| json!({
                "lower": finite(c.lower), "upper": finite(c.upper), "count": c.count, "label": c.label(decimals)
            })).collect::<Vec<_>>(),
            "areas": n_areas,
            "flagged": (0..n_areas).filter(|&a| flagged[a]).map(|a| layer.areas[a].code.as_str()).collect::<Vec<_>>(),
            "flagged_in_breaks": request.include_flagged,
            "no_data": no_data,
            "unmatched_data": matching.unmatched_data,
            "unmatched_geometry": matching.unmatched_geometry,
            "not_drawn": layout.not_drawn(),
            "moran": moran_summary,
            "lisa": lisa_summary,
        });
        Ok(MapResult {
            svg,
            csv,
            funnel_svg,
            summary,
            unmatched_data: matching.unmatched_data_listed(lang),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{build_panel, IngestOptions, RawTable};
    use crate::plausibility::Plausibility;

    /// The bundled dataset.
    fn bundled_panel() -> Panel {
        let table = RawTable::from_bytes(
            crate::data::BUNDLED_PANEL_FILE,
            crate::data::BUNDLED_PANEL_CSV,
        )
        .unwrap();
        // The page's preset: births = poblacion_0, deaths derived from the published rate.
        let mut roles = table.guessed_roles.clone();
        roles.births = table.columns.iter().position(|c| c == "poblacion_0");
        build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
    }

    /// The stages the page runs on boundaries decoded once (year slice, colour, LISA, funnel)
    /// give the SVG, CSV and funnel plot of `run` (what `imr map` writes), byte for byte; and the
    /// table's rates are the CSV's columns.
    #[test]
    fn the_pages_stages_draw_what_run_draws() {
        let panel = bundled_panel();
        let boundaries = Boundaries {
            text: crate::data::BOUNDARIES_TOPOJSON.to_string(),
            name: "comunas.topojson".into(),
            credit: imr_map::year_map::BUNDLED_CREDIT.into(),
        };
        let context = MapContext {
            source: "chile_imr_2019_2023.csv",
            today: "2026-12-01",
            csv: crate::escape::CsvOptions::default(),
            with_funnel: true,
        };
        let layer = GeoLayer::from_str(&boundaries.text, None, &PropertyKeys::default()).unwrap();
        let layout = MapLayout::build(&layer, &LayoutSpec::auto(&layer)).unwrap();
        let weights = Weights::rook(&layer).unwrap();
        let flags = Plausibility::check(&panel);
        let requests = [
            MapRequest {
                year: 2023,
                moran: Some(99),
                ..MapRequest::default()
            },
            MapRequest {
                year: 2021,
                lang: Lang::Es,
                smooth: Smooth::SpatialEb,
                scheme: ClassScheme::Jenks,
                classes: 4,
                include_flagged: true,
                ..MapRequest::default()
            },
            MapRequest {
                year: 2019,
                smooth: Smooth::ExcessRisk,
                scheme: ClassScheme::Box,
                moran: Some(99),
                lisa: true,
                ..MapRequest::default()
            },
        ];
        for request in requests {
            let whole = request.run(&panel, &boundaries, context).unwrap();
            let validated = request.check().unwrap();
            let slice = request
                .year_slice(&panel, &layer, |c, y| flags.is_flagged(c, y))
                .unwrap();
            let credits = MapCredits {
                source: context.source,
                boundaries: &boundaries.credit,
                today: context.today,
            };
            let coloured = validated
                .colour(&request, &panel, &slice, &weights, credits)
                .unwrap();
            let colouring = if request.lisa {
                request
                    .lisa_colouring(&coloured.values, &weights)
                    .unwrap()
                    .0
            } else {
                coloured.colouring.clone()
            };
            let svg = choropleth_svg(&layout, &colouring, &coloured.text);
            assert_eq!(svg, whole.svg, "{request:?}");
            let funnel = request
                .funnel_figure(&slice.data, &layout, &coloured.text)
                .unwrap();
            assert_eq!(Some(funnel), whole.funnel_svg, "{request:?}");
            let moran = request.moran_test(&coloured.values, &weights);
            assert_eq!(moran.is_some(), request.moran.is_some());
            if let Some(m) = moran {
                assert_eq!(Some(m.unwrap().i), whole.summary["moran"]["i"].as_f64());
            }

            let rates = AreaRates::of(&slice.data, &weights);
            let number = |v: Option<f64>| v.map(imr_map::svg::format_value).unwrap_or_default();
            let lines: Vec<&str> = whole.csv.lines().skip(1).collect();
            assert_eq!(lines.len(), layer.areas.len());
            let mut checked = 0;
            for (a, line) in lines.iter().enumerate() {
                // code, name, year, births, deaths, rate, ci low, ci high, eb, seb, excess, …
                // (names hold no commas on the bundled boundaries: checked by the count).
                let fields: Vec<&str> = line.split(',').collect();
                if fields.len() != 13 {
                    continue;
                }
                let ours = [
                    number(rates.rate_per_1000[a]),
                    number(rates.ci95_low[a]),
                    number(rates.ci95_high[a]),
                    number(rates.eb_global[a]),
                    number(rates.eb_spatial[a]),
                    number(rates.excess_risk[a]),
                ];
                assert_eq!(
                    &fields[5..11],
                    &ours.each_ref().map(String::as_str),
                    "{line}"
                );
                checked += 1;
            }
            assert!(checked > 300, "{checked} lines checked");
        }
    }
}
