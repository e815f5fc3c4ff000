//! Question 4: the panel models of the Models view's defaults.

use super::*;
use imr_core::models::{ModelError, NoRegressors};

/// Fits one linear estimator of the rate on `regressors`, clustered by commune (the Models
/// view's default standard errors): the data's error, else the model's result.
fn fit(
    panel: &Panel,
    estimator: Estimator,
    regressors: &[String],
) -> Result<Result<imr_core::models::Fit, ModelError>, String> {
    let data = panel
        .model_data(&ModelColumns::new("rate", regressors.to_vec()))
        .map_err(|e| e.to_string())?;
    Ok(PanelSpec::new(estimator)
        .with_vcov(VcovKind::Cluster)
        .fit(&data))
}

/// Question 4: the Models view's first default model, fixed effects (within communes,
/// clustered CR1 standard errors), for what it estimates; the regressors it drops as constant
/// within communes from its second default model, random effects (Swamy–Arora).
pub(super) fn models(panel: &Panel, wanted: &[(String, f64)]) -> Outcome<ModelsFinding> {
    if !panel.has_rates() {
        return Err(Unavailable::NoRates);
    }
    // Each covariate under its name in the data, also as a person wrote it ("Pobreza (%)").
    let found: Vec<(String, f64)> = (wanted.iter())
        .map(|(c, per)| {
            let column = imr_core::data::study::column_for(c, &panel.numeric_names);
            (column.unwrap_or(c).clone(), *per)
        })
        .collect();
    type Wanted<'a> = Vec<&'a (String, f64)>;
    let (present, missing): (Wanted, Wanted) = found
        .iter()
        .partition(|(c, _)| panel.numeric_names.iter().any(|n| n == c));
    if present.is_empty() {
        return Err(Unavailable::MissingColumns {
            columns: wanted.iter().map(|(c, _)| c.clone()).collect(),
            other_columns: panel.numeric_names.clone(),
        });
    }
    let names: Vec<String> = present.iter().map(|(c, _)| c.clone()).collect();
    let engine = |message: String| Unavailable::Engine { message };
    // Fixed effects answer what changes within communes; with nothing that does, random
    // effects answer every term (each said to be constant within communes).
    let fe = match fit(panel, Estimator::Fe, &names).map_err(engine)? {
        Ok(fit) => Some(fit),
        Err(ModelError::NoRegressors(NoRegressors::AllDropped { .. })) => None,
        Err(e) => return Err(engine(e.to_string())),
    };
    let re = fit(panel, Estimator::Re, &names)
        .map_err(engine)?
        .map_err(|e| engine(e.to_string()))?;
    let mut terms = Vec::new();
    let mut time_invariant = Vec::new();
    let mut random_effects = Vec::new();
    for (column, per) in present {
        let from = |f: &imr_core::models::Fit| {
            f.coefficients
                .iter()
                .find(|c| &c.term == column)
                .map(|c| ModelTerm {
                    column: column.clone(),
                    per: *per,
                    estimate: c.estimate * per,
                    ci: [c.conf_low * per, c.conf_high * per],
                    estimator: f.model,
                })
        };
        match fe.as_ref().and_then(from) {
            Some(t) => terms.push(t),
            None => {
                time_invariant.push(column.clone());
                if let Some(t) = from(&re) {
                    terms.push(t);
                }
            }
        }
        random_effects.extend(from(&re));
    }
    Ok(ModelsFinding {
        outcome: "rate".into(),
        terms,
        random_effects,
        hausman_p: (fe.as_ref())
            .and_then(|fe| fe.tests.hausman.as_ref())
            .map(|h| h.p_value),
        random_effects_pooled: re.sigma2_u.is_some_and(|s| s <= 0.0),
        time_invariant,
        missing: missing.iter().map(|(c, _)| c.clone()).collect(),
        nobs: fe.as_ref().map_or(re.nobs, |fe| fe.nobs),
        n_entities: fe.as_ref().map_or(re.n_entities, |fe| fe.n_entities),
    })
}
