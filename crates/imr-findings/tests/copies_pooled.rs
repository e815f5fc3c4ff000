//! Question 5 sums each commune's deaths and births over the years: a copied year is not a
//! second observation of them. A newcomer's file with 2020 a copy of 2019 made Conchalí
//! "clearly above" the reference, which it is not with 2019 and 2021 alone (issue 42 re-run).
//! Also the words of one year ("En 2021", never "con 2021 sumados") and no chart when no
//! commune is named.

use imr_core::ingest::{build_panel, IngestOptions, RawTable};
use imr_core::Lang;
use imr_findings::{compute, AdjustedGini, Findings, Options};

const HER_FILE: &[u8] = include_bytes!("../../../e2e/fixtures/santiago_21_latin1.csv");

fn findings(csv: &[u8], options: &Options) -> Findings {
    let table = RawTable::from_bytes("mis_datos.csv", csv).unwrap();
    let roles = table.guessed_roles.clone();
    let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
    compute(&panel, options, &AdjustedGini::default())
}

/// Her 21 communes of 2021, with 2019 (deaths one higher where they are even) and 2020 a copy
/// of 2019.
fn with_a_copied_year() -> Vec<u8> {
    let text: String = HER_FILE.iter().map(|&b| b as char).collect();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(';').map(String::from).collect())
        .collect();
    for year in ["2019", "2020", "2021"] {
        for r in &rows {
            let mut r = r.clone();
            if year != "2021" {
                let d: u32 = r[3].parse().unwrap();
                r[3] = (d + u32::from(d.is_multiple_of(2))).to_string();
            }
            r[2] = year.to_string();
            out.push_str(&r.join(";"));
            out.push('\n');
        }
    }
    out.chars().map(|c| c as u8).collect()
}

#[test]
fn a_copied_year_is_left_out_of_the_pooled_rates_of_question_5() {
    let f = findings(&with_a_copied_year(), &Options::default());
    assert_eq!(
        f.copied_years.iter().map(|c| c.time).collect::<Vec<_>>(),
        [2020]
    );
    let place = f.where_highest.as_ref().unwrap();
    assert_eq!(place.years, [2019, 2021]);
    let answer = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "where")
        .unwrap();
    assert!(
        answer.headline.contains("2019 y 2021 sumados"),
        "{}",
        answer.headline
    );
    // Included on purpose (the page's checkbox), the copy counts.
    let included = findings(
        &with_a_copied_year(),
        &Options {
            include_repeated_years: true,
            ..Options::default()
        },
    );
    assert_eq!(
        included.where_highest.as_ref().unwrap().years,
        [2019, 2020, 2021]
    );
}

#[test]
fn one_year_is_said_as_one_and_no_commune_named_draws_no_chart() {
    let f = findings(HER_FILE, &Options::default());
    let place = f.where_highest.as_ref().unwrap();
    assert_eq!(place.years, [2021]);
    for (lang, start, reference) in [
        (
            Lang::Es,
            "Ninguna comuna tiene, en 2021,",
            "cargadas en ese año",
        ),
        (Lang::En, "In 2021, no commune has", "loaded in that year"),
    ] {
        let answer = f
            .answers(lang)
            .into_iter()
            .find(|a| a.question == "where")
            .unwrap();
        assert!(answer.headline.starts_with(start), "{}", answer.headline);
        assert!(answer.headline.contains(reference), "{}", answer.headline);
        assert!(!answer.headline.contains("sumados") && !answer.headline.contains("pooled"));
        assert_eq!(place.n_above_national, 0);
        assert!(!answer.has_figure(), "an axis alone was drawn");
    }
}

/// Question 2 rests its trend on the years that are not copies: with 2019 and 2021 (2020 a copy
/// of 2019) it has two years, too few to say, as a file of 2019 and 2021 alone says. It said
/// "Entre 2019 y 2021, el cambio del Gini (0,0000 al año; IC 95%: −0,0546 a 0,0546) no es
/// distinguible de cero", counting the copy as a third year (a newcomer's re-run of issue 42).
#[test]
fn question_2_counts_a_copied_year_out_of_its_trend() {
    let f = findings(&with_a_copied_year(), &Options::default());
    let answer = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "inequality")
        .unwrap();
    let said = [answer.headline.clone(), answer.details.join(" ")].join(" ");
    assert!(
        said.contains("Con 2 años, son muy pocos años para decir si el Gini"),
        "{said}"
    );
    assert!(!said.contains("al año"), "{said}");
}

/// Without a trend (one year) question 1's number says which rate it is: "En 2021 fue 5,31"
/// after her upload left her asking of what (newcomer re-run of issue 42).
#[test]
fn question_1_names_its_rate_when_it_has_no_trend() {
    let f = findings(HER_FILE, &Options::default());
    let answer = f
        .answers(Lang::Es)
        .into_iter()
        .find(|a| a.question == "rates")
        .unwrap();
    assert!(
        answer
            .headline
            .contains("En 2021, la tasa de las comunas cargadas fue "),
        "{}",
        answer.headline
    );
}
