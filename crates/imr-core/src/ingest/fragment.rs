//! The URL fragment's contract (`#view=map&year=2021&scheme=jenks`): how the page reads the view
//! options of a link or of a saved analysis. Pure functions, so that they are tested and fuzzed
//! natively; the page (src/fragment.rs) only wires them to `location.hash`.
//!
//! # Contract
//! * The text is `key=value` pairs joined by `&`; a leading `#` is skipped; empty pairs are
//!   skipped; a pair without `=` has the empty value.
//! * At most [`MAX_FRAGMENT_BYTES`] bytes are read; a longer fragment is ignored entirely (the
//!   page opens with its defaults) rather than cut at an arbitrary place.
//! * At most [`MAX_PAIRS`] pairs are read; later ones are ignored.
//! * Keys and values are percent-decoded (`%` and two hex digits; `+` is a literal `+`). A pair is
//!   dropped when an escape is malformed, when it does not decode to UTF-8, when its key is not
//!   1 to [`MAX_KEY_BYTES`] bytes of `a-z`, `0-9`, `_` or `-`, or when its value is longer than
//!   [`MAX_VALUE_BYTES`] bytes or holds a control character.
//! * A repeated key: the last pair wins.
//! * Unknown keys are kept (a newer page may know them) but no view reads them. Each view
//!   parses the value of its own key (`year` as an integer, `scheme` as one of its names, …)
//!   and falls back to its default when the value does not parse: a fragment can choose among
//!   the options a user could click, nothing else.
//! * Keys shared by several views: `view`, `lang`, and `include-flagged` (`true` or `false`,
//!   default `false`): whether rows flagged as implausible (`crate::plausibility`) are kept in
//!   the map's estimates (classes, smoothing, Moran's I/LISA, funnel), the Inequality and Models
//!   analyses and the Findings (the include checkbox of the Data, Findings, Inequality and Map
//!   views); any other value is the default.
//! * Nothing here panics, and the work is linear in the fragment's length.

use std::collections::BTreeMap;

/// The most pairs read.
pub const MAX_PAIRS: usize = 64;
/// The longest key, in bytes.
pub const MAX_KEY_BYTES: usize = 32;
/// The longest value after decoding, in bytes.
pub const MAX_VALUE_BYTES: usize = 4096;
/// The longest fragment read, in bytes (792,704): room for [`MAX_PAIRS`] pairs of the longest
/// key and value with every byte escaped (`%XX`), so that whatever [`parse_fragment`] returns,
/// [`format_fragment`] writes a fragment that reads back the same (the fuzzer found a smaller
/// limit broke that round trip).
pub const MAX_FRAGMENT_BYTES: usize = MAX_PAIRS * (3 * MAX_KEY_BYTES + 3 * MAX_VALUE_BYTES + 2);

/// Parses `a=1&b=x%20y` into a map under the contract of this module.
pub fn parse_fragment(fragment: &str) -> BTreeMap<String, String> {
    let text = fragment.strip_prefix('#').unwrap_or(fragment);
    if text.len() > MAX_FRAGMENT_BYTES {
        return BTreeMap::new();
    }
    text.split('&')
        .filter(|p| !p.is_empty())
        .take(MAX_PAIRS)
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let key = decode(k)?;
            let value = decode(v)?;
            let key_ok = !key.is_empty()
                && key.len() <= MAX_KEY_BYTES
                && key.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'
                });
            let value_ok = value.len() <= MAX_VALUE_BYTES && !value.chars().any(char::is_control);
            (key_ok && value_ok).then_some((key, value))
        })
        .collect()
}

/// Writes a map as `a=1&b=x%20y`, keys in order; [`parse_fragment`] reads it back whenever the
/// map is within the contract.
pub fn format_fragment(params: &BTreeMap<String, String>) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.,~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Percent-decodes; `None` for a malformed escape or bytes that are not UTF-8.
fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = |b: u8| (b as char).to_digit(16);
            let high = hex(*bytes.get(i + 1)?)?;
            let low = hex(*bytes.get(i + 2)?)?;
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_round_trip_with_escapes() {
        let mut m = BTreeMap::new();
        m.insert("view".to_owned(), "map".to_owned());
        m.insert("x".to_owned(), "pobreza,ingreso salud&más".to_owned());
        let text = format_fragment(&m);
        assert_eq!(text, "view=map&x=pobreza,ingreso%20salud%26m%C3%A1s");
        assert_eq!(parse_fragment(&format!("#{text}")), m);
    }

    /// The page's include toggle for flagged rows is a key the contract keeps.
    #[test]
    fn the_include_flagged_key_round_trips() {
        let m = parse_fragment("#view=map&include-flagged=true");
        assert_eq!(m.get("include-flagged").map(String::as_str), Some("true"));
        assert_eq!(format_fragment(&m), "include-flagged=true&view=map");
    }

    /// So is the toggle that keeps repeated years in trends and correlations.
    #[test]
    fn the_include_repeated_years_key_round_trips() {
        let m = parse_fragment("#view=inequality&include-repeated-years=true");
        assert_eq!(
            m.get("include-repeated-years").map(String::as_str),
            Some("true")
        );
        assert_eq!(
            format_fragment(&m),
            "include-repeated-years=true&view=inequality"
        );
    }

    #[test]
    fn malformed_pairs_are_dropped_or_empty() {
        let m = parse_fragment("#a=1&&b&c=%zz&d=%4&e=%&f=%+1&g=%C3&h=x+y");
        assert_eq!(m.get("a").map(String::as_str), Some("1"));
        assert_eq!(m.get("b").map(String::as_str), Some(""));
        assert_eq!(m.get("h").map(String::as_str), Some("x+y"));
        for dropped in ["c", "d", "e", "f", "g"] {
            assert!(!m.contains_key(dropped), "{dropped}");
        }
    }

    #[test]
    fn keys_and_values_outside_the_contract_are_dropped() {
        let long_value = "v".repeat(MAX_VALUE_BYTES + 1);
        let long_key = "k".repeat(MAX_KEY_BYTES + 1);
        let text = format!(
            "ok=1&View=x&{long_key}=1&long={long_value}&nl=a%0Ab&nul=%00&=empty&%3Cscript%3E=1&year=2021&year=2022"
        );
        let m = parse_fragment(&text);
        let keys: Vec<&str> = m.keys().map(String::as_str).collect();
        assert_eq!(keys, ["ok", "year"]);
        assert_eq!(m["year"], "2022");
    }

    /// Found by imr-fuzz (fragment target, seed 20261130): 64 pairs of long values of `"`,
    /// each within bounds, wrote a fragment longer than the former 16 KiB limit, which then read
    /// back as nothing.
    #[test]
    fn the_longest_pairs_within_bounds_round_trip() {
        let m: BTreeMap<String, String> = (0..MAX_PAIRS)
            .map(|i| (format!("{i:0>32}"), "\"".repeat(MAX_VALUE_BYTES)))
            .collect();
        let text = format_fragment(&m);
        assert!(text.len() <= MAX_FRAGMENT_BYTES);
        assert_eq!(parse_fragment(&text), m);
    }

    #[test]
    fn an_oversized_fragment_is_ignored_and_pairs_are_capped() {
        assert!(parse_fragment(&"a".repeat(MAX_FRAGMENT_BYTES + 1)).is_empty());
        let many: Vec<String> = (0..200).map(|i| format!("k{i}=1")).collect();
        assert_eq!(parse_fragment(&many.join("&")).len(), MAX_PAIRS);
    }

    proptest::proptest! {
        #[test]
        fn any_text_parses_within_bounds(text in ".{0,300}") {
            let m = parse_fragment(&text);
            proptest::prop_assert!(m.len() <= MAX_PAIRS);
            for (k, v) in &m {
                proptest::prop_assert!(!k.is_empty() && k.len() <= MAX_KEY_BYTES);
                proptest::prop_assert!(v.len() <= MAX_VALUE_BYTES);
                proptest::prop_assert!(!v.chars().any(char::is_control));
            }
        }

        #[test]
        fn maps_within_the_contract_round_trip(
            m in proptest::collection::btree_map("[a-z0-9_-]{1,32}", "[^\\p{Cc}]{0,40}", 0..20)
        ) {
            proptest::prop_assert_eq!(parse_fragment(&format_fragment(&m)), m);
        }
    }
}
