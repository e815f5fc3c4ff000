//! One timed run of the fe and inequality benchmarks with a fingerprint of their results, for
//! profiling (`perf record`) and for checking that an optimisation leaves the results bit for
//! bit unchanged (criterion times, it does not compare):
//!
//! ```text
//! cargo build --profile bench -p imr-bench --example once
//! target/release/examples/once fe [RUNS]                 # prints the slopes and SEs in full
//! target/release/examples/once fe1|fe2 [RUNS]            # the same, entity (fe1) or entity and
//!                                                        # period (fe2) absorbed (`--fe`)
//! target/release/examples/once inequality [RUNS] [B]     # prints a hash of the report JSON
//! ```

use imr_bench::{inequality_observations, panel_columns};
use imr_inequality::{BootstrapSpec, InequalitySpec, RateInput, Subject};
use imr_models::{Estimator, PanelSpec, VcovKind};
use std::time::Instant;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_default();
    // anything but "fe" runs the inequality bootstrap
    let reps: usize = std::env::args()
        .nth(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    if what == "fe" || what == "fe1" || what == "fe2" {
        let columns = panel_columns(50_000, 20, 5);
        let data = match what.as_str() {
            "fe1" => columns.panel_data_absorbing(false),
            "fe2" => columns.panel_data_absorbing(true),
            _ => columns.panel_data(),
        };
        let spec = PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Cluster);
        for _ in 0..reps {
            let t = Instant::now();
            let fit = spec.fit(&data).unwrap();
            println!(
                "fe {:?} {:?}",
                t.elapsed(),
                fit.coefficients
                    .iter()
                    .map(|c| (c.estimate, c.std_error))
                    .collect::<Vec<_>>()
            );
        }
    } else {
        let replicates: usize = std::env::args()
            .nth(3)
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000);
        let observations = inequality_observations(5_570, 30);
        let spec = InequalitySpec {
            bootstrap: BootstrapSpec {
                replicates,
                ..Default::default()
            },
        };
        for _ in 0..reps {
            let subject = Subject::Rates(RateInput::per_1000(observations.clone(), false));
            let t = Instant::now();
            let a = spec.analyse(&subject).unwrap();
            let s = serde_json::to_string(&a.report).unwrap();
            println!(
                "ineq {:?} hash {:x}",
                t.elapsed(),
                s.bytes()
                    .fold(0u64, |h, b| h.wrapping_mul(1099511628211) ^ b as u64)
            );
        }
    }
}
