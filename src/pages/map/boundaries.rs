//! The boundaries in use, and the reader's own (GeoJSON or TopoJSON in WGS84).

use super::error::{BoundaryError, BoundaryWhy};
use super::Drawn;
use crate::assets;
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::{AppState, Shared};
use imr_core::map::code_match::{best_code_property, CodeMatch};
use imr_core::map::geometry::PropertyKeys;
use imr_core::map::year_map::BUNDLED_CREDIT;
use imr_core::request::PreparedBoundaries;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::{Arc, OnceLock};
use wasm_bindgen::JsCast;

/// Boundaries decoded, projected and weighted once ([`PreparedBoundaries`], as `imr map` prepares
/// them), with what the page says of them.
pub struct Geometry {
    pub prepared: PreparedBoundaries,
    /// How the boundaries are credited on the map: the bundled credit or the file name.
    pub credit: String,
    /// The file name, or `None` for the bundled boundaries.
    pub file: Option<String>,
    /// The properties matched (for the equivalent `imr map` command).
    pub code_property: String,
    pub name_property: Option<String>,
}

impl Geometry {
    pub(super) fn build(
        text: &str,
        keys: &PropertyKeys,
        file: Option<String>,
    ) -> Result<Self, BoundaryError> {
        let prepared =
            PreparedBoundaries::prepare(text, None, keys).map_err(|problem| BoundaryError {
                file: file.clone(),
                why: BoundaryWhy::Engine(problem),
            })?;
        Ok(Geometry {
            credit: file.clone().unwrap_or_else(|| BUNDLED_CREDIT.to_string()),
            file,
            code_property: keys.code.clone(),
            name_property: keys.name.clone(),
            prepared,
        })
    }
}

/// The reader's boundaries with the code property typed; when that property is missing on a
/// feature or matches none of the data's codes (`data_codes`), with the property that matches
/// the most of them ([`best_code_property`]), returned as chosen so that the page says so and
/// the shown `imr map` command names it. Without data codes, the typed property only.
fn build_matching(
    text: &str,
    keys: PropertyKeys,
    file: &str,
    data_codes: &[&str],
) -> (Result<Geometry, BoundaryError>, Option<CodeMatch>) {
    let typed = Geometry::build(text, &keys, Some(file.to_owned()));
    // As the map matches the data to the areas (GeoLayer::match_codes).
    let matches = |g: &Geometry| {
        g.prepared
            .layer
            .match_codes(data_codes)
            .area_of_entity
            .iter()
            .any(Option::is_some)
    };
    if data_codes.is_empty() || typed.as_ref().is_ok_and(matches) {
        return (typed, None);
    }
    match best_code_property(text, None, data_codes) {
        Some(best) if best.property != keys.code => {
            let keys = PropertyKeys {
                code: best.property.clone(),
                ..keys
            };
            match Geometry::build(text, &keys, Some(file.to_owned())) {
                Ok(g) => (Ok(g), Some(best)),
                Err(_) => (typed, None),
            }
        }
        _ => (typed, None),
    }
}

/// The bundled geometry (345 communes, chilemapas: the page's own file
/// `data/comunas.topojson`, src/assets.rs) once its file has been read: built on
/// first use and kept for the life of the page (switching tabs does not rebuild it). Before
/// that, [`BoundaryWhy::Loading`]: [`load_bundled_geometry`] reads it.
pub(super) fn bundled_geometry() -> Result<Shared<Geometry>, BoundaryError> {
    static BUNDLED: OnceLock<Result<Arc<Geometry>, BoundaryError>> = OnceLock::new();
    let loading = BoundaryError {
        file: None,
        why: BoundaryWhy::Loading,
    };
    let Some(bytes) = assets::cached(assets::BUNDLED_BOUNDARIES) else {
        return Err(loading);
    };
    BUNDLED
        .get_or_init(|| {
            let text = std::str::from_utf8(&bytes).map_err(|e| BoundaryError {
                file: None,
                why: BoundaryWhy::Unreadable(e.to_string()),
            })?;
            Geometry::build(text, &PropertyKeys::default(), None).map(Arc::new)
        })
        .clone()
        .map(Shared)
}

/// Shows the bundled geometry in `geometry`: at once when its file has been read, else once it
/// arrives — unless the reader has chosen their own boundaries meanwhile. A file the browser
/// cannot read is its error.
pub(super) fn load_bundled_geometry(geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>) {
    geometry.set(bundled_geometry());
    if assets::cached(assets::BUNDLED_BOUNDARIES).is_some() {
        return;
    }
    spawn_local(async move {
        let read = assets::load(assets::BUNDLED_BOUNDARIES).await;
        let waiting = geometry.with_untracked(|g| g.as_ref().is_err_and(BoundaryError::is_loading));
        if !waiting {
            return;
        }
        geometry.set(match read {
            Ok(_) => bundled_geometry(),
            Err(detail) => Err(BoundaryError {
                file: None,
                why: BoundaryWhy::Unreadable(detail),
            }),
        });
    });
}

/// The user's own boundaries (GeoJSON or TopoJSON in WGS84), matched by a chosen property, with
/// the codes left unmatched on either side.
#[component]
pub(super) fn GeometryInput(
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    result: Memo<Option<Shared<Drawn>>>,
) -> impl IntoView {
    let lang = lang();
    let state = expect_context::<AppState>();
    let code_property = RwSignal::new("codigo_comuna".to_string());
    // The property the page chose when the typed one matched nothing, and how it matched.
    let chosen = RwSignal::new(None::<CodeMatch>);
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
                    let panel = state.panel.get_untracked().and_then(|p| p.ok());
                    let codes = panel.as_ref().map(|p| p.entities()).unwrap_or_default();
                    let (built, picked) = build_matching(&text, keys, &name, &codes);
                    if let Some(best) = &picked {
                        code_property.set(best.property.clone());
                    }
                    chosen.set(picked);
                    built.map(|g| Shared(Arc::new(g)))
                }
                Err(e) => Err(BoundaryError {
                    file: Some(name.clone()),
                    why: BoundaryWhy::Unreadable(e.to_string()),
                }),
            };
            geometry.set(built);
        });
    };
    let unmatched = move || {
        let r = result.get()?;
        let m = &r.slice.data.matching;
        Some(view! {
            <div data-testid="unmatched">
                <p data-testid="codes-matched">
                    {(messages(lang.get())
                        .map
                        .codes_matched)(
                        &m.area_of_entity.iter().filter(|a| a.is_some()).count().to_string(),
                        &m.area_of_entity.len().to_string(),
                    )}
                </p>
                <p>
                    {format!(
                        "{} ({}): {}",
                        messages(lang.get()).map.data_codes_without_boundary,
                        m.unmatched_data.len(),
                        if m.unmatched_data.is_empty() {
                            "—".into()
                        } else {
                            m.unmatched_data_listed(lang.get()).join(", ")
                        },
                    )}
                </p>
                <p>
                    {format!(
                        "{} ({}): {}",
                        messages(lang.get()).map.boundaries_without_data_year,
                        m.unmatched_geometry.len(),
                        if m.unmatched_geometry.is_empty() {
                            "—".into()
                        } else {
                            m.unmatched_geometry.join(", ")
                        },
                    )}
                </p>
            </div>
        })
    };
    view! {
        <section aria-labelledby="geo-h">
            <h3 id="geo-h">{msg(|m| m.map.boundaries)}</h3>
            <p class="note" data-testid="geometry-status">
                {move || match geometry.get() {
                    Ok(g) => {
                        format!(
                            "{}: {} — {} {}.",
                            messages(lang.get()).map.in_use,
                            g
                                .file
                                .clone()
                                .unwrap_or_else(|| format!("comunas.topojson ({BUNDLED_CREDIT})")),
                            g.prepared.layer.areas.len(),
                            messages(lang.get()).map.areas,
                        )
                    }
                    Err(e) => e.text(lang.get()),
                }}
            </p>
            {move || {
                chosen
                    .get()
                    .map(|c| {
                        view! {
                            <p class="note" data-testid="geometry-code-chosen">
                                {(messages(lang.get())
                                    .map
                                    .code_property_chosen)(
                                    &c.property,
                                    &c.matched.to_string(),
                                    &c.data_codes.to_string(),
                                )}
                            </p>
                        }
                    })
            }}
            <span>
                <label for="geo-code">{msg(|m| m.map.code_property)}</label>
                <input
                    id="geo-code"
                    type="text"
                    data-testid="geometry-code-property"
                    prop:value=move || code_property.get()
                    on:change=move |ev| code_property.set(event_target_value(&ev))
                />
            </span>
            <span>
                <label for="geo-name">{msg(|m| m.map.name_property)}</label>
                <input
                    id="geo-name"
                    type="text"
                    prop:value=move || name_property.get()
                    on:change=move |ev| name_property.set(event_target_value(&ev))
                />
            </span>
            <span>
                <label for="geo-file">{msg(|m| m.map.boundaries_file_label)}</label>
                <input
                    id="geo-file"
                    type="file"
                    accept=".json,.geojson,.topojson,application/json"
                    data-testid="geometry-input"
                    on:change=on_file
                />
            </span>
            <button
                class="secondary"
                on:click=move |_| {
                    chosen.set(None);
                    load_bundled_geometry(geometry)
                }
            >
                {msg(|m| m.map.use_bundled_boundaries)}
            </button>
            {unmatched}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The esda grid's GeoJSON: 22 areas whose text code (r0c0 … island) is in `code`.
    const GRID: &str = include_str!("../../../crates/imr-map/tests/data/esda/grid.geojson");

    #[test]
    fn a_typed_property_that_matches_nothing_gives_way_to_the_one_that_matches() {
        let typed = PropertyKeys::default(); // codigo_comuna: not in the grid
        let (built, chosen) = build_matching(
            GRID,
            typed.clone(),
            "grid.geojson",
            &["r0c0", "r0c1", "elsewhere"],
        );
        let chosen = chosen.expect("a property was chosen");
        assert_eq!(
            (chosen.property.as_str(), chosen.matched, chosen.data_codes),
            ("code", 2, 3)
        );
        let geometry = built.expect("built with the chosen property");
        assert_eq!(geometry.code_property, "code");
        assert_eq!(geometry.prepared.layer.areas.len(), 22);
        // The typed property kept when it matches; no data codes, no choice.
        let code = PropertyKeys {
            code: "code".into(),
            ..typed.clone()
        };
        assert!(build_matching(GRID, code, "grid.geojson", &["r0c0"])
            .1
            .is_none());
        let (unmatched, none) = build_matching(GRID, typed.clone(), "grid.geojson", &[]);
        assert!(unmatched.is_err() && none.is_none());
        // Nothing matches anywhere: the typed property's own error stays.
        let (still, none) = build_matching(GRID, typed, "grid.geojson", &["13101"]);
        assert!(still.is_err() && none.is_none());
    }
}
