//! What the Models view makes of [`FitRequest`]s, outside the browser so that it is tested
//! natively: the regressors it offers and checks, the analysis data its R, Stata and `imr` code
//! read, the `imr fit` commands it shows, the rows of its coefficient table and the message of a
//! model that cannot be fitted.

use crate::escape::{shell_join, CsvOptions, CsvWriter};
use crate::ingest::Role;
use crate::panel::{Panel, BUILTIN_COLUMNS};
use crate::request::{command_line, FitRequest, InputSpec, RequestError};
use imr_models::{parse_fixed_effects, Estimator, Fit, INTERCEPT};

/// Regressors checked when the view opens, where the data have them (the original study's
/// poverty, municipal health money, schooling, SAPU and distance to the base hospital). The
/// bundled data's health money is spending per inhabitant in 2006–2012 (`gasto_salud_pc`) and
/// income per inhabitant in 2019–2021 (`ingreso_salud_pc`), never both in one year: the second
/// is checked only in data without the first ([`DEFAULT_ALTERNATES`]).
pub const DEFAULT_REGRESSORS: [&str; 5] = [
    "pobreza",
    "gasto_salud_pc",
    "sin_educacion_formal_2017",
    "sapu",
    "dist_hospital_km",
];

/// Regressors checked by default in place of one of [`DEFAULT_REGRESSORS`] that the data lack:
/// (the default, its stand-in).
pub const DEFAULT_ALTERNATES: [(&str, &str); 1] = [("gasto_salud_pc", "ingreso_salud_pc")];

/// Models shown when the view opens: fixed effects drop the time-invariant characteristics,
/// random and correlated random effects estimate them.
pub const DEFAULT_MODELS: [Estimator; 3] = [Estimator::Fe, Estimator::Re, Estimator::Cre];

/// File name of the analysis data the Models view downloads; its R, Stata and `imr` code read it.
pub const ANALYSIS_DATA_FILE: &str = "imr_modelos_datos.csv";

/// Numeric columns offered as regressors: the covariates of the panel (not births, deaths, rate).
pub fn regressor_candidates(panel: &Panel) -> Vec<String> {
    panel
        .numeric_names
        .iter()
        .filter(|n| !BUILTIN_COLUMNS.contains(&n.as_str()))
        .cloned()
        .collect()
}

/// The regressors of the view: the `candidates` other than the `outcome` that were `chosen`, or,
/// before any choice, those of [`DEFAULT_REGRESSORS`] and the [`DEFAULT_ALTERNATES`] of the
/// ones missing (in the candidates' order).
pub fn chosen_regressors(
    candidates: &[String],
    outcome: &str,
    chosen: Option<&[String]>,
) -> Vec<String> {
    let has = |name: &str| candidates.iter().any(|c| c == name);
    let by_default = |c: &str| {
        DEFAULT_REGRESSORS.contains(&c)
            || DEFAULT_ALTERNATES
                .iter()
                .any(|(default, alternate)| *alternate == c && !has(default))
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

/// The columns of the fixed effects the requests absorb (`region^anio` gives `region` and
/// `anio`) and of their clusters (`--cluster region,anio`), for the analysis data; a spec that
/// does not parse adds none (its fit reports it).
pub fn absorbed_columns(requests: &[FitRequest]) -> Vec<String> {
    let effects = requests
        .iter()
        .filter_map(|r| parse_fixed_effects(r.fe.as_deref()?).ok())
        .flatten()
        .flatten();
    let clusters = requests
        .iter()
        .filter_map(|r| r.cluster.as_deref())
        .flat_map(|c| c.split(',').map(|name| name.trim().to_owned()));
    let mut columns: Vec<String> = Vec::new();
    for name in effects.chain(clusters) {
        if !columns.contains(&name) {
            columns.push(name);
        }
    }
    columns
}

/// The analysis data the R, Stata and `imr` code run on: entity, time, births, deaths, rate
/// (per 1,000, `1000 · deaths / births` as [`Panel::numeric_column`] gives it), every numeric
/// covariate of the validated panel and the `text_columns` among its text columns (those of
/// absorbed fixed effects), one row per panel row in the panel's order; numbers written in full
/// (shortest round-trip form), so that the code reproduces the page's numbers bit for bit;
/// through the one CSV writer (quoting, formula guard).
pub fn analysis_csv(panel: &Panel, text_columns: &[String]) -> String {
    let number = |v: &Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
    let mut header = vec![panel.entity_column.clone(), panel.time_column.clone()];
    let mut keys: Vec<Vec<Option<String>>> = vec![
        panel.key_column(&panel.entity_column).unwrap_or_default(),
        panel.key_column(&panel.time_column).unwrap_or_default(),
    ];
    let mut numbers: Vec<Vec<Option<f64>>> = Vec::new();
    let builtin = [
        ("births", panel.has_births),
        ("deaths", panel.has_deaths),
        ("rate", panel.has_rates()),
    ];
    let covariates = panel.numeric_names.iter().filter(|n| {
        !BUILTIN_COLUMNS.contains(&n.as_str())
            && **n != panel.entity_column
            && **n != panel.time_column
    });
    let numeric = builtin
        .iter()
        .filter(|(_, present)| *present)
        .map(|(name, _)| *name)
        .chain(covariates.map(String::as_str));
    for name in numeric {
        if let Some(column) = panel.numeric_column(name) {
            header.push(name.to_owned());
            numbers.push(column);
        }
    }
    let mut texts: Vec<Vec<Option<String>>> = Vec::new();
    for name in text_columns {
        if panel.text_names.contains(name) {
            if let Some(column) = panel.key_column(name) {
                header.push(name.clone());
                texts.push(column);
            }
        }
    }
    let mut csv = CsvWriter::new(CsvOptions::default());
    csv.record(&header);
    for row in 0..keys[0].len() {
        let mut fields: Vec<String> = Vec::with_capacity(header.len());
        fields.extend(keys.iter_mut().map(|c| c[row].take().unwrap_or_default()));
        fields.extend(numbers.iter().map(|c| number(&c[row])));
        fields.extend(texts.iter_mut().map(|c| c[row].take().unwrap_or_default()));
        csv.record(&fields);
    }
    csv.into_string()
}

/// The `imr fit` command of each request on the downloaded analysis data
/// ([`ANALYSIS_DATA_FILE`], its entity and time columns named), printing JSON: what the view
/// shows under its downloads.
pub fn analysis_commands(requests: &[FitRequest], entity: &str, time: &str) -> Vec<String> {
    let input = InputSpec {
        files: vec![ANALYSIS_DATA_FILE.to_string()],
        roles: vec![
            (Role::Entity, entity.to_owned()),
            (Role::Time, time.to_owned()),
        ],
        time_value: None,
        rate_lag: None,
    };
    requests
        .iter()
        .map(|r| {
            let mut args = r.to_args();
            args.extend(["--format".to_string(), "json".to_string()]);
            shell_join(command_line(FitRequest::SUBCOMMAND, &input, args))
        })
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

    use crate::test_support::panel_of as panel;

    #[test]
    fn the_analysis_data_quote_and_guard_hostile_names() {
        let p = panel(
            "comuna,anio,nacimientos,defunciones,\"=HYPERLINK(1), x\"\n\
             01101,2019,1000,8,1.5\n01101,2020,1100,7,-2\n",
        );
        let text = analysis_csv(&p, &[]);
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("comuna,anio,births,deaths,rate,\"'=HYPERLINK(1), x\"")
        );
        // 1000 · 7 / 1100 in full (shortest round trip).
        assert_eq!(lines.next(), Some("01101,2019,1000,8,8,1.5"));
        assert_eq!(lines.next(), Some("01101,2020,1100,7,6.363636363636363,-2"));
        assert_eq!(lines.next(), None);
    }

    #[test]
    fn the_analysis_data_carry_absorbed_text_columns_and_missing_cells() {
        let p = panel(
            "comuna,anio,nacimientos,defunciones,pobreza,region\n\
             01101,2019,1000,8,,Norte\n05101,2019,500,2,3.25,\n",
        );
        assert_eq!(p.text_names, ["region"]);
        let text = analysis_csv(&p, &["region".to_owned(), "not_a_column".to_owned()]);
        assert_eq!(
            text,
            "comuna,anio,births,deaths,rate,pobreza,region\n\
             01101,2019,1000,8,8,,Norte\n05101,2019,500,2,4,3.25,\n"
        );
        // Without the text column asked for, it is left out.
        assert!(analysis_csv(&p, &[]).starts_with("comuna,anio,births,deaths,rate,pobreza\n"));
    }

    #[test]
    fn the_fit_on_the_analysis_data_is_the_fit_on_the_input_bit_for_bit() {
        // A rate without deaths: deaths derived (rate × births / 1000), then written in full.
        let input = panel(
            "comuna,anio,nacimientos,tmi,pobreza\n\
             01101,2019,1000,8.1,10.5\n01101,2020,1100,7.3,9.75\n01101,2021,900,6.7,9.1\n\
             05101,2019,500,4.4,20.25\n05101,2020,520,5.9,19.5\n05101,2021,480,3.3,18.0\n\
             13101,2019,3000,6.1,5.5\n13101,2020,3100,6.6,5.25\n13101,2021,2900,5.2,5.0\n",
        );
        let again = panel(&analysis_csv(&input, &[]));
        let request = FitRequest {
            x: vec!["pobreza".into()],
            ..FitRequest::default()
        };
        for model in [Estimator::Fe, Estimator::Pooled] {
            let (a, b) = (
                request.for_model(model).run(&input).unwrap(),
                request.for_model(model).run(&again).unwrap(),
            );
            assert_eq!(
                imr_models::report::coefficients_csv(&a),
                imr_models::report::coefficients_csv(&b)
            );
        }
    }

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
    }

    #[test]
    fn absorbed_columns_split_terms_and_interactions() {
        let requests = [
            FitRequest {
                fe: Some("codigo_comuna,region^anio".into()),
                ..FitRequest::default()
            },
            FitRequest::default(),
        ];
        assert_eq!(
            absorbed_columns(&requests),
            ["codigo_comuna", "region", "anio"]
        );
        // the cluster columns go into the data too, each once
        let clustered = [FitRequest {
            fe: Some("codigo_comuna".into()),
            cluster: Some("region, codigo_comuna".into()),
            ..FitRequest::default()
        }];
        assert_eq!(absorbed_columns(&clustered), ["codigo_comuna", "region"]);
    }

    #[test]
    fn the_commands_read_the_analysis_data_and_quote_their_words() {
        let request = FitRequest {
            x: vec!["pobreza".into(), "a b".into()],
            fe: Some("comuna,region^anio".into()),
            ..FitRequest::default()
        };
        assert_eq!(
            analysis_commands(&[request], "codigo_comuna", "anio"),
            [
                "imr fit imr_modelos_datos.csv --entity codigo_comuna --time anio --y rate \
              --x pobreza --x 'a b' --model fe --vcov cluster --fe 'comuna,region^anio' \
              --format json"
            ]
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
