//! One line of free text inside a comment, and the character-by-character rewriting that the
//! quoting of shell words, R and Stata strings shares.

/// Text for a one-line comment (`# …` in R, CSV provenance lines; `* …` in Stata; `% …` in
/// LaTeX): every line break and control character becomes a space, so the text cannot end the
/// comment and start a line of code.
///
/// Breaks replaced: `\n`, `\r`, vertical tab, form feed, NEL (U+0085), LINE SEPARATOR (U+2028)
/// and PARAGRAPH SEPARATOR (U+2029) — the line terminators of Unicode UAX #14 (BK, CR, LF, NL)
/// — and every other C0/C1 control character (Unicode general category Cc), tab included.
pub fn comment_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// `text` on one line ([`comment_line`]) with every character of `backslashed` preceded by a
/// backslash and every character of `named` written as its word: the escaping of LaTeX text
/// and Markdown cells, which differ only in their special characters.
pub(crate) fn one_line_escaped(text: &str, backslashed: &str, named: &[(char, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    for c in comment_line(text).chars() {
        if let Some((_, word)) = named.iter().find(|(n, _)| *n == c) {
            out.push_str(word);
        } else {
            if backslashed.contains(c) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// `text` between `open` and `close`, every character found in `replaced` written as its
/// replacement (the empty one drops it) and every other as itself: the quoting of shell words,
/// R names and strings and Stata compound strings, which differ only in their quotes and
/// escapes.
pub(crate) fn enclosed(text: &str, open: &str, close: &str, replaced: &[(char, &str)]) -> String {
    let mut out = String::with_capacity(text.len() + open.len() + close.len());
    out.push_str(open);
    for c in text.chars() {
        match replaced.iter().find(|(r, _)| *r == c) {
            Some((_, replacement)) => out.push_str(replacement),
            None => out.push(c),
        }
    }
    out.push_str(close);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn line_breaks_become_spaces() {
        assert_eq!(comment_line("a\nsystem(\"x\")\r\nb"), "a system(\"x\")  b");
        assert_eq!(comment_line("a\u{2028}b\u{85}c\tz"), "a b c z");
        assert_eq!(comment_line("año · ok"), "año · ok");
    }

    proptest! {
        #[test]
        fn the_result_is_one_line_of_the_same_length(s in any::<String>()) {
            let line = comment_line(&s);
            prop_assert_eq!(line.lines().count(), usize::from(!line.is_empty()));
            prop_assert!(!line.chars().any(char::is_control));
            prop_assert_eq!(line.chars().count(), s.chars().count());
        }
    }
}
