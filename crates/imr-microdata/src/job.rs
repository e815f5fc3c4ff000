//! One aggregation job as the page's Web Worker runs it: a deaths file and/or a births file read
//! in chunks from a [`ChunkSource`], progress reported after every chunk, and one final
//! [`JobResult`] (the counts CSV and a summary of every file). The messages between the page and
//! its worker are the serde types of this module, so both sides (and the native tests) share one
//! protocol.
//!
//! Memory stays bounded: one chunk buffer (reused) plus the aggregate, whatever the file size.

use crate::births::{BirthsAggregate, BirthsAggregator, BirthsOptions, ColumnRef};
use crate::deaths::{DeathsAggregate, DeathsAggregator, DeathsOptions};
use crate::output::counts_csv;
use crate::report::{Excluded, Progress};
use serde::{Deserialize, Serialize};

/// The chunk size the page reads files with (`File.slice`): 4 MiB, small enough for a fluent
/// progress bar on a 500 MB file (125 updates), large enough that a message per chunk costs
/// nothing next to the parsing.
pub const DEFAULT_CHUNK_BYTES: usize = 4 << 20;

/// The births columns the user chose, as typed: a 1-based position or a header name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BirthsColumns {
    pub year: String,
    pub commune: String,
    pub delimiter: char,
}

impl BirthsColumns {
    /// The aggregator options; an error in words when a column or the delimiter is unusable.
    pub fn options(&self) -> Result<BirthsOptions, String> {
        if !self.delimiter.is_ascii() {
            return Err(format!(
                "the births delimiter must be one ASCII character, not {:?}",
                self.delimiter
            ));
        }
        let mut options = BirthsOptions::new(
            ColumnRef::parse(&self.year)?,
            ColumnRef::parse(&self.commune)?,
        );
        options.delimiter = self.delimiter as u8;
        Ok(options)
    }
}

impl ColumnRef {
    /// A column as a user types it: a 1-based position (`3`) or a header name (`COMUNA`).
    pub fn parse(raw: &str) -> Result<ColumnRef, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("a column is needed: a 1-based position or a header name".to_owned());
        }
        match raw.parse::<usize>() {
            Ok(0) => Err("column positions start at 1".to_owned()),
            Ok(position) => Ok(ColumnRef::Index(position - 1)),
            Err(_) => Ok(ColumnRef::Name(raw.to_owned())),
        }
    }
}

/// What the page asks of its worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobOptions {
    pub deaths: DeathsOptions,
    /// The births columns, when a births file is given.
    pub births: Option<BirthsColumns>,
    pub chunk_bytes: usize,
}

impl Default for JobOptions {
    fn default() -> Self {
        JobOptions {
            deaths: DeathsOptions::default(),
            births: None,
            chunk_bytes: DEFAULT_CHUNK_BYTES,
        }
    }
}

/// Which file of the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    Deaths,
    Births,
}

/// Rows excluded for one reason, as the page shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcludedRows {
    /// The reason's stable label (`unknown_commune`, …; see [`crate::Reason::label`]).
    pub reason: String,
    pub description: String,
    pub count: u64,
    pub first_lines: Vec<u64>,
}

impl From<&Excluded> for ExcludedRows {
    fn from(e: &Excluded) -> Self {
        ExcludedRows {
            reason: e.reason.label().to_owned(),
            description: e.description.to_owned(),
            count: e.count,
            first_lines: e.first_lines.clone(),
        }
    }
}

/// What one file gave: every row is counted, not counted (deaths of people one year old or
/// more) or excluded with its reason: `rows_read = rows_counted + rows_not_infant + rows_excluded`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSummary {
    pub kind: FileKind,
    pub name: String,
    pub bytes: u64,
    pub has_header: bool,
    pub rows_read: u64,
    /// Infant deaths (deaths file) or births (births file) counted.
    pub rows_counted: u64,
    /// Deaths at one year of age or more (always 0 for births).
    pub rows_not_infant: u64,
    pub rows_excluded: u64,
    pub excluded: Vec<ExcludedRows>,
    /// Unknown commune codes with their counts, most frequent first ("" = blank).
    pub unknown_codes: Vec<(String, u64)>,
    pub blank_lines: u64,
    /// Pre-2018 Ñuble codes re-coded to the 2018 CUT.
    pub recoded_rows: u64,
    /// Rows by year: the years the file covers.
    pub rows_by_year: Vec<(u16, u64)>,
}

impl FileSummary {
    pub fn of_deaths(name: &str, a: &DeathsAggregate) -> Self {
        FileSummary {
            kind: FileKind::Deaths,
            name: name.to_owned(),
            bytes: a.bytes,
            has_header: a.layout.has_header,
            rows_read: a.rows_read,
            rows_counted: a.infant_deaths,
            rows_not_infant: a.non_infant_rows,
            rows_excluded: a.rows_excluded,
            excluded: a.excluded.iter().map(ExcludedRows::from).collect(),
            unknown_codes: a.unknown_codes.clone(),
            blank_lines: a.blank_lines,
            recoded_rows: a.recoded_rows,
            rows_by_year: a.rows_by_year.iter().map(|(y, n)| (*y, *n)).collect(),
        }
    }

    pub fn of_births(name: &str, a: &BirthsAggregate) -> Self {
        FileSummary {
            kind: FileKind::Births,
            name: name.to_owned(),
            bytes: a.bytes,
            has_header: a.has_header,
            rows_read: a.rows_read,
            rows_counted: a.births,
            rows_not_infant: 0,
            rows_excluded: a.rows_excluded,
            excluded: a.excluded.iter().map(ExcludedRows::from).collect(),
            unknown_codes: a.unknown_codes.clone(),
            blank_lines: a.blank_lines,
            recoded_rows: a.recoded_rows,
            rows_by_year: a.rows_by_year.iter().map(|(y, n)| (*y, *n)).collect(),
        }
    }
}

/// The end of a job that succeeded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobResult {
    /// `codigo_comuna,anio[,nacimientos][,defunciones…]`, the file the CSV ingest reads.
    pub counts_csv: String,
    pub files: Vec<FileSummary>,
    /// Bytes and rows of all files, and the wall time from the first chunk to the last count
    /// (milliseconds, the worker's clock).
    pub bytes: u64,
    pub rows: u64,
    pub elapsed_ms: u64,
}

/// A message from the worker to the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WorkerEvent {
    /// After every chunk.
    Progress {
        file: FileKind,
        name: String,
        bytes_read: u64,
        total_bytes: u64,
        rows_read: u64,
        rows_counted: u64,
        elapsed_ms: u64,
    },
    Done(JobResult),
    /// The file cannot be aggregated at all (not deaths microdata, a column that does not
    /// exist, a read error); row-level problems are exclusions, not failures.
    Failed {
        file: Option<FileKind>,
        message: String,
    },
}

/// Where the bytes of a file come from: `File.slice` + `FileReaderSync` in the worker, a slice
/// of memory in tests, a `std::fs::File` natively.
pub trait ChunkSource {
    fn name(&self) -> &str;
    /// The size in bytes.
    fn size(&self) -> u64;
    /// Reads `buffer.len()` bytes at `offset` (the last chunk may be shorter: `buffer` is
    /// truncated to what was read).
    fn read_at(&mut self, offset: u64, buffer: &mut Vec<u8>) -> Result<(), String>;
}

/// An in-memory file.
pub struct BytesSource<'a> {
    pub name: String,
    pub bytes: &'a [u8],
}

impl ChunkSource for BytesSource<'_> {
    fn name(&self) -> &str {
        &self.name
    }
    fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn read_at(&mut self, offset: u64, buffer: &mut Vec<u8>) -> Result<(), String> {
        let start = (offset as usize).min(self.bytes.len());
        let end = (start + buffer.len()).min(self.bytes.len());
        buffer.clear();
        buffer.extend_from_slice(&self.bytes[start..end]);
        Ok(())
    }
}

/// Streams one file through `push`, emitting a progress event after every chunk.
fn stream(
    kind: FileKind,
    source: &mut dyn ChunkSource,
    chunk_bytes: usize,
    clock: &dyn Fn() -> f64,
    started: f64,
    on_event: &mut dyn FnMut(&WorkerEvent),
    mut push: impl FnMut(&[u8]) -> Result<Progress, String>,
) -> Result<(), String> {
    let total_bytes = source.size();
    let chunk_bytes = chunk_bytes.max(1);
    let mut buffer = Vec::with_capacity(chunk_bytes);
    let mut offset = 0u64;
    while offset < total_bytes {
        buffer.resize(chunk_bytes, 0);
        source.read_at(offset, &mut buffer)?;
        if buffer.is_empty() {
            return Err(format!(
                "the file ended at byte {offset} of {total_bytes} while reading"
            ));
        }
        offset += buffer.len() as u64;
        let progress = push(&buffer)?;
        on_event(&WorkerEvent::Progress {
            file: kind,
            name: source.name().to_owned(),
            bytes_read: offset,
            total_bytes,
            rows_read: progress.rows_read,
            rows_counted: progress.rows_counted,
            elapsed_ms: (clock() - started).max(0.0) as u64,
        });
    }
    Ok(())
}

/// Runs a whole job: the deaths file, then the births file, then the counts CSV. `clock` gives
/// milliseconds (`performance.now()` in the worker). Returns the final event (`Done` or
/// `Failed`); progress events go to `on_event` as they happen.
pub fn run_job(
    deaths: Option<&mut dyn ChunkSource>,
    births: Option<&mut dyn ChunkSource>,
    options: &JobOptions,
    clock: &dyn Fn() -> f64,
    on_event: &mut dyn FnMut(&WorkerEvent),
) -> WorkerEvent {
    let started = clock();
    let failed = |file: Option<FileKind>, message: String| WorkerEvent::Failed { file, message };
    if deaths.is_none() && births.is_none() {
        return failed(None, "no file to aggregate".to_owned());
    }
    let births_options = match (&births, &options.births) {
        (Some(_), Some(columns)) => match columns.options() {
            Ok(o) => Some(o),
            Err(e) => return failed(Some(FileKind::Births), e),
        },
        (Some(_), None) => {
            return failed(
                Some(FileKind::Births),
                "choose the year and the mother's commune columns of the births file".to_owned(),
            )
        }
        _ => None,
    };
    let mut files = Vec::new();
    let mut deaths_aggregate = None;
    if let Some(source) = deaths {
        let name = source.name().to_owned();
        let mut aggregator = DeathsAggregator::new(options.deaths);
        let streamed = stream(
            FileKind::Deaths,
            source,
            options.chunk_bytes,
            clock,
            started,
            on_event,
            |chunk| aggregator.push(chunk).map_err(|e| e.to_string()),
        );
        let aggregate = streamed.and_then(|()| aggregator.finish().map_err(|e| e.to_string()));
        match aggregate {
            Ok(a) => {
                files.push(FileSummary::of_deaths(&name, &a));
                deaths_aggregate = Some(a);
            }
            Err(e) => return failed(Some(FileKind::Deaths), format!("{name}: {e}")),
        }
    }
    let mut births_aggregate = None;
    if let (Some(source), Some(births_options)) = (births, births_options) {
        let name = source.name().to_owned();
        let mut aggregator = BirthsAggregator::new(births_options);
        let streamed = stream(
            FileKind::Births,
            source,
            options.chunk_bytes,
            clock,
            started,
            on_event,
            |chunk| aggregator.push(chunk).map_err(|e| e.to_string()),
        );
        let aggregate = streamed.and_then(|()| aggregator.finish().map_err(|e| e.to_string()));
        match aggregate {
            Ok(a) => {
                files.push(FileSummary::of_births(&name, &a));
                births_aggregate = Some(a);
            }
            Err(e) => return failed(Some(FileKind::Births), format!("{name}: {e}")),
        }
    }
    let counts_csv = counts_csv(deaths_aggregate.as_ref(), births_aggregate.as_ref());
    WorkerEvent::Done(JobResult {
        counts_csv,
        bytes: files.iter().map(|f| f.bytes).sum(),
        rows: files.iter().map(|f| f.rows_read).sum(),
        files,
        elapsed_ms: (clock() - started).max(0.0) as u64,
    })
}

/// The `imr microdata` command that writes the same counts file from the same inputs, for the
/// page to show next to its result (file names as the user's, to be run where the files are).
pub fn equivalent_command(
    deaths_name: Option<&str>,
    births_name: Option<&str>,
    options: &JobOptions,
    out: &str,
) -> String {
    let quote = |s: &str| {
        if s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
        {
            s.to_owned()
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    let mut parts: Vec<String> = vec!["imr".into(), "microdata".into()];
    let births = births_name.zip(options.births.as_ref());
    match deaths_name {
        Some(deaths) => {
            parts.push("deaths".into());
            parts.push(quote(deaths));
            if options.deaths.neonatal {
                parts.push("--breakdown neonatal".into());
            }
            if options.deaths.cause {
                parts.push("--breakdown cause".into());
            }
            if let Some((file, _)) = births {
                parts.push(format!("--births {}", quote(file)));
            }
        }
        None => {
            parts.push("births".into());
            if let Some((file, _)) = births {
                parts.push(quote(file));
            }
        }
    }
    if let Some((_, columns)) = births {
        parts.push(format!("--births-year {}", quote(columns.year.trim())));
        parts.push(format!(
            "--births-commune {}",
            quote(columns.commune.trim())
        ));
        if columns.delimiter != ';' {
            parts.push(format!(
                "--births-delimiter {}",
                quote(&columns.delimiter.to_string())
            ));
        }
    }
    parts.push(format!("--out {}", quote(out)));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{write_deaths, SynthOptions};

    fn clock() -> f64 {
        0.0
    }

    fn synth() -> (Vec<u8>, crate::synth::Expected) {
        let mut bytes = Vec::new();
        let expected = write_deaths(&mut bytes, &SynthOptions::default()).unwrap();
        (bytes, expected)
    }

    #[test]
    fn a_deaths_job_gives_the_known_counts_and_progress_up_to_the_file_size() {
        let (bytes, expected) = synth();
        let mut source = BytesSource {
            name: "DEFUNCIONES.csv".into(),
            bytes: &bytes,
        };
        let options = JobOptions {
            chunk_bytes: 997,
            ..JobOptions::default()
        };
        let mut events = Vec::new();
        let end = run_job(Some(&mut source), None, &options, &clock, &mut |e| {
            events.push(e.clone())
        });
        let WorkerEvent::Done(result) = end else {
            panic!("job failed: {end:?}")
        };
        assert_eq!(result.counts_csv, expected.counts_csv(false, false));
        assert_eq!(result.bytes, bytes.len() as u64);
        let mut last = 0;
        for e in &events {
            let WorkerEvent::Progress {
                bytes_read,
                total_bytes,
                ..
            } = e
            else {
                panic!("only progress before the end")
            };
            assert!(*bytes_read > last && *bytes_read <= *total_bytes);
            last = *bytes_read;
        }
        assert_eq!(last, bytes.len() as u64);
        assert_eq!(events.len(), bytes.len().div_ceil(997));
        let f = &result.files[0];
        assert_eq!(
            f.rows_read,
            f.rows_counted + f.rows_not_infant + f.rows_excluded
        );
    }

    #[test]
    fn births_are_joined_and_the_command_says_how_to_redo_it() {
        let (deaths, _) = synth();
        let births = b"ANO_NAC;COMUNA\n2019;13101\n2019;13101\n2020;5101\n2020;99999\n";
        let options = JobOptions {
            births: Some(BirthsColumns {
                year: "ANO_NAC".into(),
                commune: "2".into(),
                delimiter: ';',
            }),
            ..JobOptions::default()
        };
        let end = run_job(
            Some(&mut BytesSource {
                name: "d.csv".into(),
                bytes: &deaths,
            }),
            Some(&mut BytesSource {
                name: "n.csv".into(),
                bytes: births,
            }),
            &options,
            &clock,
            &mut |_| {},
        );
        let WorkerEvent::Done(result) = end else {
            panic!("{end:?}")
        };
        assert!(result
            .counts_csv
            .starts_with("codigo_comuna,anio,nacimientos,"));
        assert!(result.counts_csv.contains("\n13101,2019,2,"));
        let births = &result.files[1];
        assert_eq!((births.rows_read, births.rows_counted), (4, 3));
        assert_eq!(births.excluded[0].reason, "unknown_commune");
        assert_eq!(
            equivalent_command(Some("d.csv"), Some("n.csv"), &options, "conteos.csv"),
            "imr microdata deaths d.csv --births n.csv --births-year ANO_NAC --births-commune 2 --out conteos.csv"
        );
    }

    #[test]
    fn a_file_that_is_not_deaths_microdata_fails_with_its_name() {
        let end = run_job(
            Some(&mut BytesSource {
                name: "x.csv".into(),
                bytes: b"a,b\n1,2\n",
            }),
            None,
            &JobOptions::default(),
            &clock,
            &mut |_| {},
        );
        match end {
            WorkerEvent::Failed { file, message } => {
                assert_eq!(file, Some(FileKind::Deaths));
                assert!(message.starts_with("x.csv: line 1:"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn births_without_columns_fail_before_reading() {
        let end = run_job(
            None,
            Some(&mut BytesSource {
                name: "n.csv".into(),
                bytes: b"2019;13101\n",
            }),
            &JobOptions::default(),
            &clock,
            &mut |_| {},
        );
        assert!(matches!(
            end,
            WorkerEvent::Failed {
                file: Some(FileKind::Births),
                ..
            }
        ));
    }

    #[test]
    fn events_round_trip_through_json() {
        let event = WorkerEvent::Progress {
            file: FileKind::Deaths,
            name: "d".into(),
            bytes_read: 1,
            total_bytes: 2,
            rows_read: 3,
            rows_counted: 1,
            elapsed_ms: 5,
        };
        let json = serde_json::to_string(&event).unwrap();
        assert!(json.starts_with("{\"type\":\"progress\""), "{json}");
        assert_eq!(serde_json::from_str::<WorkerEvent>(&json).unwrap(), event);
    }

    #[test]
    fn column_positions_start_at_one() {
        assert_eq!(ColumnRef::parse("3"), Ok(ColumnRef::Index(2)));
        assert!(ColumnRef::parse("0").is_err());
        assert!(ColumnRef::parse(" ").is_err());
        assert_eq!(
            ColumnRef::parse("COMUNA"),
            Ok(ColumnRef::Name("COMUNA".into()))
        );
    }
}
