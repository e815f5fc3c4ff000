//! SINIM's "ficha comunal" 2006–2012 (municipal health spending, poverty, rurality) and INE's
//! population of those years, the denominator of spending per inhabitant.

use crate::sources::{panel_rows, CutCommune};
use crate::table::Table;
use crate::{DatasetError, Exclusion};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::Path;

pub const FICHA_FILE: &str = "sinim/sinim_2006_2012_extract.csv";
pub const POPULATION_FILE: &str = "ine/poblacion_total_2006_2012.csv";

/// The years of the ficha comunal.
pub const FICHA_YEARS: RangeInclusive<u16> = 2006..=2012;

/// One commune-year of the ficha comunal, values as published.
pub struct FichaValues {
    /// `saludtotal`: municipal health spending, thousands of pesos (M$), nominal.
    pub health_spending: Option<f64>,
    /// `pobreza`: CASEN poverty, %, the published value written plainly.
    pub poverty: Option<String>,
    /// `rur`: rural population, %, the published value written plainly.
    pub rural: Option<String>,
}

/// The ficha comunal by (code, year) for the panel communes.
pub fn read_ficha(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<BTreeMap<(String, u16), FichaValues>, DatasetError> {
    let table = Table::read(&raw.join(FICHA_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let spending_col = table.column("saludtotal")?;
    let poverty_col = table.column("pobreza")?;
    let rural_col = table.column("rur")?;
    let mut values = BTreeMap::new();
    let rows = panel_rows(
        &table,
        FICHA_FILE,
        &code_col,
        Some((&year_col, FICHA_YEARS)),
        panel,
        "",
        exclusions,
    )?;
    for (record, code, year) in rows {
        // As published, written plainly: the source's ".21" is 0.21.
        let text = |col| {
            table
                .optional_number(record, col)
                .map(|n| n.map(|v| format!("{v}")))
        };
        let entry = FichaValues {
            health_spending: table.optional_number(record, &spending_col)?,
            poverty: text(&poverty_col)?,
            rural: text(&rural_col)?,
        };
        if values.insert((code.clone(), year), entry).is_some() {
            return Err(table.value_error(record, &code_col, format!("duplicate {code} {year}")));
        }
    }
    Ok(values)
}

/// INE's total population by (code, year), [`FICHA_YEARS`], for the panel communes.
pub fn read_population(
    raw: &Path,
    panel: &BTreeMap<String, CutCommune>,
    exclusions: &mut Vec<Exclusion>,
) -> Result<BTreeMap<(String, u16), u64>, DatasetError> {
    let table = Table::read(&raw.join(POPULATION_FILE))?;
    let code_col = table.column("codigo_comuna")?;
    let year_col = table.column("anio")?;
    let population_col = table.column("poblacion_total")?;
    let mut values = BTreeMap::new();
    let rows = panel_rows(
        &table,
        POPULATION_FILE,
        &code_col,
        Some((&year_col, FICHA_YEARS)),
        panel,
        "Antártica has no boundary",
        exclusions,
    )?;
    for (record, code, year) in rows {
        let population = table.count(record, &population_col)?;
        if values.insert((code.clone(), year), population).is_some() {
            return Err(table.value_error(record, &code_col, format!("duplicate {code} {year}")));
        }
    }
    Ok(values)
}
