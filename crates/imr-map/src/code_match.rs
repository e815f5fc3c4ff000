//! Which feature property of a boundary file holds the data's area codes, when the reader does
//! not know the file's key: the property whose values match the most data codes, compared as
//! the map matches them ([`code_key`]: `1101` matches `01101`). Datawrapper matches a map's key
//! column the same way; GeoDa asks for it, as the page does when nothing matches.

use crate::geometry::{code_key, GeoLayer, PropertyKeys};
use serde_json::Value as JsonValue;
use std::collections::BTreeSet;

/// A property of the boundary features and how many of the data's distinct codes it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeMatch {
    /// The feature property.
    pub property: String,
    /// Distinct data codes with an area of that code.
    pub matched: usize,
    /// Distinct data codes.
    pub data_codes: usize,
}

/// The property of the features of `text` (GeoJSON, or TopoJSON object `object` as
/// [`GeoLayer::from_str`] chooses it) that matches the most of `data_codes`; the first in the
/// file's order on a tie; `None` when no property matches any code or the file does not read.
/// Each candidate is decoded as the map would decode it with that property as the code, so a
/// property missing on a feature, or repeating a code, is not one.
pub fn best_code_property(
    text: &str,
    object: Option<&str>,
    data_codes: &[&str],
) -> Option<CodeMatch> {
    let value: JsonValue = serde_json::from_str(text).ok()?;
    let wanted: BTreeSet<String> = data_codes.iter().map(|c| code_key(c)).collect();
    let mut best: Option<CodeMatch> = None;
    for property in feature_properties(&value, object) {
        let Ok(layer) = GeoLayer::from_str(text, object, &PropertyKeys::code_only(&property))
        else {
            continue;
        };
        let areas: BTreeSet<String> = layer.areas.iter().map(|a| code_key(&a.code)).collect();
        let matched = wanted.intersection(&areas).count();
        if matched > best.as_ref().map_or(0, |b| b.matched) {
            best = Some(CodeMatch {
                property,
                matched,
                data_codes: wanted.len(),
            });
        }
    }
    best
}

/// The features' property names, in order of first appearance: a GeoJSON FeatureCollection's
/// or Feature's, or the geometries' of a TopoJSON object (`object`, else the only one, else
/// `comunas`, as the decoder picks).
fn feature_properties(value: &JsonValue, object: Option<&str>) -> Vec<String> {
    let features: Vec<&JsonValue> = match value.get("type").and_then(JsonValue::as_str) {
        Some("Topology") => {
            let objects = value.get("objects").and_then(JsonValue::as_object);
            let named = objects.and_then(|o| match object {
                Some(name) => o.get(name),
                None if o.len() == 1 => o.values().next(),
                None => o.get("comunas"),
            });
            match named
                .and_then(|n| n.get("geometries"))
                .and_then(JsonValue::as_array)
            {
                Some(geometries) => geometries.iter().collect(),
                None => named.into_iter().collect(),
            }
        }
        Some("FeatureCollection") => value
            .get("features")
            .and_then(JsonValue::as_array)
            .map(|f| f.iter().collect())
            .unwrap_or_default(),
        Some("Feature") => vec![value],
        _ => Vec::new(),
    };
    let mut names: Vec<String> = Vec::new();
    for properties in features
        .iter()
        .filter_map(|f| f.get("properties").and_then(JsonValue::as_object))
    {
        for key in properties.keys() {
            if !names.iter().any(|n| n == key) {
                names.push(key.clone());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three squares whose code is in `code` (zero-padded, as CUT), also carrying a running
    /// `id`, a repeated `region` and a `name`.
    fn geojson() -> String {
        let feature = |i: usize, code: &str| {
            let x = i as f64;
            format!(
                r#"{{"type":"Feature","properties":{{"id":{i},"region":"R1","code":"{code}","name":"Area {i}"}},"geometry":{{"type":"Polygon","coordinates":[[[{x},0],[{x1},0],[{x1},1],[{x},1],[{x},0]]]}}}}"#,
                x1 = x + 1.0
            )
        };
        format!(
            r#"{{"type":"FeatureCollection","features":[{},{},{}]}}"#,
            feature(0, "01101"),
            feature(1, "01107"),
            feature(2, "02101")
        )
    }

    #[test]
    fn the_property_matching_the_most_codes_is_chosen_as_the_map_compares_codes() {
        // `1101` (a number in a spreadsheet) matches `01101`; 99999 matches nothing.
        let best = best_code_property(&geojson(), None, &["1101", "01107", "99999"]).unwrap();
        assert_eq!(
            best,
            CodeMatch {
                property: "code".into(),
                matched: 2,
                data_codes: 3
            }
        );
        // The running number matches codes 0, 1, 2 (and `region` repeats a code: never a key).
        let by_id = best_code_property(&geojson(), None, &["0", "1", "2", "01101"]).unwrap();
        assert_eq!((by_id.property.as_str(), by_id.matched), ("id", 3));
    }

    #[test]
    fn nothing_is_chosen_when_no_property_matches_or_the_file_does_not_read() {
        assert_eq!(best_code_property(&geojson(), None, &["13101"]), None);
        assert_eq!(best_code_property("not json", None, &["13101"]), None);
        assert_eq!(
            best_code_property(r#"{"type":"Point","coordinates":[0,0]}"#, None, &["1"]),
            None
        );
    }

    #[test]
    fn a_topology_object_is_read_as_the_decoder_reads_it() {
        let topology = include_str!("../../../public/data/comunas.topojson");
        let best = best_code_property(topology, None, &["13101", "5101", "99999"]).unwrap();
        assert_eq!(
            (best.property.as_str(), best.matched, best.data_codes),
            ("codigo_comuna", 2, 3)
        );
        assert_eq!(best_code_property(topology, Some("nope"), &["13101"]), None);
    }
}
