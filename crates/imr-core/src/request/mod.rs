//! Requests as values: one analysis of the page and of `imr` as plain data.
//!
//! Each request ([`RatesRequest`], [`InequalityRequest`], [`FitRequest`], [`MapRequest`]) holds
//! the options of one `imr` subcommand, is checked against a validated [`Panel`] by `validate`
//! (rates, with no options, have nothing to check), runs with `run` (the one pipeline the command line and the page share) and gives back the
//! `imr` arguments that reproduce it with `to_args`. The input files and their column roles are
//! not part of a request (a request runs on a panel already read): [`InputSpec`] holds them, and
//! [`command_line`] joins both into the whole command.
//!
//! Errors ([`RequestError`]) are in engine terms — "the weight column `x`" — never in command
//! line flags: `imr` maps each error to its flag, the page to its controls.
//!
//! ```text
//! files ─ingest→ Panel ─request.validate→ Validated… ─run→ …Result ─→ view or CLI output
//!                         request.to_args → `imr <cmd> <files> <args>` (shown by the page)
//! ```
//!
//! [`Panel`]: crate::panel::Panel

mod error;
mod fit;
mod fit_export;
mod inequality;
mod inequality_export;
mod map;
mod rates;
mod rows_kept;

pub use error::{BoundaryProblem, CodeMismatch, SpatialStatistic};
pub use fit::{FitRequest, FitResult, ValidatedFit, DEFAULT_LEVEL};
pub use fit_export::FitExport;
pub use inequality::{
    InequalityRequest, InequalityResult, InequalitySubject, SecondSeries, ValidatedInequality,
};
pub use inequality_export::{ExportChoices, ExportError, InequalityExport};
pub use map::{
    year_without_data_note, AreaRates, Boundaries, ClassScheme, ClassSummary, Coloured, Contiguity,
    LisaSummary, MapContext, MapCredits, MapExport, MapFigure, MapRequest, MapResult, MapSummary,
    MoranSummary, PreparedBoundaries, Smooth, ValidatedMap, YearSlice, LISA_ALPHA,
    LISA_PERMUTATIONS,
};
pub use rates::RatesRequest;
pub use rows_kept::RowsKept;

use serde::{Deserialize, Serialize};

/// What a column named by a request is used for (the part of the request that names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ColumnUse {
    /// The value column measured by an inequality request.
    Value,
    /// The weight of that value column.
    Weight,
    /// The second series correlated with the adjusted Gini.
    Against,
    /// The weight of the second series.
    AgainstWeight,
    /// The group column of the Theil decomposition.
    Group,
    /// The rank column of the concentration index and gradients.
    Rank,
    /// The outcome of a model.
    Outcome,
    /// A regressor of a model.
    Regressor,
    /// The analytic weights of a linear model.
    Weights,
    /// The exposure of `poisson-fe`.
    Exposure,
    /// A column of an absorbed fixed effect.
    FixedEffect,
    /// A column whose values cluster the standard errors.
    Cluster,
    /// The column mapped instead of the rate.
    MapValue,
}

impl ColumnUse {
    /// The use in words, for messages.
    pub fn word(self) -> &'static str {
        match self {
            ColumnUse::Value => "value",
            ColumnUse::Weight => "weight",
            ColumnUse::Against => "second series",
            ColumnUse::AgainstWeight => "second series' weight",
            ColumnUse::Group => "group",
            ColumnUse::Rank => "rank",
            ColumnUse::Outcome => "outcome",
            ColumnUse::Regressor => "regressor",
            ColumnUse::Weights => "weights",
            ColumnUse::Exposure => "exposure",
            ColumnUse::FixedEffect => "fixed effect",
            ColumnUse::Cluster => "cluster",
            ColumnUse::MapValue => "mapped value",
        }
    }
}

impl std::fmt::Display for ColumnUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Why a request cannot run on a panel, in engine terms (the command line names its flags).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// A column the request names is not a numeric column of the panel.
    #[error("the {role} column `{name}` is not a numeric column (numeric columns are: {})", available.join(", "))]
    NoNumericColumn {
        role: ColumnUse,
        name: String,
        /// The numeric columns the panel has.
        available: Vec<String>,
    },
    /// A key column (group, fixed effect) the request names is not a column of the panel.
    #[error("the {role} column `{name}` is not a column of the data (columns are: {})", available.join(", "))]
    NoColumn {
        role: ColumnUse,
        name: String,
        /// The columns the panel has.
        available: Vec<String>,
    },
    /// The rate is asked for but the data have no births and deaths (or rate) columns.
    #[error("the data have no births and deaths (or rate) columns")]
    NoRates,
    /// A row has no value in the group or rank column.
    #[error(transparent)]
    MissingKey(#[from] imr_inequality::panel_input::MissingKey),
    /// A model without regressors.
    #[error("give at least one regressor")]
    NoRegressors,
    /// Weights with an estimator that is fitted unweighted.
    #[error("weights are available for pooled, fe and twfe; `{model}` is fitted unweighted in R plm and Stata")]
    WeightsNotSupported { model: imr_models::Estimator },
    /// Absorbed fixed effects with an estimator other than the within model.
    #[error("absorbed fixed effects go with the within model (fe) and poisson-fe; `{model}` does not take them")]
    AbsorbedNeedsWithin { model: imr_models::Estimator },
    /// Clusters other than the entity without absorbed effects, or with standard errors that
    /// are not clustered.
    #[error("clusters (`{cluster}`) go with absorbed fixed effects and clustered standard errors (vcov cluster)")]
    ClusterNeedsAbsorbedAndClustered { cluster: String },
    /// The fixed-effect list does not parse.
    #[error("{0}")]
    FixedEffects(imr_models::ModelError),
    /// The confidence level is not strictly between 0 and 1.
    #[error("the confidence level must be between 0 and 1, got {0}")]
    Level(f64),
    /// Class breaks given for a classification other than custom breaks.
    #[error("breaks are only used by the custom classification")]
    BreaksWithoutCustom,
    /// The custom classification without breaks.
    #[error("the custom classification needs breaks, e.g. 4,6,8")]
    CustomWithoutBreaks,
    /// An unknown colour scheme.
    #[error("unknown colour scheme {0:?}; use ylorrd, blues, viridis, cividis, burd or puor")]
    UnknownColours(String),
    /// Smoothing asked for a column other than the rate.
    #[error("smoothing applies to the rate; it cannot be combined with another mapped column")]
    SmoothWithValue,
    /// The rate (or a smoothing of it) is mapped but the data have no counts.
    #[error("the rate needs births and deaths (or a rate) columns; map another column instead")]
    MapNeedsCounts,
    /// The year is not in the data.
    #[error("no row for year {year}; the data has: {}", years.iter().map(|y| y.to_string()).collect::<Vec<_>>().join(", "))]
    NoYear { year: i64, years: Vec<i64> },
    /// The boundaries cannot be read, joined as neighbours or laid out.
    #[error("{name}: {problem}")]
    Boundaries {
        /// The boundary file's name.
        name: String,
        problem: BoundaryProblem,
    },
    /// The model cannot be fitted (the engine's reason).
    #[error("{model} model: {error}")]
    ModelFailed {
        model: imr_models::Estimator,
        error: imr_models::ModelError,
    },
    /// The analysis of the second series failed.
    #[error("second series `{column}`: {error}")]
    SecondSeriesAnalysis {
        column: String,
        error: imr_inequality::InequalityError,
    },
    /// Moran's I or the LISA clusters cannot be computed on the mapped values.
    #[error("{statistic}: {error}")]
    Spatial {
        statistic: SpatialStatistic,
        error: imr_map::autocorrelation::AutocorrelationError,
    },
    /// The funnel plot cannot be drawn.
    #[error("funnel plot: {0}")]
    Funnel(imr_map::smoothing::SmoothError),
    /// The mapped values of the year cannot be computed (smoothing, excess risk).
    #[error("year {year}: {error}")]
    MapValues {
        year: i64,
        error: imr_map::smoothing::SmoothError,
    },
    /// The mapped values of the year cannot be classified.
    #[error("year {year}: {error}")]
    Classification {
        year: i64,
        error: imr_map::classify::ClassifyError,
    },
    /// The inequality analysis cannot be computed on the subject.
    #[error(transparent)]
    Inequality(imr_inequality::InequalityError),
    /// The rate table cannot be computed.
    #[error(transparent)]
    Rates(crate::rates::RateError),
}

/// The input files and the columns chosen for each role: the part of an `imr` command before the
/// request's own arguments. `None` leaves the guess from the column names.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct InputSpec {
    /// The files, as the shell should see them (paths relative to where `imr` runs).
    pub files: Vec<String>,
    /// Column chosen for each role (`entity`, `time`, `births`, `deaths`, `rate`), in the
    /// order of [`crate::ingest::Role::ALL`].
    pub roles: Vec<(crate::ingest::Role, String)>,
    /// The year of the rows of files without a year column
    /// ([`crate::ingest::IngestOptions::time_value`]), when given.
    pub time_value: Option<i64>,
    /// The publication lag of the rate column ([`crate::ingest::IngestOptions::rate_lag`]),
    /// when given; 0 is none.
    #[serde(default)]
    pub rate_lag: Option<u32>,
    /// The sheets read of the spreadsheets among `files` (`--sheet NAME…`, `--sheets all`).
    #[serde(default)]
    pub sheets: crate::ingest::SheetChoice,
}

impl InputSpec {
    /// The input of `files` read with the page's column choices: `tables` holds, for each
    /// readable file, its columns and the roles chosen there. A role flag of the command names
    /// one column in every file, so each role takes the column chosen in the first table that
    /// has that role.
    pub fn of_tables(
        files: Vec<String>,
        tables: &[(&[String], &crate::ingest::ColumnRoles)],
    ) -> InputSpec {
        let roles = crate::ingest::Role::ALL
            .into_iter()
            .filter_map(|role| {
                let column = tables
                    .iter()
                    .find_map(|(columns, roles)| columns.get(roles.get(role)?).cloned())?;
                Some((role, column))
            })
            .collect();
        InputSpec {
            files,
            roles,
            time_value: None,
            rate_lag: None,
            sheets: crate::ingest::SheetChoice::Unspecified,
        }
    }

    /// This input with the sheets read of its spreadsheets.
    pub fn with_sheets(self, sheets: crate::ingest::SheetChoice) -> InputSpec {
        InputSpec { sheets, ..self }
    }

    /// This input with the year of the rows of files without a year column.
    pub fn with_time_value(self, time_value: Option<i64>) -> InputSpec {
        InputSpec { time_value, ..self }
    }

    /// This input with the publication lag of the rate column.
    pub fn with_rate_lag(self, rate_lag: Option<u32>) -> InputSpec {
        InputSpec { rate_lag, ..self }
    }

    /// The files, then the sheets of their spreadsheets (`--sheet NAME…`, `--sheets all`),
    /// then `--<role> <column>` for each chosen role, then `--time-value <year>` when given,
    /// then `--rate-lag <years>` for a lag above 0.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = self.files.clone();
        args.extend(self.sheets.to_args());
        for (role, column) in &self.roles {
            args.push(format!("--{}", role.label()));
            args.push(column.clone());
        }
        if let Some(year) = self.time_value {
            args.push("--time-value".into());
            args.push(year.to_string());
        }
        if let Some(lag) = self.rate_lag.filter(|&k| k > 0) {
            args.push("--rate-lag".into());
            args.push(lag.to_string());
        }
        args
    }
}

/// The whole command: `imr <subcommand> <input> <request arguments>`, one word per element
/// (quote it for a shell with [`crate::escape::shell_join`]).
pub fn command_line(subcommand: &str, input: &InputSpec, request_args: Vec<String>) -> Vec<String> {
    let mut words = vec!["imr".to_string(), subcommand.to_string()];
    words.extend(input.to_args());
    words.extend(request_args);
    words
}

/// A numeric column of the panel or the error naming its use.
pub(crate) fn numeric(
    panel: &crate::panel::Panel,
    name: &str,
    role: ColumnUse,
) -> Result<Vec<Option<f64>>, RequestError> {
    panel
        .numeric_column(name)
        .ok_or_else(|| RequestError::NoNumericColumn {
            role,
            name: name.to_string(),
            available: panel.numeric_variables(),
        })
}

/// `args` extended by `--flag value` when `value` is set.
pub(crate) fn push_opt(args: &mut Vec<String>, flag: &str, value: Option<&str>) {
    if let Some(v) = value {
        args.push(flag.to_string());
        args.push(v.to_string());
    }
}

#[cfg(test)]
mod spanish;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{RawTable, Role};
    use crate::panel::Panel;
    use imr_models::Estimator;

    const CSV: &[u8] = b"comuna,anio,nacimientos,defunciones,region,pobreza\n\
        01101,2019,1000,8,I,10\n01101,2020,1100,7,I,11\n01107,2019,500,5,I,20\n\
        01107,2020,520,3,I,19\n02101,2019,2000,20,II,5\n02101,2020,2100,15,II,6\n\
        02102,2019,300,1,II,30\n02102,2020,310,4,II,28\n";

    #[test]
    fn the_input_names_each_role_by_the_first_table_that_has_it() {
        let table = RawTable::from_bytes("small.csv", CSV).unwrap();
        let mut roles = table.guessed_roles.clone();
        roles.set(Role::Deaths, None);
        roles.set(Role::Births, Some(5));
        let mut second = table.guessed_roles.clone();
        second.set(Role::Deaths, Some(3));
        second.set(Role::Births, Some(2));
        let input = InputSpec::of_tables(
            vec!["small.csv".into(), "more.csv".into()],
            &[(&table.columns, &roles), (&table.columns, &second)],
        );
        assert_eq!(
            input.to_args(),
            [
                "small.csv",
                "more.csv",
                "--entity",
                "comuna",
                "--time",
                "anio",
                "--births",
                "pobreza",
                "--deaths",
                "defunciones"
            ]
        );
    }

    fn panel() -> Panel {
        crate::test_support::panel_of(std::str::from_utf8(CSV).unwrap())
    }

    /// No engine message names a command-line flag.
    fn assert_no_flag(err: &RequestError) {
        let text = err.to_string();
        assert!(!text.contains("--"), "{text}");
    }

    #[test]
    fn unknown_columns_are_named_with_their_use_and_no_flag() {
        let panel = panel();
        let err = FitRequest {
            x: vec!["nope".into()],
            ..FitRequest::default()
        }
        .validate(&panel)
        .unwrap_err();
        assert!(matches!(
            &err,
            RequestError::NoNumericColumn { role: ColumnUse::Regressor, name, .. } if name == "nope"
        ));
        assert_no_flag(&err);
        let err = InequalityRequest {
            group: Some("provincia".into()),
            ..InequalityRequest::default()
        }
        .validate(&panel)
        .unwrap_err();
        assert!(matches!(
            &err,
            RequestError::NoColumn {
                role: ColumnUse::Group,
                ..
            }
        ));
        assert_no_flag(&err);
        let err = InequalityRequest {
            against: Some(SecondSeries {
                column: "ingreso".into(),
                weight: "births".into(),
            }),
            ..InequalityRequest::default()
        }
        .validate(&panel)
        .unwrap_err();
        assert!(matches!(
            &err,
            RequestError::NoNumericColumn {
                role: ColumnUse::Against,
                ..
            }
        ));
    }

    #[test]
    fn model_rules_are_checked_before_fitting_in_engine_words() {
        let panel = panel();
        let base = FitRequest {
            x: vec!["pobreza".into()],
            ..FitRequest::default()
        };
        for (request, expected) in [
            (
                FitRequest {
                    model: Estimator::Re,
                    weights: Some("births".into()),
                    ..base.clone()
                },
                RequestError::WeightsNotSupported {
                    model: Estimator::Re,
                },
            ),
            (
                FitRequest {
                    model: Estimator::Re,
                    fe: Some("region".into()),
                    ..base.clone()
                },
                RequestError::AbsorbedNeedsWithin {
                    model: Estimator::Re,
                },
            ),
            (
                FitRequest {
                    cluster: Some("region".into()),
                    ..base.clone()
                },
                RequestError::ClusterNeedsAbsorbedAndClustered {
                    cluster: "region".into(),
                },
            ),
            (
                FitRequest {
                    fe: Some("region".into()),
                    cluster: Some("region".into()),
                    vcov: imr_models::VcovKind::Hc1,
                    ..base.clone()
                },
                RequestError::ClusterNeedsAbsorbedAndClustered {
                    cluster: "region".into(),
                },
            ),
            (
                FitRequest {
                    level: 1.5,
                    ..base.clone()
                },
                RequestError::Level(1.5),
            ),
        ] {
            let err = request.validate(&panel).unwrap_err();
            assert_eq!(err, expected);
            assert_no_flag(&err);
        }
        assert!(base.run(&panel).is_ok());
    }

    #[test]
    fn the_models_view_rule_poisson_models_deaths_and_weights_go_with_linear_models() {
        let request = FitRequest {
            x: vec!["pobreza".into()],
            weights: Some("births".into()),
            fe: Some("region".into()),
            ..FitRequest::default()
        };
        let poisson = request.for_model(Estimator::PoissonFe);
        assert_eq!(
            (
                poisson.y.as_str(),
                poisson.exposure.as_deref(),
                &poisson.weights
            ),
            ("deaths", Some("births"), &None)
        );
        assert_eq!(request.for_model(Estimator::Re).weights, None);
        assert_eq!(request.for_model(Estimator::Re).fe, None);
        // poisson-fe absorbs them too (pyfixest's fepois)
        assert_eq!(poisson.fe.as_deref(), Some("region"));
        assert_eq!(
            request.for_model(Estimator::Fe).fe.as_deref(),
            Some("region")
        );
        assert_eq!(
            request.for_model(Estimator::Twfe).weights.as_deref(),
            Some("births")
        );
        assert!(poisson.run(&panel()).is_ok());
        let absorbed = FitRequest {
            weights: None,
            ..request
        }
        .for_model(Estimator::Fe);
        assert_eq!(absorbed.run(&panel()).unwrap().fixed_effects.len(), 1);
    }

    #[test]
    fn a_map_request_names_what_the_data_lack() {
        let panel = panel();
        let map = MapRequest {
            year: 2019,
            ..MapRequest::default()
        };
        assert!(map.validate(&panel).is_ok());
        assert_eq!(
            MapRequest {
                year: 1990,
                ..map.clone()
            }
            .validate(&panel)
            .unwrap_err(),
            RequestError::NoYear {
                year: 1990,
                years: vec![2019, 2020]
            }
        );
        let err = MapRequest {
            value: Some("ingreso".into()),
            ..map.clone()
        }
        .validate(&panel)
        .unwrap_err();
        assert!(matches!(
            err,
            RequestError::NoNumericColumn {
                role: ColumnUse::MapValue,
                ..
            }
        ));
        let err = MapRequest {
            value: Some("pobreza".into()),
            smooth: Smooth::Eb,
            ..map
        }
        .validate(&panel)
        .unwrap_err();
        assert_eq!(err, RequestError::SmoothWithValue);
        assert_no_flag(&err);
    }

    #[test]
    fn the_command_names_files_roles_and_every_option() {
        let input = InputSpec {
            files: vec!["mis datos.csv".into()],
            roles: vec![(Role::Births, "nacimientos".into())],
            time_value: None,
            rate_lag: None,
            sheets: crate::ingest::SheetChoice::Unspecified,
        };
        let request = InequalityRequest {
            subject: InequalitySubject::Values {
                of: "pobreza".into(),
                weight: "births".into(),
            },
            group: Some("region".into()),
            bootstrap: 200,
            ..InequalityRequest::default()
        };
        assert_eq!(
            crate::escape::shell_join(command_line(
                InequalityRequest::SUBCOMMAND,
                &input,
                request.to_args()
            )),
            "imr inequality 'mis datos.csv' --births nacimientos --of pobreza --weight births \
             --group region --bootstrap 200 --seed 20240601"
        );
        // The year of files without a year column follows the roles.
        let of_2023 = input.with_time_value(Some(2023));
        assert_eq!(
            crate::escape::shell_join(command_line(RatesRequest::SUBCOMMAND, &of_2023, vec![])),
            "imr rates 'mis datos.csv' --births nacimientos --time-value 2023"
        );
        // The rates' lag comes last, when above 0.
        let lagged = of_2023.with_rate_lag(Some(2));
        assert_eq!(
            crate::escape::shell_join(command_line(RatesRequest::SUBCOMMAND, &lagged, vec![])),
            "imr rates 'mis datos.csv' --births nacimientos --time-value 2023 --rate-lag 2"
        );
        let same_year = lagged.with_rate_lag(Some(0));
        assert!(!same_year.to_args().contains(&"--rate-lag".to_owned()));
    }

    #[test]
    fn a_request_runs_as_its_parts_do() {
        let panel = panel();
        let result = InequalityRequest {
            bootstrap: 0,
            ..InequalityRequest::default()
        }
        .run(&panel)
        .unwrap();
        assert!(result.left_out.is_empty());
        assert_eq!(result.analysis.report.years.len(), 2);
        assert!(RatesRequest::default().run(&panel).is_ok());
    }
}
