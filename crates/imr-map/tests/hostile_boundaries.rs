//! The corpus of hostile boundary files in tests/data/hostile (also the seed corpus of the
//! `boundaries` fuzz target): each is refused with an error that says what and where, and none
//! panics. Every file of the folder must have its expectation here.

use imr_map::geometry::{GeoLayer, PropertyKeys};

const EXPECTED: &[(&str, &str)] = &[
    (
        "all_features_empty.topojson",
        "none of the boundary file's 2 features is an area (polygons with a ring of 3 points or \
         more); the first: feature 0 (`01101`): empty geometry",
    ),
    (
        "arc_index_out_of_range.topojson",
        "object \"a\", geometry 1, ring 0, arc reference 0: arc index 1 (arc 1) does not exist: \
         the topology has 1 arc (indexes 0 to 0, or -1 to -1 reversed)",
    ),
    (
        "bare_polygon_bad_arc.topojson",
        "object \"a\", ring 0, arc reference 0: arc index 7 (arc 7) does not exist",
    ),
    (
        "deeply_nested.topojson",
        "not valid TopoJSON: recursion limit exceeded at line 1 column 2753",
    ),
    (
        "equivalent_codes.topojson",
        "features 0 (`01101`) and 1 (`1101`) have the same code once leading zeros are ignored",
    ),
    (
        "fractional_arc_index.topojson",
        "object \"a\", geometry 0, ring 0, arc reference 0: an arc index must be an integer, \
         found 0.5",
    ),
    (
        "fuzz_arc_index_past_end.topojson",
        "object \"comunas\", geometry 1, ring 0, arc reference 1: arc index 2 (arc 2) does not exist",
    ),
    (
        "fuzz_one_d_position_in_arc.topojson",
        "arc 2, position 3: a position needs at least 2 numbers (x, y), found 1",
    ),
    (
        "geojson_short_position.geojson",
        "feature 0 (`01101`): a coordinate is not a finite longitude/latitude in degrees",
    ),
    (
        "geojson_string_coordinates.geojson",
        "neither a TopoJSON Topology nor GeoJSON: Expected a floating-point value",
    ),
    (
        "huge_coordinates.topojson",
        "feature 0 (`01101`): a coordinate is not a finite longitude/latitude in degrees",
    ),
    (
        "i32_min_arc_index.topojson",
        "object \"a\", geometry 0, ring 0, arc reference 0: arc index -2147483648 (arc \
         2147483647 reversed) does not exist",
    ),
    (
        "negative_arc_index_beyond_range.topojson",
        "arc index -2 (arc 1 reversed) does not exist",
    ),
    (
        "nested_collection.topojson",
        "object `a` nests a GeometryCollection inside a GeometryCollection",
    ),
    (
        "one_d_positions_under_transform.topojson",
        "arc 0, position 0: a position needs at least 2 numbers (x, y), found 1",
    ),
    (
        "one_element_scale.topojson",
        "transform.scale: needs exactly 2 numbers (x, y), found 1",
    ),
    (
        "short_point.topojson",
        "object \"a\", geometry 1: a position needs at least 2 numbers (x, y), found 1",
    ),
    (
        "truncated.topojson",
        "the boundary file is not JSON: EOF while parsing a list at line 2 column 0",
    ),
    (
        "unknown_type.topojson",
        "object \"a\", geometry 0: unknown geometry type \"Circle\"",
    ),
];

#[test]
fn every_hostile_file_is_refused_with_a_clear_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hostile");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let listed: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
    assert_eq!(names, listed, "the corpus and the expectations differ");
    for (name, wanted) in EXPECTED {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let err = GeoLayer::from_str(&text, None, &PropertyKeys::default())
            .expect_err(name)
            .to_string();
        assert!(err.contains(wanted), "{name}: {err}");
    }
}
