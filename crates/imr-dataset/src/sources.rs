//! Readers for the raw extracts in `data/raw/`, one function per source. Each returns what the
//! panel needs, keyed by the 2018 CUT commune code, and records every row it does not use.

use crate::table::Table;
use crate::topojson::Topology;
use crate::{DatasetError, Exclusion};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::Path;

/// Paths of the raw extracts, relative to the raw directory (see data/raw/*/PROVENANCE.md).
pub const CUT_FILE: &str = "cut/subdere_CUT_2018_v04.csv";
pub const NUBLE_FILE: &str = "cut/nuble_2018_crosswalk_chilemapas.csv";
pub const SINIM_FILE: &str = "sinim/sinim_2019_2023_extract.csv";
pub const DEIS_BIRTHS_FILE: &str = "deis/nacidos_vivos_region_residencia_2019_2023.csv";
pub const MINSAL_FILE: &str = "minsal/establecimientos_sapu_sar_hospital.csv";
pub const CENSUS_FILE: &str = "censo2017/censo2017_educacion_formal.csv";
pub const BOUNDARIES_FILE: &str = "boundaries/chile_comunas_2018.topojson";

/// One commune of the official CUT 2018 list.
#[derive(Clone)]
pub struct CutCommune {
    pub code: String,
    pub name: String,
    pub region_code: String,
    pub region_name: String,
}

/// The SUBDERE CUT 2018 list (346 communes, Antártica included), by code.
pub fn read_cut(raw: &Path) -> Result<BTreeMap<String, CutCommune>, DatasetError> {
    let table = Table::read(&raw.join(CUT_FILE))?;
    let code_col = table.column("codigo_comuna_2018")?;
    let name_col = table.column("nombre_comuna")?;
    let region_col = table.column("codigo_region")?;
    let region_name_col = table.column("nombre_region")?;
    let mut communes = BTreeMap::new();
    for record in &table.records {
        let code = table.commune_code(record, &code_col)?;
        let region_code = table.text(record, &region_col).to_owned();
        if !code.starts_with(&region_code) || region_code.len() != 2 {
            return Err(table.value_error(
                record,
                &region_col,
                format!(
                    "region code {region_code:?} is not the first two digits of commune {code}"
                ),
            ));
        }
        let commune = CutCommune {
            code: code.clone(),
            name: table.text(record, &name_col).to_owned(),
            region_code,
            region_name: table.text(record, &region_name_col).to_owned(),
        };
        if communes.insert(code.clone(), commune).is_some() {
            return Err(table.value_error(record, &code_col, format!("duplicate code {code}")));
        }
    }
    Ok(communes)
}

/// The Ñuble 2018 crosswalk: (pre-2018 code, 2018 code), checked against the CUT list.
pub fn read_nuble(
    raw: &Path,
    cut: &BTreeMap<String, CutCommune>,
) -> Result<Vec<(String, String)>, DatasetError> {
    let table = Table::read(&raw.join(NUBLE_FILE))?;
    let old_col = table.column("codigo_comuna_pre2018")?;
    let new_col = table.column("codigo_comuna_2018")?;
    let name_col = table.column("nombre_comuna")?;
    let mut pairs = Vec::new();
    for record in &table.records {
        let old = table.commune_code(record, &old_col)?;
        let new = table.commune_code(record, &new_col)?;
        if !old.starts_with("084") || !new.starts_with("16") {
            return Err(table.value_error(
                record,
                &old_col,
                format!("expected 084xx → 16xxx, found {old} → {new}"),
            ));
        }
        let Some(commune) = cut.get(&new) else {
            return Err(table.value_error(
                record,
                &new_col,
                format!("{new} is not in the CUT 2018 list"),
            ));
        };
        // The crosswalk spells names in upper-case ASCII; they must agree with the official one.
        let ascii = table.text(record, &name_col);
        if fold(ascii) != fold(&commune.name) {
            return Err(table.value_error(
                record,
                &name_col,
                format!(
                    "{ascii:?} does not match the official name {:?} of {new}",
                    commune.name
                ),
            ));
        }
        pairs.push((old, new));
    }
    pairs.sort();
    Ok(pairs)
}

/// Upper-case, accents removed, for comparing name spellings.
fn fold(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'á' | 'Á' => 'A',
            'é' | 'É' => 'E',
            'í' | 'Í' => 'I',
            'ó' | 'Ó' => 'O',
            'ú' | 'Ú' | 'ü' | 'Ü' => 'U',
            'ñ' | 'Ñ' => 'N',
            other => other.to_ascii_uppercase(),
        })
        .collect()
}

/// The years of the SINIM 2019–2023 extract.
pub const SINIM_YEARS: RangeInclusive<u16> = 2019..=2023;

/// The SINIM values of one commune and year, as published (text kept verbatim).
pub struct SinimValues {
    pub line: u64,
    /// v839 Tasa de Mortalidad Infantil, integer per 1,000.
    pub tmi: Option<u64>,
    /// v744 pobreza CASEN, %.
    pub pobreza: Option<String>,
    /// v1124 ingresos salud, M$.
    pub ingreso_salud: Option<f64>,
    /// v826 población INE (SINIM).
    pub poblacion: Option<f64>,
    /// v953 aporte municipal a salud, M$.
    pub aporte_municipal: Option<f64>,
    /// v788 cobertura APS, %.
    pub cobertura_aps: Option<String>,
    /// v835 población rural, %.
    pub ruralidad: Option<String>,
    /// v824 distancia a la capital regional, km.
    pub dist_capital: Option<String>,
}

/// SINIM values by (code, year) for the panel communes; other rows become exclusions.
pub fn read_sinim(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<BTreeMap<(String, u16), SinimValues>, DatasetError> {
    let table = Table::read(&raw.join(SINIM_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let cols: Vec<_> = [
        "v839", "v744", "v1124", "v826", "v953", "v788", "v835", "v824",
    ]
    .iter()
    .map(|name| table.column(name))
    .collect::<Result<_, _>>()?;
    let mut values = BTreeMap::new();
    let rows = panel_rows(
        &table,
        SINIM_FILE,
        &code_col,
        Some((&year_col, SINIM_YEARS)),
        panel,
        "not in the CUT 2018 list with a boundary",
        exclusions,
    )?;
    for (record, code, year) in rows {
        // Every value must be a number; percentages and distances are then kept as published text.
        let mut numbers = Vec::with_capacity(cols.len());
        for col in &cols {
            numbers.push(table.optional_number(record, col)?);
        }
        let text = |i: usize| numbers[i].map(|_| table.text(record, &cols[i]).to_owned());
        let tmi = match numbers[0] {
            None => None,
            Some(rate) if rate >= 0.0 && rate.fract() == 0.0 => Some(rate as u64),
            Some(_) => {
                return Err(table.value_error(
                    record,
                    &cols[0],
                    "SINIM publishes the infant mortality rate as a non-negative integer",
                ))
            }
        };
        let entry = SinimValues {
            line: record.line,
            tmi,
            pobreza: text(1),
            ingreso_salud: numbers[2],
            poblacion: numbers[3],
            aporte_municipal: numbers[4],
            cobertura_aps: text(5),
            ruralidad: text(6),
            dist_capital: text(7),
        };
        if let Some(previous) = values.insert((code.clone(), year), entry) {
            return Err(table.value_error(
                record,
                &code_col,
                format!("{code} {year} already on line {}", previous.line),
            ));
        }
    }
    Ok(values)
}

/// DEIS registered live births by (region code, year) of the mother's residence, 2019–2023 (for
/// the check of INE's births by commune): every region of the panel must have a row every year.
pub fn read_regional_births(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
) -> Result<BTreeMap<(String, u16), u64>, DatasetError> {
    let table = Table::read(&raw.join(DEIS_BIRTHS_FILE))?;
    let year_col = table.column("anio")?;
    let region_col = table.column("codigo_region")?;
    let births_col = table.column("nacidos_vivos")?;
    let regions: std::collections::BTreeSet<&str> =
        panel.values().map(|c| c.region_code.as_str()).collect();
    let mut births = BTreeMap::new();
    for record in &table.records {
        let year = year_of(&table, record, &year_col)?;
        let region = table.text(record, &region_col);
        if !regions.contains(region) {
            return Err(table.value_error(
                record,
                &region_col,
                format!("{region:?} is not the region code of any commune of the panel"),
            ));
        }
        let count = table.count(record, &births_col)?;
        if births.insert((region.to_owned(), year), count).is_some() {
            return Err(table.value_error(
                record,
                &region_col,
                format!("duplicate region {region}, year {year}"),
            ));
        }
    }
    for region in &regions {
        for year in SINIM_YEARS {
            if !births.contains_key(&(region.to_string(), year)) {
                return Err(DatasetError::Inconsistent(format!(
                    "{DEIS_BIRTHS_FILE}: no registered births for region {region}, year {year}"
                )));
            }
        }
    }
    Ok(births)
}

/// A hospital of second or third level, open today.
pub struct Hospital {
    pub lon: f64,
    pub lat: f64,
}

/// From the MINSAL directory: the communes with an open SAPU or SAR, and the open hospitals of
/// second or third level with their coordinates.
pub fn read_minsal(
    raw: &Path,
    cut: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<(std::collections::BTreeSet<String>, Vec<Hospital>), DatasetError> {
    let table = Table::read(&raw.join(MINSAL_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let type_col = table.column("tipo_establecimiento")?;
    let level_col = table.column("nivel_atencion")?;
    let emergency_col = table.column("tipo_urgencia")?;
    let lat_col = table.column("latitud")?;
    let lon_col = table.column("longitud")?;
    let state_col = table.column("estado_funcionamiento")?;
    let mut sapu_communes = std::collections::BTreeSet::new();
    let mut hospitals = Vec::new();
    for record in &table.records {
        let code = table.commune_code(record, &code_col)?;
        if !cut.contains_key(&code) {
            return Err(table.value_error(
                record,
                &code_col,
                format!("{code} is not in the CUT 2018 list"),
            ));
        }
        let kind = table.text(record, &type_col);
        let state = table.text(record, &state_col);
        // "Vigente en Operación Habitual" and "Vigente en operación habitual" both occur.
        if !state.to_lowercase().starts_with("vigente") {
            exclusions.push(Exclusion::new(
                MINSAL_FILE,
                record.line,
                format!("not open today ({state:?})"),
            ));
            continue;
        }
        match kind {
            "Servicio de Atención Primaria de Urgencia (SAPU)"
            | "Servicio de Atención Primaria de Urgencia de Alta Resolutividad (SAR)" => {
                if table.text(record, &emergency_col) == "SAPU Dental" {
                    exclusions.push(Exclusion::new(
                        MINSAL_FILE,
                        record.line,
                        "dental emergency service (SAPU Dental), not a general SAPU",
                    ));
                } else {
                    sapu_communes.insert(code);
                }
            }
            "Hospital" => {
                let level = table.text(record, &level_col);
                if level != "Segundo Nivel" && level != "Tercer Nivel" {
                    exclusions.push(Exclusion::new(
                        MINSAL_FILE,
                        record.line,
                        format!("hospital of level {level:?}, not second or third"),
                    ));
                    continue;
                }
                let lat = table.optional_number(record, &lat_col)?;
                let lon = table.optional_number(record, &lon_col)?;
                match (lat, lon) {
                    (Some(lat), Some(lon))
                        if (-90.0..=0.0).contains(&lat) && (-180.0..0.0).contains(&lon) =>
                    {
                        hospitals.push(Hospital { lon, lat })
                    }
                    _ => exclusions.push(Exclusion::new(
                        MINSAL_FILE,
                        record.line,
                        "hospital without usable coordinates",
                    )),
                }
            }
            other => {
                return Err(table.value_error(
                    record,
                    &type_col,
                    format!("unexpected establishment type {other:?} in the extract"),
                ))
            }
        }
    }
    Ok((sapu_communes, hospitals))
}

/// Census 2017 answers to "¿Asiste actualmente a la educación formal?" for one commune.
pub struct CensusSchooling {
    pub attends: u64,
    pub attended_before: u64,
    pub never_attended: u64,
}

/// Census 2017 formal-education counts by code, for the panel communes.
pub fn read_census(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<BTreeMap<String, CensusSchooling>, DatasetError> {
    let table = Table::read(&raw.join(CENSUS_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let persons_col = table.column("PERSONAS")?;
    let yes_col = table.column("EducacionFormal_Si")?;
    let before_col = table.column("EducacionFormal_Noasisteactualmente")?;
    let never_col = table.column("EducacionFormal_Nuncaasistio")?;
    let missing_col = table.column("EducacionFormal_Missing")?;
    let mut values = BTreeMap::new();
    for (record, code, _) in
        panel_rows(&table, CENSUS_FILE, &code_col, None, panel, "", exclusions)?
    {
        let schooling = CensusSchooling {
            attends: table.count(record, &yes_col)?,
            attended_before: table.count(record, &before_col)?,
            never_attended: table.count(record, &never_col)?,
        };
        // An empty "Missing" cell means no missing answers: the three answers add up to PERSONAS.
        let missing = table.optional_count(record, &missing_col)?.unwrap_or(0);
        let persons = table.count(record, &persons_col)?;
        if schooling.attends + schooling.attended_before + schooling.never_attended + missing
            != persons
        {
            return Err(table.value_error(
                record,
                &persons_col,
                "the formal-education answers do not add up to PERSONAS",
            ));
        }
        if values.insert(code.clone(), schooling).is_some() {
            return Err(table.value_error(record, &code_col, format!("duplicate {code}")));
        }
    }
    Ok(values)
}

/// The raw boundaries: the centroid (lon, lat) of every commune that has a geometry.
pub fn read_centroids(raw: &Path) -> Result<BTreeMap<String, [f64; 2]>, DatasetError> {
    let path = raw.join(BOUNDARIES_FILE);
    let topology_error = |message: String| DatasetError::Topology {
        path: path.clone(),
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|source| DatasetError::Io {
        path: path.clone(),
        source,
    })?;
    let topology = Topology::parse(&text).map_err(topology_error)?;
    let geometries = topology
        .objects
        .get("comunas")
        .ok_or_else(|| topology_error("no object named \"comunas\"".into()))?;
    let mut centroids = BTreeMap::new();
    for (position, geometry) in geometries.iter().enumerate() {
        let code = geometry
            .properties
            .get("codigo_comuna")
            .and_then(|v| v.as_str())
            .ok_or_else(|| topology_error(format!("geometry {position} has no codigo_comuna")))?;
        let centroid = topology
            .centroid(geometry)
            .ok_or_else(|| topology_error(format!("commune {code} has no area")))?;
        if centroids.insert(code.to_owned(), centroid).is_some() {
            return Err(topology_error(format!("commune {code} appears twice")));
        }
    }
    Ok(centroids)
}

/// The records of `table` that belong to the panel, with their commune code and year (0 without
/// a year column); the others are pushed to `exclusions` with their line and reason: a code not
/// in the panel (`why_not` adds the cause, in parentheses), a year outside the years given.
pub(crate) fn panel_rows<'t>(
    table: &'t Table,
    file: &'static str,
    code_col: &crate::table::Column,
    year_col: Option<(&crate::table::Column, RangeInclusive<u16>)>,
    panel: &BTreeMap<String, CutCommune>,
    why_not: &str,
    exclusions: &mut Vec<Exclusion>,
) -> Result<Vec<(&'t crate::table::Record, String, u16)>, DatasetError> {
    let mut rows = Vec::with_capacity(table.records.len());
    for record in &table.records {
        let code = table.commune_code(record, code_col)?;
        let year = match &year_col {
            Some((column, _)) => year_of(table, record, column)?,
            None => 0,
        };
        let reason = if !panel.contains_key(&code) {
            Some(match why_not {
                "" => format!("{code} is not a commune of the panel"),
                why => format!("{code} is not a commune of the panel ({why})"),
            })
        } else {
            match &year_col {
                Some((_, years)) if !years.contains(&year) => Some(format!(
                    "year {year} outside the years this source gives the panel ({}–{})",
                    years.start(),
                    years.end()
                )),
                _ => None,
            }
        };
        match reason {
            Some(reason) => exclusions.push(Exclusion::new(file, record.line, reason)),
            None => rows.push((record, code, year)),
        }
    }
    Ok(rows)
}

pub(crate) fn year_of(
    table: &Table,
    record: &crate::table::Record,
    column: &crate::table::Column,
) -> Result<u16, DatasetError> {
    let text = table.text(record, column);
    text.parse::<u16>()
        .map_err(|_| table.value_error(record, column, format!("expected a year, found {text:?}")))
}
