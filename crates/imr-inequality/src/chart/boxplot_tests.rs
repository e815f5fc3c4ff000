//! Tests of the box plot chart.

use super::*;
use crate::distribution::box_plot_stats;

/// The largest y-axis tick label of a chart.
fn top_tick(svg: &str) -> f64 {
    let axis = &svg[svg.find("<g class=\"y-axis\">").unwrap()..];
    let axis = &axis[..axis.find("</g>").unwrap()];
    axis.split("<text")
        .skip(1)
        .filter(|t| t.contains("text-anchor=\"end\""))
        .map(|t| {
            let label = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let digits: String = label.chars().filter(char::is_ascii_digit).collect();
            digits.parse::<f64>().unwrap()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Infant mortality per 1,000 births, deaths counted or (`deaths_derived`) derived from rates.
fn rate_subject(deaths_derived: bool) -> SubjectInfo {
    SubjectInfo {
        kind: crate::year::SubjectKind::Rate,
        value_name: crate::words::Quantity::InfantMortalityRate,
        unit: crate::words::Unit::PerLiveBirths { per: 1000.0 },
        weight_name: crate::words::Quantity::Births,
        deaths_derived,
        bootstrap_method: crate::bootstrap::BootstrapMethod::PoissonDeaths,
        bootstrap_replicates: 0,
        seed: 1,
        level: 0.95,
    }
}

/// Rates 1..20 of twenty areas and 1000 for area "15202", as on the bundled 2023 data.
fn boxes() -> Vec<BoxPlotStats> {
    let mut entities: Vec<String> = (1..=20).map(|k| format!("a{k}")).collect();
    entities.push("15202".into());
    let mut values: Vec<f64> = (1..=20).map(f64::from).collect();
    values.push(1000.0);
    vec![box_plot_stats(2023, &entities, &values).unwrap()]
}

#[test]
fn a_flagged_outlier_does_not_set_the_axis_and_is_marked_off_scale() {
    let boxes = boxes();
    assert_eq!(boxes[0].outliers.len(), 1);
    let subject = rate_subject(true);
    let caption = Caption::default();
    let plain = box_plot_svg_in(&boxes, &subject, &caption);
    assert!(top_tick(&plain) >= 1000.0);
    assert!(!plain.contains("off scale"));

    let flagged = box_plot_svg_flagged(
        &boxes,
        &subject,
        &caption,
        &|e, t| e == "15202" && t == 2023,
        &Default::default(),
    );
    let top = top_tick(&flagged);
    assert!((20.0..1000.0).contains(&top), "top tick {top}");
    assert!(flagged.contains("off scale: 1000 (flagged)"));
    assert_eq!(flagged.matches("class=\"off-scale\"").count(), 1);
    // The same outlier flagged in another year is not this one.
    let other = box_plot_svg_flagged(
        &boxes,
        &subject,
        &caption,
        &|e, t| e == "15202" && t == 2022,
        &Default::default(),
    );
    assert_eq!(other, plain);
}

/// A year that copies another is a hollow dashed box labelled as a copy; the others stay.
#[test]
fn a_copied_year_is_a_hollow_dashed_box() {
    let subject = rate_subject(false);
    let caption = Caption {
        lang: Lang::Es,
        ..Caption::default()
    };
    let svg = box_plot_svg_flagged(
        &boxes(),
        &subject,
        &caption,
        &|_, _| false,
        &crate::YearMarks::of_copies(vec![(2023, 2022)]),
    );
    assert_eq!(svg.matches("class=\"copy\"").count(), 1, "{svg}");
    assert!(
        svg.contains("<title>2023 (copia de 2022): mediana"),
        "{svg}"
    );
    assert_eq!(svg.matches("class=\"copy-label\"").count(), 1);
    // A reconstructed year: a diamond on its median, its title and the line under the chart.
    let marks = crate::YearMarks {
        copies: Vec::new(),
        reconstructed: vec![2023],
    };
    let svg = box_plot_svg_flagged(&boxes(), &subject, &caption, &|_, _| false, &marks);
    assert_eq!(svg.matches("class=\"reconstructed\"").count(), 1, "{svg}");
    assert!(svg.contains("<title>2023 (defunciones reconstruidas de una tasa publicada): mediana"));
    assert!(svg.contains(">Rombos: 2023, defunciones reconstruidas de una tasa publicada</text>"));
    assert!(!svg.contains("Gris"));
}

/// A year without a box keeps its place as a grey band titled "sin datos", said under the
/// chart: 2015 and 2017 do not stand side by side as if consecutive (a newcomer read the
/// bundled 2015 box running into 2017's).
#[test]
fn a_year_without_data_keeps_its_place_as_a_grey_band() {
    let one = |t: i64| {
        let entities: Vec<String> = (1..=10).map(|k| format!("a{k}")).collect();
        let values: Vec<f64> = (1..=10).map(f64::from).collect();
        box_plot_stats(t, &entities, &values).unwrap()
    };
    let boxes = vec![one(2015), one(2017), one(2018)];
    let subject = rate_subject(false);
    let caption = Caption {
        lang: Lang::Es,
        ..Caption::default()
    };
    let svg = box_plot_svg_in(&boxes, &subject, &caption);
    assert_eq!(svg.matches("<rect class=\"gap\"").count(), 1, "{svg}");
    assert!(svg.contains("<title>2016: sin datos</title>"));
    assert!(svg.contains(">Gris: 2016, sin datos</text>"), "{svg}");
    // Four slots: the boxes' centres are a quarter of the frame apart, 2016's left empty.
    let centres: Vec<f64> = svg
        .split("<g class=\"box\"")
        .skip(1)
        .map(|g| {
            let x = &g[g.find("x1=\"").unwrap() + 4..];
            x[..x.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(centres.len(), 3);
    let step = centres[2] - centres[1];
    assert!(
        (centres[1] - centres[0] - 2.0 * step).abs() < 0.01,
        "{centres:?}"
    );
}

/// One year is described as one box, with one outlier in the singular (its `<desc>` read "1
/// años de 2021 a 2021 … 1 comunas más allá … Mediana 5,32 en 2021 y 5,32 en 2021").
#[test]
fn one_year_is_described_as_one_box() {
    let subject = rate_subject(false);
    let svg = box_plot_svg_in(&boxes(), &subject, &Caption::new(Lang::Es, "x"));
    let desc = &svg[svg.find("<desc>").unwrap()..svg.find("</desc>").unwrap()];
    assert!(desc.contains("Diagrama de caja de la tasa"), "{desc}");
    assert!(desc.contains(" en 2023 "), "{desc}");
    assert!(
        desc.contains("1 comuna más allá, dibujada como un círculo."),
        "{desc}"
    );
    assert!(!desc.contains("años de") && !desc.contains(" y "), "{desc}");
}
