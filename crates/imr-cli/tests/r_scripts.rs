//! Every R script `imr fit --format r` writes (the Models view's "R code" download is the same
//! function) is run in R and its numbers compared with `imr fit --format json`: the sample size,
//! the variance components, every coefficient's estimate, standard error, statistic and p-value,
//! and every test the script prints (F test of the effects, Hausman, Breusch–Pagan, Mundlak) at
//! a relative 1e-6, for every estimator × covariance, absorbed fixed effects and weights, on the
//! bundled data and on a generated panel with missing values and unbalanced, gappy years.
//!
//! Reference software: R 4.2.2 with sandwich 3.0.2 (Debian bookworm `r-base-core`,
//! `r-cran-sandwich`), installed by `scripts/setup.sh`. The test fails when `Rscript` is
//! missing: what we hand to analysts must have run.
//!
//! The scripts of one data file are joined into one R program (as the page joins the scripts of
//! its models), run once with `Rscript` in a folder holding only the data file and the program.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Relative tolerance of every comparison.
const TOLERANCE: f64 = 1e-6;

/// The bundled dataset, from the crate's directory.
use common::BUNDLED;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("imr-r-scripts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `Rscript`, or a failure saying how to install it.
fn rscript() -> Command {
    let found = Command::new("Rscript").arg("--version").output();
    assert!(
        found.map(|o| o.status.success()).unwrap_or(false),
        "Rscript is not installed: run scripts/setup.sh (Debian r-base-core and r-cran-sandwich); \
         the R code imr writes is tested by running it"
    );
    Command::new("Rscript")
}

/// Uniform numbers in [0, 1) from `seed` (xorshift64): the same data on every machine.
fn uniforms(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A deterministic panel of 40 entities over 2015–2022: entities enter and leave in different
/// years, some years are missing inside an entity's span, covariates have missing cells (empty
/// and `NA`), one row has no births (left out when read), one entity never has a death (left
/// out of poisson-fe), `x3` does not vary within entities, `region` is text and the second
/// regressor's name, `x "2", ok`, holds a space, quotes and a comma.
fn generated_panel(delimiter: char, decimal: char) -> String {
    let mut next = uniforms(0x2545_f491_4f6c_dd1d);
    let regions = ["Norte", "Centro", "Sur"];
    let mut out = [
        "id",
        "year",
        "births",
        "deaths",
        "x1",
        "\"x \"\"2\"\", ok\"",
        "x3",
        "region",
    ]
    .join(&delimiter.to_string())
        + "\n";
    let number = |x: f64| x.to_string().replace('.', &decimal.to_string());
    for e in 0..40 {
        let first = 2015 + (next() * 3.0) as i64;
        let last = 2022 - (next() * 3.0) as i64;
        let x3 = (next() * 10.0 * 100.0).round() / 100.0;
        let region = regions[e % 3];
        let effect = next() * 4.0;
        for year in first..=last {
            if next() < 0.12 {
                continue; // a year missing inside the entity's span
            }
            let births = 50 + (next() * 900.0) as i64;
            let x1 = (next() * 20.0 * 1000.0).round() / 1000.0;
            let x2 = ((year - 2015) as f64 * 0.3 + next() * 5.0) * 100.0;
            let x2 = x2.round() / 100.0;
            let rate = 4.0 + 0.2 * x1 - 0.1 * x2 + 0.3 * x3 + effect + next() * 3.0;
            let deaths = if e == 7 {
                0
            } else {
                ((births as f64) * rate.max(0.5) / 1000.0 + next()).floor() as i64
            };
            let births_cell = if e == 3 && year == first + 1 {
                String::new()
            } else {
                births.to_string()
            };
            let x1_cell = if next() < 0.05 {
                String::new()
            } else {
                number(x1)
            };
            let x2_cell = if next() < 0.04 {
                "NA".to_string()
            } else {
                number(x2)
            };
            let fields = [
                format!("E{e:02}"),
                year.to_string(),
                births_cell,
                deaths.to_string(),
                x1_cell,
                x2_cell,
                number(x3),
                region.to_string(),
            ];
            out.push_str(&(fields.join(&delimiter.to_string()) + "\n"));
        }
    }
    out
}

/// One data file and the fits run on it.
struct Case {
    /// Folder name of the case.
    name: &'static str,
    /// File name of the data in the folder.
    file: &'static str,
    /// Arguments naming the columns (after the file).
    input: &'static [&'static str],
    /// Regressors, one `--x` each.
    x: &'static [&'static str],
    /// `--fe` specifications tried with `--model fe`; the first also with `--model poisson-fe`
    /// and with the clusters.
    absorbed: &'static [&'static str],
    /// `--cluster` specifications (one column, or two: two-way) tried with the first `--fe`,
    /// linear and Poisson.
    clusters: &'static [&'static str],
    /// The covariances tried.
    vcovs: &'static [&'static str],
}

/// The `imr fit` arguments of every fit of a case (after the file and its column arguments).
fn fits_of(case: &Case) -> Vec<Vec<String>> {
    let mut fits = Vec::new();
    // `--x X` stands for one `--x` per regressor of the case
    let words = |s: &[&str]| -> Vec<String> {
        let mut out = Vec::new();
        for w in s {
            if *w == "X" {
                out.pop();
                for x in case.x {
                    out.extend(["--x".to_string(), x.to_string()]);
                }
            } else {
                out.push(w.to_string());
            }
        }
        out
    };
    // the rate on the regressors, and the deaths with the births as exposure, then `extra`
    let rate = |model: &str, vcov: &str, extra: &[&str]| {
        let mut w = words(&["--y", "rate", "--x", "X", "--model", model, "--vcov", vcov]);
        w.extend(extra.iter().map(|e| e.to_string()));
        w
    };
    let poisson = |vcov: &str, extra: &[&str]| {
        let mut w = words(&[
            "--y",
            "deaths",
            "--exposure",
            "births",
            "--x",
            "X",
            "--model",
            "poisson-fe",
            "--vcov",
            vcov,
        ]);
        w.extend(extra.iter().map(|e| e.to_string()));
        w
    };
    let first_fe = case.absorbed[0];
    for &vcov in case.vcovs {
        for model in ["pooled", "fe", "twfe", "re", "be", "fd", "cre"] {
            fits.push(rate(model, vcov, &[]));
        }
        fits.push(poisson(vcov, &[]));
        for model in ["pooled", "fe", "twfe"] {
            fits.push(rate(model, vcov, &["--weights", "births"]));
        }
        for fe in case.absorbed {
            fits.push(rate("fe", vcov, &["--fe", fe]));
        }
        fits.push(poisson(vcov, &["--fe", first_fe]));
    }
    for cluster in case.clusters {
        let absorbed_and_clustered = ["--fe", first_fe, "--cluster", cluster];
        fits.push(rate("fe", "cluster", &absorbed_and_clustered));
        fits.push(poisson("cluster", &absorbed_and_clustered));
    }
    fits.push(rate(
        "fe",
        "cluster",
        &["--fe", first_fe, "--weights", "births"],
    ));
    fits
}

/// One section of the results the R script prints: `## imr-atlas <label>: <part>` and a CSV
/// table.
#[derive(Debug, Default)]
struct Printed {
    label: String,
    /// `quantity → value` of the sample block.
    sample: Vec<(String, f64)>,
    /// Per coefficient: term and the named columns.
    coefficients: Vec<(String, Vec<(String, f64)>)>,
    /// Per test: name and the named columns.
    tests: Vec<(String, Vec<(String, f64)>)>,
}

fn number(text: &str) -> f64 {
    if text == "NA" {
        f64::NAN
    } else {
        text.parse()
            .unwrap_or_else(|_| panic!("R printed {text:?} for a number"))
    }
}

/// Rows of a CSV table: the first field and the other fields by their column names.
fn table(lines: &[&str]) -> Vec<(String, Vec<(String, f64)>)> {
    let text = lines.join("\n");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let values = header
                .iter()
                .zip(r.iter())
                .skip(1)
                .map(|(h, v)| (h.clone(), number(v)))
                .collect();
            (r[0].to_owned(), values)
        })
        .collect()
}

/// The results of an R run, one per fit in the order printed.
fn parse(stdout: &str) -> Vec<Printed> {
    let mut results: Vec<Printed> = Vec::new();
    let lines: Vec<&str> = stdout.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(rest) = lines[i].strip_prefix("## imr-atlas ") else {
            i += 1;
            continue;
        };
        let (label, part) = rest.rsplit_once(": ").expect("a section names its part");
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].is_empty() && !lines[end].starts_with("## ") {
            end += 1;
        }
        let rows = table(&lines[start..end]);
        match part {
            "sample" => results.push(Printed {
                label: label.to_owned(),
                sample: rows.into_iter().map(|(q, v)| (q, v[0].1)).collect(),
                ..Printed::default()
            }),
            "coefficients" => results.last_mut().expect("sample first").coefficients = rows,
            "tests" => results.last_mut().expect("sample first").tests = rows,
            other => panic!("unknown part {other}"),
        }
        i = end;
    }
    results
}

/// `a` equals `b` at [`TOLERANCE`] relative to the larger (both NaN counts as equal).
fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= TOLERANCE * a.abs().max(b.abs()) + 1e-300
}

/// A p-value: within 20 × [`TOLERANCE`] relatively, or 1e-12 absolutely. A p-value magnifies
/// the relative error of its statistic by d ln p / d ln z = z·2φ(z)/p: about 12 at p ≈ 8e-4
/// (z ≈ 3.35; the poisson-fe fits of the bundled data without their flagged rows, whose R and imr
/// standard errors agree to 9e-8 and p-values to 1.1e-6), and far in the tail much more
/// (p ≈ 6e-34 at z ≈ 12 moves 2e-6 relatively when z moves 1e-8), which the statistic's own
/// comparison at [`TOLERANCE`] covers.
fn close_p(a: f64, b: f64) -> bool {
    (a - b).abs() <= 20.0 * TOLERANCE * a.abs().max(b.abs()) || (a - b).abs() <= 1e-12
}

/// Compares what R printed with imr's JSON; returns the mismatches in words.
fn compare(what: &str, r: &Printed, json: &Value) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut differ = Vec::new();
    let mut check = |name: String, r_value: f64, imr_value: Option<f64>| match imr_value {
        Some(v) if close(r_value, v) => {}
        Some(v) if name.ends_with("p_value") && close_p(r_value, v) => {}
        other => differ.push(format!("{what}: {name}: R {r_value:e}, imr {other:?}")),
    };
    for (quantity, value) in &r.sample {
        let key = match quantity.as_str() {
            "entities" => "n_entities",
            other => other,
        };
        check(format!("sample {quantity}"), *value, json[key].as_f64());
    }
    let imr_terms: Vec<&str> = json["coefficients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["term"].as_str().unwrap())
        .collect();
    let r_terms: Vec<&str> = r.coefficients.iter().map(|(t, _)| t.as_str()).collect();
    if r_terms != imr_terms {
        wrong.push(format!("{what}: terms: R {r_terms:?}, imr {imr_terms:?}"));
    }
    for (term, values) in &r.coefficients {
        let Some(c) = json["coefficients"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["term"] == term.as_str())
        else {
            continue;
        };
        for (column, value) in values {
            check(format!("{term} {column}"), *value, c[column].as_f64());
        }
    }
    let mut r_tests: Vec<&str> = Vec::new();
    for (test, values) in &r.tests {
        r_tests.push(test);
        let t = &json["tests"][test];
        for (column, value) in values {
            let key = match (column.as_str(), t.get("df").is_some()) {
                ("df1", true) => "df",
                ("df2", true) => continue,
                (other, _) => other,
            };
            check(format!("test {test} {column}"), *value, t[key].as_f64());
        }
    }
    for (test, value) in json["tests"].as_object().unwrap() {
        if !value.is_null() && !r_tests.contains(&test.as_str()) {
            wrong.push(format!(
                "{what}: imr reports the test {test}, R does not print it"
            ));
        }
    }
    wrong.extend(differ);
    wrong
}

/// A fit to check: what it is, imr's JSON of it and the R script written for it.
struct Script {
    what: String,
    json: Value,
    r: String,
}

/// The scripts of `case` as `imr fit` writes them, run in `dir` (which holds the data file).
fn scripts_of(case: &Case, dir: &Path) -> Vec<Script> {
    fits_of(case)
        .iter()
        .map(|args| {
            let mut full: Vec<&str> = vec!["fit", case.file];
            full.extend(case.input);
            full.extend(args.iter().map(String::as_str));
            let json = common::json_in(dir, &full);
            full.extend(["--format", "r"]);
            Script {
                what: args.join(" "),
                json,
                r: common::stdout_in(dir, &full),
            }
        })
        .collect()
}

/// Joins the `scripts` into one R program in `dir` (beside the data file they read), runs it
/// and compares each result with imr's JSON. Returns the fits that matched, `name | what`.
fn run_scripts(name: &str, dir: &Path, scripts: &[Script]) -> Vec<String> {
    let program: String = scripts.iter().map(|s| s.r.clone() + "\n").collect();
    std::fs::write(dir.join("imr_modelos.R"), &program).unwrap();
    let out = rscript()
        .arg("imr_modelos.R")
        .current_dir(dir)
        .output()
        .expect("Rscript runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{name}: R stopped:\n{}\n(the program is {})",
        String::from_utf8_lossy(&out.stderr),
        dir.join("imr_modelos.R").display()
    );
    let printed = parse(&stdout);
    assert_eq!(
        printed.len(),
        scripts.len(),
        "{name}: R printed {} results for {} fits:\n{stdout}",
        printed.len(),
        scripts.len()
    );
    let mut wrong = Vec::new();
    let mut matched = Vec::new();
    for (script, r) in scripts.iter().zip(&printed) {
        let what = &script.what;
        let json = &script.json;
        let label = format!(
            "{}, {}",
            json["model"].as_str().unwrap(),
            json["vcov"].as_str().unwrap()
        );
        assert_eq!(r.label, label, "{what}: the results are printed in order");
        assert!(!r.coefficients.is_empty(), "{what}: no coefficient printed");
        let mismatches = compare(&format!("{name} {what}"), r, json);
        if mismatches.is_empty() {
            matched.push(format!("{name} | {what}"));
        }
        wrong.extend(mismatches);
    }
    assert!(wrong.is_empty(), "R and imr differ:\n{}", wrong.join("\n"));
    matched
}

/// Every fit of `case` on the data file `data`, its scripts run in R and compared.
fn run_case(case: &Case, data: &Path) {
    let dir = temp_dir(case.name);
    std::fs::copy(data, dir.join(case.file)).unwrap();
    let scripts = scripts_of(case, &dir);
    let matched = run_scripts(case.name, &dir, &scripts);
    assert_eq!(matched.len(), fits_of(case).len());
    eprintln!("{}", matched.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_r_scripts_of_the_bundled_data_run_and_give_imrs_numbers() {
    // Counted deaths on registered births; the covariates of 2006–2012 (rows of other years are
    // left out of each fit for a missing value, in R as in imr).
    let case = Case {
        name: "bundled",
        file: "chile_imr_2001_2021.csv",
        input: &[],
        x: &["pobreza", "gasto_salud_pc", "sapu"],
        absorbed: &["codigo_comuna,region^anio", "region,anio"],
        clusters: &["region", "region,anio", "anio,codigo_comuna"],
        vcovs: &["iid", "hc1", "cluster"],
    };
    run_case(&case, &Path::new(env!("CARGO_MANIFEST_DIR")).join(BUNDLED));
}

#[test]
fn the_r_scripts_of_published_rates_give_imrs_numbers() {
    // The bundled file without its deaths: the rate is derived from SINIM's published `tmi_sinim`
    // on the births (2017–2021), which the script must do the same way; the covariates of 2019
    // and 2021.
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(BUNDLED)).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !header[i].starts_with("defunciones_"))
        .collect();
    let tmi = header.iter().position(|h| *h == "tmi_sinim").unwrap();
    let rates: String = text
        .lines()
        .enumerate()
        .filter(|(k, l)| *k == 0 || !l.split(',').nth(tmi).unwrap_or("").is_empty())
        .map(|(_, l)| {
            let f: Vec<&str> = l.split(',').collect();
            keep.iter().map(|&i| f[i]).collect::<Vec<_>>().join(",") + "\n"
        })
        .collect();
    let dir = temp_dir("published-source");
    let data = dir.join("tasas.csv");
    std::fs::write(&data, rates).unwrap();
    let case = Case {
        name: "published-rates",
        file: "tasas.csv",
        input: &["--rate", "tmi_sinim"],
        x: &["pobreza", "ingreso_salud_pc", "sapu"],
        absorbed: &["codigo_comuna,region^anio"],
        clusters: &["region"],
        vcovs: &["cluster"],
    };
    run_case(&case, &data);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_r_scripts_of_an_unbalanced_panel_with_missing_values_give_imrs_numbers() {
    let case = Case {
        name: "generated",
        file: "panel.csv",
        input: &["--entity", "id", "--time", "year"],
        x: &["x1", "x \"2\", ok", "x3"],
        absorbed: &["id,region^year", "region,year"],
        clusters: &["region", "region,year", "year,id"],
        vcovs: &["iid", "hc1", "cluster"],
    };
    let dir = temp_dir("generated-source");
    let data = dir.join("panel.csv");
    std::fs::write(&data, generated_panel(',', '.')).unwrap();
    run_case(&case, &data);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A year that copies the year before is left out of the fits (issue 42): `imr fit` lists its
/// rows in `excluded_rows` and its R code drops them, so that R gives imr's numbers; R fitting
/// the copy would not.
#[test]
fn the_r_scripts_leave_out_a_copied_year_as_imr_does() {
    // 2019's births and deaths copied from 2018 in every entity that has both years.
    let text = generated_panel(',', '.');
    let fields = |l: &str| l.split(',').map(str::to_owned).collect::<Vec<String>>();
    let of_2018: std::collections::HashMap<String, (String, String)> = text
        .lines()
        .skip(1)
        .map(fields)
        .filter(|f| f[1] == "2018")
        .map(|f| (f[0].clone(), (f[2].clone(), f[3].clone())))
        .collect();
    let mut lines = text.lines();
    let mut copied = format!("{}\n", lines.next().unwrap());
    for line in lines {
        let mut f = fields(line);
        if let (true, Some((births, deaths))) = (f[1] == "2019", of_2018.get(&f[0])) {
            (f[2], f[3]) = (births.clone(), deaths.clone());
        }
        copied.push_str(&(f.join(",") + "\n"));
    }
    let dir = temp_dir("copied-year-source");
    let data = dir.join("panel.csv");
    std::fs::write(&data, copied).unwrap();
    let fit = common::json_in(
        &dir,
        &[
            "fit",
            "panel.csv",
            "--entity",
            "id",
            "--time",
            "year",
            "--y",
            "rate",
            "--x",
            "x1",
        ],
    );
    let reasons: Vec<&str> = fit["excluded_rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["reason"].as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("year 2019 repeats 2018")),
        "{reasons:?}"
    );
    let case = Case {
        name: "copied-year",
        file: "panel.csv",
        input: &["--entity", "id", "--time", "year"],
        x: &["x1"],
        absorbed: &["id,region^year"],
        clusters: &["region"],
        vcovs: &["cluster"],
    };
    run_case(&case, &data);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One regressor: R names the coefficient of a one-column matrix by the matrix alone (`X_w`,
/// `dX`), not by matrix and column; the code must still find it (it did not: found on the
/// bundled data, whose fixed-effects fits have one regressor that varies within communes).
#[test]
fn the_r_scripts_of_one_regressor_give_imrs_numbers() {
    let case = Case {
        name: "one-regressor",
        file: "panel.csv",
        input: &["--entity", "id", "--time", "year"],
        x: &["x1"],
        absorbed: &["id,region^year"],
        clusters: &["region"],
        vcovs: &["iid", "cluster"],
    };
    let dir = temp_dir("one-regressor-source");
    let data = dir.join("panel.csv");
    std::fs::write(&data, generated_panel(',', '.')).unwrap();
    run_case(&case, &data);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_r_scripts_read_a_semicolon_file_with_decimal_commas() {
    // The same panel as Chilean spreadsheets write it: `;` between fields, `,` in numbers.
    let case = Case {
        name: "semicolon",
        file: "panel_es.csv",
        input: &["--entity", "id", "--time", "year"],
        x: &["x1", "x \"2\", ok", "x3"],
        absorbed: &["id,region^year"],
        clusters: &["region,year"],
        vcovs: &["cluster"],
    };
    let dir = temp_dir("semicolon-source");
    let data = dir.join("panel_es.csv");
    std::fs::write(&data, generated_panel(';', ',')).unwrap();
    std::fs::write(dir.join("panel.csv"), generated_panel(',', '.')).unwrap();
    // imr reads both files alike, and the R code is told the dialect.
    let fit = |file: &str, format: &str| {
        let args = [
            "fit", file, "--entity", "id", "--time", "year", "--y", "rate", "--x", "x1", "--x",
            "x3", "--model", "re", "--format", format,
        ];
        common::stdout_in(&dir, &args)
    };
    let nobs = |json: String| serde_json::from_str::<Value>(&json).unwrap()["nobs"].clone();
    assert_eq!(
        nobs(fit("panel_es.csv", "json")),
        nobs(fit("panel.csv", "json"))
    );
    assert!(fit("panel_es.csv", "r")
        .contains("check.names = FALSE, sep = \";\", dec = \",\", na.strings"));
    run_case(&case, &data);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 80 areas of one year, `;`-separated, without a year column (the year only in the file's
/// name): births, deaths, two covariates and a text region; one area has no death.
fn one_year_file() -> String {
    let mut next = uniforms(0x9e37_79b9_7f4a_7c15);
    let mut out = String::from("area;births;deaths;x1;x3;region\n");
    for a in 0..80 {
        let births = 50 + (next() * 2000.0) as u64;
        let x1 = (next() * 30.0 * 100.0).round() / 100.0;
        let x3 = (next() * 10.0 * 100.0).round() / 100.0;
        let expected = births as f64 * (4.0 + 0.15 * x1 + 0.2 * x3) / 1000.0;
        let deaths = if a == 7 {
            0
        } else {
            (expected * (0.5 + next())).round() as u64
        };
        out.push_str(&format!("A{a:02};{births};{deaths};{x1};{x3};R{}\n", a % 5));
    }
    out
}

#[test]
fn the_r_scripts_of_a_file_of_one_year_without_a_year_column_give_imrs_numbers() {
    // `imr fit --time-value 2023` on a file without a year column: the script creates the
    // column as imr does and gives imr's numbers for the models one period allows. (The file's
    // name holds no year: one that did, `defunciones_2023.csv`, would take it without the flag,
    // and the last fit here would be no cross-section.)
    let dir = temp_dir("one-year");
    std::fs::write(dir.join("defunciones.csv"), one_year_file()).unwrap();
    let rate = ["--y", "rate", "--x", "x1", "--x", "x3"];
    let poisson = [
        "--y",
        "deaths",
        "--exposure",
        "births",
        "--x",
        "x1",
        "--x",
        "x3",
    ];
    let fits: Vec<Vec<&str>> = vec![
        [&rate[..], &["--model", "pooled", "--vcov", "iid"]].concat(),
        [&rate[..], &["--model", "pooled", "--vcov", "hc1"]].concat(),
        [
            &rate[..],
            &[
                "--model",
                "pooled",
                "--vcov",
                "cluster",
                "--weights",
                "births",
            ],
        ]
        .concat(),
        [
            &rate[..],
            &["--model", "fe", "--fe", "region", "--vcov", "iid"],
        ]
        .concat(),
        [
            &rate[..],
            &[
                "--model",
                "fe",
                "--fe",
                "region",
                "--vcov",
                "cluster",
                "--cluster",
                "region",
            ],
        ]
        .concat(),
        [
            &poisson[..],
            &["--model", "poisson-fe", "--fe", "region", "--vcov", "hc1"],
        ]
        .concat(),
    ];
    // The last without the year: a cross-section, one period (time 0), as `imr fit` reads it.
    let scripts: Vec<Script> = fits
        .iter()
        .chain([&fits[0]])
        .enumerate()
        .map(|(k, args)| {
            let year: &[&str] = if k < fits.len() {
                &["--time-value", "2023"]
            } else {
                &[]
            };
            let mut full = vec!["fit", "defunciones.csv", "--entity", "area"];
            full.extend(year);
            full.extend(args);
            let json = common::json_in(&dir, &full);
            full.extend(["--format", "r"]);
            Script {
                what: args.join(" "),
                json,
                r: common::stdout_in(&dir, &full),
            }
        })
        .collect();
    let first = &scripts[0].r;
    assert!(
        first.contains("d[[\"year\"]] <- 2023  # the file has no year column")
            && first.contains("imr fit defunciones.csv --entity area --time-value 2023 "),
        "{first}"
    );
    let stata = common::stdout_in(
        &dir,
        &[
            &[
                "fit",
                "defunciones.csv",
                "--entity",
                "area",
                "--time-value",
                "2023",
            ][..],
            &fits[0],
            &["--format", "stata"],
        ]
        .concat(),
    );
    assert!(stata.contains("generate year = 2023"), "{stata}");
    let cross_section = &scripts[fits.len()].r;
    assert!(
        cross_section.contains("d[[\"year\"]] <- 0  # the file has no year column")
            && cross_section.contains("--entity area --time-value 0 "),
        "{cross_section}"
    );
    let matched = run_scripts("one-year", &dir, &scripts);
    assert_eq!(matched.len(), fits.len() + 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_models_views_r_code_runs_on_its_data_download() {
    // What the Models view does (src/pages/models/downloads.rs): the analysis data
    // (`imr_modelos_datos.csv`, provenance lines first) and the R code of each fit, written by
    // the same library functions, saved in one folder.
    use imr_core::ingest::{build_panel, IngestOptions, RawTable};
    use imr_core::models::report::r_code;
    use imr_core::models::{Estimator, VcovKind};
    use imr_core::request::FitRequest;
    use imr_core::view::{AnalysisData, ANALYSIS_DATA_FILE};
    let table = RawTable::from_bytes(
        imr_core::data::BUNDLED_PANEL_FILE,
        imr_core::data::BUNDLED_PANEL_CSV,
    )
    .unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    let base = FitRequest {
        x: imr_core::data::study::default_regressors()
            .map(str::to_string)
            .collect(),
        ..FitRequest::default()
    };
    let mut requests: Vec<FitRequest> = Estimator::ALL
        .into_iter()
        .map(|m| base.for_model(m))
        .collect();
    requests.push(FitRequest {
        fe: Some("codigo_comuna,region^anio".into()),
        vcov: VcovKind::Hc1,
        ..base.clone()
    });
    // clustered by a text column absorbed nowhere, and two-way; Poisson with absorbed effects
    for cluster in ["region", "region,anio"] {
        requests.push(FitRequest {
            fe: Some("codigo_comuna".into()),
            vcov: VcovKind::Cluster,
            cluster: Some(cluster.into()),
            ..base.clone()
        });
    }
    requests.push(FitRequest {
        fe: Some("codigo_comuna,anio".into()),
        vcov: VcovKind::Cluster,
        cluster: Some("region".into()),
        ..base.for_model(Estimator::PoissonFe)
    });
    let dir = temp_dir("analysis");
    // The view's analysis data and code context, for fits that leave the flagged rows out.
    let data = AnalysisData {
        panel: &panel,
        include_flagged: false,
        include_repeated_years: false,
    };
    let csv = imr_core::provenance::with_csv_header(
        imr_core::data::BUNDLED_PANEL_FILE,
        "2026-12-04",
        &data.csv(&requests),
    );
    std::fs::write(dir.join(ANALYSIS_DATA_FILE), csv).unwrap();
    let ctx = data.code_context();
    let scripts: Vec<Script> = requests
        .iter()
        .map(|request| {
            let fit = request.run(&panel).unwrap();
            Script {
                what: request.to_args().join(" "),
                json: serde_json::from_str(&fit.to_json()).unwrap(),
                r: r_code(&fit, &ctx),
            }
        })
        .collect();
    let matched = run_scripts("models view", &dir, &scripts);
    assert_eq!(matched.len(), requests.len());
    eprintln!("{}", matched.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Stata do-file of the fits with absorbed effects names the command and options that
/// correspond to imr's (reghdfe, ppmlhdfe; the clusters as group variables, two-way as two);
/// it is not run here (no Stata), which the do-file says.
#[test]
fn the_stata_code_of_absorbed_fits_names_their_commands_and_clusters() {
    let dir = temp_dir("stata");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(BUNDLED),
        dir.join("chile_imr_2001_2021.csv"),
    )
    .unwrap();
    let base = ["fit", "chile_imr_2001_2021.csv", "--x", "pobreza"];
    let cases: [(&[&str], &[&str]); 2] = [
        (
            &[
                "--y",
                "rate",
                "--fe",
                "codigo_comuna",
                "--vcov",
                "cluster",
                "--cluster",
                "region,anio",
            ],
            &[
                "egen cluster_1 = group(region)",
                "egen cluster_2 = group(anio)",
                "reghdfe rate pobreza, absorb(fe_1) vce(cluster cluster_1 cluster_2)",
            ],
        ),
        (
            &[
                "--y",
                "deaths",
                "--model",
                "poisson-fe",
                "--exposure",
                "births",
                "--fe",
                "codigo_comuna,anio",
                "--vcov",
                "hc1",
            ],
            &[
                "egen fe_2 = group(anio)",
                "ppmlhdfe deaths pobreza, absorb(fe_1 fe_2) exposure(births) vce(robust) irr",
            ],
        ),
    ];
    for (extra, expected) in cases {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let stata = common::stdout_in(&dir, &[&args[..], &["--format", "stata"]].concat());
        assert!(stata.contains("Not executed by imr's tests"), "{stata}");
        for line in expected {
            assert!(stata.contains(line), "{line} missing from:\n{stata}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
