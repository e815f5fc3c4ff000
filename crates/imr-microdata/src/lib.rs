//! imr-microdata: the health ministry's national microdata (one row per death, one row per
//! birth) streamed into commune-year counts.
//!
//! Files of hundreds of megabytes are pushed in chunks of any size (a record may straddle two
//! chunks); memory stays bounded by the aggregate (a few hundred communes × years), not by the
//! file. Pure Rust without threads or clocks, so the same code runs natively in the `imr`
//! command line and as wasm32 in a Web Worker of the page.
//!
//! - [`DeathsAggregator`]: recognises the deaths file by its shape (`;`-separated, Latin-1,
//!   ANO_DEF; FECHA_DEF; GLOSA_SEXO; EDAD_TIPO; EDAD_CANT; CODIGO_COMUNA_RESIDENCIA; …, with or
//!   without the header row) and counts infant deaths by year and commune of residence, with
//!   optional neonatal and ICD-10 chapter breakdowns; see [`deaths`] for which rows count.
//! - [`BirthsAggregator`]: births by year and mother's commune, columns chosen by the user.
//! - [`counts_csv`]: the aggregated CSV (`codigo_comuna,anio,nacimientos,defunciones`) that the
//!   CSV ingest of imr-core reads.
//! - [`job`]: one run of the page's Web Worker (deaths and births files read in chunks from a
//!   [`ChunkSource`], progress events, the final counts and summaries): the worker's protocol.
//! - [`synth`]: synthetic deaths files in exactly the official layout, with their known answer.
//!
//! Every row is accounted for: `rows_read = counted + not infant + excluded`, and exclusions
//! are counted by [`Reason`] with the first [`MAX_LINES_PER_REASON`] line numbers.

pub mod births;
mod births_head;
pub mod cause;
mod communes;
pub mod deaths;
mod error;
mod fields;
pub mod job;
pub mod layout;
mod lines;
mod output;
pub mod report;
pub mod synth;
mod throughput;

pub use births::{BirthsAggregate, BirthsAggregator, BirthsOptions, ColumnRef, HeaderMode};
pub use births_head::BirthsHead;
pub use cause::Chapter;
pub use deaths::{
    aggregate_deaths_reader, DeathsAggregate, DeathsAggregator, DeathsCell, DeathsOptions,
    NeonatalSplit,
};
pub use error::{ColumnError, Expected, JobFailure, MicrodataError, NotDeaths};
pub use job::{
    equivalent_command, run_job, BirthsColumns, BytesSource, ChunkSource, ExcludedRows, FileKind,
    FileSummary, Job, JobOptions, JobResult, WorkerEvent, DEFAULT_CHUNK_BYTES,
};
pub use layout::{looks_like_deaths_microdata, DeathsLayout, DEATHS_COLUMNS};
pub use lines::MAX_LINE_BYTES;
pub use output::{counts_csv, counts_header};
pub use report::{Excluded, Progress, Reason, RowAccount, MAX_LINES_PER_REASON, MAX_UNKNOWN_CODES};
pub use throughput::Throughput;
