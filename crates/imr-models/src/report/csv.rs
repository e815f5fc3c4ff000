//! The coefficient table as CSV (full precision, shortest round-trip representation).

use crate::fit::Fit;

fn number(x: f64) -> String {
    if x.is_finite() {
        // shortest round-trip digits; exponent form for very small or large magnitudes
        if x != 0.0 && !(1e-5..1e15).contains(&x.abs()) {
            format!("{x:e}")
        } else {
            format!("{x}")
        }
    } else {
        String::new()
    }
}

fn quoted(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn rows(fit: &Fit, prefix: &str, out: &mut String) {
    let irr = fit.coefficients.iter().any(|c| c.irr.is_some());
    for c in &fit.coefficients {
        out.push_str(prefix);
        let mut fields = vec![
            quoted(&c.term),
            number(c.estimate),
            number(c.std_error),
            number(c.statistic),
            number(c.p_value),
            number(c.conf_low),
            number(c.conf_high),
        ];
        if irr {
            for v in [c.irr, c.irr_conf_low, c.irr_conf_high] {
                fields.push(v.map(number).unwrap_or_default());
            }
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
}

const HEADER: &str = "term,estimate,std_error,statistic,p_value,conf_low,conf_high";

/// `term,estimate,std_error,statistic,p_value,conf_low,conf_high` (plus `irr,irr_conf_low,
/// irr_conf_high` for `poisson-fe`), one row per coefficient — the `imr fit --format csv` output.
pub fn coefficients_csv(fit: &Fit) -> String {
    let mut out = String::from(HEADER);
    if fit.coefficients.iter().any(|c| c.irr.is_some()) {
        out.push_str(",irr,irr_conf_low,irr_conf_high");
    }
    out.push('\n');
    rows(fit, "", &mut out);
    out
}

/// Several fits in one long CSV, with `model` and `vcov` columns first (IRR columns omitted).
pub fn coefficients_csv_many(fits: &[Fit]) -> String {
    let mut out = format!("model,vcov,{HEADER}\n");
    for fit in fits {
        for c in &fit.coefficients {
            let fields = [
                fit.model.name().to_string(),
                fit.vcov.name().to_string(),
                quoted(&c.term),
                number(c.estimate),
                number(c.std_error),
                number(c.statistic),
                number(c.p_value),
                number(c.conf_low),
                number(c.conf_high),
            ];
            out.push_str(&fields.join(","));
            out.push('\n');
        }
    }
    out
}
