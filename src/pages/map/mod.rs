//! The Map view: the commune choropleth of one year, with smoothing, classes and colours chosen by
//! the reader, a tooltip per commune, zoom and pan, a funnel plot and a data table linked to the
//! map, Moran's I and LISA clusters, and downloads (SVG identical to `imr map`, PNG, CSV).
//!
//! The view holds one [`MapRequest`] built from its controls ([`MapOptions::request`]) and runs
//! the engine's stages of that request, the same ones `imr map` runs: the boundaries are decoded,
//! projected and written as path strings once ([`Geometry`]); a new year, variable, smoothing or
//! classification only re-slices the year ([`MapRequest::year_slice`]) and recolours
//! ([`imr_core::request::ValidatedMap::colour`]), updating each path's `fill`, `data-class` and
//! `data-value`. The command shown is the request's `to_args`.
//!
//! Components: [`controls`] (what to show), [`figure`] (the SVG with zoom, pan, pinch and taps; [`pan_zoom`] its geometry),
//! [`tooltip`], [`legend`], [`downloads`] (and the command), [`moran`], [`funnel`], [`table`],
//! [`boundaries`] (your own GeoJSON/TopoJSON), [`selection`] (the commune picked, kept in the link),
//! [`methods`] and [`timing`] (the year-switch line).

mod boundaries;
mod controls;
mod downloads;
mod error;
mod figure;
mod funnel;
mod legend;
mod methods;
mod moran;
mod pan_zoom;
mod selection;
mod table;
mod timing;
mod tooltip;

use boundaries::bundled_geometry;
pub use boundaries::Geometry;
use error::{BoundaryError, MapError};

use crate::components::download::today;
use crate::i18n::{lang, Lang};
use crate::messages::{messages, msg};
use crate::pages::findings::FlagState;
use crate::state::{AppState, Shared};
use imr_core::map::classify::Classification;
use imr_core::map::colour::Scheme;
use imr_core::map::svg::{Colouring, MapText};
use imr_core::map::year_map::{Measure, YearData};
use imr_core::panel::Panel;
use imr_core::request::{
    ClassScheme, Contiguity, MapCredits, MapRequest, RequestError, Smooth, YearSlice,
    LISA_PERMUTATIONS,
};
use leptos::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// The reader's choices, each kept in the URL fragment under its key (a shared link reopens the
/// same map): `year`, `variable`, `smooth`, `scheme`, `classes`, `breaks`, `colours`, `lisa`,
/// `contiguity`
/// (and the selected commune, [`selection::Selection`], under `commune`).
/// The include-flagged choice is the views' shared one ([`FlagState`]).
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
    fn from_fragment() -> Self {
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
    fn request(
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
            match controls::parse_breaks(&self.breaks.get()) {
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

/// What the map shows for the current request (LISA aside): the request's values, classes,
/// colours and texts on the year's data.
pub(crate) struct Drawn {
    /// The request drawn, with `lisa` off (the LISA colouring follows on its own).
    pub request: MapRequest,
    pub year: i64,
    pub measure: Measure,
    pub values: Vec<Option<f64>>,
    pub classification: Classification,
    pub colouring: Colouring,
    pub text: MapText,
    pub data: YearData,
}

#[component]
pub fn MapPage() -> impl IntoView {
    let lang = lang();
    let state = expect_context::<AppState>();
    let geometry = RwSignal::new(bundled_geometry());
    let options = MapOptions::from_fragment();
    let MapOptions { year, variable, .. } = options;
    // Flagged rows are left out of the class breaks unless the shared include toggle is on.
    let flag_state = expect_context::<FlagState>();
    let show_moran = crate::fragment::fragment().synced("moran", true);
    let selected = selection::Selection::from_fragment(geometry);
    let switch_ms = RwSignal::new(None::<(f64, f64)>);

    let panel = Memo::new(move |_| state.panel.get().and_then(|p| p.ok()));
    let years = Memo::new(move |_| panel.get().map(|p| p.times()).unwrap_or_default());
    // Open on the latest year; keep the chosen year while it exists.
    Effect::new(move |_| {
        let ys = years.get();
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
        options.request(lang.get(), &geo, flag_state.include.get())
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
    // One year's rows aligned to the areas (rebuilt on a new year, variable or geometry).
    let slice_key = Memo::new(move |_| match request.get() {
        Some(Ok(r)) => Some((r.year, r.value)),
        _ => None,
    });
    let year_slice = Memo::new(move |_| -> Option<Result<Shared<YearSlice>, MapError>> {
        let (year, value) = slice_key.get()?;
        let p = panel.get()?;
        let geo = geometry.get().ok()?;
        let flags = flag_state.flags.get();
        // The boundaries' file and code property name them in the error when no code matches.
        let request = MapRequest {
            year,
            value,
            geometry: geo.file.clone(),
            code_property: geo.code_property.clone(),
            ..MapRequest::default()
        };
        let is_flagged = |code: &str, y: i64| flags.as_ref().is_some_and(|f| f.is_flagged(code, y));
        Some(
            request
                .year_slice(&p, &geo.layer, is_flagged)
                .map(|s| Shared(Arc::new(s)))
                .map_err(MapError::Request),
        )
    });
    // Values, classes and colours of the current choices: no geometry is touched.
    let result = Memo::new(move |_| -> Option<Result<Shared<Drawn>, MapError>> {
        let p = panel.get()?;
        let request = match class_request.get()? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        let slice = match year_slice.get()? {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        let geo = geometry.get().ok()?;
        let run = || -> Result<Drawn, RequestError> {
            let validated = request.check()?;
            // The source lines carry today's date, as `imr map` writes them.
            let coloured = validated.colour(
                &request,
                &p,
                &slice,
                geo.weights(request.contiguity),
                MapCredits {
                    source: &data_source.get(),
                    boundaries: &geo.credit,
                    today: &today(),
                },
            )?;
            Ok(Drawn {
                year: request.year,
                measure: validated.measure().clone(),
                values: coloured.values,
                classification: coloured.classification,
                colouring: coloured.colouring,
                text: coloured.text,
                data: slice.data.clone(),
                request,
            })
        };
        Some(
            run()
                .map(|r| Shared(Arc::new(r)))
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
            r.request
                .lisa_colouring(&r.values, geo.weights(r.request.contiguity))
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
    let moran_result = Memo::new(move |_| {
        if !show_moran.get() {
            return None;
        }
        let r = settled.get()?;
        let geo = geometry.get().ok()?;
        r.request
            .moran_test(&r.values, geo.weights(r.request.contiguity))
            .map(|m| m.map_err(MapError::Request))
    });
    // The EB-standardised Moran's I of a rate map (Assunção & Reis 1999).
    let eb_moran_result = Memo::new(move |_| {
        if !show_moran.get() {
            return None;
        }
        let r = settled.get()?;
        let geo = geometry.get().ok()?;
        r.request
            .eb_moran_test(&r.data, geo.weights(r.request.contiguity))
            .map(|m| m.map_err(MapError::Request))
    });
    let contiguity = options.contiguity;
    let switch_year =
        Callback::new(move |y: i64| timing::time_switch(switch_ms, || year.set(Some(y))));

    view! {
        <section aria-labelledby="map-h">
            <h2 id="map-h">{msg(|m| m.common.view_map)}</h2>
            <crate::pages::findings::Takeaway question="where"/>
            <controls::MapControls options=options years=years variables=variables switch_year=switch_year/>
            {move || match result.get() {
                Some(Err(error)) => Some(view! { <p class="error" role="alert" data-testid="map-error">{move || error.text(lang.get())}</p> }.into_any()),
                None => panel.get().is_none().then(|| view! { <p class="note">{msg(|m| m.common.load_data_in_data_tab)}</p> }.into_any()),
                _ => None,
            }}
            {move || match geometry.get() {
                Err(error) => view! { <p class="error" role="alert">{move || format!("{}: {}", messages(lang.get()).map.boundaries, error.text(lang.get()))}</p> }.into_any(),
                Ok(geo) => view! {
                    <figure::MapFigure geo=geo result=ok_result colouring=colouring selected=selected/>
                }.into_any(),
            }}
            <timing::SwitchTime ms=switch_ms/>
            <methods::MapMethods/>
            <downloads::Downloads geometry=geometry request=request result=ok_result colouring=colouring/>
            <moran::MoranPanel moran=moran_result eb_moran=eb_moran_result contiguity=contiguity show=show_moran lisa=lisa_colouring/>
            <funnel::FunnelPanel geometry=geometry result=settled.into() selected=selected/>
            <table::DataTable geometry=geometry result=settled.into() selected=selected/>
            <boundaries::GeometryInput geometry=geometry result=ok_result/>
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
        if has_rate(&p) {
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

fn has_rate(p: &Panel) -> bool {
    p.has_births && (p.has_deaths || p.deaths_derived)
}
