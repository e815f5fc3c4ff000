//! Which feature property of a boundary file holds the data's area codes, when the reader does
//! not know the file's key: the property whose values match the most data codes, compared as
//! the map matches them ([`code_key`]: `1101` matches `01101`). Datawrapper matches a map's key
//! column the same way; GeoDa asks for it, as the page does when nothing matches.

use crate::geometry::{code_key, code_string, topology_object, GeoLayer, PropertyKeys};
use serde_json::{Map, Value as JsonValue};
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
/// [`GeoLayer::from_str`] chooses it) that matches the most of `data_codes`; on a tie the one
/// listed first (a feature's names in sorted order, as the JSON reader keeps them, then names
/// new in later features); `None` when no property matches any code or the file does not read.
///
/// The answer is the map's own: a property counts only as the map would decode the file with
/// that property as the code, so a property missing on a feature, or repeating a code among the
/// areas, is not one. Decoding is the costly part, so it is done for as few properties as can
/// decide: first every property is scored from the features' values alone (a property missing
/// on some feature is out; the codes of all features, areas or not, bound what it can match
/// from above); then the properties are decoded from the highest bound down, until no bound
/// left can beat the best decoded. For a file keyed by one property that is one decode, whatever
/// the number of properties.
pub fn best_code_property(
    text: &str,
    object: Option<&str>,
    data_codes: &[&str],
) -> Option<CodeMatch> {
    let value: JsonValue = serde_json::from_str(text).ok()?;
    let wanted: BTreeSet<String> = data_codes.iter().map(|c| code_key(c)).collect();
    let features = feature_properties(&value, object);
    // (bound, position in the list of names, property), highest bound first, then position.
    let mut candidates: Vec<(usize, usize, String)> = property_names(&features)
        .into_iter()
        .enumerate()
        .filter_map(|(position, property)| {
            let bound = match_bound(&features, &property, &wanted)?;
            (bound > 0).then_some((bound, position, property))
        })
        .collect();
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    // The best decoded: (matched, position, property).
    let mut best: Option<(usize, usize, String)> = None;
    for (bound, position, property) in candidates {
        if best.as_ref().is_some_and(|b| bound < b.0) {
            break;
        }
        let Ok(layer) = GeoLayer::from_str(text, object, &PropertyKeys::code_only(&property))
        else {
            continue;
        };
        let areas: BTreeSet<String> = layer.areas.iter().map(|a| code_key(&a.code)).collect();
        let matched = wanted.intersection(&areas).count();
        let better = match &best {
            None => matched > 0,
            Some(b) => matched > b.0 || (matched == b.0 && position < b.1),
        };
        if better {
            best = Some((matched, position, property));
        }
    }
    best.map(|(matched, _, property)| CodeMatch {
        property,
        matched,
        data_codes: wanted.len(),
    })
}

/// How many of `wanted` (code keys) the features' values of `property` hold: an upper bound of
/// what the decoded areas match (skipped features count here); `None` when a feature lacks the
/// property, or its value is no code, as the decoder refuses such a key.
fn match_bound(
    features: &[Option<&Map<String, JsonValue>>],
    property: &str,
    wanted: &BTreeSet<String>,
) -> Option<usize> {
    let mut held = BTreeSet::new();
    for properties in features {
        let code = properties
            .and_then(|p| p.get(property))
            .and_then(code_string)?;
        let key = code_key(&code);
        if wanted.contains(&key) {
            held.insert(key);
        }
    }
    Some(held.len())
}

/// The property names of the features, in order of first appearance (each feature's sorted, as
/// `serde_json::Map` keeps them).
fn property_names(features: &[Option<&Map<String, JsonValue>>]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for key in features.iter().flatten().flat_map(|p| p.keys()) {
        if seen.insert(key.as_str()) {
            names.push(key.clone());
        }
    }
    names
}

/// The features' properties (`None` for a feature without them): a GeoJSON FeatureCollection's
/// or Feature's, or the geometries' of the TopoJSON object the decoder reads
/// ([`topology_object`]: `object`, else the only one, else `comunas`).
fn feature_properties<'a>(
    value: &'a JsonValue,
    object: Option<&str>,
) -> Vec<Option<&'a Map<String, JsonValue>>> {
    let features: Vec<&JsonValue> = match value.get("type").and_then(JsonValue::as_str) {
        Some("Topology") => {
            let Some(objects) = value.get("objects").and_then(JsonValue::as_object) else {
                return Vec::new();
            };
            let Ok(name) = topology_object(objects.keys().map(String::as_str), object) else {
                return Vec::new();
            };
            let Some(named) = objects.get(name) else {
                return Vec::new();
            };
            match named.get("geometries").and_then(JsonValue::as_array) {
                Some(geometries) => geometries.iter().collect(),
                None => vec![named],
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
    features
        .into_iter()
        .map(|f| f.get("properties").and_then(JsonValue::as_object))
        .collect()
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

    /// A FeatureCollection of unit squares (`None`: a feature without geometry) with these
    /// property maps (JSON object bodies).
    fn collection(features: &[(&str, bool)]) -> String {
        let body: Vec<String> = features
            .iter()
            .enumerate()
            .map(|(i, (properties, area))| {
                let x = i as f64;
                let geometry = if *area {
                    format!(
                        r#"{{"type":"Polygon","coordinates":[[[{x},0],[{x1},0],[{x1},1],[{x},1],[{x},0]]]}}"#,
                        x1 = x + 1.0
                    )
                } else {
                    "null".to_string()
                };
                format!(r#"{{"type":"Feature","properties":{{{properties}}},"geometry":{geometry}}}"#)
            })
            .collect();
        format!(
            r#"{{"type":"FeatureCollection","features":[{}]}}"#,
            body.join(",")
        )
    }

    #[test]
    fn a_property_repeating_a_code_among_the_areas_gives_way_to_the_next_best() {
        // `p` holds three data codes but repeats 3 (the map refuses it as a key); `q` holds two.
        let text = collection(&[
            (r#""p":"1","q":"1""#, true),
            (r#""p":"2","q":"2""#, true),
            (r#""p":"3","q":"x""#, true),
            (r#""p":"3","q":"y""#, true),
        ]);
        let best = best_code_property(&text, None, &["1", "2", "3", "4"]).unwrap();
        assert_eq!((best.property.as_str(), best.matched), ("q", 2));
    }

    #[test]
    fn a_code_on_a_feature_without_geometry_is_not_matched_and_the_tie_goes_to_file_order() {
        // `p` holds 1, 2, 3, but 3 sits on a feature without geometry: two areas match, as for
        // `k`, which is listed first (by name) and so wins the tie though its bound was lower.
        let text = collection(&[
            (r#""k":"1","p":"1""#, true),
            (r#""k":"2","p":"2""#, true),
            (r#""k":"9","p":"3""#, false),
        ]);
        let best = best_code_property(&text, None, &["1", "2", "3"]).unwrap();
        assert_eq!((best.property.as_str(), best.matched), ("k", 2));
    }

    /// The answer by decoding every property (what `best_code_property` must equal).
    fn decoding_every_property(text: &str, data_codes: &[&str]) -> Option<CodeMatch> {
        let value: JsonValue = serde_json::from_str(text).ok()?;
        let wanted: BTreeSet<String> = data_codes.iter().map(|c| code_key(c)).collect();
        let mut best: Option<CodeMatch> = None;
        for property in property_names(&feature_properties(&value, None)) {
            let Ok(layer) = GeoLayer::from_str(text, None, &PropertyKeys::code_only(&property))
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// On random files (up to 6 features, 4 properties each present or not, values among a
        /// few codes written as strings, numbers or zero-padded, features with or without
        /// geometry) the bounded search answers as decoding every property does.
        #[test]
        fn the_bounded_search_equals_decoding_every_property(
            features in proptest::collection::vec(
                (proptest::collection::vec(proptest::option::of(0u8..6), 4), proptest::bool::weighted(0.8)),
                1..7,
            ),
            data in proptest::collection::vec(0u8..6, 0..5),
        ) {
            let written = |v: u8| match v % 3 {
                0 => format!("{v}"),
                1 => format!(r#""{v}""#),
                _ => format!(r#""0{v}""#),
            };
            let bodies: Vec<(String, bool)> = features
                .iter()
                .map(|(values, area)| {
                    let props: Vec<String> = values
                        .iter()
                        .enumerate()
                        .filter_map(|(k, v)| v.map(|v| format!(r#""p{k}":{}"#, written(v + k as u8))))
                        .collect();
                    (props.join(","), *area)
                })
                .collect();
            let refs: Vec<(&str, bool)> = bodies.iter().map(|(b, a)| (b.as_str(), *a)).collect();
            let text = collection(&refs);
            let codes: Vec<String> = data.iter().map(|c| c.to_string()).collect();
            let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(
                best_code_property(&text, None, &codes),
                decoding_every_property(&text, &codes)
            );
        }
    }
}
