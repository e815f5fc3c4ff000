//! Readers for the vital statistics: INE's published infant deaths by commune (2000–2015), INE's
//! registered births by commune (2010–2023), the health ministry's births microdata aggregated
//! by commune (2000–2011) and INE's national totals of infant deaths. Each keeps, per commune
//! and year, the count and the source's own note, and reports every row it does not use.

use crate::sources::{panel_rows, CutCommune};
use crate::table::Table;
use crate::{DatasetError, Exclusion};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::Path;

pub const INE_DEATHS_FILE: &str = "ine/defunciones_comuna_residencia_2000_2015.csv";
pub const INE_DEATH_TOTALS_FILE: &str = "ine/defunciones_totales_nacionales_2000_2015.csv";
pub const INE_BIRTHS_FILE: &str = "ine/nacidos_vivos_comuna_residencia_2010_2023.csv";
pub const DEIS_COMMUNE_BIRTHS_FILE: &str = "deis/nacimientos_madre_15_49_comuna_2000_2011.csv";

/// The years of INE's published infant deaths used by the panel.
pub const INE_DEATH_YEARS: RangeInclusive<u16> = 2001..=2015;
/// The years whose births come from the health ministry's microdata (INE's by commune start in
/// 2010; the microdata's 2010 and 2011 lack communes).
pub const DEIS_BIRTH_YEARS: RangeInclusive<u16> = 2001..=2009;
/// The years whose births come from INE's yearbooks.
pub const INE_BIRTH_YEARS: RangeInclusive<u16> = 2010..=2021;

/// The microdata births by (code, year): the count, and whether the source marks the year as
/// the partial first year of a commune created in 2004.
pub type MicrodataBirths = BTreeMap<(String, u16), (u64, bool)>;

/// What INE's table says of a commune in a year besides the count (`nota` of the extract).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeathsNote {
    /// A row of INE's sheet.
    Ok,
    /// No row in INE's sheet — no death at any age that year —, read as 0.
    AbsentReadAsZero,
    /// One of the four communes created in 2004, before it existed: counted in its parent.
    NotYetCreated,
    /// The parent of a commune created in 2004, before that: its count includes the new one.
    IncludesCommuneCreated2004,
    /// 2004, the year of the split: each of the pair counts the part of the year it existed.
    SplitYear2004,
}

/// INE's infant deaths of one commune and year.
#[derive(Debug, Clone, Copy)]
pub struct InfantDeaths {
    /// Deaths under one year; `None` when the commune did not exist.
    pub count: Option<u64>,
    pub note: DeathsNote,
}

/// INE's infant deaths by (code, year) for the panel communes, [`INE_DEATH_YEARS`].
pub fn read_ine_deaths(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<BTreeMap<(String, u16), InfantDeaths>, DatasetError> {
    let table = Table::read(&raw.join(INE_DEATHS_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let deaths_col = table.column("defunciones_menores_1_anio")?;
    let note_col = table.column("nota")?;
    let mut values = BTreeMap::new();
    let rows = panel_rows(
        &table,
        INE_DEATHS_FILE,
        &code_col,
        Some((&year_col, INE_DEATH_YEARS)),
        panel,
        "Antártica has no boundary",
        exclusions,
    )?;
    for (record, code, year) in rows {
        let note = match table.text(record, &note_col) {
            "ok" => DeathsNote::Ok,
            "absent_in_source_table_set_0" => DeathsNote::AbsentReadAsZero,
            "not_yet_created_counted_in_parent" => DeathsNote::NotYetCreated,
            "includes_commune_created_2004" => DeathsNote::IncludesCommuneCreated2004,
            "split_year_2004_partial" => DeathsNote::SplitYear2004,
            other => {
                return Err(table.value_error(record, &note_col, format!("unknown note {other:?}")))
            }
        };
        let count = table.optional_count(record, &deaths_col)?;
        if count.is_none() != (note == DeathsNote::NotYetCreated) {
            return Err(table.value_error(
                record,
                &deaths_col,
                "a count is empty exactly when the commune did not exist yet",
            ));
        }
        if values
            .insert((code.clone(), year), InfantDeaths { count, note })
            .is_some()
        {
            return Err(table.value_error(record, &code_col, format!("duplicate {code} {year}")));
        }
    }
    Ok(values)
}

/// INE's national infant deaths by year ("Total País" of each sheet), for the check.
pub fn read_national_deaths(raw: &Path) -> Result<BTreeMap<u16, u64>, DatasetError> {
    let table = Table::read(&raw.join(INE_DEATH_TOTALS_FILE))?;
    let year_col = table.column("year")?;
    let total_col = table.column("sheet_total_infant")?;
    let mut totals = BTreeMap::new();
    for record in &table.records {
        let year = crate::sources::year_of(&table, record, &year_col)?;
        totals.insert(year, table.count(record, &total_col)?);
    }
    Ok(totals)
}

/// INE's registered births by commune of the mother's residence, by (code, year), for the
/// panel communes and [`INE_BIRTH_YEARS`].
pub fn read_ine_births(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<BTreeMap<(String, u16), u64>, DatasetError> {
    read_births(
        raw,
        INE_BIRTHS_FILE,
        "nacidos_vivos",
        None,
        INE_BIRTH_YEARS,
        panel,
        exclusions,
    )
    .map(|births| births.into_iter().map(|(k, (b, _))| (k, b)).collect())
}

/// The health ministry's microdata births (mothers aged 15–49) by (code, year), with whether the
/// source marks the year as the partial first year of a commune created in 2004.
pub fn read_deis_births(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<MicrodataBirths, DatasetError> {
    read_births(
        raw,
        DEIS_COMMUNE_BIRTHS_FILE,
        "nacimientos_madre_15_49",
        Some("nota"),
        DEIS_BIRTH_YEARS,
        panel,
        exclusions,
    )
}

fn read_births(
    raw: &Path,
    file: &'static str,
    count_column: &str,
    note_column: Option<&str>,
    years: RangeInclusive<u16>,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<MicrodataBirths, DatasetError> {
    let table = Table::read(&raw.join(file))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let births_col = table.column(count_column)?;
    let note_col = note_column.map(|name| table.column(name)).transpose()?;
    let mut values = BTreeMap::new();
    let rows = panel_rows(
        &table,
        file,
        &code_col,
        Some((&year_col, years)),
        panel,
        "Antártica has no boundary",
        exclusions,
    )?;
    for (record, code, year) in rows {
        let partial = match &note_col {
            None => false,
            Some(col) => match table.text(record, col) {
                "ok" => false,
                "commune_created_2004_partial_year" => true,
                other => {
                    return Err(table.value_error(
                        record,
                        col,
                        format!("unexpected note {other:?} in a year the panel uses"),
                    ))
                }
            },
        };
        let births = table.count(record, &births_col)?;
        if values
            .insert((code.clone(), year), (births, partial))
            .is_some()
        {
            return Err(table.value_error(record, &code_col, format!("duplicate {code} {year}")));
        }
    }
    Ok(values)
}

/// SINIM's integer rates as SINIM labels them (`tmi` of [`crate::SINIM_FILE`], 2019–2023) beside INE's
/// registered births of the same labelled year ([`INE_BIRTHS_FILE`]): the file a user who
/// downloads both and joins them by year gets, whose rates are two years late. It is the input
/// of the tests of the publication-lag test and of deaths derived from rates. Columns
/// `codigo_comuna,anio,tmi,nacidos_vivos`; rows without a rate or without births are left out.
pub fn sinim_rates_as_labelled(raw: &Path) -> std::io::Result<String> {
    let read = |file: &str| std::fs::read_to_string(raw.join(file));
    let births: BTreeMap<(String, String), String> = read(INE_BIRTHS_FILE)?
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            ((f[0].to_owned(), f[1].to_owned()), f[2].to_owned())
        })
        .collect();
    let mut csv = String::from("codigo_comuna,anio,tmi,nacidos_vivos\n");
    for line in read(crate::SINIM_FILE)?.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if let (Some(b), false) = (
            births.get(&(f[0].to_owned(), f[2].to_owned())),
            f[3].is_empty(),
        ) {
            csv.push_str(&format!("{},{},{},{b}\n", f[0], f[2], f[3]));
        }
    }
    Ok(csv)
}
