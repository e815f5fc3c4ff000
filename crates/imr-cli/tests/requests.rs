//! The engine's requests and the command line are one: for any valid request `r`, parsing
//! `imr <cmd> data.csv <r.to_args()>` with the `imr` parser gives back `r`. The outputs of the
//! requests' `run` are checked byte for byte by the snapshot tests of each subcommand
//! (rates.rs, inequality.rs, fit.rs, map.rs), which run `imr` and so `request.run`.

use clap::Parser;
use imr_cli::{Cli, Command};
use imr_core::inequality::adjusted::BirthsRatioRange;
use imr_core::models::{Estimator, VcovKind};
use imr_core::request::{
    ClassScheme, Contiguity, FitRequest, InequalityRequest, InequalitySubject, MapRequest,
    RatesRequest, SecondSeries, Smooth,
};
use imr_core::Lang;
use imr_findings::FindingsRequest;
use proptest::prelude::*;

/// Parses `imr <subcommand> data.csv <args>`.
fn parse(subcommand: &str, args: Vec<String>) -> Command {
    let words = ["imr", subcommand, "data.csv"]
        .into_iter()
        .map(String::from)
        .chain(args.clone());
    match Cli::try_parse_from(words) {
        Ok(cli) => cli.command,
        Err(e) => panic!("imr {subcommand} data.csv {args:?} does not parse: {e}"),
    }
}

/// A column name as users write them: letters (also accented), digits, `_`, spaces, commas,
/// quotes and `^`, never starting with `-` (which would be read as a flag).
fn name() -> impl Strategy<Value = String> {
    "[a-zA-Zñá_][a-zA-Z0-9ñá_ ,'^.]{0,10}"
}

fn estimator() -> impl Strategy<Value = Estimator> {
    proptest::sample::select(Estimator::ALL.to_vec())
}

fn vcov() -> impl Strategy<Value = VcovKind> {
    proptest::sample::select(VcovKind::ALL.to_vec())
}

fn fit_request() -> impl Strategy<Value = FitRequest> {
    (
        name(),
        proptest::collection::vec(name(), 1..4),
        estimator(),
        vcov(),
        proptest::option::of(name()),
        proptest::option::of(name()),
        proptest::option::of(name()),
        proptest::option::of(name()),
        prop_oneof![Just(0.95), 0.5f64..0.999],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                y,
                x,
                model,
                vcov,
                weights,
                exposure,
                fe,
                cluster,
                level,
                include_flagged,
                include_repeated_years,
            )| {
                FitRequest {
                    y,
                    x,
                    model,
                    vcov,
                    weights,
                    exposure,
                    fe,
                    cluster,
                    level,
                    include_flagged,
                    include_repeated_years,
                }
            },
        )
}

fn inequality_request() -> impl Strategy<Value = InequalityRequest> {
    let subject = prop_oneof![
        Just(InequalitySubject::Rates),
        (name(), name()).prop_map(|(of, weight)| InequalitySubject::Values { of, weight }),
    ];
    (
        subject,
        proptest::option::of((name(), name())),
        proptest::option::of(name()),
        proptest::option::of(name()),
        0usize..5000,
        any::<u64>(),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of((0.01f64..=100.0, 0.0f64..=1.0)),
    )
        .prop_map(
            |(
                subject,
                against,
                group,
                rank,
                bootstrap,
                seed,
                include_flagged,
                include_repeated_years,
                births_ratio,
            )| {
                // `--births-ratio` takes 0.01 ≤ low ≤ high ≤ 100
                let births_ratio = births_ratio.map(|(low, share)| BirthsRatioRange {
                    low,
                    high: (low + share * (100.0 - low)).min(100.0),
                });
                // `--against` goes with the rates only (clap: conflicts with --of).
                let against = match subject {
                    InequalitySubject::Rates => {
                        against.map(|(column, weight)| SecondSeries { column, weight })
                    }
                    InequalitySubject::Values { .. } => None,
                };
                InequalityRequest {
                    subject,
                    against,
                    group,
                    rank,
                    bootstrap,
                    seed,
                    include_flagged,
                    include_repeated_years,
                    births_ratio,
                }
            },
        )
}

fn map_request() -> impl Strategy<Value = MapRequest> {
    let scheme = prop_oneof![
        Just((ClassScheme::Quantile, Vec::new())),
        Just((ClassScheme::Equal, Vec::new())),
        Just((ClassScheme::Jenks, Vec::new())),
        Just((ClassScheme::Box, Vec::new())),
        Just((ClassScheme::Stddev, Vec::new())),
        proptest::collection::vec(0.0f64..1e6, 1..5)
            .prop_map(|breaks| (ClassScheme::Custom, breaks)),
    ];
    let smooth = proptest::sample::select(vec![
        Smooth::None,
        Smooth::Eb,
        Smooth::SpatialEb,
        Smooth::ExcessRisk,
    ]);
    let colours = proptest::option::of(proptest::sample::select(vec![
        "ylorrd".to_string(),
        "viridis".to_string(),
        "burd".to_string(),
    ]));
    (
        (
            1900i64..2100,
            any::<bool>(),
            proptest::option::of(name()),
            smooth,
            proptest::option::of("[a-z/_]{1,12}\\.topojson"),
            name(),
            name(),
            proptest::option::of(name()),
        ),
        (
            scheme,
            1usize..12,
            colours,
            proptest::option::of(0usize..5000),
            any::<u64>(),
            any::<bool>(),
            any::<bool>(),
            proptest::sample::select(Contiguity::ALL.to_vec()),
        ),
    )
        .prop_map(
            |(
                (year, spanish, value, smooth, geometry, code_property, name_property, object),
                (
                    (scheme, breaks),
                    classes,
                    colours,
                    moran,
                    seed,
                    lisa,
                    include_flagged,
                    contiguity,
                ),
            )| MapRequest {
                year,
                lang: if spanish { Lang::Es } else { Lang::En },
                // Smoothing goes with the rate only.
                smooth: if value.is_some() {
                    Smooth::None
                } else {
                    smooth
                },
                value,
                geometry,
                code_property,
                name_property,
                object,
                scheme,
                classes,
                breaks,
                colours,
                moran,
                seed,
                lisa,
                include_flagged,
                contiguity,
            },
        )
}

proptest! {
    #[test]
    fn fit_requests_round_trip(request in fit_request()) {
        let Command::Fit(args) = parse("fit", request.to_args()) else { panic!("not fit") };
        prop_assert_eq!(FitRequest::from(&args), request);
    }

    #[test]
    fn inequality_requests_round_trip(request in inequality_request()) {
        let Command::Inequality(args) = parse("inequality", request.to_args()) else {
            panic!("not inequality")
        };
        prop_assert_eq!(InequalityRequest::from(&args), request);
    }

    #[test]
    fn map_requests_round_trip(request in map_request()) {
        let Command::Map(args) = parse("map", request.to_args("map.svg")) else { panic!("not map") };
        prop_assert_eq!(args.out.to_str(), Some("map.svg"));
        prop_assert_eq!(MapRequest::from(&args), request);
    }
}

#[test]
fn rates_requests_round_trip() {
    let request = RatesRequest::default();
    let Command::Rates(args) = parse("rates", request.to_args()) else {
        panic!("not rates")
    };
    assert_eq!(RatesRequest::from(&args), request);
}

#[test]
fn findings_requests_round_trip_with_the_language_and_the_report_name() {
    let narrow = Some("0.9,1.1".parse().unwrap());
    let study = Some("2001-2011".parse().unwrap());
    for (include_flagged, include_repeated_years, births_ratio, years) in [
        (false, false, None, None),
        (true, false, narrow, study),
        (false, true, None, study),
        (true, true, narrow, None),
    ] {
        for lang in [Lang::Es, Lang::En] {
            let request = FindingsRequest {
                include_flagged,
                include_repeated_years,
                bundled_data: false,
                births_ratio,
                years,
            };
            let out = FindingsRequest::report_name(lang);
            let Command::Findings(args) = parse("findings", request.to_args(lang, out)) else {
                panic!("not findings")
            };
            assert_eq!(FindingsRequest::from(&args), request);
            assert_eq!((args.lang, args.out.as_deref()), (lang, Some(out.as_ref())));
        }
    }
}

#[test]
fn the_defaults_of_the_parser_are_the_defaults_of_the_requests() {
    let Command::Fit(args) = parse(
        "fit",
        vec!["--y".into(), "rate".into(), "--x".into(), "a".into()],
    ) else {
        panic!("not fit")
    };
    assert_eq!(
        FitRequest::from(&args),
        FitRequest {
            x: vec!["a".into()],
            ..FitRequest::default()
        }
    );
    let Command::Inequality(args) = parse("inequality", Vec::new()) else {
        panic!("not inequality")
    };
    assert_eq!(InequalityRequest::from(&args), InequalityRequest::default());
    let Command::Map(args) = parse(
        "map",
        vec!["--year".into(), "0".into(), "--out".into(), "m.svg".into()],
    ) else {
        panic!("not map")
    };
    assert_eq!(MapRequest::from(&args), MapRequest::default());
}
