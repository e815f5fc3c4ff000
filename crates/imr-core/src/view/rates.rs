//! What the Data view makes of the rates of a [`RatesRequest`](crate::request::RatesRequest):
//! the rows a search and a sort list ([`search_rates`], their [`RatesExtent`]) and each input
//! file's [`LineAccount`].

use crate::ingest::codes::CutCodes;
use crate::ingest::FileReport;
use crate::rates::{AreaRate, RateTable};

/// A column the rates table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RateSort {
    /// By code, then year (the table's order).
    Entity,
    Time,
    Births,
    Deaths,
    Rate,
    CiLow,
    CiHigh,
}

impl RateSort {
    pub const ALL: [RateSort; 7] = [
        RateSort::Entity,
        RateSort::Time,
        RateSort::Births,
        RateSort::Deaths,
        RateSort::Rate,
        RateSort::CiLow,
        RateSort::CiHigh,
    ];

    /// The column's name, as the rates CSV heads it (and a shared link writes the sort).
    pub fn name(self) -> &'static str {
        match self {
            RateSort::Entity => "entity",
            RateSort::Time => "time",
            RateSort::Births => "births",
            RateSort::Deaths => "deaths",
            RateSort::Rate => "rate_per_1000",
            RateSort::CiLow => "ci_low",
            RateSort::CiHigh => "ci_high",
        }
    }

    /// A sort as a link writes it: the column's [`name`](RateSort::name), preceded by `-` when
    /// descending (`-rate_per_1000`: highest rates first).
    pub fn write(&(sort, ascending): &(RateSort, bool)) -> String {
        format!("{}{}", if ascending { "" } else { "-" }, sort.name())
    }

    /// The sort [`RateSort::write`] wrote; `None` for any other text.
    pub fn read(text: &str) -> Option<(RateSort, bool)> {
        let (name, ascending) = match text.strip_prefix('-') {
            Some(name) => (name, false),
            None => (text, true),
        };
        let sort = RateSort::ALL.into_iter().find(|s| s.name() == name)?;
        Some((sort, ascending))
    }

    /// The row's value in this column; an absent rate or bound sorts below every number.
    fn value(self, r: &AreaRate) -> f64 {
        let e = &r.estimate;
        match self {
            RateSort::Entity => 0.0,
            RateSort::Time => r.time as f64,
            RateSort::Births => e.births,
            RateSort::Deaths => e.deaths,
            RateSort::Rate => e.rate.unwrap_or(f64::NEG_INFINITY),
            RateSort::CiLow => e.ci_low.unwrap_or(f64::NEG_INFINITY),
            RateSort::CiHigh => e.ci_high.unwrap_or(f64::NEG_INFINITY),
        }
    }
}

/// Official name of a Chilean commune code, from the embedded code list.
pub fn commune_name(code: &str) -> Option<String> {
    CutCodes::embedded().commune(code).map(|c| c.name.clone())
}

/// The rows of `table` the Data view lists for a search and a sort: those whose code contains
/// the `search` text, whose year is it, or whose commune name contains it (case-insensitive; an
/// empty search keeps every row), sorted by `sort` (ties and [`RateSort::Entity`] by code then
/// year; stable), descending unless `ascending`.
pub fn search_rates<'t>(
    table: &'t RateTable,
    search: &str,
    sort: RateSort,
    ascending: bool,
) -> Vec<&'t AreaRate> {
    let needle = search.to_lowercase();
    let mut rows: Vec<&AreaRate> = table
        .rows
        .iter()
        .filter(|r| {
            needle.is_empty()
                || r.entity.to_lowercase().contains(&needle)
                || r.time.to_string() == needle
                || commune_name(&r.entity).is_some_and(|n| n.to_lowercase().contains(&needle))
        })
        .collect();
    rows.sort_by(|a, b| {
        let o = if sort == RateSort::Entity {
            a.entity.cmp(&b.entity).then(a.time.cmp(&b.time))
        } else {
            sort.value(a).total_cmp(&sort.value(b))
        };
        if ascending {
            o
        } else {
            o.reverse()
        }
    });
    rows
}

/// How many rows, distinct areas and which years (first, last) a list of rates covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatesExtent {
    pub rows: usize,
    pub areas: usize,
    pub years: Option<(i64, i64)>,
}

impl RatesExtent {
    /// The extent of `rows`.
    pub fn of(rows: &[&AreaRate]) -> RatesExtent {
        let areas = rows
            .iter()
            .map(|r| r.entity.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let first = rows.iter().map(|r| r.time).min();
        let last = rows.iter().map(|r| r.time).max();
        RatesExtent {
            rows: rows.len(),
            areas,
            years: first.zip(last),
        }
    }

    /// "2019–2023", or one year, or empty.
    pub fn years_text(&self) -> String {
        match self.years {
            Some((a, b)) if a == b => a.to_string(),
            Some((a, b)) => format!("{a}–{b}"),
            None => String::new(),
        }
    }
}

/// One file's physical lines accounted for: the header, the metadata (`#`) lines, the rows
/// read (used or excluded), and the rest — blank lines and the extra lines of quoted fields
/// that span lines, including the lines an unterminated quote swallowed:
/// `lines = header + metadata + read + other`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineAccount {
    pub file: String,
    pub lines: u64,
    pub header: u64,
    pub metadata: u64,
    pub read: u64,
    pub used: u64,
    pub excluded: u64,
    pub other: u64,
}

impl LineAccount {
    /// The accounting of one file of the ingest report.
    pub fn of(f: &FileReport) -> LineAccount {
        let header = u64::from(f.has_header);
        let metadata = f.metadata_lines.len() as u64;
        let read = f.rows_read as u64;
        LineAccount {
            file: f.file.clone(),
            lines: f.physical_lines,
            header,
            metadata,
            read,
            used: f.rows_used as u64,
            excluded: f.rows_excluded as u64,
            other: f.physical_lines.saturating_sub(header + metadata + read),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::RatesRequest;
    use crate::test_support::panel_of as panel;

    fn keys(rows: &[&AreaRate]) -> Vec<(String, i64)> {
        rows.iter().map(|r| (r.entity.clone(), r.time)).collect()
    }

    #[test]
    fn the_search_finds_codes_years_and_commune_names_and_the_sort_orders_them() {
        let p = panel(
            "comuna,anio,nacimientos,defunciones\n13101,2019,3000,18\n13101,2020,3100,30\n\
             05101,2019,500,0\n05101,2020,0,0\n01101,2020,1000,8\n",
        );
        let table = RatesRequest::default().run(&p).unwrap();
        let all = search_rates(&table, "", RateSort::Entity, true);
        assert_eq!(all.len(), 5);
        assert_eq!(all[0].entity, "01101");
        // By name (Santiago is 13101, case-insensitive), by year (whole), by part of a code.
        assert_eq!(
            keys(&search_rates(&table, "SANTIAGO", RateSort::Entity, true)),
            [("13101".to_owned(), 2019), ("13101".to_owned(), 2020)]
        );
        assert_eq!(
            search_rates(&table, "2020", RateSort::Entity, true).len(),
            3
        );
        assert_eq!(search_rates(&table, "202", RateSort::Entity, true).len(), 0);
        assert_eq!(search_rates(&table, "051", RateSort::Entity, true).len(), 2);
        // By rate descending: 30/3100 > 8/1000 > 18/3000 > 0; no rate (zero births) last.
        let by_rate = search_rates(&table, "", RateSort::Rate, false);
        assert_eq!(
            keys(&by_rate),
            [
                ("13101".to_owned(), 2020),
                ("01101".to_owned(), 2020),
                ("13101".to_owned(), 2019),
                ("05101".to_owned(), 2019),
                ("05101".to_owned(), 2020),
            ]
        );
        let extent = RatesExtent::of(&all);
        assert_eq!((extent.rows, extent.areas), (5, 3));
        assert_eq!(extent.years_text(), "2019–2020");
        assert_eq!(RatesExtent::of(&[]).years_text(), "");
    }

    #[test]
    fn every_physical_line_of_a_file_is_accounted_for() {
        // Two metadata lines, a header, a blank line, a field over two lines, an excluded row.
        let csv = "# Source: x\n# Generated: y\ncomuna,anio,nacimientos,defunciones,nota\n\
                   01101,2019,1000,8,\"a\nb\"\n\n01101,2020,abc,7,c\n";
        let p = panel(csv);
        let account = LineAccount::of(&p.report.files[0]);
        assert_eq!(account.lines, 7);
        assert_eq!((account.header, account.metadata), (1, 2));
        assert_eq!((account.read, account.used, account.excluded), (2, 1, 1));
        assert_eq!(account.other, 2);
        assert_eq!(
            account.lines,
            account.header + account.metadata + account.read + account.other
        );
    }

    #[test]
    fn a_sort_reads_back_as_written_and_other_text_is_refused() {
        for sort in RateSort::ALL {
            for ascending in [true, false] {
                let written = RateSort::write(&(sort, ascending));
                assert_eq!(
                    RateSort::read(&written),
                    Some((sort, ascending)),
                    "{written}"
                );
            }
        }
        assert_eq!(RateSort::write(&(RateSort::Rate, false)), "-rate_per_1000");
        for text in ["", "-", "--rate_per_1000", "rate", "Entity", "entity-"] {
            assert_eq!(RateSort::read(text), None, "{text}");
        }
    }

    /// A sort names its column as the rates CSV heads it, so a link's sort reads as the CSV.
    #[test]
    fn sort_names_are_the_rates_csv_header() {
        let empty = RateTable {
            rows: vec![],
            national: vec![],
            approximate_intervals: false,
            deaths_range: None,
            repeated_years: vec![],
        };
        let csv = crate::rates::rates_csv(&empty);
        let header = csv.lines().find(|l| !l.starts_with('#')).unwrap();
        // every column but the last three (marks, not sorts)
        assert_eq!(
            header,
            format!(
                "{},copy_of_year,deaths_reconstructed,flagged_implausible",
                RateSort::ALL.map(RateSort::name).join(",")
            )
        );
    }
}
