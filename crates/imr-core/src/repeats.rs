//! Repeated years: a year whose outcome values equal the previous year's in all or nearly all
//! areas, which a source that copies its last figures forward (SINIM published the 2021 infant
//! mortality rates again as 2022's, in all 345 communes) produces and no real year does.
//!
//! Like the plausibility flags ([`crate::plausibility`]), a repeat never removes a row: the year
//! stays in the panel, the tables and the downloads, marked. Trends and correlations over the
//! years leave it out by default (counting it would count the earlier year twice), and say so
//! in one sentence ([`RepeatedYear::left_out_text`]); `--include-repeated-years` keeps it.
//!
//! # Rule (thresholds in [`RepeatRule::DEFAULT`])
//! Two consecutive years of the panel (t₀ < t₁, no year between them) are compared over the
//! areas with the outcome non-missing in both. The outcome is the published rate when deaths
//! were derived from it (`1000 · deaths / births`, so a change of the births column alone is not
//! a change of the data), else the pair (deaths, births). Values are equal when they differ by at
//! most 1e-9 relative ([`same`]). t₁ is a repeat of t₀ when
//! * at least `min_share` (default 95%) of the compared areas have equal values, and
//! * at least `min_areas` (default 10) areas are compared, and
//! * at least `min_nonzero_equal` (default 10) of the equal areas have a non-zero outcome,
//!
//! so that a panel of a few areas, or of small areas whose deaths are 0 in both years, is not
//! called a copy. Real consecutive years are far from the threshold: in the bundled `tmi`,
//! 2019→2020, 2020→2021 and 2022→2023 have the same published rate in 95, 82 and 85 of 345
//! communes (24–28%, about two thirds of them 0 → 0); 2021→2022 in 345 of 345.

pub use crate::copied::{same, RepeatRule};
use crate::panel::Panel;
use imr_inequality::{Note, RepeatedYear as TrendRepeat};
use imr_stats::Lang;
use serde::Serialize;
use std::collections::BTreeMap;

/// A year found to repeat the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RepeatedYear {
    /// The repeated year.
    pub time: i64,
    /// The previous year of the panel, whose values it repeats.
    pub repeat_of: i64,
    /// Areas whose outcome equals the previous year's.
    pub equal_areas: usize,
    /// Areas with the outcome non-missing in both years.
    pub compared_areas: usize,
}

impl RepeatedYear {
    /// What the Data view lists: "2022 repeats 2021: equal values in 345 of 345 areas".
    pub fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "{} repeats {}: the same values in {} of {} areas (a year the source copied)",
                self.time, self.repeat_of, self.equal_areas, self.compared_areas
            ),
            Lang::Es => format!(
                "{} repite {}: los mismos valores en {} de {} comunas (un año que la fuente copió)",
                self.time, self.repeat_of, self.equal_areas, self.compared_areas
            ),
        }
    }

    /// What the year is, beside it: "(copia de 2021)" ([`TrendRepeat::mark`], the charts'
    /// words).
    pub fn mark(&self, lang: Lang) -> String {
        self.for_trends().mark(lang)
    }

    /// The year with what it is, for a year list or a chart's year: "2022 (copia de 2021)".
    pub fn label(&self, lang: Lang) -> String {
        self.for_trends().label(lang)
    }

    /// The caution a map of the year carries under its legend (page, SVG and PNG alike): the
    /// map shows the earlier year's values again, not new data.
    pub fn map_note(&self, lang: Lang) -> String {
        let (t, of, equal, compared) = (
            self.time,
            self.repeat_of,
            lang.grouped(self.equal_areas as f64, 0),
            lang.grouped(self.compared_areas as f64, 0),
        );
        match lang {
            Lang::En => format!(
                "{t} is a copy of {of}: the source published the same values in {equal} of {compared} areas, so this map repeats {of}'s and shows no new data for {t}."
            ),
            Lang::Es => format!(
                "{t} es una copia de {of}: la fuente publicó los mismos valores en {equal} de {compared} comunas, así que este mapa repite el de {of} y no muestra datos nuevos de {t}."
            ),
        }
    }

    /// The year as the trends' engine takes it.
    pub fn for_trends(&self) -> TrendRepeat {
        TrendRepeat {
            time: self.time,
            repeat_of: self.repeat_of,
        }
    }

    /// The one sentence that says which years were left out of the trends and correlations and
    /// why (the inequality report's [`Note::RepeatedYearsLeftOut`]); `None` when there are none.
    pub fn left_out_text(repeats: &[RepeatedYear], lang: Lang) -> Option<String> {
        (!repeats.is_empty()).then(|| {
            Note::RepeatedYearsLeftOut {
                years: repeats.iter().map(RepeatedYear::for_trends).collect(),
            }
            .render(lang)
        })
    }
}

/// One area's outcome in a year: the rate (published rates) or (deaths, births).
#[derive(Debug, Clone, Copy)]
enum Outcome {
    Rate(f64),
    Counts(f64, f64),
}

impl Outcome {
    fn same(self, other: Outcome) -> bool {
        match (self, other) {
            (Outcome::Rate(a), Outcome::Rate(b)) => same(a, b),
            (Outcome::Counts(d0, b0), Outcome::Counts(d1, b1)) => same(d0, d1) && same(b0, b1),
            _ => false,
        }
    }

    fn is_zero(self) -> bool {
        match self {
            Outcome::Rate(r) => r == 0.0,
            Outcome::Counts(d, _) => d == 0.0,
        }
    }
}

/// The repeated years of `panel` under [`RepeatRule::DEFAULT`], ascending.
pub fn repeated_years(panel: &Panel) -> Vec<RepeatedYear> {
    repeated_years_with(panel, &RepeatRule::DEFAULT)
}

/// The repeated years of `panel` under `rule`, ascending. A panel without births and deaths (or
/// a rate) has none.
pub fn repeated_years_with(panel: &Panel, rule: &RepeatRule) -> Vec<RepeatedYear> {
    let by_year = outcomes(panel, |_| true);
    panel
        .times()
        .windows(2)
        .filter_map(|w| compare(&by_year, (w[0], w[1]), rule))
        .collect()
}

/// Whether `year` repeats the year before it in `panel` under [`RepeatRule::DEFAULT`]: the
/// entry of [`repeated_years`] for `year`, reading only the rows of the two years (what a map
/// of one year asks on every change, without comparing every pair of years).
pub fn repeat_of_year(panel: &Panel, year: i64) -> Option<RepeatedYear> {
    let before = panel.times().into_iter().take_while(|t| *t < year).last()?;
    let by_year = outcomes(panel, |t| t == before || t == year);
    compare(&by_year, (before, year), &RepeatRule::DEFAULT)
}

/// Each area's outcome per year, for the years `wanted` keeps; empty for a panel without
/// births and deaths (or a rate).
fn outcomes(panel: &Panel, wanted: impl Fn(i64) -> bool) -> BTreeMap<i64, BTreeMap<&str, Outcome>> {
    let mut by_year: BTreeMap<i64, BTreeMap<&str, Outcome>> = BTreeMap::new();
    if !panel.has_rates() {
        return by_year;
    }
    for r in panel.rows().filter(|r| wanted(r.time)) {
        let outcome = if panel.deaths_derived {
            r.rate_per_1000().map(Outcome::Rate)
        } else {
            r.deaths.zip(r.births).map(|(d, b)| Outcome::Counts(d, b))
        };
        // A duplicated (area, year) cannot reach the panel; the first row would win if it did.
        if let Some(o) = outcome {
            by_year
                .entry(r.time)
                .or_default()
                .entry(r.entity)
                .or_insert(o);
        }
    }
    by_year
}

/// `t1` compared with `t0` (consecutive years of the panel) under `rule`: a repeat, or `None`.
fn compare(
    by_year: &BTreeMap<i64, BTreeMap<&str, Outcome>>,
    (t0, t1): (i64, i64),
    rule: &RepeatRule,
) -> Option<RepeatedYear> {
    let (before, after) = (by_year.get(&t0)?, by_year.get(&t1)?);
    let mut compared = 0usize;
    let mut equal = 0usize;
    let mut nonzero_equal = 0usize;
    for (area, o1) in after {
        if let Some(o0) = before.get(area) {
            compared += 1;
            if o0.same(*o1) {
                equal += 1;
                if !o1.is_zero() {
                    nonzero_equal += 1;
                }
            }
        }
    }
    rule.holds(compared, equal, nonzero_equal)
        .then_some(RepeatedYear {
            time: t1,
            repeat_of: t0,
            equal_areas: equal,
            compared_areas: compared,
        })
}

/// The years of `repeats` as the trends' engine takes them.
pub fn for_trends(repeats: &[RepeatedYear]) -> Vec<TrendRepeat> {
    repeats.iter().map(RepeatedYear::for_trends).collect()
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(RepeatedYear);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{bundled_panel, panel_of};
    use proptest::prelude::*;

    /// The bundled panel drops SINIM 2022 (a copy of SINIM 2021) and places each rate in the
    /// year it describes: it has no repeated year. (imr-dataset's tests/sinim_repeats.rs finds
    /// the repeat in SINIM's rates as published.)
    #[test]
    fn the_bundled_panel_has_no_repeated_year() {
        let bundled = bundled_panel();
        assert_eq!(repeated_years(&bundled), vec![]);
        assert!(bundled
            .times()
            .iter()
            .all(|&y| repeat_of_year(&bundled, y).is_none()));
    }

    /// A CSV of `areas` areas over 2019..=2021 with counted deaths: 2020's counts are `copy(i)`
    /// applied to 2019's.
    fn counts_csv(areas: usize, deaths: &[u32], births: &[u32], changed: &[bool]) -> String {
        let mut s = String::from("id,year,births,deaths\n");
        for i in 0..areas {
            let (d, b) = (deaths[i], births[i]);
            s += &format!("a{i},2019,{b},{d}\n");
            let d2 = if changed[i] { d + 1 } else { d };
            s += &format!("a{i},2020,{b},{d2}\n");
            s += &format!("a{i},2021,{},{}\n", b + 7, d + 3);
        }
        s
    }

    #[test]
    fn a_copied_year_of_counts_is_found_and_a_changed_one_is_not() {
        let n = 40;
        let deaths: Vec<u32> = (0..n).map(|i| 1 + (i as u32 * 7) % 13).collect();
        let births: Vec<u32> = (0..n).map(|i| 100 + i as u32 * 31).collect();
        let copied = panel_of(&counts_csv(n, &deaths, &births, &vec![false; n]));
        assert!(!copied.deaths_derived);
        assert_eq!(
            repeated_years(&copied),
            vec![RepeatedYear {
                time: 2020,
                repeat_of: 2019,
                equal_areas: 40,
                compared_areas: 40,
            }]
        );
        // 3 of 40 changed (92.5% equal) is below 95%.
        let mut changed = vec![false; n];
        changed[..3].iter_mut().for_each(|c| *c = true);
        assert!(repeated_years(&panel_of(&counts_csv(n, &deaths, &births, &changed))).is_empty());
        // 2 of 40 (95%) is still a repeat.
        changed[2] = false;
        assert_eq!(
            repeated_years(&panel_of(&counts_csv(n, &deaths, &births, &changed)))[0].equal_areas,
            38
        );
    }

    #[test]
    fn a_single_area_an_empty_year_or_a_year_of_zeros_is_not_a_repeat() {
        let one = panel_of("id,year,births,deaths\na,2019,100,3\na,2020,100,3\n");
        assert!(repeated_years(&one).is_empty());
        // 2020 has no outcome at all (births missing): nothing compared.
        let mut s = String::from("id,year,births,deaths\n");
        for i in 0..30 {
            s += &format!("a{i},2019,100,{}\na{i},2020,,\n", i % 5 + 1);
        }
        assert!(repeated_years(&panel_of(&s)).is_empty());
        // 30 areas with 0 deaths in both years: equal, but no non-zero value repeats.
        let mut s = String::from("id,year,births,deaths\n");
        for i in 0..30 {
            s += &format!("a{i},2019,100,0\na{i},2020,100,0\n");
        }
        assert!(repeated_years(&panel_of(&s)).is_empty());
        // No outcome columns at all.
        let s = "id,year,pobreza\na,2019,1\na,2020,1\n";
        assert!(repeated_years(&panel_of(s)).is_empty());
    }

    #[test]
    fn the_reason_is_worded_in_both_languages() {
        let r = RepeatedYear {
            time: 2022,
            repeat_of: 2021,
            equal_areas: 345,
            compared_areas: 345,
        };
        assert_eq!(
            r.text(Lang::En),
            "2022 repeats 2021: the same values in 345 of 345 areas (a year the source copied)"
        );
        assert!(r.text(Lang::Es).starts_with("2022 repite 2021"));
        assert_eq!(r.label(Lang::Es), "2022 (copia de 2021)");
        assert_eq!(r.label(Lang::En), "2022 (a copy of 2021)");
        let many = RepeatedYear {
            equal_areas: 1_200,
            compared_areas: 1_250,
            ..r
        };
        assert!(many
            .map_note(Lang::Es)
            .contains("los mismos valores en 1.200 de 1.250 comunas"));
        assert!(many.map_note(Lang::En).contains("1,200 of 1,250 areas"));
    }

    proptest! {
        /// A year copied from the previous one is found, whatever the values.
        #[test]
        fn a_copied_year_is_found(
            rows in proptest::collection::vec((1u32..60, 50u32..5000), 10..80),
        ) {
            let n = rows.len();
            let deaths: Vec<u32> = rows.iter().map(|r| r.0).collect();
            let births: Vec<u32> = rows.iter().map(|r| r.1).collect();
            let found = repeated_years(&panel_of(&counts_csv(n, &deaths, &births, &vec![false; n])));
            prop_assert_eq!(found.len(), 1);
            prop_assert_eq!((found[0].time, found[0].repeat_of), (2020, 2019));
        }

        /// Small random differences in more than 5% of the areas are not a repeat.
        #[test]
        fn small_differences_are_not_a_repeat(
            rows in proptest::collection::vec((1u32..60, 50u32..5000, proptest::bool::ANY), 20..80),
        ) {
            let n = rows.len();
            let deaths: Vec<u32> = rows.iter().map(|r| r.0).collect();
            let births: Vec<u32> = rows.iter().map(|r| r.1).collect();
            let changed: Vec<bool> = rows.iter().map(|r| r.2).collect();
            let n_changed = changed.iter().filter(|c| **c).count();
            let found = repeated_years(&panel_of(&counts_csv(n, &deaths, &births, &changed)));
            let expect_repeat = (n - n_changed) as f64 >= 0.95 * n as f64;
            prop_assert_eq!(found.iter().any(|r| r.time == 2020), expect_repeat);
            prop_assert!(found.iter().all(|r| r.time != 2021));
        }

        /// Published rates: a year whose rates are copied is a repeat even when births change.
        #[test]
        fn copied_rates_with_new_births_are_a_repeat(
            rows in proptest::collection::vec((1u32..300, 50u32..5000, 1u32..400), 10..60),
        ) {
            let mut s = String::from("id,year,births,tmi\n");
            for (i, (rate_tenths, b, db)) in rows.iter().enumerate() {
                let rate = *rate_tenths as f64 / 10.0;
                s += &format!("a{i},2019,{b},{rate}\na{i},2020,{},{rate}\n", b + db);
            }
            let panel = panel_of(&s);
            prop_assert!(panel.deaths_derived);
            let found = repeated_years(&panel);
            prop_assert_eq!(found.len(), 1);
            prop_assert_eq!(found[0].equal_areas, rows.len());
        }
    }
}
