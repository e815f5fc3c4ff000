//! The Map view: the commune choropleth of one year, with smoothing, classes and colours chosen by
//! the reader, a tooltip per commune, zoom and pan, a funnel plot and a data table linked to the
//! map, Moran's I and LISA clusters, and downloads (SVG identical to `imr map`, PNG, CSV).
//!
//! The boundaries are decoded, projected and written as path strings once ([`Geometry`]); a new
//! year, variable, smoothing or classification only recomputes values and colours
//! ([`imr_core::map::year_map`], shared with `imr map`) and updates each path's `fill`,
//! `data-class` and `data-value`.

use crate::components::download::{download_csv, download_text, today};
use crate::i18n::{lang, tr, Lang};
use crate::pages::data::HowCalculated;
use crate::pages::findings::{FlagState, IncludeFlagged};
use crate::state::{AppState, Shared};
use imr_core::map::autocorrelation::{lisa, moran, Moran};
use imr_core::map::classify::{format_number, Classification, Method};
use imr_core::map::colour::{Scheme, NO_DATA_FILL};
use imr_core::map::funnel::funnel;
use imr_core::map::geometry::{GeoLayer, PropertyKeys};
use imr_core::map::layout::{LayoutSpec, MapLayout};
use imr_core::map::smoothing::{excess_risk, global_eb, raw_rates, spatial_eb, Smoothing};
use imr_core::map::svg::{
    choropleth_svg, format_value, funnel_svg, method_note, Colouring, FunnelText, MapText,
};
use imr_core::map::weights::Weights;
use imr_core::map::year_map::{
    colour_values_flagged, default_scheme, map_csv, Measure, YearData, BUNDLED_CREDIT,
};
use imr_core::panel::Panel;
use imr_core::rates::rate_with_interval;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use wasm_bindgen::JsCast;

/// The bundled boundaries (345 communes, chilemapas), embedded so that no request is made.
const BUNDLED_TOPOJSON: &str = imr_core::data::BOUNDARIES_TOPOJSON;
/// Permutations of the Moran and LISA tests (seed [`SEED`]); `imr map --moran 999 --seed 1`.
const PERMUTATIONS: usize = 999;
const SEED: u64 = 1;
const LISA_ALPHA: f64 = 0.05;
/// Milliseconds between years while playing.
const PLAY_STEP_MS: u64 = 1200;

/// Boundaries decoded, projected and drawn once: the layer, the page layout with every path
/// string, and the rook weights from shared borders.
pub struct Geometry {
    pub layer: GeoLayer,
    pub layout: MapLayout,
    pub weights: Weights,
    /// How the boundaries are credited on the map: the bundled credit or the file name.
    pub credit: String,
    /// The file name, or `None` for the bundled boundaries.
    pub file: Option<String>,
    /// The properties matched (for the equivalent `imr map` command).
    pub code_property: String,
    pub name_property: Option<String>,
}

impl Geometry {
    fn build(text: &str, keys: &PropertyKeys, file: Option<String>) -> Result<Self, String> {
        let layer = GeoLayer::from_str(text, None, keys).map_err(|e| e.to_string())?;
        let layout =
            MapLayout::build(&layer, &LayoutSpec::auto(&layer)).map_err(|e| e.to_string())?;
        let weights = Weights::rook(&layer).map_err(|e| e.to_string())?;
        Ok(Geometry {
            credit: file.clone().unwrap_or_else(|| BUNDLED_CREDIT.to_string()),
            file,
            code_property: keys.code.clone(),
            name_property: keys.name.clone(),
            layer,
            layout,
            weights,
        })
    }
}

/// The bundled geometry, built on first use and kept for the life of the page (switching tabs
/// does not rebuild it).
fn bundled_geometry() -> Result<Shared<Geometry>, String> {
    static BUNDLED: OnceLock<Result<Arc<Geometry>, String>> = OnceLock::new();
    BUNDLED
        .get_or_init(|| {
            Geometry::build(BUNDLED_TOPOJSON, &PropertyKeys::default(), None).map(Arc::new)
        })
        .clone()
        .map(Shared)
}

/// The smoothing selector's choices (rate only).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SmoothChoice {
    Raw,
    GlobalEb,
    SpatialEb,
    ExcessRisk,
}

impl SmoothChoice {
    const ALL: [SmoothChoice; 4] = [
        SmoothChoice::Raw,
        SmoothChoice::GlobalEb,
        SmoothChoice::SpatialEb,
        SmoothChoice::ExcessRisk,
    ];
    fn key(self) -> &'static str {
        match self {
            SmoothChoice::Raw => "none",
            SmoothChoice::GlobalEb => "eb",
            SmoothChoice::SpatialEb => "spatial-eb",
            SmoothChoice::ExcessRisk => "excess-risk",
        }
    }
    fn label(self) -> (&'static str, &'static str) {
        match self {
            SmoothChoice::Raw => ("Tasa bruta", "Raw rate"),
            SmoothChoice::GlobalEb => ("Bayes empírico global", "Global empirical Bayes"),
            SmoothChoice::SpatialEb => ("Bayes empírico espacial", "Spatial empirical Bayes"),
            SmoothChoice::ExcessRisk => ("Riesgo en exceso (O/E)", "Excess risk (O/E)"),
        }
    }
}

/// The classification selector's choices.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ClassChoice {
    Quantile,
    Equal,
    Jenks,
    Box,
    StdDev,
    Custom,
}

impl ClassChoice {
    const ALL: [ClassChoice; 6] = [
        ClassChoice::Quantile,
        ClassChoice::Equal,
        ClassChoice::Jenks,
        ClassChoice::Box,
        ClassChoice::StdDev,
        ClassChoice::Custom,
    ];
    fn key(self) -> &'static str {
        match self {
            ClassChoice::Quantile => "quantile",
            ClassChoice::Equal => "equal",
            ClassChoice::Jenks => "jenks",
            ClassChoice::Box => "box",
            ClassChoice::StdDev => "stddev",
            ClassChoice::Custom => "custom",
        }
    }
    fn label(self) -> (&'static str, &'static str) {
        match self {
            ClassChoice::Quantile => ("Cuantiles", "Quantiles"),
            ClassChoice::Equal => ("Intervalos iguales", "Equal intervals"),
            ClassChoice::Jenks => ("Cortes naturales (Jenks)", "Natural breaks (Jenks)"),
            ClassChoice::Box => ("Mapa de caja", "Box map"),
            ClassChoice::StdDev => ("Desviaciones estándar", "Standard deviations"),
            ClassChoice::Custom => ("Cortes propios", "Custom breaks"),
        }
    }
    fn uses_count(self) -> bool {
        matches!(
            self,
            ClassChoice::Quantile | ClassChoice::Equal | ClassChoice::Jenks
        )
    }
    fn method(self, classes: usize, breaks: &str) -> Result<Method, String> {
        Ok(match self {
            ClassChoice::Quantile => Method::Quantile { classes },
            ClassChoice::Equal => Method::EqualInterval { classes },
            ClassChoice::Jenks => Method::NaturalBreaks { classes },
            ClassChoice::Box => Method::BoxMap { hinge: 1.5 },
            ClassChoice::StdDev => Method::StdDev,
            ClassChoice::Custom => {
                let parsed: Result<Vec<f64>, _> = breaks
                    .split([',', ';', ' '])
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| s.trim().parse::<f64>())
                    .collect();
                match parsed {
                    Ok(b) if !b.is_empty() => Method::Custom { breaks: b },
                    _ => {
                        return Err(format!(
                            "Cortes propios: escriba números crecientes separados por comas, p. ej. 4,6,8 (custom breaks: increasing numbers, e.g. 4,6,8); se leyó «{breaks}»"
                        ))
                    }
                }
            }
        })
    }
}

/// Colour schemes offered (all colour-blind safe), with `auto` = [`default_scheme`].
const SCHEMES: [(&str, &str, &str); 7] = [
    ("auto", "Automático", "Automatic"),
    ("ylorrd", "YlOrRd (secuencial)", "YlOrRd (sequential)"),
    ("blues", "Blues (secuencial)", "Blues (sequential)"),
    ("viridis", "Viridis (secuencial)", "Viridis (sequential)"),
    ("cividis", "Cividis (secuencial)", "Cividis (sequential)"),
    ("burd", "Azul–rojo (divergente)", "Blue–red (diverging)"),
    (
        "puor",
        "Morado–naranja (divergente)",
        "Purple–orange (diverging)",
    ),
];

/// One year's data aligned to the areas of the geometry.
struct YearInput {
    year: i64,
    data: YearData,
    /// Per area: the year's row is flagged as implausible ([`FlagState`]).
    flagged: Vec<bool>,
}

/// Everything the map shows for the current choices.
struct MapResult {
    year: i64,
    measure: Measure,
    values: Vec<Option<f64>>,
    classification: Classification,
    colouring: Colouring,
    text: MapText,
    data: YearData,
}

/// Milliseconds since the page opened (`performance.now()`).
fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// The current viewBox of the map: x, y, width, height.
type ViewBox = (f64, f64, f64, f64);

/// Grows `rect` about its centre to the aspect ratio of the page, with a margin, so that the
/// region fills the view without distortion.
fn fit_aspect(x: f64, y: f64, w: f64, h: f64, page_w: f64, page_h: f64) -> ViewBox {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let (mut w, mut h) = (w.max(1.0) * 1.15, h.max(1.0) * 1.15);
    let aspect = page_w / page_h;
    if w / h > aspect {
        h = w / aspect;
    } else {
        w = h * aspect;
    }
    (cx - w / 2.0, cy - h / 2.0, w, h)
}

/// How far (CSS pixels) a finger may move between touching and lifting for a tap.
const TAP_SLOP_PX: f64 = 10.0;

/// A two-finger pinch in progress: the fingers' distance and the view box when it started, and
/// the map point under their midpoint then (it stays under the midpoint).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pinch {
    distance: f64,
    view_box: ViewBox,
    anchor: (f64, f64),
}

/// The view box of a pinch when the fingers are `distance` apart with their midpoint at
/// (`fx`, `fy`), fractions of the map's width and height: the start's width scaled by the ratio
/// of the distances (apart = zoom in), within the whole page and 40× zoom, keeping the page's
/// aspect and the anchor under the midpoint.
fn pinched(p: &Pinch, distance: f64, fx: f64, fy: f64, page_w: f64, page_h: f64) -> ViewBox {
    let w = (p.view_box.2 * p.distance / distance).clamp(page_w / 40.0, page_w);
    let h = w * page_h / page_w;
    (p.anchor.0 - fx * w, p.anchor.1 - fy * h, w, h)
}

#[component]
pub fn MapPage() -> impl IntoView {
    let lang = lang();
    let state = expect_context::<AppState>();
    let geometry = RwSignal::new(bundled_geometry());
    // The map's options live in the URL fragment: a shared link reopens the same map.
    let fragment = crate::fragment::fragment();
    let year = fragment.synced_with(
        "year",
        None::<i64>,
        |y| y.map(|v| v.to_string()).unwrap_or_default(),
        |s| Some(s.parse().ok()),
    );
    let variable = fragment.synced("variable", "rate".to_string());
    let smooth = fragment.synced_with(
        "smooth",
        SmoothChoice::Raw,
        |c| c.key().to_owned(),
        |s| SmoothChoice::ALL.into_iter().find(|c| c.key() == s),
    );
    let class_choice = fragment.synced_with(
        "scheme",
        ClassChoice::Quantile,
        |c| c.key().to_owned(),
        |s| ClassChoice::ALL.into_iter().find(|c| c.key() == s),
    );
    let classes = fragment.synced("classes", 5usize);
    let breaks = fragment.synced("breaks", String::new());
    let scheme_key = fragment.synced("colours", "auto".to_string());
    let show_lisa = fragment.synced("lisa", false);
    // Flagged rows are left out of the class breaks unless the shared include toggle is on.
    let flag_state = expect_context::<FlagState>();
    let show_moran = RwSignal::new(true);
    let selected = RwSignal::new(None::<usize>);
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

    // One year's rows aligned to the areas (rebuilt on a new year, variable or geometry).
    let year_input = Memo::new(move |_| -> Option<Shared<YearInput>> {
        let p = panel.get()?;
        let geo = geometry.get().ok()?;
        let y = year.get()?;
        let var = variable.get();
        let rows: Vec<usize> = (0..p.rows.len()).filter(|&i| p.rows[i].time == y).collect();
        let codes: Vec<&str> = rows.iter().map(|&i| p.rows[i].entity.as_str()).collect();
        let deaths: Vec<Option<f64>> = rows.iter().map(|&i| p.rows[i].deaths).collect();
        let births: Vec<Option<f64>> = rows.iter().map(|&i| p.rows[i].births).collect();
        let column: Option<Vec<Option<f64>>> = (var != "rate")
            .then(|| p.numeric_column(&var))
            .flatten()
            .map(|col| rows.iter().map(|&i| col[i]).collect());
        let data = YearData::from_rows(&geo.layer, &codes, &deaths, &births, column.as_deref());
        let mut flagged = vec![false; geo.layer.areas.len()];
        if let Some(flags) = flag_state.flags.get() {
            for (k, area) in data.matching.area_of_entity.iter().enumerate() {
                if let Some(area) = *area {
                    flagged[area] = flags.is_flagged(codes[k], y);
                }
            }
        }
        Some(Shared(Arc::new(YearInput {
            year: y,
            data,
            flagged,
        })))
    });

    let measure = Memo::new(move |_| {
        let var = variable.get();
        if var == "rate" {
            match smooth.get() {
                SmoothChoice::Raw => Measure::Rate(Smoothing::None),
                SmoothChoice::GlobalEb => Measure::Rate(Smoothing::GlobalEb),
                SmoothChoice::SpatialEb => Measure::Rate(Smoothing::SpatialEb),
                SmoothChoice::ExcessRisk => Measure::ExcessRisk,
            }
        } else {
            Measure::Column(var)
        }
    });
    let method = Memo::new(move |_| class_choice.get().method(classes.get(), &breaks.get()));
    let data_source = Memo::new(move |_| {
        state.files.with(|f| {
            f.iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        })
    });

    // Values, classes and colours of the current choices: no geometry is touched.
    let result = Memo::new(move |_| -> Option<Result<Shared<MapResult>, String>> {
        let input = year_input.get()?;
        let geo = geometry.get().ok()?;
        let measure = measure.get();
        let run = || -> Result<MapResult, String> {
            let method = method.get()?;
            let scheme = match scheme_key.get().as_str() {
                "auto" => default_scheme(&method),
                name => Scheme::from_name(name).unwrap_or(Scheme::YlOrRd),
            };
            let values = measure
                .values(&input.data, &geo.weights)
                .map_err(|e| format!("{}: {e}", input.year))?;
            // The texts in the page's language; the source lines carry today's date (as `imr map
            // --lang` writes them, so an English page's SVG equals the command's).
            let l = lang.get().engine();
            let (classification, mut colouring) = colour_values_flagged(
                &values,
                &input.flagged,
                flag_state.include.get(),
                &method,
                scheme,
                measure.decimals(),
                l,
            )
            .map_err(|e| format!("{}: {e}", input.year))?;
            colouring.method_note =
                method_note(&classification.method, classification.classes.len(), l);
            let text = measure.text_in(
                l,
                &input.year.to_string(),
                &data_source.get(),
                &geo.credit,
                Some(&today()),
            );
            Ok(MapResult {
                year: input.year,
                measure: measure.clone(),
                values,
                classification,
                colouring,
                text,
                data: input.data.clone(),
            })
        };
        Some(run().map(|r| Shared(Arc::new(r))))
    });
    let ok_result = Memo::new(move |_| result.get().and_then(|r| r.ok()));

    // The colouring drawn: the classes, or the LISA clusters when asked.
    let lisa_colouring = Memo::new(move |_| -> Option<Result<Shared<Colouring>, String>> {
        if !show_lisa.get() {
            return None;
        }
        let r = ok_result.get()?;
        let geo = geometry.get().ok()?;
        Some(
            lisa(&r.values, &geo.weights, PERMUTATIONS, SEED, LISA_ALPHA)
                .map(|l| {
                    Shared(Arc::new(Colouring::from_lisa_in(
                        &r.values,
                        &l.clusters,
                        LISA_ALPHA,
                        lang.get().engine(),
                    )))
                })
                .map_err(|e| format!("LISA: {e}")),
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
    let settled = RwSignal::new(None::<Shared<MapResult>>);
    let settle_ms = RwSignal::new(None::<f64>);
    Effect::new(move |_| {
        let r = ok_result.get();
        set_timeout(
            move || {
                let t0 = now_ms();
                settled.set(r);
                set_timeout(move || settle_ms.set(Some(now_ms() - t0)), Duration::ZERO);
            },
            Duration::ZERO,
        );
    });
    let moran_result = Memo::new(move |_| -> Option<Result<Moran, String>> {
        if !show_moran.get() {
            return None;
        }
        let r = settled.get()?;
        let geo = geometry.get().ok()?;
        Some(moran(&r.values, &geo.weights, PERMUTATIONS, SEED).map_err(|e| e.to_string()))
    });

    // Year switches are timed from the change to the end of the reactive update (a timeout
    // runs after the microtasks that update the DOM) and to the next frame.
    let switch_year = move |y: i64| {
        let t0 = now_ms();
        year.set(Some(y));
        set_timeout(
            move || {
                let script = now_ms() - t0;
                request_animation_frame(move || {
                    set_timeout(
                        move || {
                            let painted = now_ms() - t0;
                            leptos::logging::log!(
                                "imr-atlas map: year {y} recoloured in {script:.1} ms (script), {painted:.1} ms to the next frame"
                            );
                            switch_ms.set(Some((script, painted)));
                        },
                        Duration::ZERO,
                    )
                });
            },
            Duration::ZERO,
        );
    };

    // Play: step through the years, then stop on the last one.
    let play_handle = StoredValue::new_local(None::<IntervalHandle>);
    let playing = RwSignal::new(false);
    let stop = move || {
        if let Some(h) = play_handle.get_value() {
            h.clear();
        }
        play_handle.set_value(None);
        playing.set(false);
    };
    let play = move |_| {
        if playing.get_untracked() {
            stop();
            return;
        }
        let ys = years.get_untracked();
        if ys.len() < 2 {
            return;
        }
        // Start from the first year when at the end.
        if year.get_untracked() == ys.last().copied() {
            switch_year(ys[0]);
        }
        playing.set(true);
        let handle = set_interval_with_handle(
            move || {
                let ys = years.get_untracked();
                let next = year
                    .get_untracked()
                    .and_then(|y| ys.iter().position(|&t| t == y))
                    .and_then(|i| ys.get(i + 1).copied());
                match next {
                    Some(y) => switch_year(y),
                    None => stop(),
                }
            },
            Duration::from_millis(PLAY_STEP_MS),
        )
        .ok();
        play_handle.set_value(handle);
    };
    on_cleanup(stop);

    let controls = view! {
        <fieldset class="map-controls">
            <legend>{tr("Qué mostrar", "What to show")}</legend>
            <span>
                <label for="map-year">{tr("Año", "Year")}</label>
                <select id="map-year" data-testid="year-select"
                    on:change=move |ev| { if let Ok(y) = event_target_value(&ev).parse::<i64>() { switch_year(y) } }>
                    {move || years.get().into_iter().map(|y| view! {
                        <option value=y.to_string() selected=move || year.get() == Some(y)>{y}</option>
                    }).collect_view()}
                </select>
                <button class="secondary" data-testid="play" aria-pressed=move || playing.get().to_string() on:click=play>
                    {move || if playing.get() { lang.get().pick("⏸ Pausa", "⏸ Pause") } else { lang.get().pick("▶ Reproducir años", "▶ Play years") }}
                </button>
            </span>
            <span>
                <label for="map-variable">"Variable"</label>
                <select id="map-variable" data-testid="variable-select" on:change=move |ev| variable.set(event_target_value(&ev))>
                    {move || variables.get().into_iter().map(|v| {
                        let label = if v == "rate" { lang.get_untracked().pick("Tasa de mortalidad infantil ‰", "Infant mortality rate ‰").to_string() } else { v.clone() };
                        let value = v.clone();
                        view! { <option value=value selected=move || variable.get() == v>{label}</option> }
                    }).collect_view()}
                </select>
            </span>
            <span>
                <label for="map-smooth">{tr("Suavizado", "Smoothing")}</label>
                <select id="map-smooth" data-testid="smooth-select" disabled=move || variable.get() != "rate"
                    on:change=move |ev| {
                        let k = event_target_value(&ev);
                        if let Some(c) = SmoothChoice::ALL.into_iter().find(|c| c.key() == k) { smooth.set(c) }
                    }>
                    {SmoothChoice::ALL.into_iter().map(|c| view! {
                        <option value=c.key() selected=move || smooth.get() == c>{move || { let (es, en) = c.label(); lang.get().pick(es, en) }}</option>
                    }).collect_view()}
                </select>
            </span>
            <span>
                <label for="map-classify">{tr("Clasificación", "Classes")}</label>
                <select id="map-classify" data-testid="classify-select"
                    on:change=move |ev| {
                        let k = event_target_value(&ev);
                        if let Some(c) = ClassChoice::ALL.into_iter().find(|c| c.key() == k) { class_choice.set(c) }
                    }>
                    {ClassChoice::ALL.into_iter().map(|c| view! {
                        <option value=c.key() selected=move || class_choice.get() == c>{move || { let (es, en) = c.label(); lang.get().pick(es, en) }}</option>
                    }).collect_view()}
                </select>
            </span>
            <span>
                <label for="map-classes">{tr("N.º de clases", "Number of classes")}</label>
                <input id="map-classes" type="number" min="2" max="9" data-testid="classes-input"
                    disabled=move || !class_choice.get().uses_count()
                    prop:value=move || classes.get().to_string()
                    on:change=move |ev| { if let Ok(k) = event_target_value(&ev).parse::<usize>() { classes.set(k.clamp(2, 9)) } }/>
            </span>
            <span>
                <label for="map-breaks">{tr("Cortes propios", "Custom breaks")}</label>
                <input id="map-breaks" type="text" placeholder="4, 6, 8, 12" data-testid="breaks-input"
                    disabled=move || class_choice.get() != ClassChoice::Custom
                    prop:value=move || breaks.get()
                    on:change=move |ev| breaks.set(event_target_value(&ev))/>
            </span>
            <span>
                <label for="map-scheme">{tr("Colores", "Colours")}</label>
                <select id="map-scheme" data-testid="scheme-select" on:change=move |ev| scheme_key.set(event_target_value(&ev))>
                    {SCHEMES.into_iter().map(|(k, es, en)| view! {
                        <option value=k selected=move || scheme_key.get() == k>{move || lang.get().pick(es, en)}</option>
                    }).collect_view()}
                </select>
            </span>
            <span>
                <input id="map-lisa" type="checkbox" data-testid="lisa-toggle" prop:checked=move || show_lisa.get()
                    on:change=move |ev| show_lisa.set(event_target_checked(&ev))/>
                <label for="map-lisa">{tr("Mapa de clusters LISA", "LISA cluster map")}</label>
            </span>
        </fieldset>
        <IncludeFlagged/>
    };

    view! {
        <section aria-labelledby="map-h">
            <h2 id="map-h">{tr("Mapa", "Map")}</h2>
            <crate::pages::findings::Takeaway question="where"/>
            {controls}
            {move || match result.get() {
                Some(Err(message)) => Some(view! { <p class="error" role="alert" data-testid="map-error">{message}</p> }.into_any()),
                None => panel.get().is_none().then(|| view! { <p class="note">{tr("Cargue datos en la pestaña Datos.", "Load data in the Data tab.")}</p> }.into_any()),
                _ => None,
            }}
            {move || match geometry.get() {
                Err(message) => view! { <p class="error" role="alert">{format!("{}: {message}", lang.get().pick("Límites", "Boundaries"))}</p> }.into_any(),
                Ok(geo) => view! {
                    <MapFigure geo=geo result=ok_result colouring=colouring selected=selected/>
                }.into_any(),
            }}
            <p class="note" data-testid="switch-time" aria-live="polite">{move || switch_ms.get().map(|(script, painted)| match lang.get() {
                Lang::Es => format!("Último cambio de año: mapa recoloreado en {script:.1} ms (cálculo y DOM), {painted:.1} ms hasta el cuadro siguiente"),
                Lang::En => format!("Last year switch: map recoloured in {script:.1} ms (script and DOM), {painted:.1} ms to the next frame"),
            })}
            {move || switch_ms.get().and(settle_ms.get()).map(|ms| match lang.get() {
                Lang::Es => format!("; embudo, I de Moran y tabla: {ms:.1} ms después."),
                Lang::En => format!("; funnel plot, Moran's I and table: {ms:.1} ms after that."),
            })}</p>
            <MapMethods/>
            <Downloads geometry=geometry result=ok_result colouring=colouring lisa_on=show_lisa/>
            <MoranPanel moran=moran_result show=show_moran lisa=lisa_colouring/>
            <FunnelPanel geometry=geometry result=settled.into() selected=selected/>
            <DataTable geometry=geometry result=settled.into() selected=selected/>
            <GeometryInput geometry=geometry result=ok_result/>
        </section>
    }
}

fn has_rate(p: &Panel) -> bool {
    p.has_births && (p.has_deaths || p.deaths_derived)
}

/// The interactive map, its legend and tooltip. Paths are written once per geometry; only their
/// fill and data attributes follow the colouring.
#[component]
fn MapFigure(
    geo: Shared<Geometry>,
    result: Memo<Option<Shared<MapResult>>>,
    colouring: Memo<Option<Shared<Colouring>>>,
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    let lang = lang();
    let (page_w, page_h) = (geo.layout.width, geo.layout.height);
    let full: ViewBox = (0.0, 0.0, page_w, page_h);
    let view_box = RwSignal::new(full);
    let hover = RwSignal::new(None::<(usize, f64, f64)>);
    let drag = StoredValue::new(None::<(f64, f64, ViewBox)>);
    let container = NodeRef::<leptos::html::Div>::new();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    let fill_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .map(|c| c.fill_of(area).to_string())
                .unwrap_or_else(|| NO_DATA_FILL.to_string())
        })
    };
    let class_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .and_then(|c| c.classes.get(area).copied().flatten())
                .map(|k| k.to_string())
                .unwrap_or_else(|| "none".into())
        })
    };
    let flagged_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .is_some_and(|c| c.flagged.get(area).copied().unwrap_or(false))
        })
    };
    let value_of = move |area: usize| {
        colouring.with(|c| {
            c.as_ref()
                .and_then(|c| c.values.get(area).copied().flatten())
                .map(format_value)
                .unwrap_or_default()
        })
    };

    // Tooltip placement relative to the figure.
    let place = move |area: usize, client_x: f64, client_y: f64| {
        let Some(div) = container.get_untracked() else {
            return;
        };
        let r = div.get_bounding_client_rect();
        hover.set(Some((area, client_x - r.left(), client_y - r.top())));
    };
    let zoom_by = move |factor: f64, cx: f64, cy: f64| {
        view_box.update(|vb| {
            let w = (vb.2 * factor).clamp(page_w / 40.0, page_w);
            let h = w * page_h / page_w;
            let x = cx - (cx - vb.0) * w / vb.2;
            let y = cy - (cy - vb.1) * h / vb.3;
            *vb = (x, y, w, h);
        })
    };
    // Client coordinates to the map's units (the viewBox keeps the page's aspect ratio).
    let to_map = move |client_x: f64, client_y: f64| -> Option<(f64, f64)> {
        let svg = svg_ref.get_untracked()?;
        let r = svg.get_bounding_client_rect();
        let vb = view_box.get_untracked();
        (r.width() > 0.0).then(|| {
            (
                vb.0 + (client_x - r.left()) / r.width() * vb.2,
                vb.1 + (client_y - r.top()) / r.height() * vb.3,
            )
        })
    };

    // Pointers on the map by id (mouse, pen or fingers): one drags the view, two pinch it, and a
    // touch that barely moves is a tap, which shows the commune's tooltip and selects it (the
    // mouse's hover and click). `touch-action: none` on the map gives these gestures to the page.
    let pointers = StoredValue::new(Vec::<(i32, f64, f64)>::new());
    let pinch = StoredValue::new(None::<Pinch>);
    let tap = StoredValue::new(None::<(i32, f64, f64)>);
    let pointer_down = move |ev: leptos::ev::PointerEvent| {
        let (id, x, y) = (ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64);
        pointers.update_value(|ps| {
            ps.retain(|p| p.0 != id);
            ps.push((id, x, y));
        });
        let ps = pointers.get_value();
        match ps.as_slice() {
            [_] => {
                drag.set_value(Some((x, y, view_box.get_untracked())));
                tap.set_value((ev.pointer_type() == "touch").then_some((id, x, y)));
            }
            [a, b, ..] => {
                drag.set_value(None);
                tap.set_value(None);
                let distance = (a.1 - b.1).hypot(a.2 - b.2);
                let anchor = to_map((a.1 + b.1) / 2.0, (a.2 + b.2) / 2.0);
                pinch.set_value(anchor.filter(|_| distance > 0.0).map(|anchor| Pinch {
                    distance,
                    view_box: view_box.get_untracked(),
                    anchor,
                }));
            }
            [] => {}
        }
    };
    let pointer_move = move |ev: leptos::ev::PointerEvent| {
        let (id, x, y) = (ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64);
        pointers.update_value(|ps| {
            if let Some(p) = ps.iter_mut().find(|p| p.0 == id) {
                (p.1, p.2) = (x, y);
            }
        });
        if tap
            .get_value()
            .is_some_and(|t| t.0 == id && (x - t.1).hypot(y - t.2) > TAP_SLOP_PX)
        {
            tap.set_value(None);
        }
        if let Some(p) = pinch.get_value() {
            let ps = pointers.get_value();
            let (Some(a), Some(b), Some(svg)) = (ps.first(), ps.get(1), svg_ref.get_untracked())
            else {
                return;
            };
            let r = svg.get_bounding_client_rect();
            let distance = (a.1 - b.1).hypot(a.2 - b.2);
            if distance > 0.0 && r.width() > 0.0 && r.height() > 0.0 {
                view_box.set(pinched(
                    &p,
                    distance,
                    ((a.1 + b.1) / 2.0 - r.left()) / r.width(),
                    ((a.2 + b.2) / 2.0 - r.top()) / r.height(),
                    page_w,
                    page_h,
                ));
            }
            return;
        }
        let Some((x0, y0, vb)) = drag.get_value() else {
            return;
        };
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let r = svg.get_bounding_client_rect();
        let (dx, dy) = (x - x0, y - y0);
        if dx.abs() + dy.abs() > 3.0 && r.width() > 0.0 {
            view_box.set((
                vb.0 - dx / r.width() * vb.2,
                vb.1 - dy / r.height() * vb.3,
                vb.2,
                vb.3,
            ));
        }
    };
    // A pointer lifted, cancelled or gone: the pinch ends (a finger left on the map drags on
    // from where it is), a single pointer's drag ends.
    let pointer_end = move |ev: leptos::ev::PointerEvent| {
        let id = ev.pointer_id();
        pointers.update_value(|ps| ps.retain(|p| p.0 != id));
        if tap.get_value().is_some_and(|t| t.0 == id) {
            tap.set_value(None);
        }
        if pinch.get_value().is_some() {
            pinch.set_value(None);
            let rest = pointers.get_value().first().copied();
            drag.set_value(rest.map(|p| (p.1, p.2, view_box.get_untracked())));
        } else {
            drag.set_value(None);
        }
    };
    let geo_tap = geo.clone();
    let pointer_up = move |ev: leptos::ev::PointerEvent| {
        let tapped =
            ev.pointer_type() == "touch" && tap.get_value().is_some_and(|t| t.0 == ev.pointer_id());
        pointer_end(ev.clone());
        if !tapped {
            return;
        }
        // The commune under the finger (touch pointers are captured by the element they went
        // down on); a tap elsewhere on the map hides the tooltip.
        let area = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("path[data-code]").ok().flatten())
            .and_then(|e| e.get_attribute("data-code"))
            .and_then(|code| geo_tap.layer.index_of(&code));
        match area {
            Some(area) => {
                place(area, ev.client_x() as f64, ev.client_y() as f64);
                selected.set(Some(area));
            }
            None => hover.set(None),
        }
    };

    let layout = &geo.layout;
    let panels = layout
        .panels
        .iter()
        .enumerate()
        .map(|(p, panel)| {
            let frame = panel.boxed.then(|| {
                let r = panel.rect.inset(-4.0);
                view! {
                    <text x=panel.rect.x y=panel.rect.y - 6.0 font-size="11" fill="#333333">{panel.title.clone().unwrap_or_default()}</text>
                    <rect x=r.x y=r.y width=r.width height=r.height fill="none" stroke="#666666" stroke-width="0.8"/>
                }
            });
            let shapes = layout
                .shapes
                .iter()
                .filter(|s| s.panel == p)
                .map(|shape| {
                    let area = shape.area;
                    let d = shape.d.clone();
                    if !shape.primary {
                        return view! { <path data-of=layout.codes[area].clone() fill=move || fill_of(area) d=d/> }.into_any();
                    }
                    let code = layout.codes[area].clone();
                    let name = layout.names[area].clone();
                    let label = move || {
                        let v = colouring.with(|c| c.as_ref().and_then(|c| c.values.get(area).copied().flatten()));
                        format!("{name} ({}): {}", code, v.map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2)).unwrap_or_else(|| lang.get_untracked().pick("sin datos", "no data").into()))
                    };
                    view! {
                        <path data-code=layout.codes[area].clone() data-class=move || class_of(area) data-value=move || value_of(area)
                            data-flagged=move || flagged_of(area).then_some("true")
                            stroke=move || flagged_of(area).then_some("#1a1a1a")
                            stroke-width=move || flagged_of(area).then_some("1.2")
                            fill=move || fill_of(area) d=d tabindex="0" role="button"
                            aria-label=label
                            aria-pressed=move || (selected.get() == Some(area)).to_string()
                            on:mouseenter=move |ev: leptos::ev::MouseEvent| place(area, ev.client_x() as f64, ev.client_y() as f64)
                            on:mousemove=move |ev: leptos::ev::MouseEvent| place(area, ev.client_x() as f64, ev.client_y() as f64)
                            on:mouseleave=move |_| hover.set(None)
                            on:focus=move |ev: leptos::ev::FocusEvent| {
                                if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                                    let r = el.get_bounding_client_rect();
                                    place(area, r.right(), r.top() + r.height() / 2.0);
                                }
                            }
                            on:blur=move |_| hover.set(None)
                            on:click=move |_| selected.set(Some(area))
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); selected.set(Some(area)); }
                            }/>
                    }
                    .into_any()
                })
                .collect_view();
            view! {
                {frame}
                <g data-panel=panel.id.clone() stroke="#ffffff" stroke-width=if panel.boxed { "0.6" } else { "0.25" } stroke-linejoin="round">{shapes}</g>
            }
        })
        .collect_view();
    // The selected commune outlined on top of its neighbours.
    let outline_paths: Vec<String> = layout
        .primary_shape
        .iter()
        .map(|s| s.map(|s| layout.shapes[s].d.clone()).unwrap_or_default())
        .collect();
    let regions = layout.regions.clone();
    let regions_for_select = regions.clone();
    let geo_tooltip = geo.clone();

    view! {
        <div class="map-figure" style="display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start">
            <div class="map" node_ref=container style="position:relative;flex:1 1 420px;max-width:620px">
                <div class="map-zoom" role="group" aria-label="Zoom" style="display:flex;flex-wrap:wrap;gap:0.3rem;margin-bottom:0.3rem">
                    <button class="secondary" data-testid="zoom-in" aria-label=tr("Acercar", "Zoom in")
                        on:click=move |_| { let vb = view_box.get_untracked(); zoom_by(0.6, vb.0 + vb.2 / 2.0, vb.1 + vb.3 / 2.0) }>"+"</button>
                    <button class="secondary" data-testid="zoom-out" aria-label=tr("Alejar", "Zoom out")
                        on:click=move |_| { let vb = view_box.get_untracked(); zoom_by(1.0 / 0.6, vb.0 + vb.2 / 2.0, vb.1 + vb.3 / 2.0) }>"−"</button>
                    <button class="secondary" data-testid="zoom-reset" on:click=move |_| view_box.set(full)>{tr("Todo el país", "Whole country")}</button>
                    <label for="map-region">{tr("Ir a región", "Zoom to region")}</label>
                    <select id="map-region" data-testid="region-select" on:change=move |ev| {
                        let code = event_target_value(&ev);
                        match regions.iter().find(|r| r.code == code) {
                            Some(r) => view_box.set(fit_aspect(r.rect.x, r.rect.y, r.rect.width, r.rect.height, page_w, page_h)),
                            None => view_box.set(full),
                        }
                    }>
                        <option value="">{tr("(todas)", "(all)")}</option>
                        {regions_for_select.into_iter().map(|r| view! { <option value=r.code.clone()>{format!("{} {}", r.code, r.name)}</option> }).collect_view()}
                    </select>
                </div>
                <svg node_ref=svg_ref data-testid="choropleth" xmlns="http://www.w3.org/2000/svg"
                    viewBox=move || { let vb = view_box.get(); format!("{} {} {} {}", vb.0, vb.1, vb.2, vb.3) }
                    role="group" aria-label=move || result.with(|r| r.as_ref().map(|r| format!("{} {}", r.text.title, r.year)).unwrap_or_default())
                    style="width:100%;height:auto;display:block;border:1px solid #c9d1da;touch-action:none;cursor:grab;background:#fff"
                    font-family="Helvetica, Arial, sans-serif"
                    on:wheel=move |ev: leptos::ev::WheelEvent| {
                        ev.prevent_default();
                        if let Some((x, y)) = to_map(ev.client_x() as f64, ev.client_y() as f64) {
                            zoom_by(if ev.delta_y() < 0.0 { 0.8 } else { 1.25 }, x, y);
                        }
                    }
                    on:pointerdown=pointer_down
                    on:pointermove=pointer_move
                    on:pointerup=pointer_up
                    on:pointercancel=pointer_end
                    on:pointerleave=pointer_end>
                    <defs><pattern id="no-data" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">
                        <rect width="5" height="5" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="5" stroke="#8c8c8c" stroke-width="1.6"/>
                    </pattern></defs>
                    {panels}
                    <path data-testid="map-selected" fill="none" stroke="#000000" stroke-width="1.6" pointer-events="none"
                        d=move || selected.get().and_then(|a| outline_paths.get(a).cloned()).unwrap_or_default()/>
                </svg>
                {move || hover.get().map(|(area, x, y)| view! {
                    <Tooltip geo=geo_tooltip.clone() result=result area=area x=x y=y/>
                })}
            </div>
            <Legend colouring=colouring result=result/>
        </div>
    }
}

/// The tooltip of one commune: name, the value shown, the raw rate with its 95% interval, births
/// and deaths.
#[component]
fn Tooltip(
    geo: Shared<Geometry>,
    result: Memo<Option<Shared<MapResult>>>,
    area: usize,
    x: f64,
    y: f64,
) -> impl IntoView {
    let lang = lang();
    let name = geo.layout.names[area].clone();
    let code = geo.layout.codes[area].clone();
    let body = move || {
        let r = result.get()?;
        let births = r.data.births[area];
        let deaths = r.data.deaths[area];
        let (rate, low, high) = match (deaths, births) {
            (Some(d), Some(b)) => rate_with_interval(d, b),
            _ => (None, None, None),
        };
        let shown = r.values.get(area).copied().flatten();
        let measure_line = match &r.measure {
            Measure::Rate(Smoothing::None) => None,
            Measure::Rate(_) => Some(format!(
                "{}: {} ‰",
                lang.get().pick("Suavizada", "Smoothed"),
                shown
                    .map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2))
                    .unwrap_or_else(|| "—".into())
            )),
            Measure::ExcessRisk => Some(format!(
                "{}: {}",
                lang.get()
                    .pick("Riesgo en exceso (O/E)", "Excess risk (O/E)"),
                shown
                    .map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2))
                    .unwrap_or_else(|| "—".into())
            )),
            Measure::Column(c) => Some(format!(
                "{c}: {}",
                shown
                    .map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2))
                    .unwrap_or_else(|| lang.get().pick("sin datos", "no data").into())
            )),
        };
        let rate_line = match (rate, low, high) {
            (Some(r), Some(l), Some(h)) => format!(
                "{}: {} ‰ ({} {}–{})",
                lang.get().pick("Tasa", "Rate"),
                crate::i18n::format_number(lang.get_untracked(), r, 2),
                lang.get().pick("IC 95%", "95% CI"),
                crate::i18n::format_number(lang.get_untracked(), l, 2),
                crate::i18n::format_number(lang.get_untracked(), h, 2)
            ),
            _ => lang.get().pick("Tasa: sin datos", "Rate: no data").into(),
        };
        let count = |v: Option<f64>| {
            v.map(|v| {
                crate::i18n::format_number(lang.get(), v, if v.fract() == 0.0 { 0 } else { 2 })
            })
            .unwrap_or_else(|| "—".into())
        };
        Some(view! {
            <div data-field="year">{format!("{}", r.year)}</div>
            <div data-field="rate">{rate_line}</div>
            {measure_line.map(|l| view! { <div data-field="shown">{l}</div> })}
            <div data-field="births">{format!("{}: {}", lang.get().pick("Nacimientos", "Births"), count(births))}</div>
            <div data-field="deaths">{format!("{}: {}", lang.get().pick("Defunciones < 1 año", "Infant deaths"), count(deaths))}</div>
        })
    };
    view! {
        <div data-testid="map-tooltip" role="tooltip"
            style=format!("position:absolute;left:{}px;top:{}px;transform:translate(12px,-50%);background:#fff;border:1px solid #4a5562;border-radius:4px;padding:0.4rem 0.6rem;font-size:0.85rem;pointer-events:none;box-shadow:0 2px 6px rgba(0,0,0,0.2);z-index:5;min-width:14rem", x, y)>
            <strong data-field="name">{format!("{name} ({code})")}</strong>
            {body}
        </div>
    }
}

/// The legend: class limits and counts (highest first), then the hatched no-data entry.
#[component]
fn Legend(
    colouring: Memo<Option<Shared<Colouring>>>,
    result: Memo<Option<Shared<MapResult>>>,
) -> impl IntoView {
    move || {
        let c = colouring.get()?;
        let r = result.get()?;
        let rows = c
            .legend
            .iter()
            .enumerate()
            .rev()
            .map(|(k, e)| {
                view! {
                    <li data-legend-class=k.to_string() style="display:flex;align-items:center;gap:0.5rem;margin:0.2rem 0">
                        <span aria-hidden="true" style=format!("display:inline-block;width:24px;height:16px;border:1px solid #777;background:{}", e.fill)></span>
                        <span>{e.label.clone()}" "<span class="note">{format!("({})", e.count)}</span></span>
                    </li>
                }
            })
            .collect_view();
        Some(view! {
            <div data-testid="map-legend" style="flex:0 1 18rem">
                <p style="margin:0 0 0.2rem"><strong data-testid="map-title">{r.text.title.clone()}</strong>" "<strong data-testid="map-year-label" style="font-size:1.4rem">{r.year}</strong></p>
                <p class="note" style="margin:0 0 0.4rem">{r.text.subtitle.clone()}</p>
                <p style="margin:0.2rem 0;font-weight:600">{r.text.legend_title.clone()}</p>
                <ul style="list-style:none;padding:0;margin:0">
                    {rows}
                    <li data-legend-class="none" style="display:flex;align-items:center;gap:0.5rem;margin:0.2rem 0">
                        <span aria-hidden="true" style="display:inline-block;width:24px;height:16px;border:1px solid #777;background:repeating-linear-gradient(45deg,#fff 0 2px,#8c8c8c 2px 3.5px)"></span>
                        <span>{tr("Sin datos ", "No data ")}<span class="note">{format!("({})", c.no_data)}</span></span>
                    </li>
                </ul>
                <p class="note">{c.method_note.clone()}</p>
                {(!c.flagged_note.is_empty()).then(|| view! { <p class="note" data-testid="map-flagged-note">{c.flagged_note.clone()}</p> })}
                <p class="note">{tr("Haga clic, toque o pulse Intro sobre una comuna para ver sus datos y seleccionarla (también en el gráfico de embudo y la tabla). Rueda, botones o dos dedos: zoom; arrastre: desplazar.", "Click, tap or press Enter on a commune to see its figures and select it (also in the funnel plot and the table); wheel, buttons or two fingers to zoom, drag to pan.")}</p>
            </div>
        })
    }
}

/// The file name of a download: what, year, measure.
fn file_stem(r: &MapResult) -> String {
    let what = match &r.measure {
        Measure::Rate(Smoothing::None) => "tmi".to_string(),
        Measure::Rate(Smoothing::GlobalEb) => "tmi_eb".to_string(),
        Measure::Rate(Smoothing::SpatialEb) => "tmi_eb_espacial".to_string(),
        Measure::ExcessRisk => "riesgo_exceso".to_string(),
        Measure::Column(c) => c
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect(),
    };
    format!("mapa_{what}_{}", r.year)
}

/// Downloads (SVG as `imr map`, PNG, CSV) and the command that writes the same SVG.
#[component]
fn Downloads(
    geometry: RwSignal<Result<Shared<Geometry>, String>>,
    result: Memo<Option<Shared<MapResult>>>,
    colouring: Memo<Option<Shared<Colouring>>>,
    lisa_on: RwSignal<bool>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let include_flagged = expect_context::<FlagState>().include;
    let page_lang = lang();
    let svg_text = move || -> Option<(String, String)> {
        let geo = geometry.get_untracked().ok()?;
        let r = result.get_untracked()?;
        let c = colouring.get_untracked()?;
        let mut stem = file_stem(&r);
        if lisa_on.get_untracked() {
            stem.push_str("_lisa");
        }
        Some((stem, choropleth_svg(&geo.layout, &c, &r.text)))
    };
    let download_svg = move |_| {
        if let Some((stem, svg)) = svg_text() {
            download_text(&format!("{stem}.svg"), "image/svg+xml", &svg);
        }
    };
    let download_png = move |_| {
        if let Some((stem, svg)) = svg_text() {
            let geo = geometry.get_untracked().ok();
            let (w, h) = geo
                .map(|g| (g.layout.width, g.layout.height))
                .unwrap_or((640.0, 1200.0));
            spawn_local(async move {
                if let Err(e) = svg_to_png(&svg, w, h, &format!("{stem}.png")).await {
                    leptos::logging::error!("PNG: {e:?}");
                }
            });
        }
    };
    let download_csv = move |_| {
        let (Some(geo), Some(r)) = (geometry.get_untracked().ok(), result.get_untracked()) else {
            return;
        };
        let csv = map_csv(
            &geo.layer,
            &geo.weights,
            &r.year.to_string(),
            &r.data,
            &r.values,
            &r.classification,
        );
        download_csv(&state, &format!("{}.csv", file_stem(&r)), &csv);
    };
    let command = move || -> Option<String> {
        let r = result.get()?;
        let geo = geometry.get().ok()?;
        let files = state.files.get();
        let roles = state.roles.get();
        let mut cmd = String::from("imr map");
        for f in &files {
            cmd.push(' ');
            cmd.push_str(&shell_word(&f.name));
        }
        // Column choices of the first file, as flags.
        if let (Some(table), Some(roles)) = (
            files.first().and_then(|f| f.table.as_ref().ok()),
            roles.first(),
        ) {
            for (flag, idx) in [
                ("--entity", roles.entity),
                ("--time", roles.time),
                ("--births", roles.births),
                ("--deaths", roles.deaths),
                ("--rate", roles.rate),
            ] {
                if let Some(name) = idx.and_then(|i| table.columns.get(i)) {
                    cmd.push_str(&format!(" {flag} {}", shell_word(name)));
                }
            }
        }
        cmd.push_str(&format!(" --year {}", r.year));
        match &r.measure {
            Measure::Rate(Smoothing::None) => {}
            Measure::Rate(Smoothing::GlobalEb) => cmd.push_str(" --smooth eb"),
            Measure::Rate(Smoothing::SpatialEb) => cmd.push_str(" --smooth spatial-eb"),
            Measure::ExcessRisk => cmd.push_str(" --smooth excess-risk"),
            Measure::Column(c) => cmd.push_str(&format!(" --value {}", shell_word(c))),
        }
        if let Some(file) = &geo.file {
            cmd.push_str(&format!(" --geometry {}", shell_word(file)));
            // The properties matched, where they are not `imr map`'s defaults.
            if geo.code_property != "codigo_comuna" {
                cmd.push_str(&format!(
                    " --code-property {}",
                    shell_word(&geo.code_property)
                ));
            }
            let name = geo.name_property.as_deref().unwrap_or("");
            if name != "nombre_comuna" {
                cmd.push_str(&format!(" --name-property {}", shell_word(name)));
            }
        }
        let scheme = match &r.classification.method {
            Method::Quantile { classes } => format!("quantile --classes {classes}"),
            Method::EqualInterval { classes } => format!("equal --classes {classes}"),
            Method::NaturalBreaks { classes } => format!("jenks --classes {classes}"),
            Method::BoxMap { .. } => "box".into(),
            Method::StdDev => "stddev".into(),
            Method::Custom { breaks } => format!(
                "custom --breaks {}",
                breaks
                    .iter()
                    .map(|b| format_value(*b))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            _ => "quantile".into(),
        };
        cmd.push_str(&format!(" --scheme {scheme}"));
        // The SVG's texts are in the page's language; `imr map` writes English unless told.
        if page_lang.get() == Lang::Es {
            cmd.push_str(" --lang es");
        }
        if include_flagged.get() {
            cmd.push_str(" --include-flagged");
        }
        let lisa = if lisa_on.get() { " --lisa" } else { "" };
        let svg_stem = format!(
            "{}{}",
            file_stem(&r),
            if lisa_on.get() { "_lisa" } else { "" }
        );
        cmd.push_str(&format!(
            " --moran {PERMUTATIONS} --seed {SEED}{lisa} --out {svg_stem}.svg --csv {}.csv",
            file_stem(&r)
        ));
        Some(cmd)
    };
    view! {
        <div class="downloads" style="display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;margin:0.6rem 0">
            <button class="secondary" data-testid="download-svg" on:click=download_svg>{tr("Descargar SVG", "Download SVG")}</button>
            <button class="secondary" data-testid="download-png" on:click=download_png>{tr("Descargar PNG", "Download PNG")}</button>
            <button class="secondary" data-testid="download-csv" on:click=download_csv>{tr("Descargar CSV", "Download CSV")}</button>
        </div>
        {move || command().map(|c| view! {
            <p class="note">{tr("El mismo SVG con la línea de comandos: ", "The same SVG from the command line: ")}
                <code data-testid="map-command">{c}</code>
            </p>
        })}
    }
}

/// Quotes a word for a POSIX shell: the one quoting rule of every command shown
/// ([`imr_core::escape::shell_quote`], round-trip tested).
fn shell_word(word: &str) -> String {
    imr_core::escape::shell_quote(word)
}

/// Draws an SVG document into a canvas (twice its size) through an `Image` of a `blob:` URL, and
/// downloads the canvas as PNG. No request leaves the page.
async fn svg_to_png(
    svg: &str,
    width: f64,
    height: f64,
    file_name: &str,
) -> Result<(), wasm_bindgen::JsValue> {
    use wasm_bindgen::JsValue;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let parts = js_sys::Array::of1(&JsValue::from_str(svg));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let image = web_sys::HtmlImageElement::new()?;
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        image.set_onload(Some(&resolve));
        image.set_onerror(Some(&reject));
    });
    image.set_src(&url);
    let waited = wasm_bindgen_futures::JsFuture::from(loaded).await;
    let _ = web_sys::Url::revoke_object_url(&url);
    waited?;
    let scale = 2.0;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
    canvas.set_width((width * scale) as u32);
    canvas.set_height((height * scale) as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d context"))?
        .dyn_into()?;
    context.draw_image_with_html_image_element_and_dw_and_dh(
        &image,
        0.0,
        0.0,
        width * scale,
        height * scale,
    )?;
    // The PNG goes through a Blob and the one download path (a data: URL of a large map is a
    // multi-MB string in the page's memory, and it would bypass the object-URL lifetime rule).
    let encoded = js_sys::Promise::new(&mut |resolve, reject| {
        if canvas.to_blob_with_type(&resolve, "image/png").is_err() {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("canvas.toBlob failed"));
        }
    });
    let blob: web_sys::Blob = wasm_bindgen_futures::JsFuture::from(encoded)
        .await?
        .dyn_into()?;
    crate::components::download::download_blob(file_name, &blob);
    Ok(())
}

/// How the map is calculated: the rate, the smoothings, the classes, what flagged rows do, the
/// funnel plot's limits and Moran's I, behind the views' shared disclosure (closed by default).
#[component]
fn MapMethods() -> impl IntoView {
    let lang = lang();
    view! {
        <HowCalculated testid="map-method">
            <p data-method="rate">{tr(
                "Tasa de mortalidad infantil: defunciones de menores de 1 año por 1.000 nacidos vivos de la comuna en el año (1000 · O / P). Su intervalo al 95% (en la ficha de la comuna y en la tabla) es el exacto de Poisson (Garwood). En los datos incluidos las defunciones se derivan de la tasa publicada y de la población de 0 años del INE, por lo que esos intervalos son aproximados.",
                "Infant mortality rate: deaths under 1 year per 1,000 live births of the commune in the year (1000 · O / P). Its 95% interval (in the commune's tooltip and the table) is the exact Poisson (Garwood) interval. On the bundled data deaths are derived from the published rate and INE's population aged 0, so those intervals are approximate.",
            )}</p>
            <p data-method="smoothing">{tr(
                "Suavizado. Bayes empírico global: cada comuna se acerca a la tasa agrupada de todas, tanto más cuantos menos nacimientos tiene (estimador de momentos de Marshall 1991, como en GeoDa: θ = ΣO / ΣP, w = σ² / (σ² + θ / P), tasa suavizada = w · r + (1 − w) · θ). Bayes empírico espacial: lo mismo hacia la tasa agrupada de la comuna y sus vecinas (las que comparten un borde). Riesgo en exceso: defunciones observadas / esperadas con la tasa agrupada del año (1 = lo esperado).",
                "Smoothing. Global empirical Bayes: each commune is pulled towards the pooled rate of all, the more so the fewer births it has (Marshall's 1991 moment estimator, as in GeoDa: θ = ΣO / ΣP, w = σ² / (σ² + θ / P), smoothed rate = w · r + (1 − w) · θ). Spatial empirical Bayes: the same towards the pooled rate of the commune and its neighbours (those sharing a border). Excess risk: observed / expected deaths at the year's pooled rate (1 = as expected).",
            )}</p>
            <p data-method="classes">{tr(
                "Clases, con las definiciones de GeoDa: cuantiles (percentiles de Hazen, tipo 5; cortes repetidos se funden, por lo que puede haber menos clases), intervalos iguales, cortes naturales de Jenks (el óptimo exacto de Fisher 1958), mapa de caja (cuartiles y vallas a 1,5 × RIC), desviaciones estándar (media ± 1 y 2 DE) o cortes propios. Un valor igual a un corte pertenece a la clase superior.",
                "Classes, with GeoDa's definitions: quantiles (Hazen percentiles, type 5; repeated breaks merge, so there may be fewer classes), equal intervals, Jenks natural breaks (Fisher's 1958 exact optimum), box map (quartiles and fences at 1.5 × IQR), standard deviations (mean ± 1 and 2 SD) or your own breaks. A value equal to a break belongs to the class above.",
            )}</p>
            <p data-method="flagged">{tr(
                "Filas inverosímiles (tasa sobre 200 por 1.000, defunciones derivadas de al menos la mitad de los nacimientos, o tasa publicada con menos de 10 nacimientos) quedan fuera del cálculo de los cortes: se dibujan igual, con borde oscuro, en la clase en que cae su valor (la clase extrema queda entonces abierta), y la leyenda dice cuántas son. La casilla «Incluir las … filas marcadas como inverosímiles» las devuelve a los cortes; la opción viaja en el enlace (include-flagged) y el comando imr map la repite con --include-flagged.",
                "Implausible rows (rate above 200 per 1,000, derived deaths at least half the births, or a published rate on fewer than 10 births) are left out of the class breaks: they are still drawn, outlined, in the class their value falls in (the outer class is then open), and the legend says how many. The checkbox “Include the … rows flagged as implausible” puts them back into the breaks; the choice travels in the link (include-flagged) and the imr map command repeats it with --include-flagged.",
            )}</p>
            <p data-method="funnel">{tr(
                "Gráfico de embudo: la tasa bruta de cada comuna contra sus nacimientos, con límites de control al 95% y al 99,8% alrededor de la tasa agrupada del año: los límites exactos de Poisson (Garwood) de las defunciones esperadas con esos nacimientos, pasados a tasa (Spiegelhalter 2005). Una comuna fuera de los límites del 99,8% se aleja de la tasa del año más de lo que el azar explica con sus nacimientos.",
                "Funnel plot: each commune's raw rate against its births, with 95% and 99.8% control limits around the year's pooled rate: the exact Poisson (Garwood) limits of the deaths expected at those births, as rates (Spiegelhalter 2005). A commune outside the 99.8% limits differs from the year's rate by more than chance explains at its number of births.",
            )}</p>
            <p data-method="moran">{move || match lang.get() {
                Lang::Es => format!("I de Moran y clusters LISA (Anselin 1995): vecinas = comunas que comparten un borde, pesos estandarizados por fila; valores p por {PERMUTATIONS} permutaciones con semilla {SEED}, como en GeoDa."),
                Lang::En => format!("Moran's I and LISA clusters (Anselin 1995): neighbours = communes sharing a border, row-standardised weights; p-values from {PERMUTATIONS} permutations with seed {SEED}, as in GeoDa."),
            }}</p>
        </HowCalculated>
    }
}

/// Moran's I of the mapped values with its permutation p-value, and the LISA option's status.
#[component]
fn MoranPanel(
    moran: Memo<Option<Result<Moran, String>>>,
    show: RwSignal<bool>,
    lisa: Memo<Option<Result<Shared<Colouring>, String>>>,
) -> impl IntoView {
    let lang = lang();
    view! {
        <section aria-labelledby="moran-h">
            <h3 id="moran-h">{tr("Autocorrelación espacial", "Spatial autocorrelation")}</h3>
            <input id="map-moran" type="checkbox" prop:checked=move || show.get() on:change=move |ev| show.set(event_target_checked(&ev))/>
            <label for="map-moran">{move || match lang.get() { Lang::Es => format!("Calcular la I de Moran ({PERMUTATIONS} permutaciones, semilla {SEED})"), Lang::En => format!("Compute Moran's I ({PERMUTATIONS} permutations, seed {SEED})") }}</label>
            {move || moran.get().map(|m| match m {
                Ok(m) => view! {
                    <p data-testid="moran">
                        {tr("I de Moran = ", "Moran's I = ")}<strong data-field="moran-i">{crate::i18n::format_number(lang.get_untracked(), m.i, 4)}</strong>
                        {format!(" (E[I] = {}, z = {}, ", crate::i18n::format_number(lang.get_untracked(), m.expected, 4), crate::i18n::format_number(lang.get_untracked(), m.z, 2))}
                        "p = "<strong data-field="moran-p">{format!("{:.4}", m.p_value)}</strong>
                        {match lang.get() { Lang::Es => format!(", {} permutaciones, {} comunas con dato). Vecinos: comunas que comparten un borde.", m.permutations, m.n), Lang::En => format!(", {} permutations, {} communes with data). Neighbours: communes sharing a border.", m.permutations, m.n) }}
                    </p>
                }.into_any(),
                Err(e) => view! { <p class="warn" data-testid="moran">{format!("{}: {e}", lang.get().pick("I de Moran no disponible", "Moran's I not available"))}</p> }.into_any(),
            })}
            {move || lisa.get().and_then(|l| l.err()).map(|e| view! { <p class="warn">{e}</p> })}
            {move || lisa.get().and_then(|l| l.ok()).map(|_| view! {
                <p class="note">{match lang.get() { Lang::Es => format!("Clusters LISA (Moran local, {PERMUTATIONS} permutaciones, p ≤ {LISA_ALPHA}) en el mapa."), Lang::En => format!("LISA clusters (local Moran, {PERMUTATIONS} permutations, p ≤ {LISA_ALPHA}) on the map.") }}</p>
            })}
        </section>
    }
}

/// The funnel plot of the year, linked to the map through the selection.
#[component]
fn FunnelPanel(
    geometry: RwSignal<Result<Shared<Geometry>, String>>,
    result: Signal<Option<Shared<MapResult>>>,
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    let lang = lang();
    let svg = Memo::new(move |_| -> Option<Result<String, String>> {
        let r = result.get()?;
        let geo = geometry.get().ok()?;
        Some(
            funnel(&r.data.deaths, &r.data.births, 60)
                .map(|f| {
                    funnel_svg(
                        &f,
                        &geo.layout.codes,
                        &geo.layout.names,
                        &FunnelText {
                            title: lang
                                .get()
                                .pick(
                                    "Mortalidad infantil según nacidos vivos",
                                    "Infant mortality against births",
                                )
                                .into(),
                            year: r.year.to_string(),
                            source: r.text.source.clone(),
                            lang: lang.get().engine(),
                            metadata: r.text.metadata.clone(),
                        },
                    )
                })
                .map_err(|e| e.to_string()),
        )
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let code = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("[data-code]").ok().flatten())
            .and_then(|e| e.get_attribute("data-code"));
        if let (Some(code), Ok(geo)) = (code, geometry.get_untracked()) {
            selected.set(geo.layer.index_of(&code));
        }
    };
    // The selected commune stands out in the plot (a style rule, so it survives re-rendering).
    let highlight = move || {
        let code = selected
            .get()
            .and_then(|a| geometry.with(|g| g.as_ref().ok().map(|g| g.layout.codes[a].clone())))?;
        Some(format!(
            "[data-testid=\"funnel-box\"] circle[data-code=\"{code}\"] {{ r: 7px; stroke: #000000; stroke-width: 2px; }}"
        ))
    };
    let download = move |_| {
        if let (Some(Some(Ok(svg))), Some(r)) = (Some(svg.get_untracked()), result.get_untracked())
        {
            download_text(&format!("embudo_{}.svg", r.year), "image/svg+xml", &svg);
        }
    };
    view! {
        <section aria-labelledby="funnel-h">
            <h3 id="funnel-h">{tr("Gráfico de embudo", "Funnel plot")}</h3>
            <p class="note">{tr("Haga clic en un punto para ubicar la comuna en el mapa.", "Click a point to find the commune on the map.")}</p>
            <style>{highlight}</style>
            {move || svg.get().map(|s| match s {
                Ok(s) => view! { <div data-testid="funnel-box" class="chart" style="max-width:640px;cursor:pointer" on:click=on_click inner_html=s></div> }.into_any(),
                Err(e) => view! { <p class="warn">{format!("{}: {e}", lang.get().pick("Embudo no disponible", "Funnel plot not available"))}</p> }.into_any(),
            })}
            <button class="secondary" on:click=download>{tr("Descargar embudo SVG", "Download funnel SVG")}</button>
            {move || selected.get().and_then(|a| {
                let r = result.get()?;
                let geo = geometry.get().ok()?;
                let name = geo.layout.names.get(a)?.clone();
                let code = geo.layout.codes.get(a)?.clone();
                let v = r.values.get(a).copied().flatten();
                Some(view! {
                    <p data-testid="map-selection">{format!("{}: {name} ({code}) — {}", lang.get().pick("Seleccionada", "Selected"), v.map(|v| crate::i18n::format_number(lang.get_untracked(), v, 2)).unwrap_or_else(|| lang.get_untracked().pick("sin datos", "no data").into()))}
                        " "<button class="secondary" on:click=move |_| selected.set(None)>{tr("Quitar", "Clear")}</button></p>
                })
            })}
        </section>
    }
}

/// The accessible alternative to the map: every commune with raw and smoothed rates.
#[component]
fn DataTable(
    geometry: RwSignal<Result<Shared<Geometry>, String>>,
    result: Signal<Option<Shared<MapResult>>>,
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    let lang = lang();
    let open = RwSignal::new(false);
    let body = move || {
        if !open.get() {
            return None;
        }
        let r = result.get()?;
        let geo = geometry.get().ok()?;
        let n = geo.layer.areas.len();
        let (d, b) = (&r.data.deaths, &r.data.births);
        let raw = raw_rates(d, b).unwrap_or_else(|_| vec![None; n]);
        let eb = global_eb(d, b)
            .map(|g| g.rates)
            .unwrap_or_else(|_| vec![None; n]);
        let seb = spatial_eb(d, b, &geo.weights).unwrap_or_else(|_| vec![None; n]);
        let er = excess_risk(d, b)
            .map(|e| e.ratio)
            .unwrap_or_else(|_| vec![None; n]);
        let f = |v: Option<f64>, dec: usize| {
            v.map(|v| format_number(v, dec))
                .unwrap_or_else(|| "—".into())
        };
        let rows = (0..n)
            .map(|a| {
                let (rate, low, high) = match (d[a], b[a]) {
                    (Some(dd), Some(bb)) => rate_with_interval(dd, bb),
                    _ => (None, None, None),
                };
                let class = r.classification.class_of.get(a).copied().flatten();
                view! {
                    <tr data-code=geo.layout.codes[a].clone() aria-selected=move || (selected.get() == Some(a)).to_string()
                        style=move || if selected.get() == Some(a) { "background:#fff3c4" } else { "" }
                        on:click=move |_| selected.set(Some(a))>
                        <td class="text">{geo.layout.codes[a].clone()}</td>
                        <td class="text">{geo.layout.names[a].clone()}</td>
                        <td>{f(b[a], 0)}</td>
                        <td>{f(d[a], 2)}</td>
                        <td data-field="raw">{f(raw[a].or(rate), 2)}</td>
                        <td>{format!("{}–{}", f(low, 2), f(high, 2))}</td>
                        <td data-field="eb">{f(eb[a], 2)}</td>
                        <td data-field="seb">{f(seb[a], 2)}</td>
                        <td data-field="er">{f(er[a], 2)}</td>
                        <td data-field="value">{f(r.values.get(a).copied().flatten(), 2)}</td>
                        <td data-field="class">{class.map(|k| k.to_string()).unwrap_or_else(|| "sin datos".into())}</td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <div class="scroll">
                <table data-testid="map-table">
                    <caption class="note">{format!("{} — {}", r.text.title, r.year)}</caption>
                    <thead><tr>
                        <th class="text">"Código"</th><th class="text">"Comuna"</th><th>"Nacimientos"</th><th>"Defunciones"</th>
                        <th>{tr("Tasa bruta ‰", "Raw rate ‰")}</th><th>"IC95%"</th><th>{tr("BE global ‰", "Global EB ‰")}</th><th>{tr("BE espacial ‰", "Spatial EB ‰")}</th>
                        <th>"O/E"</th><th>{tr("Valor mapeado", "Mapped")}</th><th>{tr("Clase", "Class")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        })
    };
    view! {
        <section aria-labelledby="map-table-h">
            <h3 id="map-table-h">{tr("Tabla del mapa", "Map as a table")}</h3>
            <button class="secondary" data-testid="map-table-toggle" aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|o| *o = !*o)>
                {move || if open.get() { lang.get().pick("Ocultar tabla", "Hide table") } else { lang.get().pick("Mostrar tabla (tasas brutas y suavizadas)", "Show table (raw and smoothed rates)") }}
            </button>
            {body}
        </section>
    }
}

/// The user's own boundaries (GeoJSON or TopoJSON in WGS84), matched by a chosen property, with
/// the codes left unmatched on either side.
#[component]
fn GeometryInput(
    geometry: RwSignal<Result<Shared<Geometry>, String>>,
    result: Memo<Option<Shared<MapResult>>>,
) -> impl IntoView {
    let lang = lang();
    let code_property = RwSignal::new("codigo_comuna".to_string());
    let name_property = RwSignal::new("nombre_comuna".to_string());
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|l| l.item(0))
        else {
            return;
        };
        let name = file.name();
        spawn_local(async move {
            let gloo = gloo_file::File::from(file);
            let built = match gloo_file::futures::read_as_text(&gloo).await {
                Ok(text) => {
                    let keys = PropertyKeys {
                        code: code_property.get_untracked(),
                        name: Some(name_property.get_untracked()).filter(|n| !n.is_empty()),
                        ..PropertyKeys::default()
                    };
                    Geometry::build(&text, &keys, Some(name.clone()))
                        .map(|g| Shared(Arc::new(g)))
                        .map_err(|e| format!("{name}: {e}"))
                }
                Err(e) => Err(format!("{name}: {e}")),
            };
            geometry.set(built);
        });
    };
    let unmatched = move || {
        let r = result.get()?;
        let m = &r.data.matching;
        Some(view! {
            <div data-testid="unmatched">
                <p>{format!("{} ({}): {}", lang.get().pick("Códigos de datos sin límite", "Data codes without a boundary"), m.unmatched_data.len(), if m.unmatched_data.is_empty() { "—".into() } else { m.unmatched_data_listed(lang.get().engine()).join(", ") })}</p>
                <p>{format!("{} ({}): {}", lang.get().pick("Límites sin datos del año", "Boundaries without data for the year"), m.unmatched_geometry.len(), if m.unmatched_geometry.is_empty() { "—".into() } else { m.unmatched_geometry.join(", ") })}</p>
            </div>
        })
    };
    view! {
        <section aria-labelledby="geo-h">
            <h3 id="geo-h">{tr("Límites", "Boundaries")}</h3>
            <p class="note">{move || match geometry.get() {
                Ok(g) => format!("{}: {} — {} {}.", lang.get().pick("En uso", "In use"), g.file.clone().unwrap_or_else(|| format!("comunas.topojson ({BUNDLED_CREDIT})")), g.layer.areas.len(), lang.get().pick("áreas", "areas")),
                Err(e) => e,
            }}</p>
            <span>
                <label for="geo-code">{tr("Propiedad con el código", "Code property")}</label>
                <input id="geo-code" type="text" data-testid="geometry-code-property" prop:value=move || code_property.get() on:change=move |ev| code_property.set(event_target_value(&ev))/>
            </span>
            <span>
                <label for="geo-name">{tr("Propiedad con el nombre", "Name property")}</label>
                <input id="geo-name" type="text" prop:value=move || name_property.get() on:change=move |ev| name_property.set(event_target_value(&ev))/>
            </span>
            <span>
                <label for="geo-file">{tr("GeoJSON o TopoJSON propio (lon/lat WGS84): ", "Your own GeoJSON or TopoJSON (WGS84 lon/lat): ")}</label>
                <input id="geo-file" type="file" accept=".json,.geojson,.topojson,application/json" data-testid="geometry-input" on:change=on_file/>
            </span>
            <button class="secondary" on:click=move |_| geometry.set(bundled_geometry())>{tr("Usar límites incluidos", "Use the bundled boundaries")}</button>
            {unmatched}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fingers twice as far apart halve the view box; the map point that was under their
    /// midpoint stays under it, wherever the midpoint moved.
    #[test]
    fn a_pinch_scales_the_view_box_about_the_fingers() {
        let (page_w, page_h) = (640.0, 1200.0);
        let start = Pinch {
            distance: 50.0,
            view_box: (0.0, 0.0, page_w, page_h),
            anchor: (320.0, 300.0),
        };
        let (x, y, w, h) = pinched(&start, 100.0, 0.5, 0.25, page_w, page_h);
        assert_eq!((w, h), (320.0, 600.0));
        assert_eq!((x + 0.5 * w, y + 0.25 * h), start.anchor);
        // Moved midpoint: the anchor follows it (two-finger pan).
        let (x, y, w, h) = pinched(&start, 100.0, 0.2, 0.6, page_w, page_h);
        assert_eq!((x + 0.2 * w, y + 0.6 * h), start.anchor);
        // Fingers closer together zoom out, but never beyond the whole page, nor in past 40×.
        assert_eq!(pinched(&start, 10.0, 0.5, 0.5, page_w, page_h).2, page_w);
        assert_eq!(
            pinched(&start, 1e6, 0.5, 0.5, page_w, page_h).2,
            page_w / 40.0
        );
    }
}
