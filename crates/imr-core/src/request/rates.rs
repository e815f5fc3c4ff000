//! [`RatesRequest`]: rates per 1,000 births with exact Poisson intervals (`imr rates`). What the
//! Data view makes of them is in [`crate::view::rates`].

use super::RequestError;
use crate::panel::Panel;
use crate::rates::RateTable;
use serde::{Deserialize, Serialize};

/// Rates by entity and time with the national pooled rate. It has no options of its own: the
/// rates follow from the panel (the input's column roles are in [`super::InputSpec`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RatesRequest {}

impl RatesRequest {
    /// The subcommand of `imr` that runs this request.
    pub const SUBCOMMAND: &'static str = "rates";

    /// The rate table of `panel` ([`RateTable::from_panel`]). Nothing to check before: with no
    /// options, a request cannot disagree with a panel, and a panel without rates says why here.
    pub fn run(&self, panel: &Panel) -> Result<RateTable, RequestError> {
        RateTable::from_panel(panel).map_err(RequestError::Rates)
    }

    /// The `imr rates` arguments after the input (none: the rates have no options).
    pub fn to_args(&self) -> Vec<String> {
        Vec::new()
    }
}
