//! Cells of a Markdown (GitHub pipe) table.

/// Text for one cell of a pipe table: `\`, `|`, `` ` ``, `*`, `_`, `[`, `]`, `<` and `>` are backslash-escaped (so the text
/// can neither end the cell, nor start code, emphasis, a link or raw HTML such as `<script>`),
/// and line breaks and other control characters become spaces (a table row is one line).
///
/// Rule: GitHub Flavored Markdown spec 0.29, §4.10 Tables ("include a pipe in a cell's content
/// by escaping it") and §6.1 Backslash escapes ("any ASCII punctuation character may be
/// backslash-escaped").
pub fn markdown_cell(text: &str) -> String {
    crate::text::one_line_escaped(text, "\\|`*_[]<>", &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(markdown_cell("a|b"), "a\\|b");
        assert_eq!(markdown_cell("<script>"), "\\<script\\>");
        assert_eq!(markdown_cell("x_1*[y](z)`\\"), "x\\_1\\*\\[y\\](z)\\`\\\\");
        assert_eq!(markdown_cell("a\nb\r"), "a b ");
    }

    proptest! {
        #[test]
        fn every_special_character_is_escaped(s in any::<String>()) {
            let out = markdown_cell(&s);
            prop_assert!(!out.chars().any(char::is_control));
            let mut chars = out.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    let next = chars.next();
                    prop_assert!(next.is_some_and(|n| "\\|`*_[]<>".contains(n)));
                } else {
                    prop_assert!(!"|`*_[]<>".contains(c));
                }
            }
        }
    }
}
