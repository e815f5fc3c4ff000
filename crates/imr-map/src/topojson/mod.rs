//! A validated TopoJSON decoder: every index, position and transform is checked, so that no
//! input can panic (the page is built with `panic = "abort"`).
//!
//! Hand-written rather than taken from the georust `topojson` crate (0.5), which indexes arcs
//! without bounds checks and panics on an arc index out of range, a negative index beyond the
//! arcs, `i32::MIN`, a one-element `transform.scale`, one-number positions under a transform, a
//! short Point and a nested GeometryCollection. The document is read with serde into typed
//! structs; the geometry-specific members (`arcs`, `coordinates`) are then checked by hand so
//! that an error names the object, the geometry and the ring.
//!
//! Reference: the TopoJSON format specification 1.0 (topojson/topojson-specification, §2):
//! a Topology has `objects` and `arcs`; with a `transform`, arc positions are quantized and
//! delta-encoded (x_k = Σ_{j ≤ k} dx_j · scale_x + translate_x) and Point/MultiPoint positions
//! are quantized but not delta-encoded; an arc index `i < 0` means arc `!i` (= −i − 1) reversed.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value as JsonValue;

/// A position `[longitude, latitude]` (or any planar `[x, y]`).
pub type Position = [f64; 2];

mod error;

pub use error::{Expected, JsonKind, PathKind, Place, Problem, Step, TopologyError};

/// One reference to an arc from a geometry: the arc's position in [`Topology::arcs`] and whether
/// it is walked backwards (written `~i`, i.e. `-i - 1`, in the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArcRef {
    pub arc: usize,
    pub reversed: bool,
}

impl ArcRef {
    /// Resolves a file's arc index against `arc_count` arcs; `None` when no such arc exists.
    /// `!i` is used rather than `-i - 1` so that `i64::MIN` cannot overflow.
    pub fn resolve(index: i64, arc_count: usize) -> Option<ArcRef> {
        let (arc, reversed) = if index < 0 {
            (!index, true)
        } else {
            (index, false)
        };
        let arc = usize::try_from(arc).ok()?;
        (arc < arc_count).then_some(ArcRef { arc, reversed })
    }
}

/// A ring or line as the arcs it follows.
pub type ArcPath = Vec<ArcRef>;

/// The shape of one geometry.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// `"type": null` (or no type): a feature without geometry.
    Null,
    /// Point or MultiPoint, decoded to positions.
    Points(Vec<Position>),
    /// LineString (one path) or MultiLineString.
    Lines(Vec<ArcPath>),
    /// Polygon: rings, the exterior first.
    Polygon(Vec<ArcPath>),
    /// MultiPolygon: polygons of rings.
    MultiPolygon(Vec<Vec<ArcPath>>),
    /// GeometryCollection.
    Collection(Vec<Geometry>),
}

impl Shape {
    /// The type name as written in TopoJSON (`Polygon`, `Point`…; `null`).
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Null => "null",
            Shape::Points(_) => "Point",
            Shape::Lines(_) => "LineString",
            Shape::Polygon(_) => "Polygon",
            Shape::MultiPolygon(_) => "MultiPolygon",
            Shape::Collection(_) => "GeometryCollection",
        }
    }
}

/// One geometry with its properties.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    pub shape: Shape,
    pub properties: serde_json::Map<String, JsonValue>,
    pub id: Option<JsonValue>,
}

impl Geometry {
    /// The polygons (each a list of rings) of a Polygon or MultiPolygon; empty for other shapes.
    pub fn polygons(&self) -> Vec<&[ArcPath]> {
        match &self.shape {
            Shape::Polygon(rings) => vec![rings.as_slice()],
            Shape::MultiPolygon(polygons) => polygons.iter().map(Vec::as_slice).collect(),
            _ => Vec::new(),
        }
    }
}

/// A decoded, validated topology: arcs in absolute coordinates and the objects by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// Every arc as absolute positions, after the transform (if any).
    pub arcs: Vec<Vec<Position>>,
    /// The objects, by name (sorted).
    pub objects: BTreeMap<String, Geometry>,
}

#[derive(Deserialize)]
struct RawTopology {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    arcs: Vec<Vec<Vec<f64>>>,
    #[serde(default)]
    transform: Option<RawTransform>,
    objects: BTreeMap<String, RawGeometry>,
}

#[derive(Deserialize)]
struct RawTransform {
    scale: Vec<f64>,
    translate: Vec<f64>,
}

#[derive(Deserialize)]
struct RawGeometry {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    arcs: Option<JsonValue>,
    #[serde(default)]
    coordinates: Option<JsonValue>,
    #[serde(default)]
    geometries: Option<Vec<RawGeometry>>,
    #[serde(default)]
    properties: Option<serde_json::Map<String, JsonValue>>,
    #[serde(default)]
    id: Option<JsonValue>,
}

/// `scale` and `translate`, two finite numbers each.
#[derive(Debug, Clone, Copy)]
struct Transform {
    scale: [f64; 2],
    translate: [f64; 2],
}

impl Transform {
    fn from_raw(raw: &RawTransform) -> Result<Self, TopologyError> {
        let pair = |name: &'static str, v: &[f64]| -> Result<[f64; 2], TopologyError> {
            match v {
                [x, y] if x.is_finite() && y.is_finite() => Ok([*x, *y]),
                [_, _] => Err(TopologyError::new(
                    Place::at(Step::Transform(name)),
                    Problem::TransformNotFinite,
                )),
                _ => Err(TopologyError::new(
                    Place::at(Step::Transform(name)),
                    Problem::TransformLength { found: v.len() },
                )),
            }
        };
        Ok(Transform {
            scale: pair("scale", &raw.scale)?,
            translate: pair("translate", &raw.translate)?,
        })
    }

    fn apply(&self, q: [f64; 2]) -> Position {
        [
            q[0] * self.scale[0] + self.translate[0],
            q[1] * self.scale[1] + self.translate[1],
        ]
    }
}

impl Topology {
    /// Decodes TopoJSON text. Errors of JSON syntax or of member types carry serde's line and
    /// column; errors of content name the arc, object and geometry.
    pub fn parse(text: &str) -> Result<Topology, TopologyError> {
        let raw: RawTopology = serde_json::from_str(text).map_err(not_topojson)?;
        Self::from_raw(raw)
    }

    fn from_raw(raw: RawTopology) -> Result<Topology, TopologyError> {
        if raw.kind != "Topology" {
            return Err(TopologyError::new(
                Place::at(Step::Type),
                Problem::NotTopology { found: raw.kind },
            ));
        }
        let transform = raw
            .transform
            .as_ref()
            .map(Transform::from_raw)
            .transpose()?;
        let mut arcs = Vec::with_capacity(raw.arcs.len());
        for (arc_index, arc) in raw.arcs.iter().enumerate() {
            let mut out = Vec::with_capacity(arc.len());
            let mut quantized = [0.0f64, 0.0f64];
            for (k, position) in arc.iter().enumerate() {
                let [x, y] = two_numbers(position).ok_or_else(|| {
                    short_position(
                        Place::at(Step::Arc(arc_index)).then(Step::Position(k)),
                        position.len(),
                    )
                })?;
                out.push(match &transform {
                    Some(t) => {
                        // Delta-decoding in this order (sum, then scale and translate) gives the
                        // same bits as topojson-client and the georust crate did.
                        quantized[0] += x;
                        quantized[1] += y;
                        t.apply(quantized)
                    }
                    None => [x, y],
                });
            }
            arcs.push(out);
        }
        let arc_count = arcs.len();
        let mut objects = BTreeMap::new();
        for (name, raw_geometry) in raw.objects {
            let place = Place::at(Step::Object(name.clone()));
            let geometry = decode_geometry(raw_geometry, &place, arc_count, transform.as_ref())?;
            objects.insert(name, geometry);
        }
        Ok(Topology { arcs, objects })
    }

    /// The positions a path of arcs describes, arcs joined end to end (a reversed arc walked
    /// backwards), with consecutive repeated positions (the shared junction of two arcs, or a
    /// zero delta) kept once.
    pub fn path(&self, refs: &[ArcRef]) -> Vec<Position> {
        let mut out: Vec<Position> = Vec::new();
        let mut push = |p: &Position| {
            if out.last() != Some(p) {
                out.push(*p);
            }
        };
        for r in refs {
            // `ArcRef`s are only made by `ArcRef::resolve` against these arcs; `get` keeps even a
            // hand-made out-of-range reference from panicking.
            let Some(arc) = self.arcs.get(r.arc) else {
                continue;
            };
            if r.reversed {
                arc.iter().rev().for_each(&mut push);
            } else {
                arc.iter().for_each(&mut push);
            }
        }
        out
    }
}

fn two_numbers(position: &[f64]) -> Option<[f64; 2]> {
    match position {
        [x, y, ..] => Some([*x, *y]),
        _ => None,
    }
}

fn short_position(place: Place, found: usize) -> TopologyError {
    TopologyError::new(place, Problem::ShortPosition { found })
}

fn not_topojson(e: serde_json::Error) -> TopologyError {
    TopologyError::new(
        Place::at(Step::Topology),
        Problem::NotTopoJson(e.to_string()),
    )
}

fn decode_geometry(
    mut raw: RawGeometry,
    place: &Place,
    arc_count: usize,
    transform: Option<&Transform>,
) -> Result<Geometry, TopologyError> {
    let geometries = raw.geometries.take();
    let arcs = |expected: Expected| -> Result<&JsonValue, TopologyError> {
        raw.arcs.as_ref().ok_or_else(|| {
            TopologyError::new(
                place.clone(),
                Problem::MissingArcs {
                    geometry: raw.kind.clone(),
                    expected,
                },
            )
        })
    };
    let missing_coordinates =
        |geometry| TopologyError::new(place.clone(), Problem::MissingCoordinates { geometry });
    let shape = match raw.kind.as_deref() {
        None => Shape::Null,
        Some("Point") => {
            let coordinates = raw
                .coordinates
                .as_ref()
                .ok_or_else(|| missing_coordinates("Point"))?;
            Shape::Points(vec![position(coordinates, place, transform)?])
        }
        Some("MultiPoint") => {
            let coordinates = raw
                .coordinates
                .as_ref()
                .ok_or_else(|| missing_coordinates("MultiPoint"))?;
            let list = array(coordinates, place, Expected::Positions)?;
            let mut points = Vec::with_capacity(list.len());
            for (k, p) in list.iter().enumerate() {
                points.push(position(p, &place.then(Step::Point(k)), transform)?);
            }
            Shape::Points(points)
        }
        Some("LineString") => Shape::Lines(vec![arc_path(
            arcs(Expected::ArcIndexes)?,
            place,
            arc_count,
        )?]),
        Some("MultiLineString") => {
            let lines = Expected::Paths(PathKind::Line);
            Shape::Lines(paths(arcs(lines)?, place, PathKind::Line, arc_count)?)
        }
        Some("Polygon") => {
            let rings = Expected::Paths(PathKind::Ring);
            Shape::Polygon(paths(arcs(rings)?, place, PathKind::Ring, arc_count)?)
        }
        Some("MultiPolygon") => {
            let list = array(arcs(Expected::Polygons)?, place, Expected::Polygons)?;
            let mut polygons = Vec::with_capacity(list.len());
            for (k, polygon) in list.iter().enumerate() {
                polygons.push(paths(
                    polygon,
                    &place.then(Step::Polygon(k)),
                    PathKind::Ring,
                    arc_count,
                )?);
            }
            Shape::MultiPolygon(polygons)
        }
        Some("GeometryCollection") => {
            let children = geometries.unwrap_or_default();
            let mut out = Vec::with_capacity(children.len());
            for (k, child) in children.into_iter().enumerate() {
                out.push(decode_geometry(
                    child,
                    &place.then(Step::Geometry(k)),
                    arc_count,
                    transform,
                )?);
            }
            Shape::Collection(out)
        }
        Some(other) => {
            return Err(TopologyError::new(
                place.clone(),
                Problem::UnknownType {
                    found: other.to_string(),
                },
            ))
        }
    };
    Ok(Geometry {
        shape,
        properties: raw.properties.unwrap_or_default(),
        id: raw.id,
    })
}

fn array<'a>(
    value: &'a JsonValue,
    place: &Place,
    expected: Expected,
) -> Result<&'a Vec<JsonValue>, TopologyError> {
    value.as_array().ok_or_else(|| {
        TopologyError::new(
            place.clone(),
            Problem::Wrong {
                expected,
                found: JsonKind::of(value),
            },
        )
    })
}

/// A Point position, quantized (not delta-encoded) under a transform.
fn position(
    value: &JsonValue,
    place: &Place,
    transform: Option<&Transform>,
) -> Result<Position, TopologyError> {
    let list = array(value, place, Expected::Position)?;
    if list.len() < 2 {
        return Err(short_position(place.clone(), list.len()));
    }
    let number = |k: usize| {
        list[k].as_f64().ok_or_else(|| {
            TopologyError::new(
                place.clone(),
                Problem::NotANumber {
                    member: k,
                    found: JsonKind::of(&list[k]),
                },
            )
        })
    };
    let q = [number(0)?, number(1)?];
    Ok(match transform {
        Some(t) => t.apply(q),
        None => q,
    })
}

/// A list of arc indexes (one ring or line), each checked against the arcs.
fn arc_path(value: &JsonValue, place: &Place, arc_count: usize) -> Result<ArcPath, TopologyError> {
    let list = array(value, place, Expected::ArcIndexes)?;
    let mut out = Vec::with_capacity(list.len());
    for (k, v) in list.iter().enumerate() {
        let at = || place.then(Step::ArcReference(k));
        let index = v.as_i64().ok_or_else(|| {
            TopologyError::new(
                at(),
                Problem::ArcIndexNotInteger {
                    found: v.to_string(),
                },
            )
        })?;
        let arc = ArcRef::resolve(index, arc_count)
            .ok_or_else(|| TopologyError::new(at(), Problem::NoSuchArc { index, arc_count }))?;
        out.push(arc);
    }
    Ok(out)
}

/// A list of rings or lines.
fn paths(
    value: &JsonValue,
    place: &Place,
    kind: PathKind,
    arc_count: usize,
) -> Result<Vec<ArcPath>, TopologyError> {
    let list = array(value, place, Expected::Paths(kind))?;
    let mut out = Vec::with_capacity(list.len());
    for (k, path) in list.iter().enumerate() {
        out.push(arc_path(path, &place.then(Step::Path(kind, k)), arc_count)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Topology::parse(text).unwrap_err().to_string()
    }

    const ARCS: &str = r#""arcs":[[[0,0],[1,0]],[[1,0],[1,1],[0,0]]]"#;

    fn with_object(object: &str) -> String {
        format!(r#"{{"type":"Topology",{ARCS},"objects":{{"x":{object}}}}}"#)
    }

    fn in_collection(geometry: &str) -> String {
        with_object(&format!(
            r#"{{"type":"GeometryCollection","geometries":[{{"type":"Polygon","arcs":[[0,1]]}},{geometry}]}}"#
        ))
    }

    #[test]
    fn an_arc_index_out_of_range_names_the_object_geometry_and_ring() {
        let e = err(&in_collection(r#"{"type":"Polygon","arcs":[[0,7]]}"#));
        assert_eq!(
            e,
            "object \"x\", geometry 1, ring 0, arc reference 1: arc index 7 (arc 7) does not \
             exist: the topology has 2 arcs (indexes 0 to 1, or -1 to -2 reversed)"
        );
    }

    #[test]
    fn a_negative_arc_index_beyond_the_arcs_is_an_error() {
        let e = err(&in_collection(r#"{"type":"Polygon","arcs":[[-3]]}"#));
        assert!(
            e.contains("arc index -3 (arc 2 reversed) does not exist"),
            "{e}"
        );
    }

    #[test]
    fn i32_and_i64_minimum_arc_indexes_are_errors_not_overflows() {
        for index in [i64::from(i32::MIN), i64::MIN] {
            let e = err(&in_collection(&format!(
                r#"{{"type":"MultiPolygon","arcs":[[[0,{index}]]]}}"#
            )));
            assert!(e.contains("polygon 0, ring 0, arc reference 1"), "{e}");
            assert!(e.contains(&format!("arc index {index}")), "{e}");
        }
        // Beyond i64 and fractional: not integers.
        let e = err(&in_collection(r#"{"type":"Polygon","arcs":[[1e30]]}"#));
        assert!(e.contains("must be an integer"), "{e}");
        let e = err(&in_collection(r#"{"type":"Polygon","arcs":[[0.5]]}"#));
        assert!(e.contains("must be an integer"), "{e}");
    }

    #[test]
    fn a_bare_polygon_object_with_a_bad_arc_is_an_error() {
        let e = err(&with_object(r#"{"type":"Polygon","arcs":[[0,2]]}"#));
        assert!(
            e.starts_with("object \"x\", ring 0, arc reference 1: arc index 2"),
            "{e}"
        );
    }

    #[test]
    fn a_one_element_transform_scale_is_an_error() {
        let e = err(&format!(
            r#"{{"type":"Topology","transform":{{"scale":[1],"translate":[0,0]}},{ARCS},"objects":{{}}}}"#
        ));
        assert_eq!(
            e,
            "transform.scale: needs exactly 2 numbers (x, y), found 1"
        );
    }

    #[test]
    fn one_number_positions_under_a_transform_are_errors() {
        let e = err(
            r#"{"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},
                "arcs":[[[0,0],[1,0]],[[1],[1,1]]],"objects":{}}"#,
        );
        assert_eq!(
            e,
            "arc 1, position 0: a position needs at least 2 numbers (x, y), found 1"
        );
    }

    #[test]
    fn a_short_point_is_an_error() {
        let e = err(&in_collection(r#"{"type":"Point","coordinates":[5]}"#));
        assert_eq!(
            e,
            "object \"x\", geometry 1: a position needs at least 2 numbers (x, y), found 1"
        );
        let e = err(&in_collection(
            r#"{"type":"MultiPoint","coordinates":[[1,2],[]]}"#,
        ));
        assert!(e.starts_with("object \"x\", geometry 1, point 1:"), "{e}");
    }

    #[test]
    fn wrong_member_types_and_unknown_types_are_errors() {
        for (geometry, wanted) in [
            (r#"{"type":"Polygon","arcs":5}"#, "expected a list of rings"),
            (r#"{"type":"Polygon"}"#, "needs an `arcs` member"),
            (
                r#"{"type":"LineString","arcs":[[0]]}"#,
                "must be an integer",
            ),
            (r#"{"type":"Hexagon","arcs":[]}"#, "unknown geometry type"),
            (r#"{"type":"Point","coordinates":["a",1]}"#, "not a number"),
        ] {
            let e = err(&in_collection(geometry));
            assert!(e.contains(wanted), "{geometry}: {e}");
        }
        assert!(
            err(r#"{"type":"FeatureCollection","objects":{}}"#).contains("expected \"Topology\"")
        );
        assert!(err(r#"{"type":"Topology","arcs":[[["a",1]]],"objects":{}}"#).contains("column"));
    }

    /// Every problem is a value: in Spanish the place and the rule are Spanish words (with the
    /// file's own names and numbers), in English the `Display` text.
    #[test]
    fn errors_are_written_in_either_language() {
        use imr_stats::Lang;
        let spanish = |text: &str| Topology::parse(text).unwrap_err().text(Lang::Es);
        let english = |text: &str| Topology::parse(text).unwrap_err().text(Lang::En);
        let bad_arc = in_collection(r#"{"type":"Polygon","arcs":[[0,-7]]}"#);
        assert_eq!(
            spanish(&bad_arc),
            "objeto \"x\", geometría 1, anillo 0, referencia a arco 1: el índice de arco -7 \
             (arco 6 invertido) no existe: la topología tiene 2 arcos (índices 0 a 1, o -1 a -2 \
             invertidos)"
        );
        assert_eq!(english(&bad_arc), err(&bad_arc));
        let cases = [
            (
                in_collection(r#"{"type":"Point","coordinates":["a",1]}"#),
                "objeto \"x\", geometría 1: el miembro 0 de la posición es un texto, no un número",
            ),
            (
                in_collection(r#"{"type":"Polygon","arcs":5}"#),
                "objeto \"x\", geometría 1: se esperaba una lista de anillos (listas de índices \
                 de arcos), se encontró un número",
            ),
            (
                in_collection(r#"{"type":"MultiLineString"}"#),
                "objeto \"x\", geometría 1: un MultiLineString necesita un miembro `arcs` (una \
                 lista de líneas)",
            ),
            (
                format!(
                    r#"{{"type":"Topology","transform":{{"scale":[1],"translate":[0,0]}},{ARCS},"objects":{{}}}}"#
                ),
                "transform.scale: necesita exactamente 2 números (x, y), tiene 1",
            ),
            (
                r#"{"type":"FeatureCollection","objects":{}}"#.to_string(),
                "type: se esperaba \"Topology\", se encontró \"FeatureCollection\"",
            ),
        ];
        for (text, wanted) in cases {
            assert_eq!(spanish(&text), wanted, "{text}");
        }
        // The MultiLineString's missing `arcs` are lines, not rings (they were called rings).
        assert!(err(&in_collection(r#"{"type":"MultiLineString"}"#)).ends_with("(a list of lines)"));
    }

    /// Quantized arcs are delta-decoded (then scaled and translated); reversed arcs walk backwards;
    /// Point positions are quantized but not delta-encoded.
    #[test]
    fn quantized_arcs_and_points_decode_to_absolute_positions() {
        let t = Topology::parse(
            r#"{"type":"Topology","transform":{"scale":[0.5,2],"translate":[10,20]},
            "arcs":[[[0,0],[2,0],[0,1],[-2,0],[0,-1]]],
            "objects":{"x":{"type":"GeometryCollection","geometries":[
              {"type":"Polygon","arcs":[[-1]],"properties":{"id":"a"}},
              {"type":"Point","coordinates":[2,1]},
              {"type":null}]}}}"#,
        )
        .unwrap();
        assert_eq!(
            t.arcs[0],
            vec![
                [10.0, 20.0],
                [11.0, 20.0],
                [11.0, 22.0],
                [10.0, 22.0],
                [10.0, 20.0]
            ]
        );
        let Shape::Collection(children) = &t.objects["x"].shape else {
            panic!("{:?}", t.objects["x"]);
        };
        assert_eq!(children[0].properties["id"], "a");
        let rings = children[0].polygons();
        assert_eq!(t.path(&rings[0][0])[1], [10.0, 22.0]);
        assert_eq!(children[1].shape, Shape::Points(vec![[11.0, 22.0]]));
        assert_eq!(children[2].shape, Shape::Null);
    }

    #[test]
    fn joined_arcs_keep_their_junction_once() {
        let t = Topology::parse(&in_collection(r#"{"type":"Polygon","arcs":[[0,1]]}"#)).unwrap();
        let Shape::Collection(children) = &t.objects["x"].shape else {
            panic!()
        };
        let ring = t.path(&children[0].polygons()[0][0]);
        assert_eq!(ring, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]);
    }
}
