//! Chile's commune code systems since 1999, as DEIS (Ministerio de Salud) tabulates them in its
//! historical DPA table (sheet DPA2011; `data/cut_historico.csv`, provenance in
//! `data/PROVENANCE.md`): each commune's code "hasta 1999" (three digits, without the region),
//! "desde 2000", "desde 2008" (regions XIV Los Ríos and XV Arica y Parinacota, created in
//! October 2007, renumbered the communes of Valdivia and Arica provinces and some of region I)
//! and "desde 2010" (the CUT until Ñuble's 2018 recoding, which [`crate::cut`] maps).
//!
//! Which system a year's data use is the agency's choice; INE's tables of deaths by commune
//! (SAIP4026) use "hasta 1999" for 2000, "desde 2000" for 2001–2006, "desde 2008" for 2007–2009
//! and "desde 2010" from 2010 ([`System::of_year`]). A code is read in its system as the commune
//! that had it **and existed in that year**: "hasta 1999" gave Alto Hospicio, created in 2004,
//! Iquique's code 210, which in 2000 is Iquique; a code of a commune not yet created in the year
//! is that, never another commune ([`Lookup::NotYetCreated`]).

use std::collections::HashMap;

/// One of DEIS's commune code systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum System {
    Until1999,
    Since2000,
    Since2008,
    Since2010,
}

impl System {
    pub const ALL: [System; 4] = [
        System::Until1999,
        System::Since2000,
        System::Since2008,
        System::Since2010,
    ];

    /// The system INE's yearly tables use for year `year` (see the module's documentation).
    pub fn of_year(year: i64) -> System {
        match year {
            ..=2000 => System::Until1999,
            2001..=2006 => System::Since2000,
            2007..=2009 => System::Since2008,
            _ => System::Since2010,
        }
    }

    /// DEIS's name of the system: "hasta 1999", "desde 2000", "desde 2008", "desde 2010".
    pub fn label(self) -> &'static str {
        match self {
            System::Until1999 => "hasta 1999",
            System::Since2000 => "desde 2000",
            System::Since2008 => "desde 2008",
            System::Since2010 => "desde 2010",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One commune of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoricalCommune {
    /// Its 2018 CUT code (`"15101"`).
    pub code_2018: String,
    pub name: String,
    /// Its code in each [`System`] (in [`System::ALL`]'s order), as a number.
    pub codes: [u32; 4],
    /// The year it was created, when within the table's period (2004 for four communes).
    pub created: Option<i64>,
}

/// What a code of a system means in a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup<'a> {
    /// The commune that had the code and existed that year.
    Commune(&'a HistoricalCommune),
    /// The code is that of a commune created after the year (and of no commune existing then).
    NotYetCreated(&'a HistoricalCommune),
    /// No commune had the code in that system.
    Unknown,
}

/// DEIS's historical table, parsed once.
#[derive(Debug, Clone)]
pub struct HistoricalCodes {
    communes: Vec<HistoricalCommune>,
    /// Per system, each code's communes (indices into `communes`).
    by_code: [HashMap<u32, Vec<usize>>; 4],
}

impl HistoricalCodes {
    /// The table embedded in this crate ([`crate::HISTORICAL_CODES_CSV`]).
    pub fn embedded() -> &'static HistoricalCodes {
        static CODES: std::sync::OnceLock<HistoricalCodes> = std::sync::OnceLock::new();
        CODES.get_or_init(|| {
            let mut communes = Vec::new();
            let mut rdr = csv::Reader::from_reader(crate::HISTORICAL_CODES_CSV.as_bytes());
            for rec in rdr.records() {
                let rec = rec.expect("embedded cut_historico.csv is valid");
                let code = |i: usize| {
                    rec[i]
                        .parse::<u32>()
                        .expect("embedded cut_historico.csv has numeric codes")
                };
                communes.push(HistoricalCommune {
                    code_2018: rec[0].to_owned(),
                    name: rec[1].to_owned(),
                    codes: [code(2), code(3), code(4), code(5)],
                    created: rec[6].parse().ok(),
                });
            }
            let mut by_code: [HashMap<u32, Vec<usize>>; 4] = Default::default();
            for (i, c) in communes.iter().enumerate() {
                for s in System::ALL {
                    by_code[s.index()]
                        .entry(c.codes[s.index()])
                        .or_default()
                        .push(i);
                }
            }
            HistoricalCodes { communes, by_code }
        })
    }

    pub fn communes(&self) -> &[HistoricalCommune] {
        &self.communes
    }

    /// Whether some commune had `code` in `system`.
    pub fn knows(&self, system: System, code: u32) -> bool {
        self.by_code[system.index()].contains_key(&code)
    }

    /// Whether a raw value, as written in a table, could be a code of some historical system
    /// (three digits or more, all digits, known to one of the systems).
    pub fn knows_raw(&self, raw: &str) -> bool {
        let raw = raw.trim();
        raw.len() >= 3
            && raw
                .parse::<u32>()
                .is_ok_and(|code| System::ALL.into_iter().any(|s| self.knows(s, code)))
    }

    /// The commune `code` of `system` names in `year`: the one that had it and existed then,
    /// else the one created later that had it ([`Lookup::NotYetCreated`]), else
    /// [`Lookup::Unknown`] (also when two communes existing that year shared it, which DEIS's
    /// table does not have).
    pub fn lookup(&self, system: System, code: u32, year: i64) -> Lookup<'_> {
        let Some(list) = self.by_code[system.index()].get(&code) else {
            return Lookup::Unknown;
        };
        let existing: Vec<&HistoricalCommune> = list
            .iter()
            .map(|&i| &self.communes[i])
            .filter(|c| c.created.is_none_or(|created| created <= year))
            .collect();
        match existing.as_slice() {
            [one] => Lookup::Commune(one),
            [] => Lookup::NotYetCreated(&self.communes[list[0]]),
            _ => Lookup::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_the_commune_that_had_it_and_existed_that_year() {
        let codes = HistoricalCodes::embedded();
        let name = |s: System, code: u32, year: i64| match codes.lookup(s, code, year) {
            Lookup::Commune(c) => format!("{} {}", c.code_2018, c.name),
            Lookup::NotYetCreated(c) => format!("not yet {} {}", c.code_2018, c.name),
            Lookup::Unknown => "unknown".into(),
        };
        // 2000: Iquique's 210 was also Alto Hospicio's, not yet created.
        assert_eq!(name(System::Until1999, 210, 2000), "01101 Iquique");
        assert_eq!(name(System::Until1999, 201, 2000), "15101 Arica");
        // Region I's codes before and after region XV.
        assert_eq!(name(System::Since2000, 1201, 2003), "15101 Arica");
        assert_eq!(name(System::Since2008, 1201, 2008), "unknown");
        assert_eq!(name(System::Since2008, 15101, 2008), "15101 Arica");
        // Alto Hospicio's own code, before and after 2004.
        assert_eq!(
            name(System::Since2000, 1107, 2003),
            "not yet 01107 Alto Hospicio"
        );
        assert_eq!(name(System::Since2000, 1107, 2004), "01107 Alto Hospicio");
        // Ñuble's codes of 2010 are the 2018 ones.
        assert_eq!(name(System::Since2010, 8401, 2015), "16101 Chillán");
        assert_eq!(codes.communes().len(), 346);
    }

    #[test]
    fn the_years_take_ines_systems() {
        let systems: Vec<System> = [1999, 2000, 2001, 2006, 2007, 2009, 2010, 2023]
            .into_iter()
            .map(System::of_year)
            .collect();
        use System::*;
        assert_eq!(
            systems,
            [
                Until1999, Until1999, Since2000, Since2000, Since2008, Since2008, Since2010,
                Since2010
            ]
        );
    }
}
