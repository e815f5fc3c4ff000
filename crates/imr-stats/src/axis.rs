//! Axis ticks of the engines' charts: "nice" steps (1, 2, 2.5 or 5 × 10^k) covering a range,
//! after Heckbert, "Nice numbers for graph labels" (Graphics Gems, 1990), with the decimals
//! their labels need. One implementation for the inequality, findings and other charts.

/// Ticks of a "nice" step (1, 2, 2.5 or 5 × 10^k) covering [lo, hi], with the number of decimals
/// their labels need. The domain to draw is [first tick, last tick].
#[derive(Debug, Clone, PartialEq)]
pub struct Ticks {
    pub values: Vec<f64>,
    pub decimals: usize,
}

impl Ticks {
    pub fn lo(&self) -> f64 {
        self.values[0]
    }
    pub fn hi(&self) -> f64 {
        self.values[self.values.len() - 1]
    }
}

/// `ticks` kept within the values a measure can take (`range`, e.g. imr-inequality's `Measure::range`):
/// a tick beyond a bound becomes the bound (duplicates dropped), so the axis of a measure that
/// cannot be negative starts at max(0, nice floor). Unchanged if fewer than two ticks would
/// remain (values all outside the range: the caller's data, drawn as they are).
pub fn ticks_within(ticks: Ticks, (floor, ceiling): (f64, f64)) -> Ticks {
    let mut values: Vec<f64> = ticks
        .values
        .iter()
        .map(|&t| t.max(floor).min(ceiling))
        .collect();
    values.dedup();
    if values.len() < 2 {
        return ticks;
    }
    Ticks {
        values,
        decimals: ticks.decimals,
    }
}

/// About `target` ticks covering [lo, hi]. With `integer`, the step is at least 1 (years).
pub fn nice_ticks(lo: f64, hi: f64, target: usize, integer: bool) -> Ticks {
    let (mut lo, mut hi) = (lo.min(hi), lo.max(hi));
    if !(lo.is_finite() && hi.is_finite()) {
        lo = 0.0;
        hi = 1.0;
    }
    if hi == lo {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() / 10.0 };
        lo -= pad;
        hi += pad;
    }
    let raw = (hi - lo) / target.max(1) as f64;
    // Power of ten ≤ raw, found by exact multiplications and divisions (no log10).
    let mut magnitude = 1.0;
    let mut decimals_of_magnitude: usize = 0;
    while magnitude * 10.0 <= raw {
        magnitude *= 10.0;
    }
    while magnitude > raw {
        magnitude /= 10.0;
        decimals_of_magnitude += 1;
    }
    let norm = raw / magnitude;
    let (factor, extra) = if norm <= 1.0 {
        (1.0, 0)
    } else if norm <= 2.0 {
        (2.0, 0)
    } else if norm <= 2.5 {
        (2.5, 1)
    } else if norm <= 5.0 {
        (5.0, 0)
    } else {
        (10.0, 0)
    };
    let mut step = factor * magnitude;
    let mut decimals = decimals_of_magnitude + extra;
    if factor == 10.0 && decimals > 0 {
        decimals -= 1;
    }
    if integer && step < 1.0 {
        step = 1.0;
        decimals = 0;
    }
    let first = (lo / step).floor();
    let last = (hi / step).ceil();
    let values = (0..=((last - first) as i64))
        .map(|k| (first + k as f64) * step)
        .collect();
    Ticks { values, decimals }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_within_a_range_start_at_its_floor() {
        // An interval reaching −0.02 would start a Gini axis at −0.05.
        let t = ticks_within(nice_ticks(-0.02, 0.19, 5, false), (0.0, 1.0));
        assert_eq!(t.values.first(), Some(&0.0));
        assert!(t.values.iter().all(|&v| (0.0..=1.0).contains(&v)));
        assert!(t.hi() >= 0.19);
        // Within the range nothing changes; a degenerate clamp leaves the ticks as they were.
        let plain = nice_ticks(0.1, 0.3, 5, false);
        assert_eq!(ticks_within(plain.clone(), (0.0, 1.0)).values, plain.values);
        let below = nice_ticks(-3.0, -2.0, 5, false);
        assert_eq!(ticks_within(below.clone(), (0.0, 1.0)).values, below.values);
    }

    #[test]
    fn ticks_of_zero_to_one_step_by_two_tenths() {
        let t = nice_ticks(0.0, 1.0, 5, false);
        assert_eq!(t.values.len(), 6);
        assert_eq!(t.decimals, 1);
        assert!((t.values[3] - 0.6).abs() < 1e-12);
    }

    #[test]
    fn ticks_cover_the_data() {
        let t = nice_ticks(3.7, 21.2, 5, false);
        assert!(t.lo() <= 3.7 && t.hi() >= 21.2);
        assert_eq!(t.decimals, 0);
    }
}
