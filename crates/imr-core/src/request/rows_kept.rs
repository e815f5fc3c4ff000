//! The rows a model uses ([`RowsKept`]): the one decision shared by [`super::FitRequest`]'s
//! validation and the analysis data the Models view downloads beside its fits
//! ([`crate::view::AnalysisData`]), so that the file always holds the rows the fits used.

use crate::panel::Panel;
use crate::plausibility::Plausibility;
use imr_models::{ExcludedRow, ExclusionReason};

/// The rows of a panel a model uses: without the rows flagged as implausible
/// ([`Plausibility::check`]) and the years that copy the year before
/// ([`crate::repeats::repeated_years`]), each unless included; every row left out listed with
/// its reason (flagged rows first, then the copied years' rows not flagged already).
#[derive(Debug, Clone, Default)]
pub struct RowsKept {
    /// The panel without the rows left out; `None` when no row is left out.
    pub panel: Option<Panel>,
    /// Each row left out, by its line, with its reason.
    pub excluded: Vec<ExcludedRow>,
    /// Each copied year left out and the year it copies: `(year, copy_of)`.
    pub copies: Vec<(i64, i64)>,
}

impl RowsKept {
    /// The rows of `panel` a model uses, leaving out the flagged rows unless
    /// `include_flagged` and the copied years unless `include_repeated_years`.
    pub fn of(panel: &Panel, include_flagged: bool, include_repeated_years: bool) -> RowsKept {
        let flags = Some(Plausibility::check(panel)).filter(|f| !include_flagged && !f.is_empty());
        let copies: Vec<(i64, i64)> = if include_repeated_years {
            Vec::new()
        } else {
            crate::repeats::repeated_years(panel)
                .iter()
                .map(|r| (r.time, r.repeat_of))
                .collect()
        };
        let mut excluded: Vec<ExcludedRow> = flags
            .iter()
            .flat_map(|f| &f.flagged)
            .map(|r| ExcludedRow {
                row: usize::try_from(r.line).unwrap_or(usize::MAX),
                reason: ExclusionReason::Flagged {
                    reasons: r.reasons_worded(),
                },
            })
            .collect();
        let copy_of = |time: i64| copies.iter().find(|(t, _)| *t == time).map(|c| c.1);
        let flagged =
            |entity: &str, time: i64| flags.as_ref().is_some_and(|f| f.is_flagged(entity, time));
        excluded.extend(panel.rows().filter_map(|r| {
            let repeat_of = copy_of(r.time)?;
            (!flagged(r.entity, r.time)).then(|| ExcludedRow {
                row: usize::try_from(r.line).unwrap_or(usize::MAX),
                reason: ExclusionReason::RepeatedYear {
                    time: r.time,
                    repeat_of,
                },
            })
        }));
        let panel = (!excluded.is_empty())
            .then(|| panel.filtered(|r| copy_of(r.time).is_none() && !flagged(r.entity, r.time)));
        RowsKept {
            panel,
            excluded,
            copies,
        }
    }
}
