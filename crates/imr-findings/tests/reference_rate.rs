//! Question 5's reference rate is named as what it is: the rate of every commune-year of the
//! span pooled (the prior the communes are smoothed towards), "of all communes with data" on the
//! whole country and "of the communes loaded" on a smaller file, and never "national", which on
//! every other view is one year's rate (issue 42: "la tasa nacional de 6,59" was the 2001–2021
//! pool while the Findings and the Data view called 5,80 the national rate).

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::panel::Panel;
use imr_core::Lang;
use imr_findings::words::number;
use imr_findings::{compute, AdjustedGini, Options};

const BUNDLED: &str = include_str!("../../../public/data/chile_imr_2001_2021.csv");

fn panel_of(name: &str, csv: &str) -> Panel {
    let table = RawTable::from_bytes(name, csv.as_bytes()).unwrap();
    let roles = table.guessed_roles.clone();
    build_panel(&[table], &[roles], &IngestOptions::default()).unwrap()
}

/// Question 5's headline in `lang`.
fn where_headline(panel: &Panel, lang: Lang) -> String {
    let f = compute(panel, &Options::default(), &AdjustedGini::default());
    f.answers(lang)
        .into_iter()
        .find(|a| a.question == "where")
        .expect("question 5")
        .headline
}

/// Deaths over births of every row with both, per 1,000: the rate pooled over all the years.
fn pooled_rate(panel: &Panel) -> f64 {
    let (d, b) = panel
        .rows()
        .filter_map(|r| Some((r.deaths?, r.births?)))
        .fold((0.0, 0.0), |(d, b), (rd, rb)| (d + rd, b + rb));
    1000.0 * d / b
}

#[test]
fn a_small_file_names_the_pooled_rate_of_the_communes_loaded() {
    // Twelve communes, three years; two with a clear excess. No row is implausible, so the
    // pooled rate is that of every row.
    let mut csv = String::from("id,year,births,deaths\n");
    for k in 0..12 {
        for (y, year) in [2019, 2020, 2021].iter().enumerate() {
            let births = 900 + 40 * k + 10 * y;
            let deaths = if k < 2 { 30 + y } else { 5 + (k + y) % 4 };
            csv.push_str(&format!("C{k:02},{year},{births},{deaths}\n"));
        }
    }
    let panel = panel_of("mine.csv", &csv);
    let rate = pooled_rate(&panel);
    let es = where_headline(&panel, Lang::Es);
    let en = where_headline(&panel, Lang::En);
    assert!(
        es.contains(&format!(
            "la tasa de las comunas cargadas en esos años juntos ({} por 1.000)",
            number(Lang::Es, rate, 2)
        )),
        "{es}"
    );
    assert!(es.contains("Con 2019–2021 sumados"), "{es}");
    assert!(
        en.contains(&format!(
            "the rate of the communes loaded over those years together ({} per 1,000)",
            number(Lang::En, rate, 2)
        )),
        "{en}"
    );
    for text in [&es, &en] {
        assert!(
            !text.contains("nacional") && !text.contains("national"),
            "{text}"
        );
    }
}

#[test]
fn the_whole_country_names_the_pooled_rate_of_all_communes_not_a_national_rate() {
    let panel = panel_of("chile_imr_2001_2021.csv", BUNDLED);
    assert!(imr_findings::compute::whole_country(&panel));
    // The Findings leave the flagged rows out: so does the rate the sentence must state.
    let kept = imr_core::plausibility::Plausibility::check(&panel).without_flagged(&panel);
    let rate = pooled_rate(&kept);
    let es = where_headline(&panel, Lang::Es);
    let en = where_headline(&panel, Lang::En);
    assert!(
        es.contains(&format!(
            "la tasa de todas las comunas con datos en esos años juntos ({} por 1.000)",
            number(Lang::Es, rate, 2)
        )),
        "{es}"
    );
    assert!(
        en.contains(&format!(
            "the rate of all communes with data over those years together ({} per 1,000)",
            number(Lang::En, rate, 2)
        )),
        "{en}"
    );
    for text in [&es, &en] {
        assert!(
            !text.contains("nacional") && !text.contains("national"),
            "{text}"
        );
    }
}
