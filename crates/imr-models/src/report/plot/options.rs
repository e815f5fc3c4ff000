//! What a caller chooses of the coefficient plot: its size, title, language and the words of
//! its terms.

use crate::fit::Fit;
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
    /// The change each listed term is drawn per, by term: its estimate and interval times it
    /// (50: a coefficient per km drawn per 50 km), so that terms in small units are not drawn
    /// at zero beside others; its label should name the change ("+50 km"). A term not listed
    /// is drawn per unit.
    pub term_changes: Vec<(String, f64)>,
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
            term_changes: Vec::new(),
        }
    }
}

impl PlotOptions {
    /// `fits` as the plot draws them: each coefficient of a term of [`Self::term_changes`]
    /// (estimate, standard error, interval) times its change; a change that is not a finite
    /// positive number is ignored.
    pub(super) fn drawn(&self, fits: &[Fit]) -> Vec<Fit> {
        let mut fits = fits.to_vec();
        for c in fits.iter_mut().flat_map(|f| f.coefficients.iter_mut()) {
            let per = self.change_of(&c.term).unwrap_or(1.0);
            c.estimate *= per;
            c.std_error *= per;
            c.conf_low *= per;
            c.conf_high *= per;
        }
        fits
    }

    /// The change `term` is drawn per, when one is given.
    pub(super) fn change_of(&self, term: &str) -> Option<f64> {
        (self.term_changes.iter())
            .find(|(t, _)| t == term)
            .map(|(_, per)| *per)
            .filter(|per| per.is_finite() && *per > 0.0)
    }

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
