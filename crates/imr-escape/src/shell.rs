//! Words of a POSIX shell command line.

/// Characters a word may hold and still be written bare: none of them is special to POSIX sh,
/// bash or zsh anywhere in a word (`=`, `~`, `#` and `!` are left out: zsh expands a leading
/// `=`, a leading `~` is a home directory, `#` starts a comment, `!` is history expansion).
fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | ',' | ':' | '@' | '%' | '+')
}

/// One argument for a POSIX shell: bare when every character is plain (letters, digits and
/// `. _ - / , : @ % +`), otherwise in single quotes, each `'` written as `'\''`.
///
/// Rule: POSIX.1-2017 Shell Command Language §2.2.2, "Enclosing characters in single-quotes
/// shall preserve the literal value of each character within the single-quotes"; a single quote
/// cannot occur inside them, so it is closed, written escaped (§2.2.1) and reopened. This holds for
/// newlines, `$(…)`, backticks, `!` and any Unicode text. The empty word is `''`.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(is_plain) {
        return word.to_owned();
    }
    crate::text::enclosed(word, "'", "'", &[('\'', "'\\''")])
}

/// A command line from its arguments, each through [`shell_quote`], separated by spaces.
/// Splitting the result as a POSIX shell does gives back the arguments (property-tested with
/// the `shlex` crate).
pub fn shell_join<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    args.into_iter()
        .map(|a| shell_quote(a.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_words_stay_bare_and_others_are_single_quoted() {
        assert_eq!(shell_quote("public/data/x.csv"), "public/data/x.csv");
        assert_eq!(shell_quote("--x"), "--x");
        assert_eq!(shell_quote("a,b"), "a,b");
        assert_eq!(shell_quote("mis datos.csv"), "'mis datos.csv'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("x$(touch y)"), "'x$(touch y)'");
        assert_eq!(shell_quote("`id`"), "'`id`'");
        assert_eq!(shell_quote("~"), "'~'");
        assert_eq!(shell_quote("=x"), "'=x'");
        assert_eq!(shell_quote("año"), "'año'");
    }

    #[test]
    fn join_separates_words_by_one_space() {
        assert_eq!(
            shell_join(["imr", "fit", "a b.csv", "--x", "x1"]),
            "imr fit 'a b.csv' --x x1"
        );
    }

    #[test]
    fn hostile_words_round_trip() {
        let args = [
            "imr",
            "x\ny",
            "$(touch x)",
            "`touch x`",
            "a'b\"c",
            "trailing\\",
            "=HYPERLINK(\"http://x\")",
            "<script>",
            "",
            "'",
            "''",
            "\\'",
            "!event",
        ];
        let line = shell_join(args);
        assert_eq!(shlex::split(&line).unwrap(), args);
    }

    proptest! {
        #[test]
        fn splitting_the_joined_line_gives_back_the_arguments(
            args in proptest::collection::vec(any::<String>(), 0..6)
        ) {
            // POSIX shells cannot pass a NUL byte in an argument (C strings); shlex rejects it too.
            let args: Vec<String> = args.into_iter().map(|a| a.replace('\0', "")).collect();
            let line = shell_join(&args);
            prop_assert_eq!(shlex::split(&line).unwrap(), args);
        }

        #[test]
        fn quoted_words_of_shell_characters_round_trip(
            args in proptest::collection::vec("[ a-z'\"$`\\\\\n\t|&;<>(){}*?!#~=-]{0,12}", 1..5)
        ) {
            let line = shell_join(&args);
            prop_assert_eq!(shlex::split(&line).unwrap(), args);
        }
    }
}
