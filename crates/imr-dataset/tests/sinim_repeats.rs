//! SINIM's rates as published repeat a year: the file [`imr_dataset::sinim_rates_as_labelled`]
//! builds from data/raw is read by the engine's repeated-year test, and the raw extract is
//! checked by hand beside it.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::panel::Panel;
use imr_core::repeats::{repeat_of_year, repeated_years, RepeatedYear};
use imr_core::Lang;
use std::collections::BTreeMap;
use std::path::Path;

const RAW: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/raw");

/// The panel of one CSV text, its roles guessed from the column names.
fn panel_of(csv: &str) -> Panel {
    let table = RawTable::from_bytes("sinim.csv", csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

/// SINIM's rates as published (data/raw/sinim, v839 of 2019–2023) on INE's births of the same
/// labelled year (data/raw/ine): SINIM 2022 repeats SINIM 2021.
#[test]
fn sinims_2022_repeats_2021() {
    let csv = imr_dataset::sinim_rates_as_labelled(Path::new(RAW)).unwrap();
    let sinim = panel_of(&csv);
    let repeats = repeated_years(&sinim);
    assert_eq!(repeats.len(), 1, "{repeats:?}");
    // One year asked alone (the map's question) is the same entry, whichever year.
    for year in sinim.times().into_iter().chain([2018, 2030]) {
        assert_eq!(
            repeat_of_year(&sinim, year),
            repeats.iter().find(|r| r.time == year).copied(),
            "{year}"
        );
    }
    let r = &repeats[0];
    assert_eq!((r.time, r.repeat_of), (2022, 2021));
    assert_eq!(r.equal_areas, r.compared_areas);
    assert!(r.compared_areas >= 335, "{r:?}");
    assert!(RepeatedYear::left_out_text(&repeats, Lang::En)
        .unwrap()
        .contains("2022 (a repeat of 2021)"));
    assert!(RepeatedYear::left_out_text(&repeats, Lang::Es)
        .unwrap()
        .contains("2022 (copia de 2021)"));
    assert_eq!(RepeatedYear::left_out_text(&[], Lang::En), None);
}

/// Independently of the engine, from the raw extract's text: 2022 equals 2021 in every commune,
/// other pairs of years in far fewer.
#[test]
fn the_raw_extract_repeats_2021_as_2022() {
    let text = std::fs::read_to_string(Path::new(RAW).join(imr_dataset::SINIM_FILE)).unwrap();
    // (commune, year) → the rate's text as published.
    let mut tmi: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        tmi.insert((f[0], f[2]), f[3]);
    }
    let equal = |a: &str, b: &str| {
        tmi.iter()
            .filter(|((c, y), v)| *y == a && tmi.get(&(*c, b)) == Some(v))
            .count()
    };
    assert_eq!(equal("2022", "2021"), 346);
    assert!(equal("2020", "2019") < 120 && equal("2023", "2022") < 120);
}
