//! [`AnalysisState`]: what every view's analysis shares beside the loaded data, and how its
//! choices are written in the URL fragment.

use crate::state::cache::RequestCache;
use crate::state::{AppState, Shared};
use imr_core::inequality::adjusted::BirthsRatioRange;
use imr_core::plausibility::Plausibility;
use imr_core::repeats::{repeated_years, RepeatedYear};
use imr_findings::{Findings, FindingsRequest, YearSpan};
use leptos::prelude::*;
use std::sync::Arc;

/// What the views' analyses share beside the data: the plausibility flags and repeated years
/// of the loaded panel, the choices about them (include flagged rows, keep repeated years; by
/// default neither — they are kept out of scales, trends and answers), the births-ratio range,
/// the Findings' years and the findings themselves. Provided in context by the app.
#[derive(Clone, Copy)]
pub struct AnalysisState {
    pub flags: Memo<Option<Shared<Plausibility>>>,
    pub include: RwSignal<bool>,
    /// The years of the loaded panel that repeat the previous year (`imr_core::repeats`).
    pub repeats: Memo<Option<Shared<Vec<RepeatedYear>>>>,
    /// The years of the loaded panel as the tables and charts mark them
    /// ([`imr_core::inequality::YearMarks`]): the copies with the year each repeats and the
    /// years whose deaths were reconstructed from a published rate (`imr_core::reconstructed`),
    /// found once per panel for both of the Data view's tables.
    pub year_marks: Memo<imr_core::inequality::YearMarks>,
    /// Whether trends and correlations keep the repeated years (default: no).
    pub include_repeated: RwSignal<bool>,
    /// Where deaths are derived from published rates, the range of true births over the births
    /// given (`None`: 0.7–1.0): set in the Inequality view, read by its measures and by the
    /// Findings' inequality answer alike (one setting, in the link as `ineq-births-ratio`).
    pub births_ratio: RwSignal<Option<BirthsRatioRange>>,
    /// The years the Findings' five answers cover (`None`: all), in the link as
    /// `findings-years` (`imr findings --years`).
    pub findings_years: RwSignal<Option<YearSpan>>,
    /// The findings of the current data and choice, computed when first read (memos are lazy)
    /// and kept across tab switches.
    pub findings: Memo<Option<Shared<Findings>>>,
}

/// The Findings' years in the fragment: empty for every year, else `FIRST-LAST` as `imr
/// findings --years` takes them.
fn write_years(span: &Option<YearSpan>) -> String {
    span.map(|s| s.to_string()).unwrap_or_default()
}

/// The years from the fragment (`None` when they do not read: the default).
fn read_years(s: &str) -> Option<Option<YearSpan>> {
    match s {
        "" => Some(None),
        s => s.parse().ok().map(Some),
    }
}

thread_local! {
    /// The findings of the loaded panel by choice: toggling an include option back shows the
    /// earlier answers at once.
    static FINDINGS: std::cell::RefCell<RequestCache<FindingsRequest, Shared<Findings>>> =
        const { std::cell::RefCell::new(RequestCache::new(4)) };
}

impl AnalysisState {
    pub fn new(state: AppState) -> AnalysisState {
        let flags = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => Some(Shared(Arc::new(Plausibility::check(&p)))),
            _ => None,
        });
        let repeats = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => Some(Shared(Arc::new(repeated_years(&p)))),
            _ => None,
        });
        let reconstructed = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => {
                imr_core::reconstructed::times(&imr_core::reconstructed::reconstructed_years(&p))
            }
            _ => Vec::new(),
        });
        let year_marks = Memo::new(move |_| imr_core::inequality::YearMarks {
            copies: (repeats.get().iter().flat_map(|r| r.iter()))
                .map(|r| (r.time, r.repeat_of))
                .collect(),
            reconstructed: reconstructed.get(),
        });
        // In the URL fragment (`include-flagged=true`), so a shared link keeps the choice.
        let include = crate::fragment::fragment().synced("include-flagged", false);
        let include_repeated = crate::fragment::fragment().synced("include-repeated-years", false);
        let births_ratio = crate::fragment::fragment().synced_with(
            "ineq-births-ratio",
            None,
            write_births_ratio,
            read_births_ratio,
        );
        let findings_years = crate::fragment::fragment().synced_with(
            "findings-years",
            None,
            write_years,
            read_years,
        );
        let findings = Memo::new(move |_| match state.panel.get() {
            Some(Ok(p)) => {
                // The request `imr findings` runs too (the inequality answer: the Gini of true
                // rates, imr_findings::AdjustedGini).
                let request = FindingsRequest {
                    include_flagged: include.get(),
                    include_repeated_years: include_repeated.get(),
                    bundled_data: state.bundled.get(),
                    births_ratio: births_ratio.get(),
                    years: findings_years.get(),
                };
                Some(FINDINGS.with(|cache| {
                    cache
                        .borrow_mut()
                        .get_or_run(&p, &request, || Shared(Arc::new(request.run(&p))))
                }))
            }
            _ => None,
        });
        AnalysisState {
            flags,
            include,
            repeats,
            year_marks,
            include_repeated,
            births_ratio,
            findings_years,
            findings,
        }
    }
}

/// The births-ratio range in the fragment: empty for the engine's default, else `LOW,HIGH` as
/// `imr inequality --births-ratio` takes it.
pub fn write_births_ratio(range: &Option<BirthsRatioRange>) -> String {
    range.map(|r| r.to_string()).unwrap_or_default()
}

/// The range from the fragment (`None` when it does not read: the default).
pub fn read_births_ratio(s: &str) -> Option<Option<BirthsRatioRange>> {
    match s {
        "" => Some(None),
        s => s.parse().ok().map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_births_ratio_range_and_the_findings_years_round_trip_through_the_link() {
        let narrow = BirthsRatioRange {
            low: 0.9,
            high: 1.1,
        };
        for range in [None, Some(narrow)] {
            assert_eq!(read_births_ratio(&write_births_ratio(&range)), Some(range));
        }
        assert_eq!(write_births_ratio(&Some(narrow)), "0.9,1.1");
        assert_eq!(read_births_ratio("1.1,0.9"), None);
        let study = YearSpan {
            first: 2001,
            last: 2011,
        };
        for span in [None, Some(study)] {
            assert_eq!(read_years(&write_years(&span)), Some(span));
        }
        assert_eq!(write_years(&None), "");
        assert_eq!(read_years("2011-2001"), None);
        assert_eq!(read_years("x"), None);
    }
}
