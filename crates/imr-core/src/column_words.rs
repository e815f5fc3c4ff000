//! A column's words in either language, wherever a column is named to a reader (the views'
//! select lists and tables, a request's error about a missing column): the panel's own columns,
//! the intercept, the codebook's labels, or the name of a column the codebook does not know.

use crate::data::codebook::column_doc;
use crate::inequality::adjusted::AdjustedCorrelation;
use imr_models::INTERCEPT;
use imr_stats::Lang;

/// "Pobreza por ingresos (CASEN…) (% de las personas)" for a column in `lang`: the built-in columns,
/// the intercept, `x_mean` (the entity means of `cre`), the codebook's label and unit, or the
/// name when the codebook does not know it.
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
        _ => {
            if let Some(base) = name.strip_suffix("_mean") {
                if column_doc(base).is_some() {
                    let label = short_label(lang, base);
                    return match lang {
                        Lang::Es => format!("Media por entidad: {label}"),
                        Lang::En => format!("Entity mean: {label}"),
                    };
                }
            }
            match column_doc(name) {
                Some(l) => l.label_with_unit(lang),
                None => name.to_string(),
            }
        }
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

/// A term as a chart's row names it in `lang`: the codebook's label without its unit, the
/// intercept and the entity means of `cre` in words ([`column_label`]), or the name of a column
/// the codebook does not know.
pub fn plot_label(lang: Lang, term: &str) -> String {
    if term == INTERCEPT || term.ends_with("_mean") {
        column_label(lang, term)
    } else {
        short_label(lang, term)
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
        assert!(column_label(Lang::Es, "pobreza_mean").starts_with("Media por entidad"));
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
