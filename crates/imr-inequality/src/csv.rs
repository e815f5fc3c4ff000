//! CSV tables of the results: comma-separated, decimal point, one header line, numbers written
//! with Rust's shortest round-trip representation (no exponent), an empty cell when a value is
//! not available. Every chart's data can be downloaded with one of these.

use crate::distribution::{BoxPlotStats, LorenzCurve};
use crate::report::InequalityReport;
use crate::year::Measure;
use std::fmt::Write;

fn number(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v}"),
        _ => String::new(),
    }
}

/// Quote a text cell when it holds a comma, a quote or a line break (RFC 4180).
fn text(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
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
    let mut out = String::from("time");
    for m in &columns {
        let key = m.key(kind);
        out.push(',');
        out.push_str(key);
        if m.has_interval() {
            write!(
                out,
                ",{key}_ci_low,{key}_ci_high,{key}_bias,{key}_bias_corrected,{key}_ci_percentile_low,{key}_ci_percentile_high"
            )
            .expect("write to String");
        }
    }
    out.push('\n');
    for y in &report.years {
        out.push_str(&y.time().to_string());
        for m in &columns {
            let value = y.measures.get(*m);
            out.push(',');
            if m.is_count() {
                out.push_str(&value.map(|v| (v as u64).to_string()).unwrap_or_default());
            } else {
                out.push_str(&number(value));
            }
            if m.has_interval() {
                let ci = y.interval(*m);
                let pct = y.percentile_interval(*m);
                write!(
                    out,
                    ",{},{},{},{},{},{}",
                    number(ci.map(|c| c[0])),
                    number(ci.map(|c| c[1])),
                    number(y.bias(*m)),
                    number(y.bias_corrected(*m)),
                    number(pct.map(|c| c[0])),
                    number(pct.map(|c| c[1]))
                )
                .expect("write to String");
            }
        }
        out.push('\n');
    }
    out
}

/// Trend of each measure: `measure,slope,ci_low,ci_high,n_years,first_time,last_time,first,last,change`.
pub fn trend_csv(report: &InequalityReport) -> String {
    let mut out = String::from(
        "measure,slope,ci_low,ci_high,n_years,first_time,last_time,first,last,change\n",
    );
    for (m, t) in &report.trend {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            m.key(report.subject.kind),
            number(Some(t.slope)),
            number(t.ci_low),
            number(t.ci_high),
            t.n_years,
            t.first_time,
            t.last_time,
            number(Some(t.first)),
            number(Some(t.last)),
            number(Some(t.change))
        )
        .expect("write to String");
    }
    out
}

/// Lorenz curve points: `time,weight_share,total_share`.
pub fn lorenz_csv(curves: &[LorenzCurve]) -> String {
    let mut out = String::from("time,weight_share,total_share\n");
    for c in curves {
        for p in &c.points {
            writeln!(
                out,
                "{},{},{}",
                c.time,
                number(Some(p.weight_share)),
                number(Some(p.total_share))
            )
            .expect("write to String");
        }
    }
    out
}

/// Box-plot statistics, one row per year:
/// `time,n_areas,min,q1,median,q3,max,whisker_low,whisker_high,n_outliers`.
pub fn box_plot_csv(boxes: &[BoxPlotStats]) -> String {
    let mut out =
        String::from("time,n_areas,min,q1,median,q3,max,whisker_low,whisker_high,n_outliers\n");
    for b in boxes {
        let cells: Vec<String> = [
            b.min,
            b.q1,
            b.median,
            b.q3,
            b.max,
            b.whisker_low,
            b.whisker_high,
        ]
        .iter()
        .map(|v| number(Some(*v)))
        .collect();
        writeln!(
            out,
            "{},{},{},{}",
            b.time,
            b.n_areas,
            cells.join(","),
            b.outliers.len()
        )
        .expect("write to String");
    }
    out
}

/// The outliers of the box plots: `time,entity,value`.
pub fn box_plot_outliers_csv(boxes: &[BoxPlotStats]) -> String {
    let mut out = String::from("time,entity,value\n");
    for b in boxes {
        for o in &b.outliers {
            writeln!(
                out,
                "{},{},{}",
                b.time,
                text(&o.entity),
                number(Some(o.value))
            )
            .expect("write to String");
        }
    }
    out
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
    fn text_with_a_comma_is_quoted() {
        assert_eq!(text("a,b"), "\"a,b\"");
        assert_eq!(text("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(text("q\",x"), "\"q\"\",x\"");
    }
}
