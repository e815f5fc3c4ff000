//! `imr inequality` end to end on `tests/data/inequality_communes.csv` (15 communes × 2018–2019,
//! zones, poverty, health income per capita with one value missing in 2019, population).

use imr_core::inequality::{
    AreaObservation, BootstrapSpec, InequalitySpec, Measure, RateInput, Subject,
};
mod common;
use common::{fails, imr, json, succeeds, BUNDLED, BUNDLED_ROLES};

const DATA: &str = "tests/data/inequality_communes.csv";
/// The fixture's health income measured as a value weighted by population.
const INCOME: [&str; 4] = ["--of", "ingreso_salud", "--weight", "poblacion"];
/// The same column as the second series beside the rates.
const AGAINST_INCOME: [&str; 4] = [
    "--against",
    "ingreso_salud",
    "--against-weight",
    "poblacion",
];

/// The fixture's rows, read by hand (plain CSV, no quotes).
fn fixture_rates() -> Subject {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA))
        .unwrap();
    let obs = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            AreaObservation {
                entity: f[0].into(),
                time: f[1].parse().unwrap(),
                events: f[2].parse().unwrap(),
                exposure: f[3].parse().unwrap(),
                group: Some(f[4].into()),
                rank: Some(f[5].parse().unwrap()),
                events_range: None,
            }
        })
        .collect();
    Subject::Rates(RateInput::per_1000(obs, false))
}

#[test]
fn json_follows_the_contract_and_matches_the_engine_on_the_same_numbers() {
    let doc = json(&[
        "inequality",
        DATA,
        "--group",
        "zona",
        "--rank",
        "pobreza",
        "--bootstrap",
        "200",
        "--seed",
        "7",
        "--format",
        "json",
    ]);
    let engine = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 200,
            seed: 7,
            level: 0.95,
        },
    }
    .analyse(&fixture_rates())
    .unwrap()
    .report;
    let years = doc["years"].as_array().unwrap();
    assert_eq!(years.len(), 2);
    for (y, e) in years.iter().zip(&engine.years) {
        assert_eq!(y["time"], e.time());
        assert_eq!(y["n_areas"], 15);
        for m in [
            Measure::Gini,
            Measure::TheilT,
            Measure::TheilBetween,
            Measure::Sii,
            Measure::PooledRate,
        ] {
            let key = m.key(engine.subject.kind);
            // serde_json's default float parser may be 1 ulp off the printed shortest form.
            let same = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1e-300);
            assert!(
                same(y[key].as_f64().unwrap(), e.measures.get(m).unwrap()),
                "{key}"
            );
            let ci: Vec<f64> = y["ci"][key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let [lo, hi] = e.interval(m).unwrap();
            assert!(same(ci[0], lo) && same(ci[1], hi), "ci {key}");
        }
        assert!(y.get("theil_within").is_some() && y.get("concentration_index").is_some());
        assert!(
            y.get("mld").is_some(),
            "mld is present, as a number or null"
        );
    }
    let trend = &doc["trend"]["gini"];
    assert!(
        trend["slope"].is_number() && trend["ci_low"].is_null(),
        "two years: slope, no interval"
    );
    assert!(!doc["notes"].as_array().unwrap().is_empty());
    assert_eq!(doc["input"]["rows_used"], 30);
}

#[test]
fn the_same_seed_prints_the_same_bytes() {
    let args = [
        "inequality",
        DATA,
        "--bootstrap",
        "100",
        "--seed",
        "3",
        "--format",
        "json",
    ];
    assert_eq!(imr(&args).stdout, imr(&args).stdout);
    let other = imr(&[
        "inequality",
        DATA,
        "--bootstrap",
        "100",
        "--seed",
        "4",
        "--format",
        "json",
    ]);
    assert_ne!(imr(&args).stdout, other.stdout);
}

#[test]
fn csv_has_one_row_per_year_with_a_decimal_point() {
    let out = succeeds(&["inequality", DATA, "--bootstrap", "50", "--format", "csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("# Source: inequality_communes.csv\n# imr-atlas engine "));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].starts_with("time,n_areas,pooled_rate,pooled_rate_ci_low,pooled_rate_ci_high,")
    );
    assert!(lines[1].starts_with("2018,15,"));
    let header: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(header.len(), row.len());
    let gini = row[header.iter().position(|h| *h == "gini").unwrap()];
    assert!(
        gini.starts_with("0.") && gini.parse::<f64>().is_ok(),
        "{gini}"
    );
}

#[test]
fn a_weighted_column_is_measured_its_missing_value_listed_and_no_adjusted_measures() {
    let doc = json(&[&["inequality", DATA][..], &INCOME, &["--bootstrap", "50"]].concat());
    assert_eq!(doc["subject"]["kind"], "value");
    assert_eq!(doc["subject"]["bootstrap_method"], "resample_areas");
    let missing = doc["rows_not_measured"].as_array().unwrap();
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0]["entity"], "11101");
    assert_eq!(missing[0]["time"], 2019);
    assert_eq!(missing[0]["line"], 28);
    assert_eq!(doc["years"][1]["n_areas"], 14);
    assert!(doc["years"][1].get("zero_value_areas").is_some());
    assert!(doc["years"][0]["ci"]["gini"].is_array());
    // the adjusted measures are of rates of death counts, not of a column's values
    assert!(doc["years"][0].get("adjusted").is_none());
    assert!(doc.get("trend_adjusted").is_none());
}

#[test]
fn of_without_weight_is_a_usage_error() {
    fails(
        2,
        &[
            "inequality",
            DATA,
            "--of",
            "ingreso_salud",
            "--format",
            "json",
        ],
    );
}

#[test]
fn an_unknown_column_or_measure_is_a_usage_error_that_names_it() {
    for (flag, name, format) in [
        ("--group", "provincia", "json"),
        ("--measure", "ginny", "svg-trend"),
    ] {
        let stderr = fails(2, &["inequality", DATA, flag, name, "--format", format]);
        assert!(stderr.contains(&format!("`{name}`")), "{stderr}");
    }
}

#[test]
fn charts_are_written_as_svg() {
    for (format, marker) in [
        ("svg-trend", "Theil T of the infant mortality rate by year"),
        ("svg-lorenz", "class=\"lorenz\" data-time=\"2019\""),
        ("svg-box", "class=\"box\" data-time=\"2018\""),
    ] {
        let svg = common::stdout(&[
            "inequality",
            DATA,
            "--bootstrap",
            "20",
            "--measure",
            "theil_t",
            "--years",
            "2019",
            "--format",
            format,
        ]);
        assert!(svg.starts_with("<svg "), "{format}");
        assert!(svg.contains(marker), "{format}: {marker}");
    }
}

#[test]
fn svg_charts_carry_the_provenance_line_and_speak_spanish_with_lang_es() {
    let box_plot = |extra: &[&str]| {
        let base = [
            "inequality",
            DATA,
            "--bootstrap",
            "20",
            "--format",
            "svg-box",
        ];
        common::stdout(&[&base[..], extra].concat())
    };
    let en = box_plot(&[]);
    // The visible line names the source, the tool and the date; the engine's version is in
    // the metadata, after the same line.
    let metadata = &en[en.find("<metadata>").unwrap()..en.find("</metadata>").unwrap()];
    assert!(
        metadata
            .starts_with("<metadata>Source: User data (inequality_communes.csv) · imr-atlas · ")
            && metadata.contains(" · imr-atlas engine "),
        "{metadata}"
    );
    assert!(!en.contains(">Source: User data (inequality_communes.csv) · imr-atlas engine"));
    assert!(en.contains(
        "<title>Distribution of the infant mortality rate across areas, by year</title>"
    ));
    let es = box_plot(&["--lang", "es"]);
    assert!(es.contains(
        "<title>Distribución de la tasa de mortalidad infantil entre comunas, por año</title>"
    ));
    assert!(es.contains(">Fuente: Datos del usuario (inequality_communes.csv) · imr-atlas · "));
}

/// The tick values of a chart's y axis (the `text-anchor="end"` labels of `<g class="y-axis">`).
fn y_ticks(svg: &str) -> Vec<f64> {
    let axis = &svg[svg.find("<g class=\"y-axis\">").expect("a y axis")..];
    let axis = &axis[..axis.find("</g>").unwrap()];
    axis.lines()
        .filter(|l| l.starts_with("<text") && l.contains("text-anchor=\"end\""))
        .map(|l| {
            let text = &l[l.find('>').unwrap() + 1..l.rfind("</text>").unwrap()];
            text.parse::<f64>()
                .unwrap_or_else(|_| panic!("tick {text:?}"))
        })
        .collect()
}

/// On the bundled data General Lagos (15202) had, in 2021, one infant death among one birth:
/// 1000 per 1,000. As a flagged row it is left out of the measures and of the box plot, as the
/// page does; --include-flagged keeps it in the box statistics but off the axis, drawn as
/// "off scale: 1000 (flagged)" at the plot's edge, so that it does not flatten every box.
#[test]
fn the_box_plot_leaves_flagged_rates_out_unless_included() {
    let bundled = "../../public/data/chile_imr_2001_2021.csv";
    let args = [
        "inequality",
        bundled,
        "--bootstrap",
        "0",
        "--format",
        "svg-box",
    ];
    let out = succeeds(&args);
    let svg = String::from_utf8(out.stdout).unwrap();
    let top = y_ticks(&svg).into_iter().fold(f64::NEG_INFINITY, f64::max);
    assert!(top < 1000.0 && top > 20.0, "axis to {top}");
    assert!(!svg.contains("1000"), "the flagged value is left out");

    let out = succeeds(&[&args[..], &["--include-flagged"]].concat());
    let included = String::from_utf8(out.stdout).unwrap();
    let top = y_ticks(&included)
        .into_iter()
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(top < 1000.0, "axis to {top} with --include-flagged");
    assert_eq!(
        included
            .matches(">off scale: 1000 (flagged)</text>")
            .count(),
        1
    );
    assert!(included.contains(r#"class="off-scale" data-flagged="true" data-value="1000""#));
    // Kept in the statistics: the 2021 box's outliers list it (the default's do not).
    let csv = |extra: &[&str]| {
        let mut words = args[..args.len() - 1].to_vec();
        words.extend_from_slice(&["csv-outliers"]);
        words.extend_from_slice(extra);
        String::from_utf8(succeeds(&words).stdout).unwrap()
    };
    assert!(!csv(&[]).contains("15202"));
    assert!(csv(&["--include-flagged"]).contains("15202"));
}

/// Equal to 1e-9 relative: `imr` computes with the page's floating-point functions
/// (src/same_math.rs) and this test process with the system's, which round some logarithms and
/// exponentials differently in the last bit; the adjusted measures are iterative maximum
/// likelihood estimates and profile-likelihood bounds, which carry that to about 1e-12.
fn same(a: f64, b: f64) {
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1e-300), "{a} vs {b}");
}

/// Per year `adjusted`, `adjusted_ci`, `excess_variation`; top level
/// `trend_adjusted`, equal to the engine's values on the same numbers.
#[test]
fn json_carries_the_adjusted_measures_of_the_engine() {
    let doc = json(&["inequality", DATA, "--bootstrap", "50", "--seed", "5"]);
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 50,
            seed: 5,
            level: 0.95,
        },
    };
    let report = spec.analyse(&fixture_rates()).unwrap().report;
    let years = doc["years"].as_array().unwrap();
    assert_eq!(years.len(), report.years.len());
    use imr_core::inequality::adjusted::AdjustedMeasure;
    for (y, ours) in years.iter().zip(&report.years) {
        let adj = ours.adjusted_year().expect("15 communes with deaths");
        for m in AdjustedMeasure::ALL {
            let v = y["adjusted"][m.key()].as_f64().unwrap();
            same(v, adj.value(m));
            let ci = y["adjusted_ci"][m.key()].as_array().unwrap();
            same(ci[0].as_f64().unwrap(), adj.interval(m)[0]);
            same(ci[1].as_f64().unwrap(), adj.interval(m)[1]);
            assert!(adj.interval(m)[0] <= adj.value(m) && adj.value(m) <= adj.interval(m)[1]);
        }
        let ev = &y["excess_variation"];
        same(
            ev["statistic"].as_f64().unwrap(),
            adj.excess_variation.statistic,
        );
        same(
            ev["p_value"].as_f64().unwrap(),
            adj.excess_variation.p_value,
        );
        assert_eq!(ev["method"], "likelihood_ratio_boundary_mixture");
    }
    let trend = &doc["trend_adjusted"]["gini"];
    let ours = report.trend_adjusted_of(AdjustedMeasure::Gini).unwrap();
    same(trend["slope"].as_f64().unwrap(), ours.slope);
    same(trend["ci_low"].as_f64().unwrap(), ours.ci_low);
    same(trend["ci_high"].as_f64().unwrap(), ours.ci_high);
    assert_eq!(doc["adjusted_method"]["approximate"], false);
}

#[test]
fn simulate_prints_the_table_for_a_file_s_births() {
    let out = succeeds(&[
        "simulate",
        DATA,
        "--year",
        "2019",
        "--replicates",
        "2",
        "--bootstrap",
        "0",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("| scenario | true CV |"));
    assert!(text.contains("| births as given | 0.30 | Gini |"));
    assert!(text.contains("5 years, births falling 30%"));
}

#[test]
fn simulate_has_the_inputs_grid_with_the_answer_as_shown() {
    let out = succeeds(&[
        "simulate",
        DATA,
        "--year",
        "2019",
        "--replicates",
        "2",
        "--bootstrap",
        "0",
        "--grid",
        "inputs",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("| CI as shown covers |"), "{text}");
    assert!(text.contains("| proxy c = 0.73, integer rates | 0.10 | Gini |"));
    assert!(text.contains("| rates rounded to 0.1 | 0.30 | CoV |"));
    assert!(text.contains("counted deaths, 10% of communes at 3x"));
}

/// Deaths derived from a published rate (SINIM's integer rates on INE's births): every year's
/// adjusted measures carry their range over the births ratio 0.7–1.0 and the rounding step read
/// from the rates (integers), and the interval of range and chance together contains the plain
/// interval. Counted deaths (the bundled data) carry none.
#[test]
fn derived_deaths_carry_the_sensitivity_range_in_the_json() {
    let published = common::sinim_as_published();
    let doc = json(&[
        "inequality",
        published.to_str().unwrap(),
        "--bootstrap",
        "0",
    ]);
    let counted = json(&common::bundled_inequality(&[]));
    assert!(counted["years"]
        .as_array()
        .unwrap()
        .iter()
        .all(|y| y.get("adjusted_sensitivity").is_none()));
    for year in doc["years"].as_array().unwrap() {
        let Some(sens) = year.get("adjusted_sensitivity") else {
            panic!("no adjusted_sensitivity in {year}");
        };
        assert_eq!(sens["births_ratio"]["low"], 0.7);
        assert_eq!(sens["births_ratio"]["high"], 1.0);
        assert_eq!(sens["rounding"]["step"], 1.0);
        let range = &sens["range"]["gini"];
        let shown = &sens["ci"]["gini"];
        let ci = &year["adjusted_ci"]["gini"];
        let f = |v: &serde_json::Value, i: usize| v[i].as_f64().unwrap();
        assert!(f(range, 0) <= f(range, 1));
        assert!(f(shown, 0) <= f(ci, 0) && f(ci, 1) <= f(shown, 1));
        assert!(f(shown, 0) <= f(range, 0) && f(range, 1) <= f(shown, 1));
        assert!(
            sens["excess_p_value_max"].as_f64().unwrap()
                >= year["excess_variation"]["p_value"].as_f64().unwrap()
        );
    }
}

/// Pearson r computed here, independently of the engine.
fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

/// The Gini per year (`observed` or `adjusted`) of the years in `years`, without those left out
/// of the trends and correlations.
fn gini_series(
    doc: &serde_json::Value,
    key: &str,
    years: std::ops::RangeInclusive<i64>,
) -> Vec<f64> {
    doc["years"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|y| y.get("repeat_of").is_none())
        .filter(|y| years.contains(&y["time"].as_i64().unwrap()))
        .map(|y| {
            if key == "adjusted" {
                y["adjusted"]["gini"].as_f64().unwrap()
            } else {
                y["gini"].as_f64().unwrap()
            }
        })
        .collect()
}

#[test]
fn against_adds_the_adjusted_correlation_and_leaves_the_other_keys_alone() {
    let base: Vec<&str> = ["inequality", BUNDLED]
        .into_iter()
        .chain(BUNDLED_ROLES)
        .chain(["--bootstrap", "0"])
        .collect();
    let plain = json(&base);
    let with: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--against", "gasto_salud_pc", "--against-weight", "births"])
        .collect();
    let doc = json(&with);
    for (k, v) in plain.as_object().unwrap() {
        assert_eq!(&doc[k], v, "key {k} changed");
    }
    let of: Vec<&str> = ["inequality", BUNDLED]
        .into_iter()
        .chain(BUNDLED_ROLES)
        .chain([
            "--bootstrap",
            "0",
            "--of",
            "gasto_salud_pc",
            "--weight",
            "births",
        ])
        .collect();
    // Health spending per inhabitant covers 2006–2012 in the bundled data.
    let spending = 2006..=2012;
    let income = gini_series(&json(&of), "observed", spending.clone());
    let c = &doc["correlation_adjusted"];
    assert_eq!(c["n_years"], 7);
    assert_eq!(c["against"], "gasto_salud_pc");
    assert_eq!(c["method"], "monte_carlo_profile_draws_fisher_z");
    let r = c["r"].as_f64().unwrap();
    same(
        r,
        pearson(&gini_series(&doc, "adjusted", spending.clone()), &income),
    );
    same(
        c["observed"]["r"].as_f64().unwrap(),
        pearson(&gini_series(&doc, "observed", spending), &income),
    );
    let (lo, hi) = (
        c["ci_low"].as_f64().unwrap(),
        c["ci_high"].as_f64().unwrap(),
    );
    assert!(-1.0 <= lo && lo < r && r < hi && hi <= 1.0, "{lo} {r} {hi}");
    // The yearly uncertainty widens the interval beyond Fisher's with exact years.
    let fisher = c["ci_fisher_exact_years"].as_array().unwrap();
    assert!(hi - lo > fisher[1].as_f64().unwrap() - fisher[0].as_f64().unwrap());
    // Rows without health income are listed, not dropped silently.
    assert!(!doc["against_rows_not_measured"]
        .as_array()
        .unwrap()
        .is_empty());
    // Same seed, same bytes.
    assert_eq!(imr(&with).stdout, imr(&with).stdout);
}

#[test]
fn against_with_two_years_gives_a_null_correlation() {
    let doc = json(
        &[
            &["inequality", DATA, "--bootstrap", "0"][..],
            &AGAINST_INCOME,
        ]
        .concat(),
    );
    assert!(doc["correlation_adjusted"].is_null());
    assert!(doc
        .as_object()
        .unwrap()
        .contains_key("correlation_adjusted"));
}

/// The data rows of a CSV export (its provenance lines left out), split into cells.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// A CSV cell and a JSON number are the same value (serde_json's reading of a float may be one
/// ulp off, without its float_roundtrip feature).
fn close(cell: &str, json: Option<f64>) {
    let (a, b) = (cell.parse::<f64>().unwrap(), json.unwrap());
    assert!((a - b).abs() <= 1e-15 * b.abs(), "{a} vs {b}");
}

#[test]
fn the_page_s_other_downloads_are_formats_too() {
    let base = ["inequality", DATA, "--bootstrap", "30"];
    let run = |extra: &[&str]| common::stdout(&[&base[..], extra].concat());
    let doc = json(&[&base[..], &["--format", "json"]].concat());
    // The line chart's series: the measure per year, as the JSON has it.
    let series = csv_rows(&run(&["--format", "csv-measure", "--measure", "theil_t"]));
    assert_eq!(
        series[0],
        [
            "time",
            "theil_t",
            "theil_t_bias_corrected",
            "theil_t_ci_low",
            "theil_t_ci_high",
            "copy_of_year"
        ]
    );
    assert_eq!(series.len(), 3);
    for (row, year) in series[1..].iter().zip(doc["years"].as_array().unwrap()) {
        assert_eq!(row[0], year["time"].to_string());
        close(&row[1], year["theil_t"].as_f64());
        close(&row[2], year["bias_corrected"]["theil_t"].as_f64());
        close(&row[3], year["ci"]["theil_t"][0].as_f64());
    }
    // One trend row per measure with a trend; the Lorenz points of the chosen year only.
    let trends = csv_rows(&run(&["--format", "csv-trends"]));
    assert_eq!(trends[0][..2], ["measure", "slope"]);
    assert_eq!(trends.len() - 1, doc["trend"].as_object().unwrap().len());
    let lorenz = csv_rows(&run(&["--format", "csv-lorenz", "--years", "2019"]));
    assert_eq!(lorenz[0], ["time", "weight_share", "total_share"]);
    assert!(lorenz.len() > 2 && lorenz[1..].iter().all(|r| r[0] == "2019"));
    let boxes = csv_rows(&run(&["--format", "csv-box"]));
    assert_eq!((boxes[0][0].as_str(), boxes.len()), ("time", 3));
    assert_eq!(
        csv_rows(&run(&["--format", "csv-outliers"]))[0],
        ["time", "entity", "value"]
    );
}

#[test]
fn the_two_series_need_against_and_bootstrap_the_second_one() {
    let stderr = fails(2, &["inequality", DATA, "--format", "svg-against"]);
    assert!(stderr.contains("--against"), "{stderr}");
    let base = [
        &["inequality", DATA, "--bootstrap", "30"][..],
        &AGAINST_INCOME,
    ]
    .concat();
    let svg = common::stdout(&[&base[..], &["--format", "svg-against"]].concat());
    assert!(svg.starts_with("<svg "), "{}", &svg[..40]);
    // The column as the page's sentences name it (the codebook's words, else its name quoted:
    // this file's own column), and the subtitle's correlation said to be of the observed
    // values (the Findings' is of the adjusted Gini).
    let title = &svg[svg.find("<title>").unwrap()..svg.find("</title>").unwrap()];
    assert!(title.contains("of “ingreso_salud” by year"), "{title}");
    assert!(svg.contains("Correlation of the observed values: Pearson r ="));
    let rows = csv_rows(&common::stdout(
        &[&base[..], &["--format", "csv-against"]].concat(),
    ));
    assert_eq!(
        rows[0],
        [
            "time",
            "imr_gini",
            "imr_gini_ci_low",
            "imr_gini_ci_high",
            "ingreso_salud_gini",
            "ingreso_salud_gini_ci_low",
            "ingreso_salud_gini_ci_high"
        ]
    );
    // The second series is the column measured on its own with the same bootstrap.
    let other = json(&[&["inequality", DATA][..], &INCOME, &["--bootstrap", "30"]].concat());
    for (row, year) in rows[1..].iter().zip(other["years"].as_array().unwrap()) {
        close(&row[4], year["gini"].as_f64());
        close(&row[5], year["ci"]["gini"][0].as_f64());
    }
}

/// Every file of the Inequality view is a `--format` of `imr inequality` (the one list,
/// `InequalityExport::ALL`): a chart is an SVG with its provenance in `<metadata>`, a CSV starts
/// with the provenance lines; the against files say what they need without `--against`.
#[test]
fn every_file_of_the_inequality_view_is_a_format_of_imr_inequality() {
    use imr_core::request::InequalityExport;
    for export in InequalityExport::ALL {
        let base = [
            "inequality",
            DATA,
            "--bootstrap",
            "20",
            "--format",
            export.format(),
        ];
        let against = [
            "--against",
            "ingreso_salud",
            "--against-weight",
            "poblacion",
        ];
        if export.needs_second_series() {
            let stderr = fails(2, &base);
            assert!(stderr.contains("need --against"), "{stderr}");
        }
        let args: Vec<&str> = if export.needs_second_series() {
            base.iter().chain(&against).copied().collect()
        } else {
            base.to_vec()
        };
        let text = common::stdout(&args);
        if export.is_svg() {
            assert!(text.starts_with("<svg "), "{export:?}");
            assert!(
                text.contains("<metadata>Source: User data (inequality_communes.csv)"),
                "{export:?}"
            );
        } else {
            assert!(
                text.starts_with("# Source: inequality_communes.csv\n"),
                "{export:?}"
            );
            assert!(
                text.lines()
                    .nth(3)
                    .is_some_and(|header| header.contains(',')),
                "{export:?}"
            );
        }
    }
}

/// `--births-ratio LOW,HIGH` sets the range of true over given births over which the adjusted
/// measures are recomputed (deaths derived from SINIM's published rates): each year reports the
/// range it used, and another range gives other bounds; a range that is not two ratios in order
/// is a usage error that says why.
#[test]
fn the_births_ratio_range_is_the_users_to_narrow() {
    let published = common::sinim_as_published();
    let file = published.to_str().unwrap();
    let sensitivity = |extra: &[&str]| -> Vec<serde_json::Value> {
        let doc = json(&[&["inequality", file, "--bootstrap", "0"][..], extra].concat());
        doc["years"]
            .as_array()
            .unwrap()
            .iter()
            .map(|y| y["adjusted_sensitivity"].clone())
            .collect()
    };
    let default = sensitivity(&[]);
    let narrowed = sensitivity(&["--births-ratio", "0.9,1.1"]);
    assert_eq!(default.len(), narrowed.len());
    for (d, n) in default.iter().zip(&narrowed) {
        assert_eq!(
            d["births_ratio"],
            serde_json::json!({"low": 0.7, "high": 1.0})
        );
        assert_eq!(
            n["births_ratio"],
            serde_json::json!({"low": 0.9, "high": 1.1})
        );
    }
    assert!(
        default
            .iter()
            .zip(&narrowed)
            .any(|(d, n)| d["range"]["gini"] != n["range"]["gini"]),
        "another range gives other bounds"
    );
    for (bad, said) in [
        ("1.1,0.9", "above the high end"),
        ("0,1", "not a ratio between 0.01 and 100"),
        ("0.9", "expected LOW,HIGH"),
    ] {
        let stderr = fails(2, &common::bundled_inequality(&["--births-ratio", bad]));
        assert!(stderr.contains(said), "{bad}: {stderr}");
    }
}
