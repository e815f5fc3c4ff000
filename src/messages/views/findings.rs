//! The Findings view's texts.

/// The Findings view.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct FindingsMessages {
    pub lead: &'static str,
    pub download_report: &'static str,
    pub report_command_label: &'static str,
    pub see_detail: &'static str,
    pub embed_figure: &'static str,
    pub takeaway_models: &'static str,
    pub takeaway_where: &'static str,
    pub takeaway: &'static str,
    /// (rows flagged)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub include_flagged: fn(&str) -> String,
    /// (the repeated years, comma-separated) The checkbox that keeps them in trends and
    /// correlations.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub include_repeated: fn(&str) -> String,
    /// The label of the period buttons (read by screen readers).
    pub period_label: &'static str,
    /// (first year, last year) Every year of the data.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub period_all: fn(&str, &str) -> String,
    /// (first year, last year) The reference study's years.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub period_study: fn(&str, &str) -> String,
}
