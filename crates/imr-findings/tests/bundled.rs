//! The findings on the bundled dataset, and on modified copies of it: every sentence comes from
//! the results (change the data and the sentences change), flagged rows are left out, and the
//! wording never claims a cause.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::panel::Panel;
use imr_core::rates::RateTable;
use imr_core::Lang;
use imr_findings::words::{number, CAUSAL_WORDS};
use imr_findings::{compute, AdjustedGini, Findings, Options, QUESTIONS};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2019_2023.csv");

fn panel_of(csv: &str) -> Panel {
    let table = RawTable::from_bytes("chile_imr_2019_2023.csv", csv.as_bytes()).unwrap();
    let mut roles = table.guessed_roles.clone();
    roles.births = table.columns.iter().position(|c| c == "nacidos_vivos_est");
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

/// The bundled CSV with the `tmi` of every row of `year` multiplied by `factor`.
fn with_rates_scaled(year: &str, factor: f64) -> String {
    let mut out = String::new();
    for (k, line) in BUNDLED.lines().enumerate() {
        let mut f: Vec<String> = line.split(',').map(str::to_owned).collect();
        if k > 0 && f[4] == year {
            let tmi: f64 = f[5].parse().unwrap();
            f[5] = format!("{}", tmi * factor);
        }
        out.push_str(&f.join(","));
        out.push('\n');
    }
    out
}

#[test]
fn the_five_questions_are_answered_on_the_bundled_data_in_both_languages() {
    let panel = panel_of(BUNDLED);
    let f = findings_of(&panel);
    assert!(f.rates.is_ok(), "{:?}", f.rates);
    assert!(f.inequality.is_ok(), "{:?}", f.inequality);
    assert!(f.health_income.is_ok(), "{:?}", f.health_income);
    assert!(f.models.is_ok(), "{:?}", f.models);
    assert!(f.where_highest.is_ok(), "{:?}", f.where_highest);
    for lang in [Lang::Es, Lang::En] {
        let answers = f.answers(lang);
        let ids: Vec<&str> = answers.iter().map(|a| a.question).collect();
        assert_eq!(ids, QUESTIONS);
        for a in &answers {
            assert!(!a.headline.is_empty());
            assert!(a.chart_svg.starts_with("<svg"), "{}", a.question);
        }
    }
    // 15202/2023 (1000 per 1,000 on 9 children) and the other rates on < 10 births are left out.
    assert!(f.flagged_left_out > 5);
    assert_eq!(f.flagged_left_out, f.flagged_total);
    let top = &f.where_highest.as_ref().unwrap().top;
    assert!(top.iter().all(|c| c.entity != "15202"));
    assert!(f.flagged_note(Lang::Es).unwrap().contains("inverosímiles"));
}

#[test]
fn the_rates_headline_states_the_pooled_rate_of_the_rate_table() {
    let panel = panel_of(BUNDLED);
    let f = findings_of(&panel);
    // Independent: the rate table of the panel without the flagged rows.
    let kept = imr_core::plausibility::Plausibility::check(&panel).without_flagged(&panel);
    let table = RateTable::from_panel(&kept).unwrap();
    let last = table.national.last().unwrap();
    let headline = &f.answers(Lang::En)[0].headline;
    assert!(
        headline.contains(&format!(
            "In 2023, the national pooled rate was {} per 1,000",
            number(Lang::En, last.estimate.rate.unwrap(), 2)
        )),
        "{headline}"
    );
    let es = &f.answers(Lang::Es)[0].headline;
    assert!(
        es.contains(&number(Lang::Es, last.estimate.rate.unwrap(), 2)),
        "{es}"
    );
}

#[test]
fn changing_the_data_changes_the_sentences() {
    let before = findings_of(&panel_of(BUNDLED));
    let after = findings_of(&panel_of(&with_rates_scaled("2023", 3.0)));
    for lang in [Lang::Es, Lang::En] {
        let (a, b) = (before.answers(lang), after.answers(lang));
        // Rates, inequality, its link to health income and where it is highest all move.
        for k in [0usize, 1, 4] {
            assert_ne!(a[k].headline, b[k].headline, "question {}", a[k].question);
        }
        assert_ne!(a[0].details, b[0].details);
    }
    // Tripling 2023 makes the national rate rise distinguishably in the last year.
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
        // The year is the fifth field (a births count can read 2019 too).
        .filter(|(k, l)| *k == 0 || matches!(l.split(',').nth(4), Some("2019" | "2020")))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let f = findings_of(&panel_of(&two));
    let en = f.answers(Lang::En);
    assert!(
        en[0].details[0].contains("too few years to say"),
        "{:?}",
        en[0].details
    );
    assert!(en[1].details[0].contains("too few years to say"));
    assert!(en[2].headline.contains("too few years") || en[2].headline.contains("no correlation"));
    let es = f.answers(Lang::Es);
    assert!(es[0].details[0].contains("muy pocos años"));
}

#[test]
fn no_sentence_claims_a_cause_and_covering_intervals_say_not_distinguishable() {
    for csv in [BUNDLED.to_string(), with_rates_scaled("2023", 3.0)] {
        let f = findings_of(&panel_of(&csv));
        for lang in [Lang::Es, Lang::En] {
            let text = all_text(&f, lang).to_lowercase();
            for w in CAUSAL_WORDS {
                // "not causes" / "no causas" / "evidencia de causalidad" deny a cause.
                let denied = text
                    .replace("not causes", "")
                    .replace("not evidence of a cause", "")
                    .replace("no causas", "")
                    .replace("no evidencia de causalidad", "");
                assert!(!denied.contains(w), "`{w}` in:\n{text}");
            }
        }
        // Every model term whose interval covers zero is worded so, and only those.
        let models = f.models.as_ref().unwrap();
        let en = f.answers(Lang::En);
        for (t, s) in models.terms.iter().zip(&en[3].details) {
            let covers = t.ci[0] <= 0.0 && 0.0 <= t.ci[1];
            assert_eq!(s.contains("not distinguishable from zero"), covers, "{s}");
        }
    }
}

#[test]
fn models_use_fixed_effects_and_say_what_they_cannot_estimate() {
    let f = findings_of(&panel_of(BUNDLED));
    let m = f.models.as_ref().unwrap();
    use imr_core::models::Estimator;
    let by = |c: &str| m.terms.iter().find(|t| t.column == c).unwrap();
    assert_eq!(by("pobreza").estimator, Estimator::Fe);
    assert_eq!(by("dist_hospital_km").estimator, Estimator::Re);
    assert!(m.time_invariant.contains(&"sapu".to_string()));
    let caveats = f.answers(Lang::En)[3].caveats.join(" ");
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
    let n_with = f.where_highest.as_ref().unwrap().n_communes;
    let n_without = findings_of(&panel).where_highest.unwrap().n_communes;
    assert!(n_with > n_without);
}

#[test]
fn the_report_is_self_contained_html_with_every_question() {
    let f = findings_of(&panel_of(BUNDLED));
    let html = imr_findings::report::report_html(&f, Lang::Es, "Fuente: chile_imr_2019_2023.csv");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for q in QUESTIONS {
        assert!(html.contains(&format!("data-question=\"{q}\"")));
    }
    // No request can leave a printed report: the only URL is the SVG namespace.
    assert_eq!(
        html.matches("http").count(),
        html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
    assert!(!html.contains("<script"));
    assert!(html.contains("@media print"));
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
    let answers = f.answers(Lang::En);
    let rates = &answers[0];
    let s = imr_findings::embed::snippet(
        rates,
        "Source: chile_imr_2019_2023.csv",
        imr_findings::embed::BUNDLED_CREDIT,
    );
    assert!(s.contains("<svg") && s.contains("</figure>"));
    assert!(s.contains("GPL-3") && s.contains("Source: chile_imr_2019_2023.csv"));
    // One data row per year, with the pooled rate of the answer.
    let years = f.rates.as_ref().unwrap().years.len();
    assert_eq!(s.matches("<tr><td").count(), years);
    assert_eq!(rates.data.rows.len(), years);
    assert!(!s.contains("<script") && !s.contains("src=") && !s.contains("href="));
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

/// The bundled deaths are derived from published rates on the population aged 0: the
/// inequality answer says between which values the adjusted Gini lies over the births ratio
/// 0.7–1.0 (one sentence, both languages), and each year's range sits inside the interval of
/// range and chance together, which contains the year's own interval.
#[test]
fn the_inequality_answer_gives_the_range_over_the_births_ratio() {
    let f = findings_of(&panel_of(BUNDLED));
    let s = &f.inequality.as_ref().expect("inequality answered").series;
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
    assert!(en.contains("the Gini is between 0."), "{en}");
    assert!(en.contains("in 2019 and between"), "{en}");
    let es = sentence(
        &es,
        "Según a cuántos nacimientos se refieran las tasas publicadas",
    );
    assert!(es.contains("el Gini está entre 0,"), "{es}");
    println!("{en}\n{es}");
}
