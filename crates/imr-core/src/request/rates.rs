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

/// A [`RatesRequest`] checked against a panel.
#[derive(Debug, Clone, Copy)]
pub struct ValidatedRates<'p> {
    panel: &'p Panel,
}

impl RatesRequest {
    /// The subcommand of `imr` that runs this request.
    pub const SUBCOMMAND: &'static str = "rates";

    /// Checks the request against `panel` (every panel has rates to compute or says why not in
    /// [`RatesRequest::run`]).
    pub fn validate<'p>(&self, panel: &'p Panel) -> Result<ValidatedRates<'p>, RequestError> {
        Ok(ValidatedRates { panel })
    }

    /// The rate table of `panel` ([`RateTable::from_panel`]).
    pub fn run(&self, panel: &Panel) -> Result<RateTable, RequestError> {
        self.validate(panel)?.run()
    }

    /// The `imr rates` arguments after the input (none: the rates have no options).
    pub fn to_args(&self) -> Vec<String> {
        Vec::new()
    }
}

impl ValidatedRates<'_> {
    /// The rate table.
    pub fn run(self) -> Result<RateTable, RequestError> {
        RateTable::from_panel(self.panel).map_err(RequestError::Rates)
    }
}
