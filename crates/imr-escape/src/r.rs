//! Names and strings in R code.

/// R's reserved words (R Language Definition §10.3.3, `?Reserved`): syntactic in shape but not
/// usable as bare names.
const RESERVED: [&str; 20] = [
    "if",
    "else",
    "repeat",
    "while",
    "function",
    "for",
    "next",
    "break",
    "TRUE",
    "FALSE",
    "NULL",
    "Inf",
    "NaN",
    "NA",
    "NA_integer_",
    "NA_real_",
    "NA_character_",
    "NA_complex_",
    "in",
    "...",
];

/// A syntactically valid R name (`?make.names`): ASCII letters, digits, `.` and `_`, starting
/// with a letter or with a dot not followed by a digit, and not a reserved word. (Letters beyond
/// ASCII depend on the locale in R, so they are quoted.)
fn is_syntactic(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = match chars.next() {
        Some('.') => !chars.next().is_some_and(|c| c.is_ascii_digit()),
        Some(c) => c.is_ascii_alphabetic(),
        None => false,
    };
    first_ok
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        && !RESERVED.contains(&name)
        && !(name.starts_with("..") && name[2..].chars().all(|c| c.is_ascii_digit()))
}

/// A column name as an R symbol: bare when syntactic, otherwise in backticks with `\` written
/// `\\`, `` ` `` written ``\` ``, and newline, carriage return and tab as `\n`, `\r`, `\t`
/// (so the code stays one line per statement).
///
/// Rule: R Language Definition §10.3.2 and `?Quotes` — "Identifiers … can be quoted using
/// backticks"; R's lexer reads a backtick name with the routine of string constants
/// (`StringValue` in R's `gram.y`), so the escapes of strings apply and a backslash and a
/// backtick must be escaped. R's symbols cannot hold NUL, which is dropped.
pub fn r_name(name: &str) -> String {
    if is_syntactic(name) {
        return name.to_owned();
    }
    quoted(name, '`')
}

/// A text as an R string literal in double quotes: `\` → `\\`, `"` → `\"`, newline → `\n`,
/// carriage return → `\r`, tab → `\t`; NUL (not allowed in R strings) is dropped.
///
/// Rule: `?Quotes` (R Language Definition §10.3.1, string constants and their escapes).
pub fn r_string(text: &str) -> String {
    quoted(text, '"')
}

/// `text` between two `quote`s with R's string escapes: `\` → `\\`, the quote → `\` and the
/// quote, newline, carriage return and tab → `\n`, `\r`, `\t`; NUL dropped. R's lexer reads
/// backtick names and string constants by this one routine (`StringValue` in `gram.y`).
fn quoted(text: &str, quote: char) -> String {
    let delimiter = quote.to_string();
    let escaped_quote = format!("\\{quote}");
    crate::text::enclosed(
        text,
        &delimiter,
        &delimiter,
        &[
            ('\\', "\\\\"),
            ('\n', "\\n"),
            ('\r', "\\r"),
            ('\t', "\\t"),
            ('\0', ""),
            (quote, &escaped_quote),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn syntactic_names_stay_bare() {
        assert_eq!(r_name("pobreza"), "pobreza");
        assert_eq!(r_name("x.1_b"), "x.1_b");
        assert_eq!(r_name(".a"), ".a");
    }

    #[test]
    fn other_names_are_backticked_with_escapes() {
        assert_eq!(r_name("a b"), "`a b`");
        assert_eq!(r_name("1x"), "`1x`");
        assert_eq!(r_name(".1x"), "`.1x`");
        assert_eq!(r_name("NULL"), "`NULL`");
        assert_eq!(r_name("if"), "`if`");
        assert_eq!(r_name("..1"), "`..1`");
        assert_eq!(r_name("año"), "`año`");
        assert_eq!(r_name("x\\"), "`x\\\\`");
        assert_eq!(r_name("a`b"), "`a\\`b`");
        assert_eq!(r_name(""), "``");
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_breaks() {
        assert_eq!(r_string("a\"b"), "\"a\\\"b\"");
        assert_eq!(
            r_string("x\n)system(\"id\")#"),
            "\"x\\n)system(\\\"id\\\")#\""
        );
        assert_eq!(r_string("C:\\d\\"), "\"C:\\\\d\\\\\"");
    }

    /// Reads back an R backtick name or string literal the way R's lexer does for the escapes
    /// used here (R Language Definition §10.3.1).
    fn unquote(literal: &str, delimiter: char) -> Option<String> {
        let inner = literal.strip_prefix(delimiter)?.strip_suffix(delimiter)?;
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == delimiter {
                return None; // an unescaped delimiter would end the literal early
            }
            if c == '\\' {
                out.push(match chars.next()? {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    other => other,
                });
            } else {
                out.push(c);
            }
        }
        Some(out)
    }

    proptest! {
        #[test]
        fn names_and_strings_read_back_as_the_text(s in any::<String>()) {
            let s = s.replace('\0', "");
            let name = r_name(&s);
            if name.starts_with('`') {
                prop_assert_eq!(unquote(&name, '`'), Some(s.clone()));
            } else {
                prop_assert_eq!(&name, &s);
            }
            prop_assert_eq!(unquote(&r_string(&s), '"'), Some(s.clone()));
            prop_assert!(!r_string(&s).contains('\n'));
            prop_assert!(!name.contains(['\n', '\r']));
        }
    }
}
