//! The stages of a [`MapRequest`]: the year's rows on the areas, values and colours, LISA,
//! Moran's I, the funnel plot and the table's rates; and `run`, which chains them for `imr map`.

use super::super::{BoundaryProblem, CodeMismatch, ColumnUse, RequestError, SpatialStatistic};
use super::summary::{ClassSummary, LisaSummary, MapSummary, MoranSummary};
use super::{
    Boundaries, MapContext, MapRequest, MapResult, PreparedBoundaries, ValidatedMap, LISA_ALPHA,
    LISA_PERMUTATIONS,
};
use crate::panel::Panel;
use imr_map::autocorrelation::{lisa, moran, moran_rate, Lisa, Moran, MoranRateError};
use imr_map::classify::Classification;
use imr_map::funnel::funnel;
use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::MapLayout;
use imr_map::smoothing::{excess_risk, global_eb, raw_rates, spatial_eb};
use imr_map::svg::{choropleth_svg, funnel_svg, Colouring, FunnelText, MapText};
use imr_map::weights::Weights;
use imr_map::year_map::{colour_values_flagged, Measure, YearData};

/// JSON has no infinity: open class limits are null.
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

impl MapRequest {
    /// The rows of `request.year` (one per entity) aligned to the areas of `layer`, with the
    /// mapped column when the request names one, each area flagged by `is_flagged(entity,
    /// year)` ([`crate::plausibility::Plausibility::is_flagged`], the rule every view and
    /// command shares) and, unless the request includes flagged rows, the flagged areas left
    /// out of the data the estimates use ([`YearSlice::kept`]). When none of the year's codes is an area of `layer`, the error
    /// ([`BoundaryProblem::NoCodeMatches`], under the request's boundary file name or
    /// `comunas.topojson`) names both sides' codes and the file's properties.
    pub fn year_slice(
        &self,
        panel: &Panel,
        layer: &GeoLayer,
        is_flagged: impl Fn(&str, i64) -> bool,
    ) -> Result<YearSlice, RequestError> {
        let year_rows: Vec<usize> = (0..panel.len())
            .filter(|&i| panel.time_values()[i] == self.year)
            .collect();
        if year_rows.is_empty() {
            return Err(RequestError::NoYear {
                year: self.year,
                years: panel.times(),
            });
        }
        let codes: Vec<&str> = year_rows.iter().map(|&i| panel.entity(i)).collect();
        let column = self
            .value_column()
            .map(|name| super::super::numeric(panel, name, ColumnUse::MapValue))
            .transpose()?;
        let deaths: Vec<Option<f64>> = year_rows.iter().map(|&i| panel.row(i).deaths).collect();
        let births: Vec<Option<f64>> = year_rows.iter().map(|&i| panel.row(i).births).collect();
        let column_of_year: Option<Vec<Option<f64>>> = column
            .as_ref()
            .map(|col| year_rows.iter().map(|&i| col[i]).collect());
        let data = YearData::from_rows(layer, &codes, &deaths, &births, column_of_year.as_deref());
        if data.matching.area_of_entity.iter().all(Option::is_none) {
            let mut distinct: Vec<&str> = Vec::new();
            let mut seen = std::collections::BTreeSet::new();
            for &code in &codes {
                if seen.insert(code) {
                    distinct.push(code);
                }
            }
            return Err(RequestError::Boundaries {
                name: self
                    .geometry
                    .clone()
                    .unwrap_or_else(|| "comunas.topojson".into()),
                problem: CodeMismatch::of(&distinct, layer, &self.code_property).into(),
            });
        }
        let mut flagged = vec![false; layer.areas.len()];
        for (k, area) in data.matching.area_of_entity.iter().enumerate() {
            if let Some(area) = *area {
                flagged[area] = is_flagged(codes[k], self.year);
            }
        }
        let left_out = if self.include_flagged {
            vec![false; flagged.len()]
        } else {
            flagged.clone()
        };
        let kept = data.without(&left_out);
        Ok(YearSlice {
            year: self.year,
            data,
            flagged,
            left_out,
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
        let values = slice.kept_values(values);
        let l = lisa(
            &values,
            weights,
            self.moran.unwrap_or(LISA_PERMUTATIONS),
            self.seed,
            LISA_ALPHA,
        )
        .map_err(|error| RequestError::Spatial {
            statistic: SpatialStatistic::Lisa,
            error,
        })?;
        let mut colouring = Colouring::from_lisa_in(&values, &l.clusters, LISA_ALPHA, self.lang);
        colouring.mark_flagged(&slice.flagged, self.include_flagged, self.lang);
        Ok((colouring, l))
    }

    /// The EB-standardised Moran's I (Assunção & Reis 1999, esda's `Moran_Rate`) of the year's
    /// deaths and births without the left-out areas ([`YearSlice::kept`]), when the request
    /// asks for Moran's I and maps a rate (raw or smoothed, or the excess risk): the same
    /// permutations and seed as [`MapRequest::moran_test`].
    pub fn eb_moran_test(
        &self,
        slice: &YearSlice,
        weights: &Weights,
    ) -> Option<Result<Moran, RequestError>> {
        let data = &slice.kept;
        let permutations = self.moran?;
        if self.value_column().is_some() {
            return None;
        }
        Some(
            moran_rate(&data.deaths, &data.births, weights, permutations, self.seed).map_err(
                |error| match error {
                    MoranRateError::Moran(error) => RequestError::Spatial {
                        statistic: SpatialStatistic::EbMoran,
                        error,
                    },
                    MoranRateError::Rates(error) => RequestError::MapValues {
                        year: self.year,
                        error,
                    },
                    _ => RequestError::MapValues {
                        year: self.year,
                        error: imr_map::smoothing::SmoothError::NoUsableArea,
                    },
                },
            ),
        )
    }

    /// Moran's I of `values` (computed on `slice`, [`ValidatedMap::colour`]) without the
    /// left-out areas, with its permutation test, when the request asks for it.
    pub fn moran_test(
        &self,
        values: &[Option<f64>],
        slice: &YearSlice,
        weights: &Weights,
    ) -> Option<Result<Moran, RequestError>> {
        let permutations = self.moran?;
        let values = slice.kept_values(values);
        Some(
            moran(&values, weights, permutations, self.seed).map_err(|error| {
                RequestError::Spatial {
                    statistic: SpatialStatistic::Moran,
                    error,
                }
            }),
        )
    }

    /// The funnel plot (SVG) of the year's raw rates against births without the left-out
    /// areas ([`YearSlice::kept`]: neither points nor part of the pooled rate), with the map's
    /// source lines (`text`).
    pub fn funnel_figure(
        &self,
        slice: &YearSlice,
        layout: &MapLayout,
        text: &MapText,
    ) -> Result<String, RequestError> {
        let data = &slice.kept;
        let f = funnel(&data.deaths, &data.births, 60).map_err(RequestError::Funnel)?;
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

    /// The values of the measure on `slice` without the left-out areas ([`YearSlice::kept`]:
    /// the flagged areas unless the request includes them, so they weigh neither in the
    /// smoothing nor in the classes), classed, coloured by class with the flagged areas marked,
    /// and the map's texts with their source lines (`credits`).
    pub fn colour(
        &self,
        request: &MapRequest,
        panel: &Panel,
        slice: &YearSlice,
        weights: &Weights,
        credits: MapCredits<'_>,
    ) -> Result<Coloured, RequestError> {
        if self.measure.needs_counts() && !panel.has_rates() {
            return Err(RequestError::MapNeedsCounts);
        }
        let lang = request.lang;
        let year = request.year;
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
        let geometry_error = |problem: BoundaryProblem| RequestError::Boundaries {
            name: boundaries.name.clone(),
            problem,
        };
        let keys = PropertyKeys {
            code: request.code_property.clone(),
            name: Some(request.name_property.clone()),
            ..PropertyKeys::default()
        };
        let prepared =
            PreparedBoundaries::prepare(&boundaries.text, request.object.as_deref(), &keys)
                .map_err(geometry_error)?;
        let layer = &prepared.layer;
        let plausibility = crate::plausibility::Plausibility::check(panel);
        let slice = request
            .year_slice(panel, layer, |code, year| {
                plausibility.is_flagged(code, year)
            })
            .map_err(|error| match error {
                RequestError::Boundaries { problem, .. } => geometry_error(problem),
                other => other,
            })?;
        let n_areas = layer.areas.len();
        let weights = prepared.weights(request.contiguity);
        let coloured = self.colour(
            request,
            panel,
            &slice,
            weights,
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
        let layout = &prepared.layout;
        // The LISA cluster map colours by cluster instead of class (the page's "LISA cluster map").
        let (colouring, lisa_summary) = if request.lisa {
            let (colouring, l) = request.lisa_colouring(&values, &slice, weights)?;
            (colouring, Some(LisaSummary::from(&l)))
        } else {
            (colouring, None)
        };
        let svg = choropleth_svg(layout, &colouring, &map_text);
        let data = &slice.data;
        let matching = &data.matching;
        let csv = request.data_csv(&prepared, &slice, (&values, &classification), context.csv);
        let funnel_svg = if context.with_funnel {
            Some(request.funnel_figure(&slice, layout, &map_text)?)
        } else {
            None
        };
        let moran_summary = request
            .moran_test(&values, &slice, weights)
            .transpose()?
            .map(MoranSummary::from);
        let eb_moran_summary = request
            .eb_moran_test(&slice, weights)
            .transpose()?
            .map(MoranSummary::from);
        let matched = matching
            .area_of_entity
            .iter()
            .filter(|a| a.is_some())
            .count();
        let flagged = &slice.flagged;
        let codes = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
            (0..n_areas)
                .filter(|&a| keep(a))
                .map(|a| layer.areas[a].code.clone())
                .collect()
        };
        let owned = |codes: Vec<&str>| codes.into_iter().map(str::to_owned).collect();
        let summary = MapSummary {
            year: request.year,
            value: request.value_column().unwrap_or("rate").to_owned(),
            smoothing: request.smooth.name(),
            contiguity: request.contiguity.name(),
            method: self.method.name(),
            classes: (classification.classes.iter())
                .map(|c| ClassSummary::of(c, decimals))
                .collect(),
            breaks: classification.breaks,
            areas: n_areas,
            flagged: codes(&|a| flagged[a]),
            flagged_in_breaks: request.include_flagged,
            flagged_left_out: owned(slice.left_out_codes(layer)),
            no_data: codes(&|a| classification.class_of[a].is_none() && !slice.left_out[a]),
            matched_data: matched,
            unmatched_data: matching.unmatched_data.clone(),
            unmatched_geometry: matching.unmatched_geometry.clone(),
            not_drawn: owned(layout.not_drawn()),
            moran: moran_summary,
            eb_moran: eb_moran_summary,
            lisa: lisa_summary,
        };
        Ok(MapResult {
            svg,
            csv,
            funnel_svg,
            summary,
            unmatched_data: matching.unmatched_data_listed(lang),
        })
    }
}
