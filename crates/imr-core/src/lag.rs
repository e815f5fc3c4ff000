//! Publication lags of published rates, found from the data: which year's births the rates of a
//! year fit.
//!
//! Agencies publish rates late and label them by the year of publication. Chile's SINIM
//! publishes an integer "Tasa de Mortalidad Infantil" for year Y that is the infant mortality of
//! year Y−2. Nothing in the file says so; the births say it.
//!
//! # The test
//! A published rate t per 1,000, rounded to a step δ (1 for whole numbers, 0.1, 0.01, …), can
//! come from b births only if some whole number of deaths d rounds to it:
//!
//! ```text
//! t − δ/2 ≤ 1000·d/b ≤ t + δ/2   ⇔   (t − δ/2)·b/1000 ≤ d ≤ (t + δ/2)·b/1000
//! ```
//!
//! The window for d is `w = δ·b/1000` deaths wide (closed at both ends, so that either rounding
//! of a half passes). When `w ≥ 1` it always holds a whole number and says nothing; when `w` is
//! well below 1 it usually holds none, unless b are the births the rate was computed from. For
//! a lag k (0 to [`MAX_TESTED_LAG`]) the rate of an area in year Y is tested against the births
//! of the same area in year Y−k. A (rate, births) pair is
//! * **testable** when t > 0 (a rate of 0 fits any births: d = 0) and `w ≤ 0.4`
//!   ([`LagRule::max_window`]): for whole-number rates, at most 400 births;
//! * **fits** when a whole number d ≥ 1 (and d ≤ b) lies in the window.
//!
//! **Chance level.** If the births were unrelated to the rate, the window's position would be
//! as good as random relative to the whole numbers, and it would hold one with probability `w`
//! (for `w ≤ 1`). The share of testable pairs that fit by chance is therefore about the mean
//! window width, reported as [`LagCount::chance`] (about 0.19 on SINIM's rates). Why 0.4:
//! below it chance stays under 40% for every pair, so a lag that fits nearly all pairs cannot
//! owe it to chance; above it the test discriminates less and less (at 1, never). On SINIM's
//! integer rates, 0.4 (400 births) leaves 117–140 testable communes a year, and the true lag
//! fits 94–100% of them while every other lag fits 26–48%.
//!
//! # The verdict ([`LagRule::DEFAULT`])
//! The pairs are counted per lag over every rate year that is not a copy of the year before
//! (a rate year whose rates equal the previous rate year's in ≥ 95% of ≥ 10 areas, 10 of them
//! non-zero: [`crate::repeats::RepeatRule::DEFAULT`], the rule that finds SINIM's 2022 = 2021;
//! a copied year describes an earlier year again and would pull the lag it repeats into the
//! count). A lag is *measured* with at least 20 testable pairs ([`LagRule::min_testable`]). The
//! rates are said to describe year Y−k only when lag k
//! 1. fits at least 90% of its testable pairs ([`LagRule::min_share`]): a true lag fits all of
//!    them but the few areas whose births were revised after the rate was published;
//! 2. fits at least 50 points more than chance ([`LagRule::min_over_chance`]): with the window
//!    bound of 0.4 this follows from 1, but it is the reason 1 means anything, and it is checked
//!    for any other bound;
//! 3. fits at least 25 points more than every other measured lag ([`LagRule::min_margin`]), and
//!    at least one other lag is measured: births change little from one year to the next, so a
//!    neighbouring lag fits above chance (SINIM 2021: 48% at lag 1), and births constant over
//!    the years fit every lag alike — then no lag can be told from the others.
//!
//! With 20 pairs, fitting 90% when chance is at most 40% has a probability below 10⁻⁵
//! (binomial); the same rule gives each rate year its own lag ([`YearLags::lag`]). Otherwise the
//! verdict is [`LagVerdict::Undetermined`], or [`LagVerdict::TooFew`] with fewer than 20
//! testable pairs for every lag, or [`LagVerdict::NotRounded`] when the rates are on no step
//! of 1, 0.1, 0.01 or 0.001 ([`imr_inequality::adjusted::sensitivity::rounding_step`]).
//!
//! The detection reads rates and births as the files hold them, before any lag is applied
//! ([`crate::ingest::IngestOptions::rate_lag`] applies one), so it says the same whatever lag
//! is chosen. It is pure and deterministic (ordered maps, no randomness): the page (wasm) and
//! `imr` report the same numbers.

use crate::copied::{same, RepeatRule};
use imr_inequality::RepeatedYear;
use imr_stats::Lang;
use serde::Serialize;
use std::collections::BTreeMap;

/// The largest lag tested: 0, 1, 2 and 3 years.
pub const MAX_TESTED_LAG: u32 = 3;

/// The thresholds of the test and the verdict (see the module documentation for each reason).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LagRule {
    /// The widest rounding window, in deaths, of a testable pair.
    pub max_window: f64,
    /// The fewest testable pairs for a lag to be measured.
    pub min_testable: usize,
    /// The least share of testable pairs the winning lag fits.
    pub min_share: f64,
    /// The least lead of the winning lag's share over every other measured lag's.
    pub min_margin: f64,
    /// The least lead of the winning lag's share over its chance level.
    pub min_over_chance: f64,
}

impl LagRule {
    /// Windows of at most 0.4 deaths; 20 pairs; 90%; 25 points over the others; 50 over chance.
    pub const DEFAULT: LagRule = LagRule {
        max_window: 0.4,
        min_testable: 20,
        min_share: 0.9,
        min_margin: 0.25,
        min_over_chance: 0.5,
    };

    /// The most births of a testable pair when the rates are on `step`: `max_window·1000/step`
    /// (400 for whole-number rates).
    pub fn max_births(&self, step: f64) -> f64 {
        self.max_window * 1000.0 / step
    }
}

/// One area and year as the data give it: its published rate per 1,000 and its births, either
/// missing. Several observations of one (entity, year) add up to one: the first rate and the
/// first births given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation<E> {
    pub entity: E,
    pub year: i64,
    pub rate: Option<f64>,
    pub births: Option<f64>,
}

/// The step the rates are rounded to: the largest of 1, 0.1, 0.01 and 0.001 of which every
/// positive rate is a multiple (to 10⁻⁶ of the step), as [`imr_inequality::adjusted::sensitivity::rounding_step`]
/// reads it; `None` without a positive rate or when no such step fits them all.
pub fn rate_step(rates: &[f64]) -> Option<f64> {
    let positive: Vec<f64> = rates
        .iter()
        .copied()
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    let ones = vec![1.0; positive.len()];
    imr_inequality::adjusted::sensitivity::rounding_step(&positive, &ones, 1.0)
}

/// The test of one (rate, births) pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PairTest {
    /// A rate of 0, no births, or a window wider than the rule's: nothing to learn.
    NotTestable,
    /// Tested: the window's width in deaths and whether a whole number of deaths lies in it.
    Tested { width: f64, fits: bool },
}

/// Whether `rate` per 1,000 on the step `step` can come from `births` births: testable when
/// `rate > 0`, `births > 0` (both finite) and the window `step·births/1000` is at most
/// `max_window` deaths wide; fits when a whole number of deaths d with 1 ≤ d ≤ births lies in
/// `[(rate − step/2)·births/1000, (rate + step/2)·births/1000]` (to 10⁻⁹, for the binary
/// representation of the bounds).
pub fn test_pair(rate: f64, births: f64, step: f64, max_window: f64) -> PairTest {
    let usable = |v: f64| v.is_finite() && v > 0.0;
    if !(usable(rate) && usable(births) && usable(step)) {
        return PairTest::NotTestable;
    }
    let width = step * births / 1000.0;
    if width > max_window {
        return PairTest::NotTestable;
    }
    let low = (rate - step / 2.0) * births / 1000.0;
    let high = (rate + step / 2.0) * births / 1000.0;
    let tolerance = 1e-9 * high.abs().max(1.0);
    let deaths = (low - tolerance).ceil().max(1.0);
    PairTest::Tested {
        width,
        fits: deaths <= high + tolerance && deaths <= births,
    }
}

/// The pairs of one lag: rates of year Y against births of Y−`lag`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LagCount {
    pub lag: u32,
    /// Testable pairs.
    pub testable: usize,
    /// Testable pairs that fit.
    pub fits: usize,
    /// The share that would fit by chance: the mean window width of the testable pairs (0
    /// without any).
    pub chance: f64,
}

impl LagCount {
    /// The share of testable pairs that fit; 0 without any.
    pub fn share(&self) -> f64 {
        if self.testable == 0 {
            0.0
        } else {
            self.fits as f64 / self.testable as f64
        }
    }

    fn add(&mut self, other: &LagCount) {
        let widths = self.chance * self.testable as f64 + other.chance * other.testable as f64;
        self.testable += other.testable;
        self.fits += other.fits;
        self.chance = if self.testable == 0 {
            0.0
        } else {
            widths / self.testable as f64
        };
    }
}

/// One rate year: its pairs per lag, the lag the rule gives it, and the year it repeats.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct YearLags {
    /// The year the rates are labelled with.
    pub year: i64,
    /// The lag the rule ([`LagRule`]) gives this year alone, if one.
    pub lag: Option<u32>,
    /// The previous rate year whose rates this year's repeat (left out of the pooled count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<i64>,
    /// Lags 0 to [`MAX_TESTED_LAG`], in order.
    pub lags: Vec<LagCount>,
    /// Whether no lag has enough testable pairs this year.
    #[serde(skip)]
    pub too_few: bool,
}

/// What the test says.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LagVerdict {
    /// The rates of year Y describe year Y−`lag.lag`: that lag wins by the rule. `next` is the
    /// best other measured lag; `left_out` the rate years not pooled (copies).
    Describes {
        lag: LagCount,
        next: Option<LagCount>,
        left_out: Vec<RepeatedYear>,
    },
    /// No lag wins: `best` the lag fitting the largest share, `next` the next (none when no
    /// other lag is measured).
    Undetermined {
        best: LagCount,
        next: Option<LagCount>,
    },
    /// Fewer than `needed` testable pairs for every lag (`testable` the most of any);
    /// `max_births` the most births of a testable pair (none without a positive rate).
    TooFew {
        testable: usize,
        needed: usize,
        max_births: Option<f64>,
    },
    /// The positive rates are on no step of 1, 0.1, 0.01 or 0.001.
    NotRounded,
}

/// "Y−2" for a lag of 2, "Y" for 0 (Spanish "A−2", "A": año).
fn year_minus(lag: u32, lang: Lang) -> String {
    let y = lang.pick("A", "Y");
    if lag == 0 {
        y.to_owned()
    } else {
        format!("{y}−{lag}")
    }
}

/// "126 of 127" with the language's grouping.
fn of(count: &LagCount, lang: Lang) -> String {
    format!(
        "{} {} {}",
        lang.grouped(count.fits as f64, 0),
        lang.pick("de", "of"),
        lang.grouped(count.testable as f64, 0)
    )
}

/// "2022 (a repeat of 2021)" joined.
fn repeats_list(years: &[RepeatedYear], lang: Lang) -> String {
    years
        .iter()
        .map(|r| match lang {
            Lang::En => format!("{}, whose rates repeat {}'s", r.time, r.repeat_of),
            Lang::Es => format!("{}, cuyas tasas repiten las de {}", r.time, r.repeat_of),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl LagVerdict {
    /// The verdict in one sentence in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Self::Describes { lag, next, left_out }, _) => {
                let k = lag.lag;
                let percent = format!("{:.0}", lag.chance * 100.0);
                let next = next
                    .map(|n| match lang {
                        Lang::En => format!("; next best, {}: {}", year_minus(n.lag, lang), of(&n, lang)),
                        Lang::Es => format!("; la siguiente, {}: {}", year_minus(n.lag, lang), of(&n, lang)),
                    })
                    .unwrap_or_default();
                let left = if left_out.is_empty() {
                    String::new()
                } else {
                    match lang {
                        Lang::En => format!(" Left out: {}.", repeats_list(left_out, lang)),
                        Lang::Es => format!(" Se deja fuera: {}.", repeats_list(left_out, lang)),
                    }
                };
                match (lang, k) {
                    (Lang::En, 0) => format!(
                        "The rates of year Y fit the births of the same year in {} testable area-years (chance alone: about {percent}%{next}): they describe their own year.{left}",
                        of(lag, lang)
                    ),
                    (Lang::En, k) => format!(
                        "The rates of year Y fit the births of year Y−{k} in {} testable area-years (chance alone: about {percent}%{next}): they describe year Y−{k}.{left}",
                        of(lag, lang)
                    ),
                    (Lang::Es, 0) => format!(
                        "Las tasas del año A calzan con los nacimientos del mismo año en {} pares comuna-año comprobables (por azar, cerca de un {percent}%{next}): describen su propio año.{left}",
                        of(lag, lang)
                    ),
                    (Lang::Es, k) => format!(
                        "Las tasas del año A calzan con los nacimientos del año A−{k} en {} pares comuna-año comprobables (por azar, cerca de un {percent}%{next}): describen el año A−{k}.{left}",
                        of(lag, lang)
                    ),
                }
            }
            (Self::Undetermined { best, next }, Lang::En) => format!(
                "Which year the rates describe cannot be told: no lag from 0 to {MAX_TESTED_LAG} years fits at least 90% of its testable area-years and clearly more than every other (best, {}: {}; {}).",
                year_minus(best.lag, lang),
                of(best, lang),
                next.map_or_else(
                    || "no other lag could be tested".to_owned(),
                    |n| format!("next, {}: {}", year_minus(n.lag, lang), of(&n, lang))
                )
            ),
            (Self::Undetermined { best, next }, Lang::Es) => format!(
                "No se puede saber qué año describen las tasas: ningún desfase de 0 a {MAX_TESTED_LAG} años calza en al menos un 90% de sus pares comuna-año comprobables y claramente más que los demás (el mejor, {}: {}; {}).",
                year_minus(best.lag, lang),
                of(best, lang),
                next.map_or_else(
                    || "no se pudo probar ningún otro desfase".to_owned(),
                    |n| format!("el siguiente, {}: {}", year_minus(n.lag, lang), of(&n, lang))
                )
            ),
            (Self::TooFew { max_births: None, .. }, Lang::En) => {
                "Which year the rates describe cannot be tested: no rate is above 0.".into()
            }
            (Self::TooFew { max_births: None, .. }, Lang::Es) => {
                "No se puede probar qué año describen las tasas: ninguna tasa es mayor que 0.".into()
            }
            (
                Self::TooFew {
                    testable,
                    needed,
                    max_births: Some(b),
                },
                Lang::En,
            ) => format!(
                "Which year the rates describe cannot be tested: at most {} area-years are testable for any lag (a rate above 0 on at most {} births, where the rounding leaves room for at most one whole number of deaths), and {needed} are needed.",
                lang.grouped(*testable as f64, 0),
                lang.grouped(b.floor(), 0)
            ),
            (
                Self::TooFew {
                    testable,
                    needed,
                    max_births: Some(b),
                },
                Lang::Es,
            ) => format!(
                "No se puede probar qué año describen las tasas: a lo más {} pares comuna-año son comprobables para cualquier desfase (una tasa mayor que 0 con a lo más {} nacimientos, donde el redondeo deja lugar a un solo número entero de defunciones como máximo), y se necesitan {needed}.",
                lang.grouped(*testable as f64, 0),
                lang.grouped(b.floor(), 0)
            ),
            (Self::NotRounded, Lang::En) => "Which year the rates describe cannot be tested: the rates are not rounded to a step of 1, 0.1, 0.01 or 0.001, so the births they came from cannot be checked.".into(),
            (Self::NotRounded, Lang::Es) => "No se puede probar qué año describen las tasas: no están redondeadas a un paso de 1, 0,1, 0,01 o 0,001, así que no se pueden comprobar los nacimientos de los que provienen.".into(),
        }
    }
}

/// The English sentence.
impl std::fmt::Display for LagVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// Serialised as its English sentence, as the engines' notes are.
impl Serialize for LagVerdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl YearLags {
    /// "2019: the births of 2017 (126 of 127)" and the like, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let year = self.year;
        let best = self
            .lags
            .iter()
            .filter(|c| c.testable > 0)
            .max_by(|a, b| a.share().total_cmp(&b.share()).then(b.lag.cmp(&a.lag)));
        match (self.lag, best) {
            (Some(k), _) => {
                let count = self.lags.iter().find(|c| c.lag == k);
                let count = count.map(|c| of(c, lang)).unwrap_or_default();
                let births_year = year.saturating_sub(i64::from(k));
                match (lang, self.repeats) {
                    (Lang::En, None) => format!("{year}: the births of {births_year} ({count})"),
                    (Lang::En, Some(r)) => format!(
                        "{year}: the births of {births_year} ({count}; its rates repeat {r}'s)"
                    ),
                    (Lang::Es, None) => {
                        format!("{year}: los nacimientos de {births_year} ({count})")
                    }
                    (Lang::Es, Some(r)) => format!(
                        "{year}: los nacimientos de {births_year} ({count}; sus tasas repiten las de {r})"
                    ),
                }
            }
            (None, Some(best)) if !self.too_few => {
                let births_year = year.saturating_sub(i64::from(best.lag));
                match lang {
                    Lang::En => format!(
                        "{year}: undetermined (best, the births of {births_year}: {})",
                        of(best, lang)
                    ),
                    Lang::Es => format!(
                        "{year}: sin determinar (el mejor, los nacimientos de {births_year}: {})",
                        of(best, lang)
                    ),
                }
            }
            (None, _) => {
                let most = self.lags.iter().map(|c| c.testable).max().unwrap_or(0);
                match lang {
                    Lang::En => format!("{year}: too few testable area-years ({most})"),
                    Lang::Es => format!("{year}: muy pocos pares comprobables ({most})"),
                }
            }
        }
    }
}

/// What the test found in a data set's rates and births.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LagReport {
    /// The lag the rates were found to have (the rates of year Y describe year Y−`lag`), when
    /// the rule gives one.
    pub lag: Option<u32>,
    /// The verdict (in JSON, its English sentence).
    pub verdict: LagVerdict,
    /// The step the rates are rounded to.
    pub step: Option<f64>,
    /// The thresholds applied.
    pub rule: LagRule,
    /// Lags 0 to [`MAX_TESTED_LAG`] pooled over the rate years that are not copies.
    pub lags: Vec<LagCount>,
    /// Each rate year on its own, ascending.
    pub years: Vec<YearLags>,
}

impl LagReport {
    /// The verdict in `lang` ([`LagVerdict::text`]).
    pub fn text(&self, lang: Lang) -> String {
        self.verdict.text(lang)
    }

    /// Each rate year and the births it fits, in one line: "By rate year, the births they fit:
    /// 2019: the births of 2017 (126 of 127); …"; `None` without a rate year.
    pub fn by_year_text(&self, lang: Lang) -> Option<String> {
        if self.years.is_empty() {
            return None;
        }
        let years = self
            .years
            .iter()
            .map(|y| y.text(lang))
            .collect::<Vec<_>>()
            .join("; ");
        Some(match lang {
            Lang::En => format!("By rate year, the births they fit: {years}."),
            Lang::Es => format!("Por año de la tasa, los nacimientos con que calzan: {years}."),
        })
    }
}

/// What [`decide`] makes of the counts of the lags.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Decision {
    Lag(usize),
    Undetermined { best: usize, next: Option<usize> },
    TooFew,
}

/// The rule on `counts` (one per lag): see the module documentation.
fn decide(counts: &[LagCount], rule: &LagRule) -> Decision {
    let mut measured: Vec<usize> = (0..counts.len())
        .filter(|&i| counts[i].testable >= rule.min_testable)
        .collect();
    if measured.is_empty() {
        return Decision::TooFew;
    }
    // Highest share first; a tie goes to the smaller lag (and then fails the margin).
    measured.sort_by(|&a, &b| {
        counts[b]
            .share()
            .total_cmp(&counts[a].share())
            .then(a.cmp(&b))
    });
    let (best, next) = (measured[0], measured.get(1).copied());
    let b = &counts[best];
    let wins = next.is_some_and(|n| b.share() - counts[n].share() >= rule.min_margin - 1e-12)
        && b.share() >= rule.min_share - 1e-12
        && b.share() - b.chance >= rule.min_over_chance - 1e-12;
    if wins {
        Decision::Lag(best)
    } else {
        Decision::Undetermined { best, next }
    }
}

/// [`detect_with`] under [`LagRule::DEFAULT`].
pub fn detect<E: Ord + Clone>(observations: &[Observation<E>]) -> LagReport {
    detect_with(observations, &LagRule::DEFAULT)
}

/// Which year's births the rates of `observations` fit, lags 0 to [`MAX_TESTED_LAG`], under
/// `rule`. Rates and births that are negative or not finite are not read.
pub fn detect_with<E: Ord + Clone>(observations: &[Observation<E>], rule: &LagRule) -> LagReport {
    // year → entity → value, the first given of each.
    let mut rates: BTreeMap<i64, BTreeMap<E, f64>> = BTreeMap::new();
    let mut births: BTreeMap<i64, BTreeMap<E, f64>> = BTreeMap::new();
    let readable = |v: Option<f64>| v.filter(|v| v.is_finite() && *v >= 0.0);
    for o in observations {
        if let Some(r) = readable(o.rate) {
            rates
                .entry(o.year)
                .or_default()
                .entry(o.entity.clone())
                .or_insert(r);
        }
        if let Some(b) = readable(o.births) {
            births
                .entry(o.year)
                .or_default()
                .entry(o.entity.clone())
                .or_insert(b);
        }
    }
    let all_rates: Vec<f64> = rates.values().flat_map(|y| y.values().copied()).collect();
    let step = rate_step(&all_rates);
    let any_positive = all_rates.iter().any(|r| *r > 0.0);
    let counts_of = |year: i64, year_rates: &BTreeMap<E, f64>| -> Vec<LagCount> {
        (0..=MAX_TESTED_LAG)
            .map(|lag| {
                let mut count = LagCount {
                    lag,
                    testable: 0,
                    fits: 0,
                    chance: 0.0,
                };
                // Years are any i64 here: one without a year `lag` before it has no births then.
                let earlier = year
                    .checked_sub(i64::from(lag))
                    .and_then(|y| births.get(&y));
                let (Some(step), Some(earlier)) = (step, earlier) else {
                    return count;
                };
                let mut widths = 0.0;
                for (entity, &rate) in year_rates {
                    let Some(&b) = earlier.get(entity) else {
                        continue;
                    };
                    if let PairTest::Tested { width, fits } =
                        test_pair(rate, b, step, rule.max_window)
                    {
                        count.testable += 1;
                        count.fits += usize::from(fits);
                        widths += width;
                    }
                }
                if count.testable > 0 {
                    count.chance = widths / count.testable as f64;
                }
                count
            })
            .collect()
    };
    let repeat = RepeatRule::DEFAULT;
    let mut years: Vec<YearLags> = Vec::with_capacity(rates.len());
    let mut previous: Option<(i64, &BTreeMap<E, f64>)> = None;
    for (&year, year_rates) in &rates {
        let repeats = previous.and_then(|(before, before_rates)| {
            let (mut compared, mut equal, mut nonzero_equal) = (0, 0, 0);
            for (entity, &r) in year_rates {
                if let Some(&r0) = before_rates.get(entity) {
                    compared += 1;
                    if same(r0, r) {
                        equal += 1;
                        nonzero_equal += usize::from(r != 0.0);
                    }
                }
            }
            repeat
                .holds(compared, equal, nonzero_equal)
                .then_some(before)
        });
        let lags = counts_of(year, year_rates);
        let decision = decide(&lags, rule);
        years.push(YearLags {
            year,
            lag: match decision {
                Decision::Lag(i) => Some(lags[i].lag),
                _ => None,
            },
            repeats,
            too_few: decision == Decision::TooFew,
            lags,
        });
        previous = Some((year, year_rates));
    }
    let mut pooled: Vec<LagCount> = (0..=MAX_TESTED_LAG)
        .map(|lag| LagCount {
            lag,
            testable: 0,
            fits: 0,
            chance: 0.0,
        })
        .collect();
    for y in years.iter().filter(|y| y.repeats.is_none()) {
        for (total, count) in pooled.iter_mut().zip(&y.lags) {
            total.add(count);
        }
    }
    let left_out: Vec<RepeatedYear> = years
        .iter()
        .filter_map(|y| {
            y.repeats.map(|r| RepeatedYear {
                time: y.year,
                repeat_of: r,
            })
        })
        .collect();
    let (lag, verdict) = match (step, decide(&pooled, rule)) {
        (None, _) if any_positive => (None, LagVerdict::NotRounded),
        (_, Decision::Lag(i)) => {
            let next = pooled
                .iter()
                .enumerate()
                .filter(|&(j, c)| j != i && c.testable >= rule.min_testable)
                .max_by(|(ja, a), (jb, b)| a.share().total_cmp(&b.share()).then(jb.cmp(ja)))
                .map(|(_, c)| *c);
            (
                Some(pooled[i].lag),
                LagVerdict::Describes {
                    lag: pooled[i],
                    next,
                    left_out,
                },
            )
        }
        (_, Decision::Undetermined { best, next }) => (
            None,
            LagVerdict::Undetermined {
                best: pooled[best],
                next: next.map(|n| pooled[n]),
            },
        ),
        (_, Decision::TooFew) => (
            None,
            LagVerdict::TooFew {
                testable: pooled.iter().map(|c| c.testable).max().unwrap_or(0),
                needed: rule.min_testable,
                max_births: step.map(|s| rule.max_births(s)),
            },
        ),
    };
    LagReport {
        lag,
        verdict,
        step,
        rule: *rule,
        lags: pooled,
        years,
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(LagVerdict, YearLags, LagReport);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A small deterministic generator (SplitMix64) for the generated panels.
    struct Draws(u64);

    impl Draws {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        /// A whole number in `low..=high`.
        fn int(&mut self, low: u64, high: u64) -> u64 {
            low + self.next() % (high - low + 1)
        }
    }

    /// The births and deaths of each (area, year) of a generated panel.
    pub(crate) type Truth = BTreeMap<(usize, i64), (u64, u64)>;

    /// A panel of `areas` areas: births of 2010–2020 (drawn anew each year in 20..=400, or one
    /// draw for every year when `constant`), whole deaths drawn in 0..=4, and the rates of
    /// 2013–2020 rounded to whole numbers from the deaths and births of `lag` years before, as
    /// an agency publishing late does. Returns the observations and the true deaths.
    pub(crate) fn generated(
        seed: u64,
        areas: usize,
        lag: u32,
        constant: bool,
    ) -> (Vec<Observation<usize>>, Truth) {
        let mut draws = Draws(seed);
        let mut truth = BTreeMap::new();
        for area in 0..areas {
            let fixed = draws.int(20, 400);
            for year in 2010..=2020 {
                let births = if constant { fixed } else { draws.int(20, 400) };
                truth.insert((area, year), (births, draws.int(0, 4)));
            }
        }
        let mut observations = Vec::new();
        for (&(area, year), &(births, _)) in &truth {
            let rate = (year >= 2013).then(|| {
                let (b, d) = truth[&(area, year - i64::from(lag))];
                (1000.0 * d as f64 / b as f64).round()
            });
            observations.push(Observation {
                entity: area,
                year,
                rate,
                births: Some(births as f64),
            });
        }
        (observations, truth)
    }

    #[test]
    fn a_pair_fits_when_a_whole_number_of_deaths_rounds_to_the_rate() {
        let test = |rate, births| test_pair(rate, births, 1.0, 0.4);
        // 1 death in 127 births is 7.87 ‰, published 8: the window 0.952..1.079 holds 1.
        assert_eq!(
            test(8.0, 127.0),
            PairTest::Tested {
                width: 0.127,
                fits: true
            }
        );
        // 8 ‰ on 150 births: 1.125..1.275 deaths, no whole number.
        assert_eq!(
            test(8.0, 150.0),
            PairTest::Tested {
                width: 0.15,
                fits: false
            }
        );
        // 1 death in 200 births is exactly 5 ‰: the window 0.9..1.1 holds it.
        assert!(matches!(
            test(5.0, 200.0),
            PairTest::Tested { fits: true, .. }
        ));
        // The bounds themselves: 3 ‰ on 100 births is 0.25..0.35 deaths, none; 10 ‰ on 50 is
        // 0.475..0.525, none; 20 ‰ on 50 is 0.975..1.025: 1.
        assert!(matches!(
            test(3.0, 100.0),
            PairTest::Tested { fits: false, .. }
        ));
        assert!(matches!(
            test(10.0, 50.0),
            PairTest::Tested { fits: false, .. }
        ));
        assert!(matches!(
            test(20.0, 50.0),
            PairTest::Tested { fits: true, .. }
        ));
        // A half rounds either way: 1 death in 400 births is 2.5 ‰, published 3 (half up) or 2
        // (half to even); 1.0 is the low end of 3's window and the high end of 2's.
        assert!(matches!(
            test(3.0, 400.0),
            PairTest::Tested { fits: true, .. }
        ));
        assert!(matches!(
            test(2.0, 400.0),
            PairTest::Tested { fits: true, .. }
        ));
        // Not testable: a rate of 0 (fits anything), no births, a window above 0.4 deaths, NaN.
        for (rate, births) in [(0.0, 100.0), (5.0, 0.0), (5.0, 401.0), (f64::NAN, 100.0)] {
            assert_eq!(test(rate, births), PairTest::NotTestable, "{rate} {births}");
        }
        // A rate above 1000 ‰ needs more deaths than births: never fits.
        assert!(matches!(
            test(2000.0, 10.0),
            PairTest::Tested { fits: false, .. }
        ));
        // On a step of 0.1: 1 death in 1,234 births is 0.810 ‰, published 0.8; window 0.1234.
        assert!(matches!(
            test_pair(0.8, 1234.0, 0.1, 0.4),
            PairTest::Tested { fits: true, .. }
        ));
        assert!(matches!(
            test_pair(0.9, 1234.0, 0.1, 0.4),
            PairTest::Tested { fits: false, .. }
        ));
        assert_eq!(test_pair(0.8, 4001.0, 0.1, 0.4), PairTest::NotTestable);
    }

    #[test]
    fn the_step_is_read_from_the_rates() {
        assert_eq!(rate_step(&[0.0, 3.0, 12.0]), Some(1.0));
        assert_eq!(rate_step(&[0.0, 3.5, 12.0]), Some(0.1));
        assert_eq!(rate_step(&[3.25, 1.0]), Some(0.01));
        assert_eq!(rate_step(&[2.71234]), None);
        assert_eq!(rate_step(&[0.0, -1.0, f64::INFINITY]), None);
    }

    #[test]
    fn a_known_lag_is_found_for_every_lag_tested_and_each_rate_year_says_it_too() {
        for lag in 0..=MAX_TESTED_LAG {
            let (observations, _) = generated(7 + u64::from(lag), 150, lag, false);
            let report = detect(&observations);
            assert_eq!(report.lag, Some(lag), "{}", report.verdict);
            assert_eq!(report.step, Some(1.0));
            let count = report.lags[lag as usize];
            // Every testable pair of the true lag fits; the others near chance.
            assert_eq!(count.fits, count.testable);
            assert!(count.testable > 400, "{count:?}");
            for other in report.lags.iter().filter(|c| c.lag != lag) {
                assert!(other.share() < 0.45, "{other:?}");
                assert!((other.share() - other.chance).abs() < 0.1, "{other:?}");
            }
            assert!(report.years.iter().all(|y| y.lag == Some(lag)));
            assert_eq!(
                report.years.iter().map(|y| y.year).collect::<Vec<_>>(),
                (2013..=2020).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn constant_births_or_too_few_pairs_say_so_rather_than_a_lag() {
        // Births the same every year: each lag fits every pair, none can be told apart.
        let (observations, _) = generated(3, 150, 2, true);
        let report = detect(&observations);
        assert_eq!(report.lag, None);
        let LagVerdict::Undetermined { best, next } = report.verdict else {
            panic!("{:?}", report.verdict)
        };
        assert_eq!((best.share(), next.map(|n| n.share())), (1.0, Some(1.0)));
        // 2 areas: at most 2 × 8 pairs a lag, below 20.
        let (observations, _) = generated(3, 2, 2, false);
        let report = detect(&observations);
        assert_eq!(report.lag, None);
        assert!(matches!(
            report.verdict,
            LagVerdict::TooFew {
                needed: 20,
                max_births: Some(b),
                ..
            } if b == 400.0
        ));
        assert!(report.years.iter().all(|y| y.too_few && y.lag.is_none()));
        // Rates of 0 only, or no rates: nothing to test.
        let zeros: Vec<Observation<usize>> = (0..50)
            .map(|e| Observation {
                entity: e,
                year: 2020,
                rate: Some(0.0),
                births: Some(100.0),
            })
            .collect();
        assert!(matches!(
            detect(&zeros).verdict,
            LagVerdict::TooFew {
                max_births: None,
                ..
            }
        ));
        assert!(detect::<usize>(&[]).years.is_empty());
        // Rates on no step: not testable.
        let mut unrounded = zeros.clone();
        unrounded[0].rate = Some(2.71234);
        assert_eq!(detect(&unrounded).verdict, LagVerdict::NotRounded);
    }

    /// Counts of one lag with a given share and chance.
    fn count(lag: u32, fits: usize, testable: usize, chance: f64) -> LagCount {
        LagCount {
            lag,
            testable,
            fits,
            chance,
        }
    }

    #[test]
    fn each_part_of_the_rule_can_refuse_a_verdict() {
        let rule = LagRule::DEFAULT;
        let clear = [
            count(0, 30, 100, 0.2),
            count(1, 40, 100, 0.2),
            count(2, 95, 100, 0.2),
        ];
        assert_eq!(decide(&clear, &rule), Decision::Lag(2));
        // 1. below 90%
        let mut c = clear;
        c[2].fits = 89;
        assert!(matches!(
            decide(&c, &rule),
            Decision::Undetermined {
                best: 2,
                next: Some(1)
            }
        ));
        // exactly 90% passes
        c[2].fits = 90;
        assert_eq!(decide(&c, &rule), Decision::Lag(2));
        // 2. not 50 points above chance (a window bound that lets chance reach 0.5)
        let mut c = clear;
        c[2].chance = 0.46;
        assert!(matches!(decide(&c, &rule), Decision::Undetermined { .. }));
        // 3. another lag within 25 points
        let mut c = clear;
        c[1].fits = 71;
        assert!(matches!(
            decide(&c, &rule),
            Decision::Undetermined {
                best: 2,
                next: Some(1)
            }
        ));
        c[1].fits = 70;
        assert_eq!(decide(&c, &rule), Decision::Lag(2));
        // ... unless that lag has too few pairs to be measured
        c[1] = count(1, 19, 19, 0.2);
        assert_eq!(decide(&c, &rule), Decision::Lag(2));
        // no other lag measured at all: nothing to compare with
        let alone = [
            count(0, 5, 5, 0.2),
            count(1, 0, 0, 0.0),
            count(2, 95, 100, 0.2),
        ];
        assert_eq!(
            decide(&alone, &rule),
            Decision::Undetermined {
                best: 2,
                next: None
            }
        );
        // every lag below 20 testable pairs
        let few = [count(0, 19, 19, 0.2), count(2, 19, 19, 0.2)];
        assert_eq!(decide(&few, &rule), Decision::TooFew);
    }

    #[test]
    fn a_copied_rate_year_is_left_out_of_the_pooled_count_and_fits_the_year_it_copies() {
        // Rates of 2013–2020 with lag 2, then 2021's rates a copy of 2020's (as SINIM 2022).
        let (mut observations, _) = generated(11, 150, 2, false);
        let copies: Vec<Observation<usize>> = observations
            .iter()
            .filter(|o| o.year == 2020)
            .map(|o| Observation {
                year: 2021,
                births: None,
                ..*o
            })
            .collect();
        observations.extend(copies);
        let report = detect(&observations);
        assert_eq!(report.lag, Some(2));
        let last = report.years.last().unwrap();
        assert_eq!((last.year, last.repeats), (2021, Some(2020)));
        // Its rates describe 2018: lag 3 for the year labelled 2021.
        assert_eq!(last.lag, Some(3));
        let LagVerdict::Describes { left_out, .. } = &report.verdict else {
            panic!()
        };
        assert_eq!(
            left_out,
            &[RepeatedYear {
                time: 2021,
                repeat_of: 2020
            }]
        );
        // The pooled count is the other years' sum.
        let sum: usize = report
            .years
            .iter()
            .filter(|y| y.year < 2021)
            .map(|y| y.lags[2].testable)
            .sum();
        assert_eq!(report.lags[2].testable, sum);
        assert!(report
            .text(Lang::En)
            .ends_with("Left out: 2021, whose rates repeat 2020's."));
    }

    #[test]
    fn the_verdicts_are_worded_in_both_languages() {
        let describes = LagVerdict::Describes {
            lag: count(2, 126, 127, 0.2),
            next: Some(count(1, 46, 127, 0.2)),
            left_out: vec![],
        };
        assert_eq!(
            describes.to_string(),
            "The rates of year Y fit the births of year Y−2 in 126 of 127 testable area-years \
             (chance alone: about 20%; next best, Y−1: 46 of 127): they describe year Y−2."
        );
        assert_eq!(
            describes.text(Lang::Es),
            "Las tasas del año A calzan con los nacimientos del año A−2 en 126 de 127 pares \
             comuna-año comprobables (por azar, cerca de un 20%; la siguiente, A−1: 46 de 127): \
             describen el año A−2."
        );
        let own = LagVerdict::Describes {
            lag: count(0, 1260, 1270, 0.2),
            next: Some(count(3, 46, 127, 0.2)),
            left_out: vec![RepeatedYear {
                time: 2022,
                repeat_of: 2021,
            }],
        };
        assert!(own.to_string().contains("1,260 of 1,270"));
        assert!(own
            .to_string()
            .contains("they describe their own year. Left out: 2022"));
        assert!(own.text(Lang::Es).contains("1.260 de 1.270"));
        let all = [
            describes,
            own,
            LagVerdict::Undetermined {
                best: count(1, 70, 100, 0.2),
                next: Some(count(0, 65, 100, 0.2)),
            },
            LagVerdict::Undetermined {
                best: count(0, 100, 100, 0.2),
                next: None,
            },
            LagVerdict::TooFew {
                testable: 12,
                needed: 20,
                max_births: Some(400.0),
            },
            LagVerdict::TooFew {
                testable: 0,
                needed: 20,
                max_births: None,
            },
            LagVerdict::NotRounded,
        ];
        for verdict in &all {
            let es = verdict.text(Lang::Es);
            assert_ne!(es, verdict.to_string());
            assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
            // In JSON, the English sentence.
            assert_eq!(
                serde_json::to_value(verdict).unwrap(),
                serde_json::json!(verdict.to_string())
            );
        }
        assert!(all[4].to_string().contains("at most 12 area-years"));
        assert!(all[4].to_string().contains("at most 400 births"));
        let years = [
            YearLags {
                year: 2019,
                lag: Some(2),
                repeats: None,
                lags: vec![count(0, 42, 133, 0.2), count(2, 126, 127, 0.2)],
                too_few: false,
            },
            YearLags {
                year: 2022,
                lag: Some(3),
                repeats: Some(2021),
                lags: vec![count(3, 130, 134, 0.2)],
                too_few: false,
            },
            YearLags {
                year: 2018,
                lag: None,
                repeats: None,
                lags: vec![count(0, 60, 100, 0.2), count(1, 62, 100, 0.2)],
                too_few: false,
            },
            YearLags {
                year: 2017,
                lag: None,
                repeats: None,
                lags: vec![count(0, 3, 5, 0.2)],
                too_few: true,
            },
        ];
        let en: Vec<String> = years.iter().map(|y| y.text(Lang::En)).collect();
        assert_eq!(
            en,
            [
                "2019: the births of 2017 (126 of 127)",
                "2022: the births of 2019 (130 of 134; its rates repeat 2021's)",
                "2018: undetermined (best, the births of 2017: 62 of 100)",
                "2017: too few testable area-years (5)"
            ]
        );
        for y in &years {
            let es = y.text(Lang::Es);
            assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
        }
    }

    proptest! {
        /// Any generated panel with a known lag: that lag is found, and each rate year finds
        /// it too.
        #[test]
        fn a_generated_lag_is_found(seed in any::<u64>(), lag in 0u32..=MAX_TESTED_LAG) {
            let (observations, _) = generated(seed, 120, lag, false);
            let report = detect(&observations);
            prop_assert_eq!(report.lag, Some(lag));
            prop_assert!(report.years.iter().all(|y| y.lag == Some(lag)));
        }

        /// With births constant over the years no lag is ever claimed.
        #[test]
        fn constant_births_never_give_a_lag(seed in any::<u64>(), lag in 0u32..=MAX_TESTED_LAG) {
            let (observations, _) = generated(seed, 80, lag, true);
            prop_assert_eq!(detect(&observations).lag, None);
        }

        /// Whatever the numbers (NaN, negative, infinite, huge years), the detection answers.
        #[test]
        fn any_input_gives_a_report(
            rows in proptest::collection::vec(
                (0u8..5, -3i64..3, proptest::option::of(prop_oneof![any::<f64>(), 0.0..50.0]),
                 proptest::option::of(prop_oneof![any::<f64>(), 0.0..500.0])),
                0..60),
        ) {
            let observations: Vec<Observation<u8>> = rows
                .into_iter()
                .map(|(entity, year, rate, births)| Observation { entity, year: year * 333_333, rate, births })
                .collect();
            let report = detect(&observations);
            for c in &report.lags {
                prop_assert!(c.fits <= c.testable);
                prop_assert!((0.0..=0.4).contains(&c.chance));
            }
            let _ = report.text(Lang::Es);
            let _ = report.by_year_text(Lang::En);
        }
    }
}
