//! The coefficient plot drawing a term per a larger change of its column (the Findings' "+50
//! km"): a newcomer saw distance to the hospital drawn at zero on the Models view (per km)
//! while question 4 reported it per 50 km.

mod common;
use common::grunfeld_fits;
use imr_models::report::{coefficient_plot_svg, PlotOptions};
use imr_models::Lang;

/// The drawn estimate and interval of `term` in `model`'s row of `svg`.
fn drawn(svg: &str, term: &str, model: &str) -> [f64; 3] {
    let key = format!("data-term=\"{term}\" data-model=\"{model}\"");
    let key = match svg.find(&format!("{key} data-per=\"")) {
        Some(_) => format!("{key} data-per=\"10\" data-estimate=\""),
        None => format!("{key} data-estimate=\""),
    };
    let at = svg.find(&key).expect("the row") + key.len();
    let cells: Vec<f64> = svg[at..]
        .split('"')
        .step_by(2)
        .take(3)
        .map(|v| v.parse().unwrap())
        .collect();
    [cells[0], cells[1], cells[2]]
}

#[test]
fn a_term_given_a_change_is_drawn_per_that_change_and_the_axis_says_so() {
    let fits = grunfeld_fits();
    let options = PlotOptions {
        caption: imr_stats::Caption {
            lang: Lang::Es,
            ..Default::default()
        },
        term_labels: vec![("capital".into(), "Capital +10".into())],
        term_changes: vec![("capital".into(), 10.0)],
        ..PlotOptions::default()
    };
    let per_ten = coefficient_plot_svg(&fits, &options);
    let per_unit = coefficient_plot_svg(
        &fits,
        &PlotOptions {
            term_changes: vec![],
            ..options.clone()
        },
    );
    for fit in &fits {
        let model = fit.model.name();
        let c = fit
            .coefficients
            .iter()
            .find(|c| c.term == "capital")
            .unwrap();
        let [estimate, low, high] = drawn(&per_ten, "capital", model);
        assert!((estimate - 10.0 * c.estimate).abs() <= 1e-12 * estimate.abs().max(1.0));
        assert!((low - 10.0 * c.conf_low).abs() <= 1e-12 * low.abs().max(1.0));
        assert!((high - 10.0 * c.conf_high).abs() <= 1e-12 * high.abs().max(1.0));
        // another term keeps its unit
        assert_eq!(
            drawn(&per_ten, "value", model),
            drawn(&per_unit, "value", model)
        );
        assert_eq!(drawn(&per_unit, "capital", model)[0], c.estimate);
    }
    assert!(per_ten.contains("Cambio por el aumento que indica cada fila"));
    assert!(!per_unit.contains("Cambio por el aumento que indica cada fila"));
    assert!(per_unit.contains("Cambio por cada unidad más"));
    assert!(per_ten.contains(">Capital +10<"));
    // A change of one unit, or one that is not a positive number, draws per unit.
    for per in [1.0, 0.0, -5.0, f64::NAN] {
        let svg = coefficient_plot_svg(
            &fits,
            &PlotOptions {
                term_changes: vec![("capital".into(), per)],
                ..options.clone()
            },
        );
        assert_eq!(svg, per_unit, "{per}");
    }
}
