//! The codebook of the bundled panel ([`crate::CODEBOOK_CSV`]): what each column holds, in
//! Spanish and English, with its unit and source. Written by `imr dataset` from
//! `imr_dataset::codebook::COLUMNS`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One column of the bundled panel as the codebook documents it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct ColumnDoc {
    /// Column name in the panel (`pobreza`, `ingreso_salud_pc`, …).
    pub column: String,
    pub label_es: String,
    pub label_en: String,
    /// Unit in English ("% of persons", "km", …); empty for codes and names.
    #[serde(default)]
    pub unit: String,
    /// Unit in Spanish ("% de personas", …); empty for codes and names.
    #[serde(default)]
    pub unit_es: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub notes: String,
}

impl ColumnDoc {
    /// The column's label in `lang` (`label_es` or `label_en`).
    pub fn label(&self, lang: imr_lang::Lang) -> &str {
        lang.pick(&self.label_es, &self.label_en)
    }

    /// The unit in `lang`: the codebook's `unit` or `unit_es` column (`imr dataset` writes both
    /// from `imr_dataset::codebook::COLUMNS`); `None` when the column has no unit, or when a
    /// Spanish page would otherwise get an English unit (a codebook row without `unit_es`).
    pub fn unit_in(&self, lang: imr_lang::Lang) -> Option<&str> {
        let unit = lang.pick(&self.unit_es, &self.unit);
        (!unit.is_empty()).then_some(unit)
    }

    /// "Label (unit)" in `lang`, or the label alone when there is no unit to show; "Label,
    /// unit" when the unit has parentheses of its own, never nested ones ("(km (distancia de
    /// círculo máximo))" read as a typo).
    pub fn label_with_unit(&self, lang: imr_lang::Lang) -> String {
        match self.unit_in(lang) {
            Some(unit) if unit.contains('(') => format!("{}, {unit}", self.label(lang)),
            Some(unit) => format!("{} ({unit})", self.label(lang)),
            None => self.label(lang).to_owned(),
        }
    }
}

/// The codebook's rows by column name, parsed once.
pub fn codebook() -> &'static BTreeMap<String, ColumnDoc> {
    static CODEBOOK: OnceLock<BTreeMap<String, ColumnDoc>> = OnceLock::new();
    CODEBOOK.get_or_init(|| {
        csv::Reader::from_reader(crate::CODEBOOK_CSV.as_bytes())
            .deserialize::<ColumnDoc>()
            .map(|row| row.expect("the embedded codebook.csv is valid (tested)"))
            .map(|doc| (doc.column.clone(), doc))
            .collect()
    })
}

/// The codebook entry of a column, if the bundled panel has it.
pub fn column_doc(column: &str) -> Option<&'static ColumnDoc> {
    codebook().get(column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_of_the_bundled_panel_is_documented() {
        let header = std::str::from_utf8(crate::BUNDLED_PANEL_CSV)
            .unwrap()
            .lines()
            .next()
            .unwrap();
        for column in header.split(',') {
            assert!(column_doc(column).is_some(), "{column} has no codebook row");
        }
        assert_eq!(codebook().len(), header.split(',').count());
    }

    /// Every unit of the codebook has Spanish words without English in them, so the Spanish
    /// page never shows "(persons)" or "(km (great-circle))". A new column whose unit this
    /// fails on needs its `unit_es` in `imr_dataset::codebook::COLUMNS`.
    #[test]
    fn every_unit_is_worded_in_spanish() {
        use imr_lang::Lang;
        for doc in codebook().values() {
            if doc.unit.is_empty() {
                continue;
            }
            let es = doc.unit_in(Lang::Es);
            assert!(
                es.is_some(),
                "{}: no Spanish for the unit {:?}",
                doc.column,
                doc.unit
            );
            let label = doc.label_with_unit(Lang::Es);
            assert!(imr_lang::english_words(&label).is_empty(), "{label}");
            assert_eq!(doc.unit_in(Lang::En), Some(doc.unit.as_str()));
        }
        let poverty = column_doc("pobreza").unwrap();
        assert_eq!(
            poverty.label_with_unit(Lang::Es),
            "Pobreza por ingresos (CASEN) (% de personas)"
        );
        // no nested parentheses: a unit with its own is set off by a comma
        assert_eq!(
            column_doc("dist_hospital_km").unwrap().label_with_unit(Lang::Es),
            "Distancia al hospital de segundo o tercer nivel más cercano, km (distancia de círculo máximo)"
        );
        for lang in [Lang::Es, Lang::En] {
            for doc in codebook().values() {
                let label = doc.label_with_unit(lang);
                assert!(
                    !label.contains("))") && !label.contains(" (% of commune population ("),
                    "{label}"
                );
            }
        }
    }

    #[test]
    fn labels_and_units_are_read_with_their_quoting() {
        let code = column_doc("codigo_comuna").unwrap();
        assert_eq!(code.label_es, "Código de comuna (CUT 2018)");
        assert_eq!(code.label_en, "Commune code (CUT 2018)");
        assert_eq!(code.unit, "");
        assert_eq!(
            code.source,
            "SUBDERE, Códigos Únicos Territoriales 2018 (CUT_2018_v04)"
        );
    }
}
