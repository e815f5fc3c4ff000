//! Reading input files into a validated panel: the options every data subcommand shares.

use super::CliError;
use imr_core::analysis::{is_saved_analysis, SavedAnalysis};
use imr_core::ingest::{
    build_panel, columns::find_column, fragment::parse_fragment, parse_rate_lag, parse_year,
    sheet_choice::sheet_year, table_year, workbook_format, year_in_name, ColumnRoles,
    IngestOptions, RawTable, Role, MAX_RATE_LAG, MAX_YEAR, MIN_YEAR,
};
use imr_core::panel::Panel;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Input files and column choices. A flag that is absent leaves the guess from the column names.
#[derive(clap::Args, Debug, Clone)]
pub struct InputArgs {
    /// CSV files or spreadsheets (.xlsx, .xls, .ods, XML Spreadsheet 2003 .xls/.xml, told by
    /// their contents): data with births and deaths (or a rate) are stacked; files without them
    /// are commune characteristics joined by code (and year when they have a year column). A
    /// saved analysis of the page (.json) is read as its files with the columns chosen there
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The sheet of a spreadsheet to read, by name (repeat for several: --sheet 2010 --sheet
    /// 2011), in every workbook given; FILE=NAME for one workbook only (FILE its path as given
    /// or its name; e.g. --sheet a.xlsx=2010 --sheet b.xlsx=Hoja1), which then reads only its
    /// own. A workbook of one sheet needs none. Title rows above the header, totals and notes
    /// rows are found and reported; each row is named `file [sheet]` and its row number
    #[arg(long, value_name = "NAME")]
    pub sheet: Vec<String>,
    /// `--sheets all`: every sheet of each spreadsheet not given --sheet FILE=NAME. When some
    /// sheets are named by a year (INE's "2000" … "2015"), only those are read, each sheet's
    /// name the year of its rows when it has no year column; the others are named on stderr
    #[arg(long, value_name = "all", value_parser = ["all"])]
    pub sheets: Option<String>,
    /// Column with the area code (guessed from codigo_comuna, cod_comuna, cut, codigo, cod, comuna, code, id: a code column before a column of names)
    #[arg(long, value_name = "COL")]
    pub entity: Option<String>,
    /// Column with the year (guessed from año, anio, ano, year). A file of one year without one:
    /// --time-value; `imr fit` reads data without one as a cross-section
    #[arg(long, value_name = "COL")]
    pub time: Option<String>,
    /// Column with infant deaths (guessed from defunciones, defunciones_infantiles, muertes_menores_1,
    /// deaths, or a column named by the age under one: "Men de 1 año", "< 1 año", "Menores de un año")
    #[arg(long, value_name = "COL")]
    pub deaths: Option<String>,
    /// Column with live births (guessed from nacimientos, nacidos_vivos, births)
    #[arg(long, value_name = "COL")]
    pub births: Option<String>,
    /// Column with a published rate per 1,000, used to derive deaths when there is no deaths column
    /// (guessed from tmi, tasa, imr, rate)
    #[arg(long, value_name = "COL")]
    pub rate: Option<String>,
    /// The year of every row of a data file without a year column; FILE=YEAR for one file
    /// (its path as given or its name; repeat for several). Without it, such a file or sheet
    /// takes the year its name holds (defunciones_2022.csv, sheet "2010"); files with a year
    /// column keep their years. A saved analysis brings the year chosen on the page
    #[arg(long, value_name = "YEAR|FILE=YEAR", allow_hyphen_values = true,
          value_parser = parse_time_value)]
    pub time_value: Vec<TimeValue>,
    /// The publication lag of the rate column, in years (0 to 10): the rate in the row of year Y
    /// describes year Y − K (SINIM's infant mortality rate: 2). Each rate is paired with the
    /// births of the year it describes; rows left without a rate are excluded naming the lag.
    /// 0, the default, reads each rate as of its own year; `imr rates` and `imr inequality`
    /// report which lag the data show (`rate_lag`). A saved analysis brings the page's lag
    #[arg(long, value_name = "K",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_RATE_LAG)))]
    pub rate_lag: Option<u32>,
}

/// A `--time-value`: a year for every file without a year column, or (`FILE=YEAR`) for one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeValue {
    /// The file it is for, as typed; `None` for every file.
    pub file: Option<String>,
    pub year: i64,
}

/// A `--time-value` as typed: `YEAR` or `FILE=YEAR` (split at the last `=`), the year a whole
/// number within [`MIN_YEAR`]..=[`MAX_YEAR`].
fn parse_time_value(text: &str) -> Result<TimeValue, String> {
    let (file, year) = match text.rsplit_once('=') {
        Some((file, year)) if !file.is_empty() => (Some(file.to_owned()), year),
        Some(_) => return Err(format!("`{text}`: give a file before `=` (FILE=YEAR)")),
        None => (None, text),
    };
    let year = parse_year(year.trim()).ok_or_else(|| {
        format!("`{year}` is not a year (a whole number from {MIN_YEAR} to {MAX_YEAR})")
    })?;
    Ok(TimeValue { file, year })
}

impl InputArgs {
    /// The sheet options, for the reading of spreadsheets (commands/sheets.rs).
    fn sheet_args(&self) -> super::sheets::SheetArgs<'_> {
        super::sheets::SheetArgs {
            files: &self.files,
            sheet: &self.sheet,
            all: self.sheets.is_some(),
        }
    }

    /// The year of every file without a year column (`--time-value YEAR`), if given.
    pub fn time_value_for_all(&self) -> Option<i64> {
        self.time_value
            .iter()
            .rev()
            .find(|t| t.file.is_none())
            .map(|t| t.year)
    }

    /// The year given to file `path` alone (`--time-value FILE=YEAR`, FILE its path as typed or
    /// its name), if any.
    fn time_value_of(&self, path: &std::path::Path) -> Option<i64> {
        let name = path.file_name().map(|n| n.to_string_lossy());
        self.time_value
            .iter()
            .rev()
            .find(|t| {
                t.file
                    .as_deref()
                    .is_some_and(|f| std::path::Path::new(f) == path || name.as_deref() == Some(f))
            })
            .map(|t| t.year)
    }

    /// The data source written into every export: the input files' names, comma-separated (the
    /// page writes the names of its files the same way).
    pub fn source(&self) -> String {
        self.files
            .iter()
            .map(|f| {
                f.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `body` (a CSV export) preceded by the provenance comment lines with today's date, in
    /// the language of `--csv-lang` (the machine CSV by default).
    pub fn with_csv_header(&self, body: &str) -> String {
        imr_core::spreadsheet_csv::with_csv_header_in(
            super::csv_lang(),
            &self.source(),
            &today(),
            body,
        )
    }

    fn overrides(&self) -> [(Role, Option<&str>); 5] {
        [
            (Role::Entity, self.entity.as_deref()),
            (Role::Time, self.time.as_deref()),
            (Role::Births, self.births.as_deref()),
            (Role::Deaths, self.deaths.as_deref()),
            (Role::Rate, self.rate.as_deref()),
        ]
    }
}

/// The environment variable that fixes the date line of every export: seconds since
/// 1970-01-01 00:00 UTC, as `date +%s` prints them (reproducible-builds.org's
/// `SOURCE_DATE_EPOCH`, which Debian's and Nix's builds also set). With it, an export written
/// today and one written next year are the same bytes.
pub const SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// The date of this run's exports when [`SOURCE_DATE_EPOCH`] fixes it (set once, by `main`).
static FIXED_DATE: OnceLock<String> = OnceLock::new();

/// The export date that a value of [`SOURCE_DATE_EPOCH`] fixes: `None` when the variable is
/// unset or empty (exports carry today's date); an error, naming the variable and the value,
/// when it is not a whole number of seconds (the specification asks tools to fail then rather
/// than guess).
pub fn fixed_date(value: Option<&std::ffi::OsStr>) -> Result<Option<String>, CliError> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let seconds = value
        .to_str()
        .filter(|v| {
            let digits = v.strip_prefix('-').unwrap_or(v);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        })
        .and_then(|v| v.parse::<i64>().ok())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{SOURCE_DATE_EPOCH}={} is not a date: it must be whole seconds since \
                 1970-01-01 UTC, as `date +%s` prints them (e.g. {SOURCE_DATE_EPOCH}=1764547200 \
                 dates exports 2025-12-01)",
                value.to_string_lossy()
            ))
        })?;
    Ok(Some(imr_core::provenance::date_from_unix_seconds(seconds)))
}

/// Fixes the date of this run's exports (from [`SOURCE_DATE_EPOCH`]); called once, by `main`.
pub fn set_fixed_date(date: String) {
    let _ = FIXED_DATE.set(date);
}

/// The date line of every export (`YYYY-MM-DD`): the date [`SOURCE_DATE_EPOCH`] fixes, else
/// today's date in UTC (the page uses the browser's clock in UTC).
pub fn today() -> String {
    if let Some(date) = FIXED_DATE.get() {
        return date.clone();
    }
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    imr_core::provenance::date_from_unix_seconds(seconds)
}

/// Reads every file, applies the column choices and validates the rows.
pub fn load_panel(args: &InputArgs) -> Result<Panel, CliError> {
    load_panel_with(args, &IngestOptions::default())
}

/// [`load_panel`] with the build's options (`imr fit --fe` keeps repeated keys).
pub fn load_panel_with(args: &InputArgs, options: &IngestOptions) -> Result<Panel, CliError> {
    let mut tables = Vec::with_capacity(args.files.len());
    let mut preset = Vec::with_capacity(args.files.len());
    // The year of files without a year column and the rates' lag: the flag's, else a saved
    // analysis's.
    let mut time_value = args.time_value_for_all();
    let mut rate_lag = args.rate_lag;
    check_time_values(args)?;
    super::sheets::check_choices(args.sheet_args())?;
    let mut workbooks: Vec<&std::path::Path> = Vec::new();
    for path in &args.files {
        let bytes = std::fs::read(path).map_err(|e| {
            CliError::Input(format!("{}: cannot read the file: {e}", path.display()))
        })?;
        let name = path.display().to_string();
        if is_saved_analysis(&bytes) {
            // A saved analysis of the page: its files, with the roles chosen there.
            let analysis = SavedAnalysis::from_json(&name, &bytes)
                .map_err(|e| CliError::Input(e.to_string()))?;
            if time_value.is_none() {
                time_value = saved_time_value(&analysis.options);
            }
            if rate_lag.is_none() {
                rate_lag = parse_fragment(&analysis.options)
                    .get("rate-lag")
                    .and_then(|v| parse_rate_lag(v));
            }
            let saved = analysis
                .tables_and_roles(&name)
                .map_err(|e| CliError::Input(e.to_string()))?;
            for ((mut table, roles), sheet) in saved.into_iter().zip(analysis.sheets()) {
                // Dated as the page dated it: the year the analysis gives the file, else its
                // name's (a sheet's, else its workbook's) unless a year is given for every file
                // (the flag's or the analysis').
                let named = match &sheet {
                    Some(o) => sheet_year(&o.workbook, &o.sheet),
                    None => year_in_name(&table.file),
                };
                table.time_given = table_year(table.time_given, time_value, named);
                tables.push(table);
                preset.push(roles);
            }
        } else if workbook_format(&bytes).is_some() {
            workbooks.push(path);
            for mut table in super::sheets::read(&name, path, bytes, args.sheet_args())? {
                table.time_given = year_of(args, path, Some(&table.file));
                preset.push(table.guessed_roles.clone());
                tables.push(table);
            }
        } else {
            // The bytes become the table's text (no copy of the file).
            let mut table =
                RawTable::from_vec(&name, bytes).map_err(|e| CliError::Input(e.to_string()))?;
            table.time_given = year_of(args, path, None);
            preset.push(table.guessed_roles.clone());
            tables.push(table);
        }
    }
    super::sheets::check(args.sheet_args(), &workbooks, &args.source())?;
    let roles = choose_roles(&tables, preset, args)?;
    let options = IngestOptions {
        time_value: time_value.or(options.time_value),
        rate_lag: rate_lag.or(options.rate_lag),
        ..options.clone()
    };
    build_panel(&tables, &roles, &options).map_err(|e| CliError::Input(e.to_string()))
}

/// Each `--time-value FILE=YEAR` names a file given, and `--time-value YEAR` comes once.
fn check_time_values(args: &InputArgs) -> Result<(), CliError> {
    if args.time_value.iter().filter(|t| t.file.is_none()).count() > 1 {
        return Err(CliError::Usage(
            "--time-value YEAR is given more than once: give it once, or FILE=YEAR per file".into(),
        ));
    }
    for t in &args.time_value {
        let Some(file) = &t.file else { continue };
        let names = |p: &PathBuf| {
            std::path::Path::new(file) == p.as_path()
                || p.file_name()
                    .is_some_and(|n| n.to_string_lossy() == file.as_str())
        };
        if !args.files.iter().any(names) {
            return Err(CliError::Usage(format!(
                "--time-value {file}={}: no input file is {file} (files: {})",
                t.year,
                args.source()
            )));
        }
    }
    Ok(())
}

/// The year of the rows of file `path` (of its sheet `sheet_label`, `file [sheet]`, for a
/// spreadsheet) when it has no year column: `--time-value FILE=YEAR` for it; else, without a
/// `--time-value YEAR` for every file, the year its sheet's name holds, else its file's name
/// ([`year_in_name`]); `None` leaves it to `--time-value YEAR`. A table with a year column
/// keeps its own years whatever this says.
fn year_of(args: &InputArgs, path: &std::path::Path, sheet_label: Option<&str>) -> Option<i64> {
    let sheet = sheet_label
        .and_then(|label| label.rsplit_once(" ["))
        .and_then(|(_, sheet)| sheet.strip_suffix(']'))
        .and_then(year_in_name);
    let named = sheet.or_else(|| {
        path.file_name()
            .and_then(|n| year_in_name(&n.to_string_lossy()))
    });
    // The page's rule too (its year per file).
    table_year(args.time_value_of(path), args.time_value_for_all(), named)
}

/// The year of files without a year column that a saved analysis's view options carry
/// (`time-value=2023`, as the page's link writes it); `None` when absent, empty or not a year.
fn saved_time_value(options: &str) -> Option<i64> {
    parse_fragment(options)
        .get("time-value")
        .and_then(|v| parse_year(v))
}

/// The guessed (or saved) roles of each table with the user's choices applied. A named column must exist
/// in at least one file; in files that lack it, the guess for that role is dropped when another
/// column of the file was guessed for it, so that one flag means one column everywhere.
fn choose_roles(
    tables: &[RawTable],
    mut roles: Vec<ColumnRoles>,
    args: &InputArgs,
) -> Result<Vec<ColumnRoles>, CliError> {
    for (role, wanted) in args.overrides() {
        let Some(wanted) = wanted else { continue };
        let mut found = false;
        for (table, r) in tables.iter().zip(roles.iter_mut()) {
            match find_column(&table.columns, wanted) {
                Some(i) => {
                    // The column leaves any role it was guessed for.
                    for other in Role::ALL {
                        if r.get(other) == Some(i) {
                            r.set(other, None);
                        }
                    }
                    r.set(role, Some(i));
                    found = true;
                }
                None if matches!(role, Role::Births | Role::Deaths | Role::Rate) => {
                    r.set(role, None)
                }
                None => {}
            }
        }
        if !found {
            let mut columns: Vec<&str> = tables
                .iter()
                .flat_map(|t| t.columns.iter().map(String::as_str))
                .collect();
            columns.dedup();
            return Err(CliError::Usage(format!(
                "--{}: no file has a column named `{wanted}` (columns are: {})",
                role.label(),
                columns.join(", ")
            )));
        }
    }
    Ok(roles)
}
