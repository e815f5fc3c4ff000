//! Property tests of the boundary decoder.
//!
//! * Hostile inputs: random JSON shaped like a topology (arc indexes at the i32/i64 extremes,
//!   positions of 0–3 numbers, transforms of 0–3 numbers, unknown and nested types, missing
//!   members) and random JSON of any shape never panic in the decoder, the rook weights or the
//!   layout; they decode or give an error.
//! * Valid inputs round-trip: a random grid of cells written as a topology (quantized and
//!   delta-encoded or not, arcs stored in either direction, edges of one or two segments)
//!   decodes to exactly the rings it was made from, and its rook neighbours are the grid's; the
//!   same cells as GeoJSON give the same areas and neighbours.

use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::{LayoutSpec, MapLayout};
use imr_map::weights::Weights;
use proptest::prelude::*;
use serde_json::{json, Value};

fn keys() -> PropertyKeys {
    PropertyKeys::code_only("c")
}

/// Decoding, neighbours and layout of any text: must return, never panic.
fn exercise(text: &str) {
    for object in [None, Some("a")] {
        if let Ok(layer) = GeoLayer::from_str(text, object, &keys()) {
            let _ = Weights::rook(&layer);
            let _ = Weights::queen(&layer);
            let _ = MapLayout::build(&layer, &LayoutSpec::auto(&layer));
            let _ = layer.match_codes(&["1", "01", "x"]);
        }
    }
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-3i64..6).prop_map(Value::from),
        Just(Value::from(i64::from(i32::MIN))),
        Just(Value::from(i64::from(i32::MAX))),
        Just(Value::from(i64::MIN)),
        Just(Value::from(u64::MAX)),
        (-1e3f64..1e3).prop_map(Value::from),
        Just(Value::from(1e308)),
        Just(Value::from(-1e-300)),
        Just(Value::from(0.5)),
    ]
}

fn junk() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(Value::from("x")),
        Just(json!({})),
        Just(json!([])),
        Just(Value::from(true)),
    ]
}

/// Mostly plausible values (so that many inputs decode and reach weights and layout), sometimes
/// hostile ones.
fn small_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (-4i64..5).prop_map(Value::from),
        2 => (-80f64..80.0).prop_map(Value::from),
        1 => number(),
    ]
}

fn position() -> impl Strategy<Value = Value> {
    prop_oneof![
        30 => prop::collection::vec(small_number(), 2..3).prop_map(Value::from),
        2 => prop::collection::vec(number(), 0..4).prop_map(Value::from),
        1 => junk(),
    ]
}

/// Arc indexes nested `depth` lists deep (1 = a line, 2 = a polygon, 3 = a multipolygon).
fn arc_refs(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        30 => (-6i64..6).prop_map(Value::from),
        2 => number(),
        1 => junk()
    ]
    .boxed();
    let mut s = prop::collection::vec(leaf, 0..5)
        .prop_map(Value::from)
        .boxed();
    for _ in 1..depth {
        s = prop_oneof![
            30 => prop::collection::vec(s, 0..3).prop_map(Value::from),
            1 => junk(),
        ]
        .boxed();
    }
    s
}

fn geometry_type() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => Just(Value::from("Polygon")),
        6 => Just(Value::from("MultiPolygon")),
        1 => Just(Value::from("LineString")),
        1 => Just(Value::from("MultiLineString")),
        1 => Just(Value::from("Point")),
        1 => Just(Value::from("MultiPoint")),
        1 => Just(Value::from("GeometryCollection")),
        1 => Just(Value::Null),
        1 => Just(Value::from("Feature")),
        1 => Just(Value::from(3)),
    ]
}

fn code() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::from("01101")),
        1 => Just(Value::from("1101")),
        1 => Just(Value::from(1101)),
        1 => Just(Value::from("a")),
        1 => Just(Value::from("")),
        1 => Just(Value::Null),
        20 => (0u32..100_000).prop_map(|k| Value::from(format!("{k:05}"))),
    ]
}

fn leaf_geometry() -> impl Strategy<Value = Value> {
    geometry_type()
        .prop_flat_map(|kind| {
            // The arcs' nesting matches the type most of the time.
            let depth = match kind.as_str() {
                Some("MultiPolygon") => 3,
                Some("Polygon" | "MultiLineString") => 2,
                _ => 1,
            };
            (
                Just(kind),
                prop_oneof![
                    12 => arc_refs(depth),
                    1 => arc_refs(1),
                    1 => arc_refs(3),
                    1 => junk().boxed()
                ],
            )
        })
        .prop_flat_map(|(kind, arcs)| (Just(kind), Just(arcs), leaf_rest()))
        .prop_map(|(kind, arcs, (coordinates, code, with_coordinates))| {
            let mut g = json!({"type": kind, "arcs": arcs, "properties": {"c": code}});
            if with_coordinates {
                g["coordinates"] = coordinates;
            }
            g
        })
}

fn leaf_rest() -> impl Strategy<Value = (Value, Value, bool)> {
    (
        prop_oneof![
            position(),
            prop::collection::vec(position(), 0..3).prop_map(Value::from)
        ],
        code(),
        any::<bool>(),
    )
}

fn geometry() -> impl Strategy<Value = Value> {
    leaf_geometry().prop_recursive(3, 24, 6, |inner| {
        prop::collection::vec(inner, 0..6)
            .prop_map(|children| json!({"type": "GeometryCollection", "geometries": children}))
    })
}

fn transform() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => Just(Value::Null),
        6 => Just(json!({"scale": [0.5, 0.25], "translate": [-71, -33]})),
        1 => (
            prop::collection::vec(number(), 0..4),
            prop::collection::vec(number(), 0..4)
        )
            .prop_map(|(s, t)| json!({"scale": s, "translate": t})),
        1 => junk(),
    ]
}

fn topology_like() -> impl Strategy<Value = Value> {
    (
        prop_oneof![
            8 => Just(Value::from("Topology")),
            1 => Just(Value::from("FeatureCollection")),
            1 => junk()
        ],
        prop::collection::vec(prop::collection::vec(position(), 0..5), 0..6),
        transform(),
        prop_oneof![
            8 => prop::collection::vec(geometry(), 1..2),
            1 => prop::collection::vec(geometry(), 0..3)
        ],
    )
        .prop_map(|(kind, arcs, transform, objects)| {
            let mut t = json!({"type": kind, "arcs": arcs, "objects": {}});
            if !transform.is_null() {
                t["transform"] = transform;
            }
            for (k, o) in objects.into_iter().enumerate() {
                let name = if k == 0 {
                    "a".to_string()
                } else {
                    format!("o{k}")
                };
                t["objects"][name] = o;
            }
            t
        })
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![number(), junk(), geometry_type(), code()];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("type".to_string()),
                        Just("arcs".to_string()),
                        Just("objects".to_string()),
                        Just("features".to_string()),
                        Just("geometry".to_string()),
                        Just("coordinates".to_string()),
                        Just("properties".to_string()),
                        Just("transform".to_string()),
                        "[a-z]{1,3}",
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// A valid topology: `arcs` of 2–5 positions (quantized under a transform, or lon/lat) and one
/// GeometryCollection of Polygons and MultiPolygons whose rings use arcs in range.
fn valid_topology() -> impl Strategy<Value = Value> {
    (1usize..7, any::<bool>()).prop_flat_map(|(arc_count, quantized)| {
        let position = if quantized {
            prop::collection::vec((-50i64..50).prop_map(Value::from), 2..3).boxed()
        } else {
            prop::collection::vec((-75f64..-65.0).prop_map(Value::from), 2..3).boxed()
        };
        let arcs = prop::collection::vec(prop::collection::vec(position, 2..5), arc_count);
        let n = arc_count as i64;
        let ring = prop::collection::vec(-n..n, 1..4);
        let polygon = prop::collection::vec(ring, 1..3);
        let geometry = (
            any::<bool>(),
            prop::collection::vec(polygon, 1..3),
            0u32..40,
        )
            .prop_map(|(single, polygons, code)| {
                let code = format!("{code:05}");
                if single {
                    json!({"type": "Polygon", "arcs": polygons[0], "properties": {"c": code}})
                } else {
                    json!({"type": "MultiPolygon", "arcs": polygons, "properties": {"c": code}})
                }
            });
        (arcs, prop::collection::vec(geometry, 1..8)).prop_map(move |(arcs, geometries)| {
            let mut t = json!({"type": "Topology", "arcs": arcs,
                "objects": {"a": {"type": "GeometryCollection", "geometries": geometries}}});
            if quantized {
                t["transform"] = json!({"scale": [0.125, 0.25], "translate": [-71, -33]});
            }
            t
        })
    })
}

/// Replaces the node reached by following `path` (child `k % len` at each level) with `with`.
fn mutate(value: &mut Value, path: &[usize], with: Value) {
    let Some((&k, rest)) = path.split_first() else {
        *value = with;
        return;
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            let len = items.len();
            mutate(&mut items[k % len], rest, with)
        }
        Value::Object(map) if !map.is_empty() => {
            let len = map.len();
            if let Some((_, child)) = map.iter_mut().nth(k % len) {
                mutate(child, rest, with)
            }
        }
        _ => *value = with,
    }
}

/// A valid topology with 0–3 of its nodes replaced by hostile values (extreme numbers, short or
/// long lists, nulls, strings, objects, unknown types).
fn mutated_topology() -> impl Strategy<Value = Value> {
    let replacement = prop_oneof![
        number(),
        junk(),
        position(),
        geometry_type(),
        arc_refs(2),
        prop::collection::vec(number(), 0..4).prop_map(Value::from),
    ];
    (
        valid_topology(),
        prop::collection::vec((prop::collection::vec(0usize..16, 2..9), replacement), 0..4),
    )
        .prop_map(|(mut t, mutations)| {
            for (path, with) in mutations {
                mutate(&mut t, &path, with);
            }
            t
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_valid_topologies_never_panic(value in mutated_topology()) {
        exercise(&value.to_string());
    }

    #[test]
    fn topology_shaped_json_never_panics(value in topology_like()) {
        exercise(&value.to_string());
    }

    #[test]
    fn any_json_never_panics(value in any_json()) {
        exercise(&value.to_string());
        // As a GeoJSON feature's geometry, too.
        let feature = json!({"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"c": "1"}, "geometry": value}]});
        exercise(&feature.to_string());
    }

    #[test]
    fn any_text_never_panics(text in "\\PC{0,64}") {
        exercise(&text);
    }
}

/// A grid of `rows × cols` cells as a topology, with the rings each cell must decode to.
struct Grid {
    topology: Value,
    geojson: Value,
    rings: Vec<Vec<[f64; 2]>>,
    neighbours: Vec<Vec<usize>>,
}

fn grid(
    rows: usize,
    cols: usize,
    split: bool,
    quantized: Option<(i32, i32, i32)>,
    stored_backwards: &[bool],
) -> Grid {
    // Quantized positions are integers; the real ones are q·scale + translate with a power-of-two
    // scale, exact in f64.
    let (scale, translate) = match quantized {
        Some((k, tx, ty)) => (2f64.powi(-k), [f64::from(tx), f64::from(ty)]),
        None => (0.5, [-71.0, -33.0]),
    };
    let step = if split { 2 } else { 1 };
    let real = |q: [i64; 2]| {
        [
            q[0] as f64 * scale + translate[0],
            q[1] as f64 * scale + translate[1],
        ]
    };
    // Edges between grid points (x, y) in units of `step`; each edge is one arc.
    let mut arcs: Vec<Vec<[i64; 2]>> = Vec::new();
    let mut edge = std::collections::BTreeMap::new();
    let mut add = |a: [i64; 2], b: [i64; 2]| {
        let mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        let points = if split { vec![a, mid, b] } else { vec![a, b] };
        edge.insert((a, b), arcs.len());
        arcs.push(points);
    };
    let s = step as i64;
    for i in 0..=rows as i64 {
        for j in 0..cols as i64 {
            add([j * s, i * s], [(j + 1) * s, i * s]);
        }
    }
    for i in 0..rows as i64 {
        for j in 0..=cols as i64 {
            add([j * s, i * s], [j * s, (i + 1) * s]);
        }
    }
    let backwards =
        |a: usize| stored_backwards.get(a % stored_backwards.len().max(1)) == Some(&true);
    let reference = |from: [i64; 2], to: [i64; 2]| -> i64 {
        let (arc, reversed) = match edge.get(&(from, to)) {
            Some(&a) => (a, false),
            None => (edge[&(to, from)], true),
        };
        let reversed = reversed != backwards(arc);
        if reversed {
            !(arc as i64)
        } else {
            arc as i64
        }
    };
    let mut geometries = Vec::new();
    let mut features = Vec::new();
    let mut rings = Vec::new();
    let mut neighbours = Vec::new();
    for i in 0..rows as i64 {
        for j in 0..cols as i64 {
            let corners = [
                [j * s, i * s],
                [(j + 1) * s, i * s],
                [(j + 1) * s, (i + 1) * s],
                [j * s, (i + 1) * s],
            ];
            let refs: Vec<i64> = (0..4)
                .map(|k| reference(corners[k], corners[(k + 1) % 4]))
                .collect();
            let mut ring = Vec::new();
            for k in 0..4 {
                let (a, b) = (corners[k], corners[(k + 1) % 4]);
                ring.push(real(a));
                if split {
                    ring.push(real([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]));
                }
            }
            ring.push(real(corners[0]));
            let code = format!("{:05}", i * cols as i64 + j + 1);
            geometries.push(json!({"type": "Polygon", "arcs": [refs], "properties": {"c": code}}));
            features.push(json!({"type": "Feature", "properties": {"c": code},
                "geometry": {"type": "Polygon", "coordinates": [ring]}}));
            rings.push(ring);
            let (i, j) = (i as usize, j as usize);
            let mut n = Vec::new();
            if i > 0 {
                n.push((i - 1) * cols + j);
            }
            if j > 0 {
                n.push(i * cols + j - 1);
            }
            if j + 1 < cols {
                n.push(i * cols + j + 1);
            }
            if i + 1 < rows {
                n.push((i + 1) * cols + j);
            }
            neighbours.push(n);
        }
    }
    let encoded: Vec<Value> = arcs
        .iter()
        .enumerate()
        .map(|(a, points)| {
            let mut points = points.clone();
            if backwards(a) {
                points.reverse();
            }
            let out: Vec<Value> = match quantized {
                Some(_) => {
                    let mut previous = [0i64, 0];
                    points
                        .iter()
                        .map(|p| {
                            let d = json!([p[0] - previous[0], p[1] - previous[1]]);
                            previous = *p;
                            d
                        })
                        .collect()
                }
                None => points.iter().map(|&p| json!(real(p))).collect(),
            };
            Value::from(out)
        })
        .collect();
    let mut topology = json!({"type": "Topology", "arcs": encoded,
        "objects": {"cells": {"type": "GeometryCollection", "geometries": geometries}}});
    if quantized.is_some() {
        topology["transform"] = json!({"scale": [scale, scale], "translate": translate});
    }
    Grid {
        topology,
        geojson: json!({"type": "FeatureCollection", "features": features}),
        rings,
        neighbours,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_valid_grid_round_trips_through_topojson_and_geojson(
        rows in 1usize..6,
        cols in 1usize..6,
        split: bool,
        quantized in prop::option::of((0i32..12, -80i32..80, -60i32..0)),
        stored_backwards in prop::collection::vec(any::<bool>(), 1..8),
    ) {
        let g = grid(rows, cols, split, quantized, &stored_backwards);
        let topo = GeoLayer::from_str(&g.topology.to_string(), None, &keys()).unwrap();
        let geo = GeoLayer::from_str(&g.geojson.to_string(), None, &keys()).unwrap();
        prop_assert_eq!(topo.areas.len(), rows * cols);
        prop_assert!(topo.skipped.is_empty());
        for (k, area) in topo.areas.iter().enumerate() {
            prop_assert_eq!(&area.polygons, &vec![vec![g.rings[k].clone()]], "cell {}", k);
            prop_assert_eq!(&area.polygons, &geo.areas[k].polygons);
            prop_assert_eq!(&area.code, &format!("{:05}", k + 1));
        }
        let w_topo = Weights::rook(&topo).unwrap();
        let w_geo = Weights::rook(&geo).unwrap();
        for k in 0..rows * cols {
            prop_assert_eq!(w_topo.neighbours(k), g.neighbours[k].as_slice(), "cell {}", k);
        }
        prop_assert_eq!(w_topo, w_geo);
        // Queen: the eight cells around each (diagonals meet at a corner only), from the
        // topology's decoded arcs and from the GeoJSON's vertices alike.
        let q_topo = Weights::queen(&topo).unwrap();
        for k in 0..rows * cols {
            let (i, j) = ((k / cols) as i64, (k % cols) as i64);
            let mut around = Vec::new();
            for di in -1..=1i64 {
                for dj in -1..=1i64 {
                    let (r, c) = (i + di, j + dj);
                    if (di, dj) != (0, 0) && r >= 0 && c >= 0 && r < rows as i64 && c < cols as i64 {
                        around.push(r as usize * cols + c as usize);
                    }
                }
            }
            around.sort_unstable();
            prop_assert_eq!(q_topo.neighbours(k), around.as_slice(), "queen cell {}", k);
        }
        prop_assert_eq!(q_topo, Weights::queen(&geo).unwrap());
    }
}
