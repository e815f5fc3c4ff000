//! The page's stages against `run`, on the bundled data.

use super::*;
use crate::plausibility::Plausibility;
use crate::request::BoundaryProblem;
use imr_map::geometry::PropertyKeys;

use crate::test_support::bundled_panel;

/// The stages the page runs on boundaries decoded once (year slice, colour, LISA) and the
/// files it writes from them give the SVG, CSV and funnel plot of `run` (what `imr map`
/// writes), byte for byte; and the table's rates are the CSV's columns.
#[test]
fn the_pages_stages_draw_what_run_draws() {
    let panel = bundled_panel();
    let boundaries = Boundaries {
        text: crate::data::BOUNDARIES_TOPOJSON.to_string(),
        name: "comunas.topojson".into(),
        credit: imr_map::year_map::BUNDLED_CREDIT.into(),
    };
    let context = MapContext {
        source: "chile_imr_2001_2021.csv",
        today: "2026-12-01",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: true,
    };
    let prepared =
        PreparedBoundaries::prepare(&boundaries.text, None, &PropertyKeys::default()).unwrap();
    let layer = &prepared.layer;
    let flags = Plausibility::check(&panel);
    let requests = [
        MapRequest {
            year: 2021,
            moran: Some(99),
            ..MapRequest::default()
        },
        MapRequest {
            year: 2021,
            lang: Lang::Es,
            smooth: Smooth::SpatialEb,
            scheme: ClassScheme::Jenks,
            classes: 4,
            include_flagged: true,
            contiguity: Contiguity::Rook,
            ..MapRequest::default()
        },
        MapRequest {
            year: 2019,
            smooth: Smooth::ExcessRisk,
            scheme: ClassScheme::Box,
            moran: Some(99),
            lisa: true,
            ..MapRequest::default()
        },
    ];
    for request in requests {
        let weights = prepared.weights(request.contiguity);
        let whole = request.run(&panel, &boundaries, context).unwrap();
        let validated = request.validate(&panel).unwrap();
        let slice = validated.year_slice(layer).unwrap();
        // The year's areas are flagged as the plausibility rule every view shares says.
        for (a, area) in layer.areas.iter().enumerate() {
            let row = slice
                .data
                .matching
                .area_of_entity
                .iter()
                .position(|&x| x == Some(a));
            assert_eq!(
                slice.flagged[a],
                row.is_some() && flags.is_flagged(&area.code, request.year)
            );
        }
        let credits = MapCredits {
            source: context.source,
            boundaries: &boundaries.credit,
            today: context.today,
        };
        let coloured = validated.colour(&slice, weights, credits).unwrap();
        let lisa = request.lisa.then(|| {
            (validated.lisa_colouring(&coloured.values, &slice, weights))
                .unwrap()
                .0
        });
        let figure = MapFigure {
            map: &validated,
            boundaries: &prepared,
            slice: &slice,
            values: &coloured.values,
            classification: &coloured.classification,
            colouring: lisa.as_ref().unwrap_or(&coloured.colouring),
            text: &coloured.text,
        };
        let write = |export: MapExport| export.write(&figure, context.csv).unwrap();
        assert_eq!(write(MapExport::Map), whole.svg, "{request:?}");
        assert_eq!(write(MapExport::Data), whole.csv, "{request:?}");
        assert_eq!(
            Some(write(MapExport::Funnel)),
            whole.funnel_svg,
            "{request:?}"
        );
        let moran = validated.moran_test(&coloured.values, &slice, weights);
        assert_eq!(moran.is_some(), request.moran.is_some());
        if let Some(m) = moran {
            let m = m.unwrap();
            let summary = whole.summary.moran.as_ref().unwrap();
            assert_eq!(m.i, summary.i);
            assert_eq!(Some(m.z_norm), summary.z_norm);
            assert_eq!(m.p_rand, summary.p_rand);
            let eb = validated.eb_moran_test(&slice, weights).unwrap().unwrap();
            assert_eq!(Some(eb.i), whole.summary.eb_moran.as_ref().map(|m| m.i));
        }
        assert_eq!(whole.summary.contiguity, request.contiguity.name());

        let rates = AreaRates::of(&slice, weights);
        let number = imr_map::year_map::csv_number;
        let lines: Vec<&str> = whole.csv.lines().skip(1).collect();
        assert_eq!(lines.len(), layer.areas.len());
        let mut checked = 0;
        for (a, line) in lines.iter().enumerate() {
            // code, name, year, births, deaths, rate, ci low, ci high, eb, seb, excess, value,
            // class, copy_of_year, deaths_reconstructed (names hold no commas on the bundled
            // boundaries: checked by the count).
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() != 15 {
                continue;
            }
            let ours = [
                number(rates.rate_per_1000[a]),
                number(rates.ci95_low[a]),
                number(rates.ci95_high[a]),
                number(rates.eb_global[a]),
                number(rates.eb_spatial[a]),
                number(rates.excess_risk[a]),
            ];
            assert_eq!(
                &fields[5..11],
                &ours.each_ref().map(String::as_str),
                "{line}"
            );
            checked += 1;
        }
        assert!(checked > 300, "{checked} lines checked");
    }
}

/// Boundaries that cannot be read are an error value naming the file: `imr map` prints its
/// English `Display`, and the Spanish text has the map engine's reason in Spanish too.
#[test]
fn unreadable_boundaries_are_a_value_in_either_language() {
    let panel = bundled_panel();
    let boundaries = Boundaries {
        text: r#"{"type":"Topology","arcs":[[[0,0],[1,0]]],"objects":{"x":{"type":"Polygon","arcs":[[4]]}}}"#.into(),
        name: "limites.topojson".into(),
        credit: String::new(),
    };
    let context = MapContext {
        source: "chile_imr_2001_2021.csv",
        today: "2026-12-01",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: false,
    };
    let request = MapRequest {
        year: 2021,
        ..MapRequest::default()
    };
    let error = request.run(&panel, &boundaries, context).unwrap_err();
    assert!(
        matches!(
            &error,
            RequestError::Boundaries {
                problem: BoundaryProblem::Geometry(_),
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "limites.topojson: the TopoJSON topology is invalid: object \"x\", ring 0, arc \
         reference 0: arc index 4 (arc 4) does not exist: the topology has 1 arc (indexes 0 to \
         0, or -1 to -1 reversed)"
    );
    assert_eq!(
        error.text(Lang::Es),
        "limites.topojson: no se pueden leer los límites (la topología TopoJSON no es válida: \
         objeto \"x\", anillo 0, referencia a arco 0: el índice de arco 4 (arco 4) no existe: la \
         topología tiene 1 arco (índices 0 a 0, o -1 a -1 invertidos))"
    );
}

/// Data whose codes are none of the boundaries': the error names how many codes there are,
/// examples of both sides and the file's properties (here a US-style county file), in either
/// language; the map is not drawn. When some codes match, the summary says how many.
#[test]
fn boundaries_matching_no_data_code_say_what_each_side_has() {
    let panel = bundled_panel();
    let county = |fips: &str, x: f64| {
        format!(
            r#"{{"type":"Feature","properties":{{"FIPS":"{fips}","NAME":"County {fips}","STATE":"NC"}},"geometry":{{"type":"Polygon","coordinates":[[[{x},35],[{},35],[{},36],[{x},36],[{x},35]]]}}}}"#,
            x + 1.0,
            x + 1.0
        )
    };
    let text = format!(
        r#"{{"type":"FeatureCollection","features":[{},{},{}]}}"#,
        county("37001", -80.0),
        county("37003", -79.0),
        county("37005", -78.0)
    );
    let boundaries = Boundaries {
        text,
        name: "counties.geojson".into(),
        credit: String::new(),
    };
    let context = MapContext {
        source: "chile_imr_2001_2021.csv",
        today: "2026-12-01",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: false,
    };
    let request = MapRequest {
        year: 2015,
        code_property: "FIPS".into(),
        name_property: "NAME".into(),
        ..MapRequest::default()
    };
    let error = request.run(&panel, &boundaries, context).unwrap_err();
    let RequestError::Boundaries {
        name,
        problem: BoundaryProblem::NoCodeMatches(mismatch),
    } = &error
    else {
        panic!("{error:?}")
    };
    assert_eq!(name, "counties.geojson");
    assert_eq!(mismatch.data_codes, 345);
    assert_eq!(mismatch.boundary_examples, ["37001", "37003", "37005"]);
    assert_eq!(mismatch.properties, ["FIPS", "NAME", "STATE"]);
    assert_eq!(
        error.to_string(),
        "counties.geojson: none of these 345 codes is in the boundaries: 01101, 01107, 01401, \
         01402, 01403, … (the boundaries' 3 areas have codes like 37001, 37003, 37005 in the \
         property `FIPS`; the file's properties are FIPS, NAME, STATE)"
    );
    assert_eq!(
        error.text(Lang::Es),
        "counties.geojson: ninguno de estos 345 códigos está en los límites: 01101, 01107, \
         01401, 01402, 01403, … (las 3 áreas de los límites tienen códigos como 37001, 37003, \
         37005 en la propiedad `FIPS`; las propiedades del archivo son FIPS, NAME, STATE)"
    );

    // Two of the bundled communes as boundaries: 2 codes match, the other 343 are listed.
    let two = r#"{"type":"FeatureCollection","features":[
      {"type":"Feature","properties":{"codigo_comuna":"01101","nombre_comuna":"Iquique"},"geometry":{"type":"Polygon","coordinates":[[[-70,-20],[-69,-20],[-69,-21],[-70,-21],[-70,-20]]]}},
      {"type":"Feature","properties":{"codigo_comuna":"01107","nombre_comuna":"Alto Hospicio"},"geometry":{"type":"Polygon","coordinates":[[[-69,-20],[-68,-20],[-68,-21],[-69,-21],[-69,-20]]]}}]}"#;
    let boundaries = Boundaries {
        text: two.into(),
        name: "two.geojson".into(),
        credit: String::new(),
    };
    let request = MapRequest {
        year: 2015,
        ..MapRequest::default()
    };
    let result = request.run(&panel, &boundaries, context).unwrap();
    assert_eq!(result.summary.matched_data, 2);
    assert_eq!(result.unmatched_data.len(), 343);
    assert!(!result.unmatched_data.iter().any(|c| c == "01101"));
}

/// The bundled data have a flagged row in 2021 (General Lagos: one death among one birth, 1,000
/// per 1,000). By default the map leaves it out of everything it estimates: its smoothed rates, classes, Moran's I (plain and EB),
/// LISA and funnel plot are those of the same request on the panel without the flagged rows
/// (`Plausibility::without_flagged`, the rule the other views use), and the flagged communes
/// are drawn as "flagged, left out", not as no data. `include_flagged` brings them back.
#[test]
fn flagged_rows_are_left_out_of_smoothing_moran_lisa_and_funnel_unless_included() {
    let panel = bundled_panel();
    let flags = Plausibility::check(&panel);
    let without = flags.without_flagged(&panel);
    let boundaries = Boundaries {
        text: crate::data::BOUNDARIES_TOPOJSON.to_string(),
        name: "comunas.topojson".into(),
        credit: imr_map::year_map::BUNDLED_CREDIT.into(),
    };
    let context = MapContext {
        source: "chile_imr_2001_2021.csv",
        today: "2026-12-01",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: true,
    };
    let csv_columns = |csv: &str, code: &str| -> Vec<String> {
        let line = csv
            .lines()
            .find(|l| l.starts_with(&format!("{code},")))
            .unwrap_or_else(|| panic!("{code} in the CSV"));
        line.split(',').skip(8).map(str::to_string).collect()
    };
    for (smooth, lisa) in [
        (Smooth::Eb, false),
        (Smooth::SpatialEb, true),
        (Smooth::None, true),
    ] {
        let request = MapRequest {
            year: 2021,
            smooth,
            moran: Some(99),
            lisa,
            ..MapRequest::default()
        };
        let default = request.run(&panel, &boundaries, context).unwrap();
        let reference = MapRequest {
            include_flagged: true,
            ..request.clone()
        }
        .run(&without, &boundaries, context)
        .unwrap();
        let included = MapRequest {
            include_flagged: true,
            ..request.clone()
        }
        .run(&panel, &boundaries, context)
        .unwrap();
        assert_eq!(default.summary.flagged_left_out, ["15202"], "{smooth:?}");
        assert_eq!(default.summary.flagged, included.summary.flagged);
        assert!(included.summary.flagged_left_out.is_empty());
        // Left out: the same estimates as without the rows.
        let (ours, theirs) = (&default.summary, &reference.summary);
        assert_eq!(ours.moran, theirs.moran, "{smooth:?}");
        assert_eq!(ours.eb_moran, theirs.eb_moran, "{smooth:?}");
        assert_eq!(ours.lisa, theirs.lisa, "{smooth:?}");
        assert_eq!(ours.classes, theirs.classes, "{smooth:?}");
        assert_eq!(ours.breaks, theirs.breaks, "{smooth:?}");
        assert_eq!(default.funnel_svg, reference.funnel_svg);
        // The reference has no row there (no data); the default map says why they are empty.
        let reference_no_data = &reference.summary.no_data;
        let default_no_data = &default.summary.no_data;
        assert_eq!(reference_no_data.len(), default_no_data.len() + 1);
        assert!(!default_no_data.iter().any(|c| c == "15202"));
        assert!(default
            .svg
            .contains("data-code=\"15202\" data-class=\"flagged\" data-value=\"\""));
        assert_eq!(default.svg.matches("data-class=\"flagged\"").count(), 1);
        assert!(default
            .svg
            .contains("1 implausible row left out of the map figures"));
        for code in ["15202", "13101", "12101"] {
            let ours = csv_columns(&default.csv, code);
            if code == "15202" {
                // Its counts and raw rate stay in the table; no estimate, class `flagged`; its
                // 2021 deaths reconstructed from SINIM's rate.
                assert_eq!(ours, ["", "", "", "", "flagged", "", "true"]);
                assert!(default.csv.contains("15202,General Lagos,2021,1,1,1000,"));
            } else {
                assert_eq!(ours, csv_columns(&reference.csv, code), "{code}");
            }
        }
        // Included: General Lagos is in the funnel plot, the estimates and the classes.
        assert!(!default
            .funnel_svg
            .as_deref()
            .unwrap()
            .contains("data-code=\"15202\""));
        assert!(included
            .funnel_svg
            .as_deref()
            .unwrap()
            .contains("data-code=\"15202\""));
        let i = |m: &Option<crate::request::MoranSummary>| m.as_ref().map(|m| m.i);
        assert_ne!(i(&default.summary.moran), i(&included.summary.moran));
        assert_ne!(i(&default.summary.eb_moran), i(&included.summary.eb_moran));
        assert!(!included.svg.contains("data-class=\"flagged\""));
        assert_ne!(csv_columns(&included.csv, "15202")[4], "flagged");
    }
}

/// The map credits the bundled panel's institutions by its file name: the two crates' names
/// for that file are one.
#[test]
fn the_map_knows_the_bundled_file_by_its_name() {
    assert_eq!(
        imr_map::svg::BUNDLED_DATA_FILE,
        crate::data::BUNDLED_PANEL_FILE
    );
    assert_eq!(
        imr_map::svg::data_credit(crate::Lang::Es, crate::data::BUNDLED_PANEL_FILE),
        "Datos: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv)"
    );
    assert_eq!(
        imr_map::svg::data_credit(crate::Lang::Es, "mis_datos.csv"),
        "Datos del usuario (mis_datos.csv)"
    );
}
