//! The notes of an inequality report as values: what was measured and how, what is not
//! available, and warnings about the bootstrap. [`Note::render`] writes a note in English or
//! Spanish; the JSON report and `imr inequality` carry the English text (its `Display` and
//! `Serialize`).

use crate::bootstrap::BootstrapMethod;
use crate::quantity::{Quantity, Unit};
use crate::year::SubjectKind;
use imr_stats::Lang;

/// Measures (by JSON key) with the years in which they are flagged.
pub type FlaggedMeasures = Vec<(String, Vec<i64>)>;

/// A year kept in the per-year measures but left out of every trend, change split and
/// correlation over the years, because its values repeat those of an earlier year (a year the
/// source copied; found by `imr_core::repeats`). Counting it would count one year twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RepeatedYear {
    /// The year left out.
    pub time: i64,
    /// The year whose values it repeats.
    pub repeat_of: i64,
}

impl RepeatedYear {
    /// What the year is, beside it: "(copia de 2021)".
    pub fn mark(&self, lang: Lang) -> String {
        format!(
            "({} {})",
            lang.pick("copia de", "a copy of"),
            self.repeat_of
        )
    }

    /// The year with what it is, for a year list, a legend or a point's title: "2022 (copia
    /// de 2021)".
    pub fn label(&self, lang: Lang) -> String {
        format!("{} {}", self.time, self.mark(lang))
    }
}

/// The numbers of the example in the inflated-inequality note.
#[derive(Debug, Clone, PartialEq)]
pub struct BiasExample {
    pub key: String,
    pub time: i64,
    pub observed: f64,
    pub bias_corrected: f64,
    pub percentile: [f64; 2],
    pub ci: [f64; 2],
}

/// One note of [`crate::InequalityReport::notes`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Note {
    /// Rates: which areas count, the unit, birth-share weights.
    RateAreas { unit: Unit },
    /// A weighted value column: which areas count.
    ValueAreas { value: Quantity, weight: Quantity },
    /// Quantiles are unweighted.
    UnweightedQuantiles,
    /// No bootstrap replicates, no intervals.
    NoBootstrap,
    /// How the intervals were made.
    BootstrapIntervals {
        percent: f64,
        replicates: usize,
        method: BootstrapMethod,
        seed: u64,
    },
    /// Deaths derived from published rates: approximate intervals.
    DerivedDeaths,
    /// How trends are computed.
    Trend { percent: f64 },
    /// Rows with zero weight left out, as (rows, year).
    ZeroWeightRows {
        weight: Quantity,
        rows: Vec<(usize, i64)>,
    },
    /// Dispersion measures whose replicates lie above the estimate (small-area noise).
    InflatedInequality {
        kind: SubjectKind,
        measures: FlaggedMeasures,
        example: Option<BiasExample>,
    },
    /// Other measures whose replicates are shifted from the estimate.
    ShiftedReplicates { measures: FlaggedMeasures },
    /// A measure (JSON key) or its interval not available in some years, and why.
    NotAvailable {
        key: String,
        why: crate::Reason,
        years: Vec<i64>,
    },
    /// Rows left out of the measures (listed elsewhere with file, line and reason).
    RowsLeftOut { count: usize },
    /// Years measured and shown but left out of the trends and correlations because their
    /// values repeat an earlier year's (a year copied by the source).
    RepeatedYearsLeftOut { years: Vec<RepeatedYear> },
}

/// "2022 (a repeat of 2021)" joined by ", ", in `lang`.
fn list_repeats(years: &[RepeatedYear], lang: Lang) -> String {
    years
        .iter()
        .map(|r| match lang {
            Lang::En => format!("{} (a repeat of {})", r.time, r.repeat_of),
            Lang::Es => format!("{} (copia de {})", r.time, r.repeat_of),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_years(times: &[i64]) -> String {
    times
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_measures(flagged: &FlaggedMeasures) -> String {
    flagged
        .iter()
        .map(|(key, times)| format!("{key} ({})", join_years(times)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A measure of a note by its JSON key, for a reader of `lang`: the key in English (as the JSON
/// and CSV columns name it), the measure's label in Spanish (`median` would be English there).
fn measure_name(key: &str, lang: Lang) -> String {
    match (lang, crate::year::Measure::from_key(key)) {
        (Lang::Es, Some(measure)) => measure.label_in(lang).to_string(),
        _ => key.to_string(),
    }
}

/// [`list_measures`] in `lang`, each measure by [`measure_name`].
fn list_measures_in(flagged: &FlaggedMeasures, lang: Lang) -> String {
    match lang {
        Lang::En => list_measures(flagged),
        Lang::Es => flagged
            .iter()
            .map(|(key, times)| format!("{} ({})", measure_name(key, lang), join_years(times)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

impl Note {
    /// The note in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match (self, lang) {
            (Note::RateAreas { unit }, Lang::En) => format!(
                "Areas are those with births > 0 in the year; rates are {unit}. Weighted measures use birth shares."
            ),
            (Note::ValueAreas { value, weight }, Lang::En) => format!(
                "Subject: `{value}` weighted by `{weight}`; areas are those with {weight} > 0 in the year."
            ),
            (Note::UnweightedQuantiles, Lang::En) => "Median, percentiles, min and max are unweighted across areas (type-7 quantiles, as R and NumPy).".into(),
            (Note::NoBootstrap, Lang::En) => "No bootstrap replicates were asked for: no intervals.".into(),
            (Note::BootstrapIntervals { percent, replicates, method, seed }, Lang::En) => {
                let how = match method {
                    BootstrapMethod::PoissonDeaths => "parametric bootstrap, deaths redrawn from Poisson(observed deaths) with births fixed; areas with 0 deaths stay at 0",
                    BootstrapMethod::ResampleAreas => "nonparametric bootstrap, areas resampled with replacement within each year",
                };
                format!(
                    "ci: {percent}% basic bootstrap intervals, [2·estimate − upper percentile, 2·estimate − lower percentile] of {replicates} replicates ({how}), seed {seed}; they correct for the replicates' bias and are centred on bias_corrected = estimate − bias, where bias = mean of the replicates − estimate. ci_percentile holds the plain percentile intervals. Bias-corrected values and intervals are clipped to each measure's range (e.g. a Gini stays in [0, 1])."
                )
            }
            (Note::DerivedDeaths, Lang::En) => "Deaths were derived from published rates and births, so the Poisson intervals are approximate.".into(),
            (Note::Trend { percent }, Lang::En) => format!(
                "trend: OLS slope per year with {percent}% interval (Student t, n − 2 df), treating each year's value as exact; change = last − first year."
            ),
            (Note::ZeroWeightRows { weight, rows }, Lang::En) => format!(
                "Rows with {weight} = 0 are not areas of that year and were left out: {}.",
                rows.iter().map(|(n, t)| format!("{n} in {t}")).collect::<Vec<_>>().join(", ")
            ),
            (Note::InflatedInequality { kind, measures, example }, Lang::En) => {
                let example = example
                    .as_ref()
                    .map(|e| format!(
                        " For example {} in {}: observed {:.4}, bias-corrected {:.4}, percentile interval {:.4}–{:.4}, ci {:.4}–{:.4}.",
                        e.key, e.time, e.observed, e.bias_corrected, e.percentile[0], e.percentile[1], e.ci[0], e.ci[1]
                    ))
                    .unwrap_or_default();
                let cause = match kind {
                    SubjectKind::Rate => "Random (Poisson) variation in areas with few births makes observed rates more spread out than the underlying rates, so observed inequality overstates real inequality, and the bootstrap replicates overstate it again",
                    SubjectKind::Value => "The resampled replicates are more unequal than the observed areas",
                };
                format!(
                    "Inflated inequality: in {} the bootstrap replicates average more than 10% above the estimate, or the percentile interval does not contain it. {cause}. Read bias_corrected and ci (both corrected to first order) rather than the observed value with ci_percentile; the correction is approximate and tends to be too small when many areas have 0 deaths.{example}",
                    list_measures(measures)
                )
            }
            (Note::ShiftedReplicates { measures }, Lang::En) => format!(
                "Shifted replicates: in {} the bootstrap replicates average more than 10% away from the estimate, or the percentile interval does not contain it, so the estimate is not at the centre of its sampling distribution; ci and bias_corrected correct for the shift to first order.",
                list_measures(measures)
            ),
            // a measure with a value and no interval says that, once
            (Note::NotAvailable { key, why, years }, Lang::En) => format!(
                "{key} {} in {}: {}.",
                if why.is_interval() { "has no interval" } else { "not available" },
                join_years(years),
                why.note_text(Lang::En)
            ),
            (Note::RowsLeftOut { count }, Lang::En) => format!(
                "{count} row(s) were left out of the measures; `rows_not_measured` lists each with its file, line and reason."
            ),
            (Note::RepeatedYearsLeftOut { years }, Lang::En) => format!(
                "Left out of trends and correlations: {}, because its values equal the earlier year's in nearly every area, a year the source copied rather than measured; it is still shown year by year.",
                list_repeats(years, Lang::En)
            ),
            (Note::RateAreas { unit }, Lang::Es) => format!(
                "Se consideran las comunas con nacidos vivos > 0 en el año; las tasas son {}. Las medidas ponderadas usan la proporción de nacidos vivos.",
                unit.text(lang)
            ),
            (Note::ValueAreas { value, weight }, Lang::Es) => {
                // The engine's quantities in words, a column by its name in «».
                let (value, weight) = (value.quoted_es(), weight.quoted_es());
                format!(
                    "Variable: {value} ponderada por {weight}; se consideran las comunas con {weight} > 0 en el año."
                )
            }
            (Note::UnweightedQuantiles, Lang::Es) => "La mediana, los percentiles, el mínimo y el máximo no se ponderan entre comunas (cuantiles de tipo 7, como R y NumPy).".into(),
            (Note::NoBootstrap, Lang::Es) => "No se pidieron remuestreos: no hay intervalos.".into(),
            (Note::BootstrapIntervals { percent, replicates, method, seed }, Lang::Es) => {
                let how = match method {
                    BootstrapMethod::PoissonDeaths => "bootstrap paramétrico: las defunciones se vuelven a sortear de una Poisson(defunciones observadas) con los nacidos vivos fijos; las comunas con 0 defunciones quedan en 0",
                    BootstrapMethod::ResampleAreas => "bootstrap no paramétrico: las comunas se remuestrean con reemplazo dentro de cada año",
                };
                format!(
                    "ic: intervalos de confianza bootstrap básicos al {percent}%, [2·estimación − percentil superior, 2·estimación − percentil inferior] de {replicates} réplicas ({how}), semilla {seed}; corrigen el sesgo de las réplicas y se centran en el valor corregido por sesgo (columnas «…_corregido_por_sesgo» del CSV) = estimación − sesgo, donde sesgo = media de las réplicas − estimación. Las columnas «…_ic_percentil_inf» y «…_ic_percentil_sup» contienen los intervalos de percentiles simples. Los valores e intervalos corregidos se acotan al rango de cada medida (p. ej., un Gini queda en [0, 1])."
                )
            }
            (Note::DerivedDeaths, Lang::Es) => "Las defunciones se derivaron de las tasas publicadas y los nacidos vivos, por lo que los intervalos de Poisson son aproximados.".into(),
            (Note::Trend { percent }, Lang::Es) => format!(
                "Tendencia: pendiente MCO por año con intervalo de confianza al {percent}% (t de Student, n − 2 g.l.), tratando el valor de cada año como exacto; cambio = último año − primer año."
            ),
            (Note::ZeroWeightRows { weight, rows }, Lang::Es) => format!(
                "Las filas con {} = 0 no son comunas de ese año y se dejaron fuera: {}.",
                weight.text(lang),
                rows.iter().map(|(n, t)| format!("{n} en {t}")).collect::<Vec<_>>().join(", ")
            ),
            (Note::InflatedInequality { kind, measures, example }, Lang::Es) => {
                let example = example
                    .as_ref()
                    .map(|e| {
                        let n = |x: f64| lang.decimal(x, 4);
                        format!(
                            " Por ejemplo, {} en {}: observado {}, corregido por sesgo {}, intervalo de percentiles {}–{}, intervalo corregido (ic) {}–{}.",
                            measure_name(&e.key, lang), e.time, n(e.observed), n(e.bias_corrected), n(e.percentile[0]), n(e.percentile[1]), n(e.ci[0]), n(e.ci[1])
                        )
                    })
                    .unwrap_or_default();
                let cause = match kind {
                    SubjectKind::Rate => "La variación aleatoria (Poisson) en comunas con pocos nacidos vivos hace que las tasas observadas estén más dispersas que las tasas subyacentes, de modo que la desigualdad observada sobrestima la real, y los remuestreos la sobrestiman otra vez",
                    SubjectKind::Value => "Los remuestreos son más desiguales que las comunas observadas",
                };
                format!(
                    "Desigualdad inflada: en {} los remuestreos promedian más de un 10% por encima de la estimación, o el intervalo de percentiles no la contiene. {cause}. Lea el valor corregido por sesgo y su intervalo (columnas «…_corregido_por_sesgo» e «…_ic_inf», «…_ic_sup» del CSV, ambos corregidos a primer orden) en lugar del valor observado con su intervalo de percentiles («…_ic_percentil_inf», «…_ic_percentil_sup»); la corrección es aproximada y tiende a quedarse corta cuando muchas comunas tienen 0 defunciones.{example}",
                    list_measures_in(measures, lang)
                )
            }
            (Note::ShiftedReplicates { measures }, Lang::Es) => format!(
                "Remuestreos desplazados: en {} los remuestreos promedian más de un 10% lejos de la estimación, o el intervalo de percentiles no la contiene, de modo que la estimación no está en el centro de su distribución muestral; el valor corregido por sesgo y su intervalo (columnas «…_corregido_por_sesgo» e «…_ic_inf», «…_ic_sup» del CSV) corrigen el desplazamiento a primer orden.",
                list_measures_in(measures, lang)
            ),
            (Note::NotAvailable { key, why, years }, Lang::Es) => format!(
                "{} {} en {}: {}.",
                measure_name(key, lang),
                if why.is_interval() { "sin intervalo" } else { "no disponible" },
                join_years(years),
                why.note_text(lang)
            ),
            // the list's place in words, not a key (a reader's "`rows_not_measured`", then
            // "en el JSON de imr, en rows_not_measured")
            (Note::RowsLeftOut { count: 1 }, Lang::Es) => "1 fila quedó fuera de las medidas; se lista con su archivo, línea y motivo (en la página, en «Filas no medidas»; en la salida de imr, en su lista de filas no medidas).".into(),
            (Note::RowsLeftOut { count }, Lang::Es) => format!(
                "{count} filas quedaron fuera de las medidas; se listan con su archivo, línea y motivo (en la página, en «Filas no medidas»; en la salida de imr, en su lista de filas no medidas)."
            ),
            (Note::RepeatedYearsLeftOut { years }, Lang::Es) => format!(
                "Fuera de las tendencias y correlaciones: {}, porque sus valores son iguales a los del año anterior en casi todas las comunas, un año que la fuente copió en vez de medir; se sigue mostrando año por año.",
                list_repeats(years, Lang::Es)
            ),
        }
    }
}

/// The English text.
impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// Serialised as its English text, as the JSON report always wrote it.
impl serde::Serialize for Note {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
#[path = "note_tests.rs"]
mod tests;
