//! The panel's rows as values: for each commune and year, where its deaths and births come from,
//! what the sources say of it, and the covariates of that same year.
//!
//! - 2001–2015: INE's published infant deaths; births from the health ministry's microdata
//!   (2001–2009) and INE's yearbooks (2010–2015).
//! - 2017, 2018, 2019, 2021: SINIM's integer rate of the year two later (SINIM publishes the
//!   infant mortality of year Y − 2 as its year Y: `data/raw/sinim/PROVENANCE.md`), moved to the
//!   year it describes, with the whole deaths that reproduce it on INE's births of that year
//!   ([`crate::reconstruct`]).
//! - 2016 and 2020: no published infant deaths by commune; the rows keep their births and say so.
//!
//! Covariates are those of the row's own year; a year a source does not cover stays empty.

use crate::ficha::FichaValues;
use crate::sources::SinimValues;
use crate::vital::{DeathsNote, InfantDeaths, DEIS_BIRTH_YEARS, INE_DEATH_YEARS};
use imr_stats::rounded::{deaths_from_rate, Reconstruction};
use std::collections::BTreeMap;

/// How many years after the deaths SINIM publishes their rate.
pub const SINIM_LAG_YEARS: u16 = 2;

/// The years whose deaths are reconstructed from SINIM's rate (SINIM 2019, 2020, 2021, 2023;
/// SINIM 2022 repeats 2021).
pub const RECONSTRUCTED_YEARS: [u16; 4] = [2017, 2018, 2019, 2021];

/// The years without any published infant deaths by commune.
pub const YEARS_WITHOUT_SOURCE: [u16; 2] = [2016, 2020];

/// Where a row's deaths come from (`fuente_defunciones`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeathsSource {
    /// INE's published counts.
    Ine,
    /// Reconstructed from SINIM's integer rate and INE's births.
    SinimRate,
    /// No published source for the year.
    None,
}

impl DeathsSource {
    pub fn code(self) -> &'static str {
        match self {
            DeathsSource::Ine => "ine_publicadas",
            DeathsSource::SinimRate => "sinim_tmi_reconstruidas",
            DeathsSource::None => "sin_fuente",
        }
    }
}

/// Where a row's births come from (`fuente_nacidos`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BirthsSource {
    /// The health ministry's births microdata, mothers aged 15–49.
    DeisMicrodata,
    /// INE's yearbooks of vital statistics (registered births).
    IneYearbook,
}

impl BirthsSource {
    pub fn code(self) -> &'static str {
        match self {
            BirthsSource::DeisMicrodata => "deis_microdatos",
            BirthsSource::IneYearbook => "ine_anuario",
        }
    }
}

/// What a row's sources say of it (`nota`, codes joined by `;`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RowNote {
    /// One of the four communes created in 2004, before it existed (counted in its parent).
    NotYetCreated,
    /// Its parent before 2004: the counts include the new commune.
    IncludesCommuneCreated2004,
    /// 2004: the new commune and its parent each count part of the year.
    SplitYear2004,
    /// No row in INE's table (no death at any age): 0 infant deaths.
    NoIneRowZero,
    /// No row in the microdata's births: 0 births.
    NoMicrodataBirthsZero,
    /// No published infant deaths by commune for the year (2016, 2020).
    NoPublishedSource,
    /// SINIM published no rate for the commune.
    NoSinimRate,
    /// Several whole numbers of deaths reproduce SINIM's rate: `defunciones_min`–`_max`.
    SeveralFit,
    /// No whole number of deaths reproduces SINIM's rate on INE's births.
    NoneFits,
    /// No births: SINIM's rate says nothing of the deaths.
    NoBirths,
}

impl RowNote {
    pub fn code(self) -> &'static str {
        match self {
            RowNote::NotYetCreated => "comuna_aun_no_creada",
            RowNote::IncludesCommuneCreated2004 => "incluye_comuna_creada_2004",
            RowNote::SplitYear2004 => "anio_de_creacion_2004_parcial",
            RowNote::NoIneRowZero => "sin_fila_en_tabla_ine_0",
            RowNote::NoMicrodataBirthsZero => "sin_nacimientos_en_microdatos_0",
            RowNote::NoPublishedSource => "sin_fuente_publicada",
            RowNote::NoSinimRate => "sin_tmi_sinim",
            RowNote::SeveralFit => "tmi_compatible_con_varios_enteros",
            RowNote::NoneFits => "tmi_no_reproducible_con_nacidos_ine",
            RowNote::NoBirths => "sin_nacimientos",
        }
    }

    /// Every note, for the codebook.
    pub const ALL: [RowNote; 10] = [
        RowNote::NotYetCreated,
        RowNote::IncludesCommuneCreated2004,
        RowNote::SplitYear2004,
        RowNote::NoIneRowZero,
        RowNote::NoMicrodataBirthsZero,
        RowNote::NoPublishedSource,
        RowNote::NoSinimRate,
        RowNote::SeveralFit,
        RowNote::NoneFits,
        RowNote::NoBirths,
    ];
}

/// The CASEN round behind a poverty figure (`pobreza_fuente`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PovertySurvey {
    /// The ficha comunal 2006–2012: one figure per commune over the period.
    CasenMean2006To2012,
    Casen2017,
    Casen2020,
}

impl PovertySurvey {
    pub fn code(self) -> &'static str {
        match self {
            PovertySurvey::CasenMean2006To2012 => "casen_promedio_2006_2012",
            PovertySurvey::Casen2017 => "casen_2017",
            PovertySurvey::Casen2020 => "casen_2020",
        }
    }

    /// The round SINIM's "última encuesta vigente" of `sinim_year` refers to: CASEN 2017 for
    /// SINIM 2019–2020, CASEN 2020 for 2021–2022 (the values jump with CASEN 2020's national
    /// rise: Iquique 4.38 → 12.35), CASEN 2022 for 2023 (equal to MDS's small-area estimates of
    /// 2022 to 0.01).
    fn of_sinim_year(sinim_year: u16) -> Option<PovertySurvey> {
        match sinim_year {
            2019 | 2020 => Some(PovertySurvey::Casen2017),
            2021 | 2022 => Some(PovertySurvey::Casen2020),
            _ => None,
        }
    }
}

/// One commune-year of the panel.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelRow {
    pub code: String,
    pub year: u16,
    /// Infant deaths: INE's count, or the whole number that reproduces SINIM's rate (the one
    /// nearest rate × births / 1000 when several do).
    pub deaths: Option<u64>,
    /// The least and greatest whole deaths consistent with the sources (equal to `deaths` for
    /// INE's counts and exact reconstructions).
    pub deaths_low: Option<u64>,
    pub deaths_high: Option<u64>,
    pub births: Option<u64>,
    pub deaths_source: DeathsSource,
    pub births_source: BirthsSource,
    /// SINIM's published rate and the SINIM year it was published under.
    pub sinim_rate: Option<u64>,
    pub sinim_year: Option<u16>,
    pub notes: Vec<RowNote>,
    pub poverty: Option<String>,
    pub poverty_survey: Option<PovertySurvey>,
    /// Municipal health spending per inhabitant, M$ (2006–2012).
    pub health_spending_pc: Option<f64>,
    /// Municipal health income per inhabitant, M$ (2019–2021).
    pub health_income_pc: Option<f64>,
    pub municipal_contribution_pc: Option<f64>,
    pub primary_care_coverage: Option<String>,
    pub rural: Option<String>,
    pub distance_regional_capital: Option<String>,
}

/// The sources a row is made from, keyed by (code, year).
pub struct Sources<'a> {
    pub ine_deaths: &'a BTreeMap<(String, u16), InfantDeaths>,
    pub ine_births: &'a BTreeMap<(String, u16), u64>,
    /// Microdata births and whether the source marks a 2004 partial year.
    pub deis_births: &'a crate::vital::MicrodataBirths,
    pub sinim: &'a BTreeMap<(String, u16), SinimValues>,
    pub ficha: &'a BTreeMap<(String, u16), FichaValues>,
    pub population: &'a BTreeMap<(String, u16), u64>,
}

/// The row of commune `code` in `year`, or why the sources cannot make it.
pub fn row(sources: &Sources<'_>, code: &str, year: u16) -> Result<PanelRow, String> {
    let key = (code.to_owned(), year);
    let mut row = PanelRow {
        code: code.to_owned(),
        year,
        deaths: None,
        deaths_low: None,
        deaths_high: None,
        births: None,
        deaths_source: DeathsSource::None,
        births_source: if DEIS_BIRTH_YEARS.contains(&year) {
            BirthsSource::DeisMicrodata
        } else {
            BirthsSource::IneYearbook
        },
        sinim_rate: None,
        sinim_year: None,
        notes: Vec::new(),
        poverty: None,
        poverty_survey: None,
        health_spending_pc: None,
        health_income_pc: None,
        municipal_contribution_pc: None,
        primary_care_coverage: None,
        rural: None,
        distance_regional_capital: None,
    };
    let exists = if INE_DEATH_YEARS.contains(&year) {
        let deaths = sources
            .ine_deaths
            .get(&key)
            .ok_or_else(|| format!("no INE infant deaths for {code} {year}"))?;
        row.deaths_source = DeathsSource::Ine;
        row.deaths = deaths.count;
        row.deaths_low = deaths.count;
        row.deaths_high = deaths.count;
        match deaths.note {
            DeathsNote::Ok => {}
            DeathsNote::AbsentReadAsZero => row.notes.push(RowNote::NoIneRowZero),
            DeathsNote::NotYetCreated => row.notes.push(RowNote::NotYetCreated),
            DeathsNote::IncludesCommuneCreated2004 => {
                row.notes.push(RowNote::IncludesCommuneCreated2004)
            }
            DeathsNote::SplitYear2004 => row.notes.push(RowNote::SplitYear2004),
        }
        deaths.note != DeathsNote::NotYetCreated
    } else {
        true
    };
    if exists {
        row.births = Some(births(sources, &mut row)?);
    }
    if YEARS_WITHOUT_SOURCE.contains(&year) {
        row.notes.push(RowNote::NoPublishedSource);
    }
    if RECONSTRUCTED_YEARS.contains(&year) {
        reconstruct(sources, &mut row);
    }
    covariates(sources, &mut row);
    row.notes.sort();
    Ok(row)
}

fn births(sources: &Sources<'_>, row: &mut PanelRow) -> Result<u64, String> {
    let key = (row.code.clone(), row.year);
    match row.births_source {
        BirthsSource::DeisMicrodata => match sources.deis_births.get(&key) {
            Some(&(births, partial)) => {
                // The microdata mark only the new commune; INE's deaths mark the pair.
                if partial && !row.notes.contains(&RowNote::SplitYear2004) {
                    return Err(format!(
                        "{} {}: the births are of a partial year, the deaths are not",
                        row.code, row.year
                    ));
                }
                Ok(births)
            }
            // The microdata list only communes with births: a commune without a row had none.
            None => {
                row.notes.push(RowNote::NoMicrodataBirthsZero);
                Ok(0)
            }
        },
        BirthsSource::IneYearbook => sources
            .ine_births
            .get(&key)
            .copied()
            .ok_or_else(|| format!("no INE births for {} {}", row.code, row.year)),
    }
}

/// Deaths from the SINIM rate published two years later, on this year's births.
fn reconstruct(sources: &Sources<'_>, row: &mut PanelRow) {
    let sinim_year = row.year + SINIM_LAG_YEARS;
    row.deaths_source = DeathsSource::SinimRate;
    row.sinim_year = Some(sinim_year);
    let rate = sources
        .sinim
        .get(&(row.code.clone(), sinim_year))
        .and_then(|v| v.tmi);
    row.sinim_rate = rate;
    let (Some(rate), Some(births)) = (rate, row.births) else {
        row.notes.push(RowNote::NoSinimRate);
        return;
    };
    let (deaths, low, high) = match deaths_from_rate(rate, births) {
        Reconstruction::Exact(d) => (d, d, d),
        Reconstruction::Range { low, high, nearest } => {
            row.notes.push(RowNote::SeveralFit);
            (nearest, low, high)
        }
        Reconstruction::NoneFits { low, high, nearest } => {
            row.notes.push(RowNote::NoneFits);
            (nearest, low, high)
        }
        Reconstruction::NoBirths => {
            row.notes.push(RowNote::NoBirths);
            return;
        }
    };
    row.deaths = Some(deaths);
    row.deaths_low = Some(low);
    row.deaths_high = Some(high);
}

/// The covariates of the row's own year: the ficha comunal for 2006–2012, SINIM of the same
/// year for 2019–2021.
fn covariates(sources: &Sources<'_>, row: &mut PanelRow) {
    let key = (row.code.clone(), row.year);
    if let Some(ficha) = sources.ficha.get(&key) {
        row.poverty = ficha.poverty.clone();
        row.poverty_survey = row
            .poverty
            .as_ref()
            .map(|_| PovertySurvey::CasenMean2006To2012);
        row.health_spending_pc = match (ficha.health_spending, sources.population.get(&key)) {
            (Some(spending), Some(&population)) if population > 0 => {
                Some(spending / population as f64)
            }
            _ => None,
        };
        row.rural = ficha.rural.clone();
    }
    if (2019..=2021).contains(&row.year) {
        if let Some(sinim) = sources.sinim.get(&key) {
            row.poverty = sinim.pobreza.clone();
            row.poverty_survey = row
                .poverty
                .as_ref()
                .and_then(|_| PovertySurvey::of_sinim_year(row.year));
            let per_capita = |money: Option<f64>| match (money, sinim.poblacion) {
                (Some(money), Some(population)) if population > 0.0 => Some(money / population),
                _ => None,
            };
            row.health_income_pc = per_capita(sinim.ingreso_salud);
            row.municipal_contribution_pc = per_capita(sinim.aporte_municipal);
            row.primary_care_coverage = sinim.cobertura_aps.clone();
            row.rural = sinim.ruralidad.clone();
            row.distance_regional_capital = sinim.dist_capital.clone();
        }
    }
}
