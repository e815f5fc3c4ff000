//! Reconstructed years: years whose infant deaths are not a source's counts but whole numbers
//! worked back from a published rate. In the bundled panel these are 2017–2019 and 2021, whose
//! deaths reproduce SINIM's integer rate on INE's births (`imr_dataset::reconstruct`); a rate
//! rounded to a whole number per 1,000 fits several counts in a commune with many births, so
//! such a year's rates are close to, not equal to, the counted ones.
//!
//! Like a copied year ([`crate::repeats`]), a reconstructed year stays in every analysis and is
//! drawn as what it is wherever it is drawn or exported: a diamond on the charts over the years
//! ([`imr_inequality::YearMarks`]), a sentence under the map's legend ([`ReconstructedYear::map_note`]),
//! the row's source beside its deaths in the map's tooltip.
//!
//! # Rule
//! A panel says where each row's deaths come from in a text column named
//! [`DEATHS_SOURCE_COLUMNS`] (`fuente_defunciones`, the bundled codebook's, or `deaths_source`);
//! a row's deaths are reconstructed when its value is one of [`RECONSTRUCTED_CODES`]
//! (case-insensitive). A year is reconstructed when more than half of its rows with deaths are.
//! A panel without the column has no reconstructed year; a panel whose deaths were all derived
//! from a published rate (`Panel::deaths_derived`) says so for the whole panel instead.

use crate::panel::Panel;
use imr_stats::Lang;
use serde::Serialize;
use std::collections::BTreeMap;

/// The columns that can say where a row's deaths come from, in the order they are looked for.
pub const DEATHS_SOURCE_COLUMNS: [&str; 2] = ["fuente_defunciones", "deaths_source"];

/// The values of [`DEATHS_SOURCE_COLUMNS`] that mark deaths reconstructed from a published rate
/// (the bundled codebook's `sinim_tmi_reconstruidas`, and plain words in both languages).
pub const RECONSTRUCTED_CODES: [&str; 4] = [
    "sinim_tmi_reconstruidas",
    "reconstruidas",
    "reconstructed",
    "reconstructed_from_rate",
];

/// A year whose deaths were, in most of its rows, reconstructed from a published rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReconstructedYear {
    pub time: i64,
    /// Rows of the year whose deaths are reconstructed.
    pub reconstructed_rows: usize,
    /// Rows of the year with deaths.
    pub rows_with_deaths: usize,
}

impl ReconstructedYear {
    /// What the year is, beside it: "(defunciones reconstruidas)".
    pub fn mark(&self, lang: Lang) -> String {
        imr_inequality::YearMarks::reconstructed_mark(lang).to_string()
    }

    /// What a commune's deaths of the year are, after the number: "(reconstruidas de la tasa
    /// publicada)" (the map's tooltip).
    pub fn deaths_mark(&self, lang: Lang) -> &'static str {
        lang.pick(
            "(reconstruidas de la tasa publicada)",
            "(reconstructed from the published rate)",
        )
    }

    /// The caution a map of the year carries under its legend (page, SVG and PNG alike).
    pub fn map_note(&self, lang: Lang) -> String {
        let (t, n, of) = (
            self.time,
            lang.grouped(self.reconstructed_rows as f64, 0),
            lang.grouped(self.rows_with_deaths as f64, 0),
        );
        match lang {
            Lang::Es => format!(
                "Las defunciones de {t} no son conteos publicados: se reconstruyeron de la tasa entera que publicó la fuente y de los nacimientos del año, en {n} de {of} comunas. Cada tasa es cercana a la real, no igual."
            ),
            Lang::En => format!(
                "The deaths of {t} are not published counts: they were reconstructed from the whole-number rate the source published and the year's births, in {n} of {of} areas. Each rate is close to the real one, not equal to it."
            ),
        }
    }
}

/// Whether a value of the deaths' source column marks reconstructed deaths.
pub fn is_reconstructed_code(value: &str) -> bool {
    let value = value.trim();
    RECONSTRUCTED_CODES
        .iter()
        .any(|code| code.eq_ignore_ascii_case(value))
}

/// Each row's deaths' source as the panel gives it, `None` without the column.
pub fn deaths_sources(panel: &Panel) -> Option<Vec<Option<String>>> {
    DEATHS_SOURCE_COLUMNS
        .iter()
        .find(|name| panel.text_names.iter().any(|n| n == *name))
        .and_then(|name| panel.key_column(name))
}

/// Per row of `panel`: its deaths were reconstructed from a published rate (its deaths'
/// source is a [reconstructed code](is_reconstructed_code)); all `false` without the column.
/// What the rates CSV and the map's CSV mark in `deaths_reconstructed`, row by row.
pub fn reconstructed_rows(panel: &Panel) -> Vec<bool> {
    match deaths_sources(panel) {
        Some(sources) => (sources.iter())
            .map(|s| s.as_deref().is_some_and(is_reconstructed_code))
            .collect(),
        None => vec![false; panel.len()],
    }
}

/// The panel's reconstructed years, ascending ([the rule](self)).
pub fn reconstructed_years(panel: &Panel) -> Vec<ReconstructedYear> {
    let mut by_year: BTreeMap<i64, (usize, usize)> = BTreeMap::new();
    for (row, reconstructed) in panel.rows().zip(reconstructed_rows(panel)) {
        if row.deaths.is_none() {
            continue;
        }
        let entry = by_year.entry(row.time).or_default();
        entry.1 += 1;
        entry.0 += usize::from(reconstructed);
    }
    by_year
        .into_iter()
        .filter(|(_, (reconstructed, with_deaths))| 2 * reconstructed > *with_deaths)
        .map(
            |(time, (reconstructed_rows, rows_with_deaths))| ReconstructedYear {
                time,
                reconstructed_rows,
                rows_with_deaths,
            },
        )
        .collect()
}

/// The years of `years`.
pub fn times(years: &[ReconstructedYear]) -> Vec<i64> {
    years.iter().map(|y| y.time).collect()
}

/// The mark a table puts beside a reconstructed year ("2021 ◆") and what the note under it
/// says it is.
pub const TABLE_MARK: &str = "◆";

/// The note of a table whose rows include reconstructed years (`reconstructed`, their times)
/// and years without data between its first and last (`missing`): "◆ 2017–2019 y 2021: defunciones reconstruidas de la tasa
/// publicada, no conteos publicados. 2016 y 2020: sin datos publicados." `None` when there is
/// neither (the Data view's tables showed reconstructed rows as published counts and skipped
/// the missing years without a word; issue 42).
pub fn table_note(reconstructed: &[i64], missing: &[i64], lang: Lang) -> Option<String> {
    let mut parts = Vec::new();
    if !reconstructed.is_empty() {
        let list = lang.years(reconstructed);
        parts.push(match lang {
            Lang::Es => format!("{TABLE_MARK} {list}: defunciones reconstruidas de la tasa publicada, no conteos publicados."),
            Lang::En => format!("{TABLE_MARK} {list}: deaths reconstructed from the published rate, not published counts."),
        });
    }
    if !missing.is_empty() {
        let list = lang.years(missing);
        parts.push(match lang {
            Lang::Es => format!("{list}: sin datos en estos archivos."),
            Lang::En => format!("{list}: no data in these files."),
        });
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

#[cfg(test)]
mod table_note_tests {
    use super::*;

    #[test]
    fn the_table_note_names_the_reconstructed_and_the_missing_years() {
        assert_eq!(
            table_note(&[2017, 2018, 2019, 2021], &[2016, 2020], Lang::Es).unwrap(),
            "◆ 2017–2019 y 2021: defunciones reconstruidas de la tasa publicada, no conteos publicados. 2016 y 2020: sin datos en estos archivos."
        );
        assert_eq!(table_note(&[], &[], Lang::En), None);
        assert_eq!(
            table_note(&[], &[2016], Lang::En).unwrap(),
            "2016: no data in these files."
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{bundled_panel, panel_of as panel};

    #[test]
    fn a_year_is_reconstructed_when_most_of_its_rows_with_deaths_are() {
        let csv = "comuna,anio,nacimientos,defunciones,fuente_defunciones\n\
                   a,2015,100,1,ine_publicadas\nb,2015,200,2,ine_publicadas\n\
                   a,2016,100,,sin_fuente\nb,2016,200,,sin_fuente\n\
                   a,2017,100,1,sinim_tmi_reconstruidas\nb,2017,200,3,SINIM_TMI_RECONSTRUIDAS\n\
                   a,2018,100,1,sinim_tmi_reconstruidas\nb,2018,200,2,ine_publicadas\n";
        let years = reconstructed_years(&panel(csv));
        assert_eq!(
            years,
            vec![ReconstructedYear {
                time: 2017,
                reconstructed_rows: 2,
                rows_with_deaths: 2
            }]
        );
        assert_eq!(
            years[0].map_note(Lang::Es),
            "Las defunciones de 2017 no son conteos publicados: se reconstruyeron de la tasa entera que publicó la fuente y de los nacimientos del año, en 2 de 2 comunas. Cada tasa es cercana a la real, no igual."
        );
    }

    /// The bundled codebook's years (imr-dataset's `RECONSTRUCTED_YEARS`): 2017–2019 and 2021,
    /// each reconstructed in the communes with a SINIM rate.
    #[test]
    fn the_bundled_panels_reconstructed_years_are_its_codebooks() {
        let years = reconstructed_years(&bundled_panel());
        assert_eq!(times(&years), vec![2017, 2018, 2019, 2021]);
        for y in &years {
            assert_eq!(y.reconstructed_rows, y.rows_with_deaths, "{y:?}");
            assert!(y.rows_with_deaths > 300, "{y:?}");
        }
    }

    #[test]
    fn without_the_column_no_year_is_reconstructed() {
        let csv = "comuna,anio,nacimientos,defunciones,fuente\n\
                   a,2017,100,1,sinim_tmi_reconstruidas\n";
        assert!(reconstructed_years(&panel(csv)).is_empty());
    }
}
