//! What a caller chooses of the coefficient plot: its size, title, language and the words of
//! its terms.

use crate::spec::INTERCEPT;
use imr_stats::Caption;

/// Layout options of the coefficient plot.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotOptions {
    /// Total width in pixels.
    pub width: f64,
    /// Height of one term's row in pixels.
    pub row_height: f64,
    /// Include the `(Intercept)` row.
    pub include_intercept: bool,
    /// Title above the plot (empty: none).
    pub title: String,
    /// Language of the plot's texts and its provenance line (none by default).
    pub caption: Caption,
    /// Words for terms, by term (a reader's label for a column name); a term not listed is
    /// written as it is (the intercept in the plot's language).
    pub term_labels: Vec<(String, String)>,
}

impl Default for PlotOptions {
    fn default() -> Self {
        PlotOptions {
            width: 640.0,
            row_height: 32.0,
            include_intercept: false,
            title: String::new(),
            caption: Caption::default(),
            term_labels: Vec::new(),
        }
    }
}

impl PlotOptions {
    /// The words of `term` in the plot: its label when given, the intercept in the plot's
    /// language, else the term as it is.
    pub(super) fn term_label(&self, term: &str) -> String {
        match self.term_labels.iter().find(|(t, _)| t == term) {
            Some((_, label)) => label.clone(),
            None if term == INTERCEPT => self.caption.lang.pick("(Constante)", INTERCEPT).into(),
            None => term.to_owned(),
        }
    }
}
