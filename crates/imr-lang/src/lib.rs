//! The language of texts the engines write for people (model diagnostics, inequality notes,
//! chart titles and labels), and the caption of an exported chart.
//!
//! The engines keep such texts as structured values (an enum with its parameters) and render them
//! on demand in a [`Lang`], so the page shows them in its language and the `imr` command in
//! English (or `--lang es`); machine-readable outputs (JSON, CSV) always carry the English text.
//! One type for the engines, the microdata reader, the page (which adds the browser's
//! preference) and `imr` (`--lang`), in a crate of its own so that none of them depends on
//! another for it.

mod caption;
mod words;
pub use caption::Caption;
pub use words::{bare_keys, spanish_problems, Words};

/// Language of rendered texts. English is the default: the `imr` command, JSON and snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Es,
}

impl Lang {
    /// Picks the text of this language.
    pub fn pick<'a>(self, es: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Es => es,
            Lang::En => en,
        }
    }

    /// The language of a BCP 47 tag (`navigator.language`, `Accept-Language`): English when it
    /// starts with "en", Spanish otherwise (the page's home audience).
    pub fn from_tag(tag: &str) -> Lang {
        if tag.to_ascii_lowercase().starts_with("en") {
            Lang::En
        } else {
            Lang::Es
        }
    }

    /// `x` with `decimals` decimals and this language's decimal mark (`0.25`, `0,25`), no
    /// thousands separator: the engines' numbers inside sentences.
    pub fn decimal(self, x: f64, decimals: usize) -> String {
        self.with_decimal_mark(format!("{x:.decimals$}"))
    }

    /// [`Lang::decimal`] for a sentence: a negative with the minus sign (U+2212, "−0,08") rather
    /// than a hyphen, and a negative zero written as zero.
    pub fn decimal_signed(self, x: f64, decimals: usize) -> String {
        self.decimal(x + 0.0, decimals).replacen('-', "−", 1)
    }

    /// A number written with a decimal point (`0.25`, as Rust formats it) in this language's
    /// decimal mark (`0,25` in Spanish).
    pub fn with_decimal_mark(self, number: String) -> String {
        match self {
            Lang::En => number,
            Lang::Es => number.replace('.', ","),
        }
    }

    /// `value` with `decimals` decimals for reading in a table or a sentence of the page, with
    /// this language's thousands separator and decimal mark: `1.234.567,89` in Spanish,
    /// `1,234,567.89` in English; a negative with the minus sign (U+2212, `−0,25`) as
    /// [`Lang::decimal_signed`] writes it; "—" when not finite; a value that rounds to zero has
    /// no minus sign. Never for downloads, which stay machine-readable.
    pub fn grouped(self, value: f64, decimals: usize) -> String {
        if !value.is_finite() {
            return "—".to_owned();
        }
        let plain = format!("{:.*}", decimals, value.abs());
        let negative = value < 0.0 && plain.chars().any(|c| c.is_ascii_digit() && c != '0');
        let (whole, frac) = match plain.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (plain.as_str(), None),
        };
        let (group, mark) = match self {
            Lang::Es => ('.', ','),
            Lang::En => (',', '.'),
        };
        let mut out = String::with_capacity(plain.len() + plain.len() / 3 + 1);
        if negative {
            out.push('−');
        }
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                out.push(group);
            }
            out.push(c);
        }
        if let Some(f) = frac {
            out.push(mark);
            out.push_str(f);
        }
        out
    }

    /// `x` with `decimals` decimals as an exported chart or map writes it: in English as Rust
    /// formats it (`12345.6`, the form the English snapshots fix), in Spanish with the thousands
    /// point and decimal comma of the page (`12.345,6`, [`Lang::grouped`]); a value that rounds
    /// to zero has no minus sign in either. For the words of a figure, never for its
    /// coordinates or a CSV cell.
    pub fn figure(self, x: f64, decimals: usize) -> String {
        match self {
            Lang::Es => self.grouped(x, decimals),
            Lang::En => {
                let s = format!("{x:.decimals$}");
                match s.strip_prefix('-') {
                    Some(rest) if !rest.chars().any(|c| c.is_ascii_digit() && c != '0') => {
                        rest.to_owned()
                    }
                    _ => s,
                }
            }
        }
    }

    /// A set of years in words, consecutive years as one span: `[2001, …, 2015, 2017, 2018,
    /// 2019, 2021]` is "2001–2015, 2017–2019 y 2021" ("… and 2021"); a single span is
    /// "2001–2021", one year "2021", none "". Unsorted or repeated years are read as the set.
    /// A span printed as "2001–2021" would claim the years between it skips.
    pub fn years(self, years: &[i64]) -> String {
        let mut sorted = years.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut spans: Vec<String> = Vec::new();
        let mut rest = sorted.as_slice();
        while let Some(&first) = rest.first() {
            let run = rest.windows(2).take_while(|w| w[1] == w[0] + 1).count();
            let last = rest[run];
            spans.push(match run {
                0 => first.to_string(),
                _ => format!("{first}–{last}"),
            });
            rest = &rest[run + 1..];
        }
        match spans.split_last() {
            Some((last, init)) if !init.is_empty() => {
                format!("{} {} {last}", init.join(", "), self.pick("y", "and"))
            }
            Some((last, _)) => last.clone(),
            None => String::new(),
        }
    }

    /// "en" or "es".
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::En => "en",
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        match s {
            "en" => Ok(Lang::En),
            "es" => Ok(Lang::Es),
            other => Err(format!("unknown language `{other}` (use en or es)")),
        }
    }
}

/// A text already worded in both languages, for a value that crosses from a crate that owns the
/// words (a plausibility flag of imr-core) into an engine's value that cannot depend on it
/// (`imr_models::ExclusionReason::Flagged`). `Display` is the English text, as the JSON carries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Worded {
    pub es: String,
    pub en: String,
}

impl Worded {
    /// The text in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        lang.pick(&self.es, &self.en)
    }
}

impl std::fmt::Display for Worded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
    }
}

/// English function words and the engines' English nouns that Spanish text does not use: a
/// Spanish wording that holds one has English left in it (see [`english_words`]).
pub const ENGLISH_MARKERS: [&str; 50] = [
    "the", "of", "and", "with", "is", "are", "from", "to", "by", "for", "not", "this", "that",
    "be", "was", "were", "has", "have", "which", "or", "on", "than", "each", "its", "their", "it",
    "when", "where", "how", "what", "in", "every", "rate", "rates", "year", "years", "births",
    "deaths", "areas", "missing", "because", "only", "row", "rows", "entity", "weight", "dropped",
    "removed", "flagged", "single",
];

/// English words of labels, units and names that a Spanish page showed as they were ("(persons)",
/// "(km (great-circle))", "Pesos (pooled, fe, twfe)", "EE cluster", "(Intercept)", "▸ Data"):
/// with [`ENGLISH_MARKERS`], the words one of which is enough to call a text of a Spanish page
/// or export English ([`english_label_words`]). Spanish uses none of them (it says "per
/// cápita", so "per" is not here). e2e/spanish.mjs reads this list and the markers from this
/// file, so the page's test and the engines' tests share one list.
pub const ENGLISH_LABEL_WORDS: [&str; 31] = [
    "persons",
    "person",
    "derived",
    "count",
    "counts",
    "great-circle",
    "pooled",
    "within",
    "cluster",
    "clusters",
    "clustered",
    "intercept",
    "data",
    "live",
    "commune",
    "communes",
    "population",
    "answering",
    "outlier",
    "mean",
    "all",
    "death",
    "birth",
    "median",
    "percentile",
    "share",
    "cumulative",
    "trend",
    "value",
    "values",
    // the English abbreviation of an interval, found in a Spanish note
    "ci",
];

/// `text` in lines of at most `width` characters, broken at spaces (a longer word keeps a line
/// of its own): the wrapping of the charts' and maps' titles and notes.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A source line ("Fuente: … · motor imr-atlas 0.1.0 (imr-core 0.1.0) · 2026-12-05") in lines
/// of at most `width` characters, as [`wrap_words`], except that a version stays with the
/// name before it: a line never starts with "0.1.0)", which a reader (and the Spanish page's
/// check for decimal points) would take for a number. Never empty for a non-empty line.
pub fn wrap_source_line(line: &str, width: usize) -> Vec<String> {
    const GLUE: char = '\u{1f}';
    let glued = line.split(' ').fold(String::new(), |mut out, word| {
        let version = word.starts_with(|c: char| c.is_ascii_digit()) && word.contains('.');
        if !out.is_empty() {
            out.push(if version { GLUE } else { ' ' });
        }
        out.push_str(word);
        out
    });
    let lines: Vec<String> = wrap_words(&glued, width)
        .into_iter()
        .map(|l| l.replace(GLUE, " "))
        .collect();
    if lines.is_empty() && !line.trim().is_empty() {
        vec![line.to_string()]
    } else {
        lines
    }
}

/// The words of `text` that are [`ENGLISH_MARKERS`] or [`ENGLISH_LABEL_WORDS`] (lower-cased, in
/// order, identifiers left out as in [`english_words`]): one is enough to call a label, unit or
/// number of a Spanish figure English.
pub fn english_label_words(text: &str) -> Vec<String> {
    words(text)
        .filter(|word| {
            ENGLISH_MARKERS.contains(&word.as_str()) || ENGLISH_LABEL_WORDS.contains(&word.as_str())
        })
        .collect()
}

/// The lower-cased words of `text`, identifiers (a word with `_`, a digit or a backquote) left
/// out.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_whitespace()
        .filter(|token| {
            !token.contains(['_', '`']) && !token.contains(|c: char| c.is_ascii_digit())
        })
        .map(|token| {
            token
                .trim_matches(|c: char| !c.is_alphabetic() && c != '-')
                .trim_matches('-')
                .to_lowercase()
        })
}

/// The [`ENGLISH_MARKERS`] among the words of `text` (lower-cased, in order): the check that a
/// Spanish wording of an engine's value has no English left. Identifiers (a word with `_` or a
/// digit, or in backquotes, such as `rows_not_measured` or a column name) are not words.
pub fn english_words(text: &str) -> Vec<String> {
    words(text)
        .filter(|word| ENGLISH_MARKERS.contains(&word.as_str()))
        .collect()
}

/// The numbers of `text` written with a decimal point, which a Spanish text must not hold (it
/// writes `0,25` and `1.480,97`): a `.` between digits that is not a thousands point (a group of
/// one to three digits not starting with 0, then groups of exactly three), so `1.725` and
/// `12.345.678,9` pass and `0.1050`, `5.80` and `9.0` do not. A version after `imr-atlas `,
/// `imr-core `, `motor `, `engine ` (or any word ending in `v`) is not a number, nor is a run with
/// two points or more and no comma ("0.1.0": a version). Each found number is returned as written.
pub fn decimal_points(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() || (i > 0 && chars[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        // A run of digits and single points or commas between digits.
        let start = i;
        let mut end = i;
        while end < chars.len() {
            let c = chars[end];
            let joins = (c == '.' || c == ',')
                && end + 1 < chars.len()
                && chars[end + 1].is_ascii_digit()
                && end > start;
            if c.is_ascii_digit() || joins {
                end += 1;
            } else {
                break;
            }
        }
        let number: String = chars[start..end].iter().collect();
        i = end;
        if !number.contains('.') {
            continue;
        }
        let before: String = chars[..start].iter().collect();
        let version = before.ends_with("imr-atlas ")
            || before.ends_with("imr-core ")
            || before.ends_with('v')
            || before.ends_with("motor ")
            || before.ends_with("engine ");
        if version {
            continue;
        }
        let whole = number.split(',').next().unwrap_or_default();
        let groups: Vec<&str> = whole.split('.').collect();
        let thousands = (1..=3).contains(&groups[0].len())
            && !(groups[0].starts_with('0'))
            && groups[1..].iter().all(|g| g.len() == 3);
        // "0.1.0", "2.10.3": a version (two points or more, no comma), not a number
        let version_number = groups.len() >= 3 && !number.contains(',');
        if !thousands && !version_number {
            found.push(number);
        }
    }
    found
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests;
