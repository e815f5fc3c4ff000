//! Texts of the page frame for a reader who publishes from it: the reader's own data named
//! above every view (kept in this browser, removable), the sources of those data, the skip
//! link past the map's communes, the map's options panel and its commune search, and the
//! words of derived deaths.

/// The frame around the views, and the map's reading aids.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct PageMessages {
    /// Before the names of the loaded files.
    pub your_data: &'static str,
    /// After them: where the files are kept.
    pub kept_here: &'static str,
    pub remove_my_data: &'static str,
    /// While the kept files are read again after a reload.
    pub restoring: &'static str,
    /// After "remove my data".
    pub removed: &'static str,
    /// (the browser's reason) The files could not be kept.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub not_kept: fn(&str) -> String,
    /// The reason when the browser has no storage for this page (a file opened from disk in
    /// some browsers, private windows).
    pub no_storage_here: &'static str,
    /// (file names) The sources footer under the reader's own data.
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub user_data_source: fn(&str) -> String,
    /// The link that jumps over the map's communes to its downloads.
    pub skip_map: &'static str,
    /// The map's options, below the map.
    pub map_options: &'static str,
    /// The commune search of the map (reaches communes too small to tap).
    pub find_commune: &'static str,
    pub find_commune_placeholder: &'static str,
    /// (what was typed)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub commune_not_found: fn(&str) -> String,
    /// The deaths column when deaths are derived from a published rate.
    pub derived_deaths: &'static str,
    /// The title of a derived deaths cell.
    pub derived_deaths_title: &'static str,
}
