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
