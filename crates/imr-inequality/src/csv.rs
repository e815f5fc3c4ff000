//! CSV tables of the results: comma-separated, decimal point, one header line, numbers written
//! with Rust's shortest round-trip representation (no exponent), an empty cell when a value is
//! not available. Every chart's data can be downloaded with one of these. All are written by
//! the one CSV writer of the exports ([`imr_escape::CsvWriter`], formula guard on).

use crate::distribution::{BoxPlotStats, LorenzCurve};
use crate::report::{InequalityReport, SeriesPoint};
use crate::year::{Measure, SubjectKind};
use crate::YearMarks;
use imr_escape::{CsvOptions, CsvWriter};

fn number(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => String::new(),
    }
}

/// The per-year table: `time` (then `repeat_of` when a year repeats an earlier one, left out of
/// the trends or a copy of `marks` counted in them: that year, else empty), then for every measure that applies in some year its value and,
/// when it has one, `<key>_ci_low`, `<key>_ci_high` (the basic, bias-corrected interval, as
/// `ci`), `<key>_bias`, `<key>_bias_corrected`, `<key>_ci_percentile_low` and
/// `<key>_ci_percentile_high`.
pub fn years_csv(report: &InequalityReport, marks: &YearMarks) -> String {
    let kind = report.subject.kind;
    let columns = report.measures_present();
    let mut w = CsvWriter::new(CsvOptions::default());
    let mut header = vec!["time".to_string()];
    // A year repeating an earlier one is marked in its own column, present only when there is
    // such a year: left out of the trends, or a copy counted in them (`--include-repeated-years`).
    let repeat_of = |y: &crate::report::YearResult| y.repeat_of.or(marks.copy_of(y.time()));
    let repeats = report.years.iter().any(|y| repeat_of(y).is_some());
    if repeats {
        header.push("repeat_of".to_string());
    }
    for m in &columns {
        let key = m.key(kind);
        header.push(key.to_string());
        if m.has_interval() {
            for suffix in [
                "ci_low",
                "ci_high",
                "bias",
                "bias_corrected",
                "ci_percentile_low",
                "ci_percentile_high",
            ] {
                header.push(format!("{key}_{suffix}"));
            }
        }
    }
    w.record(header);
    for y in &report.years {
        let mut row = vec![y.time().to_string()];
        if repeats {
            row.push(repeat_of(y).map(|t| t.to_string()).unwrap_or_default());
        }
        for m in &columns {
            let value = y.measures.get(*m);
            if m.is_count() {
                row.push(value.map(|v| (v as u64).to_string()).unwrap_or_default());
            } else {
                row.push(number(value));
            }
            if m.has_interval() {
                let shown = m.shows_interval(y.measures.kind);
                let ci = y.interval(*m);
                let pct = y.percentile_interval(*m);
                row.extend([
                    number(ci.map(|c| c[0])),
                    number(ci.map(|c| c[1])),
                    // a measure without an interval on the page has none of its resampling
                    // here either (the JSON keeps it for analysts)
                    number(y.bias(*m).filter(|_| shown)),
                    number(y.intervals.bias_corrected.get(m).copied().filter(|_| shown)),
                    number(pct.map(|c| c[0])),
                    number(pct.map(|c| c[1])),
                ]);
            }
        }
        w.record(row);
    }
    w.into_string()
}

/// Trend of each measure: `measure,slope,ci_low,ci_high,n_years,first_time,last_time,first,last,change`.
pub fn trend_csv(report: &InequalityReport) -> String {
    let mut w = CsvWriter::new(CsvOptions::default());
    w.record([
        "measure",
        "slope",
        "ci_low",
        "ci_high",
        "n_years",
        "first_time",
        "last_time",
        "first",
        "last",
        "change",
    ]);
    for (m, t) in &report.trend {
        w.record([
            m.key(report.subject.kind).to_string(),
            number(Some(t.slope)),
            number(t.ci_low),
            number(t.ci_high),
            t.n_years.to_string(),
            t.first_time.to_string(),
            t.last_time.to_string(),
            number(Some(t.first)),
            number(Some(t.last)),
            number(Some(t.change)),
        ]);
    }
    w.into_string()
}

/// Lorenz curve points: `time,weight_share,total_share`.
pub fn lorenz_csv(curves: &[LorenzCurve]) -> String {
    let mut w = CsvWriter::new(CsvOptions::default());
    w.record(["time", "weight_share", "total_share"]);
    for c in curves {
        for p in &c.points {
            w.record([
                c.time.to_string(),
                number(Some(p.weight_share)),
                number(Some(p.total_share)),
            ]);
        }
    }
    w.into_string()
}

/// Lorenz curve points of the chosen `years` (all curves when `years` is empty, the rule of
/// [`crate::chart::lorenz_svg_in`], so a chart and its table show the same years).
pub fn lorenz_csv_of_years(curves: &[LorenzCurve], years: &[i64]) -> String {
    let chosen: Vec<LorenzCurve> = curves
        .iter()
        .filter(|c| years.is_empty() || years.contains(&c.time))
        .cloned()
        .collect();
    lorenz_csv(&chosen)
}

/// The interval of a point as two cells, empty without an interval.
fn ci_cells(p: &SeriesPoint) -> [String; 2] {
    p.ci.map(|[a, b]| [number(Some(a)), number(Some(b))])
        .unwrap_or_default()
}

/// The line chart's data of `measure` in `report`: `time,<key>,<key>_bias_corrected,
/// <key>_ci_low,<key>_ci_high,copy_of_year` (the key the measure's JSON key for the report's
/// subject). The chart draws a year with an interval at its bias-corrected value, on which the
/// interval is centred ([`InequalityReport::series_in_band`]): both values are here, so that the
/// observed value is never quoted with an interval that need not hold it (a reader's "0,222 (IC
/// 95%: 0,136–0,178)"). `copy_of_year` names the year a copied year of `marks` repeats, as the
/// chart marks it.
pub fn measure_series_csv(
    report: &InequalityReport,
    measure: Measure,
    marks: &YearMarks,
) -> String {
    let key = measure.key(report.subject.kind);
    let mut w = CsvWriter::new(CsvOptions::default());
    w.record([
        "time".to_string(),
        key.to_string(),
        format!("{key}_bias_corrected"),
        format!("{key}_ci_low"),
        format!("{key}_ci_high"),
        "copy_of_year".to_string(),
    ]);
    for y in &report.years {
        let Some(value) = y.measures.get(measure) else {
            continue;
        };
        let ci = y.interval(measure);
        let corrected = ci.and(y.bias_corrected(measure));
        w.record([
            y.time().to_string(),
            number(Some(value)),
            number(corrected),
            number(ci.map(|c| c[0])),
            number(ci.map(|c| c[1])),
            (marks.copy_of(y.time()).map(|t| t.to_string())).unwrap_or_default(),
        ]);
    }
    w.into_string()
}

/// Two yearly series side by side, joined on the year (every year of either, ascending; empty
/// cells where a series has no value): `time,<a>,<a>_ci_low,<a>_ci_high,<b>,…`.
pub fn two_series_csv(a: &[SeriesPoint], a_key: &str, b: &[SeriesPoint], b_key: &str) -> String {
    let mut times: Vec<i64> = a.iter().chain(b).map(|p| p.time).collect();
    times.sort_unstable();
    times.dedup();
    let mut w = CsvWriter::new(CsvOptions::default());
    let mut header = vec!["time".to_string()];
    for key in [a_key, b_key] {
        header.extend([
            key.to_string(),
            format!("{key}_ci_low"),
            format!("{key}_ci_high"),
        ]);
    }
    w.record(header);
    let cells = |pts: &[SeriesPoint], t: i64| -> [String; 3] {
        match pts.iter().find(|p| p.time == t) {
            Some(p) => {
                let [lo, hi] = ci_cells(p);
                [number(Some(p.value)), lo, hi]
            }
            None => Default::default(),
        }
    };
    for t in times {
        let mut row = vec![t.to_string()];
        row.extend(cells(a, t));
        row.extend(cells(b, t));
        w.record(row);
    }
    w.into_string()
}

/// The data of the two-series chart ([`crate::chart::two_series_report_svg_in`]): `measure` of
/// the infant mortality report `imr` (columns `imr_<key>…`) and of the value report `other`
/// (columns `<value column>_<key>…`), joined on the year.
pub fn two_series_report_csv(
    imr: &InequalityReport,
    other: &InequalityReport,
    measure: Measure,
) -> String {
    let key = measure.key(SubjectKind::Rate);
    two_series_csv(
        &imr.series(measure),
        &format!("imr_{key}"),
        &other.series(measure),
        &format!("{}_{key}", other.subject.value_name),
    )
}

/// Box-plot statistics, one row per year:
/// `time,n_areas,min,q1,median,q3,max,whisker_low,whisker_high,n_outliers,copy_of_year` (the
/// year a copied year of `marks` repeats, as the chart draws it dashed).
pub fn box_plot_csv(boxes: &[BoxPlotStats], marks: &YearMarks) -> String {
    let mut w = CsvWriter::new(CsvOptions::default());
    w.record([
        "time",
        "n_areas",
        "min",
        "q1",
        "median",
        "q3",
        "max",
        "whisker_low",
        "whisker_high",
        "n_outliers",
        "copy_of_year",
    ]);
    for b in boxes {
        let mut row = vec![b.time.to_string(), b.n_areas.to_string()];
        row.extend(
            [
                b.min,
                b.q1,
                b.median,
                b.q3,
                b.max,
                b.whisker_low,
                b.whisker_high,
            ]
            .iter()
            .map(|v| number(Some(*v))),
        );
        row.push(b.outliers.len().to_string());
        row.push((marks.copy_of(b.time).map(|t| t.to_string())).unwrap_or_default());
        w.record(row);
    }
    w.into_string()
}

/// The outliers of the box plots: `time,entity,value` (formula guard on).
pub fn box_plot_outliers_csv(boxes: &[BoxPlotStats]) -> String {
    box_plot_outliers_csv_with(boxes, CsvOptions::default())
}

/// [`box_plot_outliers_csv`] with the writer's options (`imr --no-formula-guard`).
pub fn box_plot_outliers_csv_with(boxes: &[BoxPlotStats], options: CsvOptions) -> String {
    let mut w = CsvWriter::new(options);
    w.record(["time", "entity", "value"]);
    for b in boxes {
        for o in &b.outliers {
            w.record([b.time.to_string(), o.entity.clone(), number(Some(o.value))]);
        }
    }
    w.into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_series_join_on_the_year_with_empty_cells_for_a_missing_year() {
        let a = [
            SeriesPoint {
                time: 2020,
                value: 0.25,
                ci: Some([0.125, 0.5]),
            },
            SeriesPoint {
                time: 2019,
                value: 0.5,
                ci: None,
            },
        ];
        let b = [SeriesPoint {
            time: 2021,
            value: 3.0,
            ci: Some([2.0, 4.0]),
        }];
        assert_eq!(
            two_series_csv(&a, "imr_gini", &b, "x_gini"),
            "time,imr_gini,imr_gini_ci_low,imr_gini_ci_high,x_gini,x_gini_ci_low,x_gini_ci_high\n\
             2019,0.5,,,,,\n2020,0.25,0.125,0.5,,,\n2021,,,,3,2,4\n"
        );
    }

    #[test]
    fn lorenz_rows_of_no_chosen_year_are_every_curve_as_the_chart_draws() {
        use crate::distribution::LorenzPoint;
        let curve = |time| LorenzCurve {
            time,
            points: vec![LorenzPoint {
                weight_share: 1.0,
                total_share: 1.0,
            }],
        };
        let curves = [curve(2019), curve(2020)];
        assert_eq!(
            lorenz_csv_of_years(&curves, &[2020]),
            "time,weight_share,total_share\n2020,1,1\n"
        );
        assert_eq!(
            lorenz_csv_of_years(&curves, &[]),
            lorenz_csv(&curves),
            "no year chosen: every curve"
        );
    }

    #[test]
    fn numbers_use_a_decimal_point_and_no_exponent() {
        assert_eq!(number(Some(0.000001)), "0.000001");
        assert_eq!(number(Some(6.352941176470588)), "6.352941176470588");
        assert_eq!(number(None), "");
        assert_eq!(number(Some(f64::NAN)), "");
    }

    #[test]
    fn outlier_names_are_quoted_and_guarded() {
        let boxes = [BoxPlotStats {
            time: 2020,
            n_areas: 3,
            min: 0.0,
            q1: 0.0,
            median: 0.0,
            q3: 0.0,
            max: 0.0,
            whisker_low: 0.0,
            whisker_high: 0.0,
            outliers: vec![
                crate::distribution::Outlier {
                    entity: "a,\"b\"\r".into(),
                    value: 1.5,
                },
                crate::distribution::Outlier {
                    entity: "=HYPERLINK(\"x\")".into(),
                    value: -2.0,
                },
            ],
        }];
        assert_eq!(
            box_plot_outliers_csv(&boxes),
            "time,entity,value\n2020,\"a,\"\"b\"\"\r\",1.5\n2020,\"'=HYPERLINK(\"\"x\"\")\",-2\n"
        );
        assert!(
            box_plot_outliers_csv_with(&boxes, CsvOptions::RAW).contains("\n2020,\"=HYPERLINK(")
        );
    }
}
