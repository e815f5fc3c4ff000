//! A year that copies the year before in every commune is not a second observation: the fits
//! leave it out as the trends and the Findings' models do, each of its rows listed with its
//! reason, unless included (`--include-repeated-years`). The Models view fitted a newcomer's
//! file with 2020 a copy of 2019 on 63 observations while its takeaway, the Findings' question
//! 4, used 42 (issue 42 re-run). The analysis data the view downloads leave the copy out too,
//! and the R and Stata code of `imr fit` on the raw file drop its rows.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::models::report::{r_code, stata_code, CodeContext};
use imr_core::models::ExclusionReason;
use imr_core::panel::Panel;
use imr_core::request::FitRequest;
use imr_core::view::analysis_data::AnalysisData;

/// 12 communes over 2019–2021, 2020 a copy of 2019 (births and deaths), poverty changing each
/// year (a copy of the counts need not copy the covariates).
fn csv(copy: bool) -> String {
    let mut out = String::from("codigo_comuna,anio,nacidos_vivos,defunciones_infantiles,pobreza\n");
    for year in [2019, 2020, 2021] {
        for c in 0..12_u32 {
            let source_year = if copy && year == 2020 { 2019 } else { year };
            let births = 400 + 37 * c + 11 * (source_year as u32 - 2019);
            let deaths = (c * 7 + source_year as u32) % 9;
            let poverty =
                5.0 + f64::from(c) * 1.5 + f64::from(year - 2019) * (0.3 + f64::from(c % 3));
            out.push_str(&format!(
                "{:05},{year},{births},{deaths},{poverty}\n",
                1101 + c
            ));
        }
    }
    out
}

fn panel(text: &str) -> Panel {
    let table = RawTable::from_bytes("datos.csv", text.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

fn request() -> FitRequest {
    FitRequest {
        x: vec!["pobreza".into()],
        ..FitRequest::default()
    }
}

#[test]
fn a_copied_year_is_left_out_of_the_fit_and_listed_unless_included() {
    let copied = panel(&csv(true));
    let fit = request().run(&copied).unwrap();
    assert_eq!(fit.nobs, 24);
    let copies: Vec<usize> = fit
        .excluded_rows
        .iter()
        .filter(|r| {
            matches!(
                r.reason,
                ExclusionReason::RepeatedYear {
                    time: 2020,
                    repeat_of: 2019
                }
            )
        })
        .map(|r| r.row)
        .collect();
    // Lines 14–25 of the file hold 2020 (header on line 1).
    assert_eq!(copies, (14..=25).collect::<Vec<_>>());
    // The same fit as on the file without 2020's rows.
    let without: String = csv(true)
        .lines()
        .filter(|l| !l.contains(",2020,"))
        .map(|l| format!("{l}\n"))
        .collect();
    let alone = request().run(&panel(&without)).unwrap();
    assert_eq!(fit.coefficients, alone.coefficients);

    let included = FitRequest {
        include_repeated_years: true,
        ..request()
    };
    let all = included.run(&copied).unwrap();
    assert_eq!(all.nobs, 36);
    assert!(all.excluded_rows.is_empty());
    assert!(included
        .to_args()
        .contains(&"--include-repeated-years".to_string()));
    assert!(!request()
        .to_args()
        .contains(&"--include-repeated-years".to_string()));
    // Data without a copy: nothing left out.
    assert_eq!(request().run(&panel(&csv(false))).unwrap().nobs, 36);
}

#[test]
fn the_analysis_data_and_the_code_leave_the_copy_out_as_the_fit_does() {
    let copied = panel(&csv(true));
    let fit = request().run(&copied).unwrap();
    let data = AnalysisData {
        panel: &copied,
        include_flagged: false,
        include_repeated_years: false,
    };
    let file = data.csv(&[request()]);
    assert!(!file.contains(",2020,"), "{file}");
    assert_eq!(
        request().run(&panel(&file)).unwrap().coefficients,
        fit.coefficients
    );
    let kept = AnalysisData {
        include_repeated_years: true,
        ..data
    };
    assert_eq!(kept.csv(&[request()]).matches(",2020,").count(), 12);

    // The code of `imr fit` on the raw file drops the copy's rows.
    let validated = request().validate(&copied).unwrap();
    assert_eq!(validated.copies_left_out(), [(2020, 2019)]);
    let ctx = CodeContext {
        drop_years: validated.copies_left_out(),
        ..data.code_context()
    };
    let r = r_code(&fit, &ctx);
    assert!(r.contains("d <- d[!(d[[\"anio\"]] %in% c(2020)), ]"), "{r}");
    assert!(r.contains("2020 repeats 2019"));
    let stata = stata_code(&fit, &ctx);
    assert!(stata.contains("drop if inlist(anio, 2020)"), "{stata}");
}
