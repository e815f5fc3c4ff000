//! The Map view's texts.

/// The Map view.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct MapMessages {
    pub data_codes_without_boundary: &'static str,
    pub boundaries_without_data_year: &'static str,
    pub boundaries: &'static str,
    pub in_use: &'static str,
    pub areas: &'static str,
    pub code_property: &'static str,
    pub name_property: &'static str,
    pub boundaries_file_label: &'static str,
    pub use_bundled_boundaries: &'static str,
    /// While the bundled boundaries' file is read (the first time the map is shown).
    pub loading_boundaries: &'static str,
    pub raw_rate: &'static str,
    pub global_empirical_bayes: &'static str,
    pub spatial_empirical_bayes: &'static str,
    /// The contiguity select's label and its two choices.
    pub neighbours: &'static str,
    pub contiguity_queen: &'static str,
    pub contiguity_rook: &'static str,
    /// Before the analytical z and p of Moran's I.
    pub moran_analytical: &'static str,
    /// Why the permutation p and the analytical p differ (one tail against two).
    pub moran_tails: &'static str,
    pub under_normality: &'static str,
    pub under_randomisation: &'static str,
    /// Before the EB-standardised Moran's I.
    pub eb_moran_equals: &'static str,
    pub quantiles: &'static str,
    pub equal_intervals: &'static str,
    pub natural_breaks_jenks: &'static str,
    pub box_map: &'static str,
    pub standard_deviations: &'static str,
    pub controls_legend: &'static str,
    pub pause: &'static str,
    pub play_years: &'static str,
    pub variable_rate: &'static str,
    pub smoothing: &'static str,
    pub classes: &'static str,
    pub number_classes: &'static str,
    pub custom_breaks: &'static str,
    pub colours: &'static str,
    pub lisa_cluster_map: &'static str,
    pub download_png: &'static str,
    pub same_svg_from_command: &'static str,
    pub no_data: &'static str,
    pub zoom: &'static str,
    pub zoom_out: &'static str,
    pub whole_country: &'static str,
    /// Zoom to the communes that have data (an upload of part of the country).
    pub zoom_data: &'static str,
    pub zoom_region: &'static str,
    pub all_regions: &'static str,
    pub funnel_plot: &'static str,
    pub funnel_hint: &'static str,
    pub funnel_plot_not_available: &'static str,
    pub download_funnel_svg: &'static str,
    pub selected: &'static str,
    pub clear: &'static str,
    pub legend_no_data: &'static str,
    /// Before the list of the communes flagged as implausible and left out of the map.
    pub flagged_left_out_list: &'static str,
    /// The tooltip's line for a commune flagged as implausible and left out, before its reasons.
    pub tooltip_flagged_left_out: &'static str,
    /// The tooltip's line for a flagged commune kept in the map (include-flagged on).
    pub tooltip_flagged_included: &'static str,
    pub select_commune_hint: &'static str,
    pub method_rate: &'static str,
    pub method_smoothing: &'static str,
    pub method_classes: &'static str,
    pub method_flagged: &'static str,
    pub method_funnel: &'static str,
    pub spatial_autocorrelation: &'static str,
    pub moran_i_equals: &'static str,
    pub moran_not_available: &'static str,
    pub table_raw_rate: &'static str,
    pub table_ci95: &'static str,
    pub table_global_eb: &'static str,
    pub table_spatial_eb: &'static str,
    pub table_mapped: &'static str,
    pub table_class: &'static str,
    pub table_caption: &'static str,
    pub hide_table: &'static str,
    pub show_table: &'static str,
    pub tooltip_smoothed: &'static str,
    pub excess_risk: &'static str,
    pub tooltip_rate: &'static str,
    pub tooltip_rate_no_data: &'static str,
    pub scheme_auto: &'static str,
    pub scheme_ylorrd: &'static str,
    pub scheme_blues: &'static str,
    pub scheme_viridis: &'static str,
    pub scheme_cividis: &'static str,
    pub scheme_burd: &'static str,
    pub scheme_puor: &'static str,
    /// (data codes matched to an area, data codes of the year)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub codes_matched: fn(&str, &str) -> String,
    /// (the code property the page chose, data codes it matches, data codes)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub code_property_chosen: fn(&str, &str, &str) -> String,
    /// (permutations, seed)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub moran_method: fn(&str, &str) -> String,
    /// (permutations, seed)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub moran_compute: fn(&str, &str) -> String,
    /// (permutations, communes with data)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub moran_detail: fn(&str, &str) -> String,
    /// (permutations, significance level)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub lisa_note: fn(&str, &str) -> String,
    /// (ms to recolour, ms to the next frame)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub switch_time: fn(&str, &str) -> String,
    /// (the breaks as typed)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub breaks_unreadable: fn(&str) -> String,
}
