//! [`ValidatedMap::run`]: the stages chained for `imr map`, on boundaries decoded for this one
//! map, with the files written by [`MapExport::write`] and the summary in numbers.

use super::super::{BoundaryProblem, RequestError};
use super::summary::{ClassSummary, LisaSummary, MapSummary, MoranSummary};
use super::{
    Boundaries, Coloured, MapContext, MapCredits, MapExport, MapFigure, MapResult,
    PreparedBoundaries, ValidatedMap, YearSlice,
};
use imr_map::geometry::PropertyKeys;

impl ValidatedMap {
    /// Draws the map of the request's year: the year's rows (one per entity) matched to the
    /// boundaries, the measure (rate, smoothed rate, excess risk or a column), classes computed
    /// without the plausibility-flagged areas unless asked, coloured by class or by LISA
    /// cluster; the data table, and the funnel plot when asked for.
    pub fn run(
        self,
        boundaries: &Boundaries,
        context: MapContext<'_>,
    ) -> Result<MapResult, RequestError> {
        let request = &self.request;
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
        let slice = self
            .year_slice(&prepared.layer)
            .map_err(|error| match error {
                RequestError::Boundaries { problem, .. } => geometry_error(problem),
                other => other,
            })?;
        let weights = prepared.weights(request.contiguity);
        let credits = MapCredits {
            source: context.source,
            boundaries: &boundaries.credit,
            today: context.today,
        };
        let coloured = self.colour(&slice, weights, credits)?;
        // The LISA cluster map colours by cluster instead of class (the page's "LISA cluster map").
        let (lisa_colouring, lisa) = if request.lisa {
            let (colouring, l) = self.lisa_colouring(&coloured.values, &slice, weights)?;
            (Some(colouring), Some(LisaSummary::from(&l)))
        } else {
            (None, None)
        };
        let figure = MapFigure {
            map: &self,
            boundaries: &prepared,
            slice: &slice,
            values: &coloured.values,
            classification: &coloured.classification,
            colouring: lisa_colouring.as_ref().unwrap_or(&coloured.colouring),
            text: &coloured.text,
        };
        let svg = MapExport::Map.write(&figure, context.csv)?;
        let csv = MapExport::Data.write(&figure, context.csv)?;
        let funnel_svg = if context.with_funnel {
            Some(MapExport::Funnel.write(&figure, context.csv)?)
        } else {
            None
        };
        let summary = self.summary(&prepared, &slice, &coloured, lisa)?;
        Ok(MapResult {
            svg,
            csv,
            funnel_svg,
            unmatched_data: slice.data.matching.unmatched_data_listed(request.lang),
            summary,
        })
    }

    /// The map in numbers: its classes, the areas flagged, left out, without data or not
    /// drawn, the codes matched on either side, Moran's I (and the EB Moran's I of a rate map)
    /// when asked for, and the LISA counts of a cluster map.
    fn summary(
        &self,
        prepared: &PreparedBoundaries,
        slice: &YearSlice,
        coloured: &Coloured,
        lisa: Option<LisaSummary>,
    ) -> Result<MapSummary, RequestError> {
        let request = &self.request;
        let (layer, matching) = (&prepared.layer, &slice.data.matching);
        let weights = prepared.weights(request.contiguity);
        let classification = &coloured.classification;
        let moran = (self.moran_test(&coloured.values, slice, weights))
            .transpose()?
            .map(MoranSummary::from);
        let eb_moran = (self.eb_moran_test(slice, weights))
            .transpose()?
            .map(MoranSummary::from);
        let codes = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
            (0..layer.areas.len())
                .filter(|&a| keep(a))
                .map(|a| layer.areas[a].code.clone())
                .collect()
        };
        let owned = |codes: Vec<&str>| codes.into_iter().map(str::to_owned).collect();
        let decimals = self.measure().decimals();
        Ok(MapSummary {
            year: request.year,
            copy_of: self.copy_of.map(|c| c.repeat_of),
            deaths_reconstructed: self.reconstructed.is_some(),
            value: request.value_column().unwrap_or("rate").to_owned(),
            smoothing: request.smooth.name(),
            contiguity: request.contiguity.name(),
            method: self.method().name(),
            classes: (classification.classes.iter())
                .map(|c| ClassSummary::of(c, decimals))
                .collect(),
            breaks: classification.breaks.clone(),
            areas: layer.areas.len(),
            flagged: codes(&|a| slice.flagged[a]),
            flagged_in_breaks: request.include_flagged,
            flagged_left_out: owned(slice.left_out_codes(layer)),
            no_data: codes(&|a| classification.class_of[a].is_none() && !slice.left_out[a]),
            matched_data: (matching.area_of_entity.iter())
                .filter(|a| a.is_some())
                .count(),
            unmatched_data: matching.unmatched_data.clone(),
            unmatched_geometry: matching.unmatched_geometry.clone(),
            not_drawn: owned(prepared.layout.not_drawn()),
            moran,
            eb_moran,
            lisa,
        })
    }
}
