//! What the page's views make of the engine's results beyond a request, outside the browser so
//! that it is tested natively: the Models view's regressors, analysis data, commands, table rows
//! and words ([`models`], [`model_words`]), the Data view's search, sort and line accounting
//! of the rates ([`rates`]), and the Map view's commune search ([`places`]). `imr` runs requests ([`crate::request`]); only the page needs these.

pub mod model_words;
pub mod models;
pub mod places;
pub mod rates;

pub use models::{
    absorbed_columns, analysis_commands, analysis_csv, chosen_regressors, fit_failure_text,
    regressor_candidates, table_terms, ANALYSIS_DATA_FILE, DEFAULT_ALTERNATES, DEFAULT_MODELS,
    DEFAULT_REGRESSORS,
};
pub use places::{find_place, place_choice};
pub use rates::{commune_name, search_rates, LineAccount, RateSort, RatesExtent};
