//! Why the worker could not give the page a table, as a value ([`CsvFailure`]), and as the page
//! receives it in [`crate::CsvEvent::Failed`]: worded by the engine in each language
//! ([`WordedFailure`]).

use imr_core::ingest::IngestError;
use imr_core::Lang;
use serde::{Deserialize, Serialize};

/// The largest file the worker tries to hold: one allocation cannot exceed `isize::MAX` bytes
/// (2 GiB on wasm32), so a larger file is [`CsvFailure::NoMemory`] before any byte is read.
pub const MAX_FILE_BYTES: u64 = isize::MAX as u64;

/// Why a CSV job gave no table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CsvFailure {
    /// The job message held no file (a page/worker mismatch).
    NoFile,
    /// The worker's memory cannot hold the file's `bytes`.
    NoMemory { file: String, bytes: u64 },
    /// The browser refused to read the file; `detail` is its error.
    Unreadable { file: String, detail: String },
    /// The file gave fewer or more bytes than its size said (changed on disk while read).
    Changed { file: String, at: u64, size: u64 },
    /// The bytes are not a table the engine can read.
    Ingest { error: IngestError },
    /// The table could not be encoded or posted to the page; `detail` is the error.
    Send { file: String, detail: String },
}

impl CsvFailure {
    /// The failure in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use CsvFailure::*;
        let mb = |bytes: &u64| lang.decimal(*bytes as f64 / 1e6, 1);
        match (self, lang) {
            (NoFile, Lang::En) => "the CSV job has no file".into(),
            (NoFile, Lang::Es) => "la tarea de lectura no recibió ningún archivo".into(),
            (NoMemory { file, bytes }, Lang::En) => format!(
                "{file}: not enough memory in the page's background reader for the file ({} MB)",
                mb(bytes)
            ),
            (NoMemory { file, bytes }, Lang::Es) => format!(
                "{file}: no hay memoria suficiente en la lectura en segundo plano para el archivo ({} MB)",
                mb(bytes)
            ),
            (Unreadable { file, detail }, Lang::En) => {
                format!("{file}: the browser cannot read the file ({detail})")
            }
            (Unreadable { file, detail }, Lang::Es) => {
                format!("{file}: el navegador no puede leer el archivo ({detail})")
            }
            (Changed { file, at, size }, Lang::En) => format!(
                "{file}: the file changed while it was read (byte {at} of {size}); choose it again"
            ),
            (Changed { file, at, size }, Lang::Es) => format!(
                "{file}: el archivo cambió mientras se leía (byte {at} de {size}); vuelva a elegirlo"
            ),
            (Ingest { error }, _) => error.text(lang),
            (Send { file, detail }, Lang::En) => {
                format!("{file}: cannot send the table to the page ({detail})")
            }
            (Send { file, detail }, Lang::Es) => {
                format!("{file}: no se puede enviar la tabla a la página ({detail})")
            }
        }
    }
}

/// A [`CsvFailure`] worded in each language, as the worker sends it to the page: the page shows
/// it in its language and again in the other when the reader switches, and has no decoder for
/// the failure's own types. Decoding the value itself (`CsvFailure`, `IngestError` and the types
/// inside them, internally tagged JSON) cost the page's wasm 167 KB (39 KB gzip) after
/// `wasm-opt -Oz`, measured on 2026-12-03.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordedFailure {
    pub es: String,
    pub en: String,
}

impl WordedFailure {
    /// `failure` in each language ([`CsvFailure::text`]).
    pub fn of(failure: &CsvFailure) -> WordedFailure {
        WordedFailure {
            es: failure.text(Lang::Es),
            en: failure.text(Lang::En),
        }
    }

    /// The failure in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        lang.pick(&self.es, &self.en)
    }
}

impl std::fmt::Display for CsvFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// The file's size as the buffer's length, or [`CsvFailure::NoMemory`] when no buffer can hold
/// it (above [`MAX_FILE_BYTES`]; `as usize` would wrap on wasm32 above 4 GiB).
pub fn check_size(file: &str, bytes: u64) -> Result<usize, CsvFailure> {
    usize::try_from(bytes)
        .ok()
        .filter(|&n| n as u64 <= MAX_FILE_BYTES)
        .ok_or_else(|| CsvFailure::NoMemory {
            file: file.to_owned(),
            bytes,
        })
}

// Its texts for people are [`imr_lang::Words`], checked as every engine value's are.
imr_lang::words_by_text!(CsvFailure);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_above_what_one_buffer_holds_is_no_memory_not_a_wrapped_length() {
        assert_eq!(check_size("a.csv", 10), Ok(10));
        assert_eq!(
            check_size("a.csv", MAX_FILE_BYTES),
            Ok(MAX_FILE_BYTES as usize)
        );
        assert_eq!(
            check_size("a.csv", MAX_FILE_BYTES + 1),
            Err(CsvFailure::NoMemory {
                file: "a.csv".into(),
                bytes: MAX_FILE_BYTES + 1
            })
        );
        // 5 GiB: on wasm32 `as usize` gave 1 GiB, a buffer that then grew past memory; a 64-bit
        // buffer holds it.
        assert_eq!(check_size("a.csv", 5 << 30).is_ok(), usize::BITS == 64);
    }

    #[test]
    fn every_failure_is_worded_in_both_languages() {
        let failures = [
            CsvFailure::NoFile,
            CsvFailure::NoMemory {
                file: "a.csv".into(),
                bytes: 3_200_000,
            },
            CsvFailure::Unreadable {
                file: "a.csv".into(),
                detail: "NotReadableError".into(),
            },
            CsvFailure::Changed {
                file: "a.csv".into(),
                at: 5,
                size: 9,
            },
            CsvFailure::Ingest {
                error: IngestError::NoFiles,
            },
            CsvFailure::Send {
                file: "a.csv".into(),
                detail: "DataCloneError".into(),
            },
        ];
        for failure in failures {
            let (en, es) = (failure.text(Lang::En), failure.text(Lang::Es));
            assert_ne!(en, es);
            for word in es.split(|c: char| !c.is_alphanumeric()) {
                assert!(
                    !["the", "file", "cannot", "memory", "table", "page"].contains(&word),
                    "{word:?} in {es:?}"
                );
            }
            // What the page receives: both texts, whichever language it shows.
            let worded = WordedFailure::of(&failure);
            assert_eq!((worded.text(Lang::En), worded.text(Lang::Es)), (&*en, &*es));
        }
        assert_eq!(
            CsvFailure::NoMemory {
                file: "a.csv".into(),
                bytes: 3_200_000
            }
            .text(Lang::Es),
            "a.csv: no hay memoria suficiente en la lectura en segundo plano para el archivo (3,2 MB)"
        );
    }
}
