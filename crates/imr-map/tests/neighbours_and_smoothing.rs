//! Neighbours from a hand-made topology and spatial empirical Bayes on it.

use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::smoothing::{global_eb, spatial_eb};
use imr_map::weights::Weights;

fn keys() -> PropertyKeys {
    PropertyKeys {
        name: Some("name".into()),
        region: Some("region".into()),
        ..PropertyKeys::code_only("code")
    }
}

fn six_cells_topology() -> GeoLayer {
    GeoLayer::from_str(include_str!("data/six_cells.topojson"), None, &keys()).unwrap()
}

fn codes_of(layer: &GeoLayer, w: &Weights, code: &str) -> Vec<String> {
    let i = layer.index_of(code).unwrap();
    w.neighbours(i)
        .iter()
        .map(|&j| layer.areas[j].code.clone())
        .collect()
}

/// Rook neighbours drawn in tests/data/README.md: corner contacts (A–D, B–C, D–E) do not count.
#[test]
fn shared_arcs_give_rook_neighbours_and_corners_do_not_count() {
    let layer = six_cells_topology();
    let w = Weights::rook(&layer).unwrap();
    assert_eq!(codes_of(&layer, &w, "A"), ["B", "C"]);
    assert_eq!(codes_of(&layer, &w, "B"), ["A", "D", "E"]);
    assert_eq!(codes_of(&layer, &w, "C"), ["A", "D"]);
    assert_eq!(codes_of(&layer, &w, "D"), ["B", "C"]);
    assert_eq!(codes_of(&layer, &w, "E"), ["B"]);
    assert_eq!(w.islands(), vec![layer.index_of("F").unwrap()]);
}

#[test]
fn geojson_shared_edges_give_the_same_neighbours_as_the_topology() {
    let topo = six_cells_topology();
    let geo = GeoLayer::from_str(include_str!("data/six_cells.geojson"), None, &keys()).unwrap();
    assert!(geo.arcs_by_area.is_none());
    assert_eq!(Weights::rook(&geo).unwrap(), Weights::rook(&topo).unwrap());
}

#[test]
fn the_gal_export_lists_each_area_with_its_neighbour_codes() {
    let layer = six_cells_topology();
    let gal = Weights::rook(&layer).unwrap().to_gal(&layer);
    let lines: Vec<&str> = gal.lines().collect();
    assert_eq!(lines[0], "0 6 imr-atlas codigo");
    assert_eq!(&lines[3..5], ["B 3", "A D E"]);
}

/// The worked example in the doc comment of `imr_map::smoothing::spatial_eb`: births
/// [1000, 200, 50, 3000, 500, 100], deaths [8, 4, 0, 15, 2, 1] on the six cells.
/// E → 316/55 = 5.745455 (σ² > 0); C → θ_C = 23/4050 = 5.679012 (σ² clamped to 0);
/// F (island) → its raw rate 10.
#[test]
fn spatial_empirical_bayes_matches_the_hand_derivation_on_six_cells() {
    let layer = six_cells_topology();
    let w = Weights::rook(&layer).unwrap();
    let births = [1000.0, 200.0, 50.0, 3000.0, 500.0, 100.0].map(Some);
    let deaths = [8.0, 4.0, 0.0, 15.0, 2.0, 1.0].map(Some);
    let seb = spatial_eb(&deaths, &births, &w).unwrap();
    let at = |code: &str| seb[layer.index_of(code).unwrap()].unwrap();
    assert!((at("E") - 316.0 / 55.0).abs() < 1e-9, "{}", at("E"));
    assert!(
        (at("C") - 1000.0 * 23.0 / 4050.0).abs() < 1e-9,
        "{}",
        at("C")
    );
    assert!((at("F") - 10.0).abs() < 1e-12);
}

/// With every area linked to every other, each neighbourhood is the whole map, so spatial EB
/// must equal global EB (a defining identity).
#[test]
fn spatial_empirical_bayes_on_a_complete_graph_equals_global_empirical_bayes() {
    let n = 4;
    let w = Weights::from_lists(
        (0..n)
            .map(|i| (0..n).filter(|&j| j != i).collect())
            .collect(),
    )
    .unwrap();
    let births = [1000.0, 200.0, 50.0, 3000.0].map(Some);
    let deaths = [8.0, 4.0, 0.0, 15.0].map(Some);
    let seb = spatial_eb(&deaths, &births, &w).unwrap();
    let eb = global_eb(&deaths, &births).unwrap();
    for (a, b) in seb.iter().zip(&eb.rates) {
        assert!((a.unwrap() - b.unwrap()).abs() < 1e-12);
    }
}

#[test]
fn hand_made_weights_must_be_symmetric() {
    assert!(Weights::from_lists(vec![vec![1], vec![]]).is_err());
    assert!(Weights::from_lists(vec![vec![0]]).is_err());
    assert!(Weights::from_lists(vec![vec![1], vec![0]]).is_ok());
}

/// Queen neighbours of the six cells: the rook pairs and the corner contacts A–D, B–C, D–E,
/// found alike from the topology's decoded arcs and from the GeoJSON's vertices.
#[test]
fn corners_make_queen_neighbours_in_both_formats() {
    let layer = six_cells_topology();
    let w = Weights::queen(&layer).unwrap();
    assert_eq!(codes_of(&layer, &w, "A"), ["B", "C", "D"]);
    assert_eq!(codes_of(&layer, &w, "B"), ["A", "C", "D", "E"]);
    assert_eq!(codes_of(&layer, &w, "C"), ["A", "B", "D"]);
    assert_eq!(codes_of(&layer, &w, "D"), ["A", "B", "C", "E"]);
    assert_eq!(codes_of(&layer, &w, "E"), ["B", "D"]);
    assert_eq!(w.islands(), vec![layer.index_of("F").unwrap()]);
    let geo = GeoLayer::from_str(include_str!("data/six_cells.geojson"), None, &keys()).unwrap();
    assert_eq!(Weights::queen(&geo).unwrap(), w);
}
