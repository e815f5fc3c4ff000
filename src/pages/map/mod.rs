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
//! The stages are memos of [`stages`] (the request, its validation, the year's slice, values and
//! colours, the LISA clusters, and on data that cover part of the country the communes shown).
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
mod stages;
mod table;
mod timing;
mod tooltip;
mod zoom;

pub use boundaries::Geometry;
use boundaries::{bundled_geometry, load_bundled_geometry};
use error::{BoundaryError, MapError};
pub(crate) use options::MapOptions;

use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::AnalysisState;
use crate::state::{AppState, Shared};
use imr_core::map::classify::Classification;
use imr_core::map::svg::{Colouring, MapText};
use imr_core::panel::Panel;
use imr_core::request::{
    year_without_data_note, MapFigure, PreparedBoundaries, ValidatedMap, YearSlice,
};
use leptos::prelude::*;
use stages::{MapStages, StageInputs};
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
    let (years, year_moved) = year_choices(panel, year);
    let variables = variable_choices(panel, variable);
    let data_source = Memo::new(move |_| {
        state.files.with(|f| {
            f.iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        })
    });

    // The request of the controls (the command shown is its `to_args`) and its stages.
    let request = stages::request(options, geometry, lang, analysis_state.include);
    let MapStages {
        result,
        ok_result,
        lisa_colouring,
        colouring,
        focus,
    } = MapStages::new(StageInputs {
        geometry,
        panel,
        request,
        data_source,
        options,
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
            {data_status(result, panel)}
            {year_moved_note(year_moved, year)}
            {move || match geometry.get() {
                Ok(geo) => {
                    view! {
                        <figure::MapFigure
                            geo=geo
                            result=ok_result
                            colouring=colouring
                            focus=focus
                            selected=selected
                        />
                    }
                        .into_any()
                }
                Err(error) => boundary_status(error),
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

/// Why there is no map: the error that stops it, or no data loaded yet.
fn data_status(
    result: Memo<Option<Result<Shared<Drawn>, MapError>>>,
    panel: Memo<Option<Shared<Panel>>>,
) -> impl IntoView {
    let lang = lang();
    move || match result.get() {
        Some(Err(error)) => Some(
            view! {
                <p class="error" role="alert" data-testid="map-error">
                    {move || error.text(lang.get())}
                </p>
            }
            .into_any(),
        ),
        None => panel.get().is_none().then(|| {
            view! { <p class="note">{msg(|m| m.common.load_data_in_data_tab)}</p> }.into_any()
        }),
        _ => None,
    }
}

/// The boundaries not there yet (being read) or unreadable.
fn boundary_status(error: BoundaryError) -> AnyView {
    let lang = lang();
    match error.is_loading() {
        true => view! {
            <p class="note" data-testid="map-loading">
                {move || error.text(lang.get())}
            </p>
        }
        .into_any(),
        false => view! {
            <p class="error" role="alert">
                {move || {
                    format!("{}: {}", messages(lang.get()).map.boundaries, error.text(lang.get()))
                }}
            </p>
        }
        .into_any(),
    }
}

/// The years of the panel; the map opens on the latest and keeps the chosen year while it
/// exists. Without data (while the reader's kept files are read again after a reload) the
/// link's year is left as it is. A year asked that has no data (a shared link's, or one kept
/// from data since replaced) is replaced by the latest, and the move is returned — `(asked,
/// shown)` — for the view to say so ([`year_without_data_note`]).
fn year_choices(
    panel: Memo<Option<Shared<Panel>>>,
    year: RwSignal<Option<i64>>,
) -> (Memo<Vec<i64>>, YearMoved) {
    let years = Memo::new(move |_| panel.get().map(|p| p.times()).unwrap_or_default());
    let moved = RwSignal::new(None::<(i64, i64)>);
    Effect::new(move |_| {
        let ys = years.get();
        let Some(&latest) = ys.last() else {
            return;
        };
        match year.get_untracked() {
            Some(asked) if !ys.contains(&asked) => {
                moved.set(Some((asked, latest)));
                year.set(Some(latest));
            }
            None => year.set(Some(latest)),
            Some(_) => {}
        }
    });
    (years, moved)
}

/// The year asked that had no data and the year shown instead.
type YearMoved = RwSignal<Option<(i64, i64)>>;

/// The note that the year asked has no data and which year the map shows instead, while it
/// shows that year (choosing another year ends it).
fn year_moved_note(moved: YearMoved, year: RwSignal<Option<i64>>) -> impl IntoView {
    let lang = lang();
    move || {
        let (asked, shown) = moved.get()?;
        (year.get() == Some(shown)).then(|| {
            view! {
                <p class="note" role="status" data-testid="map-year-moved">
                    {move || year_without_data_note(lang.get(), asked, shown)}
                </p>
            }
        })
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
