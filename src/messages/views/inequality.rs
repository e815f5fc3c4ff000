//! The Inequality view's texts.

/// The Inequality view.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct InequalityMessages {
    pub noise_observed: &'static str,
    pub adjusted_approximate_warning: &'static str,
    pub adjusted_heading: &'static str,
    pub adjusted_chart_heading: &'static str,
    pub adjusted_table_label: &'static str,
    pub beyond_chance: &'static str,
    pub adjusted_trend_table_label: &'static str,
    pub adjusted_measure: &'static str,
    pub slope_per_year: &'static str,
    pub change_split_heading: &'static str,
    pub boxplot_heading: &'static str,
    pub download_outliers_csv: &'static str,
    pub downloads_commands_summary: &'static str,
    pub downloads_commands_label: &'static str,
    pub line_heading: &'static str,
    pub lorenz_heading: &'static str,
    pub years: &'static str,
    pub not_available: &'static str,
    pub second_correlation_method: &'static str,
    pub correlation_command_label: &'static str,
    pub second_births_weight_note: &'static str,
    pub second_command_label: &'static str,
    pub second_command_aria: &'static str,
    pub second_subject_label: &'static str,
    pub weight_label: &'static str,
    pub measure_label: &'static str,
    pub choose_second_subject: &'static str,
    pub second_heading: &'static str,
    pub heading: &'static str,
    pub group_label: &'static str,
    pub no_grouping_or_rank: &'static str,
    pub rank_label: &'static str,
    pub replicates_label: &'static str,
    pub seed_label: &'static str,
    pub derived_deaths_note: &'static str,
    /// Before the lower end of the births-ratio range (percent inputs).
    pub births_ratio_label: &'static str,
    /// Between the two ends of the births-ratio range.
    pub births_ratio_to: &'static str,
    /// After the upper end: what the range does.
    pub births_ratio_help: &'static str,
    pub births_ratio_invalid: &'static str,
    pub command_label: &'static str,
    pub command_aria: &'static str,
    pub bias_corrected: &'static str,
    pub inflated_inequality_note: &'static str,
    pub flagged_cells_note: &'static str,
    pub rows_not_measured: &'static str,
    pub observed_table_label: &'static str,
    pub calculation_notes: &'static str,
    pub trend_heading: &'static str,
    pub trend_table_label: &'static str,
    pub measure_column: &'static str,
    pub change_column: &'static str,
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
    /// (the year repeated) The mark of a year that repeats the previous one.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub repeat_of: fn(&str) -> String,
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
