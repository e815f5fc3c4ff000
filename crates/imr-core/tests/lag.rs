//! Publication lags of published rates: the test of which year's births the rates fit
//! (`imr_core::lag`, run by every ingest of a rate column) and the rates moved to the year they
//! describe (`IngestOptions::rate_lag`), on SINIM's rates as published and on generated panels
//! with a known lag.

use imr_core::ingest::{
    build_panel, ExclusionReason, IngestError, IngestOptions, LaggedRateSource, RawTable,
};
use imr_core::lag::LagVerdict;
use imr_core::panel::Panel;
use imr_core::Lang;

const SINIM: &str = "tests/data/lag/sinim_tmi_ine_nacimientos_2017_2023.csv";
const SINIM_NAME: &str = "sinim_tmi_ine_nacimientos_2017_2023.csv";

/// The panel of `files` (name, bytes) with their guessed roles and a rate lag.
fn load(files: &[(&str, &[u8])], rate_lag: Option<u32>) -> Result<Panel, IngestError> {
    let tables: Vec<RawTable> = files
        .iter()
        .map(|(name, bytes)| RawTable::from_bytes(name, bytes).unwrap())
        .collect();
    let roles: Vec<_> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    let options = IngestOptions {
        rate_lag,
        ..IngestOptions::default()
    };
    build_panel(&tables, &roles, &options)
}

fn sinim(rate_lag: Option<u32>) -> Panel {
    let bytes = std::fs::read(SINIM).unwrap();
    load(&[(SINIM_NAME, &bytes)], rate_lag).unwrap()
}

fn row_of<'p>(panel: &'p Panel, code: &str, year: i64) -> Option<imr_core::panel::Row<'p>> {
    panel
        .rows()
        .find(|row| row.entity == code && row.time == year)
}

/// The counts (fits, testable) of `lag` in rate year `year`.
fn year_count(report: &imr_core::lag::LagReport, year: i64, lag: u32) -> (usize, usize) {
    let y = report.years.iter().find(|y| y.year == year).unwrap();
    let c = y.lags[lag as usize];
    (c.fits, c.testable)
}

#[test]
fn sinim_rates_of_year_y_fit_the_births_of_y_minus_2() {
    let panel = sinim(None);
    let report = panel.report.rate_lag.as_ref().expect("a rate column");
    assert_eq!((report.lag, report.step), (Some(2), Some(1.0)));
    // The table of the shared folder's PROVENANCE.md (t > 0, at most 400 births), year by year.
    assert_eq!(year_count(report, 2019, 2), (126, 127));
    assert_eq!(year_count(report, 2019, 1), (46, 127));
    assert_eq!(year_count(report, 2019, 0), (42, 133));
    // Births of 2016 are not in the fixture.
    assert_eq!(year_count(report, 2019, 3), (0, 0));
    assert_eq!(year_count(report, 2020, 2), (118, 125));
    assert_eq!(year_count(report, 2020, 3), (46, 125));
    assert_eq!(year_count(report, 2021, 2), (130, 134));
    assert_eq!(year_count(report, 2021, 1), (64, 134));
    assert_eq!(year_count(report, 2023, 2), (122, 122));
    assert_eq!(year_count(report, 2023, 0), (49, 122));
    // 2022 repeats 2021: its rates fit the births of 2019, three years before its label.
    let y2022 = report.years.iter().find(|y| y.year == 2022).unwrap();
    assert_eq!((y2022.repeats, y2022.lag), (Some(2021), Some(3)));
    assert_eq!(year_count(report, 2022, 3), (130, 134));
    let lags: Vec<Option<u32>> = report.years.iter().map(|y| y.lag).collect();
    assert_eq!(lags, [Some(2), Some(2), Some(2), Some(3), Some(2)]);
    // Pooled over 2019, 2020, 2021 and 2023.
    let pooled: Vec<(usize, usize)> = report.lags.iter().map(|c| (c.fits, c.testable)).collect();
    assert_eq!(
        pooled,
        [
            (42 + 34 + 38 + 49, 133 + 132 + 140 + 122),
            (46 + 49 + 64 + 40, 127 + 131 + 134 + 118),
            (126 + 118 + 130 + 122, 127 + 125 + 134 + 122),
            (46 + 46 + 41, 125 + 128 + 117)
        ]
    );
    assert!(matches!(&report.verdict, LagVerdict::Describes { lag, .. } if lag.lag == 2));
    // Chance: the mean window width, about 0.19 deaths.
    assert!(
        (report.lags[2].chance - 0.19).abs() < 0.01,
        "{:?}",
        report.lags
    );
    assert_eq!(
        report.text(Lang::En),
        "The rates of year Y fit the births of year Y−2 in 496 of 508 testable area-years \
         (chance alone: about 19%; next best, Y−1: 199 of 510): they describe year Y−2. \
         Left out: 2022, whose rates repeat 2021's."
    );
    assert!(report
        .text(Lang::Es)
        .starts_with("Las tasas del año A calzan con los nacimientos del año A−2 en 496 de 508"));
    assert!(report
        .by_year_text(Lang::En)
        .unwrap()
        .contains("2019: the births of 2017 (126 of 127); 2020: the births of 2018 (118 of 125)"));
    // Without a lag the rows of 2017–2018 have no rate and are excluded, as Antártica's.
    let r = &panel.report;
    assert_eq!(
        (r.rows_read, r.rows_used, r.rows_excluded),
        (2422, 1725, 697)
    );
    assert!(r
        .excluded
        .iter()
        .all(|e| matches!(e.kind, ExclusionReason::MissingValue { .. })));
    assert_eq!(panel.times(), (2019..=2023).collect::<Vec<_>>());
    assert!(r.files[0].rate_lag.is_none());
}

#[test]
fn with_a_lag_of_2_sinim_rates_move_to_2017_2021_and_every_row_is_accounted() {
    let unlagged = sinim(None);
    let panel = sinim(Some(2));
    // The test reads the rates as published: the same whatever lag is applied.
    assert_eq!(panel.report.rate_lag, unlagged.report.rate_lag);
    assert_eq!(panel.times(), (2017..=2021).collect::<Vec<_>>());
    let r = &panel.report;
    // 345 communes × 2017–2021 used; 2022–2023 (692 rows) have no rate two years later, and
    // Antártica (5 rows of 2017–2021) none in SINIM.
    assert_eq!(
        (r.rows_read, r.rows_used, r.rows_excluded),
        (2422, 1725, 697)
    );
    assert_eq!(r.rows_used, panel.len());
    let f = &r.files[0];
    assert_eq!(
        (f.rows_used, f.rows_excluded, f.rate_lag),
        (1725, 697, Some(2))
    );
    assert!(r.unplaced_rates.is_empty());
    // Iquique 2017: SINIM's 7 ‰ of 2019 on INE's 2,811 births of 2017.
    let iquique = row_of(&panel, "01101", 2017).unwrap();
    assert_eq!(iquique.births, Some(2811.0));
    assert_eq!(iquique.deaths, Some(7.0 * 2811.0 / 1000.0));
    assert_eq!(iquique.line, 2);
    // 2021 takes 2023's rate.
    assert_eq!(
        row_of(&panel, "01101", 2021).unwrap().deaths,
        Some(6.0 * 2225.0 / 1000.0)
    );
    let reason = |code: &str, year: i64| {
        let line = line_of(code, year);
        r.excluded
            .iter()
            .find(|e| e.line == line)
            .map(|e| (e.kind.clone(), e.reason.clone()))
            .unwrap()
    };
    let (kind, text) = reason("01101", 2022);
    assert_eq!(
        kind,
        ExclusionReason::NoLaggedRate {
            lag: 2,
            time: 2022,
            published_in: 2024,
            found: LaggedRateSource::NoRow
        }
    );
    assert_eq!(
        text,
        "no rate: with a lag of 2 years the rate of 2022 is published in the row of 2024, which \
         the data do not have"
    );
    // Antártica: its row of 2019 is there, without a rate.
    let (_, text) = reason("12202", 2017);
    let line_2019 = line_of("12202", 2019);
    assert_eq!(
        text,
        format!(
            "no rate: with a lag of 2 years the rate of 2017 is published in the row of 2019 \
             ({SINIM_NAME}, line {line_2019}), which has none"
        )
    );
    assert!(r
        .excluded
        .iter()
        .all(|e| matches!(e.kind, ExclusionReason::NoLaggedRate { lag: 2, .. })));
    // In Spanish.
    let spanish = r.excluded[0].kind.text(Lang::Es);
    assert!(
        spanish.starts_with("sin tasa: con un desfase de 2 años, la tasa de"),
        "{spanish}"
    );
    // A lag of 0 reads the rates as describing their own year.
    assert_eq!(sinim(Some(0)), unlagged);
}

/// The line of the fixture's row of `code` in `year` (line 2 is 01101 in 2017).
fn line_of(code: &str, year: i64) -> u64 {
    let text = std::fs::read_to_string(SINIM).unwrap();
    let index = text
        .lines()
        .position(|l| l.starts_with(&format!("{code},{year},")))
        .unwrap();
    index as u64 + 1
}

/// A small deterministic generator (SplitMix64).
struct Draws(u64);

impl Draws {
    fn int(&mut self, low: u64, high: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        low + (z ^ (z >> 31)) % (high - low + 1)
    }
}

/// The true (births, deaths) of each (area, year) of a generated panel.
type Truth = std::collections::BTreeMap<(String, i64), (u64, u64)>;

/// A generated panel as an agency with a publication lag of `lag` years writes it: areas
/// `a0`, `a1`, … with births of 2010–2020 drawn in `births` each year and whole deaths drawn in
/// 0..=4, and in the row of each year 2013–2020 the rate of `lag` years before rounded to
/// `decimals` decimals. Returns the CSV and the true (births, deaths) of each (area, year).
fn agency_csv(
    seed: u64,
    areas: usize,
    lag: u32,
    births: (u64, u64),
    decimals: i32,
) -> (String, Truth) {
    let mut draws = Draws(seed);
    let mut truth = std::collections::BTreeMap::new();
    for a in 0..areas {
        for year in 2010..=2020 {
            let b = draws.int(births.0, births.1);
            truth.insert((format!("a{a}"), year), (b, draws.int(0, 4)));
        }
    }
    let scale = 10f64.powi(decimals);
    let mut csv = String::from("codigo_comuna,anio,tasa,nacimientos\n");
    for ((area, year), (b, _)) in &truth {
        let rate = if *year >= 2013 {
            let (b0, d0) = truth[&(area.clone(), year - i64::from(lag))];
            format!(
                "{}",
                (1000.0 * d0 as f64 / b0 as f64 * scale).round() / scale
            )
        } else {
            String::new()
        };
        csv += &format!("{area},{year},{rate},{b}\n");
    }
    (csv, truth)
}

#[test]
fn a_generated_lag_is_found_and_the_lag_gives_back_each_years_true_deaths() {
    for lag in 0..=3u32 {
        let (csv, truth) = agency_csv(100 + u64::from(lag), 120, lag, (20, 900), 0);
        let detected = load(&[("agency.csv", csv.as_bytes())], None).unwrap();
        let report = detected.report.rate_lag.as_ref().unwrap();
        assert_eq!(report.lag, Some(lag), "{}", report.verdict);
        let panel = load(&[("agency.csv", csv.as_bytes())], Some(lag)).unwrap();
        let r = &panel.report;
        // The years whose rate is published in 2013–2020: 2013−lag … 2020−lag.
        let first = 2013 - i64::from(lag);
        assert_eq!(
            panel.times(),
            (first..=2020 - i64::from(lag)).collect::<Vec<_>>()
        );
        assert_eq!((r.rows_read, r.rows_used), (120 * 11, 120 * 8));
        assert_eq!(r.rows_read, r.rows_used + r.rows_excluded);
        for row in panel.rows() {
            let (b, d) = truth[&(row.entity.to_owned(), row.time)];
            assert_eq!(row.births, Some(b as f64));
            let derived = row.deaths.unwrap();
            // The rounding moves the rate by at most ½, the deaths by at most ½·b/1000: below
            // 1,000 births the true deaths are the nearest whole number.
            assert!((derived - d as f64).abs() <= 0.5 * b as f64 / 1000.0 + 1e-9);
            if b < 1000 {
                assert_eq!(derived.round(), d as f64, "{} {}", row.entity, row.time);
            }
        }
        // Rows before `first` find an empty rate, rows after 2020 − lag no row at all; a lag
        // of 0 is none: the rows without a rate are the empty cells.
        for e in &r.excluded {
            if lag == 0 {
                assert!(
                    matches!(e.kind, ExclusionReason::MissingValue { .. }),
                    "{e:?}"
                );
                continue;
            }
            let ExclusionReason::NoLaggedRate {
                time,
                published_in,
                found,
                ..
            } = &e.kind
            else {
                panic!("{e:?}")
            };
            assert_eq!(*published_in, time + i64::from(lag));
            match found {
                LaggedRateSource::NoRow => assert!(*published_in > 2020),
                LaggedRateSource::NoRate { line, .. } => {
                    assert!(*published_in < 2013);
                    assert_eq!(*line, e.line + u64::from(lag));
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn rates_on_a_step_of_a_tenth_are_tested_on_that_step() {
    // Births up to 4,000: windows of at most 0.4 deaths on a step of 0.1.
    let (csv, _) = agency_csv(9, 120, 1, (200, 4000), 1);
    let panel = load(&[("agency.csv", csv.as_bytes())], None).unwrap();
    let report = panel.report.rate_lag.as_ref().unwrap();
    assert_eq!((report.step, report.lag), (Some(0.1), Some(1)));
    // Constant births over the years: no lag can be told apart.
    let mut same_births = String::from("codigo_comuna,anio,tasa,nacimientos\n");
    let mut draws = Draws(5);
    for a in 0..100 {
        let b = draws.int(20, 400);
        let deaths: Vec<u64> = (0..11).map(|_| draws.int(0, 4)).collect();
        for (i, year) in (2010..=2020).enumerate() {
            let rate = if i >= 3 {
                (1000.0 * deaths[i - 2] as f64 / b as f64)
                    .round()
                    .to_string()
            } else {
                String::new()
            };
            same_births += &format!("a{a},{year},{rate},{b}\n");
        }
    }
    let panel = load(&[("same.csv", same_births.as_bytes())], None).unwrap();
    let report = panel.report.rate_lag.as_ref().unwrap();
    assert_eq!(report.lag, None);
    assert!(report
        .text(Lang::En)
        .starts_with("Which year the rates describe cannot be told"));
}

#[test]
fn a_rate_in_one_file_and_births_in_another_move_together_and_merged_rows_go_with_their_row() {
    // Rates (as SINIM) in one file, births (as INE) in another; the rates' file first, so the
    // births of its rows are merged in.
    let rates = b"codigo_comuna,anio,tmi\n01101,2019,7\n01101,2020,8\n01107,2019,5\n05101,2019,4\n";
    let births = b"codigo_comuna,anio,nacimientos\n01101,2017,140\n01101,2018,150\n01101,2019,130\n01107,2017,200\n01107,2018,210\n";
    let panel = load(
        &[("tasas.csv", rates), ("nacimientos.csv", births)],
        Some(2),
    )
    .unwrap();
    let r = &panel.report;
    let kept: Vec<(&str, i64, Option<f64>)> = panel
        .rows()
        .map(|row| (row.entity, row.time, row.deaths))
        .collect();
    assert_eq!(
        kept,
        [
            ("01101", 2017, Some(7.0 * 140.0 / 1000.0)),
            ("01101", 2018, Some(8.0 * 150.0 / 1000.0)),
            ("01107", 2017, Some(5.0 * 200.0 / 1000.0)),
        ]
    );
    // 9 records: 3 rows used; 01101-2019 (and the births merged into it), 01101-2020,
    // 01107-2019, 01107-2018 and 05101-2019 excluded.
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (9, 3, 6));
    assert_eq!(r.merged_rows, 0);
    let places: Vec<(&str, u64)> = r
        .excluded
        .iter()
        .map(|e| (e.file.as_str(), e.line))
        .collect();
    assert_eq!(
        places,
        [
            ("nacimientos.csv", 4),
            ("nacimientos.csv", 6),
            ("tasas.csv", 2),
            ("tasas.csv", 3),
            ("tasas.csv", 4),
            ("tasas.csv", 5)
        ]
    );
    // The merged births go with their row, for its reason.
    assert_eq!(r.excluded[0].reason, r.excluded[2].reason);
    let files: Vec<(usize, usize, Option<u32>)> = r
        .files
        .iter()
        .map(|f| (f.rows_used, f.rows_excluded, f.rate_lag))
        .collect();
    assert_eq!(files, [(0, 4, Some(2)), (3, 2, None)]);
    // 05101's rate of 2019 describes 2017, a year of which it has no row.
    assert_eq!(r.unplaced_rates.len(), 1);
    assert_eq!(
        r.unplaced_rates[0].to_string(),
        "tasas.csv, line 5: the rate of 05101 in 2019 describes 2017, a year without a row of \
         05101; it is not used"
    );
    let spanish = r.unplaced_rates[0].text(Lang::Es);
    assert!(spanish.contains("describe 2017"), "{spanish}");
    assert_eq!(imr_lang::english_words(&spanish), Vec::<String>::new());
}

#[test]
fn a_row_excluded_for_its_own_reason_gives_no_rate_and_is_named() {
    let text = b"codigo_comuna,anio,tmi,nacidos_vivos\n01101,2016,,100\n01101,2017,,10\n01101,2018,5,x\n01101,2019,2000,50\n01101,2021,7,100\n";
    let panel = load(&[("d.csv", text)], Some(2)).unwrap();
    let r = &panel.report;
    let reasons: Vec<(u64, &str)> = r
        .excluded
        .iter()
        .map(|e| (e.line, e.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                2,
                "no rate: with a lag of 2 years the rate of 2016 is published in the row of \
                 2018 (d.csv, line 4), which is excluded"
            ),
            // 2,000 ‰ of 2019 on the 10 births of 2017: more deaths than births.
            (3, "deaths (20) exceed births (10)"),
            (4, "column `nacidos_vivos`: expected a number, found \"x\""),
            (
                6,
                "no rate: with a lag of 2 years the rate of 2021 is published in the row of \
                 2023, which the data do not have"
            ),
        ]
    );
    // 2019 takes 2021's 7 ‰: 0.35 deaths on 50 births.
    let used: Vec<(i64, Option<f64>)> = panel.rows().map(|row| (row.time, row.deaths)).collect();
    assert_eq!(used, [(2019, Some(7.0 * 50.0 / 1000.0))]);
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (5, 1, 4));
    // Each reason in Spanish, with no English left.
    for e in &r.excluded {
        let spanish = e.kind.text(Lang::Es);
        assert_ne!(spanish, e.reason);
        assert_eq!(
            imr_lang::english_words(&spanish),
            Vec::<String>::new(),
            "{spanish}"
        );
    }
    assert!(r.excluded[0]
        .kind
        .text(Lang::Es)
        .ends_with("en la fila de 2018 (d.csv, línea 4), que está excluida"));
    // Every row excluded: the error says so, naming the first.
    let text = b"codigo_comuna,anio,tmi,nacidos_vivos\n01101,2019,7,140\n";
    let err = load(&[("d.csv", text)], Some(1)).unwrap_err();
    assert!(
        err.to_string()
            .contains("no rate: with a lag of 1 year the rate of 2019"),
        "{err}"
    );
}

#[test]
fn a_lag_for_data_without_a_rate_column_is_an_error_naming_why() {
    let counted = b"codigo_comuna,anio,nacimientos,defunciones,tmi\n01101,2019,1000,5,5\n";
    let err = load(&[("conteos.csv", counted)], Some(2)).unwrap_err();
    assert_eq!(
        err,
        IngestError::RateLagWithoutRate {
            lag: 2,
            deaths: Some(("conteos.csv".into(), "defunciones".into()))
        }
    );
    let births_only = b"codigo_comuna,anio,nacimientos\n01101,2019,1000\n";
    let err = load(&[("n.csv", births_only)], Some(1)).unwrap_err();
    assert_eq!(
        err,
        IngestError::RateLagWithoutRate {
            lag: 1,
            deaths: None
        }
    );
    assert!(err
        .text(Lang::Es)
        .contains("ningún archivo de datos tiene una columna de tasa"));
    // A lag of 0 is no lag: accepted anywhere; counted deaths have no lag test.
    let panel = load(&[("conteos.csv", counted)], Some(0)).unwrap();
    assert_eq!(panel.report.rate_lag, None);
    assert_eq!(panel.len(), 1);
}

#[test]
fn with_repeated_keys_kept_the_rate_of_a_year_is_its_first_rows() {
    // `imr fit --fe` keeps rows that repeat a key: the row of 2017 takes the first 2019 rate.
    let text = b"codigo_comuna,anio,tmi,nacidos_vivos\n01101,2017,,100\n01101,2019,5,90\n01101,2019,9,80\n";
    let table = RawTable::from_bytes("d.csv", text).unwrap();
    let roles = table.guessed_roles.clone();
    let options = IngestOptions {
        rate_lag: Some(2),
        keep_repeated_keys: true,
        ..IngestOptions::default()
    };
    let panel = build_panel(&[table], &[roles], &options).unwrap();
    let kept: Vec<(i64, Option<f64>)> = panel.rows().map(|r| (r.time, r.deaths)).collect();
    assert_eq!(kept, [(2017, Some(5.0 * 100.0 / 1000.0))]);
    let r = &panel.report;
    assert_eq!((r.rows_read, r.rows_used, r.rows_excluded), (3, 1, 2));
    assert!(r.excluded.iter().all(|e| e
        .reason
        .ends_with("in the row of 2021, which the data do not have")));
}

#[test]
fn years_at_the_ends_of_the_range_do_not_overflow() {
    // A caller may give any year to the rows of a file without a year column; the page and imr
    // keep it within ±999,999. With the year at either end of i64, no row is found past it.
    let text = b"codigo_comuna,tmi,nacidos_vivos\n01101,7,130\n";
    for year in [i64::MAX, i64::MIN] {
        let table = RawTable::from_bytes("d.csv", text).unwrap();
        let roles = table.guessed_roles.clone();
        let options = IngestOptions {
            time_value: Some(year),
            rate_lag: Some(3),
            ..IngestOptions::default()
        };
        let err = build_panel(&[table], &[roles], &options).unwrap_err();
        assert!(
            matches!(
                &err,
                IngestError::NoUsableRows {
                    first_reason: Some(ExclusionReason::NoLaggedRate { .. }),
                    ..
                }
            ),
            "{err}"
        );
    }
    // The test itself on observations of any year.
    let observations: Vec<imr_core::lag::Observation<u8>> = [i64::MIN, i64::MAX]
        .into_iter()
        .map(|year| imr_core::lag::Observation {
            entity: 1,
            year,
            rate: Some(7.0),
            births: Some(130.0),
        })
        .collect();
    assert!(imr_core::lag::detect(&observations).years.len() == 2);
}
