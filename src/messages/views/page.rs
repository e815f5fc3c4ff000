//! Texts of the page frame for a reader who publishes from it: the map's options panel and
//! its commune search.

/// The map's reading aids.
#[derive(Debug)]
#[cfg_attr(test, derive(serde::Serialize))]
pub struct PageMessages {
    /// The map's options, below the map.
    pub map_options: &'static str,
    /// The commune search of the map (reaches communes too small to tap).
    pub find_commune: &'static str,
    pub find_commune_placeholder: &'static str,
    /// (what was typed)
    #[cfg_attr(test, serde(serialize_with = "crate::messages::tests::sampled"))]
    pub commune_not_found: fn(&str) -> String,
}
