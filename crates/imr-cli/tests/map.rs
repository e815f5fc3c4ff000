//! `imr map` end to end on a six-commune topology (tests/data/map_cells.topojson: the hand-made
//! cells of crates/imr-map/tests/data/six_cells with CUT codes) and tests/data/map_rates.csv.

mod common;
use common::{cells_2019, fails, succeeds};

fn out_path(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("imr-map-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

fn attribute<'a>(svg: &'a str, code: &str, attr: &str) -> &'a str {
    let start = svg
        .find(&format!("data-code=\"{code}\""))
        .unwrap_or_else(|| panic!("no path for {code}"));
    let rest = &svg[start..];
    let at = rest.find(&format!("{attr}=\"")).unwrap() + attr.len() + 2;
    &rest[at..at + rest[at..].find('"').unwrap()]
}

/// Births and deaths of 2019 are those of the spatial EB worked example in imr-map
/// (smoothing::spatial_eb): La Florida (cell E) → 316/55 = 5.745455, Ñuñoa (cell C, 0 deaths)
/// → 23/4050 per birth = 5.679012 per 1,000. Isla de Pascua has no 2019 row: hatched, no class.
#[test]
fn a_spatial_eb_map_has_one_path_per_commune_with_class_and_value() {
    let out = out_path("seb.svg");
    let run = succeeds(&cells_2019(&[
        "--smooth",
        "spatial-eb",
        "--scheme",
        "quantile",
        "--classes",
        "3",
        "--out",
        &out,
    ]));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("data-testid=\"choropleth\""));
    assert_eq!(svg.matches("<path data-code=").count(), 6);
    assert_eq!(attribute(&svg, "13110", "data-value"), "5.745455");
    assert_eq!(attribute(&svg, "13120", "data-value"), "5.679012");
    assert_eq!(attribute(&svg, "05201", "data-class"), "none");
    assert_eq!(attribute(&svg, "05201", "fill"), "url(#no-data)");
    // Quantile classes: 0 is the lowest.
    assert_eq!(attribute(&svg, "13120", "data-class"), "0");
    assert!(svg.contains(">2019</text>"));
    assert!(svg.contains("spatial"));

    let summary: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(summary["unmatched_data"], serde_json::json!(["13102"]));
    assert_eq!(summary["unmatched_geometry"], serde_json::json!(["05201"]));
    assert_eq!(summary["no_data"], serde_json::json!(["05201"]));
    assert_eq!(summary["smoothing"], "spatial-eb");
    let counts: Vec<u64> = summary["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 5);
    assert!(String::from_utf8_lossy(&run.stderr).contains("13102"));
}

#[test]
fn the_same_options_write_the_same_bytes() {
    let (a, b) = (out_path("a.svg"), out_path("b.svg"));
    for out in [&a, &b] {
        succeeds(&cells_2019(&[
            "--smooth",
            "eb",
            "--scheme",
            "jenks",
            "--classes",
            "3",
            "--out",
            out,
            "--moran",
            "49",
        ]));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// Excess risk of 2019: pooled rate θ = ΣO/ΣP over the five matched communes (13102 has no
/// boundary) = 29/4750, ER = O / (θ·P); for 13101 (8 deaths, 1,000 births) 8·4750/29000 =
/// 1.310345. The CSV carries the same number as the SVG.
#[test]
fn an_excess_risk_map_and_its_data_table_agree() {
    let (out, csv) = (out_path("er.svg"), out_path("er.csv"));
    let run = succeeds(&cells_2019(&[
        "--smooth",
        "excess-risk",
        "--out",
        &out,
        "--csv",
        &csv,
    ]));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("Observed / expected"));
    let table = std::fs::read_to_string(&csv).unwrap();
    assert!(table.starts_with("# Source: map_rates.csv\n"));
    let lines: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 1 + 6, "a line per commune of the boundaries");
    let line = lines.iter().find(|l| l.starts_with("13101,")).unwrap();
    let fields: Vec<&str> = line.split(',').collect();
    let (births, deaths): (f64, f64) = (fields[3].parse().unwrap(), fields[4].parse().unwrap());
    let summary: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(summary["smoothing"], "excess-risk");
    assert_eq!(fields[11], attribute(&svg, "13101", "data-value"));
    assert_eq!(fields[10], fields[11]);
    assert_eq!(fields[11], "1.310345");
    assert_eq!((births, deaths), (1000.0, 8.0));
}

#[test]
fn another_column_can_be_mapped_and_a_funnel_plot_written() {
    let (out, funnel) = (out_path("pobreza.svg"), out_path("funnel.svg"));
    succeeds(&cells_2019(&[
        "--value", "pobreza", "--scheme", "box", "--out", &out, "--funnel", &funnel,
    ]));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(attribute(&svg, "13110", "data-value"), "12.7");
    assert!(svg.contains("Box map (hinge 1.5)"));
    let funnel_svg = std::fs::read_to_string(&funnel).unwrap();
    assert_eq!(funnel_svg.matches("<circle data-code=").count(), 5);
}

#[test]
fn smoothing_another_column_is_a_usage_error() {
    let stderr = fails(
        2,
        &cells_2019(&[
            "--value",
            "pobreza",
            "--smooth",
            "eb",
            "--out",
            &out_path("x.svg"),
        ]),
    );
    assert!(stderr.contains("--smooth"), "{stderr}");
}

#[test]
fn a_year_without_data_is_an_input_error_listing_the_years() {
    let err = fails(
        1,
        &[
            "map",
            "tests/data/map_rates.csv",
            "--year",
            "2031",
            "--geometry",
            "tests/data/map_cells.topojson",
            "--out",
            &out_path("y.svg"),
        ],
    );
    assert!(err.contains("2031") && err.contains("2019, 2020"), "{err}");
}

#[test]
fn a_missing_code_property_names_the_file_and_the_property() {
    let err = fails(
        1,
        &cells_2019(&["--code-property", "cut", "--out", &out_path("z.svg")]),
    );
    assert!(
        err.contains("map_cells.topojson") && err.contains("`cut`"),
        "{err}"
    );
}

/// The bundled data, 2023: commune 15202 (General Lagos) has a published rate of 1000 per 1,000
/// on 9 children aged 0, which the plausibility rules flag. By default it is left out of the
/// class breaks (the top class stays far below 1000 and is open-ended) but still drawn, in the
/// top class, outlined; `--include-flagged` puts it back into the breaks.
#[test]
fn flagged_values_are_left_out_of_the_breaks_unless_included() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../public/data/chile_imr_2019_2023.csv"
    );
    let run_map = |name: &str, extra: &[&str]| {
        let out = out_path(name);
        let mut args = vec![
            "map",
            data,
            "--births",
            "nacidos_vivos_est",
            "--year",
            "2023",
            "--out",
            &out,
        ];
        args.extend_from_slice(extra);
        let run = succeeds(&args);
        let summary: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        (summary, std::fs::read_to_string(&out).unwrap())
    };

    let (summary, svg) = run_map("flags-default.svg", &[]);
    // Nine more 2023 rows are flagged (rates given on fewer than 10 births); all are left out.
    let flagged = summary["flagged"].as_array().unwrap();
    assert!(flagged.contains(&serde_json::json!("15202")), "{flagged:?}");
    assert_eq!(summary["flagged_in_breaks"], false);
    let classes = summary["classes"].as_array().unwrap();
    let top = classes.last().unwrap();
    assert!(top["upper"].is_null(), "top class open-ended: {top}");
    let top_lower = top["lower"].as_f64().unwrap();
    assert!(top_lower < 100.0, "{top}");
    assert!(!top["label"].as_str().unwrap().contains("1000"), "{top}");
    let top_class = (classes.len() - 1).to_string();
    assert_eq!(attribute(&svg, "15202", "data-class"), top_class);
    assert_eq!(attribute(&svg, "15202", "data-value"), "1000");
    assert_eq!(attribute(&svg, "15202", "data-flagged"), "true");
    assert_eq!(svg.matches("data-flagged=\"true\"").count(), flagged.len());
    assert!(svg.contains(&format!(
        "{} flagged value(s) left out of the class breaks",
        flagged.len()
    )));

    let (summary, svg) = run_map("flags-included.svg", &["--include-flagged"]);
    assert_eq!(summary["flagged_in_breaks"], true);
    let top = summary["classes"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(top["upper"].as_f64(), Some(1000.0), "{top}");
    assert!(svg.contains(&format!(
        "{} flagged value(s) included in the class breaks",
        flagged.len()
    )));
}
