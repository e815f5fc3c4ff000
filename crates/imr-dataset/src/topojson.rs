//! Just enough TopoJSON to read the commune boundaries: arcs (quantized and delta-encoded, or
//! absolute), Polygon/MultiPolygon geometries with their properties, and area centroids.
//!
//! Reference: the TopoJSON format specification 1.0 (topojson/topojson-specification).

use serde::Deserialize;
use std::collections::BTreeMap;

/// A decoded topology: arcs in absolute coordinates (longitude, latitude) and the geometries of
/// every object.
pub struct Topology {
    /// Every arc as absolute positions, after applying the transform.
    pub arcs: Vec<Vec<[f64; 2]>>,
    /// Objects by name, each a list of geometries.
    pub objects: BTreeMap<String, Vec<Geometry>>,
}

/// One geometry of a GeometryCollection: its properties and, per polygon, per ring, the arc
/// indexes (a negative index `!i` means arc `i` reversed).
pub struct Geometry {
    pub kind: String,
    pub properties: BTreeMap<String, serde_json::Value>,
    pub polygons: Vec<Vec<Vec<i64>>>,
}

#[derive(Deserialize)]
struct RawTopology {
    #[serde(rename = "type")]
    kind: String,
    arcs: Vec<Vec<Vec<f64>>>,
    transform: Option<RawTransform>,
    objects: BTreeMap<String, RawObject>,
}

#[derive(Deserialize)]
struct RawTransform {
    scale: [f64; 2],
    translate: [f64; 2],
}

#[derive(Deserialize)]
struct RawObject {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    geometries: Vec<RawGeometry>,
}

#[derive(Deserialize)]
struct RawGeometry {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    properties: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    arcs: serde_json::Value,
}

impl Topology {
    /// Parses a TopoJSON text. Only GeometryCollections of Polygon, MultiPolygon or null
    /// geometries are accepted (that is what a boundary file holds).
    pub fn parse(text: &str) -> Result<Topology, String> {
        let raw: RawTopology =
            serde_json::from_str(text).map_err(|e| format!("not TopoJSON: {e}"))?;
        if raw.kind != "Topology" {
            return Err(format!("expected type \"Topology\", found {:?}", raw.kind));
        }
        let arcs = raw
            .arcs
            .iter()
            .enumerate()
            .map(|(index, arc)| decode_arc(arc, raw.transform.as_ref(), index))
            .collect::<Result<Vec<_>, _>>()?;
        let mut objects = BTreeMap::new();
        for (name, object) in raw.objects {
            if object.kind != "GeometryCollection" {
                return Err(format!(
                    "object {name:?}: expected a GeometryCollection, found {:?}",
                    object.kind
                ));
            }
            let mut geometries = Vec::with_capacity(object.geometries.len());
            for (position, geometry) in object.geometries.into_iter().enumerate() {
                let polygons = match geometry.kind.as_str() {
                    "Polygon" => vec![serde_json::from_value(geometry.arcs).map_err(|e| {
                        format!("object {name:?}, geometry {position}: bad Polygon arcs: {e}")
                    })?],
                    "MultiPolygon" => serde_json::from_value(geometry.arcs).map_err(|e| {
                        format!("object {name:?}, geometry {position}: bad MultiPolygon arcs: {e}")
                    })?,
                    _ => Vec::new(),
                };
                for ring in polygons.iter().flatten() {
                    for &index in ring {
                        let arc = arc_position(index);
                        if arc >= arcs.len() {
                            return Err(format!(
                                "object {name:?}, geometry {position}: arc {index} does not exist ({} arcs)",
                                arcs.len()
                            ));
                        }
                    }
                }
                geometries.push(Geometry {
                    kind: geometry.kind,
                    properties: geometry.properties,
                    polygons,
                });
            }
            objects.insert(name, geometries);
        }
        Ok(Topology { arcs, objects })
    }

    /// The closed ring of positions that a list of arc indexes describes.
    pub fn ring(&self, arc_indexes: &[i64]) -> Vec<[f64; 2]> {
        let mut ring: Vec<[f64; 2]> = Vec::new();
        for &index in arc_indexes {
            let arc = &self.arcs[arc_position(index)];
            let points: Box<dyn Iterator<Item = &[f64; 2]>> = if index < 0 {
                Box::new(arc.iter().rev())
            } else {
                Box::new(arc.iter())
            };
            // Consecutive arcs share their junction point; keep it once.
            let skip = usize::from(!ring.is_empty());
            ring.extend(points.skip(skip).copied());
        }
        ring
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

/// The position in `arcs` of an arc index (`!i` for a reversed arc).
pub fn arc_position(index: i64) -> usize {
    if index < 0 {
        (!index) as usize
    } else {
        index as usize
    }
}

fn decode_arc(
    arc: &[Vec<f64>],
    transform: Option<&RawTransform>,
    arc_index: usize,
) -> Result<Vec<[f64; 2]>, String> {
    let mut out = Vec::with_capacity(arc.len());
    let (mut qx, mut qy) = (0.0, 0.0);
    for position in arc {
        let [x, y] = match position.as_slice() {
            [x, y, ..] => [*x, *y],
            _ => {
                return Err(format!(
                    "arc {arc_index}: a position has fewer than 2 numbers"
                ))
            }
        };
        out.push(match transform {
            Some(t) => {
                qx += x;
                qy += y;
                [
                    qx * t.scale[0] + t.translate[0],
                    qy * t.scale[1] + t.translate[1],
                ]
            }
            None => [x, y],
        });
    }
    Ok(out)
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

    /// Quantized, delta-encoded arcs decode to absolute positions; a reversed arc (`~0` = −1)
    /// walks the same points backwards.
    #[test]
    fn quantized_arcs_are_delta_decoded_and_reversed_arcs_walk_backwards() {
        let text = r#"{"type":"Topology","transform":{"scale":[0.5,2],"translate":[10,20]},
            "arcs":[[[0,0],[2,0],[0,1],[-2,0],[0,-1]]],
            "objects":{"x":{"type":"GeometryCollection","geometries":[
            {"type":"Polygon","arcs":[[-1]]}]}}}"#;
        let topology = Topology::parse(text).unwrap();
        assert_eq!(
            topology.arcs[0],
            vec![
                [10.0, 20.0],
                [11.0, 20.0],
                [11.0, 22.0],
                [10.0, 22.0],
                [10.0, 20.0]
            ]
        );
        let ring = topology.ring(&topology.objects["x"][0].polygons[0][0]);
        assert_eq!(ring[1], [10.0, 22.0]);
        let [x, y] = topology.centroid(&topology.objects["x"][0]).unwrap();
        assert!((x - 10.5).abs() < 1e-12 && (y - 21.0).abs() < 1e-12);
    }
}
