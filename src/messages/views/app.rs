//! The page frame's texts.

/// The page frame: title, tabs, language switch, sources.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct AppMessages {
    pub page_title: &'static str,
    pub tabs_label: &'static str,
    pub sources_heading: &'static str,
    pub language_switch_label: &'static str,
    pub language_switch_button: &'static str,
    /// While the bundled dataset's file is read (the first time, before any number).
    pub loading_bundled: &'static str,
    /// (engine version)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub footer: fn(&str) -> String,
}
