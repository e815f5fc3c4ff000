//! The findings on the bundled dataset, and on modified copies of it: every sentence comes from
//! the results (change the data and the sentences change), flagged rows are left out, and the
//! wording never claims a cause.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::panel::Panel;
use imr_core::rates::RateTable;
use imr_core::Lang;
use imr_findings::words::{number, CAUSAL_WORDS};
use imr_findings::{compute, AdjustedGini, Findings, Options, QUESTIONS, STUDY_QUESTION};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2001_2021.csv");

fn panel_of(csv: &str) -> Panel {
    let table = RawTable::from_bytes("chile_imr_2001_2021.csv", csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

fn findings_of(panel: &Panel) -> Findings {
    compute(panel, &Options::default(), &AdjustedGini::default())
}

fn all_text(f: &Findings, lang: Lang) -> String {
    f.answers(lang)
        .iter()
        .flat_map(|a| {
            std::iter::once(a.headline.clone())
                .chain(a.details.clone())
                .chain(a.caveats.clone())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The answer to `question` in `lang`.
fn answer(f: &Findings, lang: Lang, question: &str) -> imr_findings::Answer {
    f.answers(lang)
        .into_iter()
        .find(|a| a.question == question)
        .unwrap_or_else(|| panic!("no answer {question}"))
}

/// The bundled CSV with the infant deaths of every row of `year` multiplied by `factor`.
fn with_deaths_scaled(year: &str, factor: u64) -> String {
    let header: Vec<&str> = BUNDLED.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (year_col, columns) = (
        at("anio"),
        [
            at("defunciones_infantiles"),
            at("defunciones_min"),
            at("defunciones_max"),
        ],
    );
    let mut out = String::new();
    for (k, line) in BUNDLED.lines().enumerate() {
        let mut f: Vec<String> = line.split(',').map(str::to_owned).collect();
        if k > 0 && f[year_col] == year {
            for c in columns {
                if let Ok(d) = f[c].parse::<u64>() {
                    f[c] = (d * factor).to_string();
                }
            }
        }
        out.push_str(&f.join(","));
        out.push('\n');
    }
    out
}

/// SINIM's integer rates as published (data/raw/sinim, v839 labelled 2019–2023) on INE's births
/// of the same labelled year (data/raw/ine): deaths derived from a published rate.
fn sinim_as_published() -> String {
    let raw = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/raw");
    imr_dataset::sinim_rates_as_labelled(std::path::Path::new(raw)).unwrap()
}

#[test]
fn the_five_questions_and_the_study_are_answered_on_the_bundled_data_in_both_languages() {
    let panel = panel_of(BUNDLED);
    let f = findings_of(&panel);
    assert!(f.rates.is_ok(), "{:?}", f.rates);
    assert!(f.inequality.is_ok(), "{:?}", f.inequality);
    assert!(f.health_income.is_ok(), "{:?}", f.health_income);
    assert!(f.models.is_ok(), "{:?}", f.models);
    assert!(f.where_highest.is_ok(), "{:?}", f.where_highest);
    assert!(f.study.is_some());
    assert_eq!(f.span, Some([2001, 2021]));
    for lang in [Lang::Es, Lang::En] {
        let answers = f.answers(lang);
        let ids: Vec<&str> = answers.iter().map(|a| a.question).collect();
        let mut expected = vec![STUDY_QUESTION];
        expected.extend(QUESTIONS);
        assert_eq!(ids, expected);
        for a in &answers {
            assert!(!a.headline.is_empty());
            assert!(a.chart_svg.starts_with("<svg"), "{}", a.question);
            // The yearly answers' data: a row per year with deaths (2016 and 2020 have none).
            if ["study", "rates", "inequality"].contains(&a.question) {
                assert_eq!(a.data.rows.len(), 19, "{}: a row per year", a.question);
            }
        }
        assert_eq!(answers[0].number, None);
        assert_eq!(answers[1].heading().chars().next(), Some('1'));
    }
    // General Lagos (15202): 1 death among 4 births in 2004 and among 1 in 2021, left out.
    assert_eq!(f.flagged_left_out, 2);
    assert_eq!(f.flagged_left_out, f.flagged_total);
    let top = &f.where_highest.as_ref().unwrap().top;
    assert!(top.iter().all(|c| c.entity != "15202"));
    assert!(f.flagged_note(Lang::Es).unwrap().contains("inverosímiles"));
    // 2016 and 2020 have no deaths: no year of the answers is either.
    let years: Vec<i64> = f
        .rates
        .as_ref()
        .unwrap()
        .years
        .iter()
        .map(|y| y.time)
        .collect();
    assert_eq!(years.len(), 19);
    assert!(!years.contains(&2016) && !years.contains(&2020));
}

/// The study's conclusion (2001–2011: median stable, inequality rising) beside the bundled
/// counts: every number the answer gives is a trend of the data computed here again, and the
/// verdict follows the adjusted Gini's interval. On INE's counts the adjusted Gini fell over
/// 2001–2011 (its interval is below zero) and the median commune's rate fell too.
#[test]
fn the_study_answer_sets_the_studys_conclusion_beside_the_counts() {
    use imr_core::inequality::{adjusted::adjusted_trend, linear_trend};
    use imr_findings::words::{interval, Direction};
    let bundled = Options {
        bundled_data: true,
        ..Options::default()
    };
    let f = compute(&panel_of(BUNDLED), &bundled, &AdjustedGini::default());
    let c = f.study.as_ref().unwrap();
    assert_eq!((c.study_period.first, c.study_period.last), (2001, 2011));
    assert_eq!((c.whole_series.first, c.whole_series.last), (2001, 2021));
    // Independently: the trends from the per-year values of the answers.
    let rates = f.rates.as_ref().unwrap();
    let medians: Vec<(i64, f64)> = rates
        .years
        .iter()
        .filter(|y| y.time <= 2011)
        .map(|y| (y.time, y.median_per_1000.unwrap()))
        .collect();
    let median = linear_trend(&medians, 0.95).unwrap();
    let study_median = c.study_period.median.unwrap();
    assert!((study_median.slope - median.slope).abs() < 1e-12);
    let series = &f.inequality.as_ref().unwrap().series;
    let points: Vec<(i64, f64, [f64; 2])> = series
        .years
        .iter()
        .filter(|y| y.time <= 2011)
        .map(|y| (y.time, y.value, y.ci.unwrap()))
        .collect();
    let adjusted = adjusted_trend(&points, 0.95).unwrap();
    let study_adjusted = c.study_period.adjusted_gini.unwrap();
    assert!((study_adjusted.slope - adjusted.slope).abs() < 1e-12);
    assert_eq!(study_adjusted.n_years, 11);
    // The verdicts as the data give them, and the headline that says them.
    assert_eq!(c.inequality_verdict(), Some(Direction::Below));
    assert_eq!(study_median.direction(), Some(Direction::Below));
    let es = answer(&f, Lang::Es, STUDY_QUESTION);
    // The fall rests on single years (tests/pivotal.rs): the answer hedges and names them.
    assert!(es.headline.starts_with("Probablemente no, aunque por poco: con las defunciones publicadas por el INE, la desigualdad entre comunas bajó entre 2001 y 2011"), "{}", es.headline);
    assert!(
        es.headline.contains("la tasa de la comuna mediana bajó"),
        "{}",
        es.headline
    );
    let en = answer(&f, Lang::En, STUDY_QUESTION);
    assert!(
        en.headline.starts_with(
            "Probably not, though narrowly: with the deaths INE published, inequality between communes fell from 2001 to 2011"
        ),
        "{}",
        en.headline
    );
    // The adjusted trend's interval is in a sentence, as computed.
    let ci = interval(Lang::En, [adjusted.ci_low, adjusted.ci_high], 4);
    assert!(
        en.details.iter().any(|d| d.contains(&ci)),
        "{ci} in {:?}",
        en.details
    );
    // The whole series is there too.
    assert!(en
        .details
        .iter()
        .any(|d| d.starts_with("Over the whole series (2001–2021)")));
}

/// A series cut to its own years is the series: the trend of `within` is the engine's.
#[test]
fn a_series_within_all_its_years_has_the_engines_trend() {
    let f = findings_of(&panel_of(BUNDLED));
    let i = f.inequality.as_ref().unwrap();
    for s in std::iter::once(&i.series).chain(i.observed.as_ref()) {
        let (first, last) = (s.years[0].time, s.years.last().unwrap().time);
        let w = s.within(first, last);
        assert!((w.slope_per_year.unwrap() - s.slope_per_year.unwrap()).abs() < 1e-12);
        let (a, b) = (w.slope_ci.unwrap(), s.slope_ci.unwrap());
        assert!((a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12);
        assert_eq!(w.years, s.years);
    }
}

/// The answers on the study's period read only its years; the answer on the study is the same
/// whichever span is shown.
#[test]
fn a_span_of_years_restricts_the_five_answers_and_not_the_study() {
    let panel = panel_of(BUNDLED);
    let all = findings_of(&panel);
    let span = "2001-2011".parse().unwrap();
    let f = compute(
        &panel,
        &Options {
            span: Some(span),
            ..Options::default()
        },
        &AdjustedGini::default(),
    );
    assert_eq!(f.span, Some([2001, 2011]));
    assert_eq!(f.study, all.study);
    let years: Vec<i64> = f
        .rates
        .as_ref()
        .unwrap()
        .years
        .iter()
        .map(|y| y.time)
        .collect();
    assert_eq!(years, (2001..=2011).collect::<Vec<_>>());
    let gini: Vec<i64> = f
        .inequality
        .as_ref()
        .unwrap()
        .series
        .years
        .iter()
        .map(|y| y.time)
        .collect();
    assert_eq!(gini, years);
    let w = f.where_highest.as_ref().unwrap();
    assert_eq!((w.first_time, w.last_time), (2001, 2011));
    // Health spending (2006–2012) is the money column of the study's years: 6 years in common.
    let h = f.health_income.as_ref().unwrap();
    assert_eq!(h.column, "gasto_salud_pc");
    assert_eq!(h.correlation.n_years, 6);
    assert!(f
        .span_note(Lang::Es, true)
        .unwrap()
        .starts_with("Respuestas sobre 2001–2011"));
}

/// Data that are not Chile's communes, or without the study's years, get no answer on the study.
#[test]
fn the_study_answer_needs_chiles_communes_in_the_studys_years() {
    let late: String = BUNDLED
        .lines()
        .enumerate()
        .filter(|(k, l)| *k == 0 || l.split(',').nth(4).is_some_and(|y| y >= "2012"))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert!(findings_of(&panel_of(&late)).study.is_none());
    let mut other = String::from("id,year,births,deaths\n");
    for id in 0..40 {
        for year in 2001..=2011 {
            other.push_str(&format!("A{id},{year},{},{}\n", 200 + 7 * id, id % 5));
        }
    }
    let f = findings_of(&panel_of(&other));
    assert!(f.rates.is_ok());
    assert!(f.study.is_none());
}

#[test]
fn the_rates_headline_states_the_pooled_rate_of_the_rate_table() {
    let panel = panel_of(BUNDLED);
    let f = findings_of(&panel);
    // Independent: the rate table of the panel without the flagged rows.
    let kept = imr_core::plausibility::Plausibility::check(&panel).without_flagged(&panel);
    let table = RateTable::from_panel(&kept).unwrap();
    let last = table.national.last().unwrap();
    assert_eq!(last.time, 2021);
    let headline = answer(&f, Lang::En, "rates").headline;
    assert!(
        headline.contains(&format!(
            "In 2021 it was {} per 1,000 live births",
            number(Lang::En, last.estimate.rate.unwrap(), 2)
        )),
        "{headline}"
    );
    let es = answer(&f, Lang::Es, "rates").headline;
    assert!(
        es.contains(&number(Lang::Es, last.estimate.rate.unwrap(), 2)),
        "{es}"
    );
}

#[test]
fn changing_the_data_changes_the_sentences() {
    let before = findings_of(&panel_of(BUNDLED));
    let after = findings_of(&panel_of(&with_deaths_scaled("2021", 3)));
    for lang in [Lang::Es, Lang::En] {
        // Rates, inequality and where it is highest all move.
        for q in ["rates", "inequality", "where"] {
            assert_ne!(
                answer(&before, lang, q).headline,
                answer(&after, lang, q).headline,
                "question {q}"
            );
        }
        assert_ne!(
            answer(&before, lang, "rates").details,
            answer(&after, lang, "rates").details
        );
    }
    // Tripling 2021 triples the national rate of the last year.
    let r = after.rates.as_ref().unwrap();
    let y = r.years.last().unwrap();
    let y0 = &before.rates.as_ref().unwrap().years.last().unwrap();
    assert!((y.pooled_per_1000.unwrap() / y0.pooled_per_1000.unwrap() - 3.0).abs() < 0.05);
}

#[test]
fn two_years_are_too_few_years_to_say() {
    let two: String = BUNDLED
        .lines()
        .enumerate()
        // The year is the fifth field (a births count can read 2014 too).
        .filter(|(k, l)| *k == 0 || matches!(l.split(',').nth(4), Some("2014" | "2015")))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let f = findings_of(&panel_of(&two));
    assert!(f.study.is_none());
    let rates = answer(&f, Lang::En, "rates");
    assert!(
        rates.details[0].contains("too few years to say"),
        "{:?}",
        rates.details
    );
    assert!(answer(&f, Lang::En, "inequality").details[0].contains("too few years to say"));
    let h = answer(&f, Lang::En, "health-income").headline;
    assert!(
        h.contains("too few years")
            || h.contains("no correlation")
            || h.contains("which they do not have"),
        "{h}"
    );
    assert!(answer(&f, Lang::Es, "rates").details[0].contains("muy pocos años"));
    // No interval is stated, so no caveat on what it reflects; no figure to embed is missing.
    assert!(
        rates.caveats.iter().all(|c| !c.contains("interval")),
        "{:?}",
        rates.caveats
    );
    let bundled = findings_of(&panel_of(BUNDLED));
    let full = answer(&bundled, Lang::En, "rates");
    assert!(full.caveats.iter().any(|c| c.contains("trend's interval")));
    assert!(full.has_figure());
}

/// An unanswered question has no figure to offer an article (its snippet would publish the
/// reason it is unanswered).
#[test]
fn an_unanswered_question_has_no_figure() {
    let no_deaths: String = BUNDLED
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{},{},{}\n", f[0], f[4], f[14])
        })
        .collect();
    let f = findings_of(&panel_of(&no_deaths));
    for question in ["rates", "inequality", "where"] {
        let a = answer(&f, Lang::Es, question);
        assert!(!a.has_figure(), "{question}: {}", a.headline);
    }
}

#[test]
fn no_sentence_claims_a_cause_and_covering_intervals_say_not_distinguishable() {
    for csv in [BUNDLED.to_string(), with_deaths_scaled("2021", 3)] {
        let f = findings_of(&panel_of(&csv));
        for lang in [Lang::Es, Lang::En] {
            let text = all_text(&f, lang).to_lowercase();
            for w in CAUSAL_WORDS {
                // "not causes" / "no causas" / "evidencia de causalidad" deny a cause.
                let denied = text
                    .replace("not causes", "")
                    .replace("not evidence of a cause", "")
                    .replace("no causas", "")
                    .replace("no evidencia de causa", "");
                assert!(!denied.contains(w), "`{w}` in:\n{text}");
            }
        }
        // Every model term whose interval covers zero is worded so, and only those.
        let models = f.models.as_ref().unwrap();
        let en = answer(&f, Lang::En, "models");
        for (t, s) in models.terms.iter().zip(&en.details) {
            let covers = t.ci[0] <= 0.0 && 0.0 <= t.ci[1];
            assert_eq!(s.contains("not distinguishable from zero"), covers, "{s}");
        }
        // The embed's table writes each term's interval as its sentence does, at the answer's
        // one precision (the sentence read "0,38" beside "0,381" in the table).
        let es = answer(&f, Lang::Es, "models");
        let d = es.data.decimals.expect("question 4 fixes one precision");
        let marks = imr_core::inequality::YearMarks::default();
        let embed = imr_findings::embed::snippet(&es, Lang::Es, ("", ""), &marks);
        for (t, s) in models.terms.iter().zip(&es.details) {
            for bound in t.ci {
                let written = Lang::Es.grouped(bound, d);
                assert!(s.contains(&written), "{written} in {s}");
                let cell = format!("<td style=\"padding:2px 4px\">{written}</td>");
                assert!(embed.contains(&cell), "{cell} in {embed}");
            }
        }
    }
}

/// Over every year the covariates have (2006–2012 for health spending and poverty): health
/// spending varies within communes and is answered by fixed effects; the ficha's poverty is one
/// value per commune, so it, SAPU, schooling and the distance come from random effects.
#[test]
fn models_use_fixed_effects_and_say_what_they_cannot_estimate() {
    let f = findings_of(&panel_of(BUNDLED));
    let m = f.models.as_ref().unwrap();
    use imr_core::models::Estimator;
    let by = |c: &str| m.terms.iter().find(|t| t.column == c).unwrap();
    assert_eq!(by("gasto_salud_pc").estimator, Estimator::Fe);
    assert_eq!(by("gasto_salud_pc").per, 10.0);
    assert_eq!(by("pobreza").estimator, Estimator::Re);
    assert_eq!(by("dist_hospital_km").estimator, Estimator::Re);
    assert!(m.time_invariant.contains(&"sapu".to_string()));
    assert!(m.time_invariant.contains(&"pobreza".to_string()));
    // Only rows with every covariate of their own year: 2006–2012 (345 × 7 at most).
    assert!(m.nobs <= 345 * 7 && m.nobs > 2000, "{}", m.nobs);
    let caveats = answer(&f, Lang::En, "models").caveats.join(" ");
    assert!(caveats.contains("do not estimate factors that do not change within a commune"));
}

#[test]
fn including_flagged_rows_puts_general_lagos_back() {
    let panel = panel_of(BUNDLED);
    let f = compute(
        &panel,
        &Options {
            include_flagged: true,
            ..Options::default()
        },
        &AdjustedGini::default(),
    );
    assert_eq!(f.flagged_left_out, 0);
    assert!(f.flagged_note(Lang::En).is_none());
    let with = f.rates.as_ref().unwrap().years.last().unwrap().n_areas;
    let without = findings_of(&panel)
        .rates
        .unwrap()
        .years
        .last()
        .unwrap()
        .n_areas;
    assert_eq!(with, without + 1);
}

#[test]
fn the_report_is_self_contained_html_with_every_question() {
    let f = findings_of(&panel_of(BUNDLED));
    let html = imr_findings::report::report_html(&f, Lang::Es, "Fuente: chile_imr_2001_2021.csv");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for q in QUESTIONS.iter().chain([&STUDY_QUESTION]) {
        assert!(html.contains(&format!("data-question=\"{q}\"")));
    }
    assert!(html.contains("<h2>¿Confirman estos datos el estudio?</h2>"));
    assert!(html.contains("<h2>1. ¿Baja la mortalidad infantil?</h2>"));
    // No request can leave a printed report: the only URL is the SVG namespace.
    assert_eq!(
        html.matches("http").count(),
        html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
    assert!(!html.contains("<script"));
    assert!(html.contains("@media print"));
    // Opened on a phone it lays out at the phone's width (it laid out 980 px wide, shrunk),
    // its charts no wider than the screen.
    assert!(
        html.contains(r#"<meta name="viewport" content="width=device-width, initial-scale=1">"#)
    );
    assert!(html.contains("svg{max-width:100%;height:auto}"));
}

#[test]
fn the_eb_posterior_interval_matches_scipy() {
    // tests/reference/gamma_posterior.py, scipy 1.14.1 (gamma.ppf).
    let cases = [
        ((0.007, 4e-6, 3.0, 250.0), [4.2910588650, 11.9015227570]),
        ((0.007, 4e-6, 0.0, 9.0), [3.6269789109, 11.3718040022]),
        ((0.0065, 1e-5, 40.0, 5000.0), [5.6924268349, 10.2971662933]),
    ];
    for ((theta, var, d, b), [lo, hi]) in cases {
        let [l, h] = imr_findings::compute::eb_posterior_interval(theta, var, d, b).unwrap();
        assert!(
            (l - lo).abs() < 1e-6 * lo && (h - hi).abs() < 1e-6 * hi,
            "{l} {h} vs {lo} {hi}"
        );
    }
    assert_eq!(
        imr_findings::compute::eb_posterior_interval(0.007, 0.0, 3.0, 250.0),
        None
    );
}

#[test]
fn an_embed_snippet_carries_its_chart_data_source_and_licence_without_requests() {
    let f = findings_of(&panel_of(BUNDLED));
    let rates = &answer(&f, Lang::En, "rates");
    let no_marks = imr_core::inequality::YearMarks::default();
    let s = imr_findings::embed::snippet(
        rates,
        Lang::En,
        (
            "Source: chile_imr_2001_2021.csv",
            imr_findings::embed::bundled_credit(Lang::En),
        ),
        &no_marks,
    );
    assert!(s.contains("<svg") && s.contains("</figure>"));
    assert!(s.contains("(CC-BY)") && s.contains("Source: chile_imr_2001_2021.csv"));
    // A chart without a map credits no boundaries.
    assert!(!s.contains("chilemapas") && !s.contains("GPL"));
    // Ready to publish: the question as title, then what the chart measures and its years.
    let first_year = f.rates.as_ref().unwrap().years.first().unwrap().time;
    let last_year = f.rates.as_ref().unwrap().years.last().unwrap().time;
    assert!(s.contains(&format!(">{}</p>", rates.title)), "{s}");
    assert!(
        s.contains(&format!(
            ">National rate and median commune rate per year, {first_year}–{last_year}</p>"
        )),
        "{s}"
    );
    // One data row per year, with the pooled rate of the answer.
    let years = f.rates.as_ref().unwrap().years.len();
    assert_eq!(s.matches("<tr><td").count(), years);
    assert_eq!(rates.data.rows.len(), years);
    assert!(!s.contains("<script") && !s.contains("src=") && !s.contains("href="));
    // In Spanish: Spanish words, and the table's numbers with a decimal comma.
    let rates_es = &answer(&f, Lang::Es, "rates");
    let es = imr_findings::embed::snippet(
        rates_es,
        Lang::Es,
        (
            "Fuente: chile_imr_2001_2021.csv",
            imr_findings::embed::bundled_credit(Lang::Es),
        ),
        &no_marks,
    );
    assert!(es.contains("<summary>Datos</summary>") && es.contains("<th style=\"border-bottom:1px solid #999;padding:2px 4px;text-align:left\">Año</th>"));
    let first = &rates_es.data.rows[0];
    assert!(first[1].contains('.'), "{first:?}");
    // Rounded for reading: a rate with two decimals, in the Spanish marks.
    let rate: f64 = first[1].parse().unwrap();
    assert!(es.contains(&format!(
        "<td style=\"padding:2px 4px\">{}</td>",
        Lang::Es.grouped(rate, 2)
    )));
    for cell in es.split("<td style=\"padding:2px 4px\">").skip(1) {
        let text = &cell[..cell.find("</td>").unwrap()];
        assert!(imr_lang::decimal_points(text).is_empty(), "{text}");
    }
    // A year that copies the one before says so in its row, as the chart draws it dashed (the
    // embed's table showed a copied 2020 as a year of data).
    let copied = imr_core::inequality::YearMarks::of_copies(vec![(2012, 2011)]);
    let es = imr_findings::embed::snippet(rates_es, Lang::Es, ("", ""), &copied);
    assert!(
        es.contains("<tr><td style=\"padding:2px 4px\">2012 (copia de 2011)</td>"),
        "{es}"
    );
    assert_eq!(es.matches("(copia de").count(), 1);
}

/// The health-income correlation is of the adjusted Gini, and its Pearson interval carries each
/// year's uncertainty: it contains the interval that takes the five yearly values as exact
/// (Fisher z on the same points), as the simulated coverage of `correlate_adjusted` requires.
#[test]
fn the_health_income_interval_carries_the_yearly_uncertainty_of_the_adjusted_gini() {
    let f = findings_of(&panel_of(BUNDLED));
    let inequality = f.inequality.as_ref().expect("inequality answered");
    assert_eq!(inequality.series.kind, imr_findings::SeriesKind::Adjusted);
    let h = f.health_income.as_ref().expect("health income answered");
    let exact = imr_core::inequality::correlate(&h.imr_inequality, &h.income_gini, 0.95);
    let (r, ci) = (
        h.correlation.pearson.unwrap(),
        h.correlation.pearson_ci.unwrap(),
    );
    let exact_ci = exact.pearson_ci.unwrap();
    assert!(
        (r - exact.pearson.unwrap()).abs() < 1e-12,
        "same point estimate"
    );
    assert!(
        ci[0] <= exact_ci[0] && ci[1] >= exact_ci[1],
        "{ci:?} vs {exact_ci:?}"
    );
}

/// Counted deaths on registered births (the bundled data) have no births-ratio range: the
/// answer gives none. SINIM's rates as published, on INE's births, are rates: the deaths are
/// derived, and the inequality answer says between which values the adjusted Gini lies over the
/// births ratio 0.7–1.0 (one sentence, both languages); each year's range sits inside the
/// interval of range and chance together, which contains the year's own interval.
#[test]
fn the_inequality_answer_gives_the_range_over_the_births_ratio_for_published_rates() {
    let counted = findings_of(&panel_of(BUNDLED));
    let s = &counted.inequality.as_ref().unwrap().series;
    assert_eq!(s.births_ratio, None);
    assert!(s.years.iter().all(|y| y.range.is_none()));
    assert!(!all_text(&counted, Lang::En).contains("Depending on how many births"));

    let f = findings_of(&panel_of(&sinim_as_published()));
    let s = &f.inequality.as_ref().expect("inequality answered").series;
    assert!(s.approximate);
    assert_eq!(s.births_ratio, Some([0.7, 1.0]));
    for y in &s.years {
        let (range, shown, ci) = (y.range.unwrap(), y.range_ci.unwrap(), y.ci.unwrap());
        assert!(range[0] <= range[1] && shown[0] <= range[0] && range[1] <= shown[1]);
        assert!(shown[0] <= ci[0] && ci[1] <= shown[1], "{shown:?} {ci:?}");
    }
    let en = all_text(&f, Lang::En);
    let es = all_text(&f, Lang::Es);
    let sentence = |text: &str, start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no sentence starting {start:?} in {text}"))
            .to_string()
    };
    let en = sentence(
        &en,
        "Depending on how many births the published rates refer to",
    );
    assert!(
        en.contains("(from 70% to 100% of the births given)"),
        "{en}"
    );
    // SINIM's ranges start at zero: said as their upper end, never "between 0.000 and …".
    assert!(en.contains("the Gini is at most 0.0"), "{en}");
    assert!(en.contains("in 2019 and is "), "{en}");
    assert!(!en.contains("between 0.000"), "{en}");
    let es = sentence(
        &es,
        "Según cuántos nacimientos estén detrás de las tasas publicadas",
    );
    assert!(es.contains("el Gini no pasa de 0,0"), "{es}");
    assert!(!es.contains("entre 0,000"), "{es}");
}

/// Question 5 names only communes whose whole interval lies above the rate it names, and
/// counts them all (any panel: random births and deaths, some communes with a real excess).
mod where_sentences {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn every_commune_named_is_above_the_rate_named(
            areas in proptest::collection::vec((20u32..5000, 0u32..60, 0u32..3), 5..60),
            years in 1usize..4,
        ) {
            let mut csv = String::from("id,year,births,deaths\n");
            for (k, (births, deaths, excess)) in areas.iter().enumerate() {
                for y in 0..years {
                    let d = (deaths * (1 + excess) + y as u32) % births.max(&1);
                    csv.push_str(&format!("A{k:03},{},{births},{d}\n", 2001 + y));
                }
            }
            let f = findings_of(&panel_of(&csv));
            let Ok(w) = f.where_highest.as_ref() else { return Ok(()) };
            for c in &w.top {
                let ci = c.ci.expect("a named commune has an interval");
                prop_assert!(ci[0] > w.national_per_1000, "{c:?} vs {}", w.national_per_1000);
            }
            prop_assert!(w.top.len() <= w.n_above_national);
            // Highest first, and ties are never cut: beyond the five asked for, only communes
            // equal to the fifth are named.
            prop_assert!(w.top.windows(2).all(|p| p[0].smoothed_per_1000 >= p[1].smoothed_per_1000));
            if w.top.len() > 5 {
                prop_assert!(w.top[5..].iter().all(|c| c.smoothed_per_1000 == w.top[4].smoothed_per_1000));
            }
            let en = answer(&f, Lang::En, "where").headline;
            for c in &w.top {
                prop_assert!(en.contains(&c.entity), "{en}");
            }
            // None above: said for the year ("In 2001, no commune…") or the years pooled
            // ("With 2001–2003 pooled, no commune…").
            if w.n_above_national == 0 {
                let opening = if years == 1 { "In 2001, " } else { "With" };
                prop_assert!(en.starts_with(opening), "{en}");
                prop_assert!(en.contains("no commune"), "{en}");
            }
        }
    }
}

/// Five communes (a reader's small file): the model of true rates needs ten, so the inequality
/// answer says why it has no adjusted value and gives the observed Gini as what it is, with
/// neither "no years to measure" beside a chart of two years nor a trend "with 0 years".
#[test]
fn too_few_communes_for_the_adjusted_gini_are_said_so_beside_the_observed_one() {
    let csv = "codigo_comuna;anio;nacimientos;defunciones\n\
               13101;2020;1234;9\n13101;2021;1180;7\n05101;2020;2377;14\n05101;2021;2200;12\n\
               08101;2020;3000;20\n08101;2021;2900;18\n09101;2020;3100;25\n09101;2021;3000;21\n\
               13114;2020;4000;15\n13114;2021;3900;14\n";
    let f = findings_of(&panel_of(csv));
    let observed = f.inequality.as_ref().unwrap().observed.as_ref().unwrap();
    let last = observed.years.last().unwrap();
    for (lang, starts, zero_years) in [
        (
            Lang::Es,
            "No se puede separar la desigualdad real del azar",
            "Con 0 años",
        ),
        (
            Lang::En,
            "Real inequality cannot be told from chance",
            "With 0 years",
        ),
    ] {
        let a = answer(&f, lang, "inequality");
        assert!(a.headline.starts_with(starts), "{}", a.headline);
        let value = imr_findings::words::number(lang, last.value, 3);
        assert!(
            a.headline
                .contains(&format!("{value} {}", lang.pick("en 2021", "in 2021"))),
            "{}",
            a.headline
        );
        let text = all_text(&f, lang);
        assert!(!text.contains(zero_years), "{text}");
        assert!(!text.contains("No hay años que medir") && !text.contains("no years to measure"));
        // The chart names only the series it draws.
        assert!(!a
            .chart_svg
            .contains(lang.pick("Gini (IC 95%)", "Gini (95% CI)")));
    }
}

/// A year that copies the previous one (2022 = 2021 in every commune, as a careless update
/// makes it) is drawn as a copy in every Findings chart that shows it: a dashed band titled
/// "2022: copia de 2021" and hollow points, never as a year like the others.
#[test]
fn a_copied_year_is_drawn_as_a_copy_in_the_charts() {
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
    let f = findings_of(&panel_of(&csv));
    assert_eq!(f.repeated_left_out.len(), 1, "{:?}", f.repeated_left_out);
    for (lang, title) in [
        (Lang::Es, "2022: copia de 2021"),
        (Lang::En, "2022: a copy of 2021"),
    ] {
        let rates = answer(&f, lang, "rates");
        assert!(
            rates.chart_svg.contains(&format!("<title>{title}</title>")),
            "{}",
            rates.chart_svg
        );
        assert!(rates
            .chart_svg
            .contains(r##"fill="#fff" stroke="#b3361b""##));
    }
    // Without a copy, no band.
    let plain = findings_of(&panel_of(BUNDLED));
    assert!(!answer(&plain, Lang::Es, "rates")
        .chart_svg
        .contains("copia de"));
}

/// Data without the study's covariates but with a column of the reader's own: questions 3 and
/// 4 say which columns they need and name hers as what she can choose instead, and where.
#[test]
fn missing_covariates_point_to_the_readers_own_columns() {
    let own: String = BUNDLED
        .lines()
        .enumerate()
        .map(|(k, l)| {
            let f: Vec<&str> = l.split(',').collect();
            let extra = if k == 0 { "pobreza_propia" } else { "12.5" };
            // code, year, deaths, births and a column of her own.
            format!("{},{},{},{},{extra}\n", f[0], f[4], f[5], f[8])
        })
        .collect();
    let f = findings_of(&panel_of(&own));
    for question in ["health-income", "models"] {
        let es = answer(&f, Lang::Es, question).headline;
        assert!(
            es.contains("Sus datos tienen otra columna numérica: «pobreza_propia». Puede elegirla como variable explicativa en la vista Modelos"),
            "{question}: {es}"
        );
        let en = answer(&f, Lang::En, question).headline;
        assert!(
            en.contains("Your data have another numeric column: “pobreza_propia”."),
            "{question}: {en}"
        );
    }
    // In the Models view, whose takeaway is question 4's answer, the hint points below, to
    // its regressors, not to the view she is in.
    let here = f.headline_in_view(Lang::Es, "models").unwrap();
    assert!(
        here.contains("Puede elegirla como variable explicativa más abajo, en «Características (variables explicativas)»,")
            && !here.contains("vista Modelos"),
        "{here}"
    );
    let here = f.headline_in_view(Lang::En, "models").unwrap();
    assert!(
        here.contains("below, under “Characteristics (explanatory variables)”,"),
        "{here}"
    );
    // Elsewhere the view's headline is the Findings' own.
    let rates = f.headline_in_view(Lang::Es, "rates");
    assert_eq!(rates, Some(answer(&f, Lang::Es, "rates").headline));
    // With no column of her own there is nothing to point to.
    let bare: String = own
        .lines()
        .map(|l| format!("{}\n", l.rsplit_once(',').unwrap().0))
        .collect();
    let f = findings_of(&panel_of(&bare));
    assert!(!answer(&f, Lang::Es, "models")
        .headline
        .contains("Sus datos tienen"));
}

/// SINIM's rates as published are two years late (the births say so): the Findings say it
/// first, with the counts and the years of an example, unless the lag was applied; the
/// bundled data (counts) carry no such warning.
#[test]
fn rates_published_two_years_late_are_said_first_unless_the_lag_is_applied() {
    let csv = sinim_as_published();
    let table = RawTable::from_bytes("tasas_sinim.csv", csv.as_bytes()).unwrap();
    let roles = vec![table.guessed_roles.clone()];
    let late = build_panel(
        std::slice::from_ref(&table),
        &roles,
        &IngestOptions::default(),
    )
    .unwrap();
    let f = findings_of(&late);
    let lag = f.unapplied_rate_lag.expect("the lag of SINIM's rates");
    assert_eq!(lag.lag, 2);
    let es = f.lag_note(Lang::Es).unwrap();
    assert!(
        es.starts_with("Atención: estas tasas publicadas describen un año anterior al que llevan."),
        "{es}"
    );
    assert!(es.contains(&format!("calza con los nacimientos de 2 años antes ({} de {} comunas comprobables), así que la tasa «de 2023» es la de 2021.", lag.fits, lag.testable)), "{es}");
    assert!(lag.fits * 10 >= lag.testable * 9, "{lag:?}");
    assert!(f
        .lag_note(Lang::En)
        .unwrap()
        .contains("so the rate \"of 2023\" is 2021's"));
    // The printed report carries it too.
    let report = imr_findings::report::report_html(&f, Lang::Es, "Fuente: tasas_sinim.csv");
    assert!(report.contains("Atención: estas tasas publicadas"));
    // Applied, the years are those the rates describe: nothing to warn about.
    let options = IngestOptions {
        rate_lag: Some(2),
        ..IngestOptions::default()
    };
    let moved = build_panel(&[table], &roles, &options).unwrap();
    assert!(findings_of(&moved).lag_note(Lang::Es).is_none());
    assert!(findings_of(&panel_of(BUNDLED)).lag_note(Lang::Es).is_none());
}
