//! The real chilemapas geometry, on a 57-commune cut (tests/data/chile_subset.topojson): decoding,
//! neighbours, and the national layout with its insets.

use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::{LayoutSpec, MapLayout};
use imr_map::weights::Weights;

fn layer() -> GeoLayer {
    GeoLayer::from_str(
        include_str!("data/chile_subset.topojson"),
        None,
        &PropertyKeys::default(),
    )
    .unwrap()
}

#[test]
fn the_chilemapas_topology_decodes_with_accented_names_and_regions() {
    let layer = layer();
    assert_eq!(layer.areas.len(), 57);
    let santiago = &layer.areas[layer.index_of("13101").unwrap()];
    assert_eq!(santiago.name, "Santiago");
    assert_eq!(
        santiago.region_name.as_deref(),
        Some("Metropolitana de Santiago")
    );
    let nunoa = &layer.areas[layer.index_of("13120").unwrap()];
    assert_eq!(nunoa.name, "Ñuñoa");
    // PROVENANCE.md: Santiago's vertices average ≈ (−70.66, −33.45).
    let b = santiago.bounds();
    assert!(
        b[0] < -70.66 && -70.66 < b[2] && b[1] < -33.45 && -33.45 < b[3],
        "{b:?}"
    );
    let pascua = layer.areas[layer.index_of("05201").unwrap()].bounds();
    assert!(pascua[0] < -109.0 && pascua[2] > -109.5);
}

#[test]
fn santiago_communes_have_their_real_neighbours() {
    let layer = layer();
    let w = Weights::rook(&layer).unwrap();
    let codes = |code: &str| -> Vec<String> {
        w.neighbours(layer.index_of(code).unwrap())
            .iter()
            .map(|&j| layer.areas[j].code.clone())
            .collect()
    };
    let santiago = codes("13101");
    // Santiago borders Providencia (13123), Ñuñoa (13120), Estación Central (13106), Recoleta (13127).
    for neighbour in ["13123", "13120", "13106", "13127"] {
        assert!(santiago.contains(&neighbour.to_string()), "{santiago:?}");
    }
    // Las Condes (13114) does not border Santiago.
    assert!(!santiago.contains(&"13114".to_string()));
    // The islands have no neighbour.
    let islands: Vec<&str> = w
        .islands()
        .iter()
        .map(|&i| layer.areas[i].code.as_str())
        .collect();
    for island in ["05201", "05104"] {
        assert!(islands.contains(&island), "{islands:?}");
    }
}

#[test]
fn the_chile_layout_draws_each_commune_once_as_primary_with_insets() {
    let layer = layer();
    let spec = LayoutSpec::auto(&layer);
    assert_eq!(spec, LayoutSpec::chile());
    let layout = MapLayout::build(&layer, &spec).unwrap();
    let ids: Vec<&str> = layout.panels.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["main", "santiago", "pascua", "juan-fernandez"]);
    assert!(layout.not_drawn().is_empty());
    let primaries = layout.shapes.iter().filter(|s| s.primary).count();
    assert_eq!(primaries, 57);
    // The 52 communes of region 13 are primary in the Santiago inset and also drawn in the main map.
    let in_santiago = layout.shapes.iter().filter(|s| s.panel == 1).count();
    assert_eq!(in_santiago, 52);
    assert!(layout
        .shapes
        .iter()
        .filter(|s| s.panel == 1)
        .all(|s| s.primary));
    let main_region13 = layout
        .shapes
        .iter()
        .filter(|s| s.panel == 0 && layer.areas[s.area].region_code.as_deref() == Some("13"))
        .count();
    assert_eq!(main_region13, 52);
    // Every path fits in its panel (1 px tolerance for rounding).
    for s in &layout.shapes {
        let r = layout.panels[s.panel].rect;
        assert!(
            s.bounds.x >= r.x - 1.0
                && s.bounds.y >= r.y - 1.0
                && s.bounds.x + s.bounds.width <= r.x + r.width + 1.0
                && s.bounds.y + s.bounds.height <= r.y + r.height + 1.0,
            "{} in {}",
            layer.areas[s.area].code,
            layout.panels[s.panel].id
        );
        assert!(s.d.starts_with('M') && s.d.ends_with('Z'));
    }
}

/// Valparaíso's Desventuradas islands (≈ 80° W) fall outside the main panel's continental extent,
/// so the national map is not stretched 900 km west; its mainland part is still drawn.
#[test]
fn remote_islands_of_a_mainland_commune_do_not_stretch_the_national_map() {
    let layer = layer();
    let layout = MapLayout::build(&layer, &LayoutSpec::chile()).unwrap();
    let valpo = layer.index_of("05101").unwrap();
    let shape = layout.shapes.iter().find(|s| s.area == valpo).unwrap();
    assert_eq!(shape.panel, 0);
    let main_projection = layout.panels[0].projection;
    let (x_islands, _) = main_projection.screen_from_lonlat(-80.0, -26.3);
    assert!(
        x_islands < layout.panels[0].rect.x,
        "the islands would be at x = {x_islands}"
    );
    // Arica (north) is near the top of the main panel and Laguna Blanca (south) near the bottom.
    let main = layout.panels[0].rect;
    let arica = layout
        .shapes
        .iter()
        .find(|s| s.area == layer.index_of("15101").unwrap())
        .unwrap();
    let laguna = layout
        .shapes
        .iter()
        .find(|s| s.area == layer.index_of("12102").unwrap())
        .unwrap();
    assert!(arica.bounds.y < main.y + 5.0);
    assert!(laguna.bounds.y + laguna.bounds.height > main.y + main.height - 5.0);
}

#[test]
fn region_boxes_enclose_their_communes_for_zoom_to_region() {
    let layer = layer();
    let layout = MapLayout::build(&layer, &LayoutSpec::chile()).unwrap();
    let rm = layout.regions.iter().find(|r| r.code == "13").unwrap();
    assert_eq!(rm.panel, 0);
    assert_eq!(rm.name, "Metropolitana de Santiago");
    for s in layout
        .shapes
        .iter()
        .filter(|s| s.panel == 0 && layer.areas[s.area].region_code.as_deref() == Some("13"))
    {
        assert!(
            s.bounds.x >= rm.rect.x - 1e-9
                && s.bounds.x + s.bounds.width <= rm.rect.x + rm.rect.width + 1e-9
        );
    }
    let codes: Vec<&str> = layout.regions.iter().map(|r| r.code.as_str()).collect();
    assert_eq!(codes, ["05", "12", "13", "15"]);
}

/// The box of a few communes encloses each of their primary shapes and nothing beyond them,
/// and is `None` for no commune drawn (what the page's "Communes with data" zoom fits).
#[test]
fn the_box_of_some_communes_encloses_exactly_their_shapes() {
    let layer = layer();
    let layout = MapLayout::build(&layer, &LayoutSpec::chile()).unwrap();
    let some: Vec<usize> = ["13101", "13120"]
        .iter()
        .map(|c| layer.index_of(c).unwrap())
        .collect();
    let b = layout.bounds_of(some.iter().copied()).unwrap();
    let mut edges = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for &a in &some {
        let r = &layout.shapes[layout.primary_shape[a].unwrap()].bounds;
        assert!(r.x >= b.x - 1e-9 && r.y >= b.y - 1e-9);
        assert!(r.x + r.width <= b.x + b.width + 1e-9);
        assert!(r.y + r.height <= b.y + b.height + 1e-9);
        edges = [
            edges[0].min(r.x),
            edges[1].min(r.y),
            edges[2].max(r.x + r.width),
            edges[3].max(r.y + r.height),
        ];
    }
    // Tight: each edge of the box is an edge of one of the shapes.
    assert_eq!([b.x, b.y, b.x + b.width, b.y + b.height], edges);
    assert!(layout.bounds_of(std::iter::empty()).is_none());
    assert!(layout.bounds_of([usize::MAX]).is_none());
}
