//! `imr microdata deaths|births`: the health ministry's one-row-per-death (and per-birth) files
//! aggregated to the commune-year counts table that every other command (and the page) reads.
//! The files are streamed in chunks through the same job (`imr_microdata::run_job`) as the
//! page's Web Worker, so both write the same counts and report the same exclusions.

use super::CliError;
use imr_microdata::{
    run_job, BirthsColumns, ChunkSource, DeathsOptions, FileKind, FileSummary, JobOptions,
    WorkerEvent,
};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Infant deaths by commune of residence and year from the deaths microdata (ANO_DEF;
    /// FECHA_DEF; …; EDAD_TIPO; EDAD_CANT; CODIGO_COMUNA_RESIDENCIA; …, with or without header),
    /// optionally joined with births
    Deaths(DeathsArgs),
    /// Births by mother's commune of residence and year from a one-row-per-birth file
    Births(BirthsOnlyArgs),
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Breakdown {
    /// Neonatal (< 28 days), post-neonatal and age-not-precise columns
    Neonatal,
    /// One column per ICD-10 chapter of DIAG1
    Cause,
}

#[derive(clap::Args)]
struct BirthsArgs {
    /// Year column of the births file: a 1-based position or a header name
    #[arg(long, default_value = "1")]
    births_year: String,
    /// Mother's commune of residence column of the births file: a 1-based position or a header name
    #[arg(long)]
    births_commune: Option<String>,
    /// Field delimiter of the births file
    #[arg(long, default_value = ";")]
    births_delimiter: char,
}

#[derive(clap::Args)]
struct DeathsArgs {
    /// The deaths microdata file (`;`, Latin-1)
    file: PathBuf,
    /// Where to write `codigo_comuna,anio[,nacimientos],defunciones[,…]`
    #[arg(long)]
    out: PathBuf,
    /// Extra columns (repeatable)
    #[arg(long, value_enum)]
    breakdown: Vec<Breakdown>,
    /// A one-row-per-birth file to join as the nacimientos column
    #[arg(long)]
    births: Option<PathBuf>,
    #[command(flatten)]
    births_columns: BirthsArgs,
}

#[derive(clap::Args)]
struct BirthsOnlyArgs {
    /// The births microdata file
    file: PathBuf,
    /// Where to write codigo_comuna,anio,nacimientos
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    births_columns: BirthsArgs,
}

pub fn run(args: Args) -> Result<(), CliError> {
    // The page's worker runs the same job (imr_microdata::Job) on the same chunks.
    let (deaths, births, out, options) = match args.action {
        Action::Deaths(args) => {
            let births = match &args.births {
                Some(path) => Some((path.clone(), births_columns(&args.births_columns)?)),
                None => None,
            };
            let options = JobOptions {
                deaths: DeathsOptions {
                    neonatal: args.breakdown.contains(&Breakdown::Neonatal),
                    cause: args.breakdown.contains(&Breakdown::Cause),
                },
                births: births.as_ref().map(|(_, columns)| columns.clone()),
                ..JobOptions::default()
            };
            (
                Some(args.file),
                births.map(|(path, _)| path),
                args.out,
                options,
            )
        }
        Action::Births(args) => {
            let options = JobOptions {
                births: Some(births_columns(&args.births_columns)?),
                ..JobOptions::default()
            };
            (None, Some(args.file), args.out, options)
        }
    };
    let mut deaths = deaths.as_deref().map(PathSource::open).transpose()?;
    let mut births = births.as_deref().map(PathSource::open).transpose()?;
    let started = std::time::Instant::now();
    let clock = || started.elapsed().as_secs_f64() * 1000.0;
    let end = run_job(
        deaths.as_mut().map(|d| d as &mut dyn ChunkSource),
        births.as_mut().map(|b| b as &mut dyn ChunkSource),
        &options,
        &clock,
        &mut |_| {},
    );
    match end {
        WorkerEvent::Done(result) => {
            for file in &result.files {
                report(file);
            }
            // The input files' names as the source line, as the page's download writes it.
            let source: Vec<&str> = result.files.iter().map(|f| file_name(&f.name)).collect();
            let csv = imr_core::spreadsheet_csv::with_csv_header_in(
                super::csv_lang(),
                &source.join(", "),
                &super::input::today(),
                &result.counts_csv,
            );
            write_out(&out, &csv)
        }
        WorkerEvent::Failed { failure, .. } => Err(CliError::Input(failure.to_string())),
        WorkerEvent::Progress { .. } => unreachable!("run_job ends with Done or Failed"),
    }
}

/// The births columns as given; checked (positions from 1, ASCII delimiter) before any file is
/// read, with the same parsing as the page's worker job.
fn births_columns(args: &BirthsArgs) -> Result<BirthsColumns, CliError> {
    let commune = args.births_commune.as_deref().ok_or_else(|| {
        CliError::Usage(
            "--births-commune is needed: the column of the mother's commune of residence (a 1-based position or a header name)"
                .to_owned(),
        )
    })?;
    let columns = BirthsColumns {
        year: args.births_year.clone(),
        commune: commune.to_owned(),
        delimiter: args.births_delimiter,
    };
    columns
        .options()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(columns)
}

/// A file on disk read at offsets, for [`run_job`].
struct PathSource {
    name: String,
    file: File,
    size: u64,
}

impl PathSource {
    fn open(path: &Path) -> Result<PathSource, CliError> {
        let input = |e: std::io::Error| CliError::Input(format!("{}: {e}", path.display()));
        let file = File::open(path).map_err(input)?;
        let size = file.metadata().map_err(input)?.len();
        Ok(PathSource {
            name: path.display().to_string(),
            file,
            size,
        })
    }
}

impl ChunkSource for PathSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn read_at(&mut self, offset: u64, buffer: &mut Vec<u8>) -> Result<(), String> {
        // The job's failure names the file.
        let cannot = |e: std::io::Error| e.to_string();
        self.file.seek(SeekFrom::Start(offset)).map_err(cannot)?;
        let mut filled = 0;
        while filled < buffer.len() {
            match self.file.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(cannot(e)),
            }
        }
        buffer.truncate(filled);
        Ok(())
    }
}

/// The file name of a path as given (the source line names files, not folders).
fn file_name(path: &str) -> &str {
    Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

fn write_out(path: &Path, csv: &str) -> Result<(), CliError> {
    std::fs::write(path, csv)?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// What a file gave, on standard error: every row counted, not infant or excluded.
fn report(file: &FileSummary) {
    let header = if file.has_header {
        "with header"
    } else {
        "no header"
    };
    match file.kind {
        FileKind::Deaths => eprintln!(
            "{}: {} rows ({header}): {} infant deaths counted, {} not infant, {} excluded; {} Ñuble codes re-coded",
            file.name, file.rows.rows_read, file.rows.rows_counted, file.rows.rows_not_infant, file.rows.rows_excluded, file.rows.recoded_rows
        ),
        FileKind::Births => eprintln!(
            "{}: {} rows ({header}): {} births counted, {} excluded; {} Ñuble codes re-coded",
            file.name, file.rows.rows_read, file.rows.rows_counted, file.rows.rows_excluded, file.rows.recoded_rows
        ),
    }
    for e in &file.excluded {
        let lines: Vec<String> = e.first_lines.iter().take(8).map(u64::to_string).collect();
        let more = if (e.count as usize) > lines.len() {
            ", …"
        } else {
            ""
        };
        eprintln!(
            "not used: {}, {} row(s) (line {}{more}): {}",
            file.name,
            e.count,
            lines.join(", "),
            e.description
        );
    }
    if !file.unknown_codes.is_empty() {
        eprintln!("unknown commune codes: {}", file.unknown_codes_listed(10));
    }
}
