//! SVG path data from rings already in screen coordinates (the projection is applied before).
//!
//! Coordinates are rounded to a fixed number of decimals (one decimal is 0.1 px, invisible at any
//! zoom a reader uses), consecutive points that round to the same position are dropped, and
//! after the first absolute `M` every point is written relative (`l dx dy`) from the *rounded*
//! previous point, so no rounding error accumulates and the strings stay short.

/// Writes SVG path data for polygons (rings in screen coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathWriter {
    /// Decimals kept in coordinates (0 to 4).
    pub decimals: u32,
}

impl Default for PathWriter {
    fn default() -> Self {
        PathWriter { decimals: 1 }
    }
}

impl PathWriter {
    /// Appends one closed ring to `out`. Rings that round to fewer than three distinct points are
    /// skipped (returns `false`) unless `keep_degenerate` is set, so tiny islands vanish rather than
    /// leave specks, but an area never ends up with an empty path.
    pub fn write_ring(&self, out: &mut String, ring: &[(f64, f64)], keep_degenerate: bool) -> bool {
        let factor = 10f64.powi(self.decimals as i32);
        let mut points: Vec<(i64, i64)> = Vec::with_capacity(ring.len());
        for &(x, y) in ring {
            let q = ((x * factor).round() as i64, (y * factor).round() as i64);
            if points.last() != Some(&q) {
                points.push(q);
            }
        }
        while points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        if points.is_empty() || (points.len() < 3 && !keep_degenerate) {
            return false;
        }
        let d = self.decimals;
        out.push('M');
        push_fixed(out, points[0].0, d);
        out.push(' ');
        push_fixed(out, points[0].1, d);
        if points.len() > 1 {
            out.push('l');
            for w in points.windows(2) {
                let dx = w[1].0 - w[0].0;
                let dy = w[1].1 - w[0].1;
                if !out.ends_with('l') && dx >= 0 {
                    out.push(' ');
                }
                push_fixed(out, dx, d);
                if dy >= 0 {
                    out.push(' ');
                }
                push_fixed(out, dy, d);
            }
        }
        out.push('Z');
        true
    }
}

/// Writes `value / 10^decimals` with at most `decimals` decimals and no trailing zeros
/// (`12`, `-0.5`, `3.25`).
fn push_fixed(out: &mut String, value: i64, decimals: u32) {
    if value < 0 {
        out.push('-');
    }
    let v = value.unsigned_abs();
    if decimals == 0 {
        out.push_str(&v.to_string());
        return;
    }
    let factor = 10u64.pow(decimals);
    let int = v / factor;
    let mut frac = v % factor;
    out.push_str(&int.to_string());
    if frac != 0 {
        let mut width = decimals as usize;
        while frac.is_multiple_of(10) {
            frac /= 10;
            width -= 1;
        }
        out.push('.');
        out.push_str(&format!("{frac:0width$}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_is_written_with_relative_moves_and_closed() {
        let mut out = String::new();
        let ring = [
            (0.0, 0.0),
            (10.0, 0.0),
            (10.0, 10.0),
            (0.0, 10.0),
            (0.0, 0.0),
        ];
        assert!(PathWriter::default().write_ring(&mut out, &ring, false));
        assert_eq!(out, "M0 0l10 0 0 10-10 0Z");
    }

    #[test]
    fn rounding_drops_repeated_points_without_accumulating_error() {
        let mut out = String::new();
        let ring = [
            (0.04, 0.0),
            (0.33, 0.0),
            (0.66, 0.0),
            (0.66, 0.33),
            (0.02, 0.04),
        ];
        PathWriter { decimals: 1 }.write_ring(&mut out, &ring, false);
        assert_eq!(out, "M0 0l0.3 0 0.4 0 0 0.3Z");
    }

    #[test]
    fn degenerate_rings_are_dropped_unless_asked_to_keep_them() {
        let ring = [(1.0, 1.0), (1.01, 1.0), (1.0, 1.01)];
        let mut out = String::new();
        assert!(!PathWriter::default().write_ring(&mut out, &ring, false));
        assert!(out.is_empty());
        assert!(PathWriter::default().write_ring(&mut out, &ring, true));
        assert_eq!(out, "M1 1Z");
    }

    #[test]
    fn fixed_point_numbers_have_no_trailing_zeros() {
        let mut s = String::new();
        push_fixed(&mut s, -1250, 3);
        s.push(' ');
        push_fixed(&mut s, 5, 2);
        s.push(' ');
        push_fixed(&mut s, 300, 2);
        assert_eq!(s, "-1.25 0.05 3");
    }
}
