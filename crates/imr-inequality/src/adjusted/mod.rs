//! Adjusted inequality: the inequality of the communes' **true** rates, with the random
//! variation of small numbers of births removed.
//!
//! The observed rates r_i = 1000 y_i / b_i scatter more than the true rates because deaths are
//! Poisson counts: with b = 100 births and a true rate of 7 per 1,000, the observed rate is 0 in
//! half the years. Every observed inequality measure is inflated by this noise, the more so the
//! fewer the births; with births falling, observed inequality rises even when nothing changed.
//!
//! # Method
//! Per year, the distribution of the true rates is modelled as a gamma distribution with mean μ
//! and squared coefficient of variation θ, and deaths as Poisson given the true rate, with births
//! as exposure: the negative binomial (Poisson–gamma) model of [`model`], fitted by maximum
//! likelihood. Each adjusted measure is that measure of the fitted gamma distribution
//! ([`shape`]): all are scale-free functions of θ alone and increase with it, so
//! * the adjusted value is the measure at θ̂,
//! * its interval is the measure at the limits of the profile-likelihood interval of θ
//!   (invariance of the likelihood interval to monotone reparametrisation),
//! * the test of "any true variation beyond chance" is the likelihood-ratio test of θ = 0
//!   with the ½χ²₀ + ½χ²₁ boundary mixture.
//!
//! Why the fitted distribution and not per-area shrunken rates: empirical Bayes estimates shrink
//! too much (their spread underestimates the true spread; Louis 1984), and constrained Bayes or
//! triple-goal ensembles (Louis 1984; Shen & Louis 1998) need Monte Carlo draws for every
//! measure and interval. Under the model, the measures of the fitted distribution are the
//! expected measures of the true rates of a large set of areas, in closed form, with intervals
//! from one profile likelihood: no bootstrap, no random numbers, and a few milliseconds per
//! year. The estimand is the inequality of the distribution from which the communes' true rates
//! are drawn; the birth-weighted measure of the 345 realised true rates differs from it by the
//! sampling spread of 345 draws, which the simulation study ([`crate::simulate`]) includes in its
//! truth.
//!
//! # Where it fails
//! * The shape of the distribution is assumed: a lognormal or bimodal distribution of true rates
//!   with the same CV has a different Gini; the CoV and SCV do not depend on the shape.
//! * Few areas or almost no deaths: θ is then barely identified; below [`MIN_AREAS`] areas or
//!   [`MIN_DEATHS`] deaths no adjusted measure is given ([`AdjustedUnavailable`]).
//! * Derived deaths (published integer rates × a births proxy, as in the bundled data) are not
//!   Poisson counts: the fit is a quasi-likelihood and the adjusted measures are approximate.
//!   Their range over the plausible ratio of true to proxy births and the rounding of the
//!   rates is reported beside them ([`sensitivity`]).
//! * When the profile likelihood is still above its cut-off at the largest CV searched (e.g. all
//!   deaths in one area), the upper limit is open (+∞, `null` in the JSON) and the year is left
//!   out of the adjusted trend and correlation ([`LeftOutOfTrend`]).
//!
//! References: Louis, T. A. (1984) "Estimating a population of parameter values using Bayes and
//! empirical Bayes methods", *JASA* 79:393–398. Shen, W. & Louis, T. A. (1998) "Triple-goal
//! estimates in two-stage hierarchical models", *JRSS B* 60:455–471. Diehr, P., Cain, K.,
//! Connell, F. & Volinn, E. (1990) "What is too much variation? The null hypothesis in
//! small-area analysis", *Health Services Research* 24:741–771. And those of [`model`] and
//! [`shape`].

pub mod correlation;
pub mod model;
pub mod sensitivity;
pub mod shape;
pub mod trend;

pub use correlation::{
    correlate_adjusted, AdjustedCorrelation, CorrelationMethod, ObservedCorrelation,
    CORRELATION_DRAWS, MIN_CORRELATION_YEARS,
};
pub use model::{fit, Counts, GammaFit};
pub use sensitivity::{BirthsRatioRange, RoundingBound, Sensitivity, BIRTHS_RATIO_GRID};
pub use trend::{adjusted_trend, split_change, AdjustedTrend, ChangeSplit, TrendMethod};

use crate::year::Measure;
use imr_stats::Lang;
use serde::Serialize;

/// Fewest areas with births for an adjusted measure.
pub const MIN_AREAS: usize = 10;
/// Fewest deaths (summed over the areas) for an adjusted measure.
pub const MIN_DEATHS: f64 = 10.0;

/// A measure of the true rates' inequality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjustedMeasure {
    Gini,
    TheilT,
    Cov,
    Atkinson05,
    P90P10,
    VarLog,
    Scv,
}

impl AdjustedMeasure {
    pub const ALL: [AdjustedMeasure; 7] = [
        AdjustedMeasure::Gini,
        AdjustedMeasure::TheilT,
        AdjustedMeasure::Cov,
        AdjustedMeasure::Atkinson05,
        AdjustedMeasure::P90P10,
        AdjustedMeasure::VarLog,
        AdjustedMeasure::Scv,
    ];

    /// The JSON key (the same as the observed measure's where there is one).
    pub fn key(self) -> &'static str {
        match self {
            AdjustedMeasure::Gini => "gini",
            AdjustedMeasure::TheilT => "theil_t",
            AdjustedMeasure::Cov => "cov",
            AdjustedMeasure::Atkinson05 => "atkinson_0_5",
            AdjustedMeasure::P90P10 => "p90_p10",
            AdjustedMeasure::VarLog => "var_log",
            AdjustedMeasure::Scv => "scv",
        }
    }

    pub fn from_key(key: &str) -> Option<AdjustedMeasure> {
        AdjustedMeasure::ALL.into_iter().find(|m| m.key() == key)
    }

    /// A label for tables, in `lang`.
    pub fn label(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (AdjustedMeasure::Gini, Lang::En) => "Gini (birth-weighted)",
            (AdjustedMeasure::Gini, Lang::Es) => "Gini (ponderado por nacimientos)",
            (AdjustedMeasure::TheilT, _) => "Theil T",
            (AdjustedMeasure::Cov, Lang::En) => "Coefficient of variation",
            (AdjustedMeasure::Cov, Lang::Es) => "Coeficiente de variación",
            (AdjustedMeasure::Atkinson05, Lang::En) => "Atkinson (ε = 0.5)",
            (AdjustedMeasure::Atkinson05, Lang::Es) => "Atkinson (ε = 0,5)",
            (AdjustedMeasure::P90P10, Lang::En) => "P90/P10 ratio",
            (AdjustedMeasure::P90P10, Lang::Es) => "Razón P90/P10",
            (AdjustedMeasure::VarLog, Lang::En) => "Variance of log rates",
            (AdjustedMeasure::VarLog, Lang::Es) => "Varianza del logaritmo de las tasas",
            (AdjustedMeasure::Scv, Lang::En) => "Systematic component of variation (× 100)",
            (AdjustedMeasure::Scv, Lang::Es) => "Componente sistemático de variación (× 100)",
        }
    }

    /// The observed measure of the same name, whose noise share is reported.
    pub fn observed(self) -> Option<Measure> {
        match self {
            AdjustedMeasure::Gini => Some(Measure::Gini),
            AdjustedMeasure::TheilT => Some(Measure::TheilT),
            AdjustedMeasure::Cov => Some(Measure::Cov),
            AdjustedMeasure::Atkinson05 => Some(Measure::Atkinson05),
            AdjustedMeasure::P90P10 => Some(Measure::P90P10),
            AdjustedMeasure::VarLog | AdjustedMeasure::Scv => None,
        }
    }

    /// The measure of a gamma distribution of true rates with squared CV θ.
    pub fn of_theta(self, theta: f64) -> f64 {
        match self {
            AdjustedMeasure::Gini => shape::gini(theta),
            AdjustedMeasure::TheilT => shape::theil_t(theta),
            AdjustedMeasure::Cov => shape::cov(theta),
            AdjustedMeasure::Atkinson05 => shape::atkinson_half(theta),
            AdjustedMeasure::P90P10 => shape::p90_p10(theta),
            AdjustedMeasure::VarLog => shape::var_log(theta),
            AdjustedMeasure::Scv => shape::scv(theta),
        }
    }
}

/// Why a year has no adjusted measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum AdjustedUnavailable {
    /// The subject is a weighted value column, not counts of deaths over births.
    NotRates,
    /// Fewer than [`MIN_AREAS`] areas with births.
    TooFewAreas { n_areas: usize, minimum: usize },
    /// Fewer than [`MIN_DEATHS`] deaths in all the areas together (0 included).
    TooFewDeaths { deaths: f64, minimum: f64 },
}

impl AdjustedUnavailable {
    /// The reason in `lang` (English in the JSON `text`).
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (AdjustedUnavailable::NotRates, Lang::En) => {
                "adjusted measures need counts of deaths over births, not a value column".into()
            }
            (AdjustedUnavailable::NotRates, Lang::Es) => {
                "las medidas ajustadas requieren conteos de defunciones sobre nacimientos, no una columna de valores".into()
            }
            (AdjustedUnavailable::TooFewAreas { n_areas, minimum }, Lang::En) => format!(
                "only {n_areas} areas with births: the distribution of true rates needs at least {minimum}"
            ),
            (AdjustedUnavailable::TooFewAreas { n_areas, minimum }, Lang::Es) => format!(
                "solo {n_areas} comunas con nacimientos: la distribución de las tasas verdaderas requiere al menos {minimum}"
            ),
            (AdjustedUnavailable::TooFewDeaths { deaths, minimum }, Lang::En) => format!(
                "only {deaths} deaths in all areas: too few to separate true variation from chance (at least {minimum} needed)"
            ),
            (AdjustedUnavailable::TooFewDeaths { deaths, minimum }, Lang::Es) => format!(
                "solo {deaths} defunciones en total: muy pocas para separar la variación verdadera del azar (se requieren al menos {minimum})"
            ),
        }
    }
}

/// Why a year with adjusted measures is left out of the adjusted trend and correlation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum LeftOutOfTrend {
    /// The profile likelihood does not fall to its cut-off up to the largest true CV searched
    /// ([`model::MAX_SQRT_THETA`]): the data give no upper limit to the inequality.
    UpperLimitOpen { max_cov: f64 },
}

impl LeftOutOfTrend {
    /// The reason in `lang` (English in the JSON `text`).
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (LeftOutOfTrend::UpperLimitOpen { max_cov }, Lang::En) => format!(
                "the interval has no upper limit: the data stay compatible with a true coefficient of variation of {} or more (as when nearly all deaths are in one area), so this year is left out of the trend and the correlation",
                lang.decimal(*max_cov, 0)
            ),
            (LeftOutOfTrend::UpperLimitOpen { max_cov }, Lang::Es) => format!(
                "el intervalo no tiene límite superior: los datos siguen siendo compatibles con un coeficiente de variación verdadero de {} o más (como cuando casi todas las defunciones están en una comuna), así que este año queda fuera de la tendencia y de la correlación",
                lang.decimal(*max_cov, 0)
            ),
        }
    }
}

/// How the excess-variation test was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ExcessVariationMethod {
    /// Likelihood ratio of θ = 0 (Poisson) against the negative binomial, p from ½χ²₀ + ½χ²₁.
    #[serde(rename = "likelihood_ratio_boundary_mixture")]
    LikelihoodRatioBoundaryMixture,
}

/// Is there true variation beyond chance? (H₀: every area has the same true rate.)
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ExcessVariation {
    /// T = 2(ℓ_p(θ̂) − ℓ_p(0)).
    pub statistic: f64,
    pub p_value: f64,
    pub method: ExcessVariationMethod,
}

/// The adjusted measures of one year.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjustedYear {
    pub time: i64,
    pub n_areas: usize,
    pub deaths: f64,
    pub fit: GammaFit,
    /// μ̂ in the subject's unit (per 1,000 live births).
    pub mean_rate: f64,
    /// Value and interval per measure, indexed like [`AdjustedMeasure::ALL`].
    values: [f64; 7],
    intervals: [[f64; 2]; 7],
    pub excess_variation: ExcessVariation,
    /// McPherson's moment estimate of the SCV (× 100), for comparison with the model's.
    pub scv_moment: Option<f64>,
    pub level: f64,
    /// The range over the births ratio and the rounding of the rates, when deaths were derived
    /// from published rates ([`sensitivity`]).
    pub sensitivity: Option<Sensitivity>,
    /// The bound of the counts known only within a range, carried into `intervals`
    /// ([`AdjustedYear::carrying_count_ranges`]).
    pub count_range: Option<CountRangeBound>,
}

/// Counts known only within a range of whole numbers (deaths reconstructed from a rate rounded
/// to an integer per 1,000: every count from `l` to `h` reproduces it), carried into the
/// interval of the adjusted measures.
///
/// # Formula
/// The count used, d_i, is one of the whole numbers l_i…h_i; with nothing to prefer one, its
/// error has at most the variance of a count uniform on them, V_i = ((h_i − l_i + 1)² − 1) / 12.
/// The model gives d_i the variance m_i + θ m_i² (m_i = b_i μ̂); an extra V_i looks like true
/// variation, which the fit absorbs into θ̂. For the estimating equation of θ that weights each
/// area's squared deviation by w_i = 1 / (m_i + θ̂ m_i²)² (the second-moment equations of the
/// negative binomial; Breslow 1984, "Extra-Poisson variation in log-linear models", *Applied
/// Statistics* 33:38–44), the extra variances raise θ̂ by
///
/// ```text
/// θ_c = Σ_i w_i V_i / Σ_i w_i m_i²      (all areas in the sums; V_i = 0 where the count is exact)
/// ```
///
/// which is subtracted from the lower limit of θ's interval (clipped at 0), as the rounding
/// bound of derived deaths is ([`sensitivity::RoundingBound`]). An approximation of the
/// likelihood fit's own bias, not a bound: it weights areas as the fit does, so a small commune
/// whose count is off by one moves it little, as it moves θ̂ little.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CountRangeBound {
    /// θ_c, the squared CV the ranges add.
    pub theta: f64,
    /// Areas whose count has a range of more than one whole number.
    pub areas: usize,
}

impl CountRangeBound {
    /// The bound of `ranges` (`[l, h]` per area, aligned with `births`) at the fitted mean
    /// `mean_per_birth` and `theta`; `None` when no area's range holds more than one count.
    pub fn of(
        ranges: &[[f64; 2]],
        births: &[f64],
        mean_per_birth: f64,
        theta: f64,
    ) -> Option<CountRangeBound> {
        let (mut numerator, mut denominator, mut areas) = (0.0, 0.0, 0);
        for ([lo, hi], b) in ranges.iter().zip(births) {
            let m = b * mean_per_birth;
            if m <= 0.0 {
                continue;
            }
            let w = 1.0 / (m + theta * m * m).powi(2);
            let width = hi - lo + 1.0;
            if hi > lo {
                numerator += w * (width * width - 1.0) / 12.0;
                areas += 1;
            }
            denominator += w * m * m;
        }
        (areas > 0 && denominator > 0.0).then(|| CountRangeBound {
            theta: numerator / denominator,
            areas,
        })
    }
}

impl AdjustedYear {
    /// The year with counts known only within `ranges` (`[l, h]` per area with births > 0, in
    /// the fit's order) carried into its intervals: their lower limits are the measure at
    /// max(θ_low − θ_c, 0) ([`CountRangeBound`]); the value stays the fit's.
    pub fn carrying_count_ranges(mut self, ranges: &[[f64; 2]], births: &[f64]) -> AdjustedYear {
        let births: Vec<f64> = births.iter().copied().filter(|b| *b > 0.0).collect();
        let ranges: Vec<[f64; 2]> = ranges.to_vec();
        if ranges.len() != births.len() {
            return self;
        }
        let Some(bound) =
            CountRangeBound::of(&ranges, &births, self.fit.mean_per_birth, self.fit.theta)
        else {
            return self;
        };
        let low = (self.fit.theta_ci[0] - bound.theta).max(0.0);
        for m in AdjustedMeasure::ALL {
            self.intervals[m as usize][0] = m.of_theta(low);
        }
        self.count_range = Some(bound);
        self
    }

    pub fn value(&self, measure: AdjustedMeasure) -> f64 {
        self.values[measure as usize]
    }

    /// The profile-likelihood interval; its upper limit is +∞ when open
    /// ([`LeftOutOfTrend::UpperLimitOpen`]).
    pub fn interval(&self, measure: AdjustedMeasure) -> [f64; 2] {
        self.intervals[measure as usize]
    }

    /// The answer of the table's "variation beyond chance?" cell in `lang`
    /// ([`crate::words::excess_variation_answer`]): the test's verdict, qualified when the
    /// intervals reach zero (every measure is a function of one θ: all reach it or none does).
    pub fn excess_variation_words(&self, lang: Lang) -> String {
        let reaches_zero = self.interval(AdjustedMeasure::Gini)[0] <= 1e-9;
        crate::words::excess_variation_answer(lang, self.excess_variation.p_value, reaches_zero)
    }

    /// Why the year is left out of the adjusted trend and correlation, if it is.
    pub fn left_out_of_trend(&self) -> Option<LeftOutOfTrend> {
        self.fit
            .upper_limit_at_bound
            .then_some(LeftOutOfTrend::UpperLimitOpen {
                max_cov: model::MAX_SQRT_THETA,
            })
    }

    /// The interval of the answer as shown: the union of the intervals over the births ratio
    /// when there is a sensitivity range, else the interval.
    pub fn shown_interval(&self, measure: AdjustedMeasure) -> [f64; 2] {
        self.sensitivity
            .as_ref()
            .map_or(self.interval(measure), |s| s.interval(measure))
    }

    /// Share of an observed measure that is random variation: (observed − adjusted) / observed.
    /// `None` without an observed counterpart or when the observed value is 0 or missing. It can
    /// be negative when the observed value happens to fall below the adjusted one.
    pub fn noise_share(&self, measure: AdjustedMeasure, observed: Option<f64>) -> Option<f64> {
        AdjustedYear::noise_share_at(measure, observed, self.value(measure))
    }

    /// The shares of random variation the adjusted measure's interval allows,
    /// (observed − upper) / observed to (observed − lower) / observed, each held to 0–1: a
    /// point share of 33% whose interval reaches zero inequality is "between 0% and 100%",
    /// which the sentence must say rather than "about 33%" beside "indistinguishable from
    /// zero" (issue 42). `None` where [`AdjustedYear::noise_share`] is.
    pub fn noise_share_interval(
        &self,
        measure: AdjustedMeasure,
        observed: Option<f64>,
    ) -> Option<[f64; 2]> {
        let [lo, hi] = self.shown_interval(measure);
        let share = |adjusted: f64| {
            let at = AdjustedYear::noise_share_at(measure, observed, adjusted)?;
            Some(at.clamp(0.0, 1.0))
        };
        let low = if hi.is_finite() { share(hi)? } else { 0.0 };
        Some([low, share(lo)?])
    }

    /// (observed − adjusted) / (observed − its no-inequality value), or `None`.
    fn noise_share_at(
        measure: AdjustedMeasure,
        observed: Option<f64>,
        adjusted: f64,
    ) -> Option<f64> {
        measure.observed()?;
        let obs = observed?;
        let baseline = if measure == AdjustedMeasure::P90P10 {
            1.0
        } else {
            0.0
        };
        let excess = obs - baseline;
        (excess > 0.0).then(|| (obs - adjusted) / excess)
    }
}

/// The methods sentence of the adjusted measures, in `lang`; says they are approximate when
/// deaths were derived from published rates.
pub fn method_note(deaths_derived: bool, lang: Lang) -> String {
    let mut text = match lang {
        Lang::En => "Adjusted measures describe the inequality of the communes' true rates: a \
            Poisson–gamma (negative binomial) model of each year's deaths with births as exposure, \
            fitted by maximum likelihood; each measure is that of the fitted gamma distribution of \
            true rates, with a 95% profile-likelihood interval. The excess-variation test is the \
            likelihood-ratio test of equal true rates (p from ½χ²₀ + ½χ²₁). Trends weight each \
            year by the inverse of its variance."
            .to_string(),
        Lang::Es => "Las medidas ajustadas describen la desigualdad de las tasas verdaderas de las \
            comunas: un modelo Poisson–gamma (binomial negativa) de las defunciones de cada año con \
            los nacimientos como exposición, ajustado por máxima verosimilitud; cada medida es la de \
            la distribución gamma ajustada de las tasas verdaderas, con un intervalo de \
            verosimilitud perfil al 95%. La prueba de variación excesiva es la razón de \
            verosimilitudes de tasas verdaderas iguales (p de ½χ²₀ + ½χ²₁). Las tendencias ponderan \
            cada año por el inverso de su varianza."
            .to_string(),
    };
    if deaths_derived {
        text.push(' ');
        text.push_str(match lang {
            Lang::En => {
                "Here deaths were derived from published rates and a births proxy, not \
                counted: they are not Poisson counts, so the adjusted measures are approximate. \
                Each year also gives their range over the ratio of true births to the births \
                given (0.7 to 1.0 unless set otherwise) and the rounding of the published \
                rates, with the 95% interval of range and chance together."
            }
            Lang::Es => {
                "Aquí las defunciones se derivaron de tasas publicadas y una aproximación \
                de los nacimientos, no se contaron: no son conteos de Poisson, por lo que las \
                medidas ajustadas son aproximadas. Cada año da además su rango según la razón \
                entre los nacimientos verdaderos y los dados (de 0,7 a 1,0 salvo otra \
                indicación) y el redondeo de las tasas publicadas, con el intervalo de 95% de \
                rango y azar juntos."
            }
        });
    }
    text
}

/// Fit the model to one year's counts (areas with births > 0) and derive every adjusted
/// measure with its interval at `level`. `per` is the rate multiplier (1000).
pub fn fit_year(
    time: i64,
    deaths: &[f64],
    births: &[f64],
    per: f64,
    level: f64,
) -> Result<AdjustedYear, AdjustedUnavailable> {
    fit_year_with(time, deaths, births, per, level, None)
}

/// [`fit_year`], with the sensitivity range over `births_ratio` (given when deaths were derived
/// from published rates; see [`sensitivity`]).
pub fn fit_year_with(
    time: i64,
    deaths: &[f64],
    births: &[f64],
    per: f64,
    level: f64,
    births_ratio: Option<BirthsRatioRange>,
) -> Result<AdjustedYear, AdjustedUnavailable> {
    let n_areas = births.iter().filter(|b| **b > 0.0).count();
    if n_areas < MIN_AREAS {
        return Err(AdjustedUnavailable::TooFewAreas {
            n_areas,
            minimum: MIN_AREAS,
        });
    }
    let (deaths, births): (Vec<f64>, Vec<f64>) = deaths
        .iter()
        .zip(births)
        .filter(|(_, b)| **b > 0.0)
        .map(|(d, b)| (*d, *b))
        .unzip();
    let total: f64 = deaths.iter().sum();
    if total < MIN_DEATHS {
        return Err(AdjustedUnavailable::TooFewDeaths {
            deaths: total,
            minimum: MIN_DEATHS,
        });
    }
    let counts = Counts::new(&deaths, &births);
    let fit = model::fit(&counts, level);
    let mut values = [0.0; 7];
    let mut intervals = [[0.0; 2]; 7];
    for m in AdjustedMeasure::ALL {
        values[m as usize] = m.of_theta(fit.theta);
        let high = if fit.upper_limit_at_bound {
            f64::INFINITY
        } else {
            m.of_theta(fit.theta_ci[1])
        };
        intervals[m as usize] = [m.of_theta(fit.theta_ci[0]), high];
    }
    let sensitivity = births_ratio
        .map(|range| sensitivity::sensitivity(&deaths, &births, per, level, range, &fit));
    Ok(AdjustedYear {
        time,
        n_areas,
        deaths: total,
        fit,
        mean_rate: fit.mean_per_birth * per,
        values,
        intervals,
        excess_variation: ExcessVariation {
            statistic: fit.lr_statistic(),
            p_value: fit.lr_p_value(),
            method: ExcessVariationMethod::LikelihoodRatioBoundaryMixture,
        },
        scv_moment: shape::scv_moment(&deaths, &births),
        level,
        sensitivity,
        count_range: None,
    })
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(AdjustedUnavailable, LeftOutOfTrend);

#[cfg(test)]
mod tests;
