//! The ICD-10 chapter of a cause of death (DIAG1), for the cause breakdown.
//!
//! # Grouping
//! The chapter is read from the first letter and, for the two letters shared by two chapters,
//! the two digits after it (WHO ICD-10, 2019 edition):
//!
//! | chapter | codes | | chapter | codes |
//! |---|---|---|---|---|
//! | I infectious and parasitic | A00–B99 | | XII skin | L00–L99 |
//! | II neoplasms | C00–D48 | | XIII musculoskeletal | M00–M99 |
//! | III blood and immune | D50–D89 | | XIV genitourinary | N00–N99 |
//! | IV endocrine, nutritional, metabolic | E00–E90 | | XV pregnancy and childbirth | O00–O99 |
//! | V mental | F00–F99 | | XVI perinatal conditions | P00–P96 |
//! | VI nervous system | G00–G99 | | XVII congenital malformations | Q00–Q99 |
//! | VII eye | H00–H59 | | XVIII ill-defined (symptoms, signs) | R00–R99 |
//! | VIII ear | H60–H95 | | XIX injury and poisoning | S00–T98 |
//! | IX circulatory | I00–I99 | | XX external causes | V01–Y98 |
//! | X respiratory | J00–J99 | | XXI contact with health services | Z00–Z99 |
//! | XI digestive | K00–K93 | | XXII special purposes (COVID-19 U07) | U00–U99 |
//!
//! A blank DIAG1, or one that is not a letter followed by two digits, is "not stated".

use serde::Serialize;

/// An ICD-10 chapter, or `NotStated`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Chapter(pub u8);

impl Chapter {
    pub const NOT_STATED: Chapter = Chapter(0);
    /// Chapters I–XXII and "not stated": the number of slots of a breakdown.
    pub const SLOTS: usize = 23;

    /// The chapter of a DIAG1 code such as `P073`, `P07.3` or `q249`.
    pub fn of_code(code: &[u8]) -> Chapter {
        let (letter, d1, d2) = match code {
            [l, a, b, ..]
                if l.is_ascii_alphabetic() && a.is_ascii_digit() && b.is_ascii_digit() =>
            {
                (l.to_ascii_uppercase(), a - b'0', b - b'0')
            }
            _ => return Chapter::NOT_STATED,
        };
        let two = d1 * 10 + d2;
        Chapter(match letter {
            b'A' | b'B' => 1,
            b'C' => 2,
            b'D' if two <= 48 => 2,
            b'D' => 3,
            b'E' => 4,
            b'F' => 5,
            b'G' => 6,
            b'H' if two <= 59 => 7,
            b'H' => 8,
            b'I' => 9,
            b'J' => 10,
            b'K' => 11,
            b'L' => 12,
            b'M' => 13,
            b'N' => 14,
            b'O' => 15,
            b'P' => 16,
            b'Q' => 17,
            b'R' => 18,
            b'S' | b'T' => 19,
            b'V' | b'W' | b'X' | b'Y' => 20,
            b'Z' => 21,
            b'U' => 22,
            _ => 0,
        })
    }

    /// Column name suffix, e.g. `p00_p96` (chapter XVI), `sin_causa` for not stated.
    pub fn column_suffix(self) -> &'static str {
        const SUFFIXES: [&str; Chapter::SLOTS] = [
            "sin_causa",
            "a00_b99",
            "c00_d48",
            "d50_d89",
            "e00_e90",
            "f00_f99",
            "g00_g99",
            "h00_h59",
            "h60_h95",
            "i00_i99",
            "j00_j99",
            "k00_k93",
            "l00_l99",
            "m00_m99",
            "n00_n99",
            "o00_o99",
            "p00_p96",
            "q00_q99",
            "r00_r99",
            "s00_t98",
            "v01_y98",
            "z00_z99",
            "u00_u99",
        ];
        SUFFIXES[self.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Examples checked by hand against the WHO ICD-10 chapter table.
    #[test]
    fn codes_fall_in_their_who_chapters_including_the_split_letters_d_and_h() {
        let cases: [(&[u8], u8); 14] = [
            (b"A09", 1),
            (b"B349", 1),
            (b"D489", 2),
            (b"D500", 3),
            (b"H590", 7),
            (b"H600", 8),
            (b"P07.3", 16),
            (b"p220", 16),
            (b"Q249", 17),
            (b"T71X", 19),
            (b"W79X", 20),
            (b"U071", 22),
            (b"", 0),
            (b"9999", 0),
        ];
        for (code, chapter) in cases {
            assert_eq!(
                Chapter::of_code(code),
                Chapter(chapter),
                "{}",
                String::from_utf8_lossy(code)
            );
        }
    }
}
