//! Plain-language remarks about the data and a fit, as values: the engine records what it found
//! (with its numbers and names) and [`Diagnostic::render`] writes it in English or Spanish. The
//! page shows them in its language; `imr fit` and the JSON carry the English text (the `Display`
//! and `Serialize` of a diagnostic).

use crate::spec::Estimator;
use imr_stats::Lang;

/// One remark of [`crate::Fit::diagnostics`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Diagnostic {
    /// Rows excluded for missing or unusable values (their input row numbers).
    RowsExcluded { rows: Vec<usize> },
    /// An exposure column was given to a model other than poisson-fe.
    ExposureIgnored { estimator: Estimator },
    /// poisson-fe without exposure models counts.
    NoExposure,
    /// Entities with one observation (within estimators).
    Singletons { entities: Vec<String> },
    /// The Hausman test is not computed for weighted fits.
    HausmanWeighted,
    /// The Hausman test could not be computed, and why.
    HausmanUnavailable { why: crate::ModelError },
    /// First differences: how many, from how many rows, and rows after a gap.
    FirstDifferences {
        differences: usize,
        rows: usize,
        after_gap: usize,
    },
    /// Entities without two consecutive periods (first differences).
    NoConsecutivePeriods { entities: Vec<String> },
    /// Unbalanced panel: θ differs by entity (random effects).
    UnbalancedTheta,
    /// Negative Swamy–Arora σ²_u, set to 0.
    NegativeSigmaU { value: f64 },
    /// Newton iterations of poisson-fe.
    PoissonConverged { iterations: usize },
    /// Entities whose outcome is 0 in every period, dropped by poisson-fe.
    AllZeroEntities {
        outcome: String,
        entities: Vec<String>,
    },
    /// Entities with a single row, dropped from poisson-fe: the entity's effect fits that row
    /// exactly, so it carries no information on the coefficients (Stata `xtpoisson, fe` and
    /// pyfixest `fepois` drop them too).
    SingleRowEntities { entities: Vec<String> },
    /// Rows of levels of an absorbed effect whose outcome is zero in every row, removed
    /// (`poisson-fe --fe`).
    ZeroOutcomeRowsRemoved { outcome: String, rows: usize },
    /// Rows alone in a level of an absorbed fixed effect, removed (`--fe`).
    SingletonsRemoved { rows: usize },
    /// The absorbed fixed effects and their levels (`--fe`).
    AbsorbedEffects { effects: Vec<(String, usize)> },
}

/// At most `shown` items in backquotes, then "and N more" / "y N más".
fn list(lang: Lang, items: &[String], shown: usize, quote: bool) -> String {
    let mut out: Vec<String> = items
        .iter()
        .take(shown)
        .map(|l| if quote { format!("`{l}`") } else { l.clone() })
        .collect();
    if items.len() > shown {
        let more = items.len() - shown;
        out.push(match lang {
            Lang::En => format!("and {more} more"),
            Lang::Es => format!("y {more} más"),
        });
    }
    out.join(", ")
}

fn entities(lang: Lang, labels: &[String]) -> String {
    list(lang, labels, 5, true)
}

/// "entity"/"entities", "comuna"/"comunas" (the page's entities are communes or any unit).
fn entity_word(lang: Lang, n: usize) -> &'static str {
    match (lang, n == 1) {
        (Lang::En, true) => "entity",
        (Lang::En, false) => "entities",
        (Lang::Es, true) => "entidad",
        (Lang::Es, false) => "entidades",
    }
}

/// "N row(s) excluded … (rows …)".
fn rows_excluded(lang: Lang, rows: &[usize]) -> String {
    let n = rows.len();
    let rows: Vec<String> = rows.iter().map(usize::to_string).collect();
    let listed = list(lang, &rows, 10, false);
    match lang {
        Lang::En => format!(
            "{n} row(s) excluded for missing or unusable values (rows {listed}); see excluded_rows"
        ),
        Lang::Es => format!(
            "{n} fila(s) excluidas por valores faltantes o no utilizables (filas {listed}); vea excluded_rows"
        ),
    }
}

/// The absorbed fixed effects and their levels.
fn absorbed_effects(lang: Lang, effects: &[(String, usize)]) -> String {
    let listed = effects
        .iter()
        .map(|(name, levels)| format!("`{name}` ({levels})"))
        .collect::<Vec<_>>()
        .join(", ");
    match lang {
        Lang::En => format!("absorbed fixed effects (levels): {listed}"),
        Lang::Es => format!("efectos fijos absorbidos (niveles): {listed}"),
    }
}

impl Diagnostic {
    /// The remark in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.english(),
            Lang::Es => self.spanish(),
        }
    }

    /// The English remark (the JSON's).
    fn english(&self) -> String {
        use Diagnostic::*;
        let lang = Lang::En;
        match self {
        ExposureIgnored { estimator } => {
            format!("the exposure column is used only by poisson-fe; `{estimator}` ignores it")
        }
        NoExposure => "no exposure given: poisson-fe models counts, not rates (give the births as exposure to model the rate)".into(),
        Singletons { entities: e } => format!(
            "{} singleton entit{} (one observation): {}; they add nothing to the within \
             estimates but are kept and counted in the degrees of freedom, as Stata xtreg",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(lang, e)
        ),
        SingleRowEntities { entities: e } => format!(
            "{} entit{} with a single row dropped (the entity's effect fits that row \
             exactly: no information on the coefficients; as Stata xtpoisson, fe and \
             pyfixest fepois): {}; see excluded_rows",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(lang, e)
        ),
        ZeroOutcomeRowsRemoved { outcome, rows } => format!(
            "{rows} observation(s) removed: `{outcome}` is zero in every row of their level \
             of a fixed effect (the level's effect would be −∞; as pyfixest fepois); see \
             excluded_rows"
        ),
        SingletonsRemoved { rows } => format!(
            "{rows} singleton observation(s) removed (alone in a level of a fixed effect, \
             repeatedly, as fixest and pyfixest); see excluded_rows"
        ),
        HausmanWeighted => "the Hausman test is not computed for weighted fits".into(),
        HausmanUnavailable { why } => {
            format!("the Hausman test is not available: {}", why.text(lang))
        }
        FirstDifferences {
                differences,
                rows,
                after_gap,
            } => format!(
            "first differences: {differences} differences from {rows} rows; the first row of \
             each entity starts the differences{}",
            if *after_gap > 0 {
                format!(", and {after_gap} row(s) follow a gap in the periods and start a new run")
            } else {
                String::new()
            }
        ),
        NoConsecutivePeriods { entities: e } => format!(
            "{} entit{} without two consecutive periods contribute no difference: {}",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(lang, e)
        ),
        UnbalancedTheta => {
            "the panel is unbalanced: θ differs by entity (θ_i from T_i), see theta_summary".into()
        }
        NegativeSigmaU { value } => format!(
            "the Swamy–Arora estimate of σ²_u is negative ({value:.4e}); it is set to 0, \
             so θ = 0 and random effects coincide with pooled OLS"
        ),
        PoissonConverged { iterations } => {
            format!("poisson-fe converged in {iterations} Newton iteration(s)")
        }
        AllZeroEntities {
                outcome,
                entities: e,
            } => format!(
            "{} entit{} with `{outcome}` = 0 in every period dropped: {}",
            e.len(),
            if e.len() == 1 { "y" } else { "ies" },
            entities(lang, e)
        ),
        RowsExcluded { rows } => rows_excluded(lang, rows),
        AbsorbedEffects { effects } => absorbed_effects(lang, effects),
        }
    }

    /// The Spanish remark.
    fn spanish(&self) -> String {
        use Diagnostic::*;
        let lang = Lang::Es;
        match self {
        ExposureIgnored { estimator } => format!(
            "la columna de exposición solo la usa poisson-fe; `{estimator}` la ignora"
        ),
        NoExposure => "sin exposición: poisson-fe modela conteos, no tasas (indique los nacidos vivos como exposición para modelar la tasa)".into(),
        Singletons { entities: e } => format!(
            "{} {} con una sola observación: {}; no aportan a las estimaciones intragrupos, \
             pero se conservan y cuentan en los grados de libertad, como en Stata xtreg",
            e.len(),
            entity_word(lang, e.len()),
            entities(lang, e)
        ),
        SingleRowEntities { entities: e } => format!(
            "{} {} con una sola fila excluidas (el efecto de la entidad ajusta esa fila \
             exactamente: no informa sobre los coeficientes; como Stata xtpoisson, fe y \
             pyfixest fepois): {}; vea excluded_rows",
            e.len(),
            entity_word(lang, e.len()),
            entities(lang, e)
        ),
        ZeroOutcomeRowsRemoved { outcome, rows } => format!(
            "{rows} observación(es) eliminadas: `{outcome}` es cero en todas las filas de su \
             nivel de un efecto fijo (el efecto del nivel sería −∞; como pyfixest fepois); \
             vea excluded_rows"
        ),
        SingletonsRemoved { rows } => format!(
            "{rows} observación(es) únicas en un nivel de un efecto fijo eliminadas \
             (repetidamente, como fixest y pyfixest); vea excluded_rows"
        ),
        HausmanWeighted => "la prueba de Hausman no se calcula en ajustes ponderados".into(),
        HausmanUnavailable { why } => {
            format!("la prueba de Hausman no está disponible: {}", why.text(lang))
        }
        FirstDifferences {
                differences,
                rows,
                after_gap,
            } => format!(
            "primeras diferencias: {differences} diferencias a partir de {rows} filas; la \
             primera fila de cada entidad inicia las diferencias{}",
            if *after_gap > 0 {
                format!(", y {after_gap} fila(s) siguen a un salto en los períodos e inician una nueva serie")
            } else {
                String::new()
            }
        ),
        NoConsecutivePeriods { entities: e } => format!(
            "{} {} sin dos períodos consecutivos no aportan diferencias: {}",
            e.len(),
            entity_word(lang, e.len()),
            entities(lang, e)
        ),
        UnbalancedTheta => {
            "el panel no está balanceado: θ varía por entidad (θ_i según T_i), vea theta_summary".into()
        }
        NegativeSigmaU { value } => format!(
            "la estimación de Swamy–Arora de σ²_u es negativa ({}); se fija en 0, \
             de modo que θ = 0 y los efectos aleatorios coinciden con MCO agrupado",
            lang.with_decimal_mark(format!("{value:.4e}"))
        ),
        PoissonConverged { iterations } => {
            format!("poisson-fe convergió en {iterations} iteración(es) de Newton")
        }
        AllZeroEntities {
                outcome,
                entities: e,
            } => format!(
            "{} {} con `{outcome}` = 0 en todos los períodos excluidas: {}",
            e.len(),
            entity_word(lang, e.len()),
            entities(lang, e)
        ),
        RowsExcluded { rows } => rows_excluded(lang, rows),
        AbsorbedEffects { effects } => absorbed_effects(lang, effects),
        }
    }
}

english_display_and_json!(Diagnostic => render);

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Diagnostic> {
        let names = |n: usize| (1..=n).map(|i| format!("e{i}")).collect::<Vec<_>>();
        vec![
            Diagnostic::RowsExcluded {
                rows: (1..=12).collect(),
            },
            Diagnostic::ExposureIgnored {
                estimator: Estimator::Fe,
            },
            Diagnostic::NoExposure,
            Diagnostic::Singletons { entities: names(1) },
            Diagnostic::HausmanWeighted,
            Diagnostic::HausmanUnavailable {
                why: crate::ModelError::NotEnoughData(crate::NotEnoughData::OutcomeAllZero {
                    outcome: "deaths".into(),
                }),
            },
            Diagnostic::FirstDifferences {
                differences: 9,
                rows: 12,
                after_gap: 1,
            },
            Diagnostic::NoConsecutivePeriods { entities: names(7) },
            Diagnostic::UnbalancedTheta,
            Diagnostic::NegativeSigmaU { value: -0.139187 },
            Diagnostic::PoissonConverged { iterations: 4 },
            Diagnostic::AllZeroEntities {
                outcome: "deaths".into(),
                entities: names(2),
            },
            Diagnostic::SingleRowEntities { entities: names(2) },
            Diagnostic::ZeroOutcomeRowsRemoved {
                outcome: "deaths".into(),
                rows: 4,
            },
            Diagnostic::SingletonsRemoved { rows: 3 },
            Diagnostic::AbsorbedEffects {
                effects: vec![("commune".into(), 345), ("region^year".into(), 320)],
            },
        ]
    }

    #[test]
    fn every_diagnostic_renders_in_both_languages_and_they_differ() {
        for d in all() {
            let (en, es) = (d.render(Lang::En), d.render(Lang::Es));
            assert!(!en.is_empty() && !es.is_empty());
            assert_ne!(en, es, "{en}");
            assert_eq!(d.to_string(), en);
            assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
            assert_eq!(imr_lang::decimal_points(&es), Vec::<String>::new(), "{es}");
        }
    }

    #[test]
    fn english_keeps_the_wording_of_the_json() {
        assert_eq!(
            Diagnostic::RowsExcluded {
                rows: (1..=12).collect()
            }
            .to_string(),
            "12 row(s) excluded for missing or unusable values (rows 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 2 more); see excluded_rows"
        );
        assert_eq!(
            Diagnostic::PoissonConverged { iterations: 4 }.render(Lang::Es),
            "poisson-fe convergió en 4 iteración(es) de Newton"
        );
        assert_eq!(
            Diagnostic::NoConsecutivePeriods {
                entities: (1..=7).map(|i| format!("e{i}")).collect()
            }
            .render(Lang::Es),
            "7 entidades sin dos períodos consecutivos no aportan diferencias: `e1`, `e2`, `e3`, `e4`, `e5`, y 2 más"
        );
        assert_eq!(
            serde_json::to_string(&Diagnostic::HausmanWeighted).unwrap(),
            "\"the Hausman test is not computed for weighted fits\""
        );
    }
}
