//! Rook weights on generated degenerate layers: thousands of areas on one border (which made
//! the old all-pairs construction quadratic: 33 s and 784 MB at 6,000 areas) are refused with a
//! clear error past the stated cap, fewer are all mutual neighbours, and a long valid strip stays
//! linear (each area neighbours only the next).

use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::weights::{Weights, WeightsError, MAX_OVERLAP_PAIRS};

fn keys() -> PropertyKeys {
    PropertyKeys::code_only("c")
}

/// `n` areas that all use arc 0, the edge (0, 0)–(1, 0), closing each ring with an arc of its own.
fn fan_topology(n: usize) -> String {
    let mut arcs = vec!["[[0,0],[1,0]]".to_string()];
    let mut geometries = Vec::with_capacity(n);
    for i in 0..n {
        let y = (i + 1) as f64 * 1e-3;
        arcs.push(format!("[[1,0],[1,{y}],[0,{y}],[0,0]]"));
        geometries.push(format!(
            r#"{{"type":"Polygon","arcs":[[0,{}]],"properties":{{"c":"A{i}"}}}}"#,
            i + 1
        ));
    }
    format!(
        r#"{{"type":"Topology","arcs":[{}],"objects":{{"fan":{{"type":"GeometryCollection","geometries":[{}]}}}}}}"#,
        arcs.join(","),
        geometries.join(",")
    )
}

/// The same fan as GeoJSON (neighbours from shared ring segments).
fn fan_geojson(n: usize) -> String {
    let features: Vec<String> = (0..n)
        .map(|i| {
            let y = (i + 1) as f64 * 1e-3;
            format!(
                r#"{{"type":"Feature","properties":{{"c":"A{i}"}},"geometry":{{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,{y}],[0,{y}],[0,0]]]}}}}"#
            )
        })
        .collect();
    format!(
        r#"{{"type":"FeatureCollection","features":[{}]}}"#,
        features.join(",")
    )
}

#[test]
fn six_thousand_areas_on_one_edge_are_refused_past_the_cap_in_both_formats() {
    for text in [fan_topology(6_000), fan_geojson(6_000)] {
        let layer = GeoLayer::from_str(&text, None, &keys()).unwrap();
        assert_eq!(layer.areas.len(), 6_000);
        let err = Weights::rook(&layer).unwrap_err();
        match &err {
            WeightsError::OverlappingBorders {
                areas,
                first_code,
                second_code,
                limit,
                ..
            } => {
                assert_eq!(*areas, 6_000);
                assert_eq!((first_code.as_str(), second_code.as_str()), ("A0", "A1"));
                assert_eq!(*limit, MAX_OVERLAP_PAIRS);
            }
            other => panic!("{other:?}"),
        }
        let message = err.to_string();
        assert!(
            message.contains("6000 areas (`A0`, `A1`, …) share one border"),
            "{message}"
        );
        assert!(message.contains("overlap"), "{message}");
    }
    // The border is named: arc 0 for the topology, the edge's end points for GeoJSON.
    let layer = GeoLayer::from_str(&fan_topology(6_000), None, &keys()).unwrap();
    assert!(Weights::rook(&layer)
        .unwrap_err()
        .to_string()
        .contains("(arc 0)"));
    let layer = GeoLayer::from_str(&fan_geojson(6_000), None, &keys()).unwrap();
    assert!(Weights::rook(&layer)
        .unwrap_err()
        .to_string()
        .contains("(the edge (0, 0)–(1, 0))"));
}

/// Under the cap (300 areas: 44,850 pairs ≤ 100,000) every area on the shared edge neighbours
/// every other one, as rook contiguity defines.
#[test]
fn areas_on_one_edge_under_the_cap_are_all_mutual_neighbours() {
    let n = 300;
    assert!(n * (n - 1) / 2 <= MAX_OVERLAP_PAIRS);
    for text in [fan_topology(n), fan_geojson(n)] {
        let layer = GeoLayer::from_str(&text, None, &keys()).unwrap();
        let w = Weights::rook(&layer).unwrap();
        for i in 0..n {
            let expected: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            assert_eq!(w.neighbours(i), expected.as_slice(), "area {i}");
        }
    }
}

/// 6,000 unit cells in a row, each sharing its east edge with the next: 5,999 pairs, no error.
#[test]
fn a_long_valid_strip_gives_one_pair_per_shared_edge() {
    let n = 6_000;
    let features: Vec<String> = (0..n)
        .map(|i| {
            let (x0, x1) = (i as f64 * 0.01, (i + 1) as f64 * 0.01);
            format!(
                r#"{{"type":"Feature","properties":{{"c":"S{i}"}},"geometry":{{"type":"Polygon","coordinates":[[[{x0},0],[{x1},0],[{x1},0.01],[{x0},0.01],[{x0},0]]]}}}}"#
            )
        })
        .collect();
    let text = format!(
        r#"{{"type":"FeatureCollection","features":[{}]}}"#,
        features.join(",")
    );
    let layer = GeoLayer::from_str(&text, None, &keys()).unwrap();
    let w = Weights::rook(&layer).unwrap();
    let pairs: usize = (0..n).map(|i| w.neighbours(i).len()).sum::<usize>() / 2;
    assert_eq!(pairs, n - 1);
    assert_eq!(w.neighbours(0), &[1]);
    assert_eq!(w.neighbours(2_999), &[2_998, 3_000]);
    assert!(w.islands().is_empty());
}

/// `n` thin triangles that all have the vertex (0, 0) and nothing else in common.
fn star_geojson(n: usize) -> String {
    let features: Vec<String> = (0..n)
        .map(|i| {
            let y = i as f64 * 1e-3;
            format!(
                r#"{{"type":"Feature","properties":{{"c":"S{i}"}},"geometry":{{"type":"Polygon","coordinates":[[[0,0],[1,{y}],[1,{}],[0,0]]]}}}}"#,
                y + 5e-4
            )
        })
        .collect();
    format!(
        r#"{{"type":"FeatureCollection","features":[{}]}}"#,
        features.join(",")
    )
}

#[test]
fn six_thousand_areas_at_one_point_are_refused_as_queen_neighbours_but_not_as_rook() {
    let layer = GeoLayer::from_str(&star_geojson(6_000), None, &keys()).unwrap();
    // No edge in common: no rook neighbours at all.
    assert!(Weights::rook(&layer).unwrap().islands().len() == 6_000);
    let err = Weights::queen(&layer).unwrap_err();
    assert!(
        matches!(&err, WeightsError::CrowdedPoints { areas: 6_000, first_code, .. } if first_code == "S0"),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("meet at one point ((0, 0))"),
        "{err}"
    );
    // A few areas at one point are all mutual queen neighbours.
    let small = GeoLayer::from_str(&star_geojson(5), None, &keys()).unwrap();
    let w = Weights::queen(&small).unwrap();
    assert_eq!(w.neighbours(0), [1, 2, 3, 4]);
}
