//! Running a request of the view: the engine's errors in the view's words, and a small cache of
//! the last analyses so that leaving the tab and coming back does not run the bootstrap again.

use crate::i18n::Lang;
use crate::messages::messages;
use crate::state::cache::RequestCache;
use crate::state::Shared;
use imr_core::panel::Panel;
use imr_core::request::{InequalityRequest, InequalityResult, RequestError};
use std::cell::RefCell;
use std::sync::Arc;

/// Why a request has no result, in the words of this view: the errors the view words itself
/// (rendered per language from [`crate::messages`]) and the engine's own, rendered in the
/// language by the engine ([`RequestError::text`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    NoNumericColumn { name: String, available: String },
    NoColumn { name: String },
    NoRates,
    Engine(RequestError),
}

impl Message {
    pub fn pick(&self, lang: Lang) -> String {
        let texts = &messages(lang).inequality;
        match self {
            Message::NoNumericColumn { name, available } => {
                (texts.no_numeric_column)(name, available)
            }
            Message::NoColumn { name } => (texts.no_column)(name),
            Message::NoRates => texts.no_rates.to_string(),
            Message::Engine(error) => error.text(lang),
        }
    }
}

/// A request error in the words of this view.
fn message(err: RequestError) -> Message {
    match err {
        RequestError::NoNumericColumn {
            name, available, ..
        } => Message::NoNumericColumn {
            name,
            available: available.join(", "),
        },
        RequestError::NoColumn { name, .. } => Message::NoColumn { name },
        RequestError::NoRates => Message::NoRates,
        other => Message::Engine(other),
    }
}

/// The result of one request, or why there is none.
pub type Outcome = Result<Shared<InequalityResult>, Message>;

thread_local! {
    /// The last analyses of the loaded panel: tab switches and going back to a previous
    /// setting are instant.
    static ANALYSES: RefCell<RequestCache<InequalityRequest, Outcome>> =
        const { RefCell::new(RequestCache::new(8)) };
}

/// `request` run on `panel`, from the cache when it was run before.
pub fn cached_analysis(panel: &Shared<Panel>, request: &InequalityRequest) -> Outcome {
    ANALYSES.with(|cache| {
        cache.borrow_mut().get_or_run(panel, request, || {
            request
                .run(panel)
                .map(|c| Shared(Arc::new(c)))
                .map_err(message)
        })
    })
}
