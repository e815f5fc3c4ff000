//! Text in LaTeX.

/// Text for LaTeX (a table cell or label): `\` → `\textbackslash{}`, `{ } $ & # _ %` →
/// backslash-escaped, `^` → `\textasciicircum{}`, `~` → `\textasciitilde{}`; line breaks and
/// other control characters become spaces (a blank line would end the paragraph inside a
/// `tabular`, a `%` would comment out the rest of the row).
///
/// Rule: the ten special characters of LaTeX (Lamport, *LaTeX: A Document Preparation System*,
/// 2nd ed., §2.2.1 and §3.2.1; The LaTeX Project's `usrguide` "Special characters").
pub fn latex_text(text: &str) -> String {
    crate::text::one_line_escaped(
        text,
        "{}$&#_%",
        &[
            ('\\', "\\textbackslash{}"),
            ('^', "\\textasciicircum{}"),
            ('~', "\\textasciitilde{}"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(
            latex_text("a_b & 50% $x$ #1 {y} ^~\\"),
            "a\\_b \\& 50\\% \\$x\\$ \\#1 \\{y\\} \\textasciicircum{}\\textasciitilde{}\\textbackslash{}"
        );
        assert_eq!(latex_text("x\n\ny"), "x  y");
    }

    proptest! {
        #[test]
        fn no_special_character_is_left_bare(s in any::<String>()) {
            let out = latex_text(&s);
            prop_assert!(!out.chars().any(char::is_control));
            // remove the escapes; no special character may remain
            let stripped = out
                .replace("\\textbackslash{}", "")
                .replace("\\textasciicircum{}", "")
                .replace("\\textasciitilde{}", "")
                .replace("\\{", "")
                .replace("\\}", "")
                .replace("\\$", "")
                .replace("\\&", "")
                .replace("\\#", "")
                .replace("\\_", "")
                .replace("\\%", "");
            let bare = stripped.contains(['\\', '{', '}', '$', '&', '#', '_', '%', '^', '~']);
            prop_assert!(!bare, "{}", out);
        }
    }
}
