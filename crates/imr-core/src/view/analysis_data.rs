//! The analysis data the Models view downloads ([`ANALYSIS_DATA_FILE`]) with its fits' R,
//! Stata and `imr` code, which read it: built here once for the view and for imr-cli's R test
//! (tests/r_scripts.rs), which runs that code in R.

use crate::escape::{shell_join, CsvOptions, CsvWriter};
use crate::ingest::Role;
use crate::models::report::CodeContext;
use crate::panel::{Panel, BUILTIN_COLUMNS};
use crate::request::{command_line, FitRequest, InputSpec, RowsKept};
use crate::Lang;
use imr_models::parse_fixed_effects;

/// File name of the analysis data the Models view downloads; its R, Stata and `imr` code read it.
pub const ANALYSIS_DATA_FILE: &str = "imr_modelos_datos.csv";

/// The analysis data of the fits of a panel: the rows the fits use (without the rows flagged
/// as implausible unless they are included), so that the code of each fit and `imr fit` on the
/// file reproduce the fits.
#[derive(Debug, Clone, Copy)]
pub struct AnalysisData<'a> {
    /// The panel the fits ran on.
    pub panel: &'a Panel,
    /// The fits keep the rows flagged as implausible (the views' shared include choice).
    pub include_flagged: bool,
    /// The fits keep the years that copy the year before (the views' shared include choice).
    pub include_repeated_years: bool,
}

impl<'a> AnalysisData<'a> {
    /// How the code of a fit reads the file: its own columns (births, deaths, rate), its time
    /// column also for a file of one year, its provenance lines; and the flagged rows left out
    /// by the code too (as `imr fit` on that file does) when the fits leave them out.
    pub fn code_context(&self) -> CodeContext<'a> {
        let panel = self.panel;
        CodeContext {
            csv_file: ANALYSIS_DATA_FILE,
            entity: &panel.entity_column,
            time: &panel.time_column,
            time_value: None,
            comment_lines: crate::provenance::CSV_HEADER_LINES,
            delimiter: ',',
            decimal: '.',
            births: panel.has_births.then_some("births"),
            deaths: panel.has_deaths.then_some("deaths"),
            rate: None,
            drop_flagged: !self.include_flagged,
            // The file holds no copied year the fits left out: nothing to drop.
            drop_years: &[],
        }
    }

    /// The file's CSV (without its provenance lines, which the caller adds) for the fits of
    /// `requests`: the rows they use ([`RowsKept`], as [`FitRequest::validate`] keeps them),
    /// with the text columns of their absorbed fixed effects and clusters.
    pub fn csv(&self, requests: &[FitRequest]) -> String {
        let text_columns = absorbed_columns(requests);
        let kept = RowsKept::of(
            self.panel,
            self.include_flagged,
            self.include_repeated_years,
        );
        analysis_csv(kept.panel.as_ref().unwrap_or(self.panel), &text_columns)
    }

    /// The `imr fit` command of each request on the downloaded analysis data
    /// ([`ANALYSIS_DATA_FILE`], its entity and time columns named), printing JSON: what the view
    /// shows under its downloads. For a reader of another language than English it names
    /// `--csv-lang` and `--lang` too, so that the same command with `--format csv` or
    /// `--format markdown|latex` writes the coefficient CSV and the tables the view downloads in
    /// that language.
    pub fn commands(&self, requests: &[FitRequest], lang: Lang) -> Vec<String> {
        let input = InputSpec {
            files: vec![ANALYSIS_DATA_FILE.to_string()],
            roles: vec![
                (Role::Entity, self.panel.entity_column.clone()),
                (Role::Time, self.panel.time_column.clone()),
            ],
            time_value: None,
            rate_lag: None,
            sheets: crate::ingest::SheetChoice::Unspecified,
        };
        requests
            .iter()
            .map(|r| {
                let mut args = r.to_args();
                // `--format csv` writes the coefficient CSV the page downloads in its language
                args.extend(crate::spreadsheet_csv::csv_lang_args(lang));
                if lang != Lang::En {
                    args.extend(["--lang".to_string(), lang.tag().to_string()]);
                }
                args.extend(["--format".to_string(), "json".to_string()]);
                shell_join(command_line(FitRequest::SUBCOMMAND, &input, args))
            })
            .collect()
    }
}

/// The columns of the fixed effects the requests absorb (`region^anio` gives `region` and
/// `anio`) and of their clusters (`--cluster region,anio`), for the analysis data; a spec that
/// does not parse adds none (its fit reports it).
fn absorbed_columns(requests: &[FitRequest]) -> Vec<String> {
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
fn analysis_csv(panel: &Panel, text_columns: &[String]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::panel_of as panel;
    use imr_models::Estimator;

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
                imr_models::report::coefficients_csv_many_with(&[a], Default::default()),
                imr_models::report::coefficients_csv_many_with(&[b], Default::default())
            );
        }
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
        let panel = panel("codigo_comuna,anio,pobreza\n01101,2019,1\n");
        let data = AnalysisData {
            panel: &panel,
            include_flagged: false,
            include_repeated_years: false,
        };
        let english = "imr fit imr_modelos_datos.csv --entity codigo_comuna --time anio --y rate \
              --x pobreza --x 'a b' --model fe --vcov cluster --fe 'comuna,region^anio' \
              --format json";
        assert_eq!(
            data.commands(std::slice::from_ref(&request), Lang::En),
            [english]
        );
        // a Spanish reader's command writes the Spanish tables and coefficient CSV she downloads
        assert_eq!(
            data.commands(&[request], Lang::Es),
            [english.replace(" --format json", " --csv-lang es --lang es --format json")]
        );
    }
}
