//! A copied year (a year whose values repeat the year before, `imr_core::repeats`) is drawn as a
//! copy in the Findings' charts whether it is left out of the trends (the default) or included
//! (`--include-repeated-years`, the page's checkbox): included, it counts in the trends but is
//! still no year like the others (issue 42: "a copy must look like a copy wherever it is
//! drawn").

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::panel::Panel;
use imr_core::Lang;
use imr_findings::{compute, AdjustedGini, Findings, Options};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2001_2021.csv");

/// The bundled data with 2022 a copy of 2021 (every commune's row repeated).
fn with_2022_a_copy_of_2021() -> Panel {
    let header = BUNDLED.lines().next().unwrap();
    let year_col = header.split(',').position(|h| h == "anio").unwrap();
    let mut csv = BUNDLED.to_string();
    for line in BUNDLED.lines().skip(1) {
        let mut f: Vec<&str> = line.split(',').collect();
        if f[year_col] == "2021" {
            f[year_col] = "2022";
            csv.push_str(&f.join(","));
            csv.push('\n');
        }
    }
    let table = RawTable::from_bytes("chile_imr_2001_2022.csv", csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

fn rates_chart(f: &Findings, lang: Lang) -> String {
    f.answers(lang)
        .into_iter()
        .find(|a| a.question == "rates")
        .expect("question 1")
        .chart_svg
}

#[test]
fn an_included_copy_is_still_drawn_as_a_copy() {
    let panel = with_2022_a_copy_of_2021();
    let gini = AdjustedGini::default();
    let left_out = compute(&panel, &Options::default(), &gini);
    let included = compute(
        &panel,
        &Options {
            include_repeated_years: true,
            ..Options::default()
        },
        &gini,
    );
    assert_eq!(left_out.repeated_left_out.len(), 1);
    assert!(included.repeated_left_out.is_empty());
    for f in [&left_out, &included] {
        for lang in [Lang::Es, Lang::En] {
            let svg = rates_chart(f, lang);
            let title = imr_core::inequality::words::copy_title(lang, 2022, 2021);
            assert!(svg.contains(&format!("<title>{title}</title>")), "{svg}");
            // The copy's point is hollow, and the line under the chart says what it is.
            assert!(svg.contains(r##"fill="#fff" stroke="#b3361b""##), "{svg}");
            assert!(
                svg.contains(lang.pick("2022, copia de 2021", "2022, a copy of 2021")),
                "{svg}"
            );
        }
    }
    // Included, it counts in the trend: the note on years left out is not written.
    assert!(included.repeated_note(Lang::Es).is_none());
    assert!(left_out.repeated_note(Lang::Es).is_some());
}
