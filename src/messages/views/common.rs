//! Texts more than one view uses.

/// Words and labels more than one view uses.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct CommonMessages {
    pub view_findings: &'static str,
    pub view_data: &'static str,
    pub view_inequality: &'static str,
    pub view_models: &'static str,
    pub view_map: &'static str,
    pub no_column: &'static str,
    pub births: &'static str,
    pub infant_deaths: &'static str,
    pub code: &'static str,
    pub commune: &'static str,
    pub deaths: &'static str,
    pub download_csv: &'static str,
    pub load_data_in_data_view: &'static str,
    pub year: &'static str,
    pub ci95: &'static str,
    pub how_this_calculated: &'static str,
    pub download_svg: &'static str,
    pub line: &'static str,
    pub rows: &'static str,
    pub load_data_in_data_tab: &'static str,
    pub reading_progress: &'static str,
    pub cancel: &'static str,
    pub with_header: &'static str,
    pub no_header: &'static str,
}
