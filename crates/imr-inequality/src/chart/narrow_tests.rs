//! Every chart drawn at 320 px, a phone's width (issue 42): no text line past its edges, no two
//! x-axis labels on each other, in Spanish and English, with a copied and a reconstructed year
//! and a long provenance line.

use super::measure::faults;
use crate::chart::{
    box_plot_svg_flagged, line_chart_svg_in, lorenz_svg_in, two_series_svg_in, LineChart,
    SeriesSpec,
};
use crate::distribution::{box_plot_stats, lorenz_curve};
use crate::report::{SeriesPoint, SubjectInfo};
use crate::trend::correlate;
use crate::YearMarks;
use imr_stats::{Caption, Lang};

const YEARS: std::ops::RangeInclusive<i64> = 2001..=2021;

/// A phone's chart: `lang`, a long provenance line, 320 px wide.
fn phone(lang: Lang) -> Caption {
    Caption::new(
        lang,
        "Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv, ingresos_municipales_2001_2021.csv) · imr-atlas · 2026-12-05",
    )
    .with_width(320.0)
}

/// 2020 a copy of 2019, 2021 with reconstructed deaths.
fn marks() -> YearMarks {
    YearMarks {
        copies: vec![(2020, 2019)],
        reconstructed: vec![2021],
    }
}

fn points(scale: f64) -> Vec<SeriesPoint> {
    (YEARS.map(|t| {
        let value = scale * (0.3 + 0.01 * (t - 2001) as f64);
        SeriesPoint {
            time: t,
            value,
            ci: Some([value * 0.9, value * 1.1]),
        }
    }))
    .collect()
}

fn subject() -> SubjectInfo {
    SubjectInfo {
        kind: crate::year::SubjectKind::Rate,
        value_name: crate::words::Quantity::InfantMortalityRate,
        unit: crate::words::Unit::PerLiveBirths { per: 1000.0 },
        weight_name: crate::words::Quantity::Births,
        deaths_derived: false,
        bootstrap_method: crate::bootstrap::BootstrapMethod::PoissonDeaths,
        bootstrap_replicates: 200,
        seed: 1,
        level: 0.95,
    }
}

/// Rates and births of 40 communes in year `t`, one of them far beyond the others.
fn communes(t: i64) -> (Vec<String>, Vec<f64>, Vec<f64>) {
    let names = (0..40).map(|k| format!("Comuna {k}")).collect();
    let mut rates: Vec<f64> = (0..40)
        .map(|k| 2.0 + k as f64 * 0.2 + (t % 3) as f64)
        .collect();
    rates[39] = 60.0;
    let births = (0..40).map(|k| 100.0 + 37.0 * k as f64).collect();
    (names, rates, births)
}

fn assert_fits(name: &str, svg: &str) {
    let faults = faults(svg, 320.0);
    assert!(faults.is_empty(), "{name}: {faults:#?}\n{svg}");
}

#[test]
fn the_line_chart_fits_320_px() {
    for lang in [Lang::Es, Lang::En] {
        let points = points(1.0);
        let chart = LineChart {
            title: "Gini (ponderado por nacimientos): tasa de mortalidad infantil, por año".into(),
            subtitle: Some("Valor corregido por sesgo y su intervalo al 95% de 200 remuestreos; el valor observado de cada año no se dibuja".into()),
            desc: "d".into(),
            y_label: "Gini (ponderado por nacimientos), razón, sin unidad".into(),
            points: &points,
            range: (0.0, 1.0),
            marks: marks(),
        };
        assert_fits("line", &line_chart_svg_in(&chart, &phone(lang)));
    }
}

#[test]
fn the_box_plot_fits_320_px() {
    for lang in [Lang::Es, Lang::En] {
        let boxes: Vec<_> = (YEARS.filter(|t| *t != 2010))
            .filter_map(|t| {
                let (names, rates, _) = communes(t);
                box_plot_stats(t, &names, &rates)
            })
            .collect();
        // Each year's highest rate flagged: drawn off scale, its note inside the chart.
        let flagged = |e: &str, _| e == "Comuna 39";
        let svg = box_plot_svg_flagged(&boxes, &subject(), &phone(lang), &flagged, &marks());
        let off = svg.matches("class=\"off-scale\"").count();
        assert_eq!(off, boxes.len(), "{svg}");
        assert_fits("box plot", &svg);
        // Narrower boxes, every fourth year labelled.
        assert!(
            svg.contains(">2001</text>") && svg.contains(">2005</text>"),
            "{svg}"
        );
        assert!(!svg.contains(">2003</text>"), "{svg}");
    }
}

#[test]
fn the_lorenz_chart_is_a_square_within_320_px() {
    for lang in [Lang::Es, Lang::En] {
        let curves: Vec<_> = [2001, 2019, 2020, 2021]
            .into_iter()
            .filter_map(|t| {
                let (_, rates, births) = communes(t);
                lorenz_curve(t, &rates, &births)
            })
            .collect();
        let svg = lorenz_svg_in(&curves, &[], &subject(), &phone(lang), &marks());
        assert_fits("Lorenz", &svg);
        // The diagonal of a 216 px square.
        assert!(
            svg.contains("x1=\"80.00\" y1=\"272.00\" x2=\"296.00\" y2=\"56.00\""),
            "{svg}"
        );
    }
}

#[test]
fn the_two_series_panel_fits_320_px() {
    for lang in [Lang::Es, Lang::En] {
        let spec = |name: &str, scale| SeriesSpec {
            name: name.into(),
            y_label: "Gini (ponderado por nacimientos), razón, sin unidad".into(),
            points: points(scale),
            marks: marks(),
        };
        let (top, bottom) = (
            spec("Gini de la tasa de mortalidad infantil", 1.0),
            spec("Gini de ingreso municipal en salud por habitante", 2.0),
        );
        let pairs = |s: &SeriesSpec| {
            s.points
                .iter()
                .map(|p| (p.time, p.value))
                .collect::<Vec<_>>()
        };
        let correlation = correlate(&pairs(&top), &pairs(&bottom), 0.95);
        let svg = two_series_svg_in(&top, &bottom, &correlation, &phone(lang));
        assert_fits("panel", &svg);
    }
}

/// The panel's rotated y labels stay along their own panel (190 px, 20 px past each end), at
/// every width: a 51-character label ran ~370 px, over the other panel's (issue 42 retest).
#[test]
fn the_two_series_panel_y_labels_stay_along_their_panel() {
    let spec = |name: &str| SeriesSpec {
        name: name.into(),
        y_label: "Gini (ponderado por nacimientos), razón, sin unidad".into(),
        points: points(1.0),
        marks: YearMarks::default(),
    };
    let (top, bottom) = (spec("A"), spec("B"));
    let pairs = |s: &SeriesSpec| {
        s.points
            .iter()
            .map(|p| (p.time, p.value))
            .collect::<Vec<_>>()
    };
    let correlation = correlate(&pairs(&top), &pairs(&bottom), 0.95);
    for width in [320.0, 640.0, 760.0] {
        let caption = Caption::new(Lang::Es, "Fuente: INE").with_width(width);
        let svg = two_series_svg_in(&top, &bottom, &correlation, &caption);
        let rotated: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains("rotate(-90"))
            .map(|l| l.split('>').nth(1).unwrap().trim_end_matches("</text"))
            .collect();
        assert_eq!(
            rotated.len(),
            4,
            "two lines per panel at {width}: {rotated:?}"
        );
        for line in rotated {
            let length = line.chars().count() as f64 * crate::chart::fit::CHAR_EM * 12.0;
            assert!(length <= 230.0, "{line}: {length} px at {width}");
        }
    }
}
