//! Synthetic deaths microdata in exactly the official layout (Latin-1, `;`, optional header),
//! any size, deterministic for a seed, with the answer known from how each row was made.
//!
//! Each row is first *decided* (an infant death of commune c in year y, neonatal; a death at 54
//! years; a row with an unknown age; a malformed line…) and the decision is tallied in
//! [`Expected`]; only then is it written, in one of the spellings the real files use (codes
//! with or without the leading zero, pre-2018 Ñuble codes before 2018, ages in hours, days,
//! months or "0 years", Latin-1 names). The aggregator never sees the decisions, so comparing
//! its output with [`Expected`] tests it against an independent answer.
//!
//! The first nine columns are those of [`crate::DEATHS_COLUMNS`]; three more of the kind the
//! ministry appends follow (the chapter of DIAG1, its title and DIAG2), so rows are ~150 bytes.

use crate::cause::Chapter;
use crate::report::{Reason, MAX_LINES_PER_REASON};
use imr_data::cut::CutCodes;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The columns a synthetic file adds after [`crate::DEATHS_COLUMNS`] (its header is both).
pub const SYNTH_EXTRA_COLUMNS: [&str; 3] = ["CAPITULO_DIAG1", "GLOSA_CAPITULO_DIAG1", "DIAG2"];

/// ICD-10 codes with their chapter, labelled by hand from the WHO chapter table (not by
/// [`Chapter::of_code`], which they test).
const CAUSES: [(&str, u8, &str); 24] = [
    ("A099", 1, "Ciertas enfermedades infecciosas y parasitarias"),
    ("B342", 1, "Ciertas enfermedades infecciosas y parasitarias"),
    ("C910", 2, "Tumores [neoplasias]"),
    ("D481", 2, "Tumores [neoplasias]"),
    (
        "D611",
        3,
        "Enfermedades de la sangre y de los órganos hematopoyéticos",
    ),
    (
        "E440",
        4,
        "Enfermedades endocrinas, nutricionales y metabólicas",
    ),
    ("F102", 5, "Trastornos mentales y del comportamiento"),
    ("G009", 6, "Enfermedades del sistema nervioso"),
    (
        "H669",
        8,
        "Enfermedades del oído y de la apófisis mastoides",
    ),
    ("I219", 9, "Enfermedades del sistema circulatorio"),
    ("J189", 10, "Enfermedades del sistema respiratorio"),
    ("K559", 11, "Enfermedades del sistema digestivo"),
    ("N179", 14, "Enfermedades del sistema genitourinario"),
    (
        "P073",
        16,
        "Ciertas afecciones originadas en el período perinatal",
    ),
    (
        "P220",
        16,
        "Ciertas afecciones originadas en el período perinatal",
    ),
    (
        "P369",
        16,
        "Ciertas afecciones originadas en el período perinatal",
    ),
    (
        "Q249",
        17,
        "Malformaciones congénitas, deformidades y anomalías cromosómicas",
    ),
    (
        "Q000",
        17,
        "Malformaciones congénitas, deformidades y anomalías cromosómicas",
    ),
    (
        "R95X",
        18,
        "Síntomas, signos y hallazgos anormales clínicos y de laboratorio",
    ),
    ("W79X", 20, "Causas externas de morbilidad y de mortalidad"),
    ("X599", 20, "Causas externas de morbilidad y de mortalidad"),
    ("U071", 22, "Códigos para propósitos especiales"),
    ("", 0, ""),
    ("99", 0, ""),
];

/// How big a synthetic file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SynthSize {
    /// This many data rows.
    Rows(u64),
    /// Rows until at least this many bytes are written.
    Bytes(u64),
}

/// The settings of a synthetic deaths file.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthOptions {
    pub size: SynthSize,
    pub seed: u64,
    pub header: bool,
    /// `\r\n` line ends instead of `\n`.
    pub crlf: bool,
    pub first_year: u16,
    pub last_year: u16,
    /// Share of rows that are infant deaths (about 0.015 in the real files).
    pub infant_share: f64,
    /// Share of rows that are excluded (malformed, unknown age, unknown commune).
    pub problem_share: f64,
}

impl Default for SynthOptions {
    fn default() -> Self {
        SynthOptions {
            size: SynthSize::Rows(1000),
            seed: 1,
            header: true,
            crlf: false,
            first_year: 2010,
            last_year: 2019,
            infant_share: 0.015,
            problem_share: 0.002,
        }
    }
}

/// The known answer for one commune and year.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedCell {
    pub deaths: u64,
    pub neonatal: u64,
    pub post_neonatal: u64,
    pub not_known: u64,
    pub causes: [u64; Chapter::SLOTS],
}

/// The known answer of a synthetic file, tallied from the decisions that made each row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expected {
    pub bytes: u64,
    pub rows: u64,
    pub infant_deaths: u64,
    pub non_infant_rows: u64,
    /// Count and first [`MAX_LINES_PER_REASON`] line numbers by reason.
    pub excluded: BTreeMap<Reason, (u64, Vec<u64>)>,
    pub recoded_rows: u64,
    pub rows_by_year: BTreeMap<u16, u64>,
    pub cells: BTreeMap<(String, u16), ExpectedCell>,
}

impl Expected {
    fn exclude(&mut self, reason: Reason, line: u64) {
        let (count, lines) = self.excluded.entry(reason).or_default();
        *count += 1;
        if lines.len() < MAX_LINES_PER_REASON {
            lines.push(line);
        }
    }

    /// The counts table that `imr microdata deaths` should write for this file, every commune ×
    /// covered year, zeros included (written here independently of [`crate::counts_csv`]).
    pub fn counts_csv(&self, neonatal: bool, cause: bool) -> String {
        let mut out = String::from("codigo_comuna,anio,defunciones");
        if neonatal {
            out.push_str(
                ",defunciones_neonatales,defunciones_posneonatales,defunciones_edad_sin_precisar",
            );
        }
        if cause {
            for c in 0..Chapter::SLOTS as u8 {
                out.push_str(",defunciones_");
                out.push_str(Chapter(c).column_suffix());
            }
        }
        out.push('\n');
        let empty = ExpectedCell::default();
        for code in CutCodes::embedded().codes() {
            for &year in self.rows_by_year.keys() {
                let cell = self.cells.get(&(code.to_owned(), year)).unwrap_or(&empty);
                out.push_str(&format!("{code},{year},{}", cell.deaths));
                if neonatal {
                    out.push_str(&format!(
                        ",{},{},{}",
                        cell.neonatal, cell.post_neonatal, cell.not_known
                    ));
                }
                if cause {
                    for n in cell.causes {
                        out.push_str(&format!(",{n}"));
                    }
                }
                out.push('\n');
            }
        }
        out
    }
}

/// SplitMix64: small, fast, and the same on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Commune {
    code: String,
    pre2018: Option<String>,
    name: Vec<u8>,
    region: Vec<u8>,
}

fn latin1_bytes(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

fn communes() -> Vec<Commune> {
    let cut = CutCodes::embedded();
    let old_of: BTreeMap<&str, &str> = cut.pre2018_codes().map(|(old, new)| (new, old)).collect();
    cut.codes()
        .into_iter()
        .map(|code| {
            let commune = cut.commune(code).expect("listed code");
            Commune {
                code: code.to_owned(),
                pre2018: old_of.get(code).map(|s| s.to_string()),
                name: latin1_bytes(&commune.name.to_uppercase()),
                region: latin1_bytes(&commune.region_name),
            }
        })
        .collect()
}

/// The age class of an infant death.
#[derive(Clone, Copy)]
enum Split {
    Neonatal,
    PostNeonatal,
    NotKnown,
}

/// What a row is, decided before it is written.
enum Kind {
    NonInfant,
    Infant(Split),
    UnknownAge,
    InvalidAge,
    InvalidYear,
    WrongFieldCount,
    UnknownCommune,
}

/// Writes a synthetic deaths file and returns its known answer.
pub fn write_deaths(out: &mut impl Write, options: &SynthOptions) -> io::Result<Expected> {
    let communes = communes();
    let mut rng = SplitMix64::new(options.seed);
    let mut expected = Expected::default();
    let eol: &[u8] = if options.crlf { b"\r\n" } else { b"\n" };
    let mut line_buf: Vec<u8> = Vec::with_capacity(512);
    let mut line_no = 0u64;
    if options.header {
        let header: Vec<&str> = crate::DEATHS_COLUMNS
            .iter()
            .chain(&SYNTH_EXTRA_COLUMNS)
            .copied()
            .collect();
        line_buf.extend_from_slice(header.join(";").as_bytes());
        line_buf.extend_from_slice(eol);
        out.write_all(&line_buf)?;
        expected.bytes += line_buf.len() as u64;
        line_no += 1;
    }
    let years = u64::from(options.last_year - options.first_year) + 1;
    loop {
        match options.size {
            SynthSize::Rows(n) if expected.rows >= n => break,
            SynthSize::Bytes(n) if expected.bytes >= n => break,
            _ => {}
        }
        line_no += 1;
        expected.rows += 1;
        let year = options.first_year + rng.below(years) as u16;
        let commune = &communes[rng.below(communes.len() as u64) as usize];
        let (diag, chapter, chapter_title) = CAUSES[rng.below(CAUSES.len() as u64) as usize];
        let draw = rng.unit();
        // The first row stays well-formed: a headerless file is recognised by it.
        let kind = if draw < options.problem_share && expected.rows > 1 {
            match rng.below(5) {
                0 => Kind::UnknownAge,
                1 => Kind::InvalidAge,
                2 => Kind::InvalidYear,
                3 => Kind::WrongFieldCount,
                _ => Kind::UnknownCommune,
            }
        } else if draw < options.problem_share + options.infant_share {
            Kind::Infant(match rng.below(3) {
                0 => Split::Neonatal,
                1 => Split::PostNeonatal,
                _ => Split::NotKnown,
            })
        } else {
            Kind::NonInfant
        };
        // Age fields (EDAD_TIPO, EDAD_CANT).
        let (unit, value): (&str, String) = match &kind {
            Kind::NonInfant => ("1", (1 + rng.below(99)).to_string()),
            Kind::Infant(Split::Neonatal) | Kind::UnknownCommune => {
                if rng.below(2) == 0 {
                    ("4", rng.below(24).to_string())
                } else {
                    ("3", rng.below(28).to_string())
                }
            }
            Kind::Infant(Split::PostNeonatal) => {
                if rng.below(4) == 0 {
                    ("3", (28 + rng.below(3)).to_string())
                } else {
                    ("2", (1 + rng.below(11)).to_string())
                }
            }
            Kind::Infant(Split::NotKnown) => {
                if rng.below(4) == 0 {
                    ("3", String::new())
                } else {
                    ("1", "0".to_owned())
                }
            }
            Kind::UnknownAge => match rng.below(3) {
                0 => ("9", "999".to_owned()),
                1 => ("1", "999".to_owned()),
                _ => ("", String::new()),
            },
            Kind::InvalidAge => ("7", "3".to_owned()),
            Kind::InvalidYear | Kind::WrongFieldCount => ("2", "5".to_owned()),
        };
        // Commune code as written.
        let mut recoded = false;
        let code: String = match &kind {
            Kind::UnknownCommune => match rng.below(4) {
                0 => String::new(),
                1 => "00000".to_owned(),
                _ => format!("99{:03}", rng.below(1000)),
            },
            _ => match &commune.pre2018 {
                Some(old) if year < 2018 && rng.below(2) == 0 => {
                    recoded = true;
                    if rng.below(2) == 0 {
                        old.trim_start_matches('0').to_owned()
                    } else {
                        old.clone()
                    }
                }
                _ if rng.below(3) == 0 => commune.code.trim_start_matches('0').to_owned(),
                _ => commune.code.clone(),
            },
        };
        let month = 1 + rng.below(12);
        let day = 1 + rng.below(28);
        let sex = if rng.below(2) == 0 { "Hombre" } else { "Mujer" };
        line_buf.clear();
        match kind {
            Kind::InvalidYear => line_buf.extend_from_slice(b"s/i"),
            _ => line_buf.extend_from_slice(year.to_string().as_bytes()),
        }
        write!(
            line_buf,
            ";{year}-{month:02}-{day:02};{sex};{unit};{value};{code};"
        )?;
        line_buf.extend_from_slice(&commune.name);
        line_buf.push(b';');
        line_buf.extend_from_slice(&commune.region);
        write!(line_buf, ";{diag};")?;
        if chapter > 0 {
            line_buf.extend_from_slice(&latin1_bytes(&format!("Capítulo {chapter}")));
        }
        line_buf.push(b';');
        line_buf.extend_from_slice(&latin1_bytes(chapter_title));
        if !matches!(kind, Kind::WrongFieldCount) {
            line_buf.extend_from_slice(b";");
            if rng.below(3) == 0 {
                line_buf.extend_from_slice(b"P071");
            }
        }
        line_buf.extend_from_slice(eol);
        out.write_all(&line_buf)?;
        expected.bytes += line_buf.len() as u64;
        // The answer.
        if !matches!(kind, Kind::InvalidYear | Kind::WrongFieldCount) {
            *expected.rows_by_year.entry(year).or_default() += 1;
        }
        match kind {
            Kind::NonInfant => expected.non_infant_rows += 1,
            Kind::UnknownAge => expected.exclude(Reason::UnknownAge, line_no),
            Kind::InvalidAge => expected.exclude(Reason::InvalidAge, line_no),
            Kind::InvalidYear => expected.exclude(Reason::InvalidYear, line_no),
            Kind::WrongFieldCount => expected.exclude(Reason::WrongFieldCount, line_no),
            Kind::UnknownCommune => expected.exclude(Reason::UnknownCommune, line_no),
            Kind::Infant(split) => {
                expected.infant_deaths += 1;
                expected.recoded_rows += u64::from(recoded);
                let cell = expected
                    .cells
                    .entry((commune.code.clone(), year))
                    .or_default();
                cell.deaths += 1;
                match split {
                    Split::Neonatal => cell.neonatal += 1,
                    Split::PostNeonatal => cell.post_neonatal += 1,
                    Split::NotKnown => cell.not_known += 1,
                }
                cell.causes[usize::from(chapter)] += 1;
            }
        }
    }
    out.flush()?;
    Ok(expected)
}
