//! The line chart's CSV (`imr inequality --format csv-measure`, the Inequality view's
//! `desigualdad_medida_por_anio.csv`) holds the value the chart draws: a reader quoted its
//! observed Gini with the bias-corrected interval ("0,222 (IC 95%: 0,136–0,178)"), which need
//! not hold it.

use imr_inequality::csv::measure_series_csv;
use imr_inequality::{
    AreaObservation, BootstrapSpec, InequalitySpec, Measure, RateInput, Subject, YearMarks,
};

#[test]
fn the_measure_csv_has_the_observed_and_the_corrected_value_and_marks_a_copy() {
    // 40 small areas over three years; 2021 copies 2020's counts.
    let obs = [2019, 2020, 2021]
        .into_iter()
        .flat_map(|t: i64| {
            let source = if t == 2021 { 2020 } else { t };
            (0..40i64).map(move |i| AreaObservation {
                entity: format!("a{i:02}"),
                time: t,
                events: ((i * (source - 2015)) % 5 + i % 2) as f64,
                exposure: (150 + 25 * i) as f64,
                group: None,
                rank: None,
                events_range: None,
            })
        })
        .collect();
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 200,
            seed: 7,
            level: 0.95,
        },
    };
    let analysis = spec
        .analyse(&Subject::Rates(RateInput::per_1000(obs, false)))
        .unwrap();
    let report = analysis.report;
    let marks = YearMarks::of_copies(vec![(2021, 2020)]);
    let csv = measure_series_csv(&report, Measure::Gini, &marks);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "time,gini,gini_bias_corrected,gini_ci_low,gini_ci_high,copy_of_year"
    );
    let mut corrected_outside_observed = 0;
    for (line, y) in lines.zip(&report.years) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[0], y.time().to_string());
        let number = |i: usize| cells[i].parse::<f64>().unwrap();
        assert_eq!(number(1), y.measures.get(Measure::Gini).unwrap());
        // the value the chart draws, and the interval centred on it
        let corrected = y.bias_corrected(Measure::Gini).unwrap();
        assert_eq!(number(2), corrected);
        let ci = y.interval(Measure::Gini).unwrap();
        assert_eq!((number(3), number(4)), (ci[0], ci[1]));
        assert!(ci[0] <= corrected && corrected <= ci[1], "{line}");
        let observed = number(1);
        corrected_outside_observed += usize::from(observed < ci[0] || observed > ci[1]);
        assert_eq!(cells[5], if y.time() == 2021 { "2020" } else { "" });
    }
    // The box plot's statistics mark the copy too (their chart draws it dashed).
    let boxes = imr_inequality::csv::box_plot_csv(&analysis.box_plots, &marks);
    assert!(boxes
        .lines()
        .next()
        .unwrap()
        .ends_with(",n_outliers,copy_of_year"));
    for line in boxes.lines().skip(1) {
        let copy = if line.starts_with("2021,") {
            ",2020"
        } else {
            ","
        };
        assert!(line.ends_with(copy), "{line}");
    }
    // Small areas inflate the observed Gini: in some year it lies outside the interval, which is
    // why the corrected value must be beside it.
    assert!(corrected_outside_observed > 0, "{csv}");
}
