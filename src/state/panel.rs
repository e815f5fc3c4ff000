//! The panel the engine builds from the reader's files: each table passed in place, a table
//! without a year column dated by the engine's one rule ([`table_year`]).

use crate::state::LoadedFile;
use imr_core::ingest::{
    build_panel, table_year, undated_tables, ColumnRoles, IngestError, IngestOptions, RawTable,
};
use imr_core::panel::Panel;
use std::sync::Arc;

/// The validated panel of the readable files, `None` when there are none.
///
/// The tables are passed to the engine in place (`build_panel` reads shared `Arc`s): a role
/// change rebuilds the panel without copying any table. A table of the main data without a
/// year column takes the year [`table_year`] gives it (the reader's for the file in `years`,
/// else its name's unless `options` give one for every file); it is read in place when it
/// holds that year already (its name's: [`read_owned_file`](crate::state::read_owned_file)), else a copy dated so is read.
pub fn panel_from(
    files: &[LoadedFile],
    roles: &[ColumnRoles],
    years: &[Option<i64>],
    options: &IngestOptions,
) -> Option<Result<Panel, IngestError>> {
    let tables: Vec<(Option<i64>, &Arc<RawTable>)> = files
        .iter()
        .filter_map(|f| Some((f.name_year(), f.table.as_ref().ok()?)))
        .collect();
    if tables.is_empty() || tables.len() != roles.len() {
        return None;
    }
    let undated = undated_tables(roles);
    let tables: Vec<std::borrow::Cow<RawTable>> = tables
        .into_iter()
        .enumerate()
        .map(|(i, (named, table))| {
            let year = table_year(years.get(i).copied().flatten(), options.time_value, named);
            if !undated[i] || table.time_given == year {
                return std::borrow::Cow::Borrowed(&**table);
            }
            let mut dated = (**table).clone();
            dated.time_given = year;
            std::borrow::Cow::Owned(dated)
        })
        .collect();
    Some(build_panel(&tables, roles, options))
}
