//! Why a part of the Map view cannot be drawn: a value, worded in the page's language where it
//! is shown (a language switch rewords it).

use crate::i18n::Lang;
use crate::messages::messages;
use imr_core::request::RequestError;

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
