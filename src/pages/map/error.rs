//! Why a part of the Map view cannot be drawn: a value, worded in the page's language where it
//! is shown (a language switch rewords it).

use crate::i18n::Lang;
use crate::messages::messages;
use imr_core::request::{BoundaryProblem, RequestError};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum MapError {
    /// The custom breaks cannot be read (the text as typed).
    Breaks(String),
    /// The engine refused the request or could not compute a part of it.
    Request(RequestError),
}

impl MapError {
    pub(super) fn text(&self, lang: Lang) -> String {
        match self {
            MapError::Breaks(text) => (messages(lang).map.breaks_unreadable)(text),
            MapError::Request(error) => error.text(lang),
        }
    }
}

/// Why boundaries cannot be used: the file (`None`: the bundled boundaries) and the reason.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BoundaryError {
    pub file: Option<String>,
    pub why: BoundaryWhy,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum BoundaryWhy {
    /// The map engine's reason (geometry, layout or neighbours), as `imr map` reports it.
    Engine(BoundaryProblem),
    /// The browser could not read the file (its error).
    Unreadable(String),
    /// The bundled boundaries' file is still being read (src/assets.rs).
    Loading,
}

impl BoundaryError {
    /// True while the bundled boundaries are still being read (a note, not an error).
    pub(super) fn is_loading(&self) -> bool {
        self.why == BoundaryWhy::Loading
    }

    pub(super) fn text(&self, lang: Lang) -> String {
        // The bundled boundaries are the page's own file (`data/comunas.topojson`).
        let file = self.file.as_deref().unwrap_or("comunas.topojson");
        let why = match &self.why {
            BoundaryWhy::Engine(problem) => problem.text(lang),
            // The Data view's words for a file the browser cannot read.
            BoundaryWhy::Unreadable(detail) => {
                return (messages(lang).data.cannot_read_file)(file, detail)
            }
            BoundaryWhy::Loading => return messages(lang).map.loading_boundaries.to_owned(),
        };
        match &self.file {
            Some(file) => format!("{file}: {why}"),
            None => why,
        }
    }
}
