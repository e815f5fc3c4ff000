//! A sheet's grid as a table, laid out as agencies lay tables out: title rows, an empty row and
//! a super-header above the header row (INE's "DEFUNCIONES POR EDAD DEL FALLECIDO, …", then
//! "Edad simple", then `Comuna | Men de 1 año | 1 | … | Total`), merged cells, and empty cells
//! meaning zero. Totals and notes rows below the header are records, excluded with their reason
//! by the validation ([`crate::ingest::ExclusionReason::TotalsRow`],
//! [`crate::ingest::ExclusionReason::NoteRow`]), as in a CSV file.

use super::super::columns::{guess_roles, normalise_name};
use super::super::decode::Encoding;
use super::super::error::Workbook as Problem;
use super::super::number::{parse_number, Decimal};
use super::super::sniff::Dialect;
use super::super::store::Records;
use super::super::table::{header_names, RawTable};
use super::super::IngestError;
use super::Grid;
use crate::report::MetadataLine;

/// Rows searched for the header row: the first 100 rows with a filled cell.
pub const HEADER_SEARCH_ROWS: usize = 100;

/// The index (in `rows`) of the header row: among the first [`HEADER_SEARCH_ROWS`] rows, the
/// first with at least two filled cells, at least half as many as the fullest of those rows,
/// and a cell that is not a number. Title rows and a super-header have fewer filled cells (one,
/// merged across the table, in INE's); a data row is numbers or comes after. `None` when no
/// row qualifies: the sheet has no header, its columns are `column_1`, `column_2`, ….
pub fn header_row(rows: &[(u64, Vec<String>)]) -> Option<usize> {
    let filled = |cells: &[String]| cells.iter().filter(|c| !c.trim().is_empty()).count();
    let look = &rows[..rows.len().min(HEADER_SEARCH_ROWS)];
    let fullest = look.iter().map(|(_, c)| filled(c)).max()?;
    look.iter().position(|(_, cells)| {
        let n = filled(cells);
        n >= 2
            && n * 2 >= fullest
            && cells
                .iter()
                .any(|c| !c.trim().is_empty() && parse_number(c, Decimal::Point).is_none())
    })
}

/// The empty cells of a data row that its total shows to be zeros, filled with `0`: where the
/// header has a column named "Total" (`total`, `totales`, `total_general` normalised), the
/// cells just left of it that are numbers or empty and whose numbers sum to the row's total
/// (exactly, whole counts) are read with each empty cell as 0 — INE's tables leave the zeros
/// of a count table empty. The run ends at the first text cell or where the sum would no longer
/// equal the total; without a total column, or when no run sums to it, nothing is filled and
/// an empty count stays missing (the row is then excluded naming the column). Returns the
/// cells filled.
pub fn zeros_by_total(columns: &[String], cells: &mut [String]) -> usize {
    let Some(total_at) = columns.iter().position(|c| {
        matches!(
            normalise_name(c).as_str(),
            "total" | "totales" | "total_general"
        )
    }) else {
        return 0;
    };
    let Some(total) = cells
        .get(total_at)
        .and_then(|c| parse_number(c, Decimal::Point))
    else {
        return 0;
    };
    let (mut sum, mut from) = (0.0f64, None);
    for j in (0..total_at).rev() {
        let cell = cells[j].trim();
        if !cell.is_empty() {
            match parse_number(cell, Decimal::Point) {
                Some(v) if v >= 0.0 && v.fract() == 0.0 => sum += v,
                _ => break,
            }
        }
        if sum > total {
            break;
        }
        if sum == total {
            from = Some(j);
        }
    }
    let Some(from) = from else {
        return 0;
    };
    let mut filled = 0;
    for cell in &mut cells[from..total_at] {
        if cell.trim().is_empty() {
            *cell = "0".into();
            filled += 1;
        }
    }
    filled
}

/// The table of a sheet's `grid`, named `label` (`file [sheet]`): the rows above the header
/// row ([`header_row`]) are its metadata lines (title, super-header; reported, not data), the
/// header row names the columns, every filled row below it is a record whose line is its row
/// number. Below the header, a merged area's value fills each of its cells, as a person reads
/// it, and empty counts that the row's total shows to be zeros read as 0 ([`zeros_by_total`]).
/// Every row is as wide as the widest (a column without a header is `column_N`).
pub(super) fn table_of(
    file: &str,
    sheet: &str,
    grid: Grid,
    max_cells: usize,
) -> Result<RawTable, IngestError> {
    let label = &super::sheet_label(file, sheet);
    let Grid { mut rows, merged } = grid;
    if rows.is_empty() {
        return Err(IngestError::Empty { file: label.into() });
    }
    let header = header_row(&rows);
    let first_data = header.map_or(0, |h| h + 1);
    let header_line = header.map_or(0, |h| rows[h].0);
    fill_merged(&mut rows[first_data..], &merged, header_line, max_cells).map_err(|why| {
        IngestError::Workbook {
            file: file.into(),
            sheet: Some(sheet.into()),
            why: Box::new(why),
        }
    })?;
    let width = rows[first_data..]
        .iter()
        .chain(header.map(|h| &rows[h]))
        .map(|(_, cells)| cells.len())
        .max()
        .unwrap_or(0);
    let metadata: Vec<MetadataLine> = rows[..header.unwrap_or(0)]
        .iter()
        .map(|(line, cells)| MetadataLine {
            line: *line,
            text: cells
                .iter()
                .map(|c| c.trim())
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join(" | "),
        })
        .collect();
    let columns = match header {
        Some(h) => {
            let mut names = rows[h].1.clone();
            names.resize(width, String::new());
            header_names(names.iter().map(String::as_str))
        }
        None => (1..=width).map(|i| format!("column_{i}")).collect(),
    };
    let physical_lines = rows.last().map_or(0, |(line, _)| *line);
    let mut records = Records::default();
    let mut text = String::new();
    for (line, cells) in &mut rows[first_data..] {
        cells.resize(width, String::new());
        zeros_by_total(&columns, cells);
        text.clear();
        let mut ends = Vec::with_capacity(width);
        for cell in cells.iter() {
            text.push_str(cell);
            ends.push(text.len());
        }
        records
            .push_unquoted(*line, 0, &text, ends.into_iter())
            .map_err(|()| IngestError::Malformed {
                file: label.into(),
                line: *line,
                why: super::super::Malformed::RecordTooLong,
            })?;
    }
    let guessed_roles = guess_roles(&columns);
    Ok(RawTable {
        file: label.into(),
        encoding: Encoding::Utf8,
        dialect: Dialect {
            delimiter: b'\t',
            decimal: Decimal::Point,
            has_header: header.is_some(),
        },
        columns,
        records,
        metadata,
        guessed_roles,
        unterminated_quote: None,
        physical_lines,
        time_given: None,
    })
}

/// Fills each empty cell of a merged area below the header row (`header_line`, 1-based; 0
/// without a header) with the value of the area's first cell, in `rows` (the data rows, by
/// line). Every cell of an area on a filled row counts against `max_cells`,
/// overlapping areas as often as they overlap: `Err` past it (a hostile sheet of many large
/// merged areas would otherwise take time of their areas' product).
fn fill_merged(
    rows: &mut [(u64, Vec<String>)],
    merged: &[(u64, u64, u64, u64)],
    header_line: u64,
    max_cells: usize,
) -> Result<(), Problem> {
    let mut visited = 0usize;
    for &(r0, c0, r1, c1) in merged {
        let (first, last) = (r0 + 1, r1 + 1);
        if first <= header_line {
            continue;
        }
        let at = rows.partition_point(|(line, _)| *line < first);
        let Some(value) = rows
            .get(at)
            .filter(|(line, _)| *line == first)
            .and_then(|(_, cells)| cells.get(c0 as usize))
            .filter(|v| !v.is_empty())
            .cloned()
        else {
            continue;
        };
        let (c0, end) = (c0 as usize, c1 as usize + 1);
        for (line, cells) in rows[at..].iter_mut() {
            if *line > last {
                break;
            }
            visited = visited.saturating_add(end - c0);
            if visited > max_cells {
                return Err(Problem::TooManyCells { max_cells });
            }
            if cells.len() < end {
                cells.resize(end, String::new());
            }
            for cell in &mut cells[c0..end] {
                if cell.is_empty() {
                    *cell = value.clone();
                }
            }
        }
    }
    Ok(())
}
