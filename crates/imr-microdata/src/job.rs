//! One aggregation job as the page's Web Worker runs it: a deaths file and/or a births file read
//! in chunks from a [`ChunkSource`], progress reported after every chunk, and one final
//! [`JobResult`] (the counts CSV and a summary of every file). The messages between the page and
//! its worker are the serde types of this module, so both sides (and the native tests) share one
//! protocol.
//!
//! Memory stays bounded: one chunk buffer (reused) plus the aggregate, whatever the file size.

use crate::births::{BirthsAggregate, BirthsAggregator, BirthsOptions, ColumnRef};
use crate::deaths::{DeathsAggregate, DeathsAggregator, DeathsOptions};
use crate::error::{ColumnError, JobFailure};
use crate::output::counts_csv;
use crate::report::{serialize_with_account, AccountNames, Excluded, Reason, RowAccount};
use serde::{Deserialize, Serialize};

/// The chunk size the page reads files with (`File.slice`): 16 MiB. Chromium hands a file's
/// bytes to a worker through the browser process, one round trip per read; with 16 MiB reads,
/// two of them in flight while one is parsed, the page's worker aggregated a 500 MiB file at
/// 189–207 MiB/s (8 MiB reads one ahead: 108–166 MiB/s; 4 MiB `FileReaderSync` reads in series:
/// 76–84 MiB/s). Memory: three chunks and the aggregate; a 500 MiB file gives 32 progress events.
pub const DEFAULT_CHUNK_BYTES: usize = 16 << 20;

/// The births columns the user chose, as typed: a 1-based position or a header name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BirthsColumns {
    pub year: String,
    pub commune: String,
    pub delimiter: char,
}

impl BirthsColumns {
    /// The aggregator options; an error in words when a column or the delimiter is unusable.
    pub fn options(&self) -> Result<BirthsOptions, ColumnError> {
        if !self.delimiter.is_ascii() {
            return Err(ColumnError::DelimiterNotAscii {
                delimiter: self.delimiter,
            });
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
    pub fn parse(raw: &str) -> Result<ColumnRef, ColumnError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(ColumnError::Blank);
        }
        match raw.parse::<usize>() {
            Ok(0) => Err(ColumnError::PositionZero),
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
    /// Why (in the JSON its stable label, `unknown_commune`, …: [`crate::Reason::label`]).
    pub reason: Reason,
    pub description: String,
    pub count: u64,
    pub first_lines: Vec<u64>,
}

impl From<&Excluded> for ExcludedRows {
    fn from(e: &Excluded) -> Self {
        ExcludedRows {
            reason: e.reason,
            description: e.description.to_owned(),
            count: e.count,
            first_lines: e.first_lines.clone(),
        }
    }
}

/// What one file gave: every row is counted, not counted (deaths of people one year old or
/// more) or excluded with its reason: `rows_read = rows_counted + rows_not_infant + rows_excluded`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct FileSummary {
    pub kind: FileKind,
    pub name: String,
    pub bytes: u64,
    pub has_header: bool,
    /// Where every row went (its fields are the summary's own in the JSON).
    #[serde(flatten)]
    pub rows: RowAccount,
    pub excluded: Vec<ExcludedRows>,
    /// Unknown commune codes with their counts, most frequent first ("" = blank).
    pub unknown_codes: Vec<(String, u64)>,
    /// Rows by year: the years the file covers.
    pub rows_by_year: Vec<(u16, u64)>,
}

// The row accounting goes out field by field in the summary's order.
serialize_with_account!(
    FileSummary,
    AccountNames::SUMMARY,
    head: [kind, name, bytes, has_header],
    tail: []
);

impl FileSummary {
    /// The `limit` most frequent unknown commune codes with their counts, for reading:
    /// "99999 ×3, (blank) ×2"; empty when there are none.
    pub fn unknown_codes_listed(&self, limit: usize) -> String {
        self.unknown_codes
            .iter()
            .take(limit)
            .map(|(code, n)| {
                let code = if code.is_empty() { "(blank)" } else { code };
                format!("{code} ×{n}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The summary of a deaths file named `name`.
    pub fn of_deaths(name: &str, a: &DeathsAggregate) -> Self {
        FileSummary {
            kind: FileKind::Deaths,
            name: name.to_owned(),
            bytes: a.bytes,
            has_header: a.layout.has_header,
            rows: a.rows,
            excluded: a.excluded.iter().map(ExcludedRows::from).collect(),
            unknown_codes: a.unknown_codes.clone(),
            rows_by_year: a.rows_by_year.iter().map(|(y, n)| (*y, *n)).collect(),
        }
    }

    /// The summary of a births file named `name`.
    pub fn of_births(name: &str, a: &BirthsAggregate) -> Self {
        FileSummary {
            kind: FileKind::Births,
            name: name.to_owned(),
            bytes: a.bytes,
            has_header: a.has_header,
            rows: a.rows,
            excluded: a.excluded.iter().map(ExcludedRows::from).collect(),
            unknown_codes: a.unknown_codes.clone(),
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
        failure: JobFailure,
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

/// The aggregator of the file being read.
enum Current {
    Deaths(DeathsAggregator),
    Births(BirthsAggregator),
}

/// A job driven one chunk at a time, for a caller that reads the files itself (the worker reads
/// the next chunk asynchronously while this one is parsed): [`Job::start_file`], then
/// [`Job::push`] for every chunk in order, [`Job::finish_file`], and [`Job::finish`].
pub struct Job {
    options: JobOptions,
    births_options: Option<BirthsOptions>,
    current: Option<(FileKind, String, u64, Current)>,
    deaths: Option<DeathsAggregate>,
    births: Option<BirthsAggregate>,
    files: Vec<FileSummary>,
}

impl Job {
    /// Checks the options before any byte is read: a births file needs its two columns.
    pub fn new(
        options: &JobOptions,
        has_deaths: bool,
        has_births: bool,
    ) -> Result<Job, WorkerEvent> {
        let failed =
            |file: Option<FileKind>, failure: JobFailure| WorkerEvent::Failed { file, failure };
        if !has_deaths && !has_births {
            return Err(failed(None, JobFailure::NoFile));
        }
        let births_options = match (has_births, &options.births) {
            (true, Some(columns)) => Some(columns.options().map_err(|e| {
                failed(Some(FileKind::Births), JobFailure::BirthsColumns { why: e })
            })?),
            (true, None) => {
                return Err(failed(
                    Some(FileKind::Births),
                    JobFailure::BirthsColumnsNotChosen,
                ))
            }
            (false, _) => None,
        };
        Ok(Job {
            options: options.clone(),
            births_options,
            current: None,
            deaths: None,
            births: None,
            files: Vec::new(),
        })
    }

    /// The chunk size to read with.
    pub fn chunk_bytes(&self) -> usize {
        self.options.chunk_bytes.max(1)
    }

    /// Begins a file of `size` bytes.
    pub fn start_file(&mut self, kind: FileKind, name: &str, size: u64) {
        let aggregator = match kind {
            FileKind::Deaths => Current::Deaths(DeathsAggregator::new(self.options.deaths)),
            FileKind::Births => Current::Births(BirthsAggregator::new(
                self.births_options.clone().unwrap_or_else(|| {
                    BirthsOptions::new(ColumnRef::Index(0), ColumnRef::Index(1))
                }),
            )),
        };
        self.current = Some((kind, name.to_owned(), size, aggregator));
    }

    /// Feeds the next chunk of the current file; the progress event to post, or the failure
    /// (the file is not what it should be).
    pub fn push(&mut self, chunk: &[u8], elapsed_ms: f64) -> Result<WorkerEvent, WorkerEvent> {
        let Some((kind, name, size, aggregator)) = &mut self.current else {
            return Err(WorkerEvent::Failed {
                file: None,
                failure: JobFailure::NotStarted,
            });
        };
        let progress = match aggregator {
            Current::Deaths(a) => a.push(chunk),
            Current::Births(a) => a.push(chunk),
        }
        .map_err(|error| WorkerEvent::Failed {
            file: Some(*kind),
            failure: JobFailure::Microdata {
                file: name.clone(),
                error,
            },
        })?;
        Ok(WorkerEvent::Progress {
            file: *kind,
            name: name.clone(),
            bytes_read: progress.bytes_consumed,
            total_bytes: *size,
            rows_read: progress.rows_read,
            rows_counted: progress.rows_counted,
            elapsed_ms: elapsed_ms.max(0.0) as u64,
        })
    }

    /// Ends the current file (reads a last line without newline) and keeps its counts.
    pub fn finish_file(&mut self) -> Result<(), WorkerEvent> {
        let Some((kind, name, _, aggregator)) = self.current.take() else {
            return Ok(());
        };
        let failed = |error: crate::MicrodataError| WorkerEvent::Failed {
            file: Some(kind),
            failure: JobFailure::Microdata {
                file: name.clone(),
                error,
            },
        };
        match aggregator {
            Current::Deaths(a) => {
                let a = a.finish().map_err(failed)?;
                self.files.push(FileSummary::of_deaths(&name, &a));
                self.deaths = Some(a);
            }
            Current::Births(a) => {
                let a = a.finish().map_err(failed)?;
                self.files.push(FileSummary::of_births(&name, &a));
                self.births = Some(a);
            }
        }
        Ok(())
    }

    /// The counts CSV and the summaries.
    pub fn finish(mut self, elapsed_ms: f64) -> WorkerEvent {
        if let Err(failed) = self.finish_file() {
            return failed;
        }
        let counts_csv = counts_csv(self.deaths.as_ref(), self.births.as_ref());
        WorkerEvent::Done(JobResult {
            counts_csv,
            bytes: self.files.iter().map(|f| f.bytes).sum(),
            rows: self.files.iter().map(|f| f.rows.rows_read).sum(),
            files: self.files,
            elapsed_ms: elapsed_ms.max(0.0) as u64,
        })
    }
}

/// Streams one file through the job, emitting a progress event after every chunk.
fn stream(
    job: &mut Job,
    kind: FileKind,
    source: &mut dyn ChunkSource,
    elapsed: &dyn Fn() -> f64,
    on_event: &mut dyn FnMut(&WorkerEvent),
) -> Result<(), WorkerEvent> {
    let total_bytes = source.size();
    let chunk_bytes = job.chunk_bytes();
    let failed = |failure: JobFailure| WorkerEvent::Failed {
        file: Some(kind),
        failure,
    };
    job.start_file(kind, source.name(), total_bytes);
    let mut buffer = Vec::with_capacity(chunk_bytes);
    let mut offset = 0u64;
    while offset < total_bytes {
        buffer.resize(chunk_bytes, 0);
        source.read_at(offset, &mut buffer).map_err(|detail| {
            failed(JobFailure::Unreadable {
                file: source.name().to_owned(),
                detail,
            })
        })?;
        if buffer.is_empty() {
            return Err(failed(JobFailure::EndedEarly {
                file: source.name().to_owned(),
                at: offset,
                size: total_bytes,
            }));
        }
        offset += buffer.len() as u64;
        on_event(&job.push(&buffer, elapsed())?);
    }
    job.finish_file()
}

/// Runs a whole job synchronously: the deaths file, then the births file, then the counts CSV.
/// `clock` gives milliseconds. Returns the final event (`Done` or `Failed`); progress events go
/// to `on_event` as they happen.
pub fn run_job(
    deaths: Option<&mut dyn ChunkSource>,
    births: Option<&mut dyn ChunkSource>,
    options: &JobOptions,
    clock: &dyn Fn() -> f64,
    on_event: &mut dyn FnMut(&WorkerEvent),
) -> WorkerEvent {
    let started = clock();
    let elapsed = || clock() - started;
    let mut job = match Job::new(options, deaths.is_some(), births.is_some()) {
        Ok(job) => job,
        Err(failed) => return failed,
    };
    if let Some(source) = deaths {
        if let Err(failed) = stream(&mut job, FileKind::Deaths, source, &elapsed, on_event) {
            return failed;
        }
    }
    if let Some(source) = births {
        if let Err(failed) = stream(&mut job, FileKind::Births, source, &elapsed, on_event) {
            return failed;
        }
    }
    job.finish(elapsed())
}

/// The `imr microdata` command that writes the same counts file from the same inputs, for the
/// page to show next to its result (file names as the user's, to be run where the files are),
/// every word shell-quoted ([`imr_escape::shell_join`]).
pub fn equivalent_command(
    deaths_name: Option<&str>,
    births_name: Option<&str>,
    options: &JobOptions,
    out: &str,
) -> String {
    let mut args: Vec<String> = vec!["imr".into(), "microdata".into()];
    let mut push = |words: &[&str]| args.extend(words.iter().map(|w| w.to_string()));
    let births = births_name.zip(options.births.as_ref());
    match deaths_name {
        Some(deaths) => {
            push(&["deaths", deaths]);
            if options.deaths.neonatal {
                push(&["--breakdown", "neonatal"]);
            }
            if options.deaths.cause {
                push(&["--breakdown", "cause"]);
            }
            if let Some((file, _)) = births {
                push(&["--births", file]);
            }
        }
        None => {
            push(&["births"]);
            if let Some((file, _)) = births {
                push(&[file]);
            }
        }
    }
    if let Some((_, columns)) = births {
        push(&["--births-year", columns.year.trim()]);
        push(&["--births-commune", columns.commune.trim()]);
        if columns.delimiter != ';' {
            push(&["--births-delimiter", &columns.delimiter.to_string()]);
        }
    }
    push(&["--out", out]);
    // One quoting rule for every command shown (POSIX sh single quotes, round-trip tested).
    imr_escape::shell_join(args)
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
            f.rows.rows_read,
            f.rows.rows_counted + f.rows.rows_not_infant + f.rows.rows_excluded
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
        assert_eq!((births.rows.rows_read, births.rows.rows_counted), (4, 3));
        assert_eq!(births.excluded[0].reason, Reason::UnknownCommune);
        assert_eq!(
            equivalent_command(Some("d.csv"), Some("n.csv"), &options, "conteos.csv"),
            "imr microdata deaths d.csv --births n.csv --births-year ANO_NAC --births-commune 2 --out conteos.csv"
        );
    }

    #[test]
    fn hostile_file_names_are_shell_quoted() {
        let command = equivalent_command(
            Some("x$(touch y)'.csv"),
            None,
            &JobOptions::default(),
            "out put.csv",
        );
        assert_eq!(
            command,
            "imr microdata deaths 'x$(touch y)'\\''.csv' --out 'out put.csv'"
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
            WorkerEvent::Failed { file, failure } => {
                assert_eq!(file, Some(FileKind::Deaths));
                let message = failure.to_string();
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
