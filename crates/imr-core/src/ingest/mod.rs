//! From uploaded files to a validated panel: decode, sniff, split (the table and its record
//! store), guess column roles, validate every row, join characteristics.
//!
//! Every data record of every file ends either used or in [`IngestReport::excluded`] with its
//! file, line and reason; `rows_read = rows_used + rows_excluded` always holds.

pub mod codes;
pub mod columns;
mod decimal_words;
pub mod decode;
mod error;
pub mod fragment;
pub mod number;
// Spreadsheets (feature `sheets`: `imr`; the page's main wasm builds without).
#[cfg(feature = "sheets")]
pub mod sheet;
pub mod sheet_choice;
pub mod sniff;
pub mod store;
pub mod table;
mod validate;

pub use crate::report::{
    CellConflict, CellWarning, Exclusion, ExclusionReason, FileReport, IngestReport,
    LaggedRateSource, MetadataLine, UnplacedRate, MAX_COUNT,
};
#[cfg(feature = "historical-codes")]
pub use crate::report::{CodeSystemRead, HistoricalRecoding, NotYetCreated};
pub use columns::{ColumnRoles, Role};
pub use decode::Encoding;
#[cfg(feature = "sheets")]
pub use error::Workbook;
pub use error::{role_name, role_word, ColumnNames, IngestError, Malformed};
pub use number::Decimal;
pub use sheet_choice::{SheetChoice, SheetOrigin};
pub use sniff::{workbook_format, Dialect, WorkbookFormat};
pub use store::{RawRecord, Records};
pub use table::{year_in_name, RawTable, UnterminatedQuote};
pub use validate::{
    build_panel, parse_rate_lag, parse_year, rate_lag_applies, table_year, time_value_applies,
    undated_tables, CodeSystem, IngestOptions, MAX_RATE_LAG, MAX_YEAR, MIN_YEAR,
};

/// The printable name of a delimiter byte.
pub fn delimiter_label(delimiter: u8) -> String {
    match delimiter {
        b'\t' => "\\t".into(),
        d => (d as char).to_string(),
    }
}
