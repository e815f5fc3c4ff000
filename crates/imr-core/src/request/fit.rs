//! [`FitRequest`]: a panel-data model of an outcome on commune characteristics (`imr fit`, the
//! Models view, one request per model).

use super::{ColumnUse, RequestError};
use crate::panel::Panel;
use imr_models::report::FitOptions;
use imr_models::{
    parse_fixed_effects, ColumnRole, Estimator, Fit, FixedEffect, ModelColumns, PanelData,
    PanelSpec, VcovKind,
};
use serde::{Deserialize, Serialize};

/// Default confidence level of the intervals.
pub const DEFAULT_LEVEL: f64 = 0.95;

/// One model: the options of `imr fit` that change the numbers (the output format only changes
/// how they are printed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitRequest {
    /// Outcome column (`rate`, `deaths`, or any numeric column).
    pub y: String,
    /// Regressors as given: a value that is exactly a column's name is that column (so a name
    /// holding a comma is given whole); any other value is split at its commas (`a,b`).
    pub x: Vec<String>,
    /// Estimator.
    pub model: Estimator,
    /// Standard errors.
    pub vcov: VcovKind,
    /// Analytic weights of the linear models (pooled, fe, twfe).
    pub weights: Option<String>,
    /// Exposure of `poisson-fe`, entering as log offset.
    pub exposure: Option<String>,
    /// Fixed effects absorbed by the within model, as fixest writes them: columns separated by
    /// commas, interactions by `^` (`commune,year,region^year`); any column, text or numeric,
    /// or `entity`/`time`.
    pub fe: Option<String>,
    /// Columns that cluster the standard errors of a fit with absorbed effects, separated by a
    /// comma: one (`region`), or two for two-way clustering (`region,year`, fixest's
    /// `cluster = ~region + year`); any column, text or numeric, or `entity`/`time`. `None`:
    /// the entity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// Confidence level of the intervals.
    pub level: f64,
    /// Keep the rows flagged as implausible ([`crate::plausibility`]); by default they are left
    /// out, each listed in the fit's `excluded_rows` with its reason, as in `imr inequality`
    /// and the Findings.
    #[serde(default)]
    pub include_flagged: bool,
    /// Keep the years that repeat the previous one in every commune ([`crate::repeats`]); by
    /// default they are left out, each row listed in `excluded_rows`, as the trends and the
    /// Findings' models leave them out (a copy counted twice made up a finding, issue 42).
    #[serde(default)]
    pub include_repeated_years: bool,
}

impl Default for FitRequest {
    fn default() -> Self {
        FitRequest {
            y: "rate".into(),
            x: Vec::new(),
            model: Estimator::Fe,
            vcov: VcovKind::Cluster,
            weights: None,
            exposure: None,
            fe: None,
            cluster: None,
            level: DEFAULT_LEVEL,
            include_flagged: false,
            include_repeated_years: false,
        }
    }
}

/// A [`FitRequest`] checked against a panel: the engine's data and settings.
#[derive(Debug, Clone)]
pub struct ValidatedFit {
    data: PanelData,
    spec: PanelSpec,
    /// The rows flagged as implausible and the rows of copied years left out, as the fit
    /// lists them.
    flagged: Vec<imr_models::ExcludedRow>,
    /// The copied years left out, `(year, the year it repeats)`, for the fit's code.
    copies_left_out: Vec<(i64, i64)>,
}

/// The result of a [`FitRequest`]: the fit.
pub type FitResult = Fit;

impl FitRequest {
    /// The subcommand of `imr` that runs this request.
    pub const SUBCOMMAND: &'static str = "fit";

    /// This request for `model` as the Models view fits it next to others: `poisson-fe`
    /// models the death counts with births as exposure (log offset) and no weights; the other
    /// estimators keep the outcome, and the weights where they take weights
    /// ([`Estimator::takes_weights`]); absorbed fixed effects and their clusters go with `fe`
    /// and `poisson-fe` (then pyfixest's `fepois`) only.
    pub fn for_model(&self, model: Estimator) -> FitRequest {
        let mut request = FitRequest {
            model,
            ..self.clone()
        };
        if model == Estimator::PoissonFe {
            request.y = "deaths".into();
            request.exposure = Some("births".into());
            request.weights = None;
        } else if !model.takes_weights() {
            request.weights = None;
        }
        if !matches!(model, Estimator::Fe | Estimator::PoissonFe) {
            request.fe = None;
            request.cluster = None;
        }
        request
    }

    /// The regressor names of the `x` values on `panel`: a value naming a column is that
    /// column; any other value is split at its commas.
    pub fn regressors(&self, panel: &Panel) -> Vec<String> {
        let mut names = Vec::new();
        for value in &self.x {
            if panel.numeric_column(value).is_some() {
                names.push(value.clone());
            } else {
                names.extend(value.split(',').map(str::to_string));
            }
        }
        names
    }

    /// The engine's data from `panel` (rows labelled by their line): every named column must
    /// be numeric (fixed effects: any column), `poisson-fe` on the death counts or with births
    /// as exposure needs those counts, weights go with pooled, fe and twfe only, absorbed
    /// fixed effects with fe or poisson-fe only, and the level lies in (0, 1).
    pub fn validate(&self, panel: &Panel) -> Result<ValidatedFit, RequestError> {
        let kept = super::RowsKept::of(panel, self.include_flagged, self.include_repeated_years);
        let panel = kept.panel.as_ref().unwrap_or(panel);
        let columns = ModelColumns {
            y: self.y.clone(),
            x: self.regressors(panel),
            weights: self.weights.clone(),
            exposure: self.exposure.clone(),
        };
        let mut data =
            panel
                .model_data(&columns)
                .map_err(|missing| RequestError::NoNumericColumn {
                    role: match missing.role {
                        ColumnRole::Outcome => ColumnUse::Outcome,
                        ColumnRole::Weights => ColumnUse::Weights,
                        ColumnRole::Exposure => ColumnUse::Exposure,
                        _ => ColumnUse::Regressor,
                    },
                    // a weight is offered among the sizes the page lists, not any number
                    available: match missing.role {
                        ColumnRole::Weights => crate::model_columns::weight_candidates(panel),
                        _ => panel.numeric_names.clone(),
                    },
                    name: missing.name,
                })?;
        if let Some(spec) = &self.fe {
            data = absorb(panel, spec, data)?;
        }
        if let Some(spec) = &self.cluster {
            data = cluster(panel, spec, data)?;
        }
        if self.model == Estimator::PoissonFe
            && ((self.y == "deaths" && !panel.has_deaths)
                || (self.exposure.as_deref() == Some("births") && !panel.has_births))
        {
            return Err(RequestError::NoRates);
        }
        if columns.x.is_empty() {
            return Err(RequestError::NoRegressors);
        }
        if !(self.level > 0.0 && self.level < 1.0) {
            return Err(RequestError::Level(self.level));
        }
        if self.fe.is_some() && !matches!(self.model, Estimator::Fe | Estimator::PoissonFe) {
            return Err(RequestError::AbsorbedNeedsWithin { model: self.model });
        }
        if self.weights.is_some() && !self.model.takes_weights() {
            return Err(RequestError::WeightsNotSupported { model: self.model });
        }
        if let Some(cluster) = &self.cluster {
            if self.fe.is_none() || self.vcov != VcovKind::Cluster {
                return Err(RequestError::ClusterNeedsAbsorbedAndClustered {
                    cluster: cluster.clone(),
                });
            }
        }
        Ok(ValidatedFit {
            data,
            spec: PanelSpec::new(self.model)
                .with_vcov(self.vcov)
                .with_conf_level(self.level),
            flagged: kept.excluded,
            copies_left_out: kept.copies,
        })
    }

    /// Validates and fits.
    pub fn run(&self, panel: &Panel) -> Result<Fit, RequestError> {
        self.validate(panel)?.run()
    }

    /// The `imr fit` arguments after the input that reproduce this request: `--y`, one `--x`
    /// per value, `--model`, `--vcov`, then `--weights`, `--exposure`, `--fe` when set and
    /// `--cluster` when set and `--level` when not 0.95.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = FitOptions {
            y: &self.y,
            x: &self.x,
            model: self.model,
            vcov: self.vcov,
            weights: self.weights.as_deref(),
            exposure: self.exposure.as_deref(),
            fe: self.fe.as_deref(),
        }
        .to_args();
        if let Some(cluster) = &self.cluster {
            args.push("--cluster".into());
            args.push(cluster.clone());
        }
        if self.level != DEFAULT_LEVEL {
            args.push("--level".into());
            args.push(self.level.to_string());
        }
        if self.include_flagged {
            args.push("--include-flagged".into());
        }
        if self.include_repeated_years {
            args.push("--include-repeated-years".into());
        }
        args
    }
}

impl ValidatedFit {
    /// The engine's data of the fit.
    pub fn data(&self) -> &PanelData {
        &self.data
    }

    /// The rows flagged as implausible and the rows of copied years that the fit leaves out,
    /// with their reasons.
    pub fn flagged(&self) -> &[imr_models::ExcludedRow] {
        &self.flagged
    }

    /// The copied years the fit leaves out, `(year, the year it repeats)`.
    pub fn copies_left_out(&self) -> &[(i64, i64)] {
        &self.copies_left_out
    }

    /// Fits the model, freeing the data's rows once the model has its own copy
    /// ([`imr_models::PanelSpec::fit_owned`]); the flagged rows join the fit's excluded rows
    /// (ordered by line).
    pub fn run(self) -> Result<Fit, RequestError> {
        let model = self.spec.estimator;
        let mut fit = self
            .spec
            .fit_owned(self.data)
            .map_err(|error| RequestError::ModelFailed { model, error })?;
        if !self.flagged.is_empty() {
            fit.rows_excluded += self.flagged.len();
            fit.excluded_rows.extend(self.flagged);
            fit.excluded_rows.sort_by_key(|r| r.row);
        }
        Ok(fit)
    }
}

/// The columns a fit may name as keys (fixed effects, clusters), for messages.
fn key_columns(panel: &Panel) -> Vec<String> {
    let mut columns = vec![panel.entity_column.clone(), panel.time_column.clone()];
    columns.extend(panel.text_names.iter().cloned());
    columns.extend(panel.numeric_names.iter().cloned());
    columns
}

/// Sets the clusters of `spec`: a column's name whole, or columns separated by commas (the
/// engine takes one or two).
fn cluster(panel: &Panel, spec: &str, data: PanelData) -> Result<PanelData, RequestError> {
    let names: Vec<&str> = if panel.key_column(spec).is_some() {
        vec![spec]
    } else {
        spec.split(',').map(str::trim).collect()
    };
    let mut keys = Vec::with_capacity(names.len());
    for name in names {
        let column = panel
            .key_column(name)
            .ok_or_else(|| RequestError::NoColumn {
                role: ColumnUse::Cluster,
                name: name.to_owned(),
                // groups, as the page lists them, not every column
                available: std::iter::once(panel.entity_column.clone())
                    .chain(crate::model_columns::cluster_candidates(panel))
                    .collect(),
            })?;
        keys.push(FixedEffect::from_keys(name, column));
    }
    Ok(data.with_cluster(keys))
}

/// Adds the fixed effects of `spec`: each term's columns as keys, interacted when joined by `^`.
fn absorb(panel: &Panel, spec: &str, mut data: PanelData) -> Result<PanelData, RequestError> {
    let terms = parse_fixed_effects(spec).map_err(RequestError::FixedEffects)?;
    for term in terms {
        let mut parts = Vec::with_capacity(term.len());
        for name in &term {
            let keys = panel
                .key_column(name)
                .ok_or_else(|| RequestError::NoColumn {
                    role: ColumnUse::FixedEffect,
                    name: name.clone(),
                    available: key_columns(panel),
                })?;
            parts.push(FixedEffect::from_keys(name.as_str(), keys));
        }
        data = data.absorb(if parts.len() == 1 {
            parts.remove(0)
        } else {
            FixedEffect::interact(&parts)
        });
    }
    Ok(data)
}
