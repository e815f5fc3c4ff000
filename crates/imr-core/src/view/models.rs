//! What the Models view makes of its fits, outside the browser so that it is tested natively:
//! the regressors it offers and checks, the rows of its coefficient table and the message of a
//! model that cannot be fitted (its analysis data and commands: [`super::analysis_data`]).

use crate::data::study;
use crate::panel::{Panel, BUILTIN_COLUMNS};
use crate::request::RequestError;
use imr_models::{Estimator, Fit, INTERCEPT};

/// Models shown when the view opens: fixed effects drop the time-invariant characteristics,
/// random and correlated random effects estimate them.
pub const DEFAULT_MODELS: [Estimator; 3] = [Estimator::Fe, Estimator::Re, Estimator::Cre];

/// Numeric columns offered as regressors: the covariates of the panel that are measurements
/// ([`crate::model_columns::measurements`]: not births, deaths, rate, a code or a year).
pub fn regressor_candidates(panel: &Panel) -> Vec<String> {
    crate::model_columns::measurements(panel)
        .into_iter()
        .filter(|n| !BUILTIN_COLUMNS.contains(&n.as_str()))
        .collect()
}

/// Columns offered as the Models view's outcome: the rate, births and deaths the panel has,
/// then its [measurements](crate::model_columns::measurements).
pub fn outcome_candidates(panel: &Panel) -> Vec<String> {
    let builtin =
        (panel.numeric_variables().into_iter()).filter(|n| BUILTIN_COLUMNS.contains(&n.as_str()));
    builtin.chain(regressor_candidates(panel)).collect()
}

/// The regressors of the view: the `candidates` other than the `outcome` that were `chosen`, or,
/// before any choice, the study's covariates where the data have them
/// ([`study::default_regressors`], also under the name a person wrote: [`study::column_for`]) and
/// the stand-ins of the ones missing ([`study::stand_ins`]), in the candidates' order.
pub fn chosen_regressors(
    candidates: &[String],
    outcome: &str,
    chosen: Option<&[String]>,
) -> Vec<String> {
    // A covariate under the name a person wrote for it ("Pobreza (%)") counts as the study's.
    let is = |name: &str, c: &str| study::column_for(name, candidates).is_some_and(|n| n == c);
    let has = |name: &str| study::column_for(name, candidates).is_some();
    let by_default = |c: &str| {
        study::default_regressors().any(|d| is(d, c))
            || study::stand_ins().any(|(default, stand_in)| is(stand_in, c) && !has(default))
    };
    candidates
        .iter()
        .filter(|c| c.as_str() != outcome)
        .filter(|c| match chosen {
            Some(list) => list.contains(c),
            None => by_default(c),
        })
        .cloned()
        .collect()
}

/// Rows of the coefficient table: the requested regressors, then the other terms of the fits
/// (the entity means of `cre`) in the order met, the intercept last when a fit has one.
pub fn table_terms<'a>(
    fits: impl IntoIterator<Item = &'a Fit>,
    regressors: &[String],
) -> Vec<String> {
    let mut terms: Vec<String> = regressors.to_vec();
    let mut intercept = false;
    for fit in fits {
        for c in &fit.coefficients {
            if c.term == INTERCEPT {
                intercept = true;
            } else if !terms.contains(&c.term) {
                terms.push(c.term.clone());
            }
        }
    }
    if intercept {
        terms.push(INTERCEPT.to_string());
    }
    terms
}

/// The coefficient plot's title: the outcome in the reader's words and what each row shows
/// ("Tasa de mortalidad infantil (por 1.000 nacidos vivos): cambio asociado a cada
/// característica").
pub fn coef_plot_title(lang: crate::Lang, outcome: &str) -> String {
    let outcome = crate::column_words::column_label(lang, outcome);
    match lang {
        crate::Lang::Es => format!("{outcome}: cambio asociado a cada característica"),
        crate::Lang::En => format!("{outcome}: change associated with each characteristic"),
    }
}

/// Why a model of the Models view cannot be fitted, in `lang`, as the view shows it beside the
/// model's name (so a failed model's message does not name it again). A model's own reason
/// ([`RequestError::ModelFailed`]) is the estimator's, in `lang` too.
pub fn fit_failure_text(error: &RequestError, lang: crate::Lang) -> String {
    match error {
        RequestError::NoRates => lang
            .pick(
                "poisson-fe necesita defunciones y nacimientos",
                "poisson-fe needs deaths and births",
            )
            .into(),
        RequestError::ModelFailed { error, .. } => error.text(lang),
        other => other.text(lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::FitRequest;
    use crate::test_support::panel_of as panel;

    #[test]
    fn regressors_are_the_covariates_chosen_or_the_defaults() {
        let p = panel(
            "comuna,anio,nacimientos,defunciones,pobreza,sapu,altitud\n01101,2019,1000,8,1,0,5\n",
        );
        let candidates = regressor_candidates(&p);
        assert_eq!(candidates, ["pobreza", "sapu", "altitud"]);
        assert_eq!(
            chosen_regressors(&candidates, "rate", None),
            ["pobreza", "sapu"]
        );
        assert_eq!(chosen_regressors(&candidates, "pobreza", None), ["sapu"]);
        let chosen = ["altitud".to_owned(), "pobreza".to_owned()];
        assert_eq!(
            chosen_regressors(&candidates, "rate", Some(&chosen)),
            ["pobreza", "altitud"]
        );
        assert!(chosen_regressors(&candidates, "rate", Some(&[])).is_empty());
        // Health income stands in for health spending only where spending is absent.
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let both = names(&["gasto_salud_pc", "ingreso_salud_pc", "sapu"]);
        assert_eq!(
            chosen_regressors(&both, "rate", None),
            ["gasto_salud_pc", "sapu"]
        );
        let income = names(&["ingreso_salud_pc", "sapu"]);
        assert_eq!(
            chosen_regressors(&income, "rate", None),
            ["ingreso_salud_pc", "sapu"]
        );
        // A newcomer's "Pobreza (%)" and "SAPU" are the study's poverty and SAPU.
        let hers = names(&["Pobreza (%)", "SAPU", "Población"]);
        assert_eq!(
            chosen_regressors(&hers, "rate", None),
            ["Pobreza (%)", "SAPU"]
        );
    }

    #[test]
    fn table_rows_are_the_regressors_then_other_terms_then_the_intercept() {
        let p = panel(
            "comuna,anio,nacimientos,defunciones,pobreza\n\
             01101,2019,1000,8,10\n01101,2020,1100,7,9\n05101,2019,500,4,20\n\
             05101,2020,520,6,19\n13101,2019,3000,18,5\n13101,2020,3100,20,6\n",
        );
        let request = FitRequest {
            x: vec!["pobreza".into()],
            ..FitRequest::default()
        };
        let fits: Vec<Fit> = [Estimator::Fe, Estimator::Cre]
            .into_iter()
            .map(|m| request.for_model(m).run(&p).unwrap())
            .collect();
        let terms = table_terms(&fits, &["pobreza".to_owned()]);
        assert_eq!(terms.first().map(String::as_str), Some("pobreza"));
        assert_eq!(terms.last().map(String::as_str), Some(INTERCEPT));
        assert!(terms.contains(&"pobreza_mean".to_owned()), "{terms:?}");
        assert_eq!(
            table_terms(&fits[..1], &["pobreza".to_owned()]),
            ["pobreza"]
        );
    }

    #[test]
    fn a_poisson_model_without_counts_says_what_it_needs() {
        // Births but no deaths: poisson-fe has no counts to model.
        let p = panel(
            "comuna,anio,nacimientos,pobreza,ruralidad\n01101,2019,100,1,2\n01101,2020,90,2,3\n",
        );
        let request = FitRequest {
            y: "pobreza".into(),
            x: vec!["ruralidad".into()],
            ..FitRequest::default()
        };
        let error = request.for_model(Estimator::PoissonFe).run(&p).unwrap_err();
        assert_eq!(
            fit_failure_text(&error, crate::Lang::En),
            "poisson-fe needs deaths and births"
        );
        assert_eq!(
            fit_failure_text(&error, crate::Lang::Es),
            "poisson-fe necesita defunciones y nacimientos"
        );
    }
}
