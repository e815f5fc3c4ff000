//! The Models view's texts.

/// The Models view.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct ModelsMessages {
    pub heading: &'static str,
    pub lead: &'static str,
    pub outcome: &'static str,
    pub standard_errors: &'static str,
    pub weights_label: &'static str,
    pub no_weights: &'static str,
    pub absorb_label: &'static str,
    pub absorb_help: &'static str,
    pub cluster_label: &'static str,
    pub cluster_entity: &'static str,
    pub cluster_help: &'static str,
    pub models_label: &'static str,
    pub regressors: &'static str,
    pub diagnostics_heading: &'static str,
    pub downloads_heading: &'static str,
    pub data_csv: &'static str,
    pub coefficients_csv: &'static str,
    pub latex_table: &'static str,
    pub markdown_table: &'static str,
    pub r_code: &'static str,
    pub stata_code: &'static str,
    pub commands_label: &'static str,
    pub commands_aria: &'static str,
    pub choose_least_one_regressor: &'static str,
    pub choose_least_one_model: &'static str,
    pub failed_models: &'static str,
    pub plot_heading: &'static str,
    pub plot_note: &'static str,
    pub se: &'static str,
    pub ci: &'static str,
    pub dropped: &'static str,
    pub observations: &'static str,
    pub entities: &'static str,
    pub periods: &'static str,
    pub coefficients_heading: &'static str,
    pub show_confidence_intervals: &'static str,
    pub term: &'static str,
    pub table_note: &'static str,
    /// (data file)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub data_file_note: fn(&str) -> String,
    /// (rows, grouped: "1" is said in the singular)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rows_with_missing: fn(&str) -> String,
}
