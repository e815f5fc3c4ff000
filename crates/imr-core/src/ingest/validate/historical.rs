//! Commune codes of the system of their year (feature `historical-codes`): a main table's rows
//! of a year before 2010 whose codes read better in DEIS's system of that year
//! ([`imr_data::historical::System::of_year`]) than as 2018 CUT codes are read in that system
//! and recoded to 2018's, each recoding reported ([`crate::report::HistoricalRecoding`]); a code
//! of a commune not yet created that year is excluded naming it
//! ([`ExclusionReason::NotYetCreated`]), never matched to another commune.
//!
//! The choice is made per table and year, on the distinct codes of its rows: the year's system
//! is used when it knows strictly more of them than the 2018 list does. A table in 2018 codes
//! keeps them (its Arica is 15101, unknown to the 2000 system; its Ñuble codes 16xxx are unknown
//! to every older one); INE's yearly sheets (Arica 1201 in 2001–2006, three-digit codes in 2000)
//! are read in their year's system; a table whose codes mean the same in both (no commune
//! renumbered among them) keeps 2018's reading, which then is the same.

use super::super::codes::CutCodes;
use super::super::columns::ColumnRoles;
use super::super::table::RawTable;
use super::super::ExclusionReason;
use super::keys::{record_key, summary_or_note, Known};
use crate::report::{CodeSystemRead, HistoricalRecoding, NotYetCreated};
use imr_data::historical::{HistoricalCodes, Lookup, System};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The years of a main table whose codes are read in their year's system.
#[derive(Debug, Default)]
pub(super) struct TableSystems {
    by_year: HashMap<i64, System>,
    /// Rows read with each recoding, by (year, code as written).
    recodings: BTreeMap<(i64, String), HistoricalRecoding>,
}

impl TableSystems {
    /// The choice for `table` (its rows' years: their time column, else `given`), on the
    /// distinct codes of each year before 2010.
    pub fn choose(table: &RawTable, roles: &ColumnRoles, given: Option<i64>) -> TableSystems {
        let (cut, codes) = (CutCodes::embedded(), HistoricalCodes::embedded());
        let mut by_year: HashMap<i64, HashSet<&str>> = HashMap::new();
        for rec in table.records.iter() {
            if summary_or_note(&rec).is_some() {
                continue;
            }
            let Ok((raw, time)) = record_key(table, &rec, roles, Known::default()) else {
                continue;
            };
            let Some(year) = time.or(given) else { continue };
            if System::of_year(year) != System::Since2010 {
                by_year.entry(year).or_default().insert(raw.trim());
            }
        }
        let mut chosen = HashMap::new();
        for (year, raws) in by_year {
            let system = System::of_year(year);
            let in_system = raws
                .iter()
                .filter(|r| r.parse::<u32>().is_ok_and(|c| codes.knows(system, c)))
                .count();
            let in_2018 = raws
                .iter()
                .filter(|r| cut.contains(&cut.normalise(r).0))
                .count();
            if in_system > in_2018 {
                chosen.insert(year, system);
            }
        }
        TableSystems {
            by_year: chosen,
            recodings: BTreeMap::new(),
        }
    }

    /// The 2018 code of `raw` in the rows of `year`: `Ok(None)` when the year keeps the 2018
    /// reading; the commune's 2018 code when read in the year's system (a recoding noted when
    /// the code changed); or why the code names no commune of that year.
    pub fn read(
        &mut self,
        file: &str,
        raw: &str,
        year: i64,
    ) -> Result<Option<&'static str>, ExclusionReason> {
        let Some(&system) = self.by_year.get(&year) else {
            return Ok(None);
        };
        let raw = raw.trim();
        let unknown = || ExclusionReason::UnknownCodeOfSystem {
            code: raw.to_owned(),
            system: system.label().to_owned(),
            time: year,
        };
        let code = raw.parse::<u32>().map_err(|_| unknown())?;
        match HistoricalCodes::embedded().lookup(system, code, year) {
            Lookup::Commune(commune) => {
                let code_2018 = commune.code_2018.as_str();
                if CutCodes::embedded().normalise(raw).0 != code_2018 {
                    self.recodings
                        .entry((year, raw.to_owned()))
                        .or_insert_with(|| HistoricalRecoding {
                            file: file.to_owned(),
                            time: year,
                            system: system.label(),
                            code: raw.to_owned(),
                            code_2018: code_2018.to_owned(),
                            commune: commune.name.clone(),
                            rows: 0,
                        })
                        .rows += 1;
                }
                Ok(Some(code_2018))
            }
            Lookup::NotYetCreated(commune) => {
                Err(ExclusionReason::NotYetCreated(Box::new(NotYetCreated {
                    code: raw.to_owned(),
                    system: system.label().to_owned(),
                    time: year,
                    commune: commune.name.clone(),
                    code_2018: commune.code_2018.clone(),
                    created: commune.created.unwrap_or(year + 1),
                })))
            }
            Lookup::Unknown => Err(unknown()),
        }
    }

    /// The years read in a historical system, and the recodings, for the report.
    pub fn finish(self, file: &str) -> (Vec<CodeSystemRead>, Vec<HistoricalRecoding>) {
        let mut years: Vec<(i64, System)> = self.by_year.into_iter().collect();
        years.sort();
        let read = years
            .into_iter()
            .map(|(time, system)| CodeSystemRead {
                file: file.to_owned(),
                time,
                system: system.label(),
            })
            .collect();
        (read, self.recodings.into_values().collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::ingest::{build_panel, ExclusionReason, IngestOptions, RawTable};

    fn panel_of(csv: &str) -> crate::panel::Panel {
        let table = RawTable::from_bytes("t.csv", csv.as_bytes()).unwrap();
        let roles = vec![table.guessed_roles.clone()];
        build_panel(&[table], &roles, &IngestOptions::default()).unwrap()
    }

    /// A 2002 table in the codes of 2002 ("desde 2000": Arica 1201, Camiña 1102) is read in that
    /// system; Alto Hospicio's code, a commune created in 2004, is excluded naming it; 2015's
    /// rows keep the 2018 reading.
    #[test]
    fn codes_of_their_year_are_recoded_and_a_commune_not_yet_created_is_reported() {
        let panel = panel_of(
            "codigo_comuna,anio,nacimientos,defunciones\n1201,2002,100,1\n1102,2002,50,0\n\
             1107,2002,80,1\n1101,2002,300,2\n1101,2015,310,3\n15101,2015,200,1\n",
        );
        let keys: Vec<(&str, i64)> = panel.rows().map(|r| (r.entity, r.time)).collect();
        assert_eq!(
            keys,
            [
                ("01101", 2002),
                ("01101", 2015),
                ("01402", 2002),
                ("15101", 2002),
                ("15101", 2015)
            ]
        );
        let report = &panel.report;
        assert_eq!(report.code_systems.len(), 1);
        assert_eq!(
            (report.code_systems[0].time, report.code_systems[0].system),
            (2002, "desde 2000")
        );
        let recoded: Vec<(&str, &str, &str)> = report
            .historical_recodings
            .iter()
            .map(|r| (r.code.as_str(), r.code_2018.as_str(), r.commune.as_str()))
            .collect();
        assert_eq!(
            recoded,
            [("1102", "01402", "Camiña"), ("1201", "15101", "Arica")]
        );
        assert_eq!(report.excluded.len(), 1);
        assert_eq!(report.excluded[0].line, 4);
        assert_eq!(
            report.excluded[0].kind,
            ExclusionReason::NotYetCreated(Box::new(crate::report::NotYetCreated {
                code: "1107".into(),
                system: "desde 2000".into(),
                time: 2002,
                commune: "Alto Hospicio".into(),
                code_2018: "01107".into(),
                created: 2004,
            }))
        );
        assert_eq!(
            report.excluded[0].reason,
            "code 1107 (DEIS system \"desde 2000\", that of 2002) is Alto Hospicio (01107), \
             created in 2004: it did not exist in 2002, and the code is not matched to another \
             commune"
        );
    }

    /// A table in 2018 codes keeps them in every year: its Arica (15101) and Camiña (01402) are
    /// unknown to the 2000 system.
    #[test]
    fn a_table_in_2018_codes_keeps_them() {
        let panel = panel_of(
            "codigo_comuna,anio,nacimientos,defunciones\n15101,2002,100,1\n01402,2002,50,0\n\
             01101,2002,300,2\n16101,2002,90,1\n",
        );
        let keys: Vec<&str> = panel.rows().map(|r| r.entity).collect();
        assert_eq!(keys, ["01101", "01402", "15101", "16101"]);
        assert!(panel.report.code_systems.is_empty());
        assert!(panel.report.historical_recodings.is_empty());
    }
}
