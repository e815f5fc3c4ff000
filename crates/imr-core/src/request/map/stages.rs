//! The stages of a [`ValidatedMap`]: the year's rows on the areas, values and colours, LISA,
//! Moran's I, the funnel plot and the table's rates (`run`, which chains them for `imr map`, is
//! in run.rs).

use super::super::{CodeMismatch, RequestError, SpatialStatistic};
use super::{MapRequest, ValidatedMap, LISA_ALPHA, LISA_PERMUTATIONS};
use crate::repeats::RepeatedYear;
use imr_map::autocorrelation::{lisa, moran, moran_rate, Lisa, Moran, MoranRateError};
use imr_map::classify::{Classification, Method};
use imr_map::funnel::funnel;
use imr_map::funnel_svg::{funnel_svg, FunnelText};
use imr_map::geometry::GeoLayer;
use imr_map::layout::MapLayout;
use imr_map::smoothing::{excess_risk, global_eb, raw_rates, spatial_eb};
use imr_map::svg::{Colouring, MapText};
use imr_map::weights::Weights;
use imr_map::year_map::{colour_values_flagged, Measure, YearData};

/// One year's rows aligned to the areas of the boundaries, with each area's plausibility flag
/// and the data the map's estimates use.
#[derive(Debug, Clone, PartialEq)]
pub struct YearSlice {
    /// The year.
    pub year: i64,
    /// Deaths, births and the mapped column per area, and the codes unmatched on either side:
    /// every row, flagged or not (the tooltip, the table's counts and the CSV's counts).
    pub data: YearData,
    /// Per area: the year's row is flagged as implausible ([`crate::plausibility`]).
    pub flagged: Vec<bool>,
    /// Per area: left out of the map's estimates — the flagged areas, unless the request
    /// includes flagged rows (then none).
    pub left_out: Vec<bool>,
    /// Per area: the year's deaths were reconstructed from a published rate (the CSV's
    /// `deaths_reconstructed`).
    pub reconstructed: Vec<bool>,
    /// [`YearSlice::data`] without the left-out areas ([`YearData::without`]): what the
    /// classes, the smoothed rates, Moran's I and the LISA, and the funnel plot are computed on.
    pub kept: YearData,
}

impl YearSlice {
    /// `values` (one per area) without the left-out areas' (`None` there).
    pub fn kept_values(&self, values: &[Option<f64>]) -> Vec<Option<f64>> {
        values
            .iter()
            .enumerate()
            .map(|(a, &v)| {
                if self.left_out.get(a).copied().unwrap_or(false) {
                    None
                } else {
                    v
                }
            })
            .collect()
    }

    /// The codes of the areas left out as flagged, in area order.
    pub fn left_out_codes<'a>(&self, layer: &'a GeoLayer) -> Vec<&'a str> {
        (0..layer.areas.len())
            .filter(|&a| self.left_out.get(a).copied().unwrap_or(false))
            .map(|a| layer.areas[a].code.as_str())
            .collect()
    }
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
    /// The rates of `slice` (one entry per area), neighbours from `weights`: the raw rate and
    /// its interval of every row ([`YearSlice::data`]), the estimates (empirical Bayes, excess
    /// risk) without the left-out areas ([`YearSlice::kept`]), as the CSV writes them.
    pub fn of(slice: &YearSlice, weights: &Weights) -> Self {
        let data = &slice.data;
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
        let (d, b) = (&slice.kept.deaths, &slice.kept.births);
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

impl ValidatedMap {
    /// The request validated.
    pub fn request(&self) -> &MapRequest {
        &self.request
    }

    /// The measure mapped (its decimals and its file-name word).
    pub fn measure(&self) -> &Measure {
        &self.measure
    }

    /// The mapped year when it copies an earlier one (a rate map of a year the source copied,
    /// [`crate::repeats`]): its legend, funnel and year lists say so.
    pub fn copy_of(&self) -> Option<&RepeatedYear> {
        self.copy_of.as_ref()
    }

    /// The classification's method.
    pub(super) fn method(&self) -> &Method {
        &self.method
    }

    /// The rows of the year (one per entity) aligned to the areas of `layer`, with the mapped
    /// column when the request names one, each area flagged as its row is and, unless the
    /// request includes flagged rows, the flagged areas left out of the data the estimates use
    /// ([`YearSlice::kept`]). When none of the year's codes is an area of `layer`, the error
    /// ([`BoundaryProblem::NoCodeMatches`](super::super::BoundaryProblem::NoCodeMatches), under the request's boundary file name or
    /// `comunas.topojson`) names both sides' codes and the file's properties.
    pub fn year_slice(&self, layer: &GeoLayer) -> Result<YearSlice, RequestError> {
        let (request, rows) = (&self.request, &self.rows);
        let data = YearData::from_rows(
            layer,
            &rows.codes,
            &rows.deaths,
            &rows.births,
            rows.column.as_deref(),
        );
        if data.matching.area_of_entity.iter().all(Option::is_none) {
            let mut seen = std::collections::BTreeSet::new();
            let distinct: Vec<&str> = (rows.codes.iter())
                .map(String::as_str)
                .filter(|code| seen.insert(*code))
                .collect();
            return Err(RequestError::Boundaries {
                name: (request.geometry.clone()).unwrap_or_else(|| "comunas.topojson".into()),
                problem: CodeMismatch::of(&distinct, layer, &request.code_property).into(),
            });
        }
        let mut flagged = vec![false; layer.areas.len()];
        let mut reconstructed = vec![false; layer.areas.len()];
        for (k, area) in data.matching.area_of_entity.iter().enumerate() {
            if let Some(area) = *area {
                flagged[area] = rows.flagged[k];
                reconstructed[area] = rows.reconstructed[k];
            }
        }
        let left_out = if request.include_flagged {
            vec![false; flagged.len()]
        } else {
            flagged.clone()
        };
        let kept = data.without(&left_out);
        Ok(YearSlice {
            year: request.year,
            data,
            flagged,
            left_out,
            reconstructed,
            kept,
        })
    }

    /// The LISA cluster colouring of `values` (computed on `slice`, [`ValidatedMap::colour`];
    /// permutations: the request's Moran permutations or [`LISA_PERMUTATIONS`]; significance
    /// [`LISA_ALPHA`]), legend in the request's language, the flagged areas of `slice` marked
    /// and, unless the request includes them, left out of the clusters.
    pub fn lisa_colouring(
        &self,
        values: &[Option<f64>],
        slice: &YearSlice,
        weights: &Weights,
    ) -> Result<(Colouring, Lisa), RequestError> {
        let request = &self.request;
        let values = slice.kept_values(values);
        let permutations = request.moran.unwrap_or(LISA_PERMUTATIONS);
        let l =
            lisa(&values, weights, permutations, request.seed, LISA_ALPHA).map_err(|error| {
                RequestError::Spatial {
                    statistic: SpatialStatistic::Lisa,
                    error,
                }
            })?;
        let mut colouring = Colouring::from_lisa_in(&values, &l.clusters, LISA_ALPHA, request.lang);
        colouring.mark_flagged(&slice.flagged, request.include_flagged, request.lang);
        colouring.year_caution = self.year_caution();
        Ok((colouring, l))
    }

    /// The EB-standardised Moran's I (Assunção & Reis 1999, esda's `Moran_Rate`) of the year's
    /// deaths and births without the left-out areas ([`YearSlice::kept`]), when the request
    /// asks for Moran's I and maps a rate (raw or smoothed, or the excess risk): the same
    /// permutations and seed as [`ValidatedMap::moran_test`].
    pub fn eb_moran_test(
        &self,
        slice: &YearSlice,
        weights: &Weights,
    ) -> Option<Result<Moran, RequestError>> {
        let (request, data) = (&self.request, &slice.kept);
        let permutations = request.moran?;
        if request.value_column().is_some() {
            return None;
        }
        let year = request.year;
        let moran = moran_rate(
            &data.deaths,
            &data.births,
            weights,
            permutations,
            request.seed,
        );
        Some(moran.map_err(|error| match error {
            MoranRateError::Moran(error) => RequestError::Spatial {
                statistic: SpatialStatistic::EbMoran,
                error,
            },
            MoranRateError::Rates(error) => RequestError::MapValues { year, error },
            _ => RequestError::MapValues {
                year,
                error: imr_map::smoothing::SmoothError::NoUsableArea,
            },
        }))
    }

    /// Moran's I of `values` (computed on `slice`, [`ValidatedMap::colour`]) without the
    /// left-out areas, with its permutation test, when the request asks for it.
    pub fn moran_test(
        &self,
        values: &[Option<f64>],
        slice: &YearSlice,
        weights: &Weights,
    ) -> Option<Result<Moran, RequestError>> {
        let permutations = self.request.moran?;
        let values = slice.kept_values(values);
        Some(
            moran(&values, weights, permutations, self.request.seed).map_err(|error| {
                RequestError::Spatial {
                    statistic: SpatialStatistic::Moran,
                    error,
                }
            }),
        )
    }

    /// The funnel plot (SVG) of the year's raw rates against births without the left-out
    /// areas ([`YearSlice::kept`]: neither points nor part of the pooled rate), with the map's
    /// source lines (`text`), drawn `width` pixels wide (`None`: its own 640 px, as
    /// [`MapExport::Funnel`](super::MapExport::Funnel) writes it).
    pub(super) fn funnel_figure(
        &self,
        slice: &YearSlice,
        layout: &MapLayout,
        text: &MapText,
        width: Option<f64>,
    ) -> Result<String, RequestError> {
        let (request, data) = (&self.request, &slice.kept);
        let f = funnel(&data.deaths, &data.births, 60).map_err(RequestError::Funnel)?;
        let title = request.lang.pick(
            "Mortalidad infantil según nacidos vivos",
            "Infant mortality against births",
        );
        Ok(funnel_svg(
            &f,
            &layout.codes,
            &layout.names,
            &FunnelText {
                title: title.into(),
                year: self.year_label(),
                source: text.source.clone(),
                lang: request.lang,
                metadata: text.metadata.clone(),
                width,
            },
        ))
    }

    /// The values of the measure on `slice` without the left-out areas ([`YearSlice::kept`]:
    /// the flagged areas unless the request includes them, so they weigh neither in the
    /// smoothing nor in the classes), classed, coloured by class with the flagged areas marked,
    /// and the map's texts with their source lines (`credits`).
    pub fn colour(
        &self,
        slice: &YearSlice,
        weights: &Weights,
        credits: MapCredits<'_>,
    ) -> Result<Coloured, RequestError> {
        let request = &self.request;
        let (lang, year) = (request.lang, request.year);
        let values = self
            .measure
            .values(&slice.kept, weights)
            .map_err(|error| RequestError::MapValues { year, error })?;
        let (classification, mut colouring) = colour_values_flagged(
            &values,
            &slice.flagged,
            request.include_flagged,
            &self.method,
            self.scheme,
            self.measure.decimals(),
            lang,
        )
        .map_err(|error| RequestError::Classification { year, error })?;
        colouring.method_note =
            imr_map::svg::method_note(&classification.method, classification.classes.len(), lang);
        // A rate map whose classes are finer than its rates' own 95% intervals says so.
        if let Measure::Rate(smoothing) = &self.measure {
            let intervals = imr_map::uncertainty::rate_intervals(
                *smoothing,
                &slice.kept.deaths,
                &slice.kept.births,
                Some(weights),
            );
            colouring.uncertainty_note =
                imr_map::uncertainty::Resolution::of(&classification, &intervals)
                    .and_then(|r| r.caution(lang))
                    .unwrap_or_default();
        }
        colouring.year_caution = self.year_caution();
        let mut text = self.measure.text_in(
            lang,
            &request.year.to_string(),
            credits.source,
            credits.boundaries,
            Some(credits.today),
        );
        if let Some(mark) = self.year_mark() {
            text.year_note = mark;
        }
        Ok(Coloured {
            values,
            classification,
            colouring,
            text,
        })
    }
}
