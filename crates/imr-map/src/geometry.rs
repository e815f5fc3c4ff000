//! Boundaries: decoding TopoJSON and GeoJSON into areas keyed by a code, and matching them to data.
//!
//! Coordinates are WGS84 (or SIRGAS 2000, which differs by under a metre) longitude/latitude in
//! degrees, as the GeoJSON specification (RFC 7946 §4) requires. TopoJSON is decoded by
//! [`crate::topojson`] (validated: no input panics), which also applies the quantisation
//! transform; the arc indexes of each geometry are kept so that [`crate::weights`] can find
//! neighbours from shared arcs. GeoJSON is read with the `geojson` crate.
//!
//! # What is accepted
//! A feature becomes an area when it has the code property and a Polygon or MultiPolygon with
//! at least one exterior ring of three or more distinct positions, all finite with
//! |longitude| ≤ 360 and |latitude| ≤ 90. Points, lines, null geometries and empty polygons are
//! not areas: they are listed in [`GeoLayer::skipped`] with their code and reason. Codes must be
//! unique as [`code_key`] compares them (`01101` and `1101` are the same code).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as JsonValue;

use crate::topojson::{self, Shape, Topology, TopologyError};
use imr_stats::Lang;

/// A position `[longitude, latitude]` in degrees.
pub type LonLat = [f64; 2];
/// A closed ring of positions (the first position may or may not be repeated at the end).
pub type Ring = Vec<LonLat>;
/// A polygon: the exterior ring first, then holes.
pub type Polygon = Vec<Ring>;

/// Why a boundary file could not be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GeometryError {
    #[error("the boundary file is not JSON: {0}")]
    NotJson(String),
    #[error("the boundary file is neither a TopoJSON Topology nor GeoJSON: {0}")]
    NotGeo(String),
    #[error("the TopoJSON topology is invalid: {0}")]
    InvalidTopology(#[from] TopologyError),
    #[error("the topology has no object named `{wanted}`; it has: {available}")]
    UnknownObject { wanted: String, available: String },
    #[error("the topology has several objects ({available}); choose one")]
    AmbiguousObject { available: String },
    #[error("object `{0}` nests a GeometryCollection inside a GeometryCollection, which is not supported")]
    NestedCollection(String),
    #[error("feature {index}: no property `{property}` to use as the area code")]
    MissingCode { index: usize, property: String },
    #[error("the code `{code}` is used by features {first} and {second}; codes must be unique")]
    DuplicateCode {
        code: String,
        first: usize,
        second: usize,
    },
    #[error(
        "features {first} (`{first_code}`) and {second} (`{second_code}`) have the same code once \
         leading zeros are ignored (as data codes are matched); codes must be unique"
    )]
    EquivalentCodes {
        first: usize,
        first_code: String,
        second: usize,
        second_code: String,
    },
    #[error(
        "feature {index} (`{code}`): a coordinate is not a finite longitude/latitude in degrees"
    )]
    BadCoordinate { index: usize, code: String },
    #[error("the boundary file has no polygon features")]
    Empty,
    #[error(
        "none of the boundary file's {skipped} features is an area (polygons with a ring of 3 \
         points or more); the first: {first}"
    )]
    NoAreas { skipped: usize, first: String },
}

impl GeometryError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: Lang) -> String {
        use GeometryError::*;
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            NotJson(detail) => format!("el archivo de límites no es JSON: {detail}"),
            NotGeo(detail) => format!(
                "el archivo de límites no es una Topology de TopoJSON ni GeoJSON: {detail}"
            ),
            InvalidTopology(e) => {
                format!("la topología TopoJSON no es válida: {}", e.text(lang))
            }
            UnknownObject { wanted, available } => format!(
                "la topología no tiene un objeto llamado «{wanted}»; tiene: {available}"
            ),
            AmbiguousObject { available } => {
                format!("la topología tiene varios objetos ({available}); elija uno")
            }
            NestedCollection(object) => format!(
                "el objeto «{object}» anida una GeometryCollection dentro de otra, lo que no se admite"
            ),
            MissingCode { index, property } => format!(
                "elemento {index}: no hay propiedad «{property}» para usar como código del área"
            ),
            DuplicateCode {
                code,
                first,
                second,
            } => format!(
                "el código «{code}» lo usan los elementos {first} y {second}; los códigos deben ser únicos"
            ),
            EquivalentCodes {
                first,
                first_code,
                second,
                second_code,
            } => format!(
                "los elementos {first} («{first_code}») y {second} («{second_code}») tienen el mismo código si se ignoran los ceros a la izquierda (así se cruzan los códigos de los datos); los códigos deben ser únicos"
            ),
            BadCoordinate { index, code } => format!(
                "elemento {index} («{code}»): una coordenada no es una longitud/latitud finita en grados"
            ),
            Empty => "el archivo de límites no tiene polígonos".into(),
            NoAreas { skipped, first } => format!(
                "ninguno de los {skipped} elementos del archivo de límites es un área (polígonos con un anillo de 3 puntos o más); el primero: {first}"
            ),
        }
    }
}

/// Which feature properties hold the code, the name and the region of an area.
///
/// The default is the chilemapas layout bundled with the page (`codigo_comuna`, `nombre_comuna`,
/// `codigo_region`, `nombre_region`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyKeys {
    /// Property matched to the entity code of the data (required on every feature).
    pub code: String,
    /// Display name; the code is shown when absent.
    pub name: Option<String>,
    /// Region code, for "zoom to region" and the Santiago inset. When absent (or the property is
    /// missing), the region is the first two characters of a five-character code (Chile's CUT).
    pub region: Option<String>,
    /// Region display name.
    pub region_name: Option<String>,
}

impl Default for PropertyKeys {
    fn default() -> Self {
        PropertyKeys {
            code: "codigo_comuna".into(),
            name: Some("nombre_comuna".into()),
            region: Some("codigo_region".into()),
            region_name: Some("nombre_region".into()),
        }
    }
}

impl PropertyKeys {
    /// Keys with only a code property; names default to the code.
    pub fn code_only(code: &str) -> Self {
        PropertyKeys {
            code: code.into(),
            name: None,
            region: None,
            region_name: None,
        }
    }
}

/// One area (commune) with its polygons.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    pub code: String,
    pub name: String,
    pub region_code: Option<String>,
    pub region_name: Option<String>,
    pub polygons: Vec<Polygon>,
}

impl Area {
    /// `[min_lon, min_lat, max_lon, max_lat]` of all the area's polygons.
    pub fn bounds(&self) -> [f64; 4] {
        let mut b = EMPTY_BOUNDS;
        for polygon in &self.polygons {
            extend_bounds(&mut b, &polygon_bounds(polygon));
        }
        b
    }
}

/// The decoded layer: areas in file order, and, for a topology, the arcs each area uses.
#[derive(Debug, Clone, PartialEq)]
pub struct GeoLayer {
    pub areas: Vec<Area>,
    /// For a TopoJSON input, the (non-negative) arc indexes each area's rings use; `None` for GeoJSON.
    pub arcs_by_area: Option<Vec<BTreeSet<usize>>>,
    /// Features that were not used, with the reason (e.g. a point or a line, or an empty
    /// geometry), in file order.
    pub skipped: Vec<SkippedFeature>,
    /// The feature properties' names, in order of first appearance (to say what the file
    /// has when its codes match none of the data's).
    pub properties: Vec<String>,
}

/// A feature of the boundary file that is not drawn, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedFeature {
    /// Position of the feature in its collection (from 0).
    pub index: usize,
    /// Its code, as written (the code property is required of every feature).
    pub code: String,
    pub reason: SkipReason,
}

impl std::fmt::Display for SkippedFeature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "feature {} (`{}`): {}",
            self.index,
            self.code,
            self.reason.text(Lang::En)
        )
    }
}

/// Why a feature is not an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkipReason {
    /// A point, a line or a geometry collection (the kind, in English).
    NotAnArea(&'static str),
    /// A null geometry.
    NoGeometry,
    /// Polygons without an exterior ring of three distinct positions.
    EmptyGeometry,
}

impl SkipReason {
    /// The reason in a language, e.g. "empty geometry" / "geometría vacía".
    pub fn text(self, lang: Lang) -> String {
        match self {
            SkipReason::NotAnArea(kind) => {
                let es = match kind {
                    "point" => "un punto",
                    "line" => "una línea",
                    _ => "una colección de geometrías",
                };
                match lang {
                    Lang::En => format!("a {kind} is not an area"),
                    Lang::Es => format!("{es} no es un área"),
                }
            }
            SkipReason::NoGeometry => lang.pick("sin geometría", "no geometry").into(),
            SkipReason::EmptyGeometry => lang.pick("geometría vacía", "empty geometry").into(),
        }
    }
}

pub(crate) const EMPTY_BOUNDS: [f64; 4] = [
    f64::INFINITY,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NEG_INFINITY,
];

pub(crate) fn extend_bounds(b: &mut [f64; 4], other: &[f64; 4]) {
    b[0] = b[0].min(other[0]);
    b[1] = b[1].min(other[1]);
    b[2] = b[2].max(other[2]);
    b[3] = b[3].max(other[3]);
}

pub(crate) fn polygon_bounds(polygon: &Polygon) -> [f64; 4] {
    let mut b = EMPTY_BOUNDS;
    // The exterior ring bounds the polygon; holes lie inside it.
    if let Some(exterior) = polygon.first() {
        for p in exterior {
            extend_bounds(&mut b, &[p[0], p[1], p[0], p[1]]);
        }
    }
    b
}

/// The object of a topology that is read, among the topology's object `names`: `object` when
/// given (an error listing the names when there is none of that name), else the only object,
/// else `comunas` (the bundled boundaries' object); several others are ambiguous.
pub(crate) fn topology_object<'a>(
    names: impl Iterator<Item = &'a str> + Clone,
    object: Option<&'a str>,
) -> Result<&'a str, GeometryError> {
    let available = || names.clone().collect::<Vec<_>>().join(", ");
    let mut all = names.clone();
    match object {
        Some(wanted) if all.any(|n| n == wanted) => Ok(wanted),
        Some(wanted) => Err(GeometryError::UnknownObject {
            wanted: wanted.into(),
            available: available(),
        }),
        None => {
            let mut only = names.clone();
            match (only.next(), only.next()) {
                (Some(one), None) => Ok(one),
                (None, _) => Err(GeometryError::Empty),
                _ => names.clone().find(|n| *n == "comunas").ok_or_else(|| {
                    GeometryError::AmbiguousObject {
                        available: available(),
                    }
                }),
            }
        }
    }
}

impl GeoLayer {
    /// Decodes TopoJSON or GeoJSON text, whichever it is.
    ///
    /// For a topology, `object` names the object to read; `None` takes the only object, or
    /// `comunas` when there are several and one has that name. No input panics: every arc index,
    /// position and transform is validated ([`crate::topojson`]), and a feature that is not an
    /// area is listed in [`GeoLayer::skipped`] with its reason.
    pub fn from_str(
        text: &str,
        object: Option<&str>,
        keys: &PropertyKeys,
    ) -> Result<Self, GeometryError> {
        /// Only the top-level `type`, to choose the decoder (other members are skipped unread).
        #[derive(serde::Deserialize)]
        struct Kind {
            #[serde(rename = "type")]
            kind: Option<String>,
        }
        let is_topology =
            serde_json::from_str::<Kind>(text).is_ok_and(|k| k.kind.as_deref() == Some("Topology"));
        if is_topology {
            // Parsed from the text (not a `Value`) so that type errors carry line and column.
            let topology = Topology::parse(text)?;
            return Self::from_topology(&topology, object, keys);
        }
        let value: JsonValue =
            serde_json::from_str(text).map_err(|e| GeometryError::NotJson(e.to_string()))?;
        Self::from_geojson_value(value, keys)
    }

    /// The areas of one object of a decoded topology.
    pub fn from_topology(
        topology: &Topology,
        object: Option<&str>,
        keys: &PropertyKeys,
    ) -> Result<Self, GeometryError> {
        let name = topology_object(topology.objects.keys().map(String::as_str), object)?;
        let Some(named) = topology.objects.get(name) else {
            return Err(GeometryError::Empty);
        };
        let geometries: Vec<&topojson::Geometry> = match &named.shape {
            Shape::Collection(children) => {
                if children
                    .iter()
                    .any(|g| matches!(g.shape, Shape::Collection(_)))
                {
                    return Err(GeometryError::NestedCollection(name.to_string()));
                }
                children.iter().collect()
            }
            _ => vec![named],
        };
        let features = geometries.into_iter().map(|g| {
            let polygons = g.polygons();
            let shape = match &g.shape {
                Shape::Null => FeatureShape::NoGeometry,
                Shape::Points(_) => FeatureShape::NotArea("point"),
                Shape::Lines(_) => FeatureShape::NotArea("line"),
                Shape::Collection(_) => FeatureShape::NotArea("geometry collection"),
                Shape::Polygon(_) | Shape::MultiPolygon(_) => FeatureShape::Areas(
                    polygons
                        .iter()
                        .map(|rings| rings.iter().map(|ring| topology.path(ring)).collect())
                        .collect(),
                ),
            };
            let arcs: BTreeSet<usize> = polygons
                .iter()
                .flat_map(|rings| rings.iter())
                .flatten()
                .map(|r| r.arc)
                .collect();
            RawFeature {
                properties: Some(&g.properties),
                shape,
                arcs: Some(arcs),
            }
        });
        Self::from_features(features, keys)
    }

    /// Decodes a GeoJSON FeatureCollection, Feature or bare geometry collection of features.
    ///
    /// The `geojson` crate (0.23) reads GeoJSON without panicking on input (its conversions
    /// return errors; positions of any length are accepted and checked here).
    pub fn from_geojson_value(
        value: JsonValue,
        keys: &PropertyKeys,
    ) -> Result<Self, GeometryError> {
        let geojson = geojson::GeoJson::from_json_value(value)
            .map_err(|e| GeometryError::NotGeo(e.to_string()))?;
        let features = match geojson {
            geojson::GeoJson::FeatureCollection(fc) => fc.features,
            geojson::GeoJson::Feature(f) => vec![f],
            geojson::GeoJson::Geometry(_) => {
                return Err(GeometryError::NotGeo(
                    "a bare geometry has no properties to carry an area code".into(),
                ))
            }
        };
        let features = features.iter().map(|feature| {
            let shape = match feature.geometry.as_ref().map(|g| &g.value) {
                Some(geojson::Value::Polygon(p)) => FeatureShape::Areas(vec![polygon_from(p)]),
                Some(geojson::Value::MultiPolygon(ps)) => {
                    FeatureShape::Areas(ps.iter().map(|p| polygon_from(p)).collect())
                }
                Some(geojson::Value::Point(_) | geojson::Value::MultiPoint(_)) => {
                    FeatureShape::NotArea("point")
                }
                Some(geojson::Value::LineString(_) | geojson::Value::MultiLineString(_)) => {
                    FeatureShape::NotArea("line")
                }
                Some(geojson::Value::GeometryCollection(_)) => {
                    FeatureShape::NotArea("geometry collection")
                }
                None => FeatureShape::NoGeometry,
            };
            RawFeature {
                properties: feature.properties.as_ref(),
                shape,
                arcs: None,
            }
        });
        Self::from_features(features, keys)
    }

    fn from_features<'a>(
        features: impl Iterator<Item = RawFeature<'a>>,
        keys: &PropertyKeys,
    ) -> Result<Self, GeometryError> {
        let mut areas = Vec::new();
        let mut arcs_by_area: Option<Vec<BTreeSet<usize>>> = None;
        let mut skipped = Vec::new();
        // Keyed by `code_key`, the key data codes are matched by: `01101` and `1101` are one area.
        let mut seen: BTreeMap<String, (usize, String)> = BTreeMap::new();
        let mut properties: Vec<String> = Vec::new();
        let mut property_seen: BTreeSet<String> = BTreeSet::new();
        for (index, feature) in features.enumerate() {
            for key in feature.properties.into_iter().flat_map(|p| p.keys()) {
                if !property_seen.contains(key) {
                    property_seen.insert(key.clone());
                    properties.push(key.clone());
                }
            }
            let property = |key: &str| feature.properties.and_then(|p| p.get(key));
            let code = property(&keys.code).and_then(code_string).ok_or_else(|| {
                GeometryError::MissingCode {
                    index,
                    property: keys.code.clone(),
                }
            })?;
            let text =
                |key: &Option<String>| key.as_ref().and_then(|k| property(k)).and_then(code_string);
            let name = text(&keys.name).unwrap_or_else(|| code.clone());
            let region_code = text(&keys.region).or_else(|| region_from_code(&code));
            let region_name = text(&keys.region_name);
            let reason = match feature.shape {
                FeatureShape::NotArea(kind) => Err(SkipReason::NotAnArea(kind)),
                FeatureShape::NoGeometry => Err(SkipReason::NoGeometry),
                FeatureShape::Areas(polygons) => {
                    let polygons: Vec<Polygon> = polygons
                        .into_iter()
                        .filter(|p| p.first().is_some_and(|r| r.len() >= 3))
                        .collect();
                    if polygons.is_empty() {
                        Err(SkipReason::EmptyGeometry)
                    } else {
                        Ok(polygons)
                    }
                }
            };
            let polygons = match reason {
                Ok(polygons) => polygons,
                Err(reason) => {
                    skipped.push(SkippedFeature {
                        index,
                        code,
                        reason,
                    });
                    continue;
                }
            };
            let finite = polygons.iter().flatten().flatten().all(|p| {
                p[0].is_finite() && p[1].is_finite() && p[0].abs() <= 360.0 && p[1].abs() <= 90.0
            });
            if !finite {
                return Err(GeometryError::BadCoordinate { index, code });
            }
            match seen.get(&code_key(&code)) {
                Some((first, first_code)) if *first_code == code => {
                    return Err(GeometryError::DuplicateCode {
                        code,
                        first: *first,
                        second: index,
                    })
                }
                Some((first, first_code)) => {
                    return Err(GeometryError::EquivalentCodes {
                        first: *first,
                        first_code: first_code.clone(),
                        second: index,
                        second_code: code,
                    })
                }
                None => {}
            }
            seen.insert(code_key(&code), (index, code.clone()));
            if let Some(arcs) = feature.arcs {
                arcs_by_area.get_or_insert_with(Vec::new).push(arcs);
            }
            areas.push(Area {
                code,
                name,
                region_code,
                region_name,
                polygons,
            });
        }
        // A skipped feature whose code is also an area's code is not "why that code has no
        // boundary": the area is drawn. Such a pair is still reported in `skipped`.
        if areas.is_empty() {
            return Err(match skipped.first() {
                Some(first) => GeometryError::NoAreas {
                    skipped: skipped.len(),
                    first: first.to_string(),
                },
                None => GeometryError::Empty,
            });
        }
        Ok(GeoLayer {
            areas,
            arcs_by_area,
            skipped,
            properties,
        })
    }

    /// Why a code has no area: the skipped feature with this code (compared as [`code_key`]),
    /// if the file had one. `None` when the code has an area or is not in the file at all.
    pub fn skipped_feature(&self, code: &str) -> Option<&SkippedFeature> {
        if self.index_of(code).is_some() {
            return None;
        }
        let key = code_key(code);
        self.skipped.iter().find(|s| code_key(&s.code) == key)
    }

    /// Index of the area with this code (compared as [`code_key`]).
    pub fn index_of(&self, code: &str) -> Option<usize> {
        let key = code_key(code);
        self.areas.iter().position(|a| code_key(&a.code) == key)
    }

    /// `[min_lon, min_lat, max_lon, max_lat]` of all areas.
    pub fn bounds(&self) -> [f64; 4] {
        let mut b = EMPTY_BOUNDS;
        for a in &self.areas {
            extend_bounds(&mut b, &a.bounds());
        }
        b
    }

    /// Matches the data's entity codes to the areas; see [`CodeMatch`].
    pub fn match_codes<S: AsRef<str>>(&self, entity_codes: &[S]) -> CodeMatch {
        let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
        for (i, a) in self.areas.iter().enumerate() {
            by_key.insert(code_key(&a.code), i);
        }
        let mut area_of_entity = Vec::with_capacity(entity_codes.len());
        let mut used = vec![false; self.areas.len()];
        let mut skipped_by_key: BTreeMap<String, SkipReason> = BTreeMap::new();
        for s in &self.skipped {
            skipped_by_key.entry(code_key(&s.code)).or_insert(s.reason);
        }
        let mut unmatched_data = Vec::new();
        let mut unmatched_data_reasons = Vec::new();
        for code in entity_codes {
            let key = code_key(code.as_ref());
            let found = by_key.get(&key).copied();
            match found {
                Some(i) => used[i] = true,
                None => {
                    unmatched_data.push(code.as_ref().to_string());
                    unmatched_data_reasons.push(skipped_by_key.get(&key).copied());
                }
            }
            area_of_entity.push(found);
        }
        let unmatched_geometry = self
            .areas
            .iter()
            .zip(&used)
            .filter(|(_, &u)| !u)
            .map(|(a, _)| a.code.clone())
            .collect();
        CodeMatch {
            area_of_entity,
            unmatched_data,
            unmatched_data_reasons,
            unmatched_geometry,
        }
    }
}

/// A feature before validation, from either decoder.
struct RawFeature<'a> {
    properties: Option<&'a serde_json::Map<String, JsonValue>>,
    shape: FeatureShape,
    /// For a topology, the arcs of the feature's polygons.
    arcs: Option<BTreeSet<usize>>,
}

enum FeatureShape {
    Areas(Vec<Polygon>),
    NotArea(&'static str),
    NoGeometry,
}

/// Result of matching data codes to boundary codes; both sides' leftovers are listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeMatch {
    /// For each entity code given, the index of its area, if any.
    pub area_of_entity: Vec<Option<usize>>,
    /// Entity codes with no area (in the order given).
    pub unmatched_data: Vec<String>,
    /// For each of `unmatched_data`, why the boundary file has no area for it when it has a
    /// feature with that code that was skipped (an empty geometry, a point…); `None` when the
    /// file has no feature with the code.
    pub unmatched_data_reasons: Vec<Option<SkipReason>>,
    /// Area codes with no entity (in file order).
    pub unmatched_geometry: Vec<String>,
}

impl CodeMatch {
    /// The unmatched data codes, each with the reason its feature was skipped when there is one:
    /// `13102 (empty geometry)`, or just `13102` when the file has no such feature.
    pub fn unmatched_data_listed(&self, lang: Lang) -> Vec<String> {
        self.unmatched_data
            .iter()
            .enumerate()
            .map(
                |(k, code)| match self.unmatched_data_reasons.get(k).copied().flatten() {
                    Some(reason) => format!("{code} ({})", reason.text(lang)),
                    None => code.clone(),
                },
            )
            .collect()
    }
}

/// The key two codes are compared by: trimmed, and for codes of digits (spaces inside dropped,
/// as imr-core's CUT normalisation does: `"01 101"`) without leading zeros, so that `"1101"` (a
/// number in a spreadsheet) matches `"01101"` (CUT, zero-padded).
pub fn code_key(code: &str) -> String {
    let t = code.trim();
    let digits: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let s = digits.trim_start_matches('0');
        if s.is_empty() {
            "0".into()
        } else {
            s.into()
        }
    } else {
        t.to_string()
    }
}

/// A property value as a code string: strings as they are, integers without a decimal point
/// (also when written `1101.0`, as some tools write numbers).
pub(crate) fn code_string(v: &JsonValue) -> Option<String> {
    /// Integers up to 2⁵³ are exact in f64.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match v {
        JsonValue::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        JsonValue::Number(n) => Some(match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (None, Some(u), _) => u.to_string(),
            (None, None, Some(f)) if f.fract() == 0.0 && f.abs() <= EXACT => {
                format!("{}", f as i64)
            }
            _ => n.to_string(),
        }),
        _ => None,
    }
}

/// Chile's CUT: the region is the first two digits of the five-digit commune code.
fn region_from_code(code: &str) -> Option<String> {
    (code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit())).then(|| code[..2].to_string())
}

fn polygon_from(rings: &[Vec<Vec<f64>>]) -> Polygon {
    rings
        .iter()
        .map(|ring| {
            let mut out: Ring = Vec::with_capacity(ring.len());
            for p in ring {
                let q = [
                    p.first().copied().unwrap_or(f64::NAN),
                    p.get(1).copied().unwrap_or(f64::NAN),
                ];
                // Consecutive repeated positions are kept once (as for a topology's arc joins).
                if out.last() != Some(&q) {
                    out.push(q);
                }
            }
            out
        })
        .collect()
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(GeometryError);

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARES: &str = r#"{"type":"Topology",
      "arcs":[[[1,0],[1,1]],[[1,1],[0,1],[0,0],[1,0]],[[1,0],[2,0],[2,1],[1,1]]],
      "objects":{"areas":{"type":"GeometryCollection","geometries":[
        {"type":"Polygon","arcs":[[0,1]],"properties":{"cut":"01101","nom":"West"}},
        {"type":"Polygon","arcs":[[2,-1]],"properties":{"cut":1102,"nom":"East"}},
        {"type":"Point","coordinates":[5,5],"properties":{"cut":"99999"}}]}}}"#;

    #[test]
    fn a_topology_decodes_to_areas_with_codes_names_and_arcs() {
        let keys = PropertyKeys {
            name: Some("nom".into()),
            ..PropertyKeys::code_only("cut")
        };
        let layer = GeoLayer::from_str(SQUARES, None, &keys).unwrap();
        assert_eq!(layer.areas.len(), 2);
        assert_eq!(layer.areas[0].code, "01101");
        assert_eq!(layer.areas[1].code, "1102");
        assert_eq!(layer.areas[1].name, "East");
        assert_eq!(layer.areas[0].region_code.as_deref(), Some("01"));
        assert_eq!(layer.areas[0].bounds(), [0.0, 0.0, 1.0, 1.0]);
        let arcs = layer.arcs_by_area.as_ref().unwrap();
        assert_eq!(arcs[1], BTreeSet::from([0, 2]));
        assert_eq!(layer.skipped.len(), 1, "{:?}", layer.skipped);
        // The ring has no repeated points where arcs join.
        let ring = &layer.areas[0].polygons[0][0];
        assert!(ring.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn matching_lists_unmatched_codes_on_both_sides_and_ignores_zero_padding() {
        let layer =
            GeoLayer::from_str(SQUARES, Some("areas"), &PropertyKeys::code_only("cut")).unwrap();
        let m = layer.match_codes(&["1101", "01102", "13101"]);
        assert_eq!(m.area_of_entity, vec![Some(0), Some(1), None]);
        assert_eq!(m.unmatched_data, vec!["13101".to_string()]);
        assert!(m.unmatched_geometry.is_empty());
        let m = layer.match_codes(&["01101"]);
        assert_eq!(m.unmatched_geometry, vec!["1102".to_string()]);
    }

    #[test]
    fn an_unknown_object_name_is_an_error_that_lists_the_available_ones() {
        let err = GeoLayer::from_str(SQUARES, Some("comunas"), &PropertyKeys::code_only("cut"))
            .unwrap_err();
        assert!(err.to_string().contains("areas"), "{err}");
    }

    #[test]
    fn a_missing_code_property_is_an_error_naming_the_feature() {
        let err = GeoLayer::from_str(SQUARES, None, &PropertyKeys::code_only("id")).unwrap_err();
        assert_eq!(
            err,
            GeometryError::MissingCode {
                index: 0,
                property: "id".into()
            }
        );
    }

    #[test]
    fn geojson_feature_collections_decode_without_arcs() {
        let text = r#"{"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"c":"A"},"geometry":{"type":"MultiPolygon",
           "coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]}}]}"#;
        let layer = GeoLayer::from_str(text, None, &PropertyKeys::code_only("c")).unwrap();
        assert_eq!(layer.areas[0].polygons.len(), 2);
        assert_eq!(layer.areas[0].bounds(), [0.0, 0.0, 6.0, 6.0]);
        assert!(layer.arcs_by_area.is_none());
        assert_eq!(layer.areas[0].region_code, None);
    }

    #[test]
    fn duplicate_codes_are_refused() {
        let text = r#"{"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"c":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
          {"type":"Feature","properties":{"c":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}]}"#;
        let err = GeoLayer::from_str(text, None, &PropertyKeys::code_only("c")).unwrap_err();
        assert!(matches!(err, GeometryError::DuplicateCode { .. }));
    }

    #[test]
    fn codes_equal_once_zero_padded_are_a_duplicate_naming_both_features() {
        let text = r#"{"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"c":"01101"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
          {"type":"Feature","properties":{"c":"02101"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
          {"type":"Feature","properties":{"c":1101},"geometry":{"type":"Polygon","coordinates":[[[2,0],[3,0],[3,1],[2,0]]]}}]}"#;
        let err = GeoLayer::from_str(text, None, &PropertyKeys::code_only("c")).unwrap_err();
        assert_eq!(
            err,
            GeometryError::EquivalentCodes {
                first: 0,
                first_code: "01101".into(),
                second: 2,
                second_code: "1101".into(),
            }
        );
        assert!(err.to_string().contains("`01101`") && err.to_string().contains("`1101`"));
        // Written as a float or with a space inside, the code is still the same commune.
        for second in ["1101.0", "\"01 101\""] {
            let text = format!(
                r#"{{"type":"FeatureCollection","features":[
                  {{"type":"Feature","properties":{{"c":"01101"}},"geometry":{{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}}},
                  {{"type":"Feature","properties":{{"c":{second}}},"geometry":{{"type":"Polygon","coordinates":[[[2,0],[3,0],[3,1],[2,0]]]}}}}]}}"#
            );
            let err = GeoLayer::from_str(&text, None, &PropertyKeys::code_only("c")).unwrap_err();
            assert!(
                matches!(err, GeometryError::EquivalentCodes { second: 1, .. }),
                "{second}: {err:?}"
            );
        }
        assert_eq!(code_key("01 101"), "1101");
        assert_eq!(code_key(" 000 "), "0");
        assert_eq!(code_key("A 1"), "A 1");
    }

    #[test]
    fn skipped_features_are_listed_with_code_and_reason_and_explain_unmatched_codes() {
        let text = r#"{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]],[[5,5],[6,6]]],
          "objects":{"a":{"type":"GeometryCollection","geometries":[
            {"type":"Polygon","arcs":[[0]],"properties":{"c":"01101"}},
            {"type":"Polygon","arcs":[],"properties":{"c":"01102"}},
            {"type":"Polygon","arcs":[[1]],"properties":{"c":"01103"}},
            {"type":null,"properties":{"c":"01104"}},
            {"type":"LineString","arcs":[1],"properties":{"c":"01105"}}]}}}"#;
        let layer = GeoLayer::from_str(text, None, &PropertyKeys::code_only("c")).unwrap();
        assert_eq!(layer.areas.len(), 1);
        let reasons: Vec<(usize, &str, SkipReason)> = layer
            .skipped
            .iter()
            .map(|s| (s.index, s.code.as_str(), s.reason))
            .collect();
        assert_eq!(
            reasons,
            vec![
                (1, "01102", SkipReason::EmptyGeometry),
                (2, "01103", SkipReason::EmptyGeometry),
                (3, "01104", SkipReason::NoGeometry),
                (4, "01105", SkipReason::NotAnArea("line")),
            ]
        );
        assert_eq!(
            layer.skipped[0].to_string(),
            "feature 1 (`01102`): empty geometry"
        );
        assert_eq!(
            layer.skipped_feature("1102").map(|s| s.reason),
            Some(SkipReason::EmptyGeometry)
        );
        assert_eq!(layer.skipped_feature("01101"), None);
        let m = layer.match_codes(&["1101", "1102", "13101", "01105"]);
        assert_eq!(m.unmatched_data, vec!["1102", "13101", "01105"]);
        assert_eq!(
            m.unmatched_data_listed(Lang::En),
            vec![
                "1102 (empty geometry)",
                "13101",
                "01105 (a line is not an area)"
            ]
        );
        assert_eq!(
            m.unmatched_data_listed(Lang::Es),
            vec![
                "1102 (geometría vacía)",
                "13101",
                "01105 (una línea no es un área)"
            ]
        );
    }

    /// The seven shapes that panicked inside the `topojson` 0.5 crate are errors of the layer,
    /// naming the object and geometry.
    #[test]
    fn the_topologies_that_panicked_the_old_decoder_are_errors() {
        let cases = [
            (
                r#"{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]]],"objects":{"a":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[5]],"properties":{"c":"1"}}]}}}"#,
                "object \"a\", geometry 0, ring 0, arc reference 0: arc index 5",
            ),
            (
                r#"{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]]],"objects":{"a":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[-9]],"properties":{"c":"1"}}]}}}"#,
                "arc index -9 (arc 8 reversed) does not exist",
            ),
            (
                r#"{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]]],"objects":{"a":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[-2147483648]],"properties":{"c":"1"}}]}}}"#,
                "arc index -2147483648",
            ),
            (
                r#"{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]]],"objects":{"a":{"type":"Polygon","arcs":[[3]],"properties":{"c":"1"}}}}"#,
                "object \"a\", ring 0, arc reference 0: arc index 3",
            ),
            (
                r#"{"type":"Topology","transform":{"scale":[1],"translate":[0,0]},"arcs":[[[0,0],[1,0],[0,1],[-1,-1]]],"objects":{"a":{"type":"Polygon","arcs":[[0]],"properties":{"c":"1"}}}}"#,
                "transform.scale: needs exactly 2 numbers",
            ),
            (
                r#"{"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},"arcs":[[[0],[1],[0]]],"objects":{"a":{"type":"Polygon","arcs":[[0]],"properties":{"c":"1"}}}}"#,
                "arc 0, position 0: a position needs at least 2 numbers",
            ),
            (
                r#"{"type":"Topology","arcs":[],"objects":{"a":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1],"properties":{"c":"1"}}]}}}"#,
                "object \"a\", geometry 0: a position needs at least 2 numbers",
            ),
        ];
        for (text, wanted) in cases {
            let err = GeoLayer::from_str(text, None, &PropertyKeys::code_only("c")).unwrap_err();
            assert!(matches!(err, GeometryError::InvalidTopology(_)), "{err:?}");
            assert!(err.to_string().contains(wanted), "{text}\n{err}");
        }
    }

    #[test]
    fn boundary_errors_are_worded_in_spanish_and_display_stays_english() {
        use crate::layout::LayoutError;
        use crate::weights::WeightsError;
        let english_words = [
            "the", "file", "has", "no", "features", "is", "not", "are", "lists",
        ];
        let texts = [
            (
                GeometryError::Empty.to_string(),
                GeometryError::Empty.text(Lang::Es),
            ),
            (
                GeometryError::MissingCode {
                    index: 3,
                    property: "cut".into(),
                }
                .to_string(),
                GeometryError::MissingCode {
                    index: 3,
                    property: "cut".into(),
                }
                .text(Lang::Es),
            ),
            (
                LayoutError::NothingToDraw.to_string(),
                LayoutError::NothingToDraw.text(Lang::Es),
            ),
            (
                WeightsError::SelfNeighbour(4).to_string(),
                WeightsError::SelfNeighbour(4).text(Lang::Es),
            ),
        ];
        assert_eq!(texts[0].0, "the boundary file has no polygon features");
        assert_eq!(texts[0].1, "el archivo de límites no tiene polígonos");
        for (en, es) in &texts {
            assert_ne!(en, es);
            for word in es.split(|c: char| !c.is_alphanumeric()) {
                // `no` is Spanish too.
                assert!(
                    word == "no" || !english_words.contains(&word),
                    "{word:?} in {es:?}"
                );
            }
        }
    }
}
