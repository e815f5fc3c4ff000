//! Wording rules: how a number and its interval become words, in Spanish and English.
//!
//! The rules never overstate:
//! * an interval that covers zero (or the reference value) is "not distinguishable from zero";
//!   only an interval entirely on one side gives a direction;
//! * a trend with fewer than [`MIN_YEARS_FOR_TREND`] years is "too few years to say";
//! * a model coefficient or a correlation is an association ("goes with"), never a cause: the
//!   words "cause", "effect", "reduce", "because" and their Spanish forms are not used
//!   (tested in `lib.rs` on every sentence generated).

use imr_core::Lang;

/// Fewer years than this and a trend is not stated (the Inequality view's notes use the same
/// constant).
pub use imr_core::inequality::words::MIN_YEARS_FOR_TREND;

/// What an interval says about the sign of a quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The whole interval is above zero (or the reference).
    Above,
    /// The whole interval is below.
    Below,
    /// The interval covers zero (or the reference): not distinguishable from it.
    NotDistinguishable,
}

impl Direction {
    /// The direction of an interval relative to `reference` (0 for slopes and coefficients).
    /// Limits equal to the reference count as covering it.
    pub fn of(interval: [f64; 2], reference: f64) -> Direction {
        let [lo, hi] = interval;
        if lo > reference {
            Direction::Above
        } else if hi < reference {
            Direction::Below
        } else {
            Direction::NotDistinguishable
        }
    }
}

/// A number for reading: `decimals` decimals, Spanish with a decimal comma and thousands point,
/// English with a decimal point and thousands comma; negatives with a minus sign (U+2212).
pub fn number(lang: Lang, x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    let text = format!("{:.*}", decimals, x.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (text.clone(), None),
    };
    let (group, point) = match lang {
        Lang::Es => ('.', ','),
        Lang::En => (',', '.'),
    };
    let mut grouped = String::new();
    let digits: Vec<char> = int.chars().collect();
    for (k, c) in digits.iter().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) && digits.len() > 4 {
            grouped.push(group);
        }
        grouped.push(*c);
    }
    let zero = text.chars().all(|c| c == '0' || c == '.');
    let mut out = String::new();
    if x < 0.0 && !zero {
        out.push('−');
    }
    out.push_str(&grouped);
    if let Some(f) = frac {
        out.push(point);
        out.push_str(&f);
    }
    out
}

/// "95% CI 5.1 to 6.3" / "IC 95%: 5,1 a 6,3".
pub fn interval(lang: Lang, ci: [f64; 2], decimals: usize) -> String {
    let (lo, hi) = (number(lang, ci[0], decimals), number(lang, ci[1], decimals));
    if ci[1] == f64::INFINITY {
        return match lang {
            Lang::Es => format!("IC 95%: desde {lo}, sin límite superior"),
            Lang::En => format!("95% CI from {lo}, no upper limit"),
        };
    }
    match lang {
        Lang::Es => format!("IC 95%: {lo} a {hi}"),
        Lang::En => format!("95% CI {lo} to {hi}"),
    }
}

/// Decimals that show a value of this size with about three significant digits (at most 4).
pub fn decimals_for(x: f64) -> usize {
    let a = x.abs();
    if a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else if a >= 0.1 {
        3
    } else {
        4
    }
}

/// Words that claim a cause; no generated sentence may contain them (lower case).
pub const CAUSAL_WORDS: [&str; 12] = [
    "cause",
    "effect of",
    "reduces",
    "lowers",
    "because",
    "leads to",
    "causa",
    "efecto de",
    "reduce ",
    "disminuye la",
    "porque",
    "provoca",
];

/// A number of years in words: "1 year", "3 years" ("1 año", "3 años").
pub(crate) fn years(lang: Lang, n: usize) -> String {
    match (lang, n) {
        (Lang::Es, 1) => "1 año".to_string(),
        (Lang::Es, n) => format!("{n} años"),
        (Lang::En, 1) => "1 year".to_string(),
        (Lang::En, n) => format!("{n} years"),
    }
}

/// A trend sentence by the wording rules: "too few years to say" below
/// [`MIN_YEARS_FOR_TREND`] or without an interval; a direction only when the interval excludes
/// zero. `what_es`/`what_en` name the quantity, `unit_*` its unit per year.
#[allow(clippy::too_many_arguments)]
pub(crate) fn trend_sentence(
    lang: Lang,
    what_es: &str,
    what_en: &str,
    unit_es: &str,
    unit_en: &str,
    n_years: usize,
    first: i64,
    last: i64,
    slope: Option<f64>,
    ci: Option<[f64; 2]>,
) -> String {
    let (Some(slope), Some(ci), true) = (slope, ci, n_years >= MIN_YEARS_FOR_TREND) else {
        return match lang {
            Lang::Es => format!(
                "Con {}, son muy pocos años para decir si {what_es} baja o sube.",
                years(lang, n_years)
            ),
            Lang::En => format!(
                "With {}, too few years to say whether {what_en} is falling or rising.",
                years(lang, n_years)
            ),
        };
    };
    let d = decimals_for(ci[0].abs().max(ci[1].abs())).max(2);
    let s = number(lang, slope.abs(), d);
    let signed = number(lang, slope, d);
    let ci_text = interval(lang, ci, d);
    let sentence = match (Direction::of(ci, 0.0), lang) {
        (Direction::Below, Lang::Es) => format!("Entre {first} y {last}, {what_es} bajó {s} {unit_es} al año ({ci_text})."),
        (Direction::Below, Lang::En) => format!("From {first} to {last}, {what_en} fell by {s} {unit_en} per year ({ci_text})."),
        (Direction::Above, Lang::Es) => format!("Entre {first} y {last}, {what_es} subió {s} {unit_es} al año ({ci_text})."),
        (Direction::Above, Lang::En) => format!("From {first} to {last}, {what_en} rose by {s} {unit_en} per year ({ci_text})."),
        (Direction::NotDistinguishable, Lang::Es) => format!("Entre {first} y {last}, el cambio de {what_es} ({signed} {unit_es} al año; {ci_text}) no es distinguible de cero: estos años no muestran que baje ni que suba."),
        (Direction::NotDistinguishable, Lang::En) => format!("From {first} to {last}, the change in {what_en} ({signed} {unit_en} per year; {ci_text}) is not distinguishable from zero: these years do not show it falling or rising."),
    };
    // Spanish contractions ("de el" → "del") and the empty unit of a unitless measure.
    sentence.replace(" de el ", " del ").replace("  ", " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_use_the_language_marks() {
        assert_eq!(number(Lang::Es, 12345.678, 2), "12.345,68");
        assert_eq!(number(Lang::En, 12345.678, 2), "12,345.68");
        assert_eq!(number(Lang::En, 1234.5, 1), "1234.5");
        assert_eq!(number(Lang::Es, -0.25, 2), "−0,25");
        assert_eq!(number(Lang::En, -0.001, 2), "0.00");
        assert_eq!(number(Lang::En, 7.0, 0), "7");
    }

    #[test]
    fn an_open_interval_says_it_has_no_upper_limit() {
        let open = [0.25, f64::INFINITY];
        assert_eq!(
            interval(Lang::En, open, 2),
            "95% CI from 0.25, no upper limit"
        );
        assert_eq!(
            interval(Lang::Es, open, 2),
            "IC 95%: desde 0,25, sin límite superior"
        );
    }

    #[test]
    fn an_interval_touching_zero_is_not_distinguishable() {
        assert_eq!(
            Direction::of([-1.0, 2.0], 0.0),
            Direction::NotDistinguishable
        );
        assert_eq!(
            Direction::of([0.0, 2.0], 0.0),
            Direction::NotDistinguishable
        );
        assert_eq!(Direction::of([0.1, 2.0], 0.0), Direction::Above);
        assert_eq!(Direction::of([-3.0, -0.1], 0.0), Direction::Below);
        assert_eq!(Direction::of([5.0, 6.0], 7.0), Direction::Below);
    }

    proptest::proptest! {
        #[test]
        fn a_direction_is_given_only_when_the_interval_excludes_the_reference(
            a in -10.0f64..10.0, w in 0.0f64..10.0, r in -5.0f64..5.0
        ) {
            let d = Direction::of([a, a + w], r);
            let covers = a <= r && r <= a + w;
            proptest::prop_assert_eq!(d == Direction::NotDistinguishable, covers);
        }
    }
}
