//! Quick check of the adjusted measures: `cargo run --release -p imr-inequality --example
//! adjusted_check -- REPLICATES`.
use imr_inequality::adjusted::simulate::{run, standard_grid};
use std::time::Instant;

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let text = std::fs::read_to_string("public/data/chile_imr_2019_2023.csv").unwrap();
    let births: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[4] == "2019")
        .map(|f| f[6].parse().unwrap())
        .collect();
    for s in standard_grid(&births) {
        let t = Instant::now();
        let r = run(&s, reps, 0, 7);
        println!(
            "{:40} cv {:.2}: gini truth {:.3} obs {:.3} adj {:.3} cov {:.2} | theil truth {:.4} adj {:.4} cov {:.2} | rej {:.2} unav {} trend0 {:?} trendT {:?} obsexcl {:?} ({:.1?})",
            s.name, s.true_cv, r.gini.truth_mean, r.gini.observed_mean, r.gini.adjusted_mean, r.gini.adjusted_coverage,
            r.theil_t.truth_mean, r.theil_t.adjusted_mean, r.theil_t.adjusted_coverage,
            r.excess_rejects_5pct, r.adjusted_unavailable, r.adjusted_trend_covers_zero, r.adjusted_trend_covers_truth, r.observed_trend_excludes_zero, t.elapsed()
        );
    }
}
