//! The page's own texts, one module per language ([`es`], [`en`]). [`Messages`] has one field
//! per text, grouped by view ([`views`]); each language is a `static` of that struct, so the
//! compiler refuses a language that leaves a text out. Texts the engines write (answers, model
//! diagnostics, measure names) are not here: they are values rendered by [`imr_core::Lang`].
//!
//! In a view, [`msg`] gives a reactive text (`{msg(|m| m.map.hide_table)}`), and [`messages`]
//! the texts of a language already at hand (`messages(l).models.se`). A text chosen elsewhere
//! (a button's label handed to a helper) travels as a [`Text`].

mod en;
mod es;
pub mod views;

use crate::i18n::{lang, Lang};
use leptos::prelude::*;
use views::*;

/// Every text of the page in one language.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct Messages {
    pub common: CommonMessages,
    pub app: AppMessages,
    pub data: DataMessages,
    pub upload: UploadMessages,
    pub microdata: MicrodataMessages,
    pub findings: FindingsMessages,
    pub inequality: InequalityMessages,
    pub models: ModelsMessages,
    pub map: MapMessages,
    pub page: PageMessages,
}

/// One text of the page, chosen by field: `|m| m.common.download_csv`.
pub type Text = fn(&Messages) -> &'static str;

/// The texts of `lang`.
pub fn messages(lang: Lang) -> &'static Messages {
    match lang {
        Lang::Es => &es::ES,
        Lang::En => &en::EN,
    }
}

/// `text` in the current language, following language switches.
pub fn msg(text: Text) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let lang = lang();
    move || text(messages(lang.get()))
}

#[cfg(test)]
mod tests;
