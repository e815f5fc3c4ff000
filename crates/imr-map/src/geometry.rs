//! Boundaries: decoding TopoJSON and GeoJSON into areas keyed by a code, and matching them to data.
//!
//! Coordinates are WGS84 (or SIRGAS 2000, which differs by under a metre) longitude/latitude in
//! degrees, as the GeoJSON specification (RFC 7946 §4) requires. TopoJSON is decoded with the
//! `topojson` crate (georust), which also applies the quantisation transform; the arc indexes of
//! each geometry are kept so that [`crate::weights`] can find neighbours from shared arcs.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as JsonValue;

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
        "feature {index} (`{code}`): a coordinate is not a finite longitude/latitude in degrees"
    )]
    BadCoordinate { index: usize, code: String },
    #[error("the boundary file has no polygon features")]
    Empty,
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
    /// Features that were not used, with the reason (e.g. a point or a line, or an empty geometry).
    pub skipped: Vec<String>,
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

impl GeoLayer {
    /// Decodes TopoJSON or GeoJSON text, whichever it is.
    ///
    /// For a topology, `object` names the object to read; `None` takes the only object, or
    /// `comunas` when there are several and one has that name.
    pub fn from_str(
        text: &str,
        object: Option<&str>,
        keys: &PropertyKeys,
    ) -> Result<Self, GeometryError> {
        let value: JsonValue =
            serde_json::from_str(text).map_err(|e| GeometryError::NotJson(e.to_string()))?;
        match value.get("type").and_then(JsonValue::as_str) {
            Some("Topology") => Self::from_topojson_value(value, object, keys),
            _ => Self::from_geojson_value(value, keys),
        }
    }

    /// Decodes a TopoJSON topology (arc indexes are kept for neighbours).
    pub fn from_topojson_value(
        value: JsonValue,
        object: Option<&str>,
        keys: &PropertyKeys,
    ) -> Result<Self, GeometryError> {
        let JsonValue::Object(map) = value else {
            return Err(GeometryError::NotGeo("expected a JSON object".into()));
        };
        let topology = topojson::Topology::from_json_object(map)
            .map_err(|e| GeometryError::NotGeo(e.to_string()))?;
        let names = topology.list_names();
        let available = names.join(", ");
        let name = match object {
            Some(wanted) if names.iter().any(|n| n == wanted) => wanted.to_string(),
            Some(wanted) => {
                return Err(GeometryError::UnknownObject {
                    wanted: wanted.into(),
                    available,
                })
            }
            None if names.len() == 1 => names[0].clone(),
            None if names.iter().any(|n| n == "comunas") => "comunas".into(),
            None if names.is_empty() => return Err(GeometryError::Empty),
            None => return Err(GeometryError::AmbiguousObject { available }),
        };
        let named = topology
            .objects
            .iter()
            .find(|o| o.name == name)
            .ok_or(GeometryError::Empty)?;
        // Arc sets in the same order as the features `to_geojson` returns (one per geometry).
        let geometries: Vec<&topojson::Geometry> = match &named.geometry.value {
            topojson::Value::GeometryCollection(children) => {
                if children
                    .iter()
                    .any(|g| matches!(g.value, topojson::Value::GeometryCollection(_)))
                {
                    // topojson 0.5 panics (`unimplemented!`) on this; refuse it here instead.
                    return Err(GeometryError::NestedCollection(name));
                }
                children.iter().collect()
            }
            _ => vec![&named.geometry],
        };
        let arc_sets: Vec<BTreeSet<usize>> = geometries.iter().map(|g| arcs_of(&g.value)).collect();
        let collection = topojson::to_geojson(&topology, &name)
            .map_err(|e| GeometryError::NotGeo(e.to_string()))?;
        let mut layer = Self::from_features(collection.features, keys)?;
        // `from_features` skips non-areal features; keep the arc sets of the kept ones only.
        let kept = layer.kept_indexes.take().unwrap_or_default();
        layer.layer.arcs_by_area = Some(kept.into_iter().map(|i| arc_sets[i].clone()).collect());
        Ok(layer.layer)
    }

    /// Decodes a GeoJSON FeatureCollection, Feature or bare geometry collection of features.
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
        Ok(Self::from_features(features, keys)?.layer)
    }

    fn from_features(
        features: Vec<geojson::Feature>,
        keys: &PropertyKeys,
    ) -> Result<Decoded, GeometryError> {
        let mut areas = Vec::with_capacity(features.len());
        let mut kept = Vec::with_capacity(features.len());
        let mut skipped = Vec::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (index, feature) in features.into_iter().enumerate() {
            let code = feature
                .property(&keys.code)
                .and_then(code_string)
                .ok_or_else(|| GeometryError::MissingCode {
                    index,
                    property: keys.code.clone(),
                })?;
            let text = |key: &Option<String>| {
                key.as_ref()
                    .and_then(|k| feature.property(k))
                    .and_then(code_string)
            };
            let name = text(&keys.name).unwrap_or_else(|| code.clone());
            let region_code = text(&keys.region).or_else(|| region_from_code(&code));
            let region_name = text(&keys.region_name);
            let polygons = match feature.geometry.as_ref().map(|g| &g.value) {
                Some(geojson::Value::Polygon(p)) => vec![polygon_from(p)],
                Some(geojson::Value::MultiPolygon(ps)) => {
                    ps.iter().map(|p| polygon_from(p)).collect()
                }
                Some(other) => {
                    let kind = match other {
                        geojson::Value::Point(_) | geojson::Value::MultiPoint(_) => "point",
                        geojson::Value::LineString(_) | geojson::Value::MultiLineString(_) => {
                            "line"
                        }
                        _ => "geometry collection",
                    };
                    skipped.push(format!(
                        "feature {index} (`{code}`): a {kind} is not an area"
                    ));
                    continue;
                }
                None => {
                    skipped.push(format!("feature {index} (`{code}`): no geometry"));
                    continue;
                }
            };
            let polygons: Vec<Polygon> = polygons
                .into_iter()
                .filter(|p| p.first().is_some_and(|r| r.len() >= 3))
                .collect();
            if polygons.is_empty() {
                skipped.push(format!("feature {index} (`{code}`): empty geometry"));
                continue;
            }
            let finite = polygons.iter().flatten().flatten().all(|p| {
                p[0].is_finite() && p[1].is_finite() && p[0].abs() <= 360.0 && p[1].abs() <= 90.0
            });
            if !finite {
                return Err(GeometryError::BadCoordinate { index, code });
            }
            if let Some(&first) = seen.get(&code) {
                return Err(GeometryError::DuplicateCode {
                    code,
                    first,
                    second: index,
                });
            }
            seen.insert(code.clone(), index);
            kept.push(index);
            areas.push(Area {
                code,
                name,
                region_code,
                region_name,
                polygons,
            });
        }
        if areas.is_empty() {
            return Err(GeometryError::Empty);
        }
        Ok(Decoded {
            layer: GeoLayer {
                areas,
                arcs_by_area: None,
                skipped,
            },
            kept_indexes: Some(kept),
        })
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
        let mut unmatched_data = Vec::new();
        for code in entity_codes {
            let found = by_key.get(&code_key(code.as_ref())).copied();
            match found {
                Some(i) => used[i] = true,
                None => unmatched_data.push(code.as_ref().to_string()),
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
            unmatched_geometry,
        }
    }
}

struct Decoded {
    layer: GeoLayer,
    kept_indexes: Option<Vec<usize>>,
}

/// Result of matching data codes to boundary codes; both sides' leftovers are listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeMatch {
    /// For each entity code given, the index of its area, if any.
    pub area_of_entity: Vec<Option<usize>>,
    /// Entity codes with no area (in the order given).
    pub unmatched_data: Vec<String>,
    /// Area codes with no entity (in file order).
    pub unmatched_geometry: Vec<String>,
}

/// The key two codes are compared by: trimmed, and for all-digit codes without leading zeros, so
/// that `"1101"` (a number in a spreadsheet) matches `"01101"` (CUT, zero-padded).
pub fn code_key(code: &str) -> String {
    let t = code.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        let s = t.trim_start_matches('0');
        if s.is_empty() {
            "0".into()
        } else {
            s.into()
        }
    } else {
        t.to_string()
    }
}

/// A property value as a code string: strings as they are, integers without a decimal point.
fn code_string(v: &JsonValue) -> Option<String> {
    match v {
        JsonValue::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        JsonValue::Number(n) => Some(
            n.as_i64()
                .map(|i| i.to_string())
                .unwrap_or_else(|| n.to_string()),
        ),
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
                // topojson joins arcs without dropping the shared end point: remove repeats.
                if out.last() != Some(&q) {
                    out.push(q);
                }
            }
            out
        })
        .collect()
}

fn arcs_of(value: &topojson::Value) -> BTreeSet<usize> {
    let index = |i: &i32| if *i < 0 { (!*i) as usize } else { *i as usize };
    match value {
        topojson::Value::LineString(a) => a.iter().map(index).collect(),
        topojson::Value::MultiLineString(a) | topojson::Value::Polygon(a) => {
            a.iter().flatten().map(index).collect()
        }
        topojson::Value::MultiPolygon(a) => a.iter().flatten().flatten().map(index).collect(),
        _ => BTreeSet::new(),
    }
}

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
}
