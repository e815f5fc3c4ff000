//! The Map view's stages, one memo each, the same ones `imr map` runs: the request of the
//! controls validated against the data, the year's slice on the areas, the values, classes and
//! colours ([`Drawn`]), the LISA clusters when asked, the colouring drawn and, when the data
//! cover a small part of the country, the communes shown ([`Focus`]).

use super::error::{BoundaryError, MapError};
use super::{Drawn, Geometry, MapOptions};
use crate::components::download::today;
use crate::i18n::Lang;
use crate::state::Shared;
use imr_core::map::focus::Focus;
use imr_core::map::svg::Colouring;
use imr_core::panel::Panel;
use imr_core::request::{MapCredits, MapRequest, ValidatedMap, YearSlice};
use leptos::prelude::*;
use std::sync::Arc;

/// A stage's memo: nothing yet, its result or the error that stops the map.
type Stage<T> = Memo<Option<Result<Shared<T>, MapError>>>;

/// What the map draws: the request's values, classes, colours and texts ([`Drawn`]; `result`,
/// and `ok_result` without an error), the LISA colouring when asked, the colouring drawn (the
/// classes' or the LISA clusters', counting "no data" among the communes shown on a map of
/// part of the country) and those communes.
#[derive(Clone, Copy)]
pub(super) struct MapStages {
    pub result: Stage<Drawn>,
    pub ok_result: Memo<Option<Shared<Drawn>>>,
    pub lisa_colouring: Stage<Colouring>,
    pub colouring: Memo<Option<Shared<Colouring>>>,
    pub focus: Memo<Option<Shared<Focus>>>,
}

/// The inputs of the stages: the boundaries, the panel, the request of the controls and the
/// data's source line.
pub(super) struct StageInputs {
    pub geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    pub panel: Memo<Option<Shared<Panel>>>,
    pub request: Memo<Option<Result<MapRequest, MapError>>>,
    pub data_source: Memo<String>,
    pub options: MapOptions,
}

impl MapStages {
    pub fn new(inputs: StageInputs) -> Self {
        let StageInputs {
            geometry,
            panel,
            request,
            data_source,
            options,
        } = inputs;
        let validated = validated(request, panel);
        // One year's rows aligned to the areas (the boundaries' file and code property name
        // them in the error when no code matches).
        let year_slice = Memo::new(move |_| -> Option<Result<Shared<YearSlice>, MapError>> {
            let map = validated.get()?.ok()?;
            let geo = geometry.get().ok()?;
            Some(
                map.year_slice(&geo.prepared.layer)
                    .map(|s| Shared(Arc::new(s)))
                    .map_err(MapError::Request),
            )
        });
        let result = drawn(validated, year_slice, geometry, data_source);
        let ok_result = Memo::new(move |_| result.get().and_then(|r| r.ok()));
        let lisa_colouring = lisa(options.lisa, ok_result, geometry);
        // The communes shown when the data cover a small part of the country.
        let focus = Memo::new(move |_| {
            let r = ok_result.get()?;
            let geo = geometry.get().ok()?;
            r.colouring
                .focus(&geo.prepared.layout)
                .map(|f| Shared(Arc::new(f)))
        });
        // The colouring drawn: the classes, or the LISA clusters when asked; on a map of part
        // of the country its legend counts as "no data" the communes shown without data, as
        // the exported map's does.
        let colouring = Memo::new(move |_| -> Option<Shared<Colouring>> {
            let drawn = match lisa_colouring.get() {
                Some(Ok(c)) => c,
                _ => Shared(Arc::new(ok_result.get()?.colouring.clone())),
            };
            Some(match focus.get() {
                Some(f) => Shared(Arc::new(drawn.focused_on(&f))),
                None => drawn,
            })
        });
        MapStages {
            result,
            ok_result,
            lisa_colouring,
            colouring,
            focus,
        }
    }
}

/// The request coloured by class (the LISA toggle does not recompute values and classes)
/// validated against the data, as `imr map` validates it.
fn validated(
    request: Memo<Option<Result<MapRequest, MapError>>>,
    panel: Memo<Option<Shared<Panel>>>,
) -> Stage<ValidatedMap> {
    let class_request = Memo::new(move |_| {
        request.get().map(|r| {
            r.map(|mut r| {
                r.lisa = false;
                r
            })
        })
    });
    Memo::new(move |_| {
        let request = match class_request.get()? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        let p = panel.get()?;
        Some(
            request
                .validate(&p)
                .map(|v| Shared(Arc::new(v)))
                .map_err(MapError::Request),
        )
    })
}

/// Values, classes and colours of the current choices: no geometry is touched.
fn drawn(
    validated: Stage<ValidatedMap>,
    year_slice: Stage<YearSlice>,
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    data_source: Memo<String>,
) -> Stage<Drawn> {
    Memo::new(move |_| {
        let map = match validated.get()? {
            Ok(m) => m,
            Err(e) => return Some(Err(e)),
        };
        let slice = match year_slice.get()? {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        let geo = geometry.get().ok()?;
        // The source lines carry today's date, as `imr map` writes them.
        let coloured = map.colour(
            &slice,
            geo.prepared.weights(map.request().contiguity),
            MapCredits {
                source: &data_source.get(),
                boundaries: &geo.credit,
                today: &today(),
            },
        );
        Some(
            coloured
                .map(|coloured| {
                    Shared(Arc::new(Drawn {
                        year: map.request().year,
                        values: coloured.values,
                        classification: coloured.classification,
                        colouring: coloured.colouring,
                        text: coloured.text,
                        slice: slice.clone(),
                        map: map.clone(),
                    }))
                })
                .map_err(MapError::Request),
        )
    })
}

/// The LISA clusters' colouring of the values drawn, when the toggle is on.
fn lisa(
    on: RwSignal<bool>,
    ok_result: Memo<Option<Shared<Drawn>>>,
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
) -> Stage<Colouring> {
    Memo::new(move |_| {
        if !on.get() {
            return None;
        }
        let r = ok_result.get()?;
        let geo = geometry.get().ok()?;
        Some(
            r.map
                .lisa_colouring(
                    &r.values,
                    &r.slice,
                    geo.prepared.weights(r.map.request().contiguity),
                )
                .map(|(c, _)| Shared(Arc::new(c)))
                .map_err(MapError::Request),
        )
    })
}

/// The request of the controls in `lang` on the boundaries (the command shown is its
/// `to_args`), flagged rows included when `include`.
pub(super) fn request(
    options: MapOptions,
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    lang: RwSignal<Lang>,
    include: RwSignal<bool>,
) -> Memo<Option<Result<MapRequest, MapError>>> {
    Memo::new(move |_| {
        let geo = geometry.get().ok()?;
        options.request(lang.get(), &geo, include.get())
    })
}
