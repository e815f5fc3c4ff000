//! The commune boundaries for the dataset build: Polygon/MultiPolygon geometries with their
//! properties, decoded by imr-map's validated TopoJSON decoder, and area centroids.
//!
//! Reference: the TopoJSON format specification 1.0 (topojson/topojson-specification).

use std::collections::BTreeMap;

use imr_map::topojson::{ArcRef, Shape};

/// A decoded topology: arcs in absolute coordinates (longitude, latitude) and the geometries of
/// every object.
///
/// Decoding and validation (arc indexes in range, positions of two numbers, the transform) are
/// imr-map's ([`imr_map::topojson`]), the decoder the page and `imr map` use, so the dataset
/// build and the map accept and refuse the same files.
pub struct Topology {
    decoded: imr_map::topojson::Topology,
    /// Every arc as absolute positions, after applying the transform.
    pub arcs: Vec<Vec<[f64; 2]>>,
    /// Objects by name, each a list of geometries.
    pub objects: BTreeMap<String, Vec<Geometry>>,
}

/// One geometry of a GeometryCollection: its properties and, per polygon, per ring, the arc
/// indexes as in the file (a negative index `!i` means arc `i` reversed), all checked to exist.
pub struct Geometry {
    /// `Polygon`, `MultiPolygon`, `Point`…, or `null`.
    pub kind: String,
    pub properties: BTreeMap<String, serde_json::Value>,
    pub polygons: Vec<Vec<Vec<i64>>>,
}

impl Topology {
    /// Parses a TopoJSON text. Every object must be a GeometryCollection (that is what a boundary
    /// file holds); geometries other than Polygon and MultiPolygon have no polygons.
    pub fn parse(text: &str) -> Result<Topology, String> {
        let decoded = imr_map::topojson::Topology::parse(text).map_err(|e| e.to_string())?;
        let mut objects = BTreeMap::new();
        for (name, object) in &decoded.objects {
            let Shape::Collection(children) = &object.shape else {
                return Err(format!(
                    "object {name:?}: expected a GeometryCollection, found {}",
                    object.shape.kind()
                ));
            };
            let geometries = children
                .iter()
                .map(|child| Geometry {
                    kind: child.shape.kind().to_string(),
                    properties: child
                        .properties
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                    polygons: child
                        .polygons()
                        .iter()
                        .map(|rings| {
                            rings
                                .iter()
                                .map(|ring| ring.iter().map(|r| file_index(*r)).collect())
                                .collect()
                        })
                        .collect(),
                })
                .collect();
            objects.insert(name.clone(), geometries);
        }
        Ok(Topology {
            arcs: decoded.arcs.clone(),
            decoded,
            objects,
        })
    }

    /// The closed ring of positions that a list of arc indexes describes (junctions kept once).
    /// Indexes of arcs that do not exist are skipped (the geometries' indexes all exist).
    pub fn ring(&self, arc_indexes: &[i64]) -> Vec<[f64; 2]> {
        let refs: Vec<ArcRef> = arc_indexes
            .iter()
            .filter_map(|&i| ArcRef::resolve(i, self.arcs.len()))
            .collect();
        self.decoded.path(&refs)
    }

    /// The area-weighted centroid (longitude, latitude) of a geometry, computed in the plane of
    /// the lon/lat coordinates, as GIS libraries (geo, shapely) do for EPSG:4326 data.
    ///
    /// # Formula
    /// For each ring with vertices (x_k, y_k), signed area A = ½ Σ (x_k y_{k+1} − x_{k+1} y_k) and
    /// first moments Mx = ⅙ Σ (x_k + x_{k+1})(x_k y_{k+1} − x_{k+1} y_k), My likewise with y.
    /// The first ring of each polygon counts positively and the others (holes) negatively,
    /// whatever their winding: weight w = ±|A|, moments scaled by w / A. The centroid is
    /// (Σ Mx, Σ My) / Σ w. Coordinates are taken relative to the geometry's first vertex so that
    /// the products stay small.
    ///
    /// `None` for a geometry with no area.
    pub fn centroid(&self, geometry: &Geometry) -> Option<[f64; 2]> {
        let mut origin: Option<[f64; 2]> = None;
        let (mut total_weight, mut moment_x, mut moment_y) = (0.0, 0.0, 0.0);
        for polygon in &geometry.polygons {
            for (ring_position, arc_indexes) in polygon.iter().enumerate() {
                let ring = self.ring(arc_indexes);
                let Some(&first) = ring.first() else { continue };
                let origin = *origin.get_or_insert(first);
                let (mut area2, mut mx6, mut my6) = (0.0, 0.0, 0.0);
                for pair in ring.windows(2) {
                    let (x0, y0) = (pair[0][0] - origin[0], pair[0][1] - origin[1]);
                    let (x1, y1) = (pair[1][0] - origin[0], pair[1][1] - origin[1]);
                    let cross = x0 * y1 - x1 * y0;
                    area2 += cross;
                    mx6 += (x0 + x1) * cross;
                    my6 += (y0 + y1) * cross;
                }
                if area2 == 0.0 {
                    continue;
                }
                let signed_area = area2 / 2.0;
                let weight = if ring_position == 0 {
                    signed_area.abs()
                } else {
                    -signed_area.abs()
                };
                // Mx / A = (mx6 / 6) / A; scaled to the weight.
                moment_x += weight * (mx6 / 6.0) / signed_area;
                moment_y += weight * (my6 / 6.0) / signed_area;
                total_weight += weight;
            }
        }
        let origin = origin?;
        if total_weight <= 0.0 {
            return None;
        }
        Some([
            origin[0] + moment_x / total_weight,
            origin[1] + moment_y / total_weight,
        ])
    }
}

/// The index written in the file for an arc reference (`!i` for arc `i` reversed).
fn file_index(r: ArcRef) -> i64 {
    // Arc positions come from a `Vec` built from an in-memory file: far below i64::MAX.
    let i = i64::try_from(r.arc).unwrap_or(i64::MAX);
    if r.reversed {
        !i
    } else {
        i
    }
}

/// The position in `arcs` of an arc index (`!i` for a reversed arc).
pub fn arc_position(index: i64) -> usize {
    let i = if index < 0 { !index } else { index };
    usize::try_from(i).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit square with a quarter-size square hole in one corner: area 1 − ¼ = ¾; centroid x =
    /// (½·1 − ¼·(¼)) / ¾ = (0.5 − 0.0625)/0.75 = 0.58333…, same for y.
    #[test]
    fn centroid_of_a_square_with_a_hole_weighs_the_hole_negatively() {
        let text = r#"{"type":"Topology","arcs":[
            [[0,0],[1,0],[1,1],[0,1],[0,0]],
            [[0,0],[0,0.5],[0.5,0.5],[0.5,0],[0,0]]],
            "objects":{"x":{"type":"GeometryCollection","geometries":[
            {"type":"Polygon","arcs":[[0],[1]],"properties":{"id":"a"}}]}}}"#;
        let topology = Topology::parse(text).unwrap();
        let geometry = &topology.objects["x"][0];
        let [x, y] = topology.centroid(geometry).unwrap();
        assert!((x - 0.583_333_333_333).abs() < 1e-9, "{x}");
        assert!((y - 0.583_333_333_333).abs() < 1e-9, "{y}");
    }

    /// A reversed arc (`~0` = −1) of a quantized topology walks its points backwards, from the
    /// arc indexes as the file writes them (the decoding itself is imr-map's, tested there).
    #[test]
    fn a_reversed_arc_walks_backwards_from_the_file_s_index() {
        let text = r#"{"type":"Topology","transform":{"scale":[0.5,2],"translate":[10,20]},
            "arcs":[[[0,0],[2,0],[0,1],[-2,0],[0,-1]]],
            "objects":{"x":{"type":"GeometryCollection","geometries":[
            {"type":"Polygon","arcs":[[-1]]}]}}}"#;
        let topology = Topology::parse(text).unwrap();
        assert_eq!(topology.objects["x"][0].polygons, vec![vec![vec![-1]]]);
        let ring = topology.ring(&topology.objects["x"][0].polygons[0][0]);
        assert_eq!(ring[..3], [[10.0, 20.0], [10.0, 22.0], [11.0, 22.0]]);
        let [x, y] = topology.centroid(&topology.objects["x"][0]).unwrap();
        assert!((x - 10.5).abs() < 1e-12 && (y - 21.0).abs() < 1e-12);
    }
}

#[cfg(test)]
mod validation {
    use super::*;

    /// Arc indexes out of range and short positions are refused by the shared decoder.
    #[test]
    fn bad_arcs_are_refused_with_the_place() {
        let text = r#"{"type":"Topology","arcs":[[[0,0],[1,0],[1,1],[0,0]]],
            "objects":{"comunas":{"type":"GeometryCollection","geometries":[
            {"type":"Polygon","arcs":[[-2]],"properties":{"codigo_comuna":"01101"}}]}}}"#;
        let e = Topology::parse(text).err().unwrap();
        assert!(e.contains("object \"comunas\", geometry 0, ring 0"), "{e}");
        let text = r#"{"type":"Topology","arcs":[[[0]]],"objects":{}}"#;
        assert!(Topology::parse(text)
            .err()
            .unwrap()
            .contains("arc 0, position 0"));
        let text = r#"{"type":"Topology","arcs":[],"objects":{"x":{"type":"Polygon","arcs":[]}}}"#;
        assert!(Topology::parse(text)
            .err()
            .unwrap()
            .contains("expected a GeometryCollection"));
    }
}
