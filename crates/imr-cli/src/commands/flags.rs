//! The options of `imr findings` and `imr inequality` that say which rows and years the
//! inequality measures and their trends use: declared once, flattened into both commands, so
//! their names, help and defaults cannot drift apart (the page's Findings and Inequality views
//! share the same three settings).

use imr_core::inequality::adjusted::BirthsRatioRange;

/// Which rows and years an inequality analysis keeps, and the births ratio of its range.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct AnalysisFlags {
    /// Keep the rows flagged as implausible (e.g. a rate of 1000 per 1,000 on 9 births) in the
    /// measures and answers; by default, as in `imr fit` and the page, they are left out and
    /// listed with their reasons (`rows_not_measured`). Kept, they count in the box plot's
    /// statistics but stay off its axis (`svg-box` draws them "off scale" at the edge)
    #[arg(long)]
    pub include_flagged: bool,
    /// Keep a year whose values repeat the previous year's in nearly every area (a year the
    /// source copied) in the trends and correlations; by default it is measured and shown
    /// year by year (`repeat_of`) but left out of them (`left_out_of_trends`), as in the page
    #[arg(long)]
    pub include_repeated_years: bool,
    /// Where deaths are derived from published rates, the plausible range of true births over
    /// the births given (LOW,HIGH, e.g. 0.9,1.1) over which the adjusted measures are
    /// recomputed; the answer then reads "between X and Y". Default 0.7,1.0, wide enough for a
    /// population aged 0 standing in for births; narrower for registered births
    #[arg(long, value_name = "LOW,HIGH", value_parser = str::parse::<BirthsRatioRange>)]
    pub births_ratio: Option<BirthsRatioRange>,
}
