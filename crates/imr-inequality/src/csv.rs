//! CSV tables of the results: comma-separated, decimal point, one header line, numbers written
//! with Rust's shortest round-trip representation (no exponent), an empty cell when a value is
//! not available. Every chart's data can be downloaded with one of these. All are written by
//! the one CSV writer of the exports ([`imr_escape::CsvWriter`], formula guard on).

use crate::distribution::{BoxPlotStats, LorenzCurve};
use crate::report::InequalityReport;
use crate::year::Measure;
use imr_escape::{CsvOptions, CsvWriter};

fn number(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => String::new(),
    }
}

/// The per-year table: `time`, then for every measure that applies in some year its value and,
/// when it has one, `<key>_ci_low`, `<key>_ci_high` (the basic, bias-corrected interval, as
/// `ci`), `<key>_bias`, `<key>_bias_corrected`, `<key>_ci_percentile_low` and
/// `<key>_ci_percentile_high`.
pub fn years_csv(report: &InequalityReport) -> String {
    let kind = report.subject.kind;
    let columns: Vec<Measure> = Measure::ALL
        .into_iter()
        .filter(|m| report.years.iter().any(|y| y.measures.applies(*m)))
        .collect();
    let mut w = CsvWriter::new(CsvOptions::default());
    let mut header = vec!["time".to_string()];
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
        for m in &columns {
            let value = y.measures.get(*m);
            if m.is_count() {
                row.push(value.map(|v| (v as u64).to_string()).unwrap_or_default());
            } else {
                row.push(number(value));
            }
            if m.has_interval() {
                let ci = y.interval(*m);
                let pct = y.percentile_interval(*m);
                row.extend([
                    number(ci.map(|c| c[0])),
                    number(ci.map(|c| c[1])),
                    number(y.bias(*m)),
                    number(y.bias_corrected(*m)),
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

/// Box-plot statistics, one row per year:
/// `time,n_areas,min,q1,median,q3,max,whisker_low,whisker_high,n_outliers`.
pub fn box_plot_csv(boxes: &[BoxPlotStats]) -> String {
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
