//! `imr-gen-deaths`: writes a synthetic deaths microdata file (the health ministry's layout:
//! Latin-1, `;`, optional header) with its known answer.
//!
//! ```text
//! imr-gen-deaths --out deaths.csv (--rows N | --mb M) [--seed S] [--no-header] [--crlf]
//!                [--years 2010-2019] [--infant-share 0.015] [--problem-share 0.002]
//!                [--expected counts.csv [--breakdown neonatal|cause]...]
//! ```
//! The expected counts file is what `imr microdata deaths` must write for the same breakdowns.

use imr_microdata::synth::{write_deaths, SynthOptions, SynthSize};
use std::io::BufWriter;
use std::process::ExitCode;

const USAGE: &str = "usage: imr-gen-deaths --out FILE (--rows N | --mb M) [--seed S] [--no-header] [--crlf] \
[--years FIRST-LAST] [--infant-share P] [--problem-share P] [--expected FILE [--breakdown neonatal|cause]...]";

struct Args {
    out: String,
    expected: Option<String>,
    neonatal: bool,
    cause: bool,
    options: SynthOptions,
}

fn value<T: std::str::FromStr>(flag: &str, raw: Option<String>) -> Result<T, String> {
    let raw = raw.ok_or_else(|| format!("{flag} needs a value"))?;
    raw.parse()
        .map_err(|_| format!("{flag}: cannot read \"{raw}\""))
}

fn parse(mut argv: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        out: String::new(),
        expected: None,
        neonatal: false,
        cause: false,
        options: SynthOptions::default(),
    };
    let mut sized = false;
    while let Some(flag) = argv.next() {
        match flag.as_str() {
            "--out" => args.out = value(&flag, argv.next())?,
            "--expected" => args.expected = Some(value(&flag, argv.next())?),
            "--rows" => {
                args.options.size = SynthSize::Rows(value(&flag, argv.next())?);
                sized = true;
            }
            "--mb" => {
                let mb: f64 = value(&flag, argv.next())?;
                args.options.size = SynthSize::Bytes((mb * 1024.0 * 1024.0) as u64);
                sized = true;
            }
            "--seed" => args.options.seed = value(&flag, argv.next())?,
            "--no-header" => args.options.header = false,
            "--crlf" => args.options.crlf = true,
            "--infant-share" => args.options.infant_share = value(&flag, argv.next())?,
            "--problem-share" => args.options.problem_share = value(&flag, argv.next())?,
            "--years" => {
                let raw: String = value(&flag, argv.next())?;
                let (first, last) = raw
                    .split_once('-')
                    .ok_or_else(|| format!("--years: expected FIRST-LAST, found \"{raw}\""))?;
                args.options.first_year = value("--years", Some(first.to_owned()))?;
                args.options.last_year = value("--years", Some(last.to_owned()))?;
                if !(1800..=2200).contains(&args.options.first_year)
                    || args.options.last_year < args.options.first_year
                    || args.options.last_year > 2200
                {
                    return Err(format!("--years: {raw} is not a range of years 1800-2200"));
                }
            }
            "--breakdown" => match value::<String>(&flag, argv.next())?.as_str() {
                "neonatal" => args.neonatal = true,
                "cause" => args.cause = true,
                other => return Err(format!("--breakdown: neonatal or cause, not \"{other}\"")),
            },
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument \"{other}\"\n{USAGE}")),
        }
    }
    if args.out.is_empty() || !sized {
        return Err(USAGE.to_owned());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("imr-gen-deaths: {message}");
            return ExitCode::from(2);
        }
    };
    let run = || -> std::io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(&args.out)?);
        let expected = write_deaths(&mut out, &args.options)?;
        if let Some(path) = &args.expected {
            std::fs::write(path, expected.counts_csv(args.neonatal, args.cause))?;
        }
        eprintln!(
            "wrote {} ({} bytes, {} rows: {} infant deaths counted, {} not infant, {} excluded)",
            args.out,
            expected.bytes,
            expected.rows,
            expected.infant_deaths,
            expected.non_infant_rows,
            expected.excluded.values().map(|(n, _)| n).sum::<u64>()
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("imr-gen-deaths: {err}");
            ExitCode::from(1)
        }
    }
}
