//! Tests of year_map.rs.

use super::*;
use crate::geometry::PropertyKeys;

/// Two squares sharing an edge, as GeoJSON, codes 01101 and 01107.
fn two_squares() -> GeoLayer {
    let text = r#"{"type":"FeatureCollection","features":[
      {"type":"Feature","properties":{"code":"01101","name":"Iquique"},"geometry":{"type":"Polygon","coordinates":[[[-70,-20],[-69,-20],[-69,-21],[-70,-21],[-70,-20]]]}},
      {"type":"Feature","properties":{"code":"01107","name":"Alto, \"Hospicio\""},"geometry":{"type":"Polygon","coordinates":[[[-69,-20],[-68,-20],[-68,-21],[-69,-21],[-69,-20]]]}}]}"#;
    let keys = PropertyKeys {
        name: Some("name".into()),
        ..PropertyKeys::code_only("code")
    };
    GeoLayer::from_str(text, None, &keys).unwrap()
}

#[test]
fn map_texts_render_in_both_languages_and_carry_the_date() {
    let measures = [
        Measure::Rate(Smoothing::None),
        Measure::Rate(Smoothing::GlobalEb),
        Measure::Rate(Smoothing::SpatialEb),
        Measure::ExcessRisk,
        Measure::Column("pobreza".into()),
    ];
    for m in &measures {
        let en = m.text_in(Lang::En, "2021", "x.csv", "chilemapas", Some("2026-11-30"));
        let es = m.text_in(Lang::Es, "2021", "x.csv", "chilemapas", Some("2026-11-30"));
        assert_ne!(en.subtitle, es.subtitle);
        assert_eq!(
            (en.no_data.as_str(), es.no_data.as_str()),
            ("No data", "Sin datos")
        );
        assert!(es.source[0].starts_with("Datos del usuario (x.csv). Límites: chilemapas."));
        assert!(en.source[1].ends_with(" · 2026-11-30"));
        assert!(en.metadata.as_deref().unwrap().contains("2026-11-30"));
        // Without a date the English texts are those of `text`, as the snapshots fix them.
        assert_eq!(
            m.text_in(Lang::En, "2021", "x.csv", "g", None),
            m.text("2021", "x.csv", "g")
        );
    }
    let es = Measure::Rate(Smoothing::None).text_in(Lang::Es, "2021", "x", "g", None);
    assert_eq!(es.title, "Tasa de mortalidad infantil");
    assert_eq!(
        crate::svg::method_note(
            &crate::classify::Method::Quantile { classes: 5 },
            5,
            Lang::Es
        ),
        "Clases: cuantiles, 5 clases"
    );
}

#[test]
fn rows_are_aligned_to_areas_and_unmatched_codes_are_listed_on_both_sides() {
    let layer = two_squares();
    // "1107" is 01107 written as a number; 99999 has no area; 01101 has no row.
    let data = YearData::from_rows(
        &layer,
        &["1107", "99999"],
        &[Some(2.0), Some(1.0)],
        &[Some(400.0), Some(10.0)],
        Some(&[Some(0.5), Some(0.7)]),
    );
    assert_eq!(data.deaths, vec![None, Some(2.0)]);
    assert_eq!(data.births, vec![None, Some(400.0)]);
    assert_eq!(data.column, vec![None, Some(0.5)]);
    assert_eq!(data.matching.unmatched_data, vec!["99999".to_string()]);
    assert_eq!(data.matching.unmatched_geometry, vec!["01101".to_string()]);
}

/// The two squares with deaths [8, 4] and births [1000, 200], and their rook weights.
fn eight_and_four() -> (GeoLayer, YearData, Weights) {
    let layer = two_squares();
    let data = YearData::from_rows(
        &layer,
        &["01101", "01107"],
        &[Some(8.0), Some(4.0)],
        &[Some(1000.0), Some(200.0)],
        None,
    );
    let weights = Weights::rook(&layer).unwrap();
    (layer, data, weights)
}

/// Deaths [8, 4], births [1000, 200]: pooled rate 12/1200 = 10 per 1,000; raw rates 8 and 20;
/// excess risk 8/10 = 0.8 and 4/2 = 2.
#[test]
fn excess_risk_is_observed_over_expected_at_the_pooled_rate() {
    let (_, data, weights) = eight_and_four();
    let ratio = Measure::ExcessRisk.values(&data, &weights).unwrap();
    assert!((ratio[0].unwrap() - 0.8).abs() < 1e-12);
    assert!((ratio[1].unwrap() - 2.0).abs() < 1e-12);
    let raw = Measure::Rate(Smoothing::None)
        .values(&data, &weights)
        .unwrap();
    assert_eq!(raw, vec![Some(8.0), Some(20.0)]);
    assert_eq!(
        Measure::ExcessRisk.text("2019", "d.csv", "b").legend_title,
        "Observed / expected"
    );
}

/// 8 deaths in 1,000 births: Garwood 95% interval 3.4538–15.7632 deaths (χ²(0.025; 16)/2 = 6.907664/2 and χ²(0.975; 18)/2 = 31.526378/2, chi-square
/// quantiles, as the Data view), so 3.453832–15.763189 per 1,000.
#[test]
fn the_data_table_has_one_line_per_area_with_interval_smoothed_rates_and_class() {
    let (layer, data, weights) = eight_and_four();
    let measure = Measure::Rate(Smoothing::None);
    let values = measure.values(&data, &weights).unwrap();
    let (classification, _) =
        colour_values(&values, &Method::Quantile { classes: 2 }, Scheme::YlOrRd, 1).unwrap();
    let csv = map_csv(&layer, &weights, "2019", &data, &values, &classification);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("code,name,year,births,deaths,rate_per_1000,ci95_low"));
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&first[..6], &["01101", "Iquique", "2019", "1000", "8", "8"]);
    let low: f64 = first[6].parse().unwrap();
    let high: f64 = first[7].parse().unwrap();
    assert!((low - 3.453832).abs() < 1e-5, "{low}");
    assert!((high - 15.763189).abs() < 1e-5, "{high}");
    // Full precision: the text reads back to the engine's f64, bit for bit.
    let exact = imr_stats::poisson::poisson_exact_interval(8.0, CONFIDENCE_LEVEL).unwrap();
    assert_eq!(low.to_bits(), (exact.lower * (1000.0 / 1000.0)).to_bits());
    assert_eq!(high.to_bits(), (exact.upper * (1000.0 / 1000.0)).to_bits());
    assert!(first[6].len() > "3.453832".len(), "{}", first[6]);
    assert_eq!(first[10], "0.8");
    assert_eq!(first[12], "0");
    // A name with a comma and quotes is quoted.
    assert!(lines[2].starts_with("01107,\"Alto, \"\"Hospicio\"\"\",2019,200,4,20,"));
    assert!(lines[2].ends_with(",2,20,1,,"));
}

/// The second square flagged: left out, it has no value and no class, is drawn with the
/// flagged cross-hatch in its own legend row (not as no data), and the first square's excess
/// risk is its own pooled rate (8/8 = 1, not 0.8); the CSV keeps its counts and raw rate and
/// classes it `flagged`. Included, it is classed and outlined.
#[test]
fn flagged_areas_are_left_out_of_values_classes_and_estimates_unless_included() {
    let (layer, data, weights) = eight_and_four();
    let flagged = [false, true];
    let kept = data.without(&flagged);
    assert_eq!(kept.deaths, vec![Some(8.0), None]);
    assert_eq!(kept.births, vec![Some(1000.0), None]);
    let method = Method::EqualInterval { classes: 2 };
    let values = Measure::ExcessRisk.values(&kept, &weights).unwrap();
    assert_eq!(values, vec![Some(1.0), None]);
    let (classification, colouring) = colour_values_flagged(
        &values,
        &flagged,
        false,
        &method,
        Scheme::YlOrRd,
        2,
        Lang::En,
    )
    .unwrap();
    assert_eq!(classification.class_of, vec![Some(0), None]);
    assert_eq!((classification.no_data, colouring.no_data), (0, 0));
    assert_eq!(colouring.left_out, vec![false, true]);
    assert_eq!(colouring.class_name(1), "flagged");
    assert_eq!(colouring.fill_of(1), crate::colour::FLAGGED_FILL);
    assert_eq!(
        colouring.flagged_note,
        "1 implausible row left out of the map figures"
    );
    let layout =
        crate::layout::MapLayout::build(&layer, &crate::layout::LayoutSpec::auto(&layer)).unwrap();
    let text = Measure::ExcessRisk.text("2019", "d.csv", "b");
    let svg = crate::svg::choropleth_svg(&layout, &colouring, &text);
    assert!(svg.contains(crate::svg::FLAGGED_PATTERN));
    assert!(svg.contains(
        "data-code=\"01107\" data-class=\"flagged\" data-value=\"\" data-flagged=\"true\""
    ));
    assert!(svg.contains("<g data-legend-class=\"flagged\">"));
    assert!(svg.contains("Flagged, left out <tspan fill=\"#666666\">(1)</tspan>"));
    // as a copy of 2018: every row names the year it repeats; the second area's deaths
    // reconstructed from a published rate
    let year = CsvYear {
        label: "2019",
        copy_of: Some(2018),
        deaths_reconstructed: &[false, true],
    };
    let csv = map_csv_left_out(
        &layer,
        &weights,
        year,
        (&data, &flagged),
        &values,
        &classification,
        imr_escape::CsvOptions::default(),
    );
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].ends_with(",value,class,copy_of_year,deaths_reconstructed"),
        "{}",
        lines[0]
    );
    assert!(lines[1].ends_with(",1,1,0,2018,"), "{}", lines[1]);
    assert!(lines[2].contains(",2019,200,4,20,"), "{}", lines[2]);
    assert!(lines[2].ends_with(",,,,,flagged,2018,true"), "{}", lines[2]);

    let values = Measure::ExcessRisk.values(&data, &weights).unwrap();
    let (classification, colouring) = colour_values_flagged(
        &values,
        &flagged,
        true,
        &method,
        Scheme::YlOrRd,
        2,
        Lang::Es,
    )
    .unwrap();
    assert_eq!(classification.class_of, vec![Some(0), Some(1)]);
    assert!(colouring.left_out.is_empty());
    assert_eq!(colouring.flagged, vec![false, true]);
    assert_eq!(
        colouring.flagged_note,
        "1 valor(es) marcado(s) incluido(s) en los cortes"
    );
    let svg = crate::svg::choropleth_svg(&layout, &colouring, &text);
    assert!(!svg.contains("id=\"flagged\"") && !svg.contains("data-legend-class=\"flagged\""));
}
