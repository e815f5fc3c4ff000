//! What `imr dataset check` verifies of a build beyond its bytes: the panel against the sources'
//! own totals, and the reconstructed deaths against every SINIM integer they come from.

use crate::rows::{DeathsSource, PanelRow, RowNote};
use crate::sources::CutCommune;
use crate::table::Table;
use crate::vital::{DEIS_BIRTH_YEARS, INE_BIRTHS_FILE, INE_BIRTH_YEARS, INE_DEATH_YEARS};
use crate::DatasetError;
use imr_stats::rounded::reproduces;
use std::collections::BTreeMap;
use std::path::Path;

/// INE's national registered live births by year (Anuario de Estadísticas Vitales; the figures
/// `data/raw/ine/PROVENANCE.md` lists with their source).
pub const INE_NATIONAL_BIRTHS: [(u16, u64); 12] = [
    (2010, 250_643),
    (2011, 247_358),
    (2012, 243_635),
    (2013, 242_005),
    (2014, 250_997),
    (2015, 244_670),
    (2016, 231_749),
    (2017, 219_186),
    (2018, 221_731),
    (2019, 210_188),
    (2020, 194_978),
    (2021, 177_273),
];

/// One verification and its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub name: &'static str,
    pub passed: bool,
    /// What was compared, with the numbers.
    pub detail: String,
}

/// Every check of the panel `rows` (the build's) against the raw sources in `raw`.
pub fn run(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    rows: &[PanelRow],
    ine_births: &BTreeMap<(String, u16), u64>,
    deis_births: &crate::vital::MicrodataBirths,
) -> Result<Vec<Check>, DatasetError> {
    let national_deaths = crate::vital::read_national_deaths(raw)?;
    let regional = crate::sources::read_regional_births(raw, panel)?;
    let all_births = read_all_ine_births(raw)?;
    let mut checks = vec![
        deaths_equal_national_totals(rows, &national_deaths),
        births_file_equals_national_totals(&all_births),
        births_equal_their_sources(rows, ine_births, deis_births),
    ];
    checks.push(regional_births_equal_deis(&all_births, &regional));
    checks.push(reconstructed_deaths_reproduce_sinim(rows));
    checks.push(every_row_is_the_year_it_describes(rows));
    checks.push(sinim_rates_lag_two_years(raw, &all_births)?);
    checks.push(placed_rates_fit_their_own_year(rows));
    Ok(checks)
}

/// The engine's publication-lag test (`imr_core::lag`, the one `imr rates` and the Data view
/// run) on SINIM's rates as labelled and INE's births of the labelled years: the rates describe
/// the year two before their label — the reason the build moves them.
fn sinim_rates_lag_two_years(
    raw: &Path,
    births: &BTreeMap<(String, u16), u64>,
) -> Result<Check, DatasetError> {
    let table = Table::read(&raw.join(crate::SINIM_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let rate_col = table.column("v839")?;
    let mut observations = Vec::new();
    for record in &table.records {
        let code = table.commune_code(record, &code_col)?;
        let year = crate::sources::year_of(&table, record, &year_col)?;
        observations.push(imr_core::lag::Observation {
            entity: code,
            year: i64::from(year),
            rate: table.optional_number(record, &rate_col)?,
            births: None,
        });
    }
    for ((code, year), b) in births {
        observations.push(imr_core::lag::Observation {
            entity: code.clone(),
            year: i64::from(*year),
            rate: None,
            births: Some(*b as f64),
        });
    }
    let report = imr_core::lag::detect(&observations);
    Ok(Check {
        name: "SINIM's rates as labelled fit INE's births of two years before (the lag test)",
        passed: report.lag == Some(2),
        detail: report.verdict.to_string(),
    })
}

/// The same test on the panel: the rates now sit in the year whose births they fit (lag 0).
fn placed_rates_fit_their_own_year(rows: &[PanelRow]) -> Check {
    let observations: Vec<imr_core::lag::Observation<String>> = rows
        .iter()
        .map(|r| imr_core::lag::Observation {
            entity: r.code.clone(),
            year: i64::from(r.year),
            rate: r.sinim_rate.map(|t| t as f64),
            births: r.births.map(|b| b as f64),
        })
        .collect();
    let report = imr_core::lag::detect(&observations);
    Check {
        name: "SINIM's rates in the panel fit the births of their own row (lag 0)",
        passed: report.lag == Some(0),
        detail: report.verdict.to_string(),
    }
}

fn sum_by_year(rows: &[PanelRow], value: impl Fn(&PanelRow) -> Option<u64>) -> BTreeMap<u16, u64> {
    let mut sums = BTreeMap::new();
    for row in rows {
        if let Some(v) = value(row) {
            *sums.entry(row.year).or_insert(0) += v;
        }
    }
    sums
}

fn deaths_equal_national_totals(rows: &[PanelRow], national: &BTreeMap<u16, u64>) -> Check {
    let sums = sum_by_year(rows, |r| {
        (r.deaths_source == DeathsSource::Ine)
            .then_some(r.deaths)
            .flatten()
    });
    let mut differences = Vec::new();
    let mut shown = Vec::new();
    for year in INE_DEATH_YEARS {
        let ours = sums.get(&year).copied().unwrap_or(0);
        let theirs = national.get(&year).copied();
        shown.push(format!("{year} {ours}"));
        if Some(ours) != theirs {
            differences.push(format!(
                "{year}: {ours} here, {theirs:?} in INE's Total País"
            ));
        }
    }
    Check {
        name: "infant deaths 2001-2015 sum to INE's national totals",
        passed: differences.is_empty(),
        detail: if differences.is_empty() {
            shown.join(", ")
        } else {
            differences.join("; ")
        },
    }
}

/// INE's births by (code, year) for every commune of the file, Antártica (no boundary, not in the
/// panel) included: the national and regional totals count it.
fn read_all_ine_births(raw: &Path) -> Result<BTreeMap<(String, u16), u64>, DatasetError> {
    let table = Table::read(&raw.join(INE_BIRTHS_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let births_col = table.column("nacidos_vivos")?;
    let mut births = BTreeMap::new();
    for record in &table.records {
        let code = table.commune_code(record, &code_col)?;
        let year = crate::sources::year_of(&table, record, &year_col)?;
        births.insert((code, year), table.count(record, &births_col)?);
    }
    Ok(births)
}

/// The INE births file sums to INE's published national births.
fn births_file_equals_national_totals(births: &BTreeMap<(String, u16), u64>) -> Check {
    let mut sums: BTreeMap<u16, u64> = BTreeMap::new();
    for ((_, year), count) in births {
        *sums.entry(*year).or_insert(0) += count;
    }
    let differences: Vec<String> = INE_NATIONAL_BIRTHS
        .iter()
        .filter(|(year, total)| sums.get(year) != Some(total))
        .map(|(year, total)| {
            format!(
                "{year}: {:?} in the file, {total} published",
                sums.get(year)
            )
        })
        .collect();
    Check {
        name: "INE births by commune 2010-2021 sum to INE's published national births",
        passed: differences.is_empty(),
        detail: if differences.is_empty() {
            INE_NATIONAL_BIRTHS
                .iter()
                .map(|(y, t)| format!("{y} {t}"))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            differences.join("; ")
        },
    }
}

fn births_equal_their_sources(
    rows: &[PanelRow],
    ine: &BTreeMap<(String, u16), u64>,
    deis: &crate::vital::MicrodataBirths,
) -> Check {
    let mut differences = Vec::new();
    let mut compared = 0;
    for row in rows {
        let key = (row.code.clone(), row.year);
        let source = if INE_BIRTH_YEARS.contains(&row.year) {
            ine.get(&key).copied()
        } else if DEIS_BIRTH_YEARS.contains(&row.year) {
            // A commune without a microdata row had no births (0).
            let created = !row.notes.contains(&RowNote::NotYetCreated);
            deis.get(&key).map(|(b, _)| *b).or(created.then_some(0))
        } else {
            None
        };
        compared += 1;
        if row.births != source {
            differences.push(format!(
                "{} {}: {:?} here, {source:?} in the source",
                row.code, row.year, row.births
            ));
        }
    }
    Check {
        name: "births equal the named source row by row",
        passed: differences.is_empty(),
        detail: if differences.is_empty() {
            format!("{compared} rows")
        } else {
            differences.join("; ")
        },
    }
}

fn regional_births_equal_deis(
    births: &BTreeMap<(String, u16), u64>,
    regional: &BTreeMap<(String, u16), u64>,
) -> Check {
    let mut ours: BTreeMap<(String, u16), u64> = BTreeMap::new();
    for ((code, year), count) in births.iter().filter(|((_, y), _)| *y >= 2019) {
        *ours.entry((code[..2].to_owned(), *year)).or_insert(0) += count;
    }
    let mut off = Vec::new();
    for ((region, year), deis) in regional.iter().filter(|((_, y), _)| *y <= 2021) {
        let here = ours.get(&(region.clone(), *year)).copied().unwrap_or(0);
        // 2019: one birth of unknown residence is in INE's yearbook and not in DEIS's series.
        let tolerance = if *year == 2019 { 1 } else { 0 };
        if here.abs_diff(*deis) > tolerance {
            off.push(format!("region {region} {year}: {here} here, {deis} DEIS"));
        }
    }
    Check {
        name: "births by region 2019-2021 equal DEIS's births by region of residence",
        passed: off.is_empty(),
        detail: if off.is_empty() {
            "16 regions × 3 years (2019 within one birth)".into()
        } else {
            off.join("; ")
        },
    }
}

fn reconstructed_deaths_reproduce_sinim(rows: &[PanelRow]) -> Check {
    let (mut exact, mut ranged, mut none, mut wrong) = (0, 0, Vec::new(), Vec::new());
    for row in rows
        .iter()
        .filter(|r| r.deaths_source == DeathsSource::SinimRate)
    {
        let (Some(rate), Some(births), Some(low), Some(high)) =
            (row.sinim_rate, row.births, row.deaths_low, row.deaths_high)
        else {
            continue;
        };
        if row.notes.contains(&RowNote::NoneFits) {
            none.push(format!("{} {}", row.code, row.year));
            if (low..=high).any(|d| reproduces(rate, d, births)) {
                wrong.push(format!("{} {}: a whole number fits", row.code, row.year));
            }
            continue;
        }
        let all_fit = (low..=high).all(|d| reproduces(rate, d, births));
        let outside_fit =
            (low > 0 && reproduces(rate, low - 1, births)) || reproduces(rate, high + 1, births);
        if !all_fit || outside_fit {
            wrong.push(format!(
                "{} {}: {low}-{high} on {births} births vs rate {rate}",
                row.code, row.year
            ));
        }
        if low == high {
            exact += 1;
        } else {
            ranged += 1;
        }
    }
    Check {
        name: "reconstructed deaths reproduce every SINIM integer rate",
        passed: wrong.is_empty(),
        detail: if wrong.is_empty() {
            format!(
                "{exact} exact, {ranged} with a range; {} where no whole number fits (left in \
                 with the nearest, noted): {}",
                none.len(),
                none.join(", ")
            )
        } else {
            wrong.join("; ")
        },
    }
}

fn every_row_is_the_year_it_describes(rows: &[PanelRow]) -> Check {
    let wrong: Vec<String> = rows
        .iter()
        .filter(|r| {
            r.sinim_year
                .is_some_and(|y| y != r.year + crate::rows::SINIM_LAG_YEARS)
        })
        .map(|r| format!("{} {}", r.code, r.year))
        .collect();
    Check {
        name: "every SINIM rate sits in the year it describes (published year − 2)",
        passed: wrong.is_empty(),
        detail: if wrong.is_empty() {
            "all".into()
        } else {
            wrong.join(", ")
        },
    }
}
