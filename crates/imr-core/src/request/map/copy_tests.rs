//! The map of a year the source copied from the one before says so (issue 42.4).

use super::*;
use crate::test_support::bundled_panel;

/// A rate map of a year that copies the one before says so under its legend (SVG and page
/// alike), in the funnel's year and in the summary; the year it copies is drawn as it is.
#[test]
fn a_copied_years_map_says_it_is_a_copy() {
    let bundled = bundled_panel();
    let mut csv = String::from("codigo,anio,nacidos_vivos,defunciones\n");
    for i in (0..bundled.len()).filter(|&i| bundled.time_values()[i] == 2021) {
        let row = bundled.row(i);
        if let (Some(b), Some(d)) = (row.births, row.deaths) {
            for year in [2021, 2022] {
                csv += &format!("{},{year},{b},{d}\n", bundled.entity(i));
            }
        }
    }
    let panel = crate::test_support::panel_of(&csv);
    let boundaries = Boundaries {
        text: crate::data::BOUNDARIES_TOPOJSON.to_string(),
        name: "comunas.topojson".into(),
        credit: imr_map::year_map::BUNDLED_CREDIT.into(),
    };
    let context = MapContext {
        source: "tasas.csv",
        today: "2026-12-05",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: true,
    };
    let map = |year, lang| {
        let request = MapRequest {
            year,
            lang,
            ..MapRequest::default()
        };
        request.run(&panel, &boundaries, context).unwrap()
    };
    let copy = map(2022, Lang::Es);
    assert_eq!(copy.summary.copy_of, Some(2021));
    assert!(
        copy.svg.contains("data-testid=\"legend-copy\""),
        "{}",
        copy.svg
    );
    assert!(copy.svg.contains("2022 es una copia de 2021"));
    // Beside the year in the corner too, where a cropped picture of the map keeps it.
    assert!(
        copy.svg.contains("data-testid=\"map-year-note\" x=\"")
            && copy.svg.contains(">(copia de 2021)</text>")
    );
    // The data CSV names the copied year in each commune's row (`copy_of_year`).
    let body = crate::provenance::csv_body(&copy.csv);
    assert!(
        body.starts_with("code,")
            && (body.lines().next().unwrap()).ends_with(",copy_of_year,deaths_reconstructed")
    );
    // (a commune without a row that year is no copy: empty, as a commune not in her file)
    for line in body.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let mark = if cells[3].is_empty() { "" } else { "2021" };
        // copy_of_year, then deaths_reconstructed (counted deaths here: empty)
        assert_eq!(cells[cells.len() - 2..], [mark, ""], "{line}");
    }
    assert!(
        body.lines().any(|l| l.split(',').nth(3) == Some("")),
        "{body}"
    );
    assert!(crate::provenance::csv_body(&map(2021, Lang::Es).csv)
        .lines()
        .skip(1)
        .all(|l| l.ends_with(',')));
    let funnel = copy.funnel_svg.unwrap();
    assert!(funnel.contains("2022 (copia de 2021)"), "{funnel}");
    let en = map(2022, Lang::En);
    assert!(en.svg.contains("2022 is a copy of 2021"));
    let original = map(2021, Lang::Es);
    assert_eq!(original.summary.copy_of, None);
    assert!(!original.svg.contains("legend-copy"));
    assert!(!original.funnel_svg.unwrap().contains("copia"));
    // Serialised, the summary names the copy only when there is one.
    let json = serde_json::to_string(&copy.summary).unwrap();
    assert!(json.contains("\"copy_of\":2021"));
    assert!(!serde_json::to_string(&original.summary)
        .unwrap()
        .contains("copy_of"));
}

/// A rate map of a year whose deaths were reconstructed from SINIM's rates (the bundled 2021)
/// says so beside the year and under its legend, in the funnel's year and in the summary; a
/// year of INE's counts (2015) says nothing of it, and neither does a map of a column.
#[test]
fn a_reconstructed_years_map_says_its_deaths_are_reconstructed() {
    let panel = bundled_panel();
    let boundaries = Boundaries {
        text: crate::data::BOUNDARIES_TOPOJSON.to_string(),
        name: "comunas.topojson".into(),
        credit: imr_map::year_map::BUNDLED_CREDIT.into(),
    };
    let context = MapContext {
        source: crate::data::BUNDLED_PANEL_FILE,
        today: "2026-12-05",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: true,
    };
    let map = |year, lang, column: Option<&str>| {
        let request = MapRequest {
            year,
            lang,
            value: column.map(str::to_owned),
            ..MapRequest::default()
        };
        request.run(&panel, &boundaries, context).unwrap()
    };
    let es = map(2021, Lang::Es, None);
    assert!(es.summary.deaths_reconstructed);
    assert!(
        es.svg.contains(">(defunciones reconstruidas)</text>"),
        "{}",
        es.svg
    );
    assert!(
        es.svg.contains("data-testid=\"legend-copy\"")
            && es
                .svg
                .contains("Las defunciones de 2021 no son conteos publicados"),
        "{}",
        es.svg
    );
    let funnel = es.funnel_svg.unwrap();
    assert!(
        funnel.contains("2021 (defunciones reconstruidas)"),
        "{funnel}"
    );
    let en = map(2021, Lang::En, None);
    assert!(en
        .svg
        .contains("The deaths of 2021 are not published counts"));
    // The map's CSV marks each commune's reconstructed deaths, as the rates CSV its rows:
    // every commune with deaths in 2021 (the map says "341 de 341"), none in 2015.
    let marked = |csv: &str| {
        let body = crate::provenance::csv_body(csv);
        (body.lines().skip(1))
            .filter(|l| l.ends_with(",true"))
            .count()
    };
    assert_eq!(marked(&es.csv), 341);
    let counted = map(2015, Lang::Es, None);
    assert_eq!(marked(&counted.csv), 0);
    assert!(!counted.summary.deaths_reconstructed);
    assert!(!counted.svg.contains("reconstru"));
    assert!(!serde_json::to_string(&counted.summary)
        .unwrap()
        .contains("deaths_reconstructed"));
    let column = map(2021, Lang::Es, Some("pobreza"));
    assert!(!column.svg.contains("reconstru"));
}
