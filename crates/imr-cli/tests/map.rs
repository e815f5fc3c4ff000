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
/// (smoothing::spatial_eb, rook neighbours): La Florida (cell E) → 316/55 = 5.745455, Ñuñoa
/// (cell C, 0 deaths) → 23/4050 per birth = 5.679012 per 1,000. Isla de Pascua has no 2019
/// row: hatched, no class.
#[test]
fn a_spatial_eb_map_has_one_path_per_commune_with_class_and_value() {
    let out = out_path("seb.svg");
    let run = succeeds(&cells_2019(&[
        "--contiguity",
        "rook",
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
    assert_eq!(summary["contiguity"], "rook");
    assert_eq!(summary["matched_data"], 5);
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
    // The CSV has the engine's number in full (8 deaths over 1000 · 29/4750 expected = 38/29
    // in f64), the SVG's data-value the same number to 6 decimals.
    assert_eq!(fields[10], fields[11]);
    assert_eq!(fields[11], "1.3103448275862069");
    assert_eq!(fields[11].parse::<f64>().unwrap(), 38.0 / 29.0);
    assert_eq!(attribute(&svg, "13101", "data-value"), "1.310345");
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

/// Queen is the default: the cells touching at a corner (A–D, B–C, D–E) become neighbours, and
/// the spatial EB rates are esda 2.9.0's `Spatial_Empirical_Bayes` on the queen lists
/// A{B,C,D} B{A,C,D,E} C{A,B,D} D{A,B,C,E} E{B,D} (with libpysal 4.14.1 `W`): La Florida (E)
/// 5.02318271, Ñuñoa (C) 6.10361068 per 1,000. The CSV has the engine's numbers in full, and
/// the summary has Moran's I with its analytical tests and the EB Moran's I.
#[test]
fn queen_neighbours_are_the_default_and_change_the_spatial_eb_rates() {
    let out = out_path("seb-queen.svg");
    let csv = out_path("seb-queen.csv");
    let run = succeeds(&cells_2019(&[
        "--smooth",
        "spatial-eb",
        "--moran",
        "99",
        "--csv",
        &csv,
        "--out",
        &out,
    ]));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(attribute(&svg, "13110", "data-value"), "5.023183");
    assert_eq!(attribute(&svg, "13120", "data-value"), "6.103611");
    let summary: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(summary["contiguity"], "queen");
    for key in ["z_norm", "p_norm", "z_rand", "p_rand"] {
        assert!(
            summary["moran"][key].is_f64(),
            "{key}: {}",
            summary["moran"]
        );
    }
    assert!(summary["eb_moran"]["i"].is_f64(), "{}", summary["eb_moran"]);
    let table = std::fs::read_to_string(&csv).unwrap();
    let line = table
        .lines()
        .find(|l| l.starts_with("13110,"))
        .unwrap()
        .to_string();
    let seb: f64 = line.split(',').nth(9).unwrap().parse().unwrap();
    assert!((seb - 5.02318271).abs() < 1e-8, "{line}");
    assert!(line.split(',').nth(9).unwrap().len() > 10, "{line}");
}

/// A boundary file whose codes are none of the data's: the error says how many data codes
/// there are, what the boundaries' codes look like and which properties the file has.
#[test]
fn boundaries_without_any_data_code_name_both_sides_and_the_files_properties() {
    let path = out_path("counties.geojson");
    std::fs::write(
        &path,
        r#"{"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"FIPS":"37001","NAME":"Alamance"},"geometry":{"type":"Polygon","coordinates":[[[-80,35],[-79,35],[-79,36],[-80,36],[-80,35]]]}},
          {"type":"Feature","properties":{"FIPS":"37003","NAME":"Alexander"},"geometry":{"type":"Polygon","coordinates":[[[-79,35],[-78,35],[-78,36],[-79,36],[-79,35]]]}}]}"#,
    )
    .unwrap();
    let out = out_path("counties.svg");
    let err = fails(
        1,
        &common::map_2019_on(
            &path,
            &[
                "--code-property",
                "FIPS",
                "--name-property",
                "NAME",
                "--out",
                &out,
            ],
        ),
    );
    assert!(
        err.contains(
            "none of these 6 codes is in the boundaries: 13101, 13102, 13110, 13114, 13120, …"
        ) && err.contains("have codes like 37001, 37003 in the property `FIPS`")
            && err.contains("the file's properties are FIPS, NAME"),
        "{err}"
    );
    assert!(!err.contains("classify"), "{err}");
}

/// Boundaries keyed by another property than --code-property: whether the property is missing
/// (the file has no `codigo_comuna`) or holds other codes, the error names the property that
/// holds the data's codes and the option to use, as the page chooses it itself.
#[test]
fn boundaries_keyed_by_another_property_name_the_property_that_matches() {
    let path = out_path("cells-by-cut.geojson");
    let cell = |x: f64, cut: &str, other: &str| {
        format!(
            r#"{{"type":"Feature","properties":{{"id":"{other}","cut":"{cut}"}},"geometry":{{"type":"Polygon","coordinates":[[[{x},-33],[{x1},-33],[{x1},-32],[{x},-32],[{x},-33]]]}}}}"#,
            x1 = x + 1.0
        )
    };
    std::fs::write(
        &path,
        format!(
            r#"{{"type":"FeatureCollection","features":[{},{}]}}"#,
            cell(-71.0, "13101", "a"),
            cell(-70.0, "13102", "b")
        ),
    )
    .unwrap();
    let out = out_path("cells-by-cut.svg");
    let run = |property: &str| {
        fails(
            1,
            &common::map_2019_on(&path, &["--code-property", property, "--out", &out]),
        )
    };
    for property in ["codigo_comuna", "id"] {
        let err = run(property);
        assert!(
            err.contains(
                "the property `cut` holds 2 of the data's 6 codes: use --code-property cut"
            ),
            "{property}: {err}"
        );
    }
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

/// The bundled data, 2021: commune 15202 (General Lagos) had one infant death among one birth,
/// 1000 per 1,000, which the plausibility rules flag. By default it is left out of the map's
/// estimates: drawn as "flagged, left out" (not in a class, not as no data), named in the
/// summary and on stderr, absent from the funnel plot. `--include-flagged` puts them back, and the two SVGs differ exactly on the
/// flagged communes' paths and on the others' whose class moved with the breaks.
#[test]
fn flagged_rows_are_left_out_of_the_map_unless_included() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../public/data/chile_imr_2001_2021.csv"
    );
    let run_map = |name: &str, extra: &[&str]| {
        let out = out_path(name);
        let funnel = out_path(&format!("funnel-{name}"));
        let mut args = vec![
            "map", data, "--year", "2021", "--moran", "99", "--funnel", &funnel, "--out", &out,
        ];
        args.extend_from_slice(extra);
        let run = succeeds(&args);
        let summary: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        let svg = std::fs::read_to_string(&out).unwrap();
        let funnel = std::fs::read_to_string(&funnel).unwrap();
        (summary, svg, funnel, stderr)
    };

    let (summary, svg, funnel, stderr) = run_map("flags-default.svg", &["--smooth", "eb"]);
    let flagged: Vec<&str> = summary["flagged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    assert!(flagged.contains(&"15202"));
    assert_eq!(summary["flagged_left_out"], serde_json::json!(flagged));
    assert_eq!(summary["flagged_in_breaks"], false);
    assert!(stderr.contains(&format!(
        "1 row(s) flagged as implausible left out of the map's estimates (drawn as flagged; \
         --include-flagged keeps them): {}",
        flagged.join(", ")
    )));
    for code in &flagged {
        assert_eq!(attribute(&svg, code, "data-class"), "flagged");
        assert_eq!(attribute(&svg, code, "data-value"), "");
        assert_eq!(attribute(&svg, code, "data-flagged"), "true");
        assert!(!funnel.contains(&format!("data-code=\"{code}\"")), "{code}");
        assert!(!summary["no_data"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(code)));
    }
    assert_eq!(svg.matches("data-class=\"flagged\"").count(), 1);
    assert!(svg.contains("Flagged, left out <tspan fill=\"#666666\">(1)</tspan>"));
    assert!(svg.contains("1 implausible row left out of the map figures"));
    let classes = summary["classes"].as_array().unwrap();
    let counted: u64 = classes.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    let no_data = summary["no_data"].as_array().unwrap().len() as u64;
    assert_eq!(counted + no_data + 1, 345);

    let (included, svg_in, funnel_in, stderr_in) = run_map(
        "flags-included.svg",
        &["--smooth", "eb", "--include-flagged"],
    );
    assert_eq!(included["flagged_in_breaks"], true);
    assert_eq!(included["flagged_left_out"], serde_json::json!([]));
    assert_eq!(included["flagged"], summary["flagged"]);
    assert!(!stderr_in.contains("flagged"), "{stderr_in}");
    assert!(!svg_in.contains("data-class=\"flagged\""));
    assert!(svg_in.contains("1 flagged value(s) included in the class breaks"));
    assert!(funnel_in.contains("data-code=\"15202\""));
    assert_ne!(included["moran"]["i"], summary["moran"]["i"]);
    // Path by path, the two maps differ on the flagged communes (always) and elsewhere only
    // where the smoothed value or its class changed with the flagged rows.
    let paths = |svg: &str| -> std::collections::BTreeMap<String, String> {
        svg.lines()
            .filter_map(|l| {
                let code = l.strip_prefix("<path data-code=\"")?.split('"').next()?;
                Some((code.to_string(), l.to_string()))
            })
            .collect()
    };
    let (a, b) = (paths(&svg), paths(&svg_in));
    assert_eq!(a.len(), 345);
    for code in &flagged {
        assert_ne!(a[*code], b[*code], "{code}");
        assert_eq!(attribute(&svg_in, code, "data-flagged"), "true");
        assert_ne!(attribute(&svg_in, code, "data-class"), "flagged");
    }
    for (code, line) in &a {
        if !flagged.contains(&code.as_str()) {
            assert!(!line.contains("data-flagged"), "{line}");
            assert!(!b[code].contains("data-flagged"), "{code}");
        }
    }
    // Raw rates in fixed classes: nothing else depends on the flagged rows, so the two maps
    // differ exactly on the flagged communes.
    let fixed = ["--scheme", "custom", "--breaks", "4,8,12"];
    let (_, svg, _, _) = run_map("flags-fixed.svg", &fixed);
    let (_, svg_in, _, _) = run_map(
        "flags-fixed-included.svg",
        &[&fixed[..], &["--include-flagged"]].concat(),
    );
    let (a, b) = (paths(&svg), paths(&svg_in));
    let differing: Vec<&str> = a
        .iter()
        .filter(|(code, line)| b[*code] != **line)
        .map(|(code, _)| code.as_str())
        .collect();
    let mut expected = flagged.clone();
    expected.sort_unstable();
    assert_eq!(differing, expected);
}
