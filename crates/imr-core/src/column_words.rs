//! A column's words in either language, wherever a column is named to a reader (the views'
//! select lists and tables, a request's error about a missing column): the panel's own columns,
//! the intercept, the codebook's labels, or the name of a column the codebook does not know.

use crate::data::codebook::column_doc;
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
}
