//! Report exports: CSV, side-by-side tables, R/Stata code and the SVG coefficient plot.
//! The SVG is compared byte for byte with `tests/snapshots/`; regenerate only with
//! `UPDATE_EXPECT=1 cargo test -p imr-models --test report` and review the diff.

mod common;
use common::{grunfeld, grunfeld_fits};
use imr_models::report::{
    coefficient_plot_svg, coefficients_csv_many_with, imr_command, latex_table, markdown_table,
    r_code, stata_code, CodeContext, PlotOptions,
};
use imr_models::{Estimator, Fit, Lang, PanelSpec};

const CTX: CodeContext = CodeContext {
    csv_file: "grunfeld.csv",
    entity: "firm",
    time: "year",
    time_value: None,
    comment_lines: 0,
    delimiter: ',',
    decimal: '.',
    births: None,
    deaths: None,
    rate: None,
    drop_flagged: false,
    drop_years: &[],
};

/// Compares `actual` with `tests/snapshots/<name>` byte for byte; `UPDATE_EXPECT=1` rewrites it.
fn assert_snapshot(name: &str, actual: &str) {
    expect_test::expect_file![format!("snapshots/{name}")].assert_eq(actual);
}

#[test]
fn the_coefficient_plot_of_grunfeld_fits_matches_its_snapshot_byte_for_byte() {
    let svg = coefficient_plot_svg(
        &grunfeld_fits(),
        &PlotOptions {
            title: "Grunfeld: invest on value and capital".into(),
            ..PlotOptions::default()
        },
    );
    assert_snapshot("grunfeld_coefficients.svg", &svg);
    // deterministic: the same fits give the same bytes
    assert_eq!(
        svg,
        coefficient_plot_svg(
            &grunfeld_fits(),
            &PlotOptions {
                title: "Grunfeld: invest on value and capital".into(),
                ..PlotOptions::default()
            }
        )
    );
}

/// A reader's words name the rows (the page passes the codebook's labels), and the margin
/// grows to hold the longest; terms without a label keep their name.
#[test]
fn the_plot_names_terms_by_their_labels_with_room_for_them() {
    let labelled = coefficient_plot_svg(
        &grunfeld_fits(),
        &PlotOptions {
            term_labels: vec![(
                "value".into(),
                "Market value of the firm, millions of 1947 dollars".into(),
            )],
            ..PlotOptions::default()
        },
    );
    // The label is longer than the margin may grow (45% of the width): it wraps onto lines
    // that each fit the margin, and none is lost or clipped.
    let label_lines: Vec<&str> = labelled
        .split("<tspan ")
        .skip(1)
        .filter_map(|t| t.split_once('>').map(|(_, rest)| rest))
        .map(|rest| rest.split("</tspan>").next().unwrap())
        .collect();
    let words = "Market value of the firm, millions of 1947 dollars";
    let wrapped: Vec<&str> = label_lines
        .iter()
        .copied()
        .filter(|l| words.contains(*l))
        .collect();
    assert!(wrapped.len() >= 2, "{labelled}");
    assert_eq!(wrapped.join(" "), words);
    let margin = 0.45 * PlotOptions::default().width;
    assert!(wrapped
        .iter()
        .all(|l| 16.0 + 6.5 * l.chars().count() as f64 <= margin));
    assert!(!labelled.contains(">value</tspan>"));
    assert!(labelled.contains(">capital</tspan>"));
    // A legend entry wider than the plot wraps too: no line is longer than the width holds.
    for line in &label_lines {
        assert!(22.0 + 6.5 * line.chars().count() as f64 <= 640.0, "{line}");
    }
    // The estimates move right to leave the label its room: every x is beyond the margin.
    let plain = coefficient_plot_svg(&grunfeld_fits(), &PlotOptions::default());
    let first_circle_x = |svg: &str| -> f64 {
        // The first estimate's point (the legend's circles come before the rows).
        let row = &svg[svg.find("<g data-term=").expect("a row")..];
        let at = row.find("<circle cx=\"").expect("a point") + "<circle cx=\"".len();
        row[at..].split('"').next().unwrap().parse().unwrap()
    };
    assert!(first_circle_x(&labelled) > first_circle_x(&plain));
}

#[test]
fn the_plot_intervals_are_the_table_intervals() {
    let fits = grunfeld_fits();
    let svg = coefficient_plot_svg(&fits, &PlotOptions::default());
    for fit in &fits {
        for c in fit.coefficients.iter().filter(|c| c.term != "(Intercept)") {
            let needle = format!(
                "data-term=\"{}\" data-model=\"{}\" data-estimate=\"{}\" data-conf-low=\"{}\" data-conf-high=\"{}\"",
                c.term, fit.model.name(), c.estimate, c.conf_low, c.conf_high
            );
            assert!(svg.contains(&needle), "missing {needle}");
        }
    }
    assert!(!svg.contains("data-term=\"(Intercept)\""));
}

/// The coefficient table with the default options (formula guard on), as `imr fit --format csv`.
fn coefficients_csv(fits: &[Fit]) -> String {
    coefficients_csv_many_with(fits, Default::default())
}

#[test]
fn the_csv_has_one_row_per_coefficient_with_full_precision() {
    let fit = &grunfeld_fits()[1];
    let csv = coefficients_csv(std::slice::from_ref(fit));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "model,vcov,term,estimate,std_error,statistic,p_value,conf_low,conf_high"
    );
    assert_eq!(lines.len(), 1 + fit.coefficients.len());
    let prefix = format!("{},{},value,", fit.model.name(), fit.vcov.name());
    let value: Vec<f64> = lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap()
        .split(',')
        .skip(3)
        .map(|v| v.parse().unwrap())
        .collect();
    let c = fit.coefficient("value").unwrap();
    assert_eq!(
        value,
        vec![
            c.estimate,
            c.std_error,
            c.statistic,
            c.p_value,
            c.conf_low,
            c.conf_high
        ]
    );
    let all = coefficients_csv(&grunfeld_fits());
    let bodies: String = grunfeld_fits()
        .iter()
        .map(|f| {
            coefficients_csv(std::slice::from_ref(f))
                .split_once('\n')
                .unwrap()
                .1
                .to_owned()
        })
        .collect();
    assert_eq!(all.split_once('\n').unwrap().1, bodies);
}

#[test]
fn the_markdown_table_shows_estimates_with_stars_and_errors_in_parentheses() {
    let md = markdown_table(&grunfeld_fits(), Lang::En);
    // fe clustered: value 0.1101238 (0.0151945), t(9) = 7.25 → p < 0.001
    assert!(md.contains("| value | 0.1101*** |"), "{md}");
    assert!(md.contains("| | (0.01519) |"), "{md}");
    assert!(md.contains("| Observations | 200 | 200 | 200 |"));
    assert!(
        md.contains("| (Intercept) | |"),
        "the fe column has no intercept: {md}"
    );
}

#[test]
fn the_latex_table_escapes_names_and_uses_booktabs() {
    let tex = latex_table(&grunfeld_fits(), Lang::En);
    assert!(tex.starts_with("\\begin{tabular}{lrrr}\n\\toprule"));
    assert!(tex.contains("value & $0.1101^{***}$"));
    assert!(tex.contains("R$^2$ within"));
    assert!(tex.trim_end().ends_with("p<0.001."));
}

#[test]
fn r_and_stata_code_name_the_model_the_errors_and_the_reproducing_command() {
    let fits = grunfeld_fits();
    let r = r_code(&fits[0], &CTX);
    assert!(r.contains("X <- as.matrix(d[, c(\"value\", \"capital\"), drop = FALSE])\n"));
    assert!(r.contains("m <- lm(Y ~ factor(entity) + X_w)\n"));
    assert!(r.contains("read.csv(\"grunfeld.csv\""));
    let stata = stata_code(&fits[0], &CTX);
    assert!(stata.contains("xtreg invest value capital, fe vce(cluster entity_id)"));
    assert!(stata.contains("xtset entity_id year"));
    let re = stata_code(&fits[1], &CTX);
    assert!(re.contains("xtreg invest value capital, re\n") && re.contains("hausman fe re"));
    assert_eq!(
        imr_command(&fits[0], &CTX),
        "imr fit grunfeld.csv --entity firm --time year --y invest --x value,capital --model fe --vcov cluster --format json"
    );
    for estimator in Estimator::ALL {
        let fit = PanelSpec::new(estimator).fit(&grunfeld()).unwrap();
        assert!(r_code(&fit, &CTX).contains(fit.model.label()));
        assert!(stata_code(&fit, &CTX).contains(fit.model.label()));
    }
}

#[test]
fn the_json_has_the_keys_of_the_imr_fit_contract() {
    let json: serde_json::Value = serde_json::from_str(&grunfeld_fits()[0].to_json()).unwrap();
    for key in [
        "model",
        "vcov",
        "nobs",
        "n_entities",
        "n_periods",
        "rows_excluded",
        "coefficients",
        "dropped_terms",
        "r2_within",
        "r2_between",
        "r2_overall",
        "sigma2_u",
        "sigma2_e",
        "theta",
        "tests",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["model"], "fe");
    assert_eq!(json["vcov"], "cluster");
    assert_eq!(json["nobs"], 200);
    let c = &json["coefficients"][0];
    for key in [
        "term",
        "estimate",
        "std_error",
        "statistic",
        "p_value",
        "conf_low",
        "conf_high",
    ] {
        assert!(c.get(key).is_some(), "coefficient lacks {key}");
    }
    for key in ["statistic", "df", "p_value"] {
        assert!(json["tests"]["hausman"].get(key).is_some());
    }
    for key in ["statistic", "df1", "df2", "p_value"] {
        assert!(json["tests"]["f_effects"].get(key).is_some());
    }
    let re: serde_json::Value = serde_json::from_str(&grunfeld_fits()[1].to_json()).unwrap();
    assert_eq!(re["coefficients"][0]["term"], "(Intercept)");
}

/// Rows `imr` flags as implausible are dropped after the counts are derived, by the same rules:
/// a rate above 200 per 1,000, and for deaths derived from a rate also deaths reaching half the
/// births or fewer than 10 births; nothing of it without `drop_flagged` or without counts.
#[test]
fn code_drops_the_rows_flagged_as_implausible_by_the_same_rules() {
    let derived = CodeContext {
        births: Some("poblacion_0"),
        rate: Some("tmi"),
        drop_flagged: true,
        ..CTX
    };
    let counted = CodeContext {
        births: Some("births"),
        deaths: Some("deaths"),
        drop_flagged: true,
        ..CTX
    };
    let fits = grunfeld_fits();
    let r = r_code(&fits[0], &derived);
    assert!(r.contains(
        "flagged <- d$births > 0 & (1000 * d$deaths / d$births > 200 | d$deaths >= 0.5 * d$births | d$births < 10)\nd <- d[!flagged, ]\n"
    ), "{r}");
    assert!(r.find("d$rate <-").unwrap() < r.find("flagged <-").unwrap());
    let stata = stata_code(&fits[0], &derived);
    assert!(stata.contains(
        "drop if births > 0 & (1000 * deaths / births > 200 | deaths >= 0.5 * births | births < 10)\n"
    ), "{stata}");
    assert!(r_code(&fits[0], &counted)
        .contains("flagged <- d$births > 0 & (1000 * d$deaths / d$births > 200)\n"));
    assert!(stata_code(&fits[0], &counted)
        .contains("drop if births > 0 & (1000 * deaths / births > 200)\n"));
    let kept = CodeContext {
        drop_flagged: false,
        ..derived
    };
    assert!(!r_code(&fits[0], &kept).contains("flagged"));
    assert!(!stata_code(&fits[0], &kept).contains("implausible"));
    assert!(!r_code(
        &fits[0],
        &CodeContext {
            drop_flagged: true,
            ..CTX
        }
    )
    .contains("flagged"));
}

#[test]
fn code_for_a_csv_with_provenance_lines_skips_them() {
    let ctx = CodeContext {
        comment_lines: 3,
        ..CTX
    };
    let fits = grunfeld_fits();
    assert!(r_code(&fits[0], &ctx)
        .contains("read.csv(\"grunfeld.csv\", check.names = FALSE, comment.char = \"#\", "));
    assert!(stata_code(&fits[0], &ctx).contains(
        "import delimited using \"grunfeld.csv\", clear case(preserve) varnames(4) rowrange(5)\n"
    ));
    assert!(stata_code(&fits[0], &CTX).contains("case(preserve) varnames(1)\n"));
}

/// The words an SVG shows, its wrapped lines joined by a space.
fn visible_words(svg: &str) -> String {
    let mut words = String::new();
    let mut in_tag = false;
    for c in svg.chars() {
        match c {
            '<' => {
                in_tag = true;
                words.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => words.push(c),
            _ => {}
        }
    }
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_coefficient_plot_speaks_spanish_and_carries_its_provenance_line() {
    let svg = coefficient_plot_svg(
        &grunfeld_fits(),
        &PlotOptions {
            caption: imr_models::Caption::new(
                imr_models::Lang::Es,
                "Fuente: grunfeld.csv · motor imr-atlas 0.1.0 · 2026-11-30",
            ),
            ..PlotOptions::default()
        },
    );
    assert!(svg.contains("aria-label=\"Gráfico de coeficientes\""));
    // A published chart reads without the page (issue 42: a newcomer's export had no way to
    // tell what a coefficient is a change of, and a legend of "Swamy–Arora", "EE agrupados"):
    // the axis says what the numbers are, the subtitle how to read a row, the legend names the
    // models in plain words, and their technical names go in the file's description.
    assert!(svg.contains(
        ">Cambio por cada unidad más de la característica (su unidad, entre paréntesis)<"
    ));
    assert!(svg.contains(">Punto: estimación; línea: intervalo de confianza del 95%."));
    assert!(visible_words(&svg).contains(
        "(1) Efectos fijos: cada comuna comparada consigo misma en el tiempo; errores agrupados por comuna"
    ));
    assert!(svg.contains("<desc>(1) Efectos fijos (intragrupos), EE agrupados (CR1), IC 95%;"));
    let drawn = svg.split("</desc>").nth(1).unwrap();
    for jargon in ["Swamy", "intragrupos", "EE ", "IC 95", "CR1", "within"] {
        assert!(!drawn.contains(jargon), "{jargon} drawn on the chart");
    }
    assert!(svg.contains(
        "<metadata>Fuente: grunfeld.csv · motor imr-atlas 0.1.0 · 2026-11-30</metadata>"
    ));
    assert!(svg.contains("data-provenance=\"\""));
}

/// A correlated random effects fit plots Mundlak's commune means as rows: the subtitle says
/// what they are (the retest found "Pobreza (%), media de la comuna" unexplained), only then.
#[test]
fn the_plot_explains_its_commune_mean_rows_only_when_it_has_them() {
    let data = grunfeld();
    let spanish = PlotOptions {
        caption: imr_models::Caption::new(Lang::Es, "Fuente: grunfeld.csv"),
        ..PlotOptions::default()
    };
    let cre = common::fit(&data, Estimator::Cre, imr_models::VcovKind::Cluster);
    assert!(cre.coefficients.iter().any(|c| c.term == "value_mean"));
    let svg = coefficient_plot_svg(&[cre], &spanish);
    let words = visible_words(&svg);
    assert!(
        words.contains("Filas «media de la comuna»: el promedio de la característica en los años de cada comuna"),
        "{words}"
    );
    let without = visible_words(&coefficient_plot_svg(&grunfeld_fits(), &spanish));
    assert!(!without.contains("media de la comuna"), "{without}");
}
