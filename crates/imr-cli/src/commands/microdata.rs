//! `imr microdata deaths|births`: the health ministry's one-row-per-death (and per-birth) files
//! aggregated to the commune-year counts table that every other command (and the page) reads.
//! The file is streamed in 1 MiB chunks, as the page's Web Worker does, with the same engine.

use super::CliError;
use imr_microdata::{
    counts_csv, BirthsAggregate, BirthsAggregator, BirthsColumns, BirthsOptions, DeathsAggregate,
    DeathsAggregator, DeathsOptions, Excluded, MicrodataError, Progress,
};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

const CHUNK_BYTES: usize = 1 << 20;

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
    /// Where to write codigo_comuna,anio[,nacimientos],defunciones[,…]
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
    match args.action {
        Action::Deaths(args) => {
            let options = DeathsOptions {
                neonatal: args.breakdown.contains(&Breakdown::Neonatal),
                cause: args.breakdown.contains(&Breakdown::Cause),
            };
            let births_options = match &args.births {
                Some(_) => Some(births_options(&args.births_columns)?),
                None => None,
            };
            let deaths = aggregate_deaths(&args.file, options)?;
            report_deaths(&args.file, &deaths);
            let births = match (&args.births, births_options) {
                (Some(path), Some(options)) => {
                    let births = aggregate_births(path, options)?;
                    report_births(path, &births);
                    Some(births)
                }
                _ => None,
            };
            write_out(&args.out, &counts_csv(Some(&deaths), births.as_ref()))
        }
        Action::Births(args) => {
            let options = births_options(&args.births_columns)?;
            let births = aggregate_births(&args.file, options)?;
            report_births(&args.file, &births);
            write_out(&args.out, &counts_csv(None, Some(&births)))
        }
    }
}

fn births_options(args: &BirthsArgs) -> Result<BirthsOptions, CliError> {
    let commune = args.births_commune.as_deref().ok_or_else(|| {
        CliError::Usage(
            "--births-commune is needed: the column of the mother's commune of residence (a 1-based position or a header name)"
                .to_owned(),
        )
    })?;
    // The same parsing as the page's worker job (`BirthsColumns`), so both accept the same input.
    BirthsColumns {
        year: args.births_year.clone(),
        commune: commune.to_owned(),
        delimiter: args.births_delimiter,
    }
    .options()
    .map_err(CliError::Usage)
}

/// Feeds a file to an aggregator in chunks.
fn stream(
    path: &Path,
    mut push: impl FnMut(&[u8]) -> Result<Progress, MicrodataError>,
) -> Result<(), CliError> {
    let input = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", path.display()));
    let mut file = File::open(path).map_err(|e| input(&e))?;
    let mut buffer = vec![0u8; CHUNK_BYTES];
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(input(&e)),
        };
        push(&buffer[..n]).map_err(|e| input(&e))?;
    }
}

fn aggregate_deaths(path: &Path, options: DeathsOptions) -> Result<DeathsAggregate, CliError> {
    let mut aggregator = DeathsAggregator::new(options);
    stream(path, |chunk| aggregator.push(chunk))?;
    aggregator
        .finish()
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

fn aggregate_births(path: &Path, options: BirthsOptions) -> Result<BirthsAggregate, CliError> {
    let mut aggregator = BirthsAggregator::new(options);
    stream(path, |chunk| aggregator.push(chunk))?;
    aggregator
        .finish()
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

fn write_out(path: &Path, csv: &str) -> Result<(), CliError> {
    std::fs::write(path, csv)?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

fn report_excluded(path: &Path, excluded: &[Excluded], unknown_codes: &[(String, u64)]) {
    for e in excluded {
        let lines: Vec<String> = e.first_lines.iter().take(8).map(u64::to_string).collect();
        let more = if (e.count as usize) > lines.len() {
            ", …"
        } else {
            ""
        };
        eprintln!(
            "not used: {}, {} row(s) (line {}{more}): {}",
            path.display(),
            e.count,
            lines.join(", "),
            e.description
        );
    }
    if !unknown_codes.is_empty() {
        let listed: Vec<String> = unknown_codes
            .iter()
            .take(10)
            .map(|(code, n)| {
                let code = if code.is_empty() { "(blank)" } else { code };
                format!("{code} ×{n}")
            })
            .collect();
        eprintln!("unknown commune codes: {}", listed.join(", "));
    }
}

fn report_deaths(path: &Path, deaths: &DeathsAggregate) {
    eprintln!(
        "{}: {} rows ({}): {} infant deaths counted, {} not infant, {} excluded; {} Ñuble codes re-coded",
        path.display(),
        deaths.rows_read,
        if deaths.layout.has_header {
            "with header"
        } else {
            "no header"
        },
        deaths.infant_deaths,
        deaths.non_infant_rows,
        deaths.rows_excluded,
        deaths.recoded_rows
    );
    report_excluded(path, &deaths.excluded, &deaths.unknown_codes);
}

fn report_births(path: &Path, births: &BirthsAggregate) {
    eprintln!(
        "{}: {} rows ({}): {} births counted, {} excluded; {} Ñuble codes re-coded",
        path.display(),
        births.rows_read,
        if births.has_header {
            "with header"
        } else {
            "no header"
        },
        births.births,
        births.rows_excluded,
        births.recoded_rows
    );
    report_excluded(path, &births.excluded, &births.unknown_codes);
}
