//! Scale check: fe with clustered errors on 200,000 rows × 5 regressors (10,000 entities × 20
//! periods) recovers the slopes. It runs with every `cargo test` (a few seconds unoptimised);
//! timing on 1,000,000 rows is the benchmark's job (crates/imr-bench `fe`, bench/compare), not a
//! test's.

use imr_models::{Column, Estimator, PanelData, PanelSpec, VcovKind};

#[test]
fn fe_with_clustered_errors_on_200_000_rows_recovers_the_slopes() {
    let (entities, periods, k) = (10_000usize, 20usize, 5usize);
    let mut state = 1u64;
    let mut uniform = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let n = entities * periods;
    let mut x: Vec<Vec<Option<f64>>> = vec![Vec::with_capacity(n); k];
    let mut y = Vec::with_capacity(n);
    let mut entity = Vec::with_capacity(n);
    let mut time = Vec::with_capacity(n);
    for g in 0..entities {
        let effect = uniform();
        for t in 0..periods {
            let mut value = effect;
            for (j, column) in x.iter_mut().enumerate() {
                let v = uniform() + effect;
                column.push(Some(v));
                value += (j as f64 + 1.0) * v;
            }
            y.push(Some(value + 0.1 * uniform()));
            entity.push(format!("{g:05}"));
            time.push(t as i64);
        }
    }
    let mut data = PanelData::new(entity, time, Column::new("y", y));
    for (j, column) in x.into_iter().enumerate() {
        data = data.regressor(Column::new(format!("x{j}"), column));
    }
    let fit = PanelSpec::new(Estimator::Fe)
        .with_vcov(VcovKind::Cluster)
        .fit(&data)
        .unwrap();
    for j in 0..k {
        let c = fit.coefficient(&format!("x{j}")).unwrap();
        assert!((c.estimate - (j as f64 + 1.0)).abs() < 1e-3, "{c:?}");
    }
}
