//! Every figure the engines write for a Spanish reader — the inequality charts (each measure),
//! the adjusted chart, the map (each smoothing, classification and the LISA clusters), the
//! funnel plot and the coefficient plot — holds no number with a decimal point and no English
//! word of the engines' labels and units (`imr_lang::decimal_points`,
//! `imr_lang::english_label_words`, the lists e2e/spanish.test.mjs reads too). Only what a
//! reader sees is checked: the text of the elements and the accessible names, not coordinates
//! or the provenance in `<metadata>`. The Findings' figures are imr-findings' own.

use super::*;
use crate::inequality::adjusted::AdjustedMeasure;
use crate::inequality::answer::adjusted_svg_in;
use crate::models::report::{coefficient_plot_svg, PlotOptions};
use crate::test_support::bundled_panel;
use crate::{Caption, Lang};

/// What a reader of `markup` sees: element texts and aria-labels, entities decoded.
fn seen(markup: &str) -> Vec<String> {
    let mut body = markup.to_string();
    while let (Some(a), Some(b)) = (body.find("<metadata>"), body.find("</metadata>")) {
        body.replace_range(a..b + "</metadata>".len(), "");
    }
    let decode = |s: &str| {
        s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    };
    let mut texts: Vec<String> = body
        .split('>')
        .skip(1)
        .filter_map(|rest| rest.split('<').next())
        .map(|t| decode(t.trim()))
        .filter(|t| !t.is_empty())
        .collect();
    for part in body.split(" aria-label=\"").skip(1) {
        texts.push(decode(part.split('"').next().unwrap_or_default()));
    }
    texts
}

/// The texts of `markup` with a decimal point or an English word, named by `what`.
fn problems(what: &str, markup: &str) -> Vec<String> {
    seen(markup)
        .into_iter()
        .filter_map(|text| {
            let words = imr_lang::english_label_words(&text);
            let points = imr_lang::decimal_points(&text);
            (!words.is_empty() || !points.is_empty())
                .then(|| format!("{what}: {text:?} ({words:?} {points:?})"))
        })
        .collect()
}

fn caption() -> Caption {
    crate::provenance::caption(Lang::Es, "datos.csv", "2026-12-01")
}

#[test]
fn the_check_finds_what_a_spanish_reader_would_call_english() {
    let svg = "<svg aria-label=\"Pesos (pooled)\"><metadata>imr-atlas 0.1.0</metadata><text>9.0 – 111.0</text><text>0,25</text></svg>";
    assert_eq!(problems("x", svg).len(), 2, "{:?}", problems("x", svg));
}

#[test]
fn every_inequality_chart_in_spanish_has_decimal_commas_and_spanish_words() {
    let panel = bundled_panel();
    let request = InequalityRequest {
        against: Some(SecondSeries {
            column: "ingreso_salud_pc".into(),
            weight: "births".into(),
        }),
        bootstrap: 20,
        ..InequalityRequest::default()
    };
    let result = request.run(&panel).unwrap();
    let second = request.second_series().unwrap().run(&panel).unwrap();
    let caption = caption();
    let mut found = Vec::new();
    for measure in result.analysis.report.measures_present() {
        let choices = ExportChoices {
            measure,
            years: &[],
        };
        for export in InequalityExport::ALL.into_iter().filter(|e| e.is_svg()) {
            let svg = export
                .write(&result, Some(&second), &choices, &caption)
                .unwrap();
            found.extend(problems(&format!("{export:?} {measure:?}"), &svg));
        }
    }
    for measure in AdjustedMeasure::ALL {
        if let Some(svg) = adjusted_svg_in(&result.analysis.report, measure, &caption) {
            found.extend(problems(&format!("adjusted {measure:?}"), &svg));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_map_and_funnel_plot_in_spanish_has_decimal_commas_and_spanish_words() {
    let panel = bundled_panel();
    let year = *panel.times().last().unwrap();
    let boundaries = Boundaries {
        text: crate::data::BOUNDARIES_TOPOJSON.to_string(),
        name: "comunas.topojson".into(),
        credit: imr_map::year_map::BUNDLED_CREDIT.into(),
    };
    let context = MapContext {
        source: "datos.csv",
        today: "2026-12-01",
        csv: crate::escape::CsvOptions::default(),
        with_funnel: true,
    };
    let base = MapRequest {
        year,
        lang: Lang::Es,
        ..MapRequest::default()
    };
    let mut requests: Vec<MapRequest> = Vec::new();
    for smooth in Smooth::ALL {
        requests.push(MapRequest {
            smooth,
            ..base.clone()
        });
    }
    for scheme in ClassScheme::ALL
        .into_iter()
        .filter(|s| *s != ClassScheme::Custom)
    {
        requests.push(MapRequest {
            scheme,
            ..base.clone()
        });
    }
    requests.push(MapRequest {
        scheme: ClassScheme::Custom,
        breaks: vec![2.5, 1000.0],
        ..base.clone()
    });
    requests.push(MapRequest {
        lisa: true,
        moran: Some(99),
        ..base.clone()
    });
    requests.push(MapRequest {
        value: Some("ingreso_salud_pc".into()),
        include_flagged: true,
        ..base.clone()
    });
    let mut found = Vec::new();
    for request in requests {
        let what = format!(
            "{:?} {:?} lisa={}",
            request.smooth, request.scheme, request.lisa
        );
        let result = request.run(&panel, &boundaries, context).unwrap();
        found.extend(problems(&format!("map {what}"), &result.svg));
        if let Some(funnel) = &result.funnel_svg {
            found.extend(problems(&format!("funnel {what}"), funnel));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_coefficient_plot_in_spanish_has_decimal_commas_and_spanish_words() {
    let panel = bundled_panel();
    let mut found = Vec::new();
    for model in [
        crate::models::Estimator::Pooled,
        crate::models::Estimator::Fe,
    ] {
        for vcov in crate::models::VcovKind::ALL {
            let fit = FitRequest {
                x: vec!["pobreza".into(), "ingreso_salud_pc".into()],
                model,
                vcov,
                ..FitRequest::default()
            }
            .run(&panel)
            .unwrap();
            let svg = coefficient_plot_svg(
                &[fit],
                &PlotOptions {
                    caption: caption(),
                    include_intercept: true,
                    ..PlotOptions::default()
                },
            );
            found.extend(problems(&format!("plot {model:?} {vcov:?}"), &svg));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
