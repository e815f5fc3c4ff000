//! What the page's views make of the engine's results beyond a request, outside the browser so
//! that it is tested natively: the Models view's regressors, table rows and words ([`models`],
//! [`model_words`]) and its analysis data with their commands ([`analysis_data`]), the Data view's search, sort and line accounting
//! of the rates ([`rates`]) and of codes read in the system of their year (`code_systems`), and the Map view's commune search ([`places`]). `imr` runs requests ([`crate::request`]); only the page needs these.

pub mod analysis_data;
// Words for the report's historical code systems (the page and `imr` both build the feature).
#[cfg(feature = "historical-codes")]
pub mod code_systems;
pub mod model_words;
pub mod models;
pub mod places;
pub mod rates;

pub use analysis_data::{AnalysisData, ANALYSIS_DATA_FILE};
pub use models::{
    chosen_regressors, fit_failure_text, outcome_candidates, regressor_candidates, table_terms,
    DEFAULT_MODELS,
};
pub use places::{find_place, place_choice};
pub use rates::{commune_name, search_rates, LineAccount, RateSort, RatesExtent};
