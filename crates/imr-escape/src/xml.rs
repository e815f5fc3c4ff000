//! Text and attribute values in SVG (XML 1.0).

/// `true` for a character XML 1.0 allows in a document (§2.2 `Char`: tab, LF, CR, U+0020–U+D7FF,
/// U+E000–U+FFFD, U+10000–U+10FFFF; Rust's `char` already excludes the surrogates).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= '\u{20}' && c != '\u{FFFE}' && c != '\u{FFFF}')
}

fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // a parser turns a raw CR (and, in attributes, tab and LF) into LF or a space (§2.11,
            // §3.3.3): written as character references they survive
            '\r' => out.push_str("&#13;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            c if !is_xml_char(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Text for XML character data (SVG `<text>`, `<title>`, `<metadata>`): `&`, `<`, `>`, `"`
/// and `'` as the predefined entities (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`), a carriage
/// return as `&#13;`, and every character XML 1.0 does not allow (C0 controls other than tab,
/// LF and CR; U+FFFE, U+FFFF) replaced by U+FFFD REPLACEMENT CHARACTER, so that the document
/// stays well-formed.
///
/// Rule: XML 1.0 (Fifth Edition) §2.2 Characters, §2.4 Character Data, §4.6 Predefined
/// Entities. The same text is safe inside an attribute value in double or single quotes.
pub fn xml_text(text: &str) -> String {
    escape(text, false)
}

/// Text for an XML attribute value in double or single quotes: as [`xml_text`], plus tab and
/// LF as character references (`&#9;`, `&#10;`), which attribute-value normalisation (XML 1.0
/// §3.3.3) would otherwise turn into spaces.
pub fn xml_attr(text: &str) -> String {
    escape(text, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn markup_characters_become_entities() {
        assert_eq!(
            xml_text("<script>a & \"b\" 'c'</script>"),
            "&lt;script&gt;a &amp; &quot;b&quot; &apos;c&apos;&lt;/script&gt;"
        );
    }

    #[test]
    fn control_characters_are_replaced() {
        assert_eq!(
            xml_text("a\u{1}b\u{1b}c\u{FFFF}"),
            "a\u{FFFD}b\u{FFFD}c\u{FFFD}"
        );
        assert_eq!(xml_text("a\nb\tc\rd"), "a\nb\tc&#13;d");
        assert_eq!(xml_attr("a\nb\tc"), "a&#10;b&#9;c");
    }

    proptest! {
        #[test]
        fn no_markup_and_only_xml_characters_remain(s in any::<String>()) {
            for out in [xml_text(&s), xml_attr(&s)] {
                prop_assert!(!out.contains(['<', '>', '"', '\'']));
                prop_assert!(out.chars().all(is_xml_char));
                for (i, _) in out.match_indices('&') {
                    let rest = &out[i..];
                    prop_assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#13;", "&#10;", "&#9;"]
                        .iter()
                        .any(|e| rest.starts_with(e)));
                }
            }
        }
    }
}
