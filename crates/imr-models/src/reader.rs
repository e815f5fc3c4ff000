//! Who reads the engine's remarks ([`crate::Diagnostic`], [`crate::ExclusionReason`]): the
//! language, with its grouped numbers and its singular or plural, and the words of a column, so
//! that a remark names "la tasa de mortalidad infantil", never the engine's `rate`. The engine
//! does not know the codebook; the page passes its words (`imr_core::column_words`).

use imr_stats::Lang;

/// The language of a remark and how it names a column.
#[derive(Debug, Clone, Copy)]
pub struct Reader {
    lang: Lang,
    column: fn(Lang, &str) -> String,
}

impl Reader {
    /// A reader of `lang` to whom a column is named by `column(lang, name)` (the page:
    /// `imr_core::column_words::choice_label`).
    pub fn new(lang: Lang, column: fn(Lang, &str) -> String) -> Reader {
        Reader { lang, column }
    }

    /// The reader's language.
    pub fn lang(self) -> Lang {
        self.lang
    }

    /// `es` or `en`.
    pub(crate) fn pick<'a>(self, es: &'a str, en: &'a str) -> &'a str {
        self.lang.pick(es, en)
    }

    /// A count grouped in the reader's language: "4.144", "4,144".
    pub(crate) fn number(self, n: usize) -> String {
        self.lang.grouped(n as f64, 0)
    }

    /// The singular or the plural of a word (Spanish, English) for `n`.
    pub(crate) fn plural<'a>(
        self,
        n: usize,
        es: (&'a str, &'a str),
        en: (&'a str, &'a str),
    ) -> &'a str {
        let (one, many) = match self.lang {
            Lang::Es => es,
            Lang::En => en,
        };
        if n == 1 {
            one
        } else {
            many
        }
    }

    /// "4.144 filas", "1 fila", "4,144 rows": the count grouped, then its noun.
    pub(crate) fn count(self, n: usize, es: (&str, &str), en: (&str, &str)) -> String {
        format!("{} {}", self.number(n), self.plural(n, es, en))
    }

    /// A column in the reader's words, in the language's quotes: «Nacimientos», “Births”.
    pub(crate) fn column(self, name: &str) -> String {
        let words = (self.column)(self.lang, name);
        match self.lang {
            Lang::Es => format!("«{words}»"),
            Lang::En => format!("“{words}”"),
        }
    }

    /// Columns in the reader's words: «a», «b» y «c».
    pub(crate) fn columns(self, names: &[String]) -> String {
        let words: Vec<String> = names.iter().map(|n| self.column(n)).collect();
        self.and(&words)
    }

    /// An absorbed fixed effect in words: «Región» × «Año» for `region^year`.
    pub(crate) fn effect(self, name: &str) -> String {
        name.split('^')
            .map(|part| self.column(part))
            .collect::<Vec<_>>()
            .join(" × ")
    }

    /// "a, b y c", "a, b and c".
    pub(crate) fn and(self, items: &[String]) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} {} {last}", init.join(", "), self.pick("y", "and")),
        }
    }

    /// At most `shown` items, then "y 2.000 más" / "and 2,000 more".
    pub(crate) fn some(self, items: &[String], shown: usize) -> String {
        let mut out: Vec<String> = items.iter().take(shown).cloned().collect();
        if items.len() > shown {
            let more = self.number(items.len() - shown);
            out.push(match self.lang {
                Lang::En => format!("{more} more"),
                Lang::Es => format!("{more} más"),
            });
        }
        self.and(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(lang: Lang) -> Reader {
        Reader::new(lang, |lang, name| match name {
            "rate" => lang.pick("tasa", "rate").to_owned(),
            other => other.to_owned(),
        })
    }

    #[test]
    fn counts_are_grouped_with_the_languages_mark_and_the_right_number() {
        let (es, en) = (reader(Lang::Es), reader(Lang::En));
        assert_eq!(
            es.count(4144, ("fila", "filas"), ("row", "rows")),
            "4.144 filas"
        );
        assert_eq!(
            en.count(4144, ("fila", "filas"), ("row", "rows")),
            "4,144 rows"
        );
        assert_eq!(es.count(1, ("fila", "filas"), ("row", "rows")), "1 fila");
        assert_eq!(en.count(1, ("fila", "filas"), ("row", "rows")), "1 row");
        assert_eq!(es.count(0, ("fila", "filas"), ("row", "rows")), "0 filas");
    }

    #[test]
    fn columns_are_named_in_words_and_lists_end_in_the_languages_and() {
        let es = reader(Lang::Es);
        assert_eq!(es.columns(&["rate".into(), "w".into()]), "«tasa» y «w»");
        assert_eq!(es.effect("region^year"), "«region» × «year»");
        let items: Vec<String> = (1..=2004).map(|i| i.to_string()).collect();
        assert_eq!(es.some(&items, 3), "1, 2, 3 y 2.001 más");
        assert_eq!(reader(Lang::En).some(&items, 3), "1, 2, 3 and 2,001 more");
        assert_eq!(es.some(&items[..2], 3), "1 y 2");
    }
}
