//! Snapshot tests: the charts and CSV tables of the golden fixture are compared byte for byte
//! with the committed files in `tests/snapshots/`. After an intended change, regenerate them with
//! `UPDATE_EXPECT=1 cargo test -p imr-inequality --test snapshots` and review the diff.

mod common;

use common::{fixture_income, fixture_rates};
use imr_inequality::chart::{
    box_plot_svg, lorenz_svg, measure_over_years_svg, two_series_svg, SeriesSpec,
};
use imr_inequality::csv::{box_plot_csv, box_plot_outliers_csv, lorenz_csv, trend_csv, years_csv};
use imr_inequality::{
    correlate_reports, BootstrapSpec, InequalityAnalysis, InequalitySpec, Measure, Subject,
};

fn analyse(subject: &Subject) -> InequalityAnalysis {
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 200,
            seed: 42,
            level: 0.95,
        },
    };
    spec.analyse(subject).unwrap()
}

/// Compares `actual` with `tests/snapshots/<name>` byte for byte; `UPDATE_EXPECT=1` rewrites it.
fn check_snapshot(name: &str, actual: &str) {
    expect_test::expect_file![format!("snapshots/{name}")].assert_eq(actual);
}

/// Every opened element is closed, in order; text and attributes hold no raw `<` or `&`.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        assert!(!text.contains('>'), "stray '>' in text {text:?}");
        for (k, _) in text.match_indices('&') {
            let entity = &text[k..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "raw '&' in {text:?}"
            );
        }
        let end = rest[start..].find('>').expect("unclosed tag") + start;
        let tag = &rest[start + 1..end];
        assert!(!tag.contains('<'), "'<' inside tag {tag:?}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap().to_string();
            stack.push(name);
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
}

fn assert_accessible(svg: &str, axis_labels: &[&str]) {
    assert_well_formed(svg);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("<title>") && svg.contains("<desc>"));
    for label in axis_labels {
        assert!(svg.contains(label), "axis label {label:?} missing");
    }
}

#[test]
fn gini_over_years_chart_matches_its_snapshot() {
    let a = analyse(&fixture_rates(true, true));
    let svg = measure_over_years_svg(&a.report, Measure::Gini);
    assert_accessible(&svg, &["Year", "Gini (weighted), ratio, no unit"]);
    assert!(svg.contains("class=\"ci\""), "the band is drawn");
    check_snapshot("gini_over_years.svg", &svg);
}

/// The tick labels of a chart's y axis, in order.
fn y_tick_labels(svg: &str) -> Vec<String> {
    let axis = &svg[svg.find("<g class=\"y-axis\">").unwrap()..];
    let axis = &axis[..axis.find("</g>").unwrap()];
    axis.lines()
        .filter(|l| l.starts_with("<text") && l.contains("text-anchor=\"end\""))
        .map(|l| l[l.find('>').unwrap() + 1..l.rfind("</text>").unwrap()].to_string())
        .collect()
}

/// A Gini near 0 with an interval that reaches below it (as a caller's normal-approximation
/// interval may): the axis starts at 0, not at the nice floor −0.05, and the band is clipped at
/// 0 (the frame's bottom, y = 340). Without the measure's range the same chart dips below 0.
#[test]
fn a_gini_near_zero_keeps_its_axis_and_band_at_zero() {
    use imr_inequality::chart::{line_chart_svg, LineChart};
    use imr_inequality::SeriesPoint;
    let points = [
        SeriesPoint {
            time: 2019,
            value: 0.02,
            ci: Some([-0.03, 0.09]),
        },
        SeriesPoint {
            time: 2020,
            value: 0.0,
            ci: Some([0.0, 0.05]),
        },
        SeriesPoint {
            time: 2021,
            value: 0.05,
            ci: Some([0.01, 0.11]),
        },
    ];
    let chart = |range| LineChart {
        title: "Gini of the true rates".into(),
        subtitle: Some("band: 95% CI".into()),
        desc: "Gini near zero with an interval reaching below it.".into(),
        y_label: "Gini (ratio, no unit)".into(),
        points: &points,
        range,
        marks: Default::default(),
    };
    let unbounded = line_chart_svg(&chart((f64::NEG_INFINITY, f64::INFINITY)));
    assert_eq!(
        y_tick_labels(&unbounded).first().map(String::as_str),
        Some("-0.05")
    );
    let svg = line_chart_svg(&chart(Measure::Gini.range()));
    assert_accessible(&svg, &["Year", "Gini (ratio, no unit)"]);
    let ticks = y_tick_labels(&svg);
    assert_eq!(ticks[0].parse::<f64>().unwrap(), 0.0, "{ticks:?}");
    assert!(ticks.iter().all(|t| !t.starts_with('-')), "{ticks:?}");
    let pattern = "<polygon class=\"ci\" points=\"";
    let band = &svg[svg.find(pattern).unwrap() + pattern.len()..];
    let band = &band[..band.find('"').unwrap()];
    for xy in band.split(' ') {
        let y: f64 = xy.split(',').nth(1).unwrap().parse().unwrap();
        assert!(y <= 340.0, "band point {xy} below the axis floor");
    }
    assert!(
        band.contains(",340.00"),
        "the band reaches the floor: {band}"
    );
    check_snapshot("gini_near_zero.svg", &svg);
}

#[test]
fn pooled_rate_chart_labels_the_unit_per_1000_live_births() {
    let a = analyse(&fixture_rates(false, false));
    let svg = measure_over_years_svg(&a.report, Measure::PooledRate);
    assert_accessible(&svg, &["Pooled rate (per 1,000 live births)"]);
    check_snapshot("pooled_rate_over_years.svg", &svg);
}

#[test]
fn lorenz_chart_of_two_years_matches_its_snapshot() {
    let a = analyse(&fixture_rates(false, false));
    let svg = lorenz_svg(&a.lorenz, &[2017, 2019], &a.report.subject);
    assert_accessible(
        &svg,
        &[
            "Cumulative share of births (%)",
            "Cumulative share of infant deaths (%)",
        ],
    );
    assert_eq!(svg.matches("class=\"lorenz\"").count(), 2);
    check_snapshot("lorenz_2017_2019.svg", &svg);
}

#[test]
fn box_plot_chart_matches_its_snapshot() {
    let a = analyse(&fixture_rates(false, false));
    let svg = box_plot_svg(&a.box_plots, &a.report.subject);
    assert_accessible(
        &svg,
        &["Infant mortality rate (per 1,000 live births)", "Year"],
    );
    assert_eq!(svg.matches("class=\"box\"").count(), 3);
    check_snapshot("box_plot.svg", &svg);
}

#[test]
fn imr_versus_health_income_panel_matches_its_snapshot() {
    let imr = analyse(&fixture_rates(false, false)).report;
    let income = analyse(&fixture_income(false)).report;
    let corr = correlate_reports(&imr, Measure::Gini, &income, Measure::Gini, 0.95);
    let svg = two_series_svg(
        &SeriesSpec {
            name: "Gini of infant mortality".into(),
            y_label: "Gini (ratio, no unit)".into(),
            points: imr.series(Measure::Gini),
            marks: Default::default(),
        },
        &SeriesSpec {
            name: "Gini of health income per capita".into(),
            y_label: "Gini (ratio, no unit)".into(),
            points: income.series(Measure::Gini),
            marks: Default::default(),
        },
        &corr,
    );
    assert_accessible(&svg, &["Year", "Pearson r =", "Only 3 years"]);
    check_snapshot("imr_vs_income.svg", &svg);
}

#[test]
fn csv_tables_match_their_snapshots() {
    let a = analyse(&fixture_rates(true, true));
    let years = years_csv(&a.report, &imr_inequality::YearMarks::default());
    assert!(years.starts_with("time,n_areas,pooled_rate,pooled_rate_ci_low,pooled_rate_ci_high,"));
    assert_eq!(years.lines().count(), 4);
    check_snapshot("years.csv", &years);
    check_snapshot("trend.csv", &trend_csv(&a.report));
    check_snapshot("lorenz.csv", &lorenz_csv(&a.lorenz));
    check_snapshot(
        "box_plot.csv",
        &(box_plot_csv(&a.box_plots, &imr_inequality::YearMarks::default())
            + "\n"
            + &box_plot_outliers_csv(&a.box_plots)),
    );
}

#[test]
fn json_report_matches_its_snapshot() {
    let a = analyse(&fixture_rates(true, true));
    check_snapshot("report.json", &(a.report.to_json() + "\n"));
}

/// In Spanish with a provenance line: titles, axes and the foot line are in Spanish, the line is
/// in `<metadata>` too, and the SVG stays well formed.
#[test]
fn every_chart_speaks_spanish_and_carries_its_provenance_line() {
    use imr_inequality::chart::{
        box_plot_svg_in, lorenz_svg_in, measure_over_years_svg_in, two_series_svg_in,
    };
    use imr_inequality::{Caption, Lang};
    let line = "Fuente: tasas.csv · motor imr-atlas 0.1.0 (imr-core 0.1.0) · 2026-11-30";
    let caption = Caption::new(Lang::Es, line);
    let a = analyse(&fixture_rates(false, false));
    let income = analyse(&fixture_income(false)).report;
    let corr = correlate_reports(&a.report, Measure::Gini, &income, Measure::Gini, 0.95);
    let spec = |points| SeriesSpec {
        name: "Gini".into(),
        y_label: "Gini".into(),
        points,
        marks: Default::default(),
    };
    let charts = [
        (
            measure_over_years_svg_in(&a.report, Measure::Gini, &caption),
            "Gini (ponderado): tasa de mortalidad infantil, por año",
        ),
        (
            lorenz_svg_in(
                &a.lorenz,
                &[],
                &a.report.subject,
                &caption,
                &Default::default(),
            ),
            "Curvas de Lorenz: tasa de mortalidad infantil",
        ),
        (
            box_plot_svg_in(&a.box_plots, &a.report.subject, &caption),
            "Distribución de la tasa de mortalidad infantil entre comunas, por año",
        ),
        (
            two_series_svg_in(
                &spec(a.report.series(Measure::Gini)),
                &spec(income.series(Measure::Gini)),
                &corr,
                &caption,
            ),
            "Gini y Gini, por año",
        ),
    ];
    for (k, (svg, title)) in charts.iter().enumerate() {
        assert_well_formed(svg);
        assert!(svg.contains(&format!("<title>{title}</title>")), "{svg}");
        // The Lorenz curves have no year axis.
        assert!(k == 1 || svg.contains(">Año</text>"), "{title}");
        assert!(svg.contains(&format!("<metadata>{line}</metadata>")));
        assert!(svg.contains("class=\"provenance\"") && svg.contains("2026-11-30</text>"));
        assert!(!svg.contains(">Year<"));
    }
    assert!(charts[3].0.contains("Solo 3 años en común"));
}

/// The page's second panel and `imr inequality --format svg-against` draw each year with a band
/// at its bias-corrected value, on which the band is centred: the line runs inside its band (the
/// observed value, inflated by noise, can lie above all of it), as on the trend chart.
#[test]
fn the_two_series_panel_draws_each_point_inside_its_band() {
    use imr_inequality::chart::two_series_of;
    let imr = analyse(&fixture_rates(false, false)).report;
    let income = analyse(&fixture_income(false)).report;
    let (top, bottom, _) = two_series_of(&imr, &income, Measure::Gini, imr_stats::Lang::Es);
    assert_eq!(top.points, imr.series_in_band(Measure::Gini));
    assert_eq!(bottom.points, income.series_in_band(Measure::Gini));
    let banded = (top.points.iter().chain(&bottom.points)).filter(|p| p.ci.is_some());
    assert!(banded.clone().count() > 0);
    for p in banded {
        let [a, b] = p.ci.unwrap();
        assert!(a <= p.value && p.value <= b, "{p:?}");
    }
}
