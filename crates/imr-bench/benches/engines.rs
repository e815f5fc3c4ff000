//! The engine benchmarks (a harness, not timed tests): `cargo bench -p imr-bench`.
//!
//! - ingest: the deaths aggregator on a 500 MiB synthetic file read in 1 MiB chunks (MB/s);
//!   `IMR_BENCH_DEATHS_MB` picks another size;
//! - fe with clustered errors on 1,000,000 rows × 5 regressors (the fit; data built once);
//! - inequality with 1,000 bootstrap replicates on 5,570 areas × 30 years;
//! - generic CSV ingest: `RawTable::from_bytes` and `build_panel` on the fe panel as
//!   CSV (MB/s): the file bench/compare writes with pandas when `IMR_BENCH_PANEL_CSV` names it,
//!   else the panel as imr-bench-data writes it.
//!
//! Ten samples each (criterion's minimum), so the run takes a few minutes on two cores.

/// The `imr` binary's allocator (crates/imr-cli/src/main.rs), so these are the figures `imr` gets.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use imr_bench::{deaths_file, inequality_observations, panel_columns, panel_csv};
use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_inequality::{BootstrapSpec, InequalitySpec, RateInput, Subject};
use imr_microdata::{DeathsAggregator, DeathsOptions};
use imr_models::{Estimator, PanelSpec, VcovKind};
use std::io::Read;
use std::time::Duration;

fn ingest(c: &mut Criterion) {
    let mb: u64 = std::env::var("IMR_BENCH_DEATHS_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let path = deaths_file(mb).expect("write the synthetic deaths file");
    let bytes = std::fs::metadata(&path).unwrap().len();
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function(format!("deaths_microdata_{mb}MiB"), |b| {
        let mut buffer = vec![0u8; 1 << 20];
        b.iter(|| {
            let mut file = std::fs::File::open(&path).unwrap();
            let mut aggregator = DeathsAggregator::new(DeathsOptions::default());
            loop {
                let n = file.read(&mut buffer).unwrap();
                if n == 0 {
                    break;
                }
                aggregator.push(&buffer[..n]).unwrap();
            }
            aggregator.finish().unwrap()
        })
    });
    group.finish();
}

fn fe_clustered(c: &mut Criterion) {
    let columns = panel_columns(50_000, 20, 5);
    let data = columns.panel_data();
    let spec = PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Cluster);
    let mut group = c.benchmark_group("models");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("fe_cluster_1e6x5", |b| b.iter(|| spec.fit(&data).unwrap()));
    // The model pyfixest fits (`| entity`, `| entity + time`, CRV1 by entity): absorbed
    // effects, no Hausman/F tests.
    for (name, two_way) in [
        ("fe_absorbed_cluster_1e6x5", false),
        ("fe_absorbed_2way_cluster_1e6x5", true),
    ] {
        let data = columns.panel_data_absorbing(two_way);
        group.bench_function(name, |b| b.iter(|| spec.fit(&data).unwrap()));
    }
    group.finish();
}

fn inequality_bootstrap(c: &mut Criterion) {
    let observations = inequality_observations(5_570, 30);
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 1000,
            ..Default::default()
        },
    };
    let mut group = c.benchmark_group("inequality");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("bootstrap_1000_5570x30", |b| {
        b.iter_batched(
            || Subject::Rates(RateInput::per_1000(observations.clone(), false)),
            |subject| spec.analyse(&subject).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn csv_ingest(c: &mut Criterion) {
    let path = match std::env::var_os("IMR_BENCH_PANEL_CSV") {
        Some(path) => path.into(),
        None => panel_csv().expect("write the panel CSV"),
    };
    let bytes = std::fs::read(&path).expect("read the panel CSV");
    let name = path.display().to_string();
    let table = RawTable::from_bytes(&name, &bytes).expect("a table");
    let roles = [imr_bench::panel_roles(&table)];
    let mut group = c.benchmark_group("ingest");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    // The file's bytes given to the table, as `imr` gives what it read (the copy is not timed).
    group.bench_function("csv_table_panel_1e6x8", |b| {
        b.iter_batched(
            || bytes.clone(),
            |bytes| RawTable::from_vec(&name, bytes).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("csv_build_panel_1e6x8", |b| {
        b.iter(|| {
            build_panel(
                std::slice::from_ref(&table),
                &roles,
                &IngestOptions::default(),
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    ingest,
    csv_ingest,
    fe_clustered,
    inequality_bootstrap
);
criterion_main!(benches);
