//! imr-core: the engine of imr-atlas, in pure Rust with no browser dependency.
//!
//! Dependency direction: the web app (`src/`) and the `imr` command line (`crates/imr-cli`)
//! both call this crate; it calls neither. Ingest, the validated panel and rates live here;
//! the statistical engines are separate crates re-exported under stable names, so that each
//! compiles and is tested on its own (see ARCHITECTURE.md).

pub mod analysis;
pub mod column_words;
pub mod copied;
pub mod copy_words;
pub mod ingest;
pub mod lag;
pub mod model_columns;
pub mod panel;
pub mod plausibility;
pub mod provenance;
pub mod rates;
pub mod reconstructed;
pub mod repeats;
pub mod report;
pub mod request;
pub mod spreadsheet_csv;
#[cfg(test)]
mod test_support;
pub mod view;

pub use imr_data as data;
pub use imr_escape as escape;
pub use imr_inequality as inequality;
pub use imr_map as map;
pub use imr_models as models;
pub use imr_stats as stats;
pub use imr_stats::{Caption, Lang};

/// Version of the engine, written into every export so a number can be traced to the code
/// that produced it.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
