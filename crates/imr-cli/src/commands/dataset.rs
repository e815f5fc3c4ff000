//! `imr dataset build|check`: regenerate (or verify) the bundled Chilean dataset in
//! public/data from the raw extracts in data/raw. The boundary file is made separately by
//! scripts/build-boundaries.sh (mapshaper).
use super::CliError;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Write chile_imr_2001_2021.csv, codebook.csv, cut_2018.csv and nuble_crosswalk.csv
    Build(Paths),
    /// Build in memory, verify it against the sources' own totals (infant deaths against INE's
    /// national rows, births against INE's and DEIS's published totals, reconstructed deaths
    /// against every SINIM rate, SINIM's two-year lag by the engine's lag test), and fail
    /// (exit 1) if a check fails or the files in --out differ from the build
    Check(Paths),
}

#[derive(clap::Args)]
struct Paths {
    /// Directory of the raw extracts (see data/raw/*/PROVENANCE.md)
    #[arg(long, default_value = "data/raw")]
    raw: PathBuf,
    /// Output directory
    #[arg(long, default_value = "public/data")]
    out: PathBuf,
    /// List every unused raw row with its line and reason (default: counts per reason)
    #[arg(long)]
    verbose: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let (paths, write) = match args.action {
        Action::Build(paths) => (paths, true),
        Action::Check(paths) => (paths, false),
    };
    let build = imr_dataset::build(&paths.raw).map_err(|e| CliError::Input(e.to_string()))?;
    report_exclusions(&build.exclusions, paths.verbose);
    let failed: Vec<&str> = build
        .checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.name)
        .collect();
    for check in &build.checks {
        let verdict = if check.passed { "ok" } else { "FAILED" };
        eprintln!("check {verdict}: {}: {}", check.name, check.detail);
    }
    if !failed.is_empty() {
        return Err(CliError::Input(format!(
            "the build does not match its sources: {}",
            failed.join("; ")
        )));
    }
    if write {
        build.write_to(&paths.out)?;
        for file in &build.files {
            eprintln!(
                "wrote {} ({} bytes)",
                paths.out.join(file.name).display(),
                file.bytes.len()
            );
        }
        eprintln!(
            "{} communes × {} years",
            build.communes,
            imr_dataset::YEARS.count()
        );
        Ok(())
    } else {
        let stale = build.differences_from(&paths.out);
        if stale.is_empty() {
            eprintln!(
                "{}: every generated file is up to date",
                paths.out.display()
            );
            Ok(())
        } else {
            Err(CliError::Input(format!(
                "{}: out of date with {}: {} (run `imr dataset build`)",
                paths.out.display(),
                paths.raw.display(),
                stale.join(", ")
            )))
        }
    }
}

/// Every raw row not used is reported: by default one line per file and reason with the count
/// and the first line numbers; with `--verbose`, every line.
fn report_exclusions(exclusions: &[imr_dataset::Exclusion], verbose: bool) {
    let mut groups: BTreeMap<(&str, &str), Vec<u64>> = BTreeMap::new();
    for exclusion in exclusions {
        groups
            .entry((exclusion.file, exclusion.reason.as_str()))
            .or_default()
            .push(exclusion.line);
    }
    for ((file, reason), lines) in groups {
        let shown: Vec<String> = lines
            .iter()
            .take(if verbose { usize::MAX } else { 8 })
            .map(u64::to_string)
            .collect();
        let more = if shown.len() < lines.len() {
            ", …"
        } else {
            ""
        };
        eprintln!(
            "not used: {file}, {} row(s) (line {}{more}): {reason}",
            lines.len(),
            shown.join(", ")
        );
    }
}
