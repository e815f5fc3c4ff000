//! The legend covers no commune with data and the insets' labels are not cut off (issue 42):
//! on the exported map of a few communes (their focused layout), on the whole country, and on
//! the page's map zoomed on them, at a desktop's and a phone's legend size.

use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::{LayoutSpec, MapLayout};
use imr_map::placement::{
    contains, label_box, label_font, label_font_shown, legend_candidates, legend_spot, overlaps,
    LEGEND_GAP,
};
use imr_map::projection::Rect;
use proptest::prelude::*;

fn chile() -> (GeoLayer, MapLayout) {
    let topology = include_str!("../../../public/data/comunas.topojson");
    let layer = GeoLayer::from_str(topology, None, &PropertyKeys::default()).unwrap();
    let layout = MapLayout::build(&layer, &LayoutSpec::chile()).unwrap();
    (layer, layout)
}

/// The 21 Santiago communes of the upload (13101–13121, La Pintana 13112 among them).
fn santiago() -> Vec<String> {
    (13101..=13121).map(|c| c.to_string()).collect()
}

/// The sets of the test: Santiago's 21, five in the far north, a few scattered over the
/// country, and Concepción's five of the focus tests.
fn sets() -> Vec<(&'static str, Vec<String>)> {
    let codes = |cs: &[&str]| cs.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    vec![
        ("santiago", santiago()),
        (
            "far north",
            codes(&["15101", "15102", "01101", "01107", "02101"]),
        ),
        (
            "scattered",
            codes(&["15101", "04101", "05101", "08101", "10101", "12101"]),
        ),
        (
            "concepcion",
            codes(&["08101", "08102", "08103", "08108", "08110"]),
        ),
    ]
}

fn has_data(layer: &GeoLayer, codes: &[String]) -> Vec<bool> {
    let mut has = vec![false; layer.areas.len()];
    for code in codes {
        has[layer.index_of(code).unwrap()] = true;
    }
    has
}

/// The exported map of each set (its focused layout, as `imr map` and the page's download draw
/// it): the legend's box overlaps no shape, and the whole country's legend box none either.
#[test]
fn the_exported_legend_covers_no_commune() {
    let (layer, whole) = chile();
    let all = vec![true; layer.areas.len()];
    for b in whole.data_boxes(&all) {
        assert!(!overlaps(&whole.legend, &b), "whole map: {b:?}");
    }
    for (name, codes) in sets() {
        let focus = MapLayout::build(&layer, &LayoutSpec::focus(codes.clone())).unwrap();
        let has = has_data(&layer, &codes);
        let boxes = focus.data_boxes(&has);
        assert_eq!(boxes.len(), codes.len(), "{name}");
        for b in boxes {
            assert!(!overlaps(&focus.legend, &b), "{name}: legend over {b:?}");
        }
    }
}

/// A layout whose legend box is put over its map has it moved off every drawn shape: to a free
/// spot of the page, else under the map, the page made taller.
#[test]
fn a_legend_put_over_the_map_is_moved_off_it() {
    let (layer, _) = chile();
    let codes = santiago();
    let mut spec = LayoutSpec::focus(codes.clone());
    spec.legend = Rect::new(100.0, 300.0, 150.0, 120.0);
    let moved = MapLayout::build(&layer, &spec).unwrap();
    let all = vec![true; layer.areas.len()];
    assert_ne!(moved.legend, spec.legend);
    assert_eq!(moved.height, spec.height);
    for b in moved.data_boxes(&all) {
        assert!(
            !overlaps(&moved.legend, &b),
            "{:?} over {b:?}",
            moved.legend
        );
    }
    // A legend as large as the page has no free spot: it goes under the map.
    spec.legend = Rect::new(0.0, 0.0, 800.0, 800.0);
    let below = MapLayout::build(&layer, &spec).unwrap();
    let bottom = (below.data_boxes(&all).iter()).fold(0.0, |m: f64, b| m.max(b.y + b.height));
    assert!(below.legend.y > bottom, "{:?} above {bottom}", below.legend);
    assert!(below.height >= below.legend.y + below.legend.height + 60.0);
    for b in below.data_boxes(&all) {
        assert!(!overlaps(&below.legend, &b));
    }
}

/// The page's map opens on the communes with data (the engine's `data_focus`, else the whole
/// page); its legend, `px` CSS pixels on a map `canvas_px` wide, goes where it covers none, or
/// under the map when no spot is free (`covers` > 0, the page's rule): either way it covers none.
/// The 21 Santiago communes and a few scattered have a free spot on a desktop and a phone; the
/// far north's five fill their view too much for a desktop's legend (60 % of a 395 px map's
/// width), Concepción's five for either: those legends go under the map.
#[test]
fn the_page_legend_covers_no_commune_on_a_desktop_and_a_phone() {
    let (layer, layout) = chile();
    let page = Rect::new(0.0, 0.0, layout.width, layout.height);
    // Legend sizes measured on the page (Chromium): a desktop's 395 px map, a 390 px phone's.
    let screens = [
        ("desktop", 395.0, (238.0, 197.0)),
        ("phone", 365.0, (194.0, 152.0)),
    ];
    let mut below = Vec::new();
    for (screen, canvas_px, px) in screens {
        for (name, codes) in sets() {
            let has = has_data(&layer, &codes);
            let view = layout.data_focus(&has).unwrap_or(page);
            let k = view.width / canvas_px;
            let spot = layout.legend_in_view(view, (px.0 * k, px.1 * k), &has, canvas_px);
            assert!(
                contains(&view, &spot.rect),
                "{screen}, {name}: {spot:?} in {view:?}"
            );
            let boxes = layout.data_boxes(&has);
            let hit = boxes.iter().filter(|b| overlaps(&spot.rect, b)).count();
            assert!(hit <= spot.covers, "{screen}, {name}: {spot:?}");
            // Nor an inset's label at the size the page draws it (10,5 px or more on screen:
            // on a phone the legend covered the end of "Región Metropolitana de Santiago").
            let font = label_font_shown(layout.width, view.width, canvas_px);
            if spot.covers == 0 {
                for (_, text, at) in layout.inset_labels_at(view, font) {
                    let b = label_box(&text, at, font);
                    assert!(
                        !overlaps(&spot.rect, &b),
                        "{screen}, {name}: {spot:?} on {text}"
                    );
                }
            }
            if spot.covers > 0 {
                below.push(format!("{screen} {name}"));
            }
        }
    }
    assert_eq!(
        below,
        [
            "desktop far north",
            "desktop concepcion",
            "phone concepcion"
        ]
    );
    // La Pintana, which question 5 names, in particular.
    let has = has_data(&layer, &santiago());
    let view = layout.data_focus(&has).unwrap();
    let size = (238.0 * view.width / 395.0, 197.0 * view.width / 395.0);
    let spot = layout.legend_in_view(view, size, &has, 395.0);
    let la_pintana = layout.primary_shape[layer.index_of("13112").unwrap()].unwrap();
    assert!(!overlaps(&spot.rect, &layout.shapes[la_pintana].bounds));
}

/// Every inset's label lies inside the SVG (the whole map) and inside the view the page opens
/// on (each set's focus); the Santiago inset's reads "Santiago", never a cut "ntiago".
#[test]
fn inset_labels_lie_inside_the_svg_and_the_view() {
    let (layer, layout) = chile();
    let page = Rect::new(0.0, 0.0, layout.width, layout.height);
    let labels = layout.inset_labels(page);
    assert_eq!(labels.len(), 3, "{labels:?}");
    for (_, text, at) in &labels {
        assert!(
            contains(&page, &label_box(text, *at, 11.0)),
            "{text} at {at:?}"
        );
    }
    assert_eq!(labels[0].1, "Región Metropolitana de Santiago");
    for (name, codes) in sets() {
        let view = layout.data_focus(&has_data(&layer, &codes)).unwrap_or(page);
        // The page keeps the label's size on screen: 11 units of the whole map.
        let font = label_font(layout.width, view.width);
        for (_, text, at) in layout.inset_labels(view) {
            let b = label_box(&text, at, font);
            assert!(contains(&view, &b), "{name}: {text} {b:?} {view:?}");
            assert!(
                text.ends_with("Santiago") || !text.contains("Santiago"),
                "{text}"
            );
        }
    }
}

proptest! {
    /// Whatever the boxes, the spot chosen lies in the frame, counts the boxes it overlaps, and
    /// covers none of them when one of the spots tried is free.
    #[test]
    fn a_free_spot_is_found_when_there_is_one(
        boxes in prop::collection::vec((0.0..600.0f64, 0.0..600.0f64, 1.0..200.0f64, 1.0..200.0f64), 0..12),
        w in 20.0..300.0f64,
        h in 20.0..300.0f64,
    ) {
        let frame = Rect::new(0.0, 0.0, 600.0, 600.0);
        let occupied: Vec<Rect> = boxes.iter().map(|&(x, y, bw, bh)| Rect::new(x, y, bw, bh)).collect();
        let spot = legend_spot(frame, (w, h), None, &occupied);
        prop_assert!(contains(&frame, &spot.rect));
        prop_assert_eq!(spot.covers, occupied.iter().filter(|o| overlaps(&spot.rect, o)).count());
        let tried = legend_candidates(frame, (w, h));
        prop_assert_eq!(tried.len(), 8 + 9 * 17);
        prop_assert!(tried.iter().all(|r| contains(&frame.inset(LEGEND_GAP), r)));
        let free = tried.iter().any(|r| !occupied.iter().any(|o| overlaps(r, o)));
        prop_assert_eq!(spot.covers == 0, free);
    }
}
