//! The coefficient table as CSV (full precision, shortest round-trip representation), written
//! by the one CSV writer of the exports ([`imr_escape::CsvWriter`]).

use crate::fit::Fit;
use imr_escape::{CsvOptions, CsvWriter};
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

const HEADER: [&str; 7] = [
    "term",
    "estimate",
    "std_error",
    "statistic",
    "p_value",
    "conf_low",
    "conf_high",
];

fn numbers(c: &crate::fit::Coefficient) -> [String; 6] {
    [
        number(c.estimate),
        number(c.std_error),
        number(c.statistic),
        number(c.p_value),
        number(c.conf_low),
        number(c.conf_high),
    ]
}

/// Several fits in one long CSV: `model` and `vcov` columns first, then one row per coefficient
/// (`term,estimate,std_error,statistic,p_value,conf_low,conf_high`) of each fit in turn; the
/// rate-ratio columns `irr,irr_conf_low,irr_conf_high` when every fit reports them (one
/// `poisson-fe` model), so that the table of one model is what `imr fit --format csv` prints
/// for it; written with `options` (the formula guard, the delimiter).
pub fn coefficients_csv_many_with(fits: &[Fit], options: CsvOptions) -> String {
    let irr = !fits.is_empty()
        && fits
            .iter()
            .all(|f| f.coefficients.iter().any(|c| c.irr.is_some()));
    let mut w = CsvWriter::new(options);
    let mut header: Vec<&str> = ["model", "vcov"].into_iter().chain(HEADER).collect();
    if irr {
        header.extend(["irr", "irr_conf_low", "irr_conf_high"]);
    }
    w.record(header);
    for fit in fits {
        for c in &fit.coefficients {
            let mut fields = vec![
                fit.model.name().to_string(),
                fit.vcov.name().to_string(),
                c.term.clone(),
            ];
            fields.extend(numbers(c));
            if irr {
                for v in [c.irr, c.irr_conf_low, c.irr_conf_high] {
                    fields.push(v.map(number).unwrap_or_default());
                }
            }
            w.record(fields);
        }
    }
    w.into_string()
}
