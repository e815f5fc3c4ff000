//! Chilean commune codes (Código Único Territorial, CUT): the 2018 list and normalisation.
//!
//! Codes are 5-character strings ("01101"). Files often store them as integers (1101) or with
//! spaces; Ñuble communes published before the 2018 creation of region XVI carry 084xx codes,
//! which map one-to-one to 16xxx (crosswalk in `public/data/nuble_crosswalk.csv`; provenance in
//! `public/data/SOURCES.md`).

use std::collections::{BTreeMap, BTreeSet};

/// One commune of the 2018 code list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commune {
    pub code: String,
    pub name: String,
    pub region_code: String,
    pub region_name: String,
}

/// The 2018 CUT list and the Ñuble crosswalk, parsed once.
#[derive(Debug, Clone)]
pub struct CutCodes {
    communes: BTreeMap<String, Commune>,
    pre2018: BTreeMap<String, String>,
}

impl CutCodes {
    /// The tables embedded in this crate ([`crate::CUT_2018_CSV`], [`crate::NUBLE_CROSSWALK_CSV`]).
    pub fn embedded() -> &'static CutCodes {
        static CODES: std::sync::OnceLock<CutCodes> = std::sync::OnceLock::new();
        CODES.get_or_init(|| {
            let mut communes = BTreeMap::new();
            let mut rdr = csv::Reader::from_reader(crate::CUT_2018_CSV.as_bytes());
            for rec in rdr.records() {
                let rec = rec.expect("embedded cut_2018.csv is valid");
                communes.insert(
                    rec[0].to_owned(),
                    Commune {
                        code: rec[0].to_owned(),
                        name: rec[1].to_owned(),
                        region_code: rec[2].to_owned(),
                        region_name: rec[3].to_owned(),
                    },
                );
            }
            let mut pre2018 = BTreeMap::new();
            let mut rdr = csv::Reader::from_reader(crate::NUBLE_CROSSWALK_CSV.as_bytes());
            for rec in rdr.records() {
                let rec = rec.expect("embedded nuble_crosswalk.csv is valid");
                pre2018.insert(rec[0].to_owned(), rec[1].to_owned());
            }
            CutCodes { communes, pre2018 }
        })
    }

    pub fn commune(&self, code: &str) -> Option<&Commune> {
        self.communes.get(code)
    }

    pub fn contains(&self, code: &str) -> bool {
        self.communes.contains_key(code)
    }

    /// The pre-2018 Ñuble codes with their 2018 codes (`("08401", "16101")`, …), in code order.
    pub fn pre2018_codes(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pre2018
            .iter()
            .map(|(old, new)| (old.as_str(), new.as_str()))
    }

    pub fn codes(&self) -> BTreeSet<&str> {
        self.communes.keys().map(String::as_str).collect()
    }

    /// Normalises a raw code: trims spaces (also inside a code of digits), restores leading zeros to 5 characters
    /// when the code is all digits, and maps a pre-2018 Ñuble code to its 2018 code. Returns the
    /// code and whether it was re-coded.
    pub fn normalise(&self, raw: &str) -> (String, bool) {
        let trimmed = raw.trim();
        let no_spaces: String = trimmed.chars().filter(|c| !c.is_whitespace()).collect();
        // Spaces inside are dropped only from codes made of digits ("01 101"); names keep them.
        let compact = if no_spaces.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            no_spaces
        } else {
            trimmed.to_owned()
        };
        // "1101.0" from a spreadsheet export is still the integer code 1101.
        let compact = compact
            .strip_suffix(".0")
            .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_owned)
            .unwrap_or(compact);
        let padded = if !compact.is_empty()
            && compact.len() < 5
            && compact.bytes().all(|b| b.is_ascii_digit())
        {
            format!("{compact:0>5}")
        } else {
            compact
        };
        match self.pre2018.get(&padded) {
            Some(new) => (new.clone(), true),
            None => (padded, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_list_has_346_communes_and_21_nuble_codes() {
        let c = CutCodes::embedded();
        assert_eq!(c.codes().len(), 346);
        assert_eq!(c.pre2018.len(), 21);
        assert_eq!(c.commune("13101").unwrap().name, "Santiago");
    }

    #[test]
    fn codes_are_padded_trimmed_and_recoded() {
        let c = CutCodes::embedded();
        assert_eq!(c.normalise(" 1101 "), ("01101".into(), false));
        assert_eq!(c.normalise("1101.0"), ("01101".into(), false));
        assert_eq!(c.normalise("8401"), ("16101".into(), true));
        assert_eq!(c.normalise("08419"), ("16305".into(), true));
        assert_eq!(c.normalise("13101"), ("13101".into(), false));
        assert_eq!(
            c.normalise("General Motors"),
            ("General Motors".into(), false)
        );
    }
}
