//! Years whose deaths were reconstructed from a published rate (the bundled 2017–2019 and 2021,
//! `imr_core::reconstructed`) are drawn and said as what they are in the answers over the years
//! (issue 42.4: "a year that is a copy, missing or flagged must look like one wherever it is
//! drawn"): diamonds on the charts, a line under each chart, a caveat naming exactly those
//! years; the missing 2016 and 2020 are grey bands said under the chart.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::Lang;
use imr_findings::{compute, AdjustedGini, Findings, Options};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2001_2021.csv");

fn findings(csv: &str, options: &Options) -> Findings {
    let table = RawTable::from_bytes("chile_imr_2001_2021.csv", csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    compute(&panel, options, &AdjustedGini::default())
}

#[test]
fn the_bundled_reconstructed_years_are_diamonds_and_a_caveat_in_the_answers_over_the_years() {
    let f = findings(BUNDLED, &Options::default());
    for (lang, caveat, said) in [
        (
            Lang::Es,
            "Las defunciones de 2017–2019 y 2021 no son conteos publicados",
            ["Rombos: 2017–2019 y 2021,", "Gris: 2016 y 2020, sin datos"],
        ),
        (
            Lang::En,
            "The deaths of 2017–2019 and 2021 are not published counts",
            [
                "Diamonds: 2017–2019 and 2021,",
                "Grey: 2016 and 2020, no data",
            ],
        ),
    ] {
        for question in ["rates", "inequality"] {
            let a = f.answers(lang).into_iter().find(|a| a.question == question);
            let a = a.unwrap_or_else(|| panic!("no answer {question}"));
            assert!(
                a.caveats.iter().any(|c| c.starts_with(caveat)),
                "{question}: {:?}",
                a.caveats
            );
            // One diamond per series point of a reconstructed year: 4 years, one or more series.
            let diamonds = a.chart_svg.matches("class=\"reconstructed\"").count();
            assert!(diamonds > 0 && diamonds % 4 == 0, "{question}: {diamonds}");
            for words in said {
                assert!(a.chart_svg.contains(words), "{question}: {}", a.chart_svg);
            }
        }
    }
    let years: Vec<i64> = f.reconstructed_years.iter().map(|y| y.time).collect();
    assert_eq!(years, vec![2017, 2018, 2019, 2021]);
}

/// Answers on 2001–2015 (a span without them) neither draw nor mention reconstructed years;
/// a file without the deaths' source column has none.
#[test]
fn answers_without_reconstructed_years_say_nothing_of_them() {
    let options = Options {
        span: Some(imr_findings::YearSpan {
            first: 2001,
            last: 2015,
        }),
        ..Options::default()
    };
    let early = findings(BUNDLED, &options);
    assert!(early.reconstructed_note(Lang::Es).is_none());
    let header = BUNDLED.lines().next().unwrap();
    let column = header
        .split(',')
        .position(|h| h == "fuente_defunciones")
        .unwrap();
    let without: String = BUNDLED
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(column);
            f.join(",") + "\n"
        })
        .collect();
    let f = findings(&without, &Options::default());
    assert!(f.reconstructed_years.is_empty());
    for a in f.answers(Lang::Es) {
        assert!(!a.chart_svg.contains("reconstru"), "{}", a.question);
        assert!(a.caveats.iter().all(|c| !c.contains("reconstru")));
    }
}
