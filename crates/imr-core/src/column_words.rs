//! A column's words in either language, wherever a column is named to a reader (the views'
//! select lists and tables, a request's error about a missing column): the panel's own columns,
//! the intercept, the codebook's labels, or the name of a column the codebook does not know.

use crate::data::codebook::column_doc;
use crate::inequality::adjusted::AdjustedCorrelation;
use imr_models::INTERCEPT;
use imr_stats::Lang;

/// "Pobreza por ingresos (CASEN…) (% de las personas)" for a column in `lang`: the built-in columns,
/// the intercept, the codebook's label and unit, or the name when the codebook does not know it.
/// A coefficient's term, which may be an entity mean of `cre`: [`term_label`].
pub fn column_label(lang: Lang, name: &str) -> String {
    match name {
        "rate" => lang
            .pick(
                "Tasa de mortalidad infantil (por 1.000 nacidos vivos)",
                "Infant mortality rate (per 1,000 live births)",
            )
            .into(),
        "births" => lang.pick("Nacimientos", "Births").into(),
        "deaths" => lang
            .pick("Defunciones de menores de 1 año", "Infant deaths")
            .into(),
        INTERCEPT => lang.pick("Constante", "Intercept").into(),
        _ => match column_doc(name) {
            Some(l) => l.label_with_unit(lang),
            None => name.to_string(),
        },
    }
}

/// The regressor whose commune mean `term` is (the engine's naming rule of Mundlak's model,
/// `cre`: `x` for its `x_mean`), for the page's labels; the Spanish regression tables use it too.
pub use imr_models::cre_mean_of as mean_of;

/// A coefficient's row as the Models table and the coefficient plot name it in `lang`, given the fits' regressors: a
/// commune mean of `cre` in words ("Pobreza (%), media de la comuna", never `Pobreza (%)_mean`),
/// any other term as [`column_label`].
pub fn term_label(lang: Lang, term: &str, regressors: &[String]) -> String {
    match mean_of(term, regressors) {
        Some(base) => mean_label(lang, base),
        None => column_label(lang, term),
    }
}

/// "Pobreza por ingresos (CASEN) (% de personas), media de la comuna": the words of `base` (its
/// codebook label with its unit, or its name) as the commune mean of it.
fn mean_label(lang: Lang, base: &str) -> String {
    as_commune_mean(lang, &column_label(lang, base))
}

/// The words `label` of a characteristic as the commune mean of it: "…, media de la comuna".
pub fn as_commune_mean(lang: Lang, label: &str) -> String {
    match lang {
        Lang::Es => format!("{label}, media de la comuna"),
        Lang::En => format!("{label}, commune mean"),
    }
}

/// A column as a select list offers it in `lang`: the words of the panel's own columns
/// (`rate`, `births`, `deaths`: "Tasa de mortalidad infantil (por 1.000 nacidos vivos)",
/// "Nacimientos", …), the codebook's label without its unit, or the name as it is (a column of
/// the reader's own file). Never the engine's English names.
pub fn choice_label(lang: Lang, name: &str) -> String {
    match name {
        "rate" | "births" | "deaths" => column_label(lang, name),
        _ => short_label(lang, name),
    }
}

/// The codebook label alone, or the name.
pub fn short_label(lang: Lang, name: &str) -> String {
    column_doc(name)
        .map(|l| lang.pick(&l.label_es, &l.label_en).to_string())
        .unwrap_or_else(|| name.to_string())
}

/// A column inside a sentence in `lang`: the codebook's label with its first letter lowered
/// ("gasto municipal en salud por habitante"), or the name of a column the codebook does not
/// know in quotes («mi_columna», “mi_columna”).
pub fn in_sentence(lang: Lang, name: &str) -> String {
    match column_doc(name) {
        Some(_) => lowercase_first(&short_label(lang, name)),
        None => match lang {
            Lang::Es => format!("«{name}»"),
            Lang::En => format!("“{name}”"),
        },
    }
}

/// The correlation's sentence with the other series in words ([`in_sentence`]), not the column
/// name it carries: "el Gini de gasto municipal en salud por habitante", not "el Gini de
/// gasto_salud_pc".
pub fn correlation_sentence(lang: Lang, c: &AdjustedCorrelation) -> String {
    c.sentence(lang, &in_sentence(lang, &c.against))
}

/// `text` with its first letter lowered unless it opens an acronym ("SAPU").
pub fn lowercase_first(text: &str) -> String {
    let acronym = text.chars().nth(1).is_some_and(char::is_uppercase);
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if !acronym => first.to_lowercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codebook_labels_the_bundled_covariates() {
        assert!(column_label(Lang::Es, "pobreza").starts_with("Pobreza por ingresos"));
        assert!(column_label(Lang::En, "pobreza").starts_with("Income poverty"));
        assert!(column_label(Lang::En, "sapu").contains("SAPU"));
        assert_eq!(column_label(Lang::En, "unknown_col"), "unknown_col");
        assert_eq!(column_label(Lang::En, "unknown_mean"), "unknown_mean");
        assert_eq!(column_label(Lang::Es, INTERCEPT), "Constante");
        // Select lists: Spanish words for the panel's own columns, labels without units.
        for name in [
            "rate",
            "births",
            "deaths",
            "pobreza",
            "dist_hospital_km",
            "tmi",
        ] {
            let es = choice_label(Lang::Es, name);
            assert!(
                imr_lang::english_label_words(&es).is_empty(),
                "{name}: {es}"
            );
            assert!(imr_lang::decimal_points(&es).is_empty(), "{name}: {es}");
            let with_unit = column_label(Lang::Es, name);
            assert!(
                imr_lang::english_label_words(&with_unit).is_empty(),
                "{name}: {with_unit}"
            );
        }
        assert_eq!(choice_label(Lang::Es, "mi_columna"), "mi_columna");
    }

    /// Mundlak's commune means are named in words (a newcomer read "Pobreza (%)_mean" on the
    /// Spanish page), and only they: a column of the data named `…_mean` keeps its name.
    #[test]
    fn the_commune_means_of_cre_are_named_in_words() {
        let regressors: Vec<String> = ["Pobreza (%)", "pobreza", "gasto", "gasto_mean"]
            .map(String::from)
            .to_vec();
        let es = |term| term_label(Lang::Es, term, &regressors);
        assert_eq!(es("Pobreza (%)_mean"), "Pobreza (%), media de la comuna");
        assert_eq!(
            term_label(Lang::En, "Pobreza (%)_mean", &regressors),
            "Pobreza (%), commune mean"
        );
        // With its unit, as the rows of the characteristics themselves: the coefficient is a
        // change per unit of it.
        assert_eq!(
            es("pobreza_mean"),
            "Pobreza por ingresos (CASEN) (% de personas), media de la comuna"
        );
        assert_eq!(es("gasto_mean"), "gasto_mean");
        assert_eq!(es("otra_mean"), "otra_mean");
        assert_eq!(es("pobreza"), column_label(Lang::Es, "pobreza"));
        assert_eq!(es(INTERCEPT), "Constante");
        assert_eq!(mean_of("pobreza_mean", &regressors), Some("pobreza"));
    }

    #[test]
    fn the_correlation_names_the_other_series_in_words_in_both_languages() {
        let adjusted: Vec<(i64, f64, [f64; 2])> = (0..5)
            .map(|k| (2006 + k, 0.1 + 0.01 * k as f64, [0.09, 0.12]))
            .collect();
        let other: Vec<(i64, f64)> = [0.3, 0.2, 0.5, 0.4, 0.6]
            .iter()
            .enumerate()
            .map(|(k, v)| (2006 + k as i64, *v))
            .collect();
        let mut c =
            crate::inequality::adjusted::correlate_adjusted(&adjusted, &other, &[], 0.95, 200, 1)
                .expect("five years");
        c.against = "gasto_salud_pc".into();
        let es = correlation_sentence(Lang::Es, &c);
        let en = correlation_sentence(Lang::En, &c);
        assert!(
            es.contains("el Gini de gasto municipal en salud por habitante es r ="),
            "{es}"
        );
        assert!(
            en.contains("the Gini of municipal health spending per inhabitant is r ="),
            "{en}"
        );
        for text in [&es, &en] {
            assert!(!text.contains("gasto_salud_pc"), "{text}");
        }
        // A column the codebook does not know keeps its name, quoted.
        c.against = "mi_columna".into();
        assert!(correlation_sentence(Lang::Es, &c).contains("el Gini de «mi_columna» es"));
        assert_eq!(lowercase_first("SAPU o SAR"), "SAPU o SAR");
    }
}
