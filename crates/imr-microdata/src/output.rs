//! The aggregate as the CSV the ingest reads: `codigo_comuna,anio,nacimientos,defunciones`,
//! plus the breakdown columns.
//!
//! Every commune of the 2018 CUT list gets a row for every year the file(s) cover (a year with
//! at least one row with a valid year), with 0 where the file has no death (or birth): a zero
//! is data. A year covered by one file and not the other leaves the other column empty, which
//! the ingest reports as a missing value rather than reading it as zero.

use crate::births::BirthsAggregate;
use crate::cause::Chapter;
use crate::deaths::DeathsAggregate;
use imr_data::cut::CutCodes;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

/// The header of [`counts_csv`] for these inputs.
pub fn counts_header(deaths: Option<&DeathsAggregate>, births: bool) -> Vec<String> {
    let mut header = vec!["codigo_comuna".to_owned(), "anio".to_owned()];
    if births {
        header.push("nacimientos".into());
    }
    if let Some(deaths) = deaths {
        header.push("defunciones".into());
        if deaths.options.neonatal {
            header.extend(
                [
                    "defunciones_neonatales",
                    "defunciones_posneonatales",
                    "defunciones_edad_sin_precisar",
                ]
                .map(String::from),
            );
        }
        if deaths.options.cause {
            header.extend(
                (0..Chapter::SLOTS as u8)
                    .map(|c| format!("defunciones_{}", Chapter(c).column_suffix())),
            );
        }
    }
    header
}

/// Writes the counts table (comma-separated, UTF-8, `\n` line ends).
pub fn counts_csv(deaths: Option<&DeathsAggregate>, births: Option<&BirthsAggregate>) -> String {
    let death_years: BTreeSet<u16> = deaths
        .map(|d| d.rows_by_year.keys().copied().collect())
        .unwrap_or_default();
    let birth_years: BTreeSet<u16> = births
        .map(|b| b.rows_by_year.keys().copied().collect())
        .unwrap_or_default();
    let years: BTreeSet<u16> = death_years.union(&birth_years).copied().collect();
    let cells: HashMap<(&str, u16), &crate::DeathsCell> = deaths
        .map(|d| {
            d.cells
                .iter()
                .map(|c| ((c.code.as_str(), c.year), c))
                .collect()
        })
        .unwrap_or_default();
    let mut out = counts_header(deaths, births.is_some()).join(",");
    out.push('\n');
    for code in CutCodes::embedded().codes() {
        for &year in &years {
            write!(out, "{code},{year}").expect("write to String");
            if let Some(births) = births {
                out.push(',');
                if birth_years.contains(&year) {
                    let n = births.counts.get(&(code.to_owned(), year)).unwrap_or(&0);
                    write!(out, "{n}").expect("write to String");
                }
            }
            if let Some(deaths) = deaths {
                let covered = death_years.contains(&year);
                let cell = cells.get(&(code, year));
                let mut values = vec![cell.map_or(0, |c| c.deaths)];
                if deaths.options.neonatal {
                    let split = cell.and_then(|c| c.neonatal).unwrap_or_default();
                    values.extend([split.neonatal, split.post_neonatal, split.not_known]);
                }
                if deaths.options.cause {
                    match cell.and_then(|c| c.causes.as_ref()) {
                        Some(causes) => values.extend(causes),
                        None => values.extend([0; Chapter::SLOTS]),
                    }
                }
                for value in values {
                    out.push(',');
                    if covered {
                        write!(out, "{value}").expect("write to String");
                    }
                }
            }
            out.push('\n');
        }
    }
    out
}
