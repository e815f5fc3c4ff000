//! The Inequality view's texts.

/// The Inequality view.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct InequalityMessages {
    pub noise_observed: &'static str,
    pub adjusted_approximate_warning: &'static str,
    pub true_inequality_random_variation: &'static str,
    pub adjusted_gini_per_year: &'static str,
    pub table_adjusted_measures_year: &'static str,
    pub variation_beyond_chance: &'static str,
    pub trend_adjusted_measures_scrollable: &'static str,
    pub adjusted_measure: &'static str,
    pub slope_per_year: &'static str,
    pub observed_change_true_from: &'static str,
    pub distribution_commune_rates_per: &'static str,
    pub download_outliers_csv: &'static str,
    pub same_files_from_command: &'static str,
    pub imr_commands_downloads: &'static str,
    pub measure_over_years_confidence: &'static str,
    pub lorenz_curves_cumulative_share: &'static str,
    pub years: &'static str,
    pub not_available: &'static str,
    pub second_correlation_method: &'static str,
    pub imr_command_adjusted_correlation: &'static str,
    pub second_births_weight_note: &'static str,
    pub second_series_command_line: &'static str,
    pub imr_command_second_series: &'static str,
    pub second_subject: &'static str,
    pub weighted: &'static str,
    pub measure_label: &'static str,
    pub choose_second_subject: &'static str,
    pub second_heading: &'static str,
    pub heading: &'static str,
    pub groups_theil_decomposition: &'static str,
    pub no_grouping_or_rank: &'static str,
    pub socioeconomic_rank_concentration_index: &'static str,
    pub bootstrap_replicates: &'static str,
    pub seed: &'static str,
    pub derived_deaths_note: &'static str,
    pub reproduce_command_line: &'static str,
    pub imr_command_that_reproduces: &'static str,
    pub bias_corrected: &'static str,
    pub inflated_inequality_note: &'static str,
    pub flagged_cells_note: &'static str,
    pub rows_not_measured: &'static str,
    pub table_measures_year_scrollable: &'static str,
    pub calculation_notes: &'static str,
    pub linear_trend_per_measure: &'static str,
    pub trend_method_note: &'static str,
    pub table_trends_per_measure: &'static str,
    pub measure: &'static str,
    pub change: &'static str,
    pub no_rates: &'static str,
    /// (first year, last year, observed change, true change, change from the births)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub change_split: fn(&str, &str, &str, &str, &str) -> String,
    /// (second subject, weight column)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub second_subject_note: fn(&str, &str) -> String,
    /// (measure, Pearson r with interval, Spearman ρ with interval, years)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub second_correlation: fn(&str, &str, &str, &str) -> String,
    /// (replicates, seed, the command line's replicates, the page's replicates)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub bootstrap_note: fn(&str, &str, &str, &str) -> String,
    /// (signed bias, relative bias or nothing, observed value, percentile interval, bias-corrected value)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub bias_inflated: fn(&str, &str, &str, &str, &str) -> String,
    /// (signed bias, relative bias or nothing, observed value, percentile interval, bias-corrected value)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub bias_shifted: fn(&str, &str, &str, &str, &str) -> String,
    /// (rows)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub rows_not_measured_summary: fn(&str) -> String,
    /// (rate unit)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub observed_heading: fn(&str) -> String,
    /// (column, the numeric columns)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub no_numeric_column: fn(&str, &str) -> String,
    /// (column)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub no_column: fn(&str) -> String,
}
