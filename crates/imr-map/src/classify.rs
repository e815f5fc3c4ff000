//! Classification of a variable into map classes, following GeoDa's definitions.
//!
//! # Conventions
//! * Classes are numbered from 0 (lowest). A value equal to a break goes to the class above it:
//!   class j holds b_{j−1} ≤ v < b_j (GeoDa's natural breaks on 1..9 report breaks [4, 7], the
//!   first value of each upper class). The box map's upper outlier class is strict: v > upper fence.
//! * Percentiles are GeoDa's (`Gda::percentile`): Hazen's definition (Hyndman & Fan 1996, type 5).
//!   With the sorted values x₁ ≤ … ≤ x_n and h = n·p + 0.5: Q(p) = x₁ if h < 1, x_n if h ≥ n, else
//!   x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋).
//! * Missing values (`None`, or not finite) are counted as no data and get no class.
//!
//! Golden values: GeoDa on the data 1..9 (`tests/reference/README.md`), in the tests below.

/// How to classify.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Method {
    /// k classes with (about) equal counts: breaks Q(j/k), j = 1..k−1. Ties can make breaks
    /// coincide; coinciding breaks, and breaks at the minimum, are dropped, so fewer classes result.
    Quantile { classes: usize },
    /// k classes of equal width: breaks min + j·(max − min)/k.
    EqualInterval { classes: usize },
    /// Jenks natural breaks: the k-class partition of the sorted values minimising the total
    /// within-class sum of squared deviations, found exactly by Fisher's (1958) dynamic programme.
    /// k is reduced to the number of distinct values when there are fewer.
    NaturalBreaks { classes: usize },
    /// Tukey box map (GeoDa): breaks [Q1 − h·IQR, Q1, median, Q3, Q3 + h·IQR], six classes
    /// (lower outlier, < 25%, 25–50%, 50–75%, > 75%, upper outlier). GeoDa's hinge is 1.5 or 3.
    BoxMap { hinge: f64 },
    /// Standard deviation map (GeoDa): breaks at mean + {−2, −1, 0, 1, 2}·s, with s the sample
    /// standard deviation (n − 1); six classes.
    StdDev,
    /// Percentile map (GeoDa): breaks Q(0.01), Q(0.10), Q(0.50), Q(0.90), Q(0.99); six classes.
    Percentile,
    /// User breaks, strictly increasing; breaks.len() + 1 classes, the outer ones open.
    Custom { breaks: Vec<f64> },
}

impl Method {
    /// The number of classes asked for, for the methods that take one (quantiles, equal
    /// intervals, natural breaks); the others fix theirs.
    pub fn requested_classes(&self) -> Option<usize> {
        match self {
            Method::Quantile { classes }
            | Method::EqualInterval { classes }
            | Method::NaturalBreaks { classes } => Some(*classes),
            _ => None,
        }
    }

    /// A short name for legends and file names.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Quantile { .. } => "quantile",
            Method::EqualInterval { .. } => "equal intervals",
            Method::NaturalBreaks { .. } => "natural breaks (Jenks)",
            Method::BoxMap { .. } => "box map",
            Method::StdDev => "standard deviations",
            Method::Percentile => "percentiles",
            Method::Custom { .. } => "custom breaks",
        }
    }

    /// [`Method::name`] in a language.
    pub fn name_in(&self, lang: imr_stats::Lang) -> &'static str {
        let es = match self {
            Method::Quantile { .. } => "cuantiles",
            Method::EqualInterval { .. } => "intervalos iguales",
            Method::NaturalBreaks { .. } => "cortes naturales (Jenks)",
            Method::BoxMap { .. } => "mapa de caja",
            Method::StdDev => "desviaciones estándar",
            Method::Percentile => "percentiles",
            Method::Custom { .. } => "cortes definidos",
        };
        lang.pick(es, self.name())
    }

    /// True for the methods whose classes sit either side of a centre (box map, standard
    /// deviations, percentiles), which a diverging colour scheme shows best.
    pub fn is_centred(&self) -> bool {
        matches!(
            self,
            Method::BoxMap { .. } | Method::StdDev | Method::Percentile
        )
    }
}

/// Why a classification is not possible.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClassifyError {
    #[error("no area has a value to classify")]
    NoData,
    #[error("the number of classes must be between 1 and 12, not {0}")]
    BadClassCount(usize),
    #[error("custom breaks must be finite and strictly increasing: {0:?}")]
    BadBreaks(Vec<f64>),
    #[error("the box map hinge must be positive, not {0}")]
    BadHinge(f64),
}

impl ClassifyError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: crate::Lang) -> String {
        match (self, lang) {
            (_, crate::Lang::En) => self.to_string(),
            (ClassifyError::NoData, _) => "ningún área tiene un valor que clasificar".into(),
            (ClassifyError::BadClassCount(n), _) => {
                format!("el número de clases debe estar entre 1 y 12, no {n}")
            }
            (ClassifyError::BadBreaks(b), _) => {
                format!("los cortes deben ser finitos y estrictamente crecientes: {b:?}")
            }
            (ClassifyError::BadHinge(h), _) => {
                format!("la bisagra del mapa de caja debe ser positiva, no {h}")
            }
        }
    }
}

/// One class of a legend.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassInfo {
    /// Lower limit (−∞ for an open lowest class).
    pub lower: f64,
    /// Upper limit (+∞ for an open highest class).
    pub upper: f64,
    /// Number of areas in the class.
    pub count: usize,
    /// GeoDa's class name where it has one ("Lower outlier", "< 25%", "> 2 SD", …).
    pub name: Option<String>,
}

impl ClassInfo {
    /// "5.0 – 7.3", "< −4.0", "≥ 14.0", prefixed by the class name if any.
    pub fn label(&self, decimals: usize) -> String {
        self.label_in(decimals, imr_stats::Lang::En)
    }

    /// [`ClassInfo::label`] in a language: the limits with its decimal mark (`9,0 – 111,0`,
    /// [`format_number_in`]) and GeoDa's class name in its words ([`class_name_in`]).
    pub fn label_in(&self, decimals: usize, lang: imr_stats::Lang) -> String {
        let f = |v: f64| format_number_in(v, decimals, lang);
        let limits = match (self.lower.is_finite(), self.upper.is_finite()) {
            (true, true) => format!("{} – {}", f(self.lower), f(self.upper)),
            (false, true) => format!("< {}", f(self.upper)),
            (true, false) => format!("> {}", f(self.lower)),
            (false, false) => lang.pick("todos", "all").into(),
        };
        match &self.name {
            Some(name) => format!("{}: {limits}", class_name_in(name, lang)),
            None => limits,
        }
    }
}

/// GeoDa's class names ([`classify_excluding`] gives them to box, standard-deviation and
/// percentile maps) in Spanish and English.
const CLASS_NAMES: [(&str, &str); 9] = [
    ("Lower outlier", "Atípico inferior"),
    ("Upper outlier", "Atípico superior"),
    ("< −2 SD", "< −2 DE"),
    ("−2 SD to −1 SD", "−2 DE a −1 DE"),
    ("−1 SD to mean", "−1 DE a la media"),
    ("mean to 1 SD", "media a 1 DE"),
    ("1 SD to 2 SD", "1 DE a 2 DE"),
    ("> 2 SD", "> 2 DE"),
    ("", ""),
];

/// A class name in `lang`: GeoDa's English name, its Spanish words, or the name as it is (a
/// percentage range such as "25% – 50%" reads the same in both).
pub fn class_name_in(name: &str, lang: imr_stats::Lang) -> &str {
    match lang {
        imr_stats::Lang::En => name,
        imr_stats::Lang::Es => CLASS_NAMES
            .iter()
            .find(|(en, _)| *en == name)
            .map(|(_, es)| *es)
            .unwrap_or(name),
    }
}

/// Formats with a fixed number of decimals and a true minus sign (U+2212), as in print.
pub fn format_number(v: f64, decimals: usize) -> String {
    format_number_in(v, decimals, imr_stats::Lang::En)
}

/// [`format_number`] in a language: in Spanish with its thousands point and decimal comma
/// (`1.234,5`, as the page writes numbers), in English as [`format_number`] always did.
pub fn format_number_in(v: f64, decimals: usize, lang: imr_stats::Lang) -> String {
    let s = lang.figure(v, decimals);
    match s.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => s,
    }
}

/// The result of classifying a variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Classification {
    pub method: Method,
    /// Breaks between classes, ascending (classes.len() − 1 of them).
    pub breaks: Vec<f64>,
    pub classes: Vec<ClassInfo>,
    /// Class of each input value, `None` for no data.
    pub class_of: Vec<Option<usize>>,
    /// Number of values with no data.
    pub no_data: usize,
    /// Number of values left out of the breaks ([`classify_excluding`]); they are still classed.
    pub excluded_from_breaks: usize,
}

fn class_of_value(method: &Method, breaks: &[f64], v: f64) -> usize {
    if let Method::BoxMap { .. } = method {
        // Outlier classes are strict on both sides: v < lower fence, v > upper fence.
        if v < breaks[0] {
            return 0;
        }
        if v > breaks[4] {
            return 5;
        }
        return 1 + breaks[1..4].iter().filter(|&&b| b <= v).count();
    }
    breaks.iter().filter(|&&b| b <= v).count()
}

/// GeoDa's percentile (Hazen, type 5) of sorted values; `p` in [0, 1].
pub fn percentile_hazen(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    let h = n as f64 * p + 0.5;
    if h < 1.0 {
        return sorted[0];
    }
    if h >= n as f64 {
        return sorted[n - 1];
    }
    let lo = h.floor() as usize; // 1-based index
    let frac = h - h.floor();
    sorted[lo - 1] + frac * (sorted[lo] - sorted[lo - 1])
}

/// Classifies `values` (one per area, `None` = no data).
pub fn classify(values: &[Option<f64>], method: &Method) -> Result<Classification, ClassifyError> {
    classify_excluding(values, &[], method)
}

/// Classifies `values` with the breaks computed without the values marked in `excluded` (same
/// index; a missing entry counts as not excluded), e.g. implausible rates that would otherwise
/// set the classes. Excluded values are still classed, in the class their value falls in; when
/// one lies beyond the included values' range, the outer class is made open (−∞ / +∞) so that
/// its limits stay true.
pub fn classify_excluding(
    values: &[Option<f64>],
    excluded: &[bool],
    method: &Method,
) -> Result<Classification, ClassifyError> {
    let is_excluded = |i: usize| excluded.get(i).copied().unwrap_or(false);
    let finite = |v: &Option<f64>| v.filter(|v| v.is_finite());
    let excluded_from_breaks = values
        .iter()
        .enumerate()
        .filter(|(i, v)| is_excluded(*i) && finite(v).is_some())
        .count();
    let mut sorted: Vec<f64> = values
        .iter()
        .enumerate()
        .filter(|(i, _)| !is_excluded(*i))
        .filter_map(|(_, v)| finite(v))
        .collect();
    if sorted.is_empty() && excluded_from_breaks > 0 {
        // Every value is excluded: breaks from none would be no map at all, so use them all.
        return classify(values, method);
    }
    if sorted.is_empty() {
        return Err(ClassifyError::NoData);
    }
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let (min, max) = (sorted[0], sorted[n - 1]);
    let check_k = |k: usize| {
        if (1..=12).contains(&k) {
            Ok(k)
        } else {
            Err(ClassifyError::BadClassCount(k))
        }
    };
    let names = |list: &[&str]| list.iter().map(|s| Some(s.to_string())).collect::<Vec<_>>();
    // (breaks, open lower class, open upper class, class names)
    let (breaks, open_low, open_high, class_names): (Vec<f64>, bool, bool, Vec<Option<String>>) =
        match method {
            Method::Quantile { classes } => {
                let k = check_k(*classes)?;
                let raw: Vec<f64> = (1..k)
                    .map(|j| percentile_hazen(&sorted, j as f64 / k as f64))
                    .collect();
                (tidy_breaks(raw, min), false, false, vec![])
            }
            Method::EqualInterval { classes } => {
                let k = check_k(*classes)?;
                let width = (max - min) / k as f64;
                let raw: Vec<f64> = (1..k).map(|j| min + j as f64 * width).collect();
                (tidy_breaks(raw, min), false, false, vec![])
            }
            Method::NaturalBreaks { classes } => {
                let k = check_k(*classes)?;
                (natural_breaks(&sorted, k), false, false, vec![])
            }
            Method::BoxMap { hinge } => {
                if !(*hinge > 0.0 && hinge.is_finite()) {
                    return Err(ClassifyError::BadHinge(*hinge));
                }
                let q1 = percentile_hazen(&sorted, 0.25);
                let median = percentile_hazen(&sorted, 0.5);
                let q3 = percentile_hazen(&sorted, 0.75);
                let iqr = q3 - q1;
                (
                    vec![q1 - hinge * iqr, q1, median, q3, q3 + hinge * iqr],
                    true,
                    true,
                    names(&[
                        "Lower outlier",
                        "< 25%",
                        "25% – 50%",
                        "50% – 75%",
                        "> 75%",
                        "Upper outlier",
                    ]),
                )
            }
            Method::StdDev => {
                let mean = sorted.iter().sum::<f64>() / n as f64;
                let sd = if n > 1 {
                    (sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
                } else {
                    0.0
                };
                (
                    [-2.0, -1.0, 0.0, 1.0, 2.0]
                        .iter()
                        .map(|z| mean + z * sd)
                        .collect(),
                    true,
                    true,
                    names(&[
                        "< −2 SD",
                        "−2 SD to −1 SD",
                        "−1 SD to mean",
                        "mean to 1 SD",
                        "1 SD to 2 SD",
                        "> 2 SD",
                    ]),
                )
            }
            Method::Percentile => (
                [0.01, 0.10, 0.50, 0.90, 0.99]
                    .iter()
                    .map(|&p| percentile_hazen(&sorted, p))
                    .collect(),
                false,
                false,
                names(&[
                    "< 1%",
                    "1% – 10%",
                    "10% – 50%",
                    "50% – 90%",
                    "90% – 99%",
                    "> 99%",
                ]),
            ),
            Method::Custom { breaks } => {
                let ok =
                    breaks.iter().all(|b| b.is_finite()) && breaks.windows(2).all(|w| w[0] < w[1]);
                if !ok || breaks.len() > 11 {
                    return Err(ClassifyError::BadBreaks(breaks.clone()));
                }
                (breaks.clone(), true, true, vec![])
            }
        };
    let excluded_values = || {
        values
            .iter()
            .enumerate()
            .filter(|(i, _)| is_excluded(*i))
            .filter_map(|(_, v)| finite(v))
    };
    let open_low = open_low || excluded_values().any(|v| v < min);
    let open_high = open_high || excluded_values().any(|v| v > max);
    let k = breaks.len() + 1;
    let mut classes: Vec<ClassInfo> = (0..k)
        .map(|j| ClassInfo {
            lower: if j == 0 {
                if open_low {
                    f64::NEG_INFINITY
                } else {
                    min
                }
            } else {
                breaks[j - 1]
            },
            upper: if j == k - 1 {
                if open_high {
                    f64::INFINITY
                } else {
                    max
                }
            } else {
                breaks[j]
            },
            count: 0,
            name: class_names.get(j).cloned().flatten(),
        })
        .collect();
    let mut no_data = 0;
    let class_of = values
        .iter()
        .map(|v| match v.filter(|v| v.is_finite()) {
            Some(v) => {
                let c = class_of_value(method, &breaks, v);
                classes[c].count += 1;
                Some(c)
            }
            None => {
                no_data += 1;
                None
            }
        })
        .collect();
    Ok(Classification {
        method: method.clone(),
        breaks,
        classes,
        class_of,
        no_data,
        excluded_from_breaks,
    })
}

/// Drops breaks at or below the minimum (they would leave class 0 empty) and repeated breaks.
fn tidy_breaks(raw: Vec<f64>, min: f64) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::with_capacity(raw.len());
    for b in raw {
        if b > min && out.last().is_none_or(|&last| b > last) {
            out.push(b);
        }
    }
    out
}

/// Fisher–Jenks optimal breaks on sorted values, computed on the distinct values weighted by
/// their multiplicity (so equal values never straddle a break). Each break is the smallest value
/// of the class above it.
///
/// # Formula
/// With distinct values u₁ < … < u_m of multiplicities w, the cost of a class {u_a..u_b} is
/// SSD(a, b) = Σw u² − (Σw u)² / Σw over a..b (prefix sums). D\[c\]\[b\] = min over a of
/// D\[c−1\]\[a−1\] + SSD(a, b); the optimal partition is recovered by back-tracking (Fisher 1958,
/// *JASA* 53:789–798; Jenks 1977).
pub fn natural_breaks(sorted: &[f64], classes: usize) -> Vec<f64> {
    let mut values: Vec<f64> = Vec::new();
    let mut weights: Vec<f64> = Vec::new();
    for &v in sorted {
        if values.last() == Some(&v) {
            *weights.last_mut().expect("pushed with the value") += 1.0;
        } else {
            values.push(v);
            weights.push(1.0);
        }
    }
    let m = values.len();
    let k = classes.min(m).max(1);
    // Prefix sums of w, w·u, w·u² (index 0 = empty).
    let mut sw = vec![0.0; m + 1];
    let mut swx = vec![0.0; m + 1];
    let mut swxx = vec![0.0; m + 1];
    for i in 0..m {
        sw[i + 1] = sw[i] + weights[i];
        swx[i + 1] = swx[i] + weights[i] * values[i];
        swxx[i + 1] = swxx[i] + weights[i] * values[i] * values[i];
    }
    // Cost of the class holding distinct values a..=b (0-based).
    let ssd = |a: usize, b: usize| {
        let w = sw[b + 1] - sw[a];
        let s = swx[b + 1] - swx[a];
        ((swxx[b + 1] - swxx[a]) - s * s / w).max(0.0)
    };
    // cost[c][b]: best cost of values 0..=b in c+1 classes; start[c][b]: first index of last class.
    let mut cost = vec![vec![f64::INFINITY; m]; k];
    let mut start = vec![vec![0usize; m]; k];
    for (b, first_class) in cost[0].iter_mut().enumerate() {
        *first_class = ssd(0, b);
    }
    for c in 1..k {
        for b in c..m {
            for a in c..=b {
                let candidate = cost[c - 1][a - 1] + ssd(a, b);
                // Strictly smaller keeps the earliest optimum: deterministic on ties.
                if candidate < cost[c][b] {
                    cost[c][b] = candidate;
                    start[c][b] = a;
                }
            }
        }
    }
    let mut breaks = Vec::with_capacity(k - 1);
    let mut b = m - 1;
    for c in (1..k).rev() {
        let a = start[c][b];
        breaks.push(values[a]);
        b = a - 1;
    }
    breaks.reverse();
    breaks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_to_nine() -> Vec<Option<f64>> {
        (1..=9).map(|v| Some(v as f64)).collect()
    }

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    #[test]
    fn excluded_values_do_not_move_the_breaks_but_are_classed_in_an_open_top_class() {
        let mut values = one_to_nine();
        values.push(Some(1000.0));
        let mut excluded = vec![false; 9];
        excluded.push(true);
        for method in [
            Method::EqualInterval { classes: 4 },
            Method::Quantile { classes: 4 },
            Method::NaturalBreaks { classes: 3 },
        ] {
            let without = classify(&one_to_nine(), &method).unwrap();
            let c = classify_excluding(&values, &excluded, &method).unwrap();
            assert_eq!(c.breaks, without.breaks, "{method:?}");
            assert_eq!(c.excluded_from_breaks, 1);
            let top = c.classes.len() - 1;
            assert_eq!(c.class_of[9], Some(top));
            assert_eq!(c.classes[top].upper, f64::INFINITY);
            assert_eq!(c.classes[top].count, without.classes[top].count + 1);
            assert_eq!(c.classes[0].lower, 1.0);
        }
        // Included, 1000 sets the equal intervals: width (1000 − 1)/4.
        let all = classify(&values, &Method::EqualInterval { classes: 4 }).unwrap();
        assert!(close(&all.breaks, &[250.75, 500.5, 750.25], 1e-9));
        assert_eq!(all.excluded_from_breaks, 0);
    }

    #[test]
    fn excluding_every_value_falls_back_to_all_values() {
        let values = one_to_nine();
        let c = classify_excluding(&values, &[true; 9], &Method::Quantile { classes: 3 }).unwrap();
        assert_eq!(
            c,
            classify(&values, &Method::Quantile { classes: 3 }).unwrap()
        );
    }

    // Golden values: GeoDa on the data 1..9, from tests/reference/README.md ("Map classification").

    #[test]
    fn box_map_with_hinge_one_and_a_half_matches_geoda_on_one_to_nine() {
        let c = classify(&one_to_nine(), &Method::BoxMap { hinge: 1.5 }).unwrap();
        assert!(
            close(&c.breaks, &[-4.0, 2.75, 5.0, 7.25, 14.0], 1e-12),
            "{:?}",
            c.breaks
        );
        // [−4, 2.75): 1, 2; [2.75, 5): 3, 4; [5, 7.25): 5, 6, 7; [7.25, 14]: 8, 9.
        let counts: Vec<usize> = c.classes.iter().map(|k| k.count).collect();
        assert_eq!(counts, vec![0, 2, 2, 3, 2, 0]);
    }

    #[test]
    fn percentile_map_matches_geoda_on_one_to_nine() {
        let c = classify(&one_to_nine(), &Method::Percentile).unwrap();
        assert!(
            close(&c.breaks, &[1.0, 1.4, 5.0, 8.6, 9.0], 1e-12),
            "{:?}",
            c.breaks
        );
    }

    #[test]
    fn three_quantiles_match_geoda_on_one_to_nine() {
        let c = classify(&one_to_nine(), &Method::Quantile { classes: 3 }).unwrap();
        assert!(close(&c.breaks, &[3.5, 6.5], 1e-12), "{:?}", c.breaks);
        assert!(c.classes.iter().all(|k| k.count == 3));
    }

    #[test]
    fn three_natural_breaks_match_geoda_on_one_to_nine() {
        let c = classify(&one_to_nine(), &Method::NaturalBreaks { classes: 3 }).unwrap();
        assert_eq!(c.breaks, vec![4.0, 7.0]);
        assert_eq!(
            c.class_of[3],
            Some(1),
            "a value equal to a break goes to the class above"
        );
    }

    #[test]
    fn standard_deviation_map_matches_geoda_on_one_to_nine() {
        let c = classify(&one_to_nine(), &Method::StdDev).unwrap();
        assert!(
            close(&c.breaks, &[-0.4772, 2.2614, 5.0, 7.7386, 10.4772], 1e-4),
            "{:?}",
            c.breaks
        );
    }

    #[test]
    fn equal_intervals_split_the_range_evenly() {
        let c = classify(&one_to_nine(), &Method::EqualInterval { classes: 4 }).unwrap();
        assert_eq!(c.breaks, vec![3.0, 5.0, 7.0]);
        let counts: Vec<usize> = c.classes.iter().map(|k| k.count).collect();
        assert_eq!(counts, vec![2, 2, 2, 3]);
        assert_eq!((c.classes[0].lower, c.classes[3].upper), (1.0, 9.0));
    }

    /// Two clear clusters and an outlier: any other 3-partition has a larger within-class SSD.
    #[test]
    fn natural_breaks_find_obvious_clusters_and_never_split_ties() {
        let data = [1.0, 1.0, 1.0, 2.0, 10.0, 11.0, 11.0, 12.0, 50.0];
        assert_eq!(natural_breaks(&data, 3), vec![10.0, 50.0]);
        // More classes than distinct values: one class per distinct value.
        assert_eq!(natural_breaks(&[3.0, 3.0, 5.0], 4), vec![5.0]);
    }

    #[test]
    fn missing_values_are_counted_as_no_data_and_get_no_class() {
        let values = vec![Some(1.0), None, Some(f64::NAN), Some(3.0)];
        let c = classify(&values, &Method::Quantile { classes: 2 }).unwrap();
        assert_eq!(c.no_data, 2);
        assert_eq!(c.class_of, vec![Some(0), None, None, Some(1)]);
        assert_eq!(c.classes.iter().map(|k| k.count).sum::<usize>(), 2);
    }

    #[test]
    fn many_zero_rates_merge_quantile_classes_instead_of_leaving_empty_ones() {
        let mut values: Vec<Option<f64>> = vec![Some(0.0); 6];
        values.extend([4.0, 6.0, 8.0, 10.0].map(Some));
        let c = classify(&values, &Method::Quantile { classes: 5 }).unwrap();
        assert!(c.classes.iter().all(|k| k.count > 0), "{:?}", c.classes);
        assert_eq!(c.class_of[0], Some(0));
    }

    #[test]
    fn custom_breaks_give_open_outer_classes_and_must_increase() {
        let c = classify(
            &one_to_nine(),
            &Method::Custom {
                breaks: vec![2.5, 5.0],
            },
        )
        .unwrap();
        assert_eq!(
            c.classes.iter().map(|k| k.count).collect::<Vec<_>>(),
            vec![2, 2, 5]
        );
        assert_eq!(c.classes[0].label(1), "< 2.5");
        assert_eq!(c.classes[2].label(1), "> 5.0");
        assert_eq!(c.classes[1].label(1), "2.5 – 5.0");
        assert!(classify(
            &one_to_nine(),
            &Method::Custom {
                breaks: vec![5.0, 2.0]
            }
        )
        .is_err());
    }

    #[test]
    fn no_values_and_bad_class_counts_are_errors() {
        assert_eq!(
            classify(&[None], &Method::StdDev),
            Err(ClassifyError::NoData)
        );
        assert_eq!(
            classify(&one_to_nine(), &Method::Quantile { classes: 0 }),
            Err(ClassifyError::BadClassCount(0))
        );
    }

    #[test]
    fn labels_read_in_spanish_with_a_decimal_comma_and_spanish_class_names() {
        use imr_stats::Lang;
        let c = classify(
            &one_to_nine(),
            &Method::Custom {
                breaks: vec![2.5, 5000.0],
            },
        )
        .unwrap();
        assert_eq!(c.classes[1].label_in(1, Lang::Es), "2,5 – 5.000,0");
        assert_eq!(c.classes[0].label_in(1, Lang::Es), "< 2,5");
        let b = classify(&one_to_nine(), &Method::BoxMap { hinge: 1.5 }).unwrap();
        let s = classify(&one_to_nine(), &Method::StdDev).unwrap();
        let p = classify(&one_to_nine(), &Method::Percentile).unwrap();
        for class in b.classes.iter().chain(&s.classes).chain(&p.classes) {
            let es = class.label_in(1, Lang::Es);
            assert!(!es.contains("SD"), "{es}");
            assert!(!es.contains("outlier") && !es.contains("mean"), "{es}");
            assert!(imr_lang_check(&es), "{es}");
        }
        assert_eq!(format_number_in(-1234.5, 1, Lang::Es), "−1.234,5");
    }

    /// No decimal point and no English word (as `imr_lang` checks a Spanish text).
    fn imr_lang_check(text: &str) -> bool {
        imr_lang::decimal_points(text).is_empty() && imr_lang::english_words(text).is_empty()
    }

    #[test]
    fn negative_numbers_print_with_a_true_minus_and_negative_zero_without() {
        assert_eq!(format_number(-4.0, 1), "−4.0");
        assert_eq!(format_number(-0.01, 1), "0.0");
    }

    proptest::proptest! {
        /// Classes partition the data: counts sum to the number of values, and each value lies
        /// within its class limits.
        #[test]
        fn every_value_lies_within_its_class_limits(
            data in proptest::collection::vec(0.0f64..100.0, 1..60), k in 1usize..8
        ) {
            let values: Vec<Option<f64>> = data.iter().map(|v| Some(*v)).collect();
            for method in [Method::Quantile { classes: k }, Method::EqualInterval { classes: k },
                           Method::NaturalBreaks { classes: k }, Method::BoxMap { hinge: 1.5 }, Method::StdDev] {
                let c = classify(&values, &method).unwrap();
                proptest::prop_assert_eq!(c.classes.iter().map(|x| x.count).sum::<usize>(), data.len());
                for (v, class) in data.iter().zip(&c.class_of) {
                    let info = &c.classes[class.unwrap()];
                    proptest::prop_assert!(info.lower <= *v && *v <= info.upper, "{:?} {} {:?}", method, v, info);
                }
            }
        }

        /// With some values excluded, the breaks are those of the included values alone, and
        /// every value (excluded ones too) still lies within its class limits.
        #[test]
        fn excluded_values_are_classed_but_do_not_set_the_breaks(
            data in proptest::collection::vec((-1000.0f64..1000.0, proptest::bool::weighted(0.2)), 2..60),
            k in 1usize..8
        ) {
            let values: Vec<Option<f64>> = data.iter().map(|(v, _)| Some(*v)).collect();
            let excluded: Vec<bool> = data.iter().map(|(_, e)| *e).collect();
            let included: Vec<Option<f64>> = data.iter().filter(|(_, e)| !e).map(|(v, _)| Some(*v)).collect();
            proptest::prop_assume!(!included.is_empty());
            for method in [Method::Quantile { classes: k }, Method::EqualInterval { classes: k },
                           Method::NaturalBreaks { classes: k }, Method::BoxMap { hinge: 1.5 }, Method::StdDev,
                           Method::Percentile] {
                let c = classify_excluding(&values, &excluded, &method).unwrap();
                let alone = classify(&included, &method).unwrap();
                proptest::prop_assert_eq!(&c.breaks, &alone.breaks);
                proptest::prop_assert_eq!(c.excluded_from_breaks, data.len() - included.len());
                proptest::prop_assert_eq!(c.classes.iter().map(|x| x.count).sum::<usize>(), data.len());
                for ((v, _), class) in data.iter().zip(&c.class_of) {
                    let info = &c.classes[class.unwrap()];
                    proptest::prop_assert!(info.lower <= *v && *v <= info.upper, "{:?} {} {:?}", method, v, info);
                }
            }
        }
    }
}
