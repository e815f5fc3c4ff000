//! Every command's JSON accounts for every row read: on generated files with repeated (area,
//! year) keys, missing values and cells that are not numbers, `rows_read = rows_used +
//! rows_excluded` in the `input` block of `imr rates`, `inequality`, `fit`, `map` and
//! `findings --format json`, each exclusion is listed with its file, line and reason (a repeated
//! key naming the line it repeats), and `imr fit` adds up the rows it read to the rows the model
//! used and excluded.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};

/// What the generated main file holds: its text and how many rows of each kind it has.
struct Generated {
    text: String,
    rows: usize,
    repeated: usize,
    bad_births: usize,
    missing_x1: usize,
}

/// 32 communes of Santiago (CUT 13101–13132) over 2015–2022; every 7th row written twice
/// (another births count: a repeated key; not where the first copy is excluded, which would
/// make the second the one used), every 11th row without `x1` (a missing value the models
/// exclude), every 13th with births `abc` (a cell that is not a number).
fn generated_main() -> Generated {
    let mut text = String::from("comuna,anio,nacimientos,defunciones,pobreza,x1\n");
    let (mut rows, mut repeated, mut bad_births, mut missing_x1) = (0, 0, 0, 0);
    let mut n = 0;
    for code in 13101..=13132_i64 {
        for year in 2015..=2022_i64 {
            n += 1;
            let births = 200 + (code * 7 + year * 13) % 900;
            let deaths = (code + year * 3) % 9;
            let poverty = 5.0 + ((code * 3 + year) % 17) as f64 * 0.5;
            let x1 = if n % 11 == 0 {
                missing_x1 += 1;
                String::new()
            } else {
                format!("{:.1}", ((code * 11 + year * 5) % 23) as f64 * 0.1)
            };
            let births_cell = if n % 13 == 0 {
                bad_births += 1;
                "abc".to_string()
            } else {
                births.to_string()
            };
            text += &format!("{code},{year},{births_cell},{deaths},{poverty},{x1}\n");
            rows += 1;
            if n % 7 == 0 && n % 13 != 0 {
                text += &format!("{code},{year},{},{deaths},{poverty},{x1}\n", births + 5);
                rows += 1;
                repeated += 1;
            }
        }
    }
    Generated {
        text,
        rows,
        repeated,
        bad_births,
        missing_x1,
    }
}

/// A characteristics file joined by commune and year, with one repeated key and one cell that is
/// not a number.
fn generated_characteristics() -> (String, usize) {
    let mut text = String::from("comuna,anio,ruralidad\n");
    let mut rows = 0;
    for code in 13101..=13132_i64 {
        for year in 2015..=2022_i64 {
            let value = if code == 13105 && year == 2016 {
                "n/d".to_string()
            } else {
                format!("{}", (code + year) % 40)
            };
            text += &format!("{code},{year},{value}\n");
            rows += 1;
        }
    }
    text += "13110,2018,12\n";
    (text, rows + 1)
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("imr-row-accounting-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn count(value: &Value, key: &str) -> usize {
    value[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {value}")) as usize
}

/// The `input` block adds up to the rows read, and each exclusion names its file, line and
/// reason.
fn check_input(command: &str, doc: &Value, rows_read: usize, repeated: usize, bad: usize) {
    let input = &doc["input"];
    assert_eq!(count(input, "rows_read"), rows_read, "{command}");
    assert_eq!(
        count(input, "rows_used") + count(input, "rows_excluded"),
        rows_read,
        "{command}: used + excluded"
    );
    let excluded = input["excluded"].as_array().expect("excluded rows listed");
    assert_eq!(excluded.len(), count(input, "rows_excluded"), "{command}");
    for e in excluded {
        assert!(
            e["file"].as_str().is_some_and(|f| f.ends_with(".csv")),
            "{e}"
        );
        assert!(e["line"].as_u64().is_some_and(|l| l >= 2), "{e}");
    }
    let reasons: Vec<&str> = excluded
        .iter()
        .filter_map(|e| e["reason"].as_str())
        .collect();
    let duplicates = reasons
        .iter()
        .filter(|r| r.starts_with("duplicate of line"))
        .count();
    assert_eq!(duplicates, repeated, "{command}: {reasons:?}");
    let not_numbers = reasons.iter().filter(|r| r.contains("\"abc\"")).count();
    assert_eq!(not_numbers, bad, "{command}: {reasons:?}");
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

#[test]
fn every_command_accounts_for_every_row_read() {
    let dir = temp_dir();
    let main = generated_main();
    let file = write(&dir, "main.csv", &main.text);
    let (bad, repeated) = (main.bad_births, main.repeated);
    for (command, args) in [
        ("rates", vec!["rates", &file]),
        ("inequality", vec!["inequality", &file, "--bootstrap", "20"]),
        (
            "map",
            vec!["map", &file, "--year", "2019", "--out", "map.svg"],
        ),
        ("findings", vec!["findings", &file, "--format", "json"]),
    ] {
        let doc = common::json_in(&dir, &args);
        check_input(command, &doc, main.rows, repeated, bad);
    }

    // fit: the input block, then every panel row used or excluded by the model
    for model in [
        vec!["--y", "rate", "--model", "fe"],
        vec!["--y", "rate", "--model", "pooled", "--vcov", "hc1"],
        vec![
            "--y",
            "deaths",
            "--exposure",
            "births",
            "--model",
            "poisson-fe",
        ],
    ] {
        let mut args = vec!["fit", &file, "--x", "pobreza,x1"];
        args.extend(model.iter().copied());
        let doc = common::json_in(&dir, &args);
        check_input("fit", &doc, main.rows, repeated, bad);
        let rows = &doc["rows"];
        let input_excluded = count(rows, "excluded_at_input");
        assert_eq!(input_excluded, repeated + bad, "{args:?}");
        assert_eq!(
            count(rows, "rows_read"),
            input_excluded
                + count(rows, "merged_rows")
                + count(rows, "characteristics_rows")
                + count(rows, "excluded_by_model")
                + count(rows, "used_by_model"),
            "{args:?}: {rows}"
        );
        assert_eq!(count(rows, "rows_read"), main.rows);
        let by_model = doc["excluded_rows"].as_array().unwrap();
        assert_eq!(by_model.len(), count(rows, "excluded_by_model"), "{args:?}");
        // the rows without x1 and still in the panel are excluded by the model, with a reason
        assert!(
            by_model.len() >= main.missing_x1 - 2,
            "{args:?}: {by_model:?}"
        );
        assert!(by_model.iter().all(|r| r["reason"].as_str().is_some()));
        assert_eq!(
            count(&doc, "nobs"),
            count(rows, "used_by_model"),
            "{args:?}"
        );
    }

    // a characteristics file: its rows are joined, excluded (a repeated key) or flagged
    let (characteristics, characteristics_rows) = generated_characteristics();
    let chars = write(&dir, "chars.csv", &characteristics);
    let doc = common::json_in(
        &dir,
        &[
            "fit",
            &file,
            &chars,
            "--y",
            "rate",
            "--x",
            "pobreza,ruralidad",
        ],
    );
    let rows = &doc["rows"];
    assert_eq!(count(rows, "rows_read"), main.rows + characteristics_rows);
    assert_eq!(
        count(rows, "rows_read"),
        count(rows, "excluded_at_input")
            + count(rows, "merged_rows")
            + count(rows, "characteristics_rows")
            + count(rows, "excluded_by_model")
            + count(rows, "used_by_model"),
        "{rows}"
    );
    // the repeated key of the characteristics file is listed with the line it repeats
    let excluded = doc["input"]["excluded"].as_array().unwrap();
    assert!(
        excluded.iter().any(|e| e["file"] == "chars.csv"
            && e["reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("duplicate of line"))),
        "{excluded:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
