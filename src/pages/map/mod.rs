//! The Map view: the commune choropleth of one year, with smoothing, classes and colours chosen by
//! the reader, a tooltip per commune, zoom and pan, a funnel plot and a data table linked to the
//! map, Moran's I and LISA clusters, and downloads (SVG identical to `imr map`, PNG, CSV).
//!
//! The view holds one [`MapRequest`](imr_core::request::MapRequest) built from its controls ([`MapOptions::request`]),
//! validates it against the data as `imr map` does ([`MapRequest::validate`](imr_core::request::MapRequest::validate)) and runs the
//! engine's stages of the validated map, the same ones `imr map` runs: the boundaries are
//! decoded, projected and written as path strings once ([`Geometry`]); a new year, variable,
//! smoothing or classification only re-slices the year ([`ValidatedMap::year_slice`]) and
//! recolours ([`ValidatedMap::colour`]), updating each path's `fill`, `data-class` and
//! `data-value`. Its downloads are written by the engine's [`MapExport::write`](imr_core::request::MapExport::write) and the command
//! shown is the request's `to_args`.
//!
//! Rows flagged as implausible (`imr_core::plausibility`, the views' shared rule and include
//! toggle) are left out of the map's estimates by default — classes, smoothed rates, Moran's I
//! and the LISA, the funnel plot — and drawn as "flagged, left out" (`YearSlice::kept`,
//! `--include-flagged` in the command when the toggle is on).
//!
//! Components: [`controls`] (what to show), [`options`] (the choices in the link and their
//! request), [`figure`] (the SVG: [`paths`] the communes, [`gestures`] zoom, pan, pinch and taps,
//! [`pan_zoom`] their geometry, [`zoom`] the zoom bar), [`tooltip`], [`legend`] (on the map,
//! notes under it; [`legend_spot`] where on the map it covers no commune with data),
//! [`search`] (a commune by name), [`downloads`] (and the command), [`moran`], [`funnel`],
//! [`table`], [`boundaries`] (your own GeoJSON/TopoJSON), [`selection`] (the commune picked,
//! kept in the link), [`methods`] and [`timing`] (the year-switch line).

mod boundaries;
mod controls;
mod downloads;
mod error;
mod figure;
mod funnel;
mod gestures;
mod legend;
mod legend_spot;
mod methods;
mod moran;
mod options;
mod pan_zoom;
mod paths;
mod search;
mod selection;
mod table;
mod timing;
mod tooltip;
mod zoom;

pub use boundaries::Geometry;
use boundaries::{bundled_geometry, load_bundled_geometry};
use error::{BoundaryError, MapError};
pub(crate) use options::MapOptions;

use crate::components::download::today;
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::AnalysisState;
use crate::state::{AppState, Shared};
use imr_core::map::classify::Classification;
use imr_core::map::svg::{Colouring, MapText};
use imr_core::panel::Panel;
use imr_core::request::{MapCredits, MapFigure, PreparedBoundaries, ValidatedMap, YearSlice};
use leptos::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// What the map shows for the current request (LISA aside): the request's values, classes,
/// colours and texts on the year's data.
pub(crate) struct Drawn {
    /// The request drawn, validated, with `lisa` off (the LISA colouring follows on its own).
    pub map: Shared<ValidatedMap>,
    pub year: i64,
    pub values: Vec<Option<f64>>,
    pub classification: Classification,
    pub colouring: Colouring,
    pub text: MapText,
    /// The year's rows on the areas, the flagged ones and the data without those left out.
    pub slice: Shared<YearSlice>,
}

impl Drawn {
    /// The map as drawn on `boundaries` with `colouring` (the classes' or the LISA clusters'),
    /// from which its files are written ([`MapExport::write`](imr_core::request::MapExport::write)).
    pub fn figure<'a>(
        &'a self,
        boundaries: &'a PreparedBoundaries,
        colouring: &'a Colouring,
    ) -> MapFigure<'a> {
        MapFigure {
            map: &self.map,
            boundaries,
            slice: &self.slice,
            values: &self.values,
            classification: &self.classification,
            colouring,
            text: &self.text,
        }
    }
}

#[component]
pub fn MapPage() -> impl IntoView {
    let lang = lang();
    let state = expect_context::<AppState>();
    let geometry = RwSignal::new(bundled_geometry());
    load_bundled_geometry(geometry);
    let options = MapOptions::from_fragment();
    let MapOptions { year, variable, .. } = options;
    // Flagged rows are left out of the map's estimates unless the shared include toggle is on.
    let analysis_state = expect_context::<AnalysisState>();
    let show_moran = crate::fragment::fragment().synced("moran", true);
    let selected = selection::Selection::from_fragment(geometry);
    let switch_ms = RwSignal::new(None::<(f64, f64)>);

    let panel = Memo::new(move |_| state.panel.get().and_then(|p| p.ok()));
    let years = Memo::new(move |_| panel.get().map(|p| p.times()).unwrap_or_default());
    // Open on the latest year; keep the chosen year while it exists. Without data (while the
    // reader's kept files are read again after a reload) the link's year is left as it is.
    Effect::new(move |_| {
        let ys = years.get();
        if ys.is_empty() {
            return;
        }
        if year.get_untracked().is_none_or(|y| !ys.contains(&y)) {
            year.set(ys.last().copied());
        }
    });
    let variables = variable_choices(panel, variable);
    let data_source = Memo::new(move |_| {
        state.files.with(|f| {
            f.iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        })
    });

    // The request of the controls (the command shown is its `to_args`).
    let request = Memo::new(move |_| {
        let geo = geometry.get().ok()?;
        options.request(lang.get(), &geo, analysis_state.include.get())
    });
    // The request coloured by class: the LISA toggle does not recompute values and classes.
    let class_request = Memo::new(move |_| {
        request.get().map(|r| {
            r.map(|mut r| {
                r.lisa = false;
                r
            })
        })
    });
    // The request coloured by class validated against the data, as `imr map` validates it.
    let validated = Memo::new(move |_| -> Option<Result<Shared<ValidatedMap>, MapError>> {
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
    });
    // One year's rows aligned to the areas (the boundaries' file and code property name them
    // in the error when no code matches).
    let year_slice = Memo::new(move |_| -> Option<Result<Shared<YearSlice>, MapError>> {
        let map = validated.get()?.ok()?;
        let geo = geometry.get().ok()?;
        Some(
            map.year_slice(&geo.prepared.layer)
                .map(|s| Shared(Arc::new(s)))
                .map_err(MapError::Request),
        )
    });
    // Values, classes and colours of the current choices: no geometry is touched.
    let result = Memo::new(move |_| -> Option<Result<Shared<Drawn>, MapError>> {
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
    });
    let ok_result = Memo::new(move |_| result.get().and_then(|r| r.ok()));

    // The colouring drawn: the classes, or the LISA clusters when asked.
    let lisa_colouring = Memo::new(move |_| -> Option<Result<Shared<Colouring>, MapError>> {
        if !options.lisa.get() {
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
    });
    let colouring = Memo::new(move |_| -> Option<Shared<Colouring>> {
        if let Some(Ok(c)) = lisa_colouring.get() {
            return Some(c);
        }
        ok_result
            .get()
            .map(|r| Shared(Arc::new(r.colouring.clone())))
    });
    // The funnel plot, Moran's I and the table follow one task later, so that the map recolours
    // first (their exact Poisson limits and 999 permutations are the slow part of a switch).
    let settled = RwSignal::new(None::<Shared<Drawn>>);
    Effect::new(move |_| {
        let r = ok_result.get();
        set_timeout(move || settled.set(r), Duration::ZERO);
    });
    let (moran_result, eb_moran_result) = moran::moran_tests(settled, geometry, show_moran);
    let contiguity = options.contiguity;
    let switch_year =
        Callback::new(move |y: i64| timing::time_switch(switch_ms, || year.set(Some(y))));

    // The map and its legend first (on a phone, the first screen), then the answer in words and
    // the options, open in a panel the reader can fold.
    view! {
        <section aria-labelledby="map-h" class="map-view">
            <h2 id="map-h">{msg(|m| m.common.view_map)}</h2>
            {move || match result.get() {
                Some(Err(error)) => {
                    Some(
                        view! {
                            <p class="error" role="alert" data-testid="map-error">
                                {move || error.text(lang.get())}
                            </p>
                        }
                            .into_any(),
                    )
                }
                None => {
                    panel
                        .get()
                        .is_none()
                        .then(|| {
                            view! { <p class="note">{msg(|m| m.common.load_data_in_data_tab)}</p> }
                                .into_any()
                        })
                }
                _ => None,
            }}
            {move || match geometry.get() {
                Err(error) if error.is_loading() => {
                    view! {
                        <p class="note" data-testid="map-loading">
                            {move || error.text(lang.get())}
                        </p>
                    }
                        .into_any()
                }
                Err(error) => {
                    view! {
                        <p class="error" role="alert">
                            {move || {
                                format!(
                                    "{}: {}",
                                    messages(lang.get()).map.boundaries,
                                    error.text(lang.get()),
                                )
                            }}
                        </p>
                    }
                        .into_any()
                }
                Ok(geo) => {
                    view! {
                        <figure::MapFigure
                            geo=geo
                            result=ok_result
                            colouring=colouring
                            selected=selected
                        />
                    }
                        .into_any()
                }
            }}
            <crate::components::takeaway::Takeaway question="where" />
            <details class="map-options" open data-testid="map-options">
                <summary>{msg(|m| m.page.map_options)}</summary>
                <controls::MapControls
                    options=options
                    years=years
                    variables=variables
                    switch_year=switch_year
                />
            </details>
            <timing::SwitchTime ms=switch_ms />
            <methods::MapMethods />
            <downloads::Downloads
                geometry=geometry
                request=request
                result=ok_result
                colouring=colouring
            />
            <moran::MoranPanel
                moran=moran_result
                eb_moran=eb_moran_result
                contiguity=contiguity
                show=show_moran
                lisa=lisa_colouring
            />
            <funnel::FunnelPanel geometry=geometry result=settled.into() selected=selected />
            <table::DataTable geometry=geometry result=settled.into() selected=selected />
            <boundaries::GeometryInput geometry=geometry result=ok_result />
        </section>
    }
}

/// The variables a map can show (the rate first, when the panel has one), and the chosen one
/// kept among them: a choice the data do not have falls back to the first.
fn variable_choices(
    panel: Memo<Option<Shared<Panel>>>,
    variable: RwSignal<String>,
) -> Memo<Vec<String>> {
    let variables = Memo::new(move |_| {
        let Some(p) = panel.get() else {
            return Vec::new();
        };
        let mut v = Vec::new();
        if p.has_rates() {
            v.push("rate".to_string());
        }
        v.extend(p.numeric_variables().into_iter().filter(|n| n != "rate"));
        v
    });
    Effect::new(move |_| {
        let vs = variables.get();
        if !vs.is_empty() && !vs.contains(&variable.get_untracked()) {
            variable.set(vs[0].clone());
        }
    });
    variables
}
