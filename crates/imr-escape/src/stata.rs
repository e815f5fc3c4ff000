//! Names, strings and comments in Stata code.

use crate::text::comment_line;

/// Stata's reserved names (`[U] 11.3 Naming conventions`); `str#` (`str1` … `str2045`) is
/// checked apart.
const RESERVED: [&str; 20] = [
    "_all", "_b", "byte", "_coef", "_cons", "double", "float", "if", "in", "int", "long", "_n",
    "_N", "_pi", "_pred", "_rc", "_skip", "strL", "using", "with",
];

/// `str1` … `str2045` (and any `str` + digits, conservatively).
fn is_str_type(name: &str) -> bool {
    name.strip_prefix("str")
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

/// How a column name is written in Stata code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StataName {
    /// The name used in the code.
    pub name: String,
    /// `false` when the column's own name is not a valid Stata name and `name` is the safe name
    /// the code uses instead: the code then needs a `rename` or must say so in a comment.
    pub is_original: bool,
}

/// A valid Stata variable name: 1–32 ASCII letters, digits or `_`, not starting with a digit,
/// not reserved (`[U] 11.3`).
fn is_valid(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name)
        && !is_str_type(name)
}

/// A column name for Stata code. A valid Stata name (`[U] 11.3`: ASCII letters, digits, `_`,
/// not starting with a digit, at most 32 characters, not reserved) is kept. Any other name is
/// refused and mapped to a safe name as `import delimited` itself does (`strtoname()`: every
/// other character becomes `_`, a leading digit or a reserved name gets a `_` prefix, cut to 32
/// characters); `is_original` is then `false` so the code can say so in a comment.
///
/// Only ASCII is kept: Stata 14+ allows Unicode letters, but the mapping must not depend on
/// Stata's version, and an ASCII name can never carry a quote, a macro character (`` ` `` `$`)
/// or a line break into the code.
pub fn stata_name(name: &str) -> StataName {
    if is_valid(name) {
        return StataName {
            name: name.to_owned(),
            is_original: true,
        };
    }
    let mut safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty()
        || safe.starts_with(|c: char| c.is_ascii_digit())
        || RESERVED.contains(&safe.as_str())
        || is_str_type(&safe)
    {
        safe.insert(0, '_');
    }
    safe.truncate(32);
    StataName {
        name: safe,
        is_original: false,
    }
}

/// A text as a Stata string: in plain double quotes when it holds no `"`, `` ` `` or `$`;
/// otherwise in compound double quotes `` `"…"' ``, with `` ` `` and `$` written `` \` `` and
/// `\$` so that no macro is expanded. `None` when the text cannot be a Stata string
/// on one line: it holds a control character (a line break would end the command) or `"'`
/// (which would close the compound quotes early; Stata has no escape for it).
///
/// Rule: Stata `[U] 18.3.5 Double quotes` (compound double quotes) and `[U] 18.3.11 Advanced
/// local macro manipulation`/`[P] macro` ("\ prevents the expansion of macros": `` \` `` and
/// `\$`).
pub fn stata_string(text: &str) -> Option<String> {
    if text.chars().any(char::is_control) || text.contains("\"'") {
        return None;
    }
    if !text.contains(['"', '`', '$']) {
        return Some(format!("\"{text}\""));
    }
    Some(crate::text::enclosed(
        text,
        "`\"",
        "\"'",
        &[('`', "\\`"), ('$', "\\$")],
    ))
}

/// Text for a Stata `*` comment line: [`comment_line`], and `/*`, `*/` and `//` broken apart
/// (`/ *`, `* /`, `/ /`) so the text can neither open a block comment that swallows the
/// following lines of code nor end one (Stata `[P] comments`).
pub fn stata_comment(text: &str) -> String {
    let mut line = comment_line(text);
    while line.contains("/*") || line.contains("*/") || line.contains("//") {
        line = line
            .replace("/*", "/ *")
            .replace("*/", "* /")
            .replace("//", "/ /");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn valid_names_are_kept() {
        let n = stata_name("pobreza_2017");
        assert_eq!(n.name, "pobreza_2017");
        assert!(n.is_original);
    }

    #[test]
    fn invalid_names_are_mapped_and_flagged() {
        assert_eq!(stata_name("a b").name, "a_b");
        assert_eq!(stata_name("1x").name, "_1x");
        assert_eq!(stata_name("_cons").name, "__cons");
        assert_eq!(stata_name("").name, "_");
        assert_eq!(stata_name("x\n\"; shell rm").name, "x____shell_rm");
        assert!(!stata_name("año").is_original);
        assert_eq!(stata_name(&"a".repeat(40)).name.len(), 32);
    }

    #[test]
    fn strings_use_compound_quotes_and_escape_macros() {
        assert_eq!(stata_string("data.csv").unwrap(), "\"data.csv\"");
        assert_eq!(stata_string("O'Higgins.csv").unwrap(), "\"O'Higgins.csv\"");
        assert_eq!(stata_string("a\"b").unwrap(), "`\"a\"b\"'");
        assert_eq!(stata_string("$x `y'").unwrap(), "`\"\\$x \\`y'\"'");
        assert_eq!(stata_string("x\nshell id"), None);
        assert_eq!(stata_string("a\"'b"), None);
    }

    #[test]
    fn comments_cannot_open_or_close_block_comments() {
        assert_eq!(stata_comment("a /* b */ c\nd"), "a / * b * / c d");
        assert_eq!(stata_comment("x///y"), "x/ / /y");
        assert!(!stata_comment("///").contains("//"));
    }

    proptest! {
        #[test]
        fn names_are_always_valid(s in any::<String>()) {
            prop_assert!(is_valid(&stata_name(&s).name));
        }

        #[test]
        fn comments_are_one_line_without_comment_markers(s in any::<String>()) {
            let c = stata_comment(&s);
            prop_assert!(!c.contains('\n') && !c.contains("/*") && !c.contains("*/") && !c.contains("//"));
        }

        #[test]
        fn strings_never_close_early(s in "[ a-z\"'`$\\\\]{0,16}") {
            if let Some(q) = stata_string(&s) {
                if !q.starts_with('`') {
                    prop_assert!(!s.contains(['"', '`', '$']));
                    return Ok(());
                }
                let inner = &q[2..q.len() - 2];
                prop_assert!(!inner.contains("\"'"));
                // every backtick and dollar sign is escaped
                let bytes = inner.as_bytes();
                for (i, b) in bytes.iter().enumerate() {
                    if *b == b'`' || *b == b'$' {
                        prop_assert!(i > 0 && bytes[i - 1] == b'\\');
                    }
                }
            }
        }
    }
}
