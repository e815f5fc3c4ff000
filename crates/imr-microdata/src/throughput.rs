//! How fast a job reads, for the page's progress line and its final summary.

/// Bytes and rows read in some time, in the units the page shows: megabytes (10⁶ bytes), rows
/// and MB per second. A time under a millisecond counts as one millisecond, so that the speeds
/// are finite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Throughput {
    pub mb_read: f64,
    pub mb_total: f64,
    pub rows: u64,
    pub seconds: f64,
    pub rows_per_second: f64,
    pub mb_per_second: f64,
}

impl Throughput {
    /// `bytes_read` of `total_bytes` and `rows` after `elapsed_ms` milliseconds.
    pub fn new(bytes_read: u64, total_bytes: u64, rows: u64, elapsed_ms: u64) -> Throughput {
        let seconds = (elapsed_ms as f64 / 1000.0).max(1e-3);
        let mb_read = bytes_read as f64 / 1e6;
        Throughput {
            mb_read,
            mb_total: total_bytes as f64 / 1e6,
            rows,
            seconds,
            rows_per_second: rows as f64 / seconds,
            mb_per_second: mb_read / seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_are_per_second_and_finite_at_zero_time() {
        let t = Throughput::new(250_000_000, 500_000_000, 1_000_000, 2_000);
        assert_eq!((t.mb_read, t.mb_total, t.seconds), (250.0, 500.0, 2.0));
        assert_eq!((t.rows_per_second, t.mb_per_second), (500_000.0, 125.0));
        let t = Throughput::new(1_000, 2_000, 3, 0);
        assert_eq!(t.seconds, 1e-3);
        assert_eq!(t.rows_per_second, 3_000.0);
        assert!(t.mb_per_second.is_finite());
    }
}
