//! The sheets each spreadsheet given to a data subcommand reads: `--sheet NAME` (every
//! workbook), `--sheet FILE=NAME` (that workbook only), `--sheets all` — one choice per workbook,
//! read by the page's worker's rule (`imr_core::ingest::sheet::read_sheets`).

use super::CliError;
use imr_core::ingest::sheet::{self, LeftOut, SheetsRead, Workbook};
use imr_core::ingest::{RawTable, SheetChoice};
use std::path::{Path, PathBuf};

/// The sheet options of a data subcommand (`InputArgs`' `files`, `--sheet`, `--sheets all`).
#[derive(Debug, Clone, Copy)]
pub(super) struct SheetArgs<'a> {
    pub files: &'a [PathBuf],
    pub sheet: &'a [String],
    pub all: bool,
}

/// A `--sheet` value: the sheet's name and, for `FILE=NAME` whose FILE is an input file (its
/// path as typed or its name), that file's path. Any other value is a sheet's name, `=` and
/// all, as before FILE=NAME existed.
fn split<'a>(files: &'a [PathBuf], value: &'a str) -> (Option<&'a Path>, &'a str) {
    for path in files {
        let typed = path.to_string_lossy();
        let name = path.file_name().map(|n| n.to_string_lossy());
        for file in [Some(typed), name].into_iter().flatten() {
            if let Some(sheet) = value
                .strip_prefix(file.as_ref())
                .and_then(|rest| rest.strip_prefix('='))
            {
                return (Some(path.as_path()), sheet);
            }
        }
    }
    (None, value)
}

/// The sheets the arguments choose of the workbook at `path`: its own `--sheet FILE=NAME`s,
/// else the `--sheet NAME`s for every workbook, else `--sheets all`, else none.
pub(super) fn choice_for(args: SheetArgs, path: &Path) -> SheetChoice {
    let (mut own, mut every) = (Vec::new(), Vec::new());
    for value in args.sheet {
        match split(args.files, value) {
            (Some(file), sheet) if file == path => own.push(sheet.to_owned()),
            (Some(_), _) => {}
            (None, sheet) => every.push(sheet.to_owned()),
        }
    }
    if !own.is_empty() {
        SheetChoice::Named(own)
    } else if !every.is_empty() {
        SheetChoice::Named(every)
    } else if args.all {
        SheetChoice::All
    } else {
        SheetChoice::Unspecified
    }
}

/// Before any file is read: `--sheet NAME` for every workbook and `--sheets all` not both.
pub(super) fn check_choices(args: SheetArgs) -> Result<(), CliError> {
    if args.all && args.sheet.iter().any(|v| split(args.files, v).0.is_none()) {
        return Err(CliError::Usage(
            "--sheet NAME and --sheets all both choose the sheets of every workbook: give one, \
             or --sheet FILE=NAME for one workbook beside --sheets all"
                .into(),
        ));
    }
    Ok(())
}

/// After the files are read: a `--sheet FILE=NAME` only for a spreadsheet, and a sheet choice
/// only with some spreadsheet among the files (`workbooks`, their paths; `source` names the
/// files in the error).
pub(super) fn check(args: SheetArgs, workbooks: &[&Path], source: &str) -> Result<(), CliError> {
    let split: Vec<(Option<&Path>, &str)> =
        args.sheet.iter().map(|v| split(args.files, v)).collect();
    if let Some((file, sheet)) = split
        .iter()
        .find_map(|(f, s)| f.filter(|f| !workbooks.contains(f)).map(|f| (f, s)))
    {
        return Err(CliError::Usage(format!(
            "--sheet {}={sheet}: {} is not a spreadsheet (xlsx, xls, ods or XML Spreadsheet \
             2003)",
            file.display(),
            file.display()
        )));
    }
    if workbooks.is_empty() && (!args.sheet.is_empty() || args.all) {
        return Err(CliError::Usage(format!(
            "--sheet/--sheets: no file is a spreadsheet (xlsx, xls, ods or XML Spreadsheet \
             2003): {source}"
        )));
    }
    Ok(())
}

/// The tables of the sheets of the spreadsheet at `path` that the arguments choose
/// ([`choice_for`]): named sheets (each must exist), `--sheets all` (the sheets named by a year
/// when some are, each other sheet named on stderr as left out; a sheet without cells left out
/// so too), or the only sheet of a workbook of one; a workbook of several without a choice is
/// a usage error listing them.
pub(super) fn read(
    name: &str,
    path: &Path,
    bytes: Vec<u8>,
    args: SheetArgs,
) -> Result<Vec<RawTable>, CliError> {
    let mut book = Workbook::open(name, bytes).map_err(|e| CliError::Input(e.to_string()))?;
    match sheet::read_sheets(&mut book, &choice_for(args, path))
        .map_err(|e| CliError::Input(e.to_string()))?
    {
        SheetsRead::Choose { sheets } => Err(CliError::Usage(format!(
            "{name} has {} sheets ({}): choose one with --sheet NAME (--sheet {name}=NAME for \
             this workbook alone), or read all with --sheets all",
            sheets.len(),
            sheet::sheet_list(&sheets, imr_core::Lang::En)
        ))),
        SheetsRead::Tables { tables, left_out } => {
            for left in left_out {
                match left {
                    LeftOut::NotAYear { file, sheet } => eprintln!(
                        "{file}: sheet \"{sheet}\" left out: --sheets all reads the sheets named \
                         by a year (read it with --sheet \"{sheet}\")"
                    ),
                    LeftOut::Empty { file, sheet } => eprintln!(
                        "{}: left out: the sheet has no cells",
                        sheet::sheet_label(&file, &sheet)
                    ),
                }
            }
            Ok(tables)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_value_names_a_file_only_when_its_file_is_an_input() {
        let files = vec![PathBuf::from("dir/a.xlsx"), PathBuf::from("b=c.xlsx")];
        assert_eq!(
            split(&files, "a.xlsx=2010"),
            (Some(Path::new("dir/a.xlsx")), "2010")
        );
        assert_eq!(
            split(&files, "dir/a.xlsx=x=y"),
            (Some(Path::new("dir/a.xlsx")), "x=y")
        );
        assert_eq!(
            split(&files, "b=c.xlsx=2011"),
            (Some(Path::new("b=c.xlsx")), "2011")
        );
        assert_eq!(split(&files, "c.xlsx=2010"), (None, "c.xlsx=2010"));
        assert_eq!(split(&files, "2010"), (None, "2010"));
    }
}
