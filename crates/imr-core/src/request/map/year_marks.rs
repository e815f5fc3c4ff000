//! What the mapped year is besides a year of data like the others — a copy of an earlier year or
//! a year whose deaths were reconstructed from a published rate — in the words the map, its
//! funnel and the page's tooltip use.

use super::ValidatedMap;

impl ValidatedMap {
    /// The mapped year when its deaths were reconstructed from a published rate.
    pub fn reconstructed(&self) -> Option<&crate::reconstructed::ReconstructedYear> {
        self.reconstructed.as_ref()
    }

    /// What the mapped year is besides a year of data, beside it: "(copia de 2021)",
    /// "(defunciones reconstruidas)"; `None` for a year like the others. A copy is a copy
    /// first.
    pub(super) fn year_mark(&self) -> Option<String> {
        let lang = self.request.lang;
        match (&self.copy_of, &self.reconstructed) {
            (Some(copy), _) => Some(copy.mark(lang)),
            (None, Some(year)) => Some(year.mark(lang)),
            (None, None) => None,
        }
    }

    /// The year as the map's texts name it: "2022", "2022 (copia de 2021)" for a copy, "2021
    /// (defunciones reconstruidas)" for a reconstructed year.
    pub(super) fn year_label(&self) -> String {
        match self.year_mark() {
            Some(mark) => format!("{} {mark}", self.request.year),
            None => self.request.year.to_string(),
        }
    }

    /// The caution under the legend of a copied or reconstructed year's map; empty otherwise.
    pub(super) fn year_caution(&self) -> String {
        let lang = self.request.lang;
        match (&self.copy_of, &self.reconstructed) {
            (Some(copy), _) => copy.map_note(lang),
            (None, Some(year)) => year.map_note(lang),
            (None, None) => String::new(),
        }
    }
}

/// What the map says when the year asked (by a shared link, or kept from data since replaced)
/// has no data and it shows `shown` instead — the latest year with data — so that a reader of
/// a link to 2020 is not shown 2021 under her link's words: "No hay datos de 2020: el mapa
/// muestra 2021, el último año con datos."
pub fn year_without_data_note(lang: crate::Lang, asked: i64, shown: i64) -> String {
    match lang {
        crate::Lang::Es => {
            format!("No hay datos de {asked}: el mapa muestra {shown}, el último año con datos.")
        }
        crate::Lang::En => {
            format!(
                "There are no data for {asked}: the map shows {shown}, the latest year with data."
            )
        }
    }
}

#[cfg(test)]
mod tests {
    /// The note names both years, the asked one first, in either language.
    #[test]
    fn the_note_names_the_year_asked_and_the_year_shown() {
        for lang in [crate::Lang::Es, crate::Lang::En] {
            let note = super::year_without_data_note(lang, 2020, 2021);
            let (asked, shown) = (note.find("2020").unwrap(), note.find("2021").unwrap());
            assert!(asked < shown, "{note}");
        }
    }
}
