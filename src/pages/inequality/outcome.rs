//! Running a request of the view: the engine's errors in the view's words, and a small cache of
//! the last analyses so that leaving the tab and coming back does not run the bootstrap again.

use crate::i18n::Lang;
use crate::state::Shared;
use imr_core::panel::Panel;
use imr_core::request::{InequalityRequest, InequalityResult, RequestError};
use std::cell::RefCell;
use std::sync::Arc;

/// A message in both interface languages (engine errors are in English and shown as they are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    es: String,
    en: String,
}

impl Message {
    fn new(es: String, en: String) -> Message {
        Message { es, en }
    }

    /// A message with one text for both languages (the engine's own errors).
    fn same(text: String) -> Message {
        Message {
            es: text.clone(),
            en: text,
        }
    }

    pub fn pick(&self, lang: Lang) -> String {
        lang.pick(&self.es, &self.en).to_string()
    }
}

/// A request error in the words of this view.
fn message(err: RequestError) -> Message {
    match err {
        RequestError::NoNumericColumn {
            name, available, ..
        } => {
            let available = available.join(", ");
            Message::new(
                format!("no hay columna numérica `{name}` ({available})"),
                format!("no numeric column `{name}` ({available})"),
            )
        }
        RequestError::NoColumn { name, .. } => Message::new(
            format!("no hay columna `{name}`"),
            format!("no column `{name}`"),
        ),
        RequestError::NoRates => Message::new(
            "Los datos no tienen nacimientos y defunciones (o tasa): elíjalos en la vista Datos."
                .into(),
            "The data have no births and deaths (or rate) columns: choose them in the Data view."
                .into(),
        ),
        other => Message::same(other.to_string()),
    }
}

/// The result of one request, or why there is none.
pub type Outcome = Result<Shared<InequalityResult>, Message>;

thread_local! {
    /// The last analyses, by panel (identity) and request: tab switches and going back to a
    /// previous setting are instant.
    static CACHE: RefCell<Vec<(Arc<Panel>, InequalityRequest, Outcome)>> = const { RefCell::new(Vec::new()) };
}

const CACHE_ENTRIES: usize = 8;

/// `request` run on `panel`, from the cache when it was run before.
pub fn cached_analysis(panel: &Shared<Panel>, request: &InequalityRequest) -> Outcome {
    let hit = CACHE.with(|c| {
        c.borrow()
            .iter()
            .find(|(p, k, _)| Arc::ptr_eq(p, &panel.0) && k == request)
            .map(|(_, _, o)| o.clone())
    });
    if let Some(outcome) = hit {
        return outcome;
    }
    let outcome = request
        .run(panel)
        .map(|c| Shared(Arc::new(c)))
        .map_err(message);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(p, _, _)| Arc::ptr_eq(p, &panel.0));
        if c.len() >= CACHE_ENTRIES {
            c.drain(..1);
        }
        c.push((panel.0.clone(), request.clone(), outcome.clone()));
    });
    outcome
}
