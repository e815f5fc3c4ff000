//! `imr fit --lang`: the Markdown and LaTeX tables in Spanish for the Models view's Spanish
//! downloads (issue 42, "Spanish all the way"), English as it always was. `--lang en` is the
//! default, byte for byte (the English tables are pinned by tests/data/snapshots/fit_re.md and
//! fit_twfe.tex, recorded with the imr of commit 0330e41, before `--lang` existed); Spanish
//! differs from English only by the words and the decimal marks; every other format is the same
//! in both languages.

mod common;
use common::grunfeld_args;

const SNAPSHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/snapshots");

fn snapshot(name: &str) -> String {
    std::fs::read_to_string(format!("{SNAPSHOTS}/{name}")).unwrap()
}

/// `imr fit` of invest on value and capital (re, clustered) plus `extra`.
fn re(extra: &[&str]) -> String {
    let mut args = vec!["--model", "re", "--vcov", "cluster"];
    args.extend_from_slice(extra);
    common::stdout(&grunfeld_args("value,capital", &args))
}

/// The twfe fit of the snapshot fit_twfe.json plus `extra`.
fn twfe(extra: &[&str]) -> String {
    let mut args = common::TWFE_SNAPSHOT_ARGS.to_vec();
    args.extend_from_slice(extra);
    common::stdout(&grunfeld_args("value", &args))
}

/// `text` with each point between two digits written as a comma (the Grunfeld fits' numbers
/// are all below 1,000: no thousands point to write).
fn decimal_commas(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let digit = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(char::is_ascii_digit)
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if c == '.' && digit(i.checked_sub(1)) && digit(Some(i + 1)) {
                ','
            } else {
                c
            }
        })
        .collect()
}

#[test]
fn english_is_the_default_and_prints_what_imr_printed_before_lang() {
    assert_eq!(re(&["--format", "markdown"]), snapshot("fit_re.md"));
    assert_eq!(
        re(&["--format", "markdown", "--lang", "en"]),
        snapshot("fit_re.md")
    );
    assert_eq!(twfe(&["--format", "latex"]), snapshot("fit_twfe.tex"));
    assert_eq!(
        twfe(&["--format", "latex", "--lang", "en"]),
        snapshot("fit_twfe.tex")
    );
}

#[test]
fn the_spanish_markdown_table_differs_from_the_english_by_words_and_decimal_commas() {
    let (en, es) = (
        re(&["--format", "markdown"]),
        re(&["--format", "markdown", "--lang", "es"]),
    );
    // English with the Spanish words and the decimal comma is the Spanish table.
    let words = [
        ("| (1) re |", "| (1) Efectos aleatorios (Swamy–Arora) |"),
        ("| (Intercept) |", "| Constante |"),
        // the `--model` key as the option it is, and the page's words for clustered errors
        // (issue 42: "Modelo | `cre`", "Agrupados por entidad")
        ("| Model | re |", "| Modelo (imr) | `--model re` |"),
        (
            "| Standard errors | cluster |",
            "| Errores estándar | Agrupados por comuna |",
        ),
        ("| Observations |", "| Observaciones |"),
        ("| Entities |", "| Entidades |"),
        ("| R² within |", "| R² intragrupos |"),
        ("| R² overall |", "| R² global |"),
        (
            "Standard errors in parentheses.",
            "Errores estándar entre paréntesis.",
        ),
    ];
    // A negative takes the page's minus sign (U+2212), as every table of the page writes it.
    let mut expected = decimal_commas(&en).replace("| -", "| −");
    for (english, spanish) in words {
        assert!(expected.contains(english), "{english:?} not in {en}");
        expected = expected.replace(english, spanish);
    }
    assert_eq!(es, expected);
    assert!(es.contains("| Constante | −57,83* |"), "{es}");
}

#[test]
fn the_spanish_latex_table_braces_its_decimal_commas_and_names_cluster_columns_as_code() {
    let es = twfe(&["--format", "latex", "--lang", "es"]);
    assert!(
        es.contains("  & (1) Efectos fijos de entidad y año \\\\\n"),
        "{es}"
    );
    assert!(
        es.contains("value & $0{,}1406^{***}$ \\\\\n & $(0{,}02099)$ \\\\\n"),
        "{es}"
    );
    assert!(
        es.contains("Errores estándar & Robustos a heterocedasticidad \\\\\n"),
        "{es}"
    );
    assert!(es.contains("R$^2$ intragrupos & 0,9037 \\\\\n"), "{es}");
    assert_eq!(decimal_commas(&es), es, "no decimal point between digits");
    // absorbed effects clustered two-way: the columns as code
    let clustered = common::stdout(&grunfeld_args(
        "value,capital",
        &[
            "--fe",
            "firm,year",
            "--cluster",
            "firm,year",
            "--format",
            "latex",
            "--lang",
            "es",
        ],
    ));
    assert!(
        clustered.contains("Errores estándar & Agrupados por \\texttt{firm} y \\texttt{year} \\\\"),
        "{clustered}"
    );
}

/// Mundlak's model (`cre`) in Spanish: its commune means in the page's words and its model named
/// alike in the Markdown and LaTeX tables (`--lang es`) and the spreadsheet CSV (`--csv-lang
/// es`), the Models view's Spanish downloads (issue 42: "gasto\_salud\_pc\_mean", "cre");
/// English keeps `value_mean` and the key.
#[test]
fn the_commune_means_and_the_model_of_cre_are_spanish_in_every_spanish_download() {
    let cre = |extra: &[&str]| {
        let mut args = vec!["--model", "cre", "--vcov", "cluster"];
        args.extend_from_slice(extra);
        common::stdout(&grunfeld_args("value,capital", &args))
    };
    let label = "Efectos aleatorios correlacionados (Mundlak)";
    let md = cre(&["--format", "markdown", "--lang", "es"]);
    assert!(md.starts_with(&format!("| | (1) {label} |\n")), "{md}");
    assert!(md.contains("\n| value (media de la comuna) | "), "{md}");
    assert!(md.contains("\n| capital (media de la comuna) | "), "{md}");
    assert!(md.contains("\n| Modelo (imr) | `--model cre` |\n"), "{md}");
    assert!(!md.contains("mean"), "{md}");
    let tex = cre(&["--format", "latex", "--lang", "es"]);
    assert!(tex.contains("\nvalue (media de la comuna) & $"), "{tex}");
    assert!(
        tex.contains("\nModelo (imr) & \\texttt{-{}-model cre} \\\\\n"),
        "{tex}"
    );
    let csv = cre(&["--format", "csv", "--csv-lang", "es"]);
    assert!(
        csv.contains(&format!(
            "\n{label};conglomerado;value (media de la comuna);"
        )),
        "{csv}"
    );
    assert!(!csv.contains("mean") && !csv.contains("\ncre;"), "{csv}");
    let en = cre(&["--format", "csv"]);
    assert!(en.contains("\ncre,cluster,value_mean,"), "{en}");
    let en = cre(&["--format", "markdown"]);
    assert!(
        en.contains("\n| value\\_mean | ") && en.contains("\n| Model | cre |\n"),
        "{en}"
    );
}

#[test]
fn the_csv_the_code_and_the_json_are_the_same_in_both_languages() {
    for format in ["csv", "r", "stata", "json"] {
        assert_eq!(
            re(&["--format", format, "--lang", "es"]),
            re(&["--format", format]),
            "--format {format}"
        );
    }
}
