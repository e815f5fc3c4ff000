//! The regression tables for a Spanish reader (issue 42, "Spanish all the way"): the page's
//! words (estimator labels, standard errors in words, "Constante", "Observaciones"), numbers
//! with the decimal comma and thousands point, in LaTeX math the comma braced (`0{,}1101`), and
//! no English word of the engines' lists; compiled by pdflatex in both languages.

mod common;
use common::grunfeld_fits;
use imr_models::report::{latex_table, markdown_table};
use imr_models::Lang;

/// The table's lines a reader reads as words: the terms' rows (Grunfeld's columns `value` and
/// `capital`, names of the data, as in English) left out.
fn worded_lines(table: &str) -> Vec<&str> {
    table
        .lines()
        .filter(|l| {
            !["value", "capital", "| value", "| capital"]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .collect()
}

#[test]
fn the_spanish_markdown_table_has_the_page_words_and_decimal_commas() {
    let md = markdown_table(&grunfeld_fits(), Lang::Es);
    let head = "| | (1) Efectos fijos (intragrupos) | (2) Efectos aleatorios (Swamy–Arora) | (3) MCO agrupado |";
    assert!(md.starts_with(head), "{md}");
    // fe clustered: value 0.1101238 (0.0151945), t(9) = 7.25 → p < 0.001
    assert!(md.contains("| value | 0,1101*** |"), "{md}");
    assert!(md.contains("| | (0,01519) |"), "{md}");
    assert!(
        md.contains("| Constante | |"),
        "the fe column has no intercept: {md}"
    );
    // the `--model` keys as the command's option, not as words (issue 42: "Modelo | `cre`")
    assert!(
        md.contains("| Modelo (imr) | `--model fe` | `--model re` | `--model pooled` |"),
        "{md}"
    );
    // the page's words for the clustered errors (issue 42: "Agrupados por entidad")
    assert!(
        md.contains(
            "| Errores estándar | Agrupados por comuna | Clásicos | Robustos a heterocedasticidad |"
        ),
        "{md}"
    );
    assert!(md.contains("| Observaciones | 200 | 200 | 200 |"), "{md}");
    assert!(md.contains("| Entidades | 10 | 10 | 10 |"), "{md}");
    assert!(
        md.contains("| R² intragrupos |") && md.contains("| R² global |"),
        "{md}"
    );
    assert!(md.ends_with(
        "\nErrores estándar entre paréntesis. * p < 0,05, ** p < 0,01, *** p < 0,001.\n"
    ));
    assert_eq!(imr_lang::decimal_points(&md), Vec::<String>::new(), "{md}");
    for line in worded_lines(&md) {
        assert_eq!(
            imr_lang::english_label_words(line),
            Vec::<String>::new(),
            "{line}"
        );
    }
    // the same table in English, as imr fit always wrote it
    let en = markdown_table(&grunfeld_fits(), Lang::En);
    assert!(en.starts_with("| | (1) fe | (2) re | (3) pooled |"), "{en}");
    assert_eq!(en.lines().count(), md.lines().count());
}

#[test]
fn the_spanish_latex_table_braces_its_decimal_commas_in_math() {
    let tex = latex_table(&grunfeld_fits(), Lang::Es);
    assert!(tex.starts_with("\\begin{tabular}{lrrr}\n\\toprule"));
    assert!(tex.contains(
        "  & (1) Efectos fijos (intragrupos) & (2) Efectos aleatorios (Swamy–Arora) & (3) MCO agrupado \\\\"
    ));
    assert!(tex.contains("value & $0{,}1101^{***}$"), "{tex}");
    assert!(tex.contains(" & $(0{,}01519)$"), "{tex}");
    assert!(
        tex.contains(
            "Modelo (imr) & \\texttt{-{}-model fe} & \\texttt{-{}-model re} & \\texttt{-{}-model pooled} \\\\"
        ),
        "{tex}"
    );
    assert!(
        tex.contains("Errores estándar & Agrupados por comuna & Clásicos"),
        "{tex}"
    );
    assert!(tex.contains("R$^2$ intragrupos"), "{tex}");
    assert!(tex.trim_end().ends_with("p<0,001."), "{tex}");
    // In math every comma is braced (TeX would space a bare one as punctuation), and no
    // number has a decimal point.
    for (i, math) in tex.split('$').enumerate().filter(|(i, _)| i % 2 == 1) {
        assert!(
            !math.replace("{,}", "").contains(','),
            "math #{i} {math:?} has a bare comma"
        );
    }
    assert_eq!(
        imr_lang::decimal_points(&tex),
        Vec::<String>::new(),
        "{tex}"
    );
    for line in worded_lines(&tex) {
        // `\texttt{-{}-model pooled}` names the `--model` value, not an English word
        let line = line.replace("\\texttt{-{}-model pooled}", "");
        assert_eq!(
            imr_lang::english_label_words(&line),
            Vec::<String>::new(),
            "{line}"
        );
    }
}

/// The commune means that Mundlak's model (`cre`) adds are named in the page's words in
/// Spanish (issue 42: "gasto\_salud\_pc\_mean"), and only they: English keeps `value_mean`, and
/// a regressor of the data named `value_mean` or another model's term keeps its name.
#[test]
fn the_commune_means_of_cre_are_spanish_words() {
    let data = common::grunfeld();
    let cre = common::fit(
        &data,
        imr_models::Estimator::Cre,
        imr_models::VcovKind::Cluster,
    );
    assert!(
        cre.coefficient("value_mean").is_some(),
        "{:?}",
        cre.coefficients
    );
    let md = markdown_table(std::slice::from_ref(&cre), Lang::Es);
    assert!(md.contains("\n| value (media de la comuna) | "), "{md}");
    assert!(md.contains("\n| capital (media de la comuna) | "), "{md}");
    assert!(!md.contains("mean"), "{md}");
    let tex = latex_table(std::slice::from_ref(&cre), Lang::Es);
    assert!(tex.contains("\nvalue (media de la comuna) & $"), "{tex}");
    let en = markdown_table(std::slice::from_ref(&cre), Lang::En);
    assert!(en.contains("\n| value\\_mean | "), "{en}");
    assert!(!en.contains("media"), "{en}");
    // a column of the data named `value_mean` among the regressors is not a mean
    let mut own = cre.clone();
    own.regressors.push("value_mean".into());
    let md = markdown_table(&[own], Lang::Es);
    assert!(md.contains("\n| value\\_mean | "), "{md}");
    assert!(md.contains("\n| capital (media de la comuna) | "), "{md}");
    // nor a term of another model
    let mut pooled = cre.clone();
    pooled.model = imr_models::Estimator::Pooled;
    let md = markdown_table(&[pooled], Lang::Es);
    assert!(md.contains("\n| value\\_mean | "), "{md}");
}

/// The LaTeX tables of both languages compile with pdflatex (installed by scripts/setup.sh,
/// Debian's texlive-latex-base and -recommended for booktabs), as a reader's document would
/// take them.
#[test]
fn the_latex_tables_compile_with_pdflatex() {
    let found = std::process::Command::new("pdflatex")
        .arg("--version")
        .output()
        .expect("pdflatex (scripts/setup.sh installs Debian's texlive-latex-base)");
    assert!(found.status.success());
    for lang in [Lang::Es, Lang::En] {
        let dir =
            std::env::temp_dir().join(format!("imr-tex-{}-{}", std::process::id(), lang.tag()));
        std::fs::create_dir_all(&dir).unwrap();
        let document = format!(
            "\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{booktabs}}\n\
             \\begin{{document}}\n{}\\end{{document}}\n",
            latex_table(&grunfeld_fits(), lang)
        );
        std::fs::write(dir.join("tabla.tex"), document).unwrap();
        let run = std::process::Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", "tabla.tex"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&run.stdout).into_owned();
        let pdf = dir.join("tabla.pdf").exists();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            run.status.success() && pdf,
            "{lang:?}: pdflatex failed:\n{log}"
        );
    }
}
