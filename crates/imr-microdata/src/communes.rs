//! Commune codes of residence → the 2018 CUT code, fast.
//!
//! The rules are imr-data's [`CutCodes::normalise`] (trim, zero-pad to 5 digits, Ñuble 084xx →
//! 16xxx) followed by a look-up in the 2018 list, so that the counts written here read back
//! through the CSV ingest unchanged. Microdata repeat the same few hundred codes millions of
//! times, so the answer for each all-digit code is kept in a table indexed by its value.

use crate::fields::latin1;
use imr_data::cut::CutCodes;
use std::collections::HashMap;

const UNRESOLVED: u32 = u32::MAX;
const UNKNOWN: u32 = u32::MAX - 1;
const RECODED: u32 = 1 << 30;
const SLOW_CACHE_LIMIT: usize = 4096;

/// A commune found in the 2018 list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// Index into [`CommuneResolver::code`].
    pub index: u32,
    /// The raw code was a pre-2018 Ñuble code.
    pub recoded: bool,
}

#[derive(Debug)]
pub(crate) struct CommuneResolver {
    cut: &'static CutCodes,
    /// By the value of an all-digit code of at most 5 digits.
    by_value: Vec<u32>,
    /// Other spellings ("1101.0", "13101 "), bounded.
    by_text: HashMap<Vec<u8>, u32>,
    codes: Vec<String>,
    index_of: HashMap<String, u32>,
}

impl Default for CommuneResolver {
    fn default() -> Self {
        CommuneResolver {
            cut: CutCodes::embedded(),
            by_value: vec![UNRESOLVED; 100_000],
            by_text: HashMap::new(),
            codes: Vec::new(),
            index_of: HashMap::new(),
        }
    }
}

fn decode(entry: u32) -> Option<Resolved> {
    (entry != UNKNOWN).then_some(Resolved {
        index: entry & !RECODED,
        recoded: entry & RECODED != 0,
    })
}

impl CommuneResolver {
    /// The 2018 code of a raw (trimmed, non-empty) code, or `None` when it is not in the list.
    pub fn resolve(&mut self, raw: &[u8]) -> Option<Resolved> {
        if raw.len() <= 5 && raw.iter().all(u8::is_ascii_digit) {
            let value = raw
                .iter()
                .fold(0usize, |n, &b| n * 10 + usize::from(b - b'0'));
            let mut entry = self.by_value[value];
            if entry == UNRESOLVED {
                entry = self.lookup(&value.to_string());
                self.by_value[value] = entry;
            }
            return decode(entry);
        }
        if let Some(&entry) = self.by_text.get(raw) {
            return decode(entry);
        }
        let entry = self.lookup(&latin1(raw));
        if self.by_text.len() < SLOW_CACHE_LIMIT {
            self.by_text.insert(raw.to_vec(), entry);
        }
        decode(entry)
    }

    fn lookup(&mut self, raw: &str) -> u32 {
        let (code, recoded) = self.cut.normalise(raw);
        if !self.cut.contains(&code) {
            return UNKNOWN;
        }
        let next = self.codes.len() as u32;
        let index = *self.index_of.entry(code.clone()).or_insert_with(|| {
            self.codes.push(code);
            next
        });
        if recoded {
            index | RECODED
        } else {
            index
        }
    }

    pub fn code(&self, index: u32) -> &str {
        &self.codes[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_unpadded_and_old_nuble_codes_resolve_to_the_2018_code() {
        let mut r = CommuneResolver::default();
        let a = r.resolve(b"1101").unwrap();
        let b = r.resolve(b"01101").unwrap();
        assert_eq!(a, b);
        assert_eq!(r.code(a.index), "01101");
        let n = r.resolve(b"8401").unwrap();
        assert!(n.recoded);
        assert_eq!(r.code(n.index), "16101");
        let t = r.resolve(b"1101.0").unwrap();
        assert_eq!(t.index, a.index);
        assert_eq!(r.resolve(b"99999"), None);
        assert_eq!(r.resolve(b"XX"), None);
    }
}
