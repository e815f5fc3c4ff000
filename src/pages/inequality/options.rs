//! The reader's choices of the Inequality view and how each is written in the URL fragment, so
//! that a shared link reopens the same analysis (see the keys in [`super`]). Plain functions,
//! tested natively.

use crate::fragment::fragment;
use imr_core::inequality::adjusted::BirthsRatioRange;
use imr_core::inequality::{Measure, SubjectKind, DEFAULT_SEED};
use imr_core::panel::Panel;
use leptos::prelude::*;

/// Bootstrap replicates on the page: fewer than the command line's default (1,000) so that the
/// view answers in about a second in the browser; the command shown reproduces the same numbers.
pub const PAGE_REPLICATES: usize = 200;

/// Most bootstrap replicates the page accepts (the input's `max`).
pub const MAX_REPLICATES: usize = 5000;

/// A column chosen for a role (group, rank, second subject, its weight).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnChoice {
    /// Not chosen yet: the data's default applies once the data are known
    /// ([`ColumnChoice::resolve`]). Written as an empty value.
    Default,
    /// "(none)" chosen. Written as `-`.
    Nothing,
    /// A column by name. Written as the name.
    Column(String),
}

impl ColumnChoice {
    /// The fragment's value of a choice.
    pub fn write(&self) -> String {
        match self {
            ColumnChoice::Default => String::new(),
            ColumnChoice::Nothing => "-".to_owned(),
            ColumnChoice::Column(c) => c.clone(),
        }
    }

    /// A choice from the fragment's value (every value reads).
    pub fn read(s: &str) -> Option<ColumnChoice> {
        Some(match s {
            "" => ColumnChoice::Default,
            "-" => ColumnChoice::Nothing,
            c => ColumnChoice::Column(c.to_owned()),
        })
    }

    /// The column of a select's value (`""` is "(none)").
    pub fn from_select(value: String) -> ColumnChoice {
        if value.is_empty() {
            ColumnChoice::Nothing
        } else {
            ColumnChoice::Column(value)
        }
    }

    /// The column named, if any.
    pub fn column(&self) -> Option<&str> {
        match self {
            ColumnChoice::Column(c) => Some(c),
            _ => None,
        }
    }

    /// The choice to keep on data with `columns`: the default when not chosen yet or when the
    /// chosen column is not in the data (new data loaded), else the choice itself. `None`:
    /// keep the choice as it is.
    pub fn resolve(&self, columns: &[String], default: Option<&str>) -> Option<ColumnChoice> {
        let fallback = || match default {
            Some(d) => ColumnChoice::Column(d.to_owned()),
            None => ColumnChoice::Nothing,
        };
        match self {
            ColumnChoice::Default => Some(fallback()),
            ColumnChoice::Column(c) if !columns.iter().any(|n| n == c) => Some(fallback()),
            _ => None,
        }
    }
}

/// The data's default columns: group by region, rank by poverty, health income per capita
/// weighted by births (the bundled births column is registered births estimated per commune), each when the
/// data have it.
pub struct Defaults {
    pub group: Option<&'static str>,
    pub rank: Option<&'static str>,
    pub of: Option<&'static str>,
    pub weight: Option<&'static str>,
}

impl Defaults {
    pub fn of(panel: &Panel) -> Defaults {
        let has_text = |n: &str| panel.text_names.iter().any(|t| t == n);
        let has_num = |n: &str| panel.numeric_names.iter().any(|t| t == n);
        Defaults {
            group: has_text("region").then_some("region"),
            rank: has_num("pobreza").then_some("pobreza"),
            // Municipal health money: spending per inhabitant (2006–2012 in the bundled data),
            // else income (2019–2021), the study's Models defaults (imr_core::data::study).
            of: imr_core::data::study::stand_ins()
                .flat_map(|(default, stand_in)| [default, stand_in])
                .find(|c| has_num(c)),
            weight: panel.has_births.then_some("births"),
        }
    }
}

/// A measure in the fragment: its JSON key (as `imr inequality --measure` takes it).
pub fn write_measure(m: &Measure) -> String {
    m.key(SubjectKind::Rate).to_owned()
}

/// A measure from its key.
pub fn read_measure(s: &str) -> Option<Measure> {
    Measure::from_key(s)
}

/// The Lorenz years in the fragment: empty for the default (first and last year), `-` for none,
/// else the years comma-separated.
pub fn write_years(years: &Option<Vec<i64>>) -> String {
    match years {
        None => String::new(),
        Some(ys) if ys.is_empty() => "-".to_owned(),
        Some(ys) => ys.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
    }
}

/// The Lorenz years from the fragment (`None` when a year does not read: the default).
pub fn read_years(s: &str) -> Option<Option<Vec<i64>>> {
    match s {
        "" => Some(None),
        "-" => Some(Some(Vec::new())),
        s => s
            .split(',')
            .map(|y| y.trim().parse().ok())
            .collect::<Option<Vec<i64>>>()
            .map(|mut ys| {
                ys.sort_unstable();
                ys.dedup();
                Some(ys)
            }),
    }
}

/// The Lorenz years after the checkbox of `year` is set `on` (ascending, each once).
pub fn toggle_year(years: &[i64], year: i64, on: bool) -> Vec<i64> {
    let mut ys: Vec<i64> = years.iter().copied().filter(|y| *y != year).collect();
    if on {
        ys.push(year);
        ys.sort_unstable();
    }
    ys
}

/// Bootstrap replicates from the fragment or the input, at most [`MAX_REPLICATES`].
pub fn read_replicates(s: &str) -> Option<usize> {
    s.trim()
        .parse::<usize>()
        .ok()
        .map(|n| n.min(MAX_REPLICATES))
}

/// The range after one end is set to `percent` (of the births given) from an input: `Ok(None)`
/// when it is the default range, `Err` when the text is not a number or the range is not one
/// `imr inequality --births-ratio` takes (the same rule, [`BirthsRatioRange`]'s `FromStr`).
pub fn births_ratio_with_end(
    range: Option<BirthsRatioRange>,
    high_end: bool,
    percent: &str,
) -> Result<Option<BirthsRatioRange>, String> {
    let ratio = percent
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("`{percent}` is not a number"))?
        / 100.0;
    let mut new = range.unwrap_or_default();
    match high_end {
        true => new.high = ratio,
        false => new.low = ratio,
    }
    let new: BirthsRatioRange = new.to_string().parse()?;
    Ok((new != BirthsRatioRange::default()).then_some(new))
}

/// A ratio as the percent an input shows (at most two decimals: 1.1 is `110`, not
/// `110.00000000000001`).
pub fn ratio_percent(ratio: f64) -> String {
    ((ratio * 10_000.0).round() / 100.0).to_string()
}

/// The reader's choices, each kept in the URL fragment under its key.
#[derive(Clone, Copy)]
pub struct InequalityOptions {
    pub group: RwSignal<ColumnChoice>,
    pub rank: RwSignal<ColumnChoice>,
    pub replicates: RwSignal<usize>,
    pub seed: RwSignal<u64>,
    pub of: RwSignal<ColumnChoice>,
    pub weight: RwSignal<ColumnChoice>,
    pub measure: RwSignal<Measure>,
    pub panel_measure: RwSignal<Measure>,
    /// `None`: the first and last year.
    pub lorenz_years: RwSignal<Option<Vec<i64>>>,
    /// `None`: the engine's range (0.7–1.0).
    pub births_ratio: RwSignal<Option<BirthsRatioRange>>,
}

impl InequalityOptions {
    pub fn from_fragment() -> InequalityOptions {
        let f = fragment();
        let column = |key| {
            f.synced_with(
                key,
                ColumnChoice::Default,
                ColumnChoice::write,
                ColumnChoice::read,
            )
        };
        InequalityOptions {
            group: column("ineq-group"),
            rank: column("ineq-rank"),
            replicates: f.synced_with(
                "ineq-replicates",
                PAGE_REPLICATES,
                usize::to_string,
                read_replicates,
            ),
            seed: f.synced("ineq-seed", DEFAULT_SEED),
            of: column("ineq-of"),
            weight: column("ineq-weight"),
            measure: f.synced_with("ineq-measure", Measure::Gini, write_measure, read_measure),
            panel_measure: f.synced_with(
                "ineq-panel-measure",
                Measure::Gini,
                write_measure,
                read_measure,
            ),
            lorenz_years: f.synced_with("ineq-lorenz", None, write_years, read_years),
            // One setting with the Findings' inequality answer (kept by the app's AnalysisState).
            births_ratio: expect_context::<crate::state::AnalysisState>().births_ratio,
        }
    }

    /// Puts the data's defaults in place of choices not made yet or naming columns the data
    /// lack (run when the data change).
    pub fn resolve(&self, panel: &Panel) {
        let d = Defaults::of(panel);
        let numeric = panel.numeric_variables();
        let all: Vec<String> = numeric.iter().chain(&panel.text_names).cloned().collect();
        for (signal, columns, default) in [
            (self.group, &all, d.group),
            (self.rank, &numeric, d.rank),
            (self.of, &numeric, d.of),
            (self.weight, &numeric, d.weight),
        ] {
            if let Some(v) = signal.with_untracked(|c| c.resolve(columns, default)) {
                signal.set(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_choices_round_trip_through_the_fragment() {
        for c in [
            ColumnChoice::Default,
            ColumnChoice::Nothing,
            ColumnChoice::Column("region".into()),
        ] {
            assert_eq!(ColumnChoice::read(&c.write()), Some(c));
        }
        assert_eq!(
            ColumnChoice::from_select(String::new()),
            ColumnChoice::Nothing
        );
    }

    #[test]
    fn a_choice_not_made_or_not_in_the_data_takes_the_default() {
        let cols = vec!["region".to_string()];
        assert_eq!(
            ColumnChoice::Default.resolve(&cols, Some("region")),
            Some(ColumnChoice::Column("region".into()))
        );
        assert_eq!(
            ColumnChoice::Default.resolve(&cols, None),
            Some(ColumnChoice::Nothing)
        );
        assert_eq!(
            ColumnChoice::Column("gone".into()).resolve(&cols, None),
            Some(ColumnChoice::Nothing)
        );
        assert_eq!(
            ColumnChoice::Column("region".into()).resolve(&cols, None),
            None
        );
        assert_eq!(ColumnChoice::Nothing.resolve(&cols, Some("region")), None);
    }

    #[test]
    fn lorenz_years_round_trip_and_bad_years_fall_back() {
        for ys in [None, Some(vec![]), Some(vec![2019, 2023])] {
            assert_eq!(read_years(&write_years(&ys)), Some(ys));
        }
        assert_eq!(read_years("2023,2019,2023"), Some(Some(vec![2019, 2023])));
        assert_eq!(read_years("2019,x"), None);
    }

    #[test]
    fn ticking_a_year_keeps_the_years_in_order_once() {
        assert_eq!(
            toggle_year(&[2019, 2023], 2021, true),
            vec![2019, 2021, 2023]
        );
        assert_eq!(toggle_year(&[2019, 2023], 2023, true), vec![2019, 2023]);
        assert_eq!(toggle_year(&[2019, 2023], 2019, false), vec![2023]);
    }

    #[test]
    fn an_end_of_the_births_ratio_range_set_in_percent_keeps_the_rule() {
        let narrow = BirthsRatioRange {
            low: 0.9,
            high: 1.1,
        };
        // From the default 70–100: the upper end to 110, then the lower to 90.
        let wider = births_ratio_with_end(None, true, "110").unwrap();
        assert_eq!(wider.map(|r| (r.low, r.high)), Some((0.7, 1.1)));
        assert_eq!(
            births_ratio_with_end(wider, false, " 90 "),
            Ok(Some(narrow))
        );
        // Back to the default is no range at all (the command stays without the option).
        assert_eq!(births_ratio_with_end(wider, true, "100"), Ok(None));
        assert!(births_ratio_with_end(Some(narrow), false, "120").is_err());
        assert!(births_ratio_with_end(None, true, "0").is_err());
        assert!(births_ratio_with_end(None, true, "abc").is_err());
        assert_eq!(ratio_percent(1.1), "110");
        assert_eq!(ratio_percent(0.7), "70");
        assert_eq!(ratio_percent(0.125), "12.5");
    }

    #[test]
    fn replicates_are_capped_and_measures_read_by_key() {
        assert_eq!(read_replicates("100000"), Some(MAX_REPLICATES));
        assert_eq!(read_replicates("-1"), None);
        assert_eq!(
            read_measure(&write_measure(&Measure::TheilT)),
            Some(Measure::TheilT)
        );
        assert_eq!(read_measure("nope"), None);
    }
}
