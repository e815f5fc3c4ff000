//! [`InequalityRequest`]: inequality of area rates (or of a weighted column) per year, with
//! bootstrap intervals, trends and notes (`imr inequality`, the Inequality view).

mod subject;

use super::{numeric, push_opt, ColumnUse, RequestError};
use crate::panel::Panel;
use crate::plausibility::{FlaggedRow, Plausibility};
use crate::reconstructed::{reconstructed_years, ReconstructedYear};
use crate::repeats::{repeated_years, RepeatedYear};
use imr_inequality::adjusted::{AdjustedCorrelation, BirthsRatioRange};
use imr_inequality::panel_input::{
    subject_from_rows, Column, NotMeasured, NotMeasuredReason, SubjectColumns,
};
use imr_inequality::{
    correlate_reports_adjusted, BootstrapSpec, InequalityAnalysis, InequalitySpec, Note,
    DEFAULT_REPLICATES, DEFAULT_SEED,
};
use serde::{Deserialize, Serialize};
use subject::subject_of;

/// What is measured.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum InequalitySubject {
    /// The infant mortality rate (deaths over births) of each area.
    #[default]
    Rates,
    /// A value column weighted by another (e.g. health income per capita by population);
    /// intervals then come from resampling areas.
    Values { of: String, weight: String },
}

/// A second series whose Gini is correlated with the adjusted Gini of the rates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecondSeries {
    /// Its value column.
    pub column: String,
    /// Its weight column.
    pub weight: String,
}

/// The options of `imr inequality` that change the numbers (the output format, chart measure,
/// chart language and Lorenz years only change how they are printed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InequalityRequest {
    /// What is measured.
    pub subject: InequalitySubject,
    /// With the rates only: the series correlated with their adjusted Gini.
    pub against: Option<SecondSeries>,
    /// Group column of the Theil between/within decomposition.
    pub group: Option<String>,
    /// Rank column (ascending) of the concentration index, SII/RII and quintiles.
    pub rank: Option<String>,
    /// Bootstrap replicates of the percentile intervals (0: none).
    pub bootstrap: usize,
    /// Seed of the bootstrap: the same seed gives the same intervals.
    pub seed: u64,
    /// Keep the rows flagged as implausible ([`Plausibility`]); by default they are left out
    /// of the measures and listed with their reasons, as in `imr fit` and the Findings.
    #[serde(default)]
    pub include_flagged: bool,
    /// Keep the years that repeat the previous year ([`crate::repeats`]) in the trends and
    /// correlations; by default they are measured and shown but left out of those.
    #[serde(default)]
    pub include_repeated_years: bool,
    /// The plausible range of true births over the births given, over which the adjusted
    /// measures are recomputed when deaths are derived from published rates
    /// ([`imr_inequality::adjusted::sensitivity`]); `None`: the engine's default, 0.7–1.0, wide
    /// enough for a population aged 0 standing in for births. Narrower when the births are
    /// registered births (e.g. 0.9–1.1 for births apportioned from regional totals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub births_ratio: Option<BirthsRatioRange>,
}

impl Default for InequalityRequest {
    fn default() -> Self {
        InequalityRequest {
            subject: InequalitySubject::Rates,
            against: None,
            group: None,
            rank: None,
            bootstrap: DEFAULT_REPLICATES,
            seed: DEFAULT_SEED,
            include_flagged: false,
            include_repeated_years: false,
            births_ratio: None,
        }
    }
}

/// Confidence level of every interval of the inequality analysis.
const LEVEL: f64 = 0.95;

/// An [`InequalityRequest`] checked against a panel: the engine's subject(s) and the rows left
/// out with their reasons.
#[derive(Debug, Clone)]
pub struct ValidatedInequality {
    subject: imr_inequality::Subject,
    left_out: Vec<NotMeasured>,
    against: Option<(imr_inequality::Subject, Vec<NotMeasured>)>,
    spec: InequalitySpec,
    flagged: Vec<FlaggedRow>,
    flagged_kept: Vec<FlaggedRow>,
    repeated: Vec<RepeatedYear>,
    copied: Vec<RepeatedYear>,
    reconstructed: Vec<ReconstructedYear>,
}

/// The analysis, the rows it left out and, with a second series, the adjusted correlation.
#[derive(Debug, Clone)]
pub struct InequalityResult {
    /// Measures per year, trend and notes (with [`Note::RowsLeftOut`] when rows were left out),
    /// Lorenz curves and box plots.
    pub analysis: InequalityAnalysis,
    /// Panel rows left out of the measures (births or the value missing), with file and line.
    pub left_out: Vec<NotMeasured>,
    /// Rows flagged as implausible and left out of the measures (empty with
    /// `include_flagged`), with their reasons.
    pub flagged: Vec<FlaggedRow>,
    /// With `include_flagged`: the flagged rows, kept in the measures; the box plot keeps them
    /// off its axis scale (drawn "off scale" beyond it) so that one implausible rate does not
    /// flatten every box. Empty otherwise.
    pub flagged_kept: Vec<FlaggedRow>,
    /// Years measured but left out of the trends and correlations as repeats of the previous
    /// year (empty with `include_repeated_years`).
    pub repeated: Vec<RepeatedYear>,
    /// Every year of the rates repeating the previous one, left out of the trends or included
    /// (`include_repeated_years`): the charts of single years draw each as a copy either way
    /// ([`InequalityResult::copies`]). Empty for a value column.
    pub copied: Vec<RepeatedYear>,
    /// Years of the rates whose deaths were reconstructed from a published rate
    /// ([`crate::reconstructed`]): measured like the others, drawn as what they are. Empty for
    /// a value column.
    pub reconstructed: Vec<ReconstructedYear>,
    /// With a second series: the correlation of the adjusted Gini with its Gini (`None` when
    /// there are fewer than 4 common years with an adjusted Gini), and the rows it left out.
    pub against: Option<(Option<AdjustedCorrelation>, Vec<NotMeasured>)>,
}

impl InequalityRequest {
    /// The subcommand of `imr` that runs this request.
    pub const SUBCOMMAND: &'static str = "inequality";

    /// The engine's subjects from `panel`: every named column must exist (numeric, but the
    /// group may be any column), the rates need births and deaths, the group and rank need a
    /// value in every row.
    pub fn validate(&self, panel: &Panel) -> Result<ValidatedInequality, RequestError> {
        let flags = Some(Plausibility::check(panel)).filter(|f| !f.is_empty());
        let (flags, flagged_kept) = match (flags, self.include_flagged) {
            (Some(f), true) => (None, f.flagged),
            (flags, _) => (flags, Vec::new()),
        };
        let kept = flags.as_ref().map(|f| f.without_flagged(panel));
        // Every copy is drawn as one; only those not included are left out of the trends.
        let copied = repeated_years(panel);
        let repeated = if self.include_repeated_years {
            Vec::new()
        } else {
            copied.clone()
        };
        let panel = kept.as_ref().unwrap_or(panel);
        let (mut subject, left_out) = subject_of(
            panel,
            &self.subject,
            (ColumnUse::Value, ColumnUse::Weight),
            self.group.as_deref(),
            self.rank.as_deref(),
        )?;
        subject.set_births_ratio(self.births_ratio);
        let against = self
            .against
            .as_ref()
            .map(|a| {
                subject_of(
                    panel,
                    &InequalitySubject::Values {
                        of: a.column.clone(),
                        weight: a.weight.clone(),
                    },
                    (ColumnUse::Against, ColumnUse::AgainstWeight),
                    None,
                    None,
                )
            })
            .transpose()?;
        Ok(ValidatedInequality {
            subject,
            left_out,
            against,
            flagged: flags.map(|f| f.flagged).unwrap_or_default(),
            flagged_kept,
            repeated,
            copied,
            reconstructed: reconstructed_years(panel),
            spec: InequalitySpec {
                bootstrap: BootstrapSpec {
                    replicates: self.bootstrap,
                    seed: self.seed,
                    level: LEVEL,
                },
            },
        })
    }

    /// Validates and runs the request on `panel`.
    pub fn run(&self, panel: &Panel) -> Result<InequalityResult, RequestError> {
        self.validate(panel)?.run()
    }

    /// With a second series: the request that measures it on its own (its column weighted by
    /// its weight, the same bootstrap replicates and seed), whose report the two-series chart
    /// draws under the rates' (`imr inequality --format svg-against`, the page's second panel).
    pub fn second_series(&self) -> Option<InequalityRequest> {
        let a = self.against.as_ref()?;
        Some(InequalityRequest {
            subject: InequalitySubject::Values {
                of: a.column.clone(),
                weight: a.weight.clone(),
            },
            against: None,
            group: None,
            rank: None,
            bootstrap: self.bootstrap,
            seed: self.seed,
            include_flagged: self.include_flagged,
            include_repeated_years: self.include_repeated_years,
            // a value column has no births ratio
            births_ratio: None,
        })
    }

    /// The `imr inequality` arguments after the input that reproduce this request (all of
    /// them, defaults included, so that the command says what was run).
    pub fn to_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if let InequalitySubject::Values { of, weight } = &self.subject {
            push_opt(&mut args, "--of", Some(of));
            push_opt(&mut args, "--weight", Some(weight));
        }
        push_opt(&mut args, "--group", self.group.as_deref());
        push_opt(&mut args, "--rank", self.rank.as_deref());
        args.extend([
            "--bootstrap".to_string(),
            self.bootstrap.to_string(),
            "--seed".to_string(),
            self.seed.to_string(),
        ]);
        if let Some(a) = &self.against {
            push_opt(&mut args, "--against", Some(&a.column));
            push_opt(&mut args, "--against-weight", Some(&a.weight));
        }
        if self.include_flagged {
            args.push("--include-flagged".to_string());
        }
        if self.include_repeated_years {
            args.push("--include-repeated-years".to_string());
        }
        if let Some(range) = self.births_ratio {
            args.push("--births-ratio".to_string());
            args.push(range.to_string());
        }
        args
    }
}

impl InequalityResult {
    /// The years drawn as copies, `(year, the year it repeats)`: every copy found, left out of
    /// the trends or included, so that an included copy still looks like one.
    pub fn copies(&self) -> Vec<(i64, i64)> {
        self.copied.iter().map(|r| (r.time, r.repeat_of)).collect()
    }

    /// What the charts over the years mark: every copy ([`InequalityResult::copies`]) and every
    /// reconstructed year.
    pub fn year_marks(&self) -> imr_inequality::YearMarks {
        imr_inequality::YearMarks {
            copies: self.copies(),
            reconstructed: crate::reconstructed::times(&self.reconstructed),
        }
    }

    /// Every panel row left out of the measures with its reason in English (the JSON's
    /// `rows_not_measured`): those without the values and the flagged ones ("flagged as
    /// implausible: rate above 200 per 1,000; …"), in file and line order.
    pub fn rows_not_measured(&self) -> Vec<NotMeasured> {
        let mut rows = self.left_out.clone();
        rows.extend(self.flagged.iter().map(|f| NotMeasured {
            file: f.file.to_string(),
            line: f.line,
            entity: f.entity.clone(),
            time: f.time,
            reason: NotMeasuredReason::Flagged {
                reasons: f.reasons_worded(),
            },
        }));
        rows.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
        rows
    }
}

impl ValidatedInequality {
    /// The rows the measures leave out, with their reasons.
    pub fn left_out(&self) -> &[NotMeasured] {
        &self.left_out
    }

    /// The rows flagged as implausible and left out, with their reasons.
    pub fn flagged(&self) -> &[FlaggedRow] {
        &self.flagged
    }

    /// The years left out of the trends and correlations as repeats.
    pub fn repeated(&self) -> &[RepeatedYear] {
        &self.repeated
    }

    /// Measures every year; with a second series, measures it without bootstrap (the
    /// correlation uses its point values) and correlates.
    pub fn run(self) -> Result<InequalityResult, RequestError> {
        // Repeats are of the infant mortality rate: a value column keeps every year (its
        // correlation with the rates still leaves the rates' repeated years out).
        let (repeated, copied, reconstructed) = match self.subject {
            imr_inequality::Subject::Rates(_) => (
                crate::repeats::for_trends(&self.repeated),
                self.copied,
                self.reconstructed,
            ),
            imr_inequality::Subject::Values(_) => (Vec::new(), Vec::new(), Vec::new()),
        };
        let mut analysis = self
            .spec
            .analyse_leaving_out(&self.subject, &repeated)
            .map_err(RequestError::Inequality)?;
        if !self.left_out.is_empty() || !self.flagged.is_empty() {
            analysis.report.notes.push(Note::RowsLeftOut {
                count: self.left_out.len() + self.flagged.len(),
            });
        }
        let against = match self.against {
            Some((subject, left_out)) => {
                let spec = InequalitySpec {
                    bootstrap: BootstrapSpec {
                        replicates: 0,
                        ..self.spec.bootstrap
                    },
                };
                let other =
                    spec.analyse(&subject)
                        .map_err(|error| RequestError::SecondSeriesAnalysis {
                            column: subject.value_name().to_string(),
                            error,
                        })?;
                Some((
                    correlate_reports_adjusted(&analysis.report, &other.report),
                    left_out,
                ))
            }
            None => None,
        };
        let repeated = if repeated.is_empty() {
            Vec::new()
        } else {
            self.repeated
        };
        Ok(InequalityResult {
            analysis,
            left_out: self.left_out,
            flagged: self.flagged,
            flagged_kept: self.flagged_kept,
            repeated,
            copied,
            reconstructed,
            against,
        })
    }
}

#[cfg(test)]
mod tests;
