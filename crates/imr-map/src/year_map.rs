//! From one year's rows to the map's values, colours, texts and data table: the adaptation the
//! page's Map view and `imr map` share, so that the same options give the same SVG and CSV.
//!
//! The inputs are plain slices (codes, deaths, births, an optional column, aligned by row), not
//! the panel type of `imr-core`, so this crate stays below it. The layer, layout and weights are
//! built once per geometry; everything here is cheap and runs on every change of year, variable,
//! smoothing or classes.

use crate::classify::{classify, Classification, ClassifyError, Method};
use crate::colour::Scheme;
use crate::geometry::{CodeMatch, GeoLayer};
use crate::smoothing::{excess_risk, global_eb, raw_rates, spatial_eb, SmoothError, Smoothing};
use crate::svg::{Colouring, MapText};
use crate::weights::Weights;
use imr_stats::Lang;

/// How the bundled boundaries (`public/data/comunas.topojson`) are credited on the map (see
/// public/data/SOURCES.md).
pub const BUNDLED_CREDIT: &str = "chilemapas (INE, SUBDERE, BCN), GPL-3";

/// Confidence level of the intervals in the data table.
pub const CONFIDENCE_LEVEL: f64 = 0.95;

/// What the colours show.
#[derive(Debug, Clone, PartialEq)]
pub enum Measure {
    /// The infant mortality rate per 1,000, raw or smoothed.
    Rate(Smoothing),
    /// Observed / expected deaths at the pooled rate of the year ([`excess_risk`]).
    ExcessRisk,
    /// Any other numeric column, shown as it is.
    Column(String),
}

impl Measure {
    /// Decimals of the legend labels.
    pub fn decimals(&self) -> usize {
        match self {
            Measure::Rate(_) => 1,
            Measure::ExcessRisk | Measure::Column(_) => 2,
        }
    }

    /// True when the measure needs deaths and births.
    pub fn needs_counts(&self) -> bool {
        !matches!(self, Measure::Column(_))
    }

    /// The map's title, subtitle, legend heading, year and source lines.
    pub fn text(&self, year: &str, data_source: &str, geometry_credit: &str) -> MapText {
        self.text_in(Lang::En, year, data_source, geometry_credit, None)
    }

    /// [`Measure::text`] in a language, with the export's date on the source lines.
    pub fn text_in(
        &self,
        lang: Lang,
        year: &str,
        data_source: &str,
        geometry_credit: &str,
        date: Option<&str>,
    ) -> MapText {
        match self {
            Measure::Rate(smoothing) => {
                MapText::for_rates_in(lang, *smoothing, year, data_source, geometry_credit, date)
            }
            Measure::ExcessRisk => {
                let mut text = MapText::for_rates_in(
                    lang,
                    Smoothing::None,
                    year,
                    data_source,
                    geometry_credit,
                    date,
                );
                text.subtitle = lang
                    .pick(
                        "Exceso de riesgo: defunciones infantiles observadas / esperadas con la tasa de todas las comunas del año (1 = lo esperado)",
                        "Excess risk: observed / expected infant deaths at the pooled rate of the year (1 = as expected)",
                    )
                    .into();
                text.legend_title = lang
                    .pick("Observadas / esperadas", "Observed / expected")
                    .into();
                text
            }
            Measure::Column(name) => {
                MapText::for_column_in(lang, name, year, data_source, geometry_credit, date)
            }
        }
    }

    /// The value of every area of the layer (index = area index).
    pub fn values(
        &self,
        data: &YearData,
        weights: &Weights,
    ) -> Result<Vec<Option<f64>>, SmoothError> {
        match self {
            Measure::Rate(smoothing) => smoothing.rates(&data.deaths, &data.births, Some(weights)),
            Measure::ExcessRisk => Ok(excess_risk(&data.deaths, &data.births)?.ratio),
            Measure::Column(_) => Ok(data.column.clone()),
        }
    }
}

/// The default colours of a classification: diverging for the centred methods (box map,
/// standard deviations, percentiles), sequential yellow–orange–red otherwise.
pub fn default_scheme(method: &Method) -> Scheme {
    if method.is_centred() {
        Scheme::BuRd
    } else {
        Scheme::YlOrRd
    }
}

/// Classifies `values` and colours the classes.
pub fn colour_values(
    values: &[Option<f64>],
    method: &Method,
    scheme: Scheme,
    decimals: usize,
) -> Result<(Classification, Colouring), ClassifyError> {
    let classification = classify(values, method)?;
    let colouring = Colouring::from_classification(values, &classification, scheme, decimals);
    Ok((classification, colouring))
}

/// Classifies `values` and colours the classes, the `flagged` areas marked
/// ([`Colouring::mark_flagged`]): unless `include_flagged`, they are left out (no value, no
/// class: the values must have been computed without them, [`YearData::without`]), drawn as
/// "flagged, left out"; included, they are classed and outlined. The colouring carries the
/// legend line saying which ([`crate::svg::flagged_note`]).
pub fn colour_values_flagged(
    values: &[Option<f64>],
    flagged: &[bool],
    include_flagged: bool,
    method: &Method,
    scheme: Scheme,
    decimals: usize,
    lang: imr_stats::Lang,
) -> Result<(Classification, Colouring), ClassifyError> {
    let is_flagged = |a: usize| flagged.get(a).copied().unwrap_or(false);
    let classified: Vec<Option<f64>> = values
        .iter()
        .enumerate()
        .map(|(a, v)| {
            if include_flagged || !is_flagged(a) {
                *v
            } else {
                None
            }
        })
        .collect();
    let mut classification = classify(&classified, method)?;
    if !include_flagged {
        // The left-out areas are not areas without data.
        classification.no_data -= (0..classified.len())
            .filter(|&a| is_flagged(a) && classification.class_of[a].is_none())
            .count()
            .min(classification.no_data);
    }
    let mut colouring =
        Colouring::from_classification_in(&classified, &classification, scheme, decimals, lang);
    colouring.mark_flagged(flagged, include_flagged, lang);
    Ok((classification, colouring))
}

/// One year of data aligned to the areas of a layer.
#[derive(Debug, Clone, PartialEq)]
pub struct YearData {
    /// Infant deaths per area (index = area index); `None` without a row or a value.
    pub deaths: Vec<Option<f64>>,
    pub births: Vec<Option<f64>>,
    /// The chosen column per area (all `None` when no column was given).
    pub column: Vec<Option<f64>>,
    /// Codes unmatched on either side.
    pub matching: CodeMatch,
}

impl YearData {
    /// Aligns the rows of one year (`codes[k]` with `deaths[k]`, `births[k]` and `column[k]`) to
    /// the areas of `layer`. A code with no area is listed in `matching.unmatched_data` and not
    /// used; an area with no row has no data.
    pub fn from_rows<S: AsRef<str>>(
        layer: &GeoLayer,
        codes: &[S],
        deaths: &[Option<f64>],
        births: &[Option<f64>],
        column: Option<&[Option<f64>]>,
    ) -> Self {
        let matching = layer.match_codes(codes);
        let n = layer.areas.len();
        let (mut d, mut b, mut c) = (vec![None; n], vec![None; n], vec![None; n]);
        for (k, area) in matching.area_of_entity.iter().enumerate() {
            if let Some(area) = *area {
                d[area] = deaths.get(k).copied().flatten();
                b[area] = births.get(k).copied().flatten();
                c[area] = column.and_then(|col| col.get(k).copied().flatten());
            }
        }
        YearData {
            deaths: d,
            births: b,
            column: c,
            matching,
        }
    }

    /// The data without the areas `left_out` (index = area index; missing = kept): their
    /// deaths, births and column are `None`, so every estimate computed from the copy (smoothed
    /// rates, excess risk, Moran's I, LISA, funnel plot) leaves them out as areas without data.
    /// The code matching is kept as it is.
    pub fn without(&self, left_out: &[bool]) -> YearData {
        let keep = |a: usize, v: Option<f64>| {
            if left_out.get(a).copied().unwrap_or(false) {
                None
            } else {
                v
            }
        };
        let blank = |values: &[Option<f64>]| -> Vec<Option<f64>> {
            values
                .iter()
                .enumerate()
                .map(|(a, &v)| keep(a, v))
                .collect()
        };
        YearData {
            deaths: blank(&self.deaths),
            births: blank(&self.births),
            column: blank(&self.column),
            matching: self.matching.clone(),
        }
    }
}

/// A number of the data table at full precision: Rust's shortest representation that reads
/// back to the same f64 (`8.064516129032258`), so a reader gets the engine's numbers; −0 is
/// written `0`.
pub fn csv_number(v: Option<f64>) -> String {
    v.map(|v| {
        if v == 0.0 {
            "0".to_string()
        } else {
            v.to_string()
        }
    })
    .unwrap_or_default()
}

/// The data behind a map as CSV, one line per area of the layer in file order: code, name, year,
/// births, deaths, the raw rate per 1,000 with its exact (Garwood) 95% interval, the global and
/// spatial empirical Bayes rates, excess risk, then the mapped value and its class (empty: no
/// data). Numbers are written at full precision ([`csv_number`]; the SVG's `data-value` keeps 6
/// decimals). Written by the
/// one CSV writer of the exports, formula guard on.
pub fn map_csv(
    layer: &GeoLayer,
    weights: &Weights,
    year: &str,
    data: &YearData,
    values: &[Option<f64>],
    classification: &Classification,
) -> String {
    map_csv_with(
        layer,
        weights,
        year,
        data,
        values,
        classification,
        imr_escape::CsvOptions::default(),
    )
}

/// [`map_csv`] with the writer's options (`imr --no-formula-guard`).
pub fn map_csv_with(
    layer: &GeoLayer,
    weights: &Weights,
    year: &str,
    data: &YearData,
    values: &[Option<f64>],
    classification: &Classification,
    options: imr_escape::CsvOptions,
) -> String {
    map_csv_left_out(
        layer,
        weights,
        CsvYear {
            label: year,
            copy_of: None,
            deaths_reconstructed: &[],
        },
        (data, &[]),
        values,
        classification,
        options,
    )
}

/// The year every row of a map's CSV names: its label and, when its counts repeat an earlier
/// year's (a year the source copied), that year, written in the column `copy_of_year` (empty
/// for a year of its own) so that a spreadsheet does not read the copy as a measurement; and
/// the areas whose deaths were reconstructed from a published rate, `deaths_reconstructed`
/// (`true`), as the rates CSV marks its rows.
#[derive(Debug, Clone, Copy)]
pub struct CsvYear<'a> {
    /// The year as the request names it ("2021").
    pub label: &'a str,
    /// The earlier year whose counts this year repeats.
    pub copy_of: Option<i64>,
    /// Per area (index = area): its deaths were reconstructed; empty when none is.
    pub deaths_reconstructed: &'a [bool],
}

/// [`map_csv_with`] with areas `left_out` of the estimates (flagged as implausible; index =
/// area index): their births, deaths and raw rate with its interval are written (the data are
/// kept), their empirical Bayes rates and excess risk are empty and the others' are computed
/// without them ([`YearData::without`]), their mapped value is empty and their class is
/// `flagged`.
pub fn map_csv_left_out(
    layer: &GeoLayer,
    weights: &Weights,
    year: CsvYear<'_>,
    (data, left_out): (&YearData, &[bool]),
    values: &[Option<f64>],
    classification: &Classification,
    options: imr_escape::CsvOptions,
) -> String {
    let n = layer.areas.len();
    let is_left_out = |a: usize| left_out.get(a).copied().unwrap_or(false);
    let kept = data.without(left_out);
    let raw = raw_rates(&data.deaths, &data.births).unwrap_or_else(|_| vec![None; n]);
    let eb = global_eb(&kept.deaths, &kept.births)
        .map(|g| g.rates)
        .unwrap_or_else(|_| vec![None; n]);
    let seb = spatial_eb(&kept.deaths, &kept.births, weights).unwrap_or_else(|_| vec![None; n]);
    let excess = excess_risk(&kept.deaths, &kept.births)
        .map(|e| e.ratio)
        .unwrap_or_else(|_| vec![None; n]);
    let mut w = imr_escape::CsvWriter::new(options);
    w.record([
        "code",
        "name",
        "year",
        "births",
        "deaths",
        "rate_per_1000",
        "ci95_low",
        "ci95_high",
        "eb_global",
        "eb_spatial",
        "excess_risk",
        "value",
        "class",
        "copy_of_year",
        "deaths_reconstructed",
    ]);
    for (a, area) in layer.areas.iter().enumerate() {
        let interval = match (raw[a], data.deaths[a], data.births[a]) {
            (Some(_), Some(o), Some(p)) => {
                // Scaled as imr-core's `rate_with_interval` (the Data view, `imr rates`), so
                // that the full-precision numbers agree to the last digit.
                let scale = 1000.0 / p;
                imr_stats::poisson::poisson_exact_interval(o, CONFIDENCE_LEVEL)
                    .map(|ci| (ci.lower * scale, ci.upper * scale))
            }
            _ => None,
        };
        w.record([
            area.code.clone(),
            area.name.clone(),
            year.label.to_string(),
            csv_number(data.births[a]),
            csv_number(data.deaths[a]),
            csv_number(raw[a]),
            csv_number(interval.map(|i| i.0)),
            csv_number(interval.map(|i| i.1)),
            csv_number(eb[a]),
            csv_number(seb[a]),
            csv_number(excess[a]),
            csv_number(values.get(a).copied().flatten()),
            match classification.class_of.get(a).copied().flatten() {
                Some(k) => k.to_string(),
                None if is_left_out(a) => "flagged".to_string(),
                None => String::new(),
            },
            // only an area with a row that year is a copy (not the communes a file lacks)
            (year.copy_of)
                .filter(|_| data.births[a].is_some() || data.deaths[a].is_some())
                .map(|y| y.to_string())
                .unwrap_or_default(),
            match year.deaths_reconstructed.get(a) {
                Some(true) => "true".to_owned(),
                _ => String::new(),
            },
        ]);
    }
    w.into_string()
}

#[cfg(test)]
#[path = "year_map_tests.rs"]
mod tests;
