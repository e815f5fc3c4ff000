//! Why an answer is missing, in words: the engine's reasons, the columns a file lacks in the
//! codebook's words.

use super::*;
use imr_core::column_words::lowercase_first;

/// Why an answer is missing, in `lang`, for a reader in the view `here` (`None`: the
/// Findings). A hint names the place in her view ("más abajo, en «Características (variables explicativas)»") rather than
/// sending her to the view she is in; the view's headings are the page's (`src/messages`,
/// tested there).
pub(super) fn unavailable(lang: Lang, why: &Unavailable, here: Option<&str>) -> String {
    match (why, lang) {
        (Unavailable::NoRates, Lang::Es) if here == Some("data") => {
            "Los datos no tienen nacimientos y defunciones (o tasa): elíjalos más abajo, en «Archivos y columnas».".into()
        }
        (Unavailable::NoRates, Lang::En) if here == Some("data") => {
            "The data have no births and deaths (or rate): choose them below, under “Files and columns”.".into()
        }
        (Unavailable::NoRates, Lang::Es) => {
            "Los datos no tienen nacimientos y defunciones (o tasa): elíjalos en la vista Datos."
                .into()
        }
        (Unavailable::NoRates, Lang::En) => {
            "The data have no births and deaths (or rate): choose them in the Data view.".into()
        }
        (Unavailable::MissingColumn { column }, Lang::Es) => {
            format!(
                "Los datos no tienen la columna {}.",
                column_words(lang, column)
            )
        }
        (Unavailable::MissingColumn { column }, Lang::En) => {
            format!("The data have no column {}.", column_words(lang, column))
        }
        (
            Unavailable::MissingColumns {
                columns,
                other_columns,
            },
            _,
        ) => {
            // Said without "this question": the Models view shows it where no question stands.
            let missing = match lang {
                Lang::Es => format!(
                    "Para responder hace falta alguna de estas columnas, que los datos no tienen: {}.",
                    word_list(lang, columns)
                ),
                Lang::En => format!(
                    "To answer, the data need one of these columns, which they do not have: {}.",
                    word_list(lang, columns)
                ),
            };
            missing + &own_columns_hint(lang, other_columns, here)
        }
        (Unavailable::Engine { message }, Lang::Es) => format!("No se pudo calcular: {message}"),
        (Unavailable::Engine { message }, Lang::En) => format!("Could not compute: {message}"),
    }
}

impl Findings {
    /// The headline of `question`'s answer as its own view leads with it (the page's
    /// takeaway): the Findings' headline, except that a missing answer's hint names the place
    /// in that view ("más abajo, en «Características (variables explicativas)»") instead of sending the reader to the view
    /// she is in ("en la vista Modelos").
    pub fn headline_in_view(&self, lang: Lang, question: &str) -> Option<String> {
        let answer = self
            .answers(lang)
            .into_iter()
            .find(|a| a.question == question)?;
        let why = match question {
            "rates" => self.rates.as_ref().err(),
            "inequality" => self.inequality.as_ref().err(),
            "health-income" => self.health_income.as_ref().err(),
            "models" => self.models.as_ref().err(),
            "where" => self.where_highest.as_ref().err(),
            _ => None,
        };
        Some(match why {
            Some(why) => unavailable(lang, why, Some(answer.view)),
            None => answer.headline,
        })
    }
}

/// What the reader can do with the numeric columns her data do have when a question's own
/// are missing: " Sus datos tienen otras columnas numéricas: «pobreza_pct»; elíjalas…" (at most
/// five named, then how many more); empty when there are none. In the Models view (`here`) the
/// hint points to its regressors, below the answer.
pub(super) fn own_columns_hint(lang: Lang, columns: &[String], here: Option<&str>) -> String {
    const NAMED: usize = 5;
    if columns.is_empty() {
        return String::new();
    }
    let named = word_list(lang, &columns[..columns.len().min(NAMED)]);
    let more = columns.len().saturating_sub(NAMED);
    let more = match (more, lang) {
        (0, _) => String::new(),
        (n, Lang::Es) => format!(" y {n} más"),
        (n, Lang::En) => format!(" and {n} more"),
    };
    let (one, many) = match lang {
        Lang::Es => (
            "Sus datos tienen otra columna numérica",
            "Sus datos tienen otras columnas numéricas",
        ),
        Lang::En => (
            "Your data have another numeric column",
            "Your data have other numeric columns",
        ),
    };
    let (has, them) = match (columns.len() == 1, lang) {
        (true, Lang::Es) => (one, "elegirla como variable explicativa"),
        (false, Lang::Es) => (many, "elegirlas como variables explicativas"),
        (true, Lang::En) => (one, "choose it as an explanatory variable"),
        (false, Lang::En) => (many, "choose them as explanatory variables"),
    };
    match (lang, here) {
        (Lang::Es, Some("models")) => format!(" {has}: {named}{more}. Puede {them} más abajo, en «Características (variables explicativas)», o como segunda serie en la vista Desigualdad."),
        (Lang::En, Some("models")) => format!(" {has}: {named}{more}. You can {them} below, under “Characteristics (explanatory variables)”, or as a second series in the Inequality view."),
        (Lang::Es, _) => format!(" {has}: {named}{more}. Puede {them} en la vista Modelos o como segunda serie en la vista Desigualdad."),
        (Lang::En, _) => format!(" {has}: {named}{more}. You can {them} in the Models view or as a second series in the Inequality view."),
    }
}

/// A column as a reader knows it: the codebook's words with the name a file must use
/// ("pobreza por ingresos «pobreza»"), or the name alone in quotes.
pub(super) fn column_words(lang: Lang, column: &str) -> String {
    let label = imr_core::column_words::short_label(lang, column);
    let quoted = match lang {
        Lang::Es => format!("«{column}»"),
        Lang::En => format!("“{column}”"),
    };
    if label == column {
        quoted
    } else {
        format!("{} {quoted}", lowercase_first(&label))
    }
}

/// Columns in words, "a, b y c" / "a, b and c".
pub(super) fn word_list(lang: Lang, names: &[String]) -> String {
    let words: Vec<String> = names.iter().map(|n| column_words(lang, n)).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {} {last}", rest.join(", "), lang.pick("y", "and"))
        }
        _ => words.join(""),
    }
}
