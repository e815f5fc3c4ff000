//! The short fuzzing run of CI: every target, a few thousand mutated inputs from a fixed seed,
//! no panic and no broken invariant (docs/FUZZING.md has the long runs).

use imr_fuzz::{corpus, fuzz, hostile_dir, Target};

fn short_run(target: Target, iterations: u64) {
    let seeds = corpus(target, &hostile_dir());
    assert!(!seeds.is_empty(), "{}: no seed corpus", target.name());
    let stats = fuzz(target, iterations, 20261130, seeds, |_| {});
    assert_eq!(stats.executions, iterations);
    let first: Vec<String> = stats
        .crashes
        .iter()
        .take(5)
        .map(|c| {
            format!(
                "iteration {}: {} (input {:?})",
                c.iteration,
                c.message,
                String::from_utf8_lossy(&c.input[..c.input.len().min(300)])
            )
        })
        .collect();
    assert!(
        stats.crash_count == 0,
        "{}: {} crashes: {first:#?}",
        target.name(),
        stats.crash_count
    );
}

#[test]
fn csv_survives_a_short_run() {
    short_run(Target::Csv, 2_000);
}

#[test]
fn analysis_survives_a_short_run() {
    short_run(Target::Analysis, 1_000);
}

#[test]
fn fragment_survives_a_short_run() {
    short_run(Target::Fragment, 5_000);
}

#[test]
fn microdata_survives_a_short_run() {
    short_run(Target::Microdata, 3_000);
}

#[test]
fn boundaries_survive_a_short_run() {
    short_run(Target::Boundaries, 3_000);
}

#[test]
fn workbooks_survive_a_short_run() {
    short_run(Target::Workbook, 2_000);
}

#[test]
fn the_mutator_is_deterministic_for_a_seed() {
    let seeds = corpus(Target::Csv, &hostile_dir());
    let mut a = imr_fuzz::Mutator::new(7, seeds.clone());
    let mut b = imr_fuzz::Mutator::new(7, seeds);
    for _ in 0..200 {
        assert_eq!(a.next_input(), b.next_input());
    }
}

#[test]
fn a_panic_is_caught_and_becomes_a_crash_message() {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = imr_fuzz::caught(|| panic!("boom {}", 1));
    let plain = imr_fuzz::caught(|| Err("invariant".into()));
    std::panic::set_hook(hook);
    assert_eq!(result, Err("panic: boom 1".to_owned()));
    assert_eq!(plain, Err("invariant".to_owned()));
}
