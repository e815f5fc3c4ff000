//! Plausibility flags: a pass over a loaded panel that lists rows whose rate cannot be taken at
//! face value, with the reason, so that one such row does not rule a chart's axis or a map's
//! classes.
//!
//! Flags never remove a row from the data: every row stays in the panel, the tables and the
//! downloads. The analyses leave flagged rows out by default (`imr inequality`, `imr fit`, the
//! Findings, and the map's smoothing, classes, Moran's I/LISA and funnel plot), display scales
//! (chart axes) ignore them, and each says so, with one click (`--include-flagged`) to include
//! them. Every one of them asks [`Plausibility::is_flagged`].
//!
//! # Rules (thresholds in [`Rule::DEFAULTS`])
//! * [`Rule::RateAbove`]: rate per 1,000 live births above `max_per_1000` (default 200). Chile's
//!   national rate is about 6–7 per 1,000 and the highest national rates in the world are below
//!   100 per 1,000 (UN IGME 2023 report, *Levels and trends in child mortality*), so a commune-year
//!   above 200 is a data error or a rate on a handful of births.
//! * [`Rule::DeathsAtLeastShareOfBirths`]: deaths derived from a published rate
//!   (`rate · births / 1000`) that reach `share` (default ½) of the births: half of all infants
//!   dying within the year is not a plausible population figure.
//! * [`Rule::RateOnFewBirths`]: a rate given (deaths derived from it) on fewer than `min_births`
//!   births (default 10): one death more or less moves such a rate by 100 per 1,000 or more, and a
//!   published rate on so few births is usually a rounding or denominator artefact.
//!
//! Example on the bundled data: commune 15202 (General Lagos), one infant death among one birth
//! in 2021 (the "1,000 per 1,000" SINIM published as 2023) breaks the first rule; a file of
//! published rates on a few births would break the other two.

use crate::panel::Panel;
use imr_stats::Lang;
use serde::Serialize;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One plausibility rule with its threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Rule {
    /// Rate per 1,000 strictly above `max_per_1000`.
    RateAbove { max_per_1000: f64 },
    /// Derived deaths ≥ `share` × births (only when deaths were derived from a rate).
    DeathsAtLeastShareOfBirths { share: f64 },
    /// A rate given (deaths derived) on fewer than `min_births` births (births > 0).
    RateOnFewBirths { min_births: f64 },
}

impl Rule {
    /// The rules applied by default, with the thresholds documented in the module.
    pub const DEFAULTS: [Rule; 3] = [
        Rule::RateAbove {
            max_per_1000: 200.0,
        },
        Rule::DeathsAtLeastShareOfBirths { share: 0.5 },
        Rule::RateOnFewBirths { min_births: 10.0 },
    ];

    /// Whether a row with these counts breaks the rule.
    pub fn breaks(&self, births: Option<f64>, deaths: Option<f64>, deaths_derived: bool) -> bool {
        match (*self, births, deaths) {
            (Rule::RateAbove { max_per_1000 }, Some(b), Some(d)) if b > 0.0 => {
                1000.0 * d / b > max_per_1000
            }
            (Rule::DeathsAtLeastShareOfBirths { share }, Some(b), Some(d)) => {
                deaths_derived && b > 0.0 && d >= share * b
            }
            (Rule::RateOnFewBirths { min_births }, Some(b), Some(_)) => {
                deaths_derived && b > 0.0 && b < min_births
            }
            _ => false,
        }
    }

    /// The reason in words, with its threshold.
    pub fn text(&self, lang: Lang) -> String {
        match (*self, lang) {
            (Rule::RateAbove { max_per_1000 }, Lang::En) => {
                format!("rate above {max_per_1000} per 1,000")
            }
            (Rule::RateAbove { max_per_1000 }, Lang::Es) => {
                format!("tasa sobre {max_per_1000} por 1.000")
            }
            (Rule::DeathsAtLeastShareOfBirths { share }, Lang::En) => format!(
                "derived deaths at least {}% of births",
                (share * 100.0).round()
            ),
            (Rule::DeathsAtLeastShareOfBirths { share }, Lang::Es) => format!(
                "defunciones derivadas iguales o mayores al {}% de los nacimientos",
                (share * 100.0).round()
            ),
            (Rule::RateOnFewBirths { min_births }, Lang::En) => {
                format!("rate given on fewer than {min_births} births")
            }
            (Rule::RateOnFewBirths { min_births }, Lang::Es) => {
                format!("tasa publicada sobre menos de {min_births} nacimientos")
            }
        }
    }
}

/// A row that breaks at least one rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlaggedRow {
    pub entity: String,
    pub time: i64,
    pub births: Option<f64>,
    pub deaths: Option<f64>,
    pub rate_per_1000: Option<f64>,
    /// File and 1-based line of the row.
    pub file: Arc<str>,
    pub line: u64,
    /// The rules it breaks, in [`Rule::DEFAULTS`] order.
    pub reasons: Vec<Rule>,
}

impl FlaggedRow {
    /// Whether the row breaks a [`Rule::RateAbove`] rule: a rate too high to be a count (the
    /// Data view names these rows in its summary).
    pub fn rate_too_high(&self) -> bool {
        self.reasons
            .iter()
            .any(|r| matches!(r, Rule::RateAbove { .. }))
    }

    /// Why the row is left out of an analysis: "flagged as implausible: rate above 200 per
    /// 1,000; …".
    pub fn left_out_reason(&self, lang: Lang) -> String {
        imr_inequality::panel_input::NotMeasuredReason::Flagged {
            reasons: self.reasons_worded(),
        }
        .text(lang)
    }

    /// [`FlaggedRow::reasons_text`] in both languages, for a reason value of an engine that
    /// words the rest (`imr_models::ExclusionReason::Flagged`).
    pub fn reasons_worded(&self) -> imr_stats::Worded {
        imr_stats::Worded {
            es: self.reasons_text(Lang::Es),
            en: self.reasons_text(Lang::En),
        }
    }

    /// "rate above 200 per 1,000; rate given on fewer than 10 births".
    pub fn reasons_text(&self, lang: Lang) -> String {
        self.reasons
            .iter()
            .map(|r| r.text(lang))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The flags of a panel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plausibility {
    pub rules: Vec<Rule>,
    /// Flagged rows in panel order (entity, then time).
    pub flagged: Vec<FlaggedRow>,
    #[serde(skip)]
    keys: BTreeSet<(String, i64)>,
}

impl Plausibility {
    /// Applies [`Rule::DEFAULTS`] to every row of `panel`.
    pub fn check(panel: &Panel) -> Plausibility {
        Plausibility::check_with(panel, &Rule::DEFAULTS)
    }

    /// Applies `rules` to every row of `panel`.
    pub fn check_with(panel: &Panel, rules: &[Rule]) -> Plausibility {
        let flagged: Vec<FlaggedRow> = panel
            .rows()
            .filter_map(|r| {
                let reasons: Vec<Rule> = rules
                    .iter()
                    .copied()
                    .filter(|rule| rule.breaks(r.births, r.deaths, panel.deaths_derived))
                    .collect();
                (!reasons.is_empty()).then(|| FlaggedRow {
                    entity: r.entity.to_owned(),
                    time: r.time,
                    births: r.births,
                    deaths: r.deaths,
                    rate_per_1000: r.rate_per_1000(),
                    file: Arc::from(r.file),
                    line: r.line,
                    reasons,
                })
            })
            .collect();
        let keys = flagged.iter().map(|f| (f.entity.clone(), f.time)).collect();
        Plausibility {
            rules: rules.to_vec(),
            flagged,
            keys,
        }
    }

    /// Whether the row of `entity` in `time` is flagged.
    pub fn is_flagged(&self, entity: &str, time: i64) -> bool {
        // A (String, i64) key cannot be probed with a &str without allocating; skip the
        // allocation when nothing is flagged.
        !self.keys.is_empty() && self.keys.contains(&(entity.to_owned(), time))
    }

    /// Number of flagged rows.
    pub fn len(&self) -> usize {
        self.flagged.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flagged.is_empty()
    }

    /// A copy of `panel` without the flagged rows (for computations that leave them out by
    /// default). The ingest report is kept as it is: the rows were read and are not excluded
    /// from the data, only from this use.
    pub fn without_flagged(&self, panel: &Panel) -> Panel {
        panel.filtered(|r| !self.is_flagged(r.entity, r.time))
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(Rule);

#[cfg(test)]
mod tests {
    use super::*;

    const BUNDLED: &[u8] = imr_data::BUNDLED_PANEL_CSV;

    use crate::test_support::bundled_panel as bundled;

    /// The bundled deaths are counts: only the rate rule applies. General Lagos (15202) had one
    /// infant death among 4 births in 2004 (INE) and among 1 birth in 2021 (SINIM 2023's
    /// "1,000 per 1,000"): both above 200 per 1,000; no other commune-year is.
    #[test]
    fn general_lagos_2004_and_2021_are_the_bundled_rates_above_200() {
        let panel = bundled();
        assert!(!panel.deaths_derived);
        let p = Plausibility::check(&panel);
        let flagged: Vec<_> = p
            .flagged
            .iter()
            .map(|f| (f.entity.as_str(), f.time, f.reasons.clone()))
            .collect();
        let above = vec![Rule::RateAbove {
            max_per_1000: 200.0,
        }];
        assert_eq!(
            flagged,
            vec![("15202", 2004, above.clone()), ("15202", 2021, above)]
        );
        let row = &p.flagged[1];
        assert_eq!(row.rate_per_1000, Some(1000.0));
        assert_eq!((row.births, row.deaths), (Some(1.0), Some(1.0)));
        assert!(p.is_flagged("15202", 2021) && !p.is_flagged("15202", 2019));
    }

    #[test]
    fn on_the_bundled_data_the_flags_match_a_direct_count() {
        let panel = bundled();
        let p = Plausibility::check(&panel);
        let too_high: Vec<_> = p
            .flagged
            .iter()
            .filter(|f| f.rate_too_high())
            .map(|f| (f.entity.as_str(), f.time))
            .collect();
        assert_eq!(too_high.len(), p.len());
        // Independent count straight from the CSV text: rows with births > 0 and
        // 1000 × defunciones_infantiles / nacidos_vivos > 200.
        let text = std::str::from_utf8(BUNDLED).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let (deaths, births) = (at("defunciones_infantiles"), at("nacidos_vivos"));
        let expected = text
            .lines()
            .skip(1)
            .filter(|l| {
                let f: Vec<&str> = l.split(',').collect();
                match (f[deaths].parse::<f64>(), f[births].parse::<f64>()) {
                    (Ok(d), Ok(b)) => b > 0.0 && 1000.0 * d / b > 200.0,
                    _ => false,
                }
            })
            .count();
        assert_eq!(p.len(), expected);
        // Flagged rows are left out of the copy, and only those.
        let kept = p.without_flagged(&panel);
        assert_eq!(kept.len(), panel.len() - p.len());
        assert!(kept.rows().all(|r| !p.is_flagged(r.entity, r.time)));
    }

    #[test]
    fn counted_deaths_are_not_judged_by_the_rules_for_published_rates() {
        let rule = Rule::RateOnFewBirths { min_births: 10.0 };
        assert!(rule.breaks(Some(5.0), Some(0.0), true));
        assert!(!rule.breaks(Some(5.0), Some(0.0), false));
        let half = Rule::DeathsAtLeastShareOfBirths { share: 0.5 };
        assert!(half.breaks(Some(10.0), Some(5.0), true));
        assert!(!half.breaks(Some(10.0), Some(4.9), true));
        let above = Rule::RateAbove {
            max_per_1000: 200.0,
        };
        assert!(above.breaks(Some(1000.0), Some(201.0), false));
        assert!(!above.breaks(Some(1000.0), Some(200.0), false));
        assert!(!above.breaks(Some(0.0), Some(3.0), false));
        assert!(!above.breaks(None, Some(3.0), false));
    }

    #[test]
    fn reasons_are_worded_in_both_languages_with_their_threshold() {
        let r = Rule::RateAbove {
            max_per_1000: 200.0,
        };
        assert_eq!(r.text(Lang::En), "rate above 200 per 1,000");
        assert_eq!(r.text(Lang::Es), "tasa sobre 200 por 1.000");
    }

    proptest::proptest! {
        /// Each rule is exactly its inequality on the counts.
        #[test]
        fn rate_above_is_its_inequality(b in 1.0f64..1e5, d in 0.0f64..1e4) {
            let rule = Rule::RateAbove { max_per_1000: 200.0 };
            proptest::prop_assert_eq!(rule.breaks(Some(b), Some(d), true), 1000.0 * d / b > 200.0);
        }
    }
}
