use super::*;
use crate::geometry::GeoLayer;

fn chile() -> (GeoLayer, MapLayout) {
    let topology = include_str!("../../../public/data/comunas.topojson");
    let layer = GeoLayer::from_str(topology, None, &Default::default()).unwrap();
    let layout = MapLayout::build(&layer, &LayoutSpec::chile()).unwrap();
    (layer, layout)
}

fn with(layer: &GeoLayer, codes: &[&str]) -> Vec<bool> {
    let mut has = vec![false; layer.areas.len()];
    for code in codes {
        has[layer.index_of(code).unwrap()] = true;
    }
    has
}

/// Santiago's 21 communes of a newcomer's file, without Providencia, Recoleta and the others
/// between them: those are drawn as no data and counted, not left as white holes beside a
/// legend of "no data (0)".
#[test]
fn the_communes_without_data_between_those_with_data_are_drawn_as_no_data() {
    let (layer, layout) = chile();
    let codes = [
        "13101", "13102", "13103", "13104", "13105", "13106", "13107", "13108", "13109", "13110",
        "13111", "13112", "13113", "13114", "13115", "13116", "13117", "13118", "13119", "13120",
        "13121",
    ];
    let has = with(&layer, &codes);
    // Providencia and Recoleta (13123, 13127) have no data; nor do others outside.
    for code in ["13123", "13127"] {
        assert!(!has[layer.index_of(code).unwrap()]);
    }
    let values: Vec<Option<f64>> = (has.iter().enumerate())
        .map(|(a, h)| h.then_some(5.0 + a as f64 / 100.0))
        .collect();
    let method = crate::Method::Quantile { classes: 3 };
    let classification = crate::classify(&values, &method).unwrap();
    let colouring =
        Colouring::from_classification(&values, &classification, crate::colour::Scheme::YlOrRd, 1);
    let text = MapText::for_rates(
        crate::smoothing::Smoothing::None,
        "2021",
        "santiago.csv",
        "chilemapas",
    );
    let (focus, colouring_f, text_f) = focused(&layer, &layout, &colouring, &text).unwrap();
    let svg = crate::svg::choropleth_svg(&focus, &colouring_f, &text_f);
    for hole in ["13123", "13127"] {
        assert!(
            svg.contains(&format!("data-code=\"{hole}\"")),
            "{hole} not drawn"
        );
    }
    assert!(colouring_f.no_data >= 2);
    assert!(svg.contains(&format!(
        "with the {} communes without data between them.",
        colouring_f.no_data
    )));
    // The page's legend counts what the export's does (it counted the whole country's 324).
    let focus = colouring.focus(&layout).unwrap();
    let page = colouring.focused_on(&focus);
    assert_eq!(page.no_data, colouring_f.no_data);
    assert_eq!(colouring.no_data, layer.areas.len() - codes.len());
    assert!(page.no_data < 20, "{}", page.no_data);
    // Those counted are drawn hatched on the page; the rest of the country plain.
    let hatched = (0..layer.areas.len())
        .filter(|&a| page.fill_in(a, Some(&focus)) == crate::colour::NO_DATA_FILL)
        .count();
    assert_eq!(hatched, page.no_data);
    let a = layer.index_of("15101").unwrap();
    assert_eq!(page.fill_in(a, Some(&focus)), OUTSIDE_FILL);
    // Every area is shown with its data, counted as no data among them, or outside: the
    // legend's rows and the note under the map add up to the country.
    let plain = (0..layer.areas.len())
        .filter(|&a| page.fill_in(a, Some(&focus)) == OUTSIDE_FILL)
        .count();
    assert_eq!(focus.outside_count(), plain);
    assert_eq!(
        focus.outside_count() + page.no_data + codes.len(),
        layer.areas.len()
    );
    assert!(outside_note(Lang::Es, focus.outside_count())
        .contains(&format!("las otras {} comunas", focus.outside_count())));
    assert_eq!(page.fill_in(a, None), crate::colour::NO_DATA_FILL);
    let santiago = layer.index_of("13101").unwrap();
    assert_eq!(
        page.fill_in(santiago, Some(&focus)),
        colouring.fill_of(santiago)
    );
}

#[test]
fn framed_keeps_the_centre_and_takes_the_page_shape() {
    let r = Rect::new(10.0, 20.0, 100.0, 10.0).framed(1.15, 0.5);
    assert!((r.x + r.width / 2.0 - 60.0).abs() < 1e-9);
    assert!((r.y + r.height / 2.0 - 25.0).abs() < 1e-9);
    assert!((r.width / r.height - 0.5).abs() < 1e-12);
    assert!((r.width - 115.0).abs() < 1e-9);
    // A point still gets a box.
    let p = Rect::new(5.0, 5.0, 0.0, 0.0).framed(1.15, 1.0);
    assert!(p.width > 0.0 && p.height > 0.0);
}

/// Five communes of Concepción's province are a small part of Chile; all of them, none,
/// or one at each end of the country are not.
#[test]
fn a_few_communes_are_focused_and_most_of_the_country_is_not() {
    let (layer, layout) = chile();
    let few = with(&layer, &["08101", "08102", "08103", "08108", "08110"]);
    let r = layout.data_focus(&few).unwrap();
    let inside = layout
        .bounds_of((0..few.len()).filter(|&a| few[a]))
        .unwrap();
    assert!(r.x <= inside.x && r.y <= inside.y);
    assert!(r.x + r.width >= inside.x + inside.width);
    assert!(r.y + r.height >= inside.y + inside.height);
    assert!(r.width * r.height < 0.1 * layout.width * layout.height);
    let n = layer.areas.len();
    assert_eq!(layout.data_focus(&vec![true; n]), None);
    assert_eq!(layout.data_focus(&vec![false; n]), None);
    assert_eq!(layout.data_focus(&with(&layer, &["15101", "12101"])), None);
    // Five regional capitals from Antofagasta to Temuco: zoomed on, the view cut the
    // Easter Island inset in half, its label floating over the mainland (a newcomer's
    // cinco.csv). Taken whole, the inset makes the view most of the page: the whole map.
    let capitals = with(&layer, &["02101", "04101", "05101", "08101", "09101"]);
    let spread = (layout.bounds_of((0..n).filter(|&a| capitals[a])))
        .unwrap()
        .framed(FRAME_MARGIN, layout.width / layout.height);
    assert!(layout
        .panels
        .iter()
        .any(|p| p.boxed && overlaps(&spread, &p.rect) && !contains(&spread, &p.rect)));
    assert_eq!(layout.data_focus(&capitals), None);
    // Whatever is zoomed on, no other inset is cut: each is wholly in the view or out of it.
    // The capital's communes are drawn in their own inset, the view within it.
    let santiago: Vec<String> = (1..=21).map(|k| format!("131{k:02}")).collect();
    let santiago: Vec<&str> = santiago.iter().map(String::as_str).collect();
    let view = layout.data_focus(&with(&layer, &santiago)).unwrap();
    assert!(view.width < 0.3 * layout.width, "{view:?}");
    for codes in [&["08101", "08102"][..], &["02101", "04101"], &santiago] {
        let has = with(&layer, codes);
        let data = layout.bounds_of((0..n).filter(|&a| has[a])).unwrap();
        if let Some(view) = layout.data_focus(&has) {
            for p in (layout.panels.iter()).filter(|p| p.boxed && !overlaps(&p.rect, &data)) {
                assert!(
                    !overlaps(&view, &p.rect) || contains(&view, &p.rect),
                    "{codes:?}"
                );
            }
        }
    }
}

#[test]
fn the_focused_export_draws_only_the_communes_with_data_and_says_so() {
    let (layer, layout) = chile();
    let codes = ["08101", "08102", "08103", "08108", "08110"];
    let has = with(&layer, &codes);
    let values: Vec<Option<f64>> = (has.iter().enumerate())
        .map(|(a, h)| h.then_some(5.0 + a as f64 / 100.0))
        .collect();
    let method = crate::Method::Quantile { classes: 2 };
    let classification = crate::classify(&values, &method).unwrap();
    let scheme = crate::colour::Scheme::YlOrRd;
    let colouring = Colouring::from_classification(&values, &classification, scheme, 1);
    let text = MapText::for_rates(
        crate::smoothing::Smoothing::None,
        "2021",
        "concepcion.csv",
        "chilemapas",
    );
    let (focus, colouring_f, text_f) = focused(&layer, &layout, &colouring, &text).unwrap();
    let svg = crate::svg::choropleth_svg(&focus, &colouring_f, &text_f);
    let mut drawn: Vec<&str> = svg
        .match_indices("data-code=\"")
        .map(|(i, m)| &svg[i + m.len()..i + m.len() + 5])
        .collect();
    drawn.sort_unstable();
    // The communes with data, and those without that lie wholly among them, as no data.
    let holes: Vec<&str> = drawn
        .iter()
        .copied()
        .filter(|c| !codes.contains(c))
        .collect();
    assert!(codes.iter().all(|c| drawn.contains(c)));
    assert_eq!(colouring_f.no_data, holes.len());
    assert!(svg.contains("Only the 5 communes with data are shown (of 345)"));
    assert!(svg.contains("viewBox=\"0 0 800 800\""));
    // The legend's "no data" counts what is drawn.
    let none = svg.split("data-legend-class=\"none\"").nth(1).unwrap();
    let count = format!("({})", holes.len());
    assert!(
        none[..none.find("</g>").unwrap()].contains(&count),
        "{none}"
    );
    // The whole country is not focused.
    let all: Vec<Option<f64>> = vec![Some(7.5); layer.areas.len()];
    let whole = Colouring::from_classification(&all, &classification, scheme, 1);
    assert!(focused(&layer, &layout, &whole, &text).is_none());
}
