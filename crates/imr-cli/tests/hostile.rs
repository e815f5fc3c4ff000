//! Hostile names through every export of `imr` ("exports that cannot hurt"): a column
//! or area named with a newline, quotes, `$(touch x)`, backticks, a trailing backslash, a
//! spreadsheet formula and `<script>` must stay inside the string, name, comment or cell it is
//! written into — in R and Stata code, Markdown and LaTeX tables, CSV and SVG — and a closed
//! pipe or a broken file must end `imr` with status 0, 1 or 2, never a signal.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
mod common;

/// The hostile column name: a line break with an R call after it, shell and Stata macro
/// characters, quotes, a formula, markup, a control character and a trailing backslash.
const HOSTILE: &str =
    "h\n)system(\"touch pwned\")#\"'$(touch x)`id` $HOME =HYPERLINK(\"http://e\")<script>\u{1}/* //\\";

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("imr-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn csv_field(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// A panel of 8 firms × 5 years with an outcome `y`, a regressor `x1` and a regressor named
/// `second` (deterministic values).
fn panel_csv(second: &str) -> String {
    let mut out = format!("firm,year,y,x1,{}\n", csv_field(second));
    for firm in 0..8 {
        for year in 0..5 {
            let x1 = ((firm * 7 + year * 3) % 11) as f64 + 0.5;
            let x2 = ((firm * 5 + year * 2) % 7) as f64 * 1.5;
            let y = 2.0 * x1 - 0.7 * x2 + firm as f64 + ((firm + year) % 3) as f64 * 0.3;
            out.push_str(&format!("f{firm},{},{y},{x1},{x2}\n", 2000 + year));
        }
    }
    out
}

/// `imr fit … --format FORMAT` with the regressor named `second`.
fn fit(dir: &Path, second: &str, model: &str, format: &str) -> String {
    let file = dir.join(format!("panel-{format}-{model}.csv"));
    std::fs::write(&file, panel_csv(second)).unwrap();
    let file = file.to_str().unwrap().to_string();
    common::stdout_in(
        dir,
        &[
            "fit", &file, "--entity", "firm", "--time", "year", "--y", "y", "--x", "x1", "--x",
            second, "--model", model, "--format", format,
        ],
    )
}

/// Lines that are not comments (`#` in R, `*` in Stata).
fn code_lines<'a>(code: &'a str, comment: &str) -> Vec<&'a str> {
    code.lines().filter(|l| !l.starts_with(comment)).collect()
}

#[test]
fn r_code_keeps_a_hostile_name_inside_backticks_and_strings() {
    let dir = temp_dir("r");
    for model in ["fe", "pooled", "re", "cre"] {
        let benign = fit(&dir, "x2", model, "r");
        let hostile = fit(&dir, HOSTILE, model, "r");
        // The same program, line for line: the name opened no new line of code.
        assert_eq!(
            hostile.lines().count(),
            benign.lines().count(),
            "{model}:\n{hostile}"
        );
        let name = imr_core::escape::r_name(HOSTILE);
        let string = imr_core::escape::r_string(HOSTILE);
        // cre's entity mean of the column, `<name>_mean`
        let mean = imr_core::escape::r_name(&format!("{HOSTILE}_mean"));
        for line in code_lines(&hostile, "#") {
            // Outside its escaped forms the name leaves nothing of itself in the code.
            let rest = line
                .replace(&mean, "")
                .replace(&name, "")
                .replace(&string, "");
            assert!(
                !rest.contains("touch") && !rest.contains("HYPERLINK"),
                "{model}: {line}"
            );
        }
        assert!(hostile.contains(&string), "{model}:\n{hostile}");
    }
}

#[test]
fn stata_code_refuses_a_hostile_name_and_says_so_in_one_comment() {
    let dir = temp_dir("stata");
    for model in ["fe", "pooled", "cre", "poisson-fe"] {
        let benign = fit(&dir, "x2", model, "stata");
        let hostile = fit(&dir, HOSTILE, model, "stata");
        // One more line: the comment naming the column the code calls by a safe name.
        assert_eq!(
            hostile.lines().count(),
            benign.lines().count() + 1,
            "{model}:\n{hostile}"
        );
        let safe = imr_core::escape::stata_name(HOSTILE).name;
        assert!(
            hostile.contains(&format!(
                "is not a valid Stata name: the code calls it {safe}"
            )),
            "{model}:\n{hostile}"
        );
        assert_eq!(
            code_lines(&hostile, "*"),
            code_lines(&benign, "*")
                .iter()
                .map(|l| l.replace("x2", &safe))
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            "{model}"
        );
        for line in hostile.lines().filter(|l| l.starts_with('*')) {
            assert!(
                !line.contains("/*") && !line.contains("*/") && !line.contains("//"),
                "{line}"
            );
        }
    }
}

#[test]
fn markdown_and_latex_tables_escape_a_hostile_term() {
    let dir = temp_dir("tables");
    let benign = fit(&dir, "x2", "fe", "markdown");
    let hostile = fit(&dir, HOSTILE, "fe", "markdown");
    assert_eq!(hostile.lines().count(), benign.lines().count());
    let cell = imr_core::escape::markdown_cell(HOSTILE);
    assert!(hostile.contains(&format!("| {cell} |")), "{hostile}");
    assert!(!hostile.contains("<script>"));
    // every row has as many unescaped pipes as the benign table's
    let pipes = |t: &str| -> Vec<usize> {
        t.lines()
            .map(|l| {
                l.replace("\\\\", "")
                    .replace("\\|", "")
                    .matches('|')
                    .count()
            })
            .collect()
    };
    assert_eq!(pipes(&hostile), pipes(&benign));

    let benign = fit(&dir, "x2", "fe", "latex");
    let hostile = fit(&dir, HOSTILE, "fe", "latex");
    assert_eq!(hostile.lines().count(), benign.lines().count());
    assert!(hostile.contains(&imr_core::escape::latex_text(HOSTILE)));
    assert!(!hostile.replace("\\$", "").contains("$(touch"));
}

#[test]
fn rates_csv_neutralises_formulas_unless_asked_not_to() {
    let dir = temp_dir("rates");
    let file = dir.join("rates.csv");
    let entities = [
        "=HYPERLINK(\"http://e\",\"x\")",
        "@SUM(A1)",
        "+1+2",
        "-cmd",
        "a\rb",
        "<script>",
        "plain",
        "-1.5",
    ];
    let mut text = String::from("entity,year,births,deaths\n");
    for (k, e) in entities.iter().enumerate() {
        text.push_str(&format!("{},2020,{},{}\n", csv_field(e), 1000 + k, k));
    }
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let read = |out: String| -> Vec<String> {
        let body = imr_core::provenance::csv_body(&out).to_string();
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        reader
            .records()
            .map(|r| r.expect("well-formed CSV")[0].to_string())
            .collect()
    };
    let args = [
        "rates", path, "--entity", "entity", "--time", "year", "--format", "csv",
    ];
    let guarded = read(common::stdout_in(&dir, &args));
    let mut expected: Vec<String> = entities
        .iter()
        .map(|e| imr_core::escape::csv_cell(e).into_owned())
        .collect();
    expected.sort();
    let mut got = guarded.clone();
    got.sort();
    assert_eq!(got, expected);
    assert!(guarded.contains(&"'=HYPERLINK(\"http://e\",\"x\")".to_string()));
    assert!(guarded.contains(&"-1.5".to_string()));
    assert!(
        guarded.contains(&"a\rb".to_string()),
        "\\r kept inside a quoted cell"
    );

    let mut raw_args = args.to_vec();
    raw_args.insert(0, "--no-formula-guard");
    let mut raw = read(common::stdout_in(&dir, &raw_args));
    raw.sort();
    let mut entities: Vec<String> = entities.iter().map(|e| e.to_string()).collect();
    entities.sort();
    assert_eq!(raw, entities);
}

/// Two squares sharing an edge, codes 01101 and 01107, named with markup and control characters.
fn hostile_geojson() -> String {
    let name = serde_json::to_string(HOSTILE).unwrap();
    format!(
        r#"{{"type":"FeatureCollection","features":[
          {{"type":"Feature","properties":{{"codigo_comuna":"01101","nombre_comuna":{name}}},"geometry":{{"type":"Polygon","coordinates":[[[-70,-20],[-69,-20],[-69,-21],[-70,-21],[-70,-20]]]}}}},
          {{"type":"Feature","properties":{{"codigo_comuna":"01107","nombre_comuna":"<b>\u0002&amp;'"}},"geometry":{{"type":"Polygon","coordinates":[[[-69,-20],[-68,-20],[-68,-21],[-69,-21],[-69,-20]]]}}}}]}}"#
    )
}

#[test]
fn map_svg_with_hostile_names_is_well_formed_xml() {
    let dir = temp_dir("map");
    std::fs::write(dir.join("shapes.geojson"), hostile_geojson()).unwrap();
    let data = format!(
        "comuna,anio,nacimientos,defunciones,{}\n01101,2020,1000,7,1.5\n01107,2020,800,3,2.5\n",
        csv_field(HOSTILE)
    );
    std::fs::write(dir.join("data.csv"), data).unwrap();
    for value in [None, Some(HOSTILE)] {
        let mut args = vec![
            "map",
            "data.csv",
            "--year",
            "2020",
            "--geometry",
            "shapes.geojson",
            "--classes",
            "2",
            "--out",
            "map.svg",
            "--funnel",
            "funnel.svg",
            "--csv",
            "map.csv",
        ];
        if let Some(v) = value {
            args.extend(["--value", v]);
        }
        common::succeeds_in(&dir, &args);
        for file in ["map.svg", "funnel.svg"] {
            let svg = std::fs::read_to_string(dir.join(file)).unwrap();
            let doc = roxmltree::Document::parse(&svg)
                .unwrap_or_else(|e| panic!("{file} is not well-formed XML: {e}"));
            assert!(
                !doc.descendants()
                    .any(|n| n.has_tag_name("script") || n.has_tag_name("b")),
                "{file}: markup from a name became an element"
            );
            if file == "map.svg" {
                // The name is there, as text (its control character replaced).
                let expected = HOSTILE.replace('\u{1}', "\u{FFFD}");
                assert!(
                    doc.descendants()
                        .filter_map(|n| n.text())
                        .any(|t| t.contains(&expected[..20])),
                    "the area's name is in the map"
                );
            }
        }
        let csv = std::fs::read_to_string(dir.join("map.csv")).unwrap();
        let mut reader = csv::Reader::from_reader(imr_core::provenance::csv_body(&csv).as_bytes());
        let names: Vec<String> = reader
            .records()
            .map(|r| r.expect("well-formed CSV")[1].to_string())
            .collect();
        assert!(names.contains(&HOSTILE.to_string()), "{names:?}");
    }
}

#[test]
fn imr_map_draws_the_built_in_boundaries_from_any_directory() {
    let dir = temp_dir("bundled");
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../public/data/chile_imr_2001_2021.csv"
    );
    std::fs::copy(data, dir.join("chile.csv")).unwrap();
    let summary = common::json_in(
        &dir,
        &["map", "chile.csv", "--year", "2015", "--out", "map.svg"],
    );
    assert_eq!(summary["areas"], 345);
    let svg = std::fs::read_to_string(dir.join("map.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let drawn = doc
        .descendants()
        .filter(|n| n.has_tag_name("path") && n.attribute("data-code").is_some())
        .count();
    assert_eq!(drawn, 345);
}

#[test]
fn a_closed_pipe_ends_imr_quietly_with_status_0() {
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../public/data/chile_imr_2001_2021.csv"
    );
    // The CSV of 7,245 rows is larger than a pipe's buffer: imr is still writing when the reader
    // goes away, as with `imr rates … | head -1`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_imr"))
        .args(["rates", data, "--format", "csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn a_broken_boundary_file_exits_1_or_2_never_a_signal() {
    let dir = temp_dir("broken");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/map_rates.csv"),
        dir.join("d.csv"),
    )
    .unwrap();
    // An arc index out of range, a negative one and i32::MIN, and a one-element transform.scale.
    let shapes = [
        r#"{"type":"Topology","arcs":[],"objects":{"c":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[5]],"properties":{"codigo_comuna":"13101"}}]}}}"#,
        r#"{"type":"Topology","arcs":[[[0,0],[1,1]]],"objects":{"c":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[-5]],"properties":{"codigo_comuna":"13101"}}]}}}"#,
        r#"{"type":"Topology","arcs":[[[0,0],[1,1]]],"objects":{"c":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[-2147483648]],"properties":{"codigo_comuna":"13101"}}]}}}"#,
        r#"{"type":"Topology","transform":{"scale":[1],"translate":[0,0]},"arcs":[[[0,0],[1,1]]],"objects":{"c":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0]],"properties":{"codigo_comuna":"13101"}}]}}}"#,
    ];
    for (k, shape) in shapes.iter().enumerate() {
        let file = format!("s{k}.topojson");
        std::fs::write(dir.join(&file), shape).unwrap();
        let out = common::imr_in(
            &dir,
            &[
                "map",
                "d.csv",
                "--year",
                "2019",
                "--geometry",
                &file,
                "--out",
                "m.svg",
            ],
        );
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{file}: status {:?}, stderr {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_column_whose_name_holds_a_comma_is_named_by_repeating_x() {
    let dir = temp_dir("comma");
    let file = dir.join("panel.csv");
    std::fs::write(&file, panel_csv("income, 2017")).unwrap();
    let path = file.to_str().unwrap();
    let base = [
        "fit", path, "--entity", "firm", "--time", "year", "--y", "y", "--model", "pooled",
    ];
    let fit = common::json_in(
        &dir,
        &[&base[..], &["--x", "x1", "--x", "income, 2017"]].concat(),
    );
    let terms: Vec<&str> = fit["coefficients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["term"].as_str().unwrap())
        .collect();
    assert!(
        terms.contains(&"income, 2017") && terms.contains(&"x1"),
        "{terms:?}"
    );
    // The comma-separated form still splits names that are not columns.
    let joined = common::json_in(&dir, &[&base[..], &["--x", "x1,y"]].concat());
    assert_eq!(joined["coefficients"].as_array().unwrap().len(), 3);
    // The code's reproducing command repeats --x, each name quoted whole.
    let r = common::stdout_in(
        &dir,
        &[
            &base[..],
            &["--x", "x1", "--x", "income, 2017", "--format", "r"],
        ]
        .concat(),
    );
    assert!(r.contains("--x x1 --x 'income, 2017' "), "{r}");
}
