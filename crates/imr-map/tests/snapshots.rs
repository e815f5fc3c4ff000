//! Byte-for-byte SVG snapshots. Expected files live in tests/snapshots/; after an intended change
//! regenerate them with `UPDATE_EXPECT=1 cargo test -p imr-map --test snapshots` and review the
//! diff like code.

use imr_map::classify::{classify, Method};
use imr_map::colour::Scheme;
use imr_map::funnel::funnel;
use imr_map::funnel_svg::{funnel_svg, FunnelText};
use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::{LayoutSpec, MapLayout};
use imr_map::smoothing::raw_rates;
use imr_map::svg::{choropleth_svg, Colouring, MapText};

/// Compares `actual` with `tests/snapshots/<name>` byte for byte; `UPDATE_EXPECT=1` rewrites it.
fn check_snapshot(name: &str, actual: &str) {
    expect_test::expect_file![format!("snapshots/{name}")].assert_eq(actual);
}

fn six_cells() -> GeoLayer {
    let keys = PropertyKeys {
        name: Some("name".into()),
        ..PropertyKeys::code_only("code")
    };
    GeoLayer::from_str(include_str!("data/six_cells.topojson"), None, &keys).unwrap()
}

fn text(year: &str) -> MapText {
    MapText {
        title: "Infant mortality rate".into(),
        subtitle: "Deaths under 1 year per 1,000 live births".into(),
        legend_title: "Per 1,000 live births".into(),
        year: year.into(),
        year_note: String::new(),
        source: vec![
            "Source: test fixture & hand-made cells".into(),
            "imr-atlas".into(),
        ],
        no_data: "No data".into(),
        metadata: None,
        lang: imr_map::Lang::En,
    }
}

/// Six cells, one without data: quantile classes, the hatched no-data area, legend counts.
#[test]
fn six_cell_quantile_map_matches_its_snapshot() {
    let layer = six_cells();
    let layout = MapLayout::build(&layer, &LayoutSpec::single(500.0, 400.0)).unwrap();
    let births = [
        Some(1000.0),
        Some(200.0),
        Some(50.0),
        Some(3000.0),
        Some(500.0),
        None,
    ];
    let deaths = [
        Some(8.0),
        Some(4.0),
        Some(0.0),
        Some(15.0),
        Some(2.0),
        Some(1.0),
    ];
    let rates = raw_rates(&deaths, &births).unwrap();
    let classes = classify(&rates, &Method::Quantile { classes: 3 }).unwrap();
    let colouring = Colouring::from_classification(&rates, &classes, Scheme::YlOrRd, 1);
    let svg = choropleth_svg(&layout, &colouring, &text("2019"));
    assert_eq!(svg.matches("<path data-code=").count(), 6);
    assert!(svg.contains(r#"data-class="none" data-value="""#));
    check_snapshot("six_cells_quantile.svg", &svg);
}

/// The real 57-commune cut with the national layout: insets, locator box, box map classes.
#[test]
fn chile_subset_box_map_matches_its_snapshot() {
    let layer = GeoLayer::from_str(
        include_str!("data/chile_subset.topojson"),
        None,
        &PropertyKeys::default(),
    )
    .unwrap();
    let layout = MapLayout::build(&layer, &LayoutSpec::chile()).unwrap();
    // A deterministic made-up variable: the code's digits, so the snapshot checks drawing only.
    let values: Vec<Option<f64>> = layer
        .areas
        .iter()
        .map(|a| {
            let n: f64 = a.code.parse().unwrap();
            (a.code != "13130").then_some((n % 97.0) / 7.0)
        })
        .collect();
    let classes = classify(&values, &Method::BoxMap { hinge: 1.5 }).unwrap();
    let colouring = Colouring::from_classification(&values, &classes, Scheme::BuRd, 2);
    let svg = choropleth_svg(&layout, &colouring, &text("2020"));
    assert_eq!(svg.matches("<path data-code=").count(), 57);
    assert_eq!(svg.matches("data-locator=\"santiago\"").count(), 1);
    check_snapshot("chile_subset_box_map.svg", &svg);
}

#[test]
fn funnel_plot_matches_its_snapshot() {
    let layer = six_cells();
    let births = [1000.0, 200.0, 50.0, 3000.0, 500.0, 100.0].map(Some);
    let deaths = [8.0, 4.0, 0.0, 15.0, 2.0, 3.0].map(Some);
    let f = funnel(&deaths, &births, 24).unwrap();
    let codes: Vec<String> = layer.areas.iter().map(|a| a.code.clone()).collect();
    let names: Vec<String> = layer.areas.iter().map(|a| a.name.clone()).collect();
    let svg = funnel_svg(
        &f,
        &codes,
        &names,
        &FunnelText {
            title: "Infant mortality against births".into(),
            year: "2019".into(),
            source: vec!["Source: test fixture".into()],
            lang: imr_map::Lang::En,
            metadata: None,
            width: None,
        },
    );
    assert_eq!(svg.matches("<circle data-code=").count(), 6);
    check_snapshot("funnel_six_cells.svg", &svg);
}

/// Recolouring reuses the layout: two years give the same path data, only fills and values change.
#[test]
fn recolouring_for_another_year_changes_fills_but_not_paths() {
    let layer = six_cells();
    let layout = MapLayout::build(&layer, &LayoutSpec::single(500.0, 400.0)).unwrap();
    let year = |rates: Vec<Option<f64>>| {
        let c = classify(&rates, &Method::EqualInterval { classes: 4 }).unwrap();
        choropleth_svg(
            &layout,
            &Colouring::from_classification(&rates, &c, Scheme::Viridis, 1),
            &text("y"),
        )
    };
    let a = year(vec![
        Some(1.0),
        Some(2.0),
        Some(3.0),
        Some(4.0),
        Some(5.0),
        Some(6.0),
    ]);
    let b = year(vec![
        Some(6.0),
        Some(5.0),
        Some(4.0),
        Some(3.0),
        Some(2.0),
        Some(1.0),
    ]);
    assert_ne!(a, b);
    let paths = |svg: &str| -> Vec<String> {
        svg.split(" d=\"")
            .skip(1)
            .map(|p| p.split('"').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(paths(&a), paths(&b));
}
