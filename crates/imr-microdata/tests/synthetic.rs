//! The aggregator against the known answer of synthetic files: every chunking, with and
//! without header, CRLF, and the exclusions with their counts and line numbers.

use imr_microdata::synth::{write_deaths, Expected, SynthOptions, SynthSize};
use imr_microdata::{counts_csv, DeathsAggregate, DeathsAggregator, DeathsOptions, Reason};
use proptest::prelude::*;
use std::collections::BTreeMap;

const BOTH: DeathsOptions = DeathsOptions {
    neonatal: true,
    cause: true,
};

/// A small file with many infant deaths and problems, so every path is taken.
fn small(seed: u64, header: bool, crlf: bool) -> (Vec<u8>, Expected) {
    let options = SynthOptions {
        size: SynthSize::Rows(1500),
        seed,
        header,
        crlf,
        infant_share: 0.4,
        problem_share: 0.1,
        ..SynthOptions::default()
    };
    let mut bytes = Vec::new();
    let expected = write_deaths(&mut bytes, &options).unwrap();
    (bytes, expected)
}

fn aggregate_at(bytes: &[u8], cuts: &[usize], options: DeathsOptions) -> DeathsAggregate {
    let mut aggregator = DeathsAggregator::new(options);
    let mut start = 0;
    for &cut in cuts {
        let cut = cut.clamp(start, bytes.len());
        aggregator.push(&bytes[start..cut]).unwrap();
        start = cut;
    }
    aggregator.push(&bytes[start..]).unwrap();
    aggregator.finish().unwrap()
}

fn assert_matches(got: &DeathsAggregate, expected: &Expected) {
    assert_eq!(got.bytes, expected.bytes);
    assert_eq!(got.rows.rows_read, expected.rows);
    assert_eq!(got.rows.rows_counted, expected.infant_deaths);
    assert_eq!(got.rows.rows_not_infant, expected.non_infant_rows);
    assert_eq!(got.rows.recoded_rows, expected.recoded_rows);
    assert_eq!(
        got.rows.rows_read,
        got.rows.rows_counted + got.rows.rows_not_infant + got.rows.rows_excluded
    );
    let excluded: BTreeMap<Reason, (u64, Vec<u64>)> = got
        .excluded
        .iter()
        .map(|e| (e.reason, (e.count, e.first_lines.clone())))
        .collect();
    assert_eq!(excluded, expected.excluded);
    assert_eq!(
        got.rows_by_year
            .iter()
            .map(|(y, n)| (*y, *n))
            .collect::<Vec<_>>(),
        expected
            .rows_by_year
            .iter()
            .map(|(y, n)| (*y, *n))
            .collect::<Vec<_>>()
    );
    assert_eq!(got.cells.len(), expected.cells.len());
    for cell in &got.cells {
        let want = &expected.cells[&(cell.code.clone(), cell.year)];
        assert_eq!(cell.deaths, want.deaths, "{} {}", cell.code, cell.year);
        if let Some(split) = cell.neonatal {
            assert_eq!(
                (split.neonatal, split.post_neonatal, split.not_known),
                (want.neonatal, want.post_neonatal, want.not_known)
            );
        }
        if let Some(causes) = &cell.causes {
            assert_eq!(causes.as_slice(), want.causes.as_slice());
        }
    }
}

#[test]
fn the_aggregate_equals_the_known_answer_for_fixed_chunk_sizes() {
    let (bytes, expected) = small(7, true, false);
    for size in [1, 2, 3, 7, 64, 151, 4096, bytes.len()] {
        let cuts: Vec<usize> = (size..bytes.len()).step_by(size).collect();
        assert_matches(&aggregate_at(&bytes, &cuts, BOTH), &expected);
    }
}

#[test]
fn a_headerless_file_gives_the_same_counts_with_line_numbers_one_lower() {
    let (with, expected_with) = small(11, true, false);
    let (without, expected_without) = small(11, false, false);
    let a = aggregate_at(&with, &[], BOTH);
    let b = aggregate_at(&without, &[], BOTH);
    assert!(a.layout.has_header && !b.layout.has_header);
    assert_matches(&a, &expected_with);
    assert_matches(&b, &expected_without);
    assert_eq!(a.cells, b.cells);
    assert_eq!(a.rows.rows_read, b.rows.rows_read);
    for (x, y) in a.excluded.iter().zip(&b.excluded) {
        assert_eq!((x.reason, x.count), (y.reason, y.count));
        let shifted: Vec<u64> = y.first_lines.iter().map(|l| l + 1).collect();
        assert_eq!(x.first_lines, shifted);
    }
}

#[test]
fn crlf_line_ends_and_a_missing_final_newline_change_nothing() {
    let (bytes, expected) = small(3, false, true);
    assert_matches(&aggregate_at(&bytes, &[10, 500, 501], BOTH), &expected);
    let trimmed = bytes.strip_suffix(b"\r\n").unwrap();
    let got = aggregate_at(trimmed, &[], BOTH);
    assert_eq!(got.cells, aggregate_at(&bytes, &[], BOTH).cells);
}

#[test]
fn unknown_communes_and_unknown_ages_are_excluded_and_counted_separately() {
    let (bytes, expected) = small(5, true, false);
    let got = aggregate_at(&bytes, &[], DeathsOptions::default());
    let count = |reason| {
        got.excluded
            .iter()
            .find(|e| e.reason == reason)
            .map(|e| e.count)
    };
    assert!(count(Reason::UnknownCommune).unwrap() > 0);
    assert!(count(Reason::UnknownAge).unwrap() > 0);
    assert_eq!(
        count(Reason::UnknownCommune).unwrap(),
        expected.excluded[&Reason::UnknownCommune].0
    );
    let listed: u64 = got.unknown_codes.iter().map(|(_, n)| n).sum();
    assert_eq!(listed, count(Reason::UnknownCommune).unwrap());
    assert!(got
        .unknown_codes
        .iter()
        .all(|(code, _)| code.is_empty() || code == "00000" || code.starts_with("99")));
    // Without breakdowns the cells carry none.
    assert!(got
        .cells
        .iter()
        .all(|c| c.neonatal.is_none() && c.causes.is_none()));
}

#[test]
fn the_counts_table_equals_the_one_written_from_the_known_answer() {
    let (bytes, expected) = small(9, true, false);
    for (neonatal, cause) in [(false, false), (true, false), (true, true)] {
        let got = aggregate_at(&bytes, &[4000], DeathsOptions { neonatal, cause });
        assert_eq!(
            counts_csv(Some(&got), None),
            expected.counts_csv(neonatal, cause)
        );
    }
}

#[test]
fn at_most_100_line_numbers_are_kept_per_reason_but_all_are_counted() {
    let options = SynthOptions {
        size: SynthSize::Rows(6000),
        seed: 2,
        problem_share: 0.5,
        ..SynthOptions::default()
    };
    let mut bytes = Vec::new();
    let expected = write_deaths(&mut bytes, &options).unwrap();
    let got = aggregate_at(&bytes, &[], DeathsOptions::default());
    assert_matches(&got, &expected);
    for excluded in &got.excluded {
        assert!(excluded.count > 100);
        assert_eq!(excluded.first_lines.len(), 100);
    }
}

#[test]
fn progress_reports_bytes_and_rows_after_each_push() {
    let (bytes, expected) = small(4, true, false);
    let mut aggregator = DeathsAggregator::new(DeathsOptions::default());
    let mut last = 0;
    for chunk in bytes.chunks(1000) {
        let progress = aggregator.push(chunk).unwrap();
        assert_eq!(progress, aggregator.progress());
        assert!(progress.bytes_consumed == last + chunk.len() as u64);
        last = progress.bytes_consumed;
    }
    let progress = aggregator.progress();
    assert_eq!(progress.bytes_consumed, bytes.len() as u64);
    // The last line ends with a newline, so every row has been read before finish.
    assert_eq!(progress.rows_read, expected.rows);
    assert_eq!(progress.rows_counted, expected.infant_deaths);
}

#[test]
fn a_file_that_is_not_deaths_microdata_is_refused_on_its_first_line() {
    let mut aggregator = DeathsAggregator::new(DeathsOptions::default());
    aggregator.push(b"codigo_comuna;anio;naci").unwrap();
    let err = aggregator.push(b"mientos\n01101;2019;10\n").unwrap_err();
    assert!(err.to_string().starts_with("line 1: this is not"), "{err}");
    assert!(aggregator.push(b"more").is_err());
    assert!(DeathsAggregator::new(DeathsOptions::default())
        .finish()
        .unwrap_err()
        .to_string()
        .contains("empty"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Split points anywhere, including inside a multi-byte line end and twice at one place.
    #[test]
    fn any_split_points_give_the_known_answer(
        seed in 0u64..1000,
        header in any::<bool>(),
        crlf in any::<bool>(),
        mut cuts in proptest::collection::vec(0usize..200_000, 0..40),
    ) {
        let (bytes, expected) = small(seed, header, crlf);
        cuts.iter_mut().for_each(|c| *c %= bytes.len() + 1);
        cuts.sort_unstable();
        assert_matches(&aggregate_at(&bytes, &cuts, BOTH), &expected);
    }
}
