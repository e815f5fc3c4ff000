//! Which sheets of a workbook are read: `imr`'s `--sheet NAME…` / `--sheets all` and the
//! page's sheet picker are one value, [`SheetChoice`], planned by one rule ([`plan`]) and
//! written back as `imr` arguments by one function ([`workbook_inputs`]). Plain data, without
//! the spreadsheet readers (feature `sheets`): the page's main wasm, which has no reader, builds
//! the choice it posts to the worker and the command it shows.

use super::table::year_in_name;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The sheets of a workbook to read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "choice", content = "sheets", rename_all = "snake_case")]
pub enum SheetChoice {
    /// None given: a workbook of one sheet is read; one of several asks for a choice.
    #[default]
    Unspecified,
    /// These sheets, by name (`--sheet NAME`, repeated).
    Named(Vec<String>),
    /// Every sheet named by a year when some are, else every sheet (`--sheets all`).
    All,
}

impl SheetChoice {
    /// The `imr` arguments that make this choice: `--sheets all`, `--sheet NAME` per sheet, or
    /// none.
    pub fn to_args(&self) -> Vec<String> {
        match self {
            SheetChoice::Unspecified => Vec::new(),
            SheetChoice::All => vec!["--sheets".into(), "all".into()],
            SheetChoice::Named(sheets) => sheets
                .iter()
                .flat_map(|s| ["--sheet".to_owned(), s.clone()])
                .collect(),
        }
    }
}

/// What a choice reads of a workbook whose worksheets are `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SheetPlan {
    /// Read these sheets, in this order; `not_years` are the sheets `--sheets all` leaves out
    /// because other sheets are named by a year (INE's sheet of codes beside "2000" … "2015").
    Read {
        sheets: Vec<String>,
        not_years: Vec<String>,
    },
    /// Several sheets and no choice: the reader must choose (`imr` says so and lists them; the
    /// page shows its sheet picker).
    Choose,
}

/// The sheets `choice` reads of a workbook whose worksheets are `all` (in the workbook's
/// order). Named sheets are read as named, whether or not they exist (reading a missing one
/// fails naming the workbook's sheets).
pub fn plan(all: &[String], choice: &SheetChoice) -> SheetPlan {
    match choice {
        SheetChoice::Named(sheets) => SheetPlan::Read {
            sheets: sheets.clone(),
            not_years: Vec::new(),
        },
        SheetChoice::All => {
            let (years, others): (Vec<String>, Vec<String>) =
                all.iter().cloned().partition(|s| year_in_name(s).is_some());
            match years.is_empty() {
                true => SheetPlan::Read {
                    sheets: all.to_vec(),
                    not_years: Vec::new(),
                },
                false => SheetPlan::Read {
                    sheets: years,
                    not_years: others,
                },
            }
        }
        SheetChoice::Unspecified if all.len() == 1 => SheetPlan::Read {
            sheets: all.to_vec(),
            not_years: Vec::new(),
        },
        SheetChoice::Unspecified => SheetPlan::Choose,
    }
}

/// The year of the rows of sheet `sheet` of workbook `file` when it has no year column and no
/// year is given: the year its sheet's name holds, else its file's name ([`year_in_name`]).
pub fn sheet_year(file: &str, sheet: &str) -> Option<i64> {
    year_in_name(sheet).or_else(|| year_in_name(file))
}

/// Where a loaded table came from when it is a sheet: its workbook's name, the sheet, and
/// whether it was read by "every sheet" (`--sheets all`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetOrigin {
    pub workbook: String,
    pub sheet: String,
    pub all: bool,
}

/// The input files of an `imr` command reading these loaded tables (each a file's name and,
/// for a sheet, where it came from), and the sheet choice that reads the same sheets: each
/// workbook named once, at its first sheet's place; `--sheets all` when every sheet was read
/// that way, else `--sheet NAME` per sheet (each name once, in the order first loaded) when
/// every workbook was read with the same sheets (`--sheet NAME` reads the named sheets of every
/// workbook given), else `--sheet FILE=NAME` per workbook and sheet (`imr` reads those of FILE
/// alone).
pub fn workbook_inputs(tables: &[(String, Option<SheetOrigin>)]) -> (Vec<String>, SheetChoice) {
    let mut files: Vec<String> = Vec::with_capacity(tables.len());
    // Each workbook's sheets, in the order first loaded.
    let mut workbooks: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut named: Vec<String> = Vec::new();
    let mut all = true;
    for (name, origin) in tables {
        let Some(origin) = origin else {
            files.push(name.clone());
            continue;
        };
        all &= origin.all;
        if !files.contains(&origin.workbook) {
            files.push(origin.workbook.clone());
        }
        if !named.contains(&origin.sheet) {
            named.push(origin.sheet.clone());
        }
        match workbooks.iter_mut().find(|(w, _)| *w == origin.workbook) {
            Some((_, sheets)) => sheets.push(&origin.sheet),
            None => workbooks.push((&origin.workbook, vec![&origin.sheet])),
        }
    }
    fn sheet_set<'a>(sheets: &[&'a str]) -> BTreeSet<&'a str> {
        sheets.iter().copied().collect()
    }
    let same_sheets = workbooks
        .windows(2)
        .all(|pair| sheet_set(&pair[0].1) == sheet_set(&pair[1].1));
    let choice = match (workbooks.is_empty(), all, same_sheets) {
        (true, _, _) => SheetChoice::Unspecified,
        (false, true, _) => SheetChoice::All,
        (false, false, true) => SheetChoice::Named(named),
        (false, false, false) => SheetChoice::Named(
            workbooks
                .iter()
                .flat_map(|(w, sheets)| sheets.iter().map(move |s| format!("{w}={s}")))
                .collect(),
        ),
    };
    (files, choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_sheet_means_the_sheets_named_by_a_year_when_some_are() {
        let ine = names(&["2015", "2014", "Códigos"]);
        assert_eq!(
            plan(&ine, &SheetChoice::All),
            SheetPlan::Read {
                sheets: names(&["2015", "2014"]),
                not_years: names(&["Códigos"])
            }
        );
        let plain = names(&["Hoja1", "Hoja2"]);
        assert_eq!(
            plan(&plain, &SheetChoice::All),
            SheetPlan::Read {
                sheets: plain.clone(),
                not_years: vec![]
            }
        );
        assert_eq!(plan(&plain, &SheetChoice::Unspecified), SheetPlan::Choose);
        assert_eq!(
            plan(&names(&["Hoja1"]), &SheetChoice::Unspecified),
            SheetPlan::Read {
                sheets: names(&["Hoja1"]),
                not_years: vec![]
            }
        );
        assert_eq!(
            plan(&ine, &SheetChoice::Named(names(&["x"]))),
            SheetPlan::Read {
                sheets: names(&["x"]),
                not_years: vec![]
            }
        );
    }

    #[test]
    fn a_sheet_takes_its_name_s_year_before_its_file_s() {
        assert_eq!(sheet_year("ine_2000_2015.xlsx", "2010"), Some(2010));
        assert_eq!(sheet_year("defunciones_2022.xlsx", "Hoja1"), Some(2022));
        assert_eq!(sheet_year("libro.xlsx", "Hoja1"), None);
    }

    #[test]
    fn loaded_sheets_are_written_back_as_their_workbook_and_the_choice() {
        let origin = |sheet: &str, all| {
            Some(SheetOrigin {
                workbook: "ine.xlsx".into(),
                sheet: sheet.into(),
                all,
            })
        };
        let tables = vec![
            ("ine.xlsx [2010]".to_owned(), origin("2010", true)),
            ("nacimientos.csv".to_owned(), None),
            ("ine.xlsx [2011]".to_owned(), origin("2011", true)),
        ];
        let (files, choice) = workbook_inputs(&tables);
        assert_eq!(files, names(&["ine.xlsx", "nacimientos.csv"]));
        assert_eq!(choice, SheetChoice::All);
        assert_eq!(choice.to_args(), names(&["--sheets", "all"]));
        // One sheet of those read by "every sheet" removed, or sheets picked one by one: named.
        let picked = vec![
            ("ine.xlsx [2010]".to_owned(), origin("2010", false)),
            ("ine.xlsx [2011]".to_owned(), origin("2011", true)),
        ];
        let (files, choice) = workbook_inputs(&picked);
        assert_eq!(files, names(&["ine.xlsx"]));
        assert_eq!(
            choice.to_args(),
            names(&["--sheet", "2010", "--sheet", "2011"])
        );
        // Two workbooks read with the same sheets: `--sheet NAME`, which reads them of both.
        let origin_of = |workbook: &str, sheet: &str| {
            Some(SheetOrigin {
                workbook: workbook.into(),
                sheet: sheet.into(),
                all: false,
            })
        };
        let same = vec![
            ("a.xlsx [2010]".to_owned(), origin_of("a.xlsx", "2010")),
            ("b.xlsx [2010]".to_owned(), origin_of("b.xlsx", "2010")),
        ];
        let (files, choice) = workbook_inputs(&same);
        assert_eq!(files, names(&["a.xlsx", "b.xlsx"]));
        assert_eq!(choice.to_args(), names(&["--sheet", "2010"]));
        // Different sheets of each: `--sheet FILE=NAME`, each workbook's own (a plain
        // `--sheet 2010 --sheet Hoja1` would ask both workbooks for both sheets).
        let different = vec![
            ("a.xlsx [2010]".to_owned(), origin_of("a.xlsx", "2010")),
            ("b.xlsx [Hoja1]".to_owned(), origin_of("b.xlsx", "Hoja1")),
            ("a.xlsx [2011]".to_owned(), origin_of("a.xlsx", "2011")),
        ];
        let (files, choice) = workbook_inputs(&different);
        assert_eq!(files, names(&["a.xlsx", "b.xlsx"]));
        assert_eq!(
            choice.to_args(),
            names(&[
                "--sheet",
                "a.xlsx=2010",
                "--sheet",
                "a.xlsx=2011",
                "--sheet",
                "b.xlsx=Hoja1"
            ])
        );
        // No workbook: no sheet argument.
        let (files, choice) = workbook_inputs(&[("a.csv".to_owned(), None)]);
        assert_eq!((files, choice.to_args()), (names(&["a.csv"]), vec![]));
    }

    #[test]
    fn the_choice_travels_as_json() {
        for choice in [
            SheetChoice::Unspecified,
            SheetChoice::All,
            SheetChoice::Named(names(&["2010", "Hoja \"1\""])),
        ] {
            let json = serde_json::to_string(&choice).unwrap();
            assert_eq!(serde_json::from_str::<SheetChoice>(&json).unwrap(), choice);
        }
    }
}
