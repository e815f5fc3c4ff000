//! Quick check of the adjusted measures, run from the repository root:
//! `cargo run --release -p imr-inequality --example adjusted_check -- REPLICATES` prints the
//! standard simulation grid without the bootstrap columns (REPLICATES = 0: only the timing of
//! the adjusted fit of the bundled years, `defunciones_infantiles` on `nacidos_vivos`).
use imr_inequality::simulate::{run, standard_grid};
use std::time::Instant;

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let text = std::fs::read_to_string("public/data/chile_imr_2001_2021.csv").unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (year_col, births_col, deaths_col) = (
        at("anio"),
        at("nacidos_vivos"),
        at("defunciones_infantiles"),
    );
    // The rows with counts (2016 and 2020 have none).
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| !f[deaths_col].is_empty() && !f[births_col].is_empty())
        .collect();
    let years: Vec<String> = {
        let mut y: Vec<String> = rows.iter().map(|f| f[year_col].to_string()).collect();
        y.dedup();
        y.sort();
        y.dedup();
        y
    };
    let t = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        for year in &years {
            let year_rows: Vec<&Vec<&str>> = rows.iter().filter(|f| f[year_col] == year).collect();
            let births: Vec<f64> = year_rows
                .iter()
                .map(|f| f[births_col].parse().unwrap())
                .collect();
            let deaths: Vec<f64> = year_rows
                .iter()
                .map(|f| f[deaths_col].parse().unwrap())
                .collect();
            let year: i64 = year.parse().unwrap();
            imr_inequality::adjusted::fit_year(year, &deaths, &births, 1000.0, 0.95).unwrap();
        }
    }
    println!(
        "adjusted fit of the {} bundled years: {:.1?} per run (mean of {rounds})",
        years.len(),
        t.elapsed() / rounds
    );
    let t = Instant::now();
    for _ in 0..rounds {
        for year in &years {
            let year_rows: Vec<&Vec<&str>> = rows.iter().filter(|f| f[year_col] == year).collect();
            let births: Vec<f64> = year_rows
                .iter()
                .map(|f| f[births_col].parse().unwrap())
                .collect();
            let deaths: Vec<f64> = year_rows
                .iter()
                .map(|f| f[deaths_col].parse().unwrap())
                .collect();
            let year: i64 = year.parse().unwrap();
            imr_inequality::adjusted::fit_year_with(
                year,
                &deaths,
                &births,
                1000.0,
                0.95,
                Some(imr_inequality::adjusted::BirthsRatioRange::default()),
            )
            .unwrap();
        }
    }
    println!(
        "with the sensitivity range over the births ratio: {:.1?} per run (mean of {rounds})",
        t.elapsed() / rounds
    );
    if reps == 0 {
        return;
    }
    let births: Vec<f64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[year_col] == "2019")
        .map(|f| f[births_col].parse().unwrap())
        .collect();
    for s in standard_grid(&births) {
        let t = Instant::now();
        let r = run(&s, reps, 0, 7);
        println!(
            "{:40} cv {:.2}: gini truth {:.3} obs {:.3} adj {:.3} cov {:.2} | theil truth {:.4} adj {:.4} cov {:.2} | rej {:.2} unav {} trend0 {:?} trendT {:?} obsexcl {:?} ({:.1?})",
            s.name, s.true_cv, r.gini.truth_mean, r.gini.observed_mean, r.gini.adjusted_mean, r.gini.adjusted_coverage,
            r.theil_t.truth_mean, r.theil_t.adjusted_mean, r.theil_t.adjusted_coverage,
            r.excess_rejects_5pct, r.adjusted_unavailable, r.adjusted_trend_covers_zero, r.adjusted_trend_covers_truth, r.observed_trend_excludes_zero, t.elapsed()
        );
    }
}
