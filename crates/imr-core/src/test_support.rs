//! Panels for the unit tests: a CSV text read with the guessed roles, and the bundled dataset with
//! the page's preset.

use crate::ingest::{build_panel, ColumnRoles, IngestOptions, RawTable};
use crate::panel::Panel;

/// The panel of one CSV text (file `t.csv`), its roles guessed from the column names.
pub fn panel_of(csv: &str) -> Panel {
    let table = RawTable::from_bytes("t.csv", csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

/// The bundled dataset with the page's preset: births `nacidos_vivos`, deaths
/// `defunciones_infantiles`.
pub fn bundled_panel() -> Panel {
    let table = RawTable::from_bytes(
        crate::data::BUNDLED_PANEL_FILE,
        crate::data::BUNDLED_PANEL_CSV,
    )
    .unwrap();
    let mut roles = table.guessed_roles.clone();
    roles.births = table.columns.iter().position(|c| c == "nacidos_vivos");
    roles.deaths = table
        .columns
        .iter()
        .position(|c| c == "defunciones_infantiles");
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

/// The roles of a test table of counts: area in column 0, year in 1, births in 2.
pub fn counts_roles() -> ColumnRoles {
    ColumnRoles {
        entity: Some(0),
        time: Some(1),
        births: Some(2),
        ..ColumnRoles::default()
    }
}
