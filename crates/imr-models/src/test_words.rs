//! The words of a specification test: its null hypothesis ([`Hypothesis`]) and a caveat on it
//! ([`TestCaveat`]), values rendered in a language; JSON carries the English text.

use imr_stats::Lang;

/// The null hypothesis of a specification test the engine reports ([`crate::ChiSquaredTest`],
/// [`crate::FTest`]): a value rendered in a language; JSON carries the English text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hypothesis {
    /// F test of the entity effects (fe).
    NoEntityEffects,
    /// F test of the entity and year effects (twfe).
    NoEntityOrYearEffects,
    /// Breusch–Pagan LM test (re).
    NoEffectVariance,
    /// Hausman test (fe against re).
    EffectsUncorrelated,
    /// Mundlak Wald test (cre).
    MundlakMeansZero,
}

impl Hypothesis {
    /// The hypothesis in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match self {
            Hypothesis::NoEntityEffects => lang.pick(
                "todos los efectos de entidad son cero",
                "all entity effects are zero",
            ),
            Hypothesis::NoEntityOrYearEffects => lang.pick(
                "todos los efectos de entidad y de año son cero",
                "all entity and year effects are zero",
            ),
            Hypothesis::NoEffectVariance => lang.pick(
                "la varianza de los efectos de entidad es cero (MCO agrupado es adecuado)",
                "the variance of the entity effects is zero (pooled OLS is adequate)",
            ),
            Hypothesis::EffectsUncorrelated => lang.pick(
                "los efectos de entidad no están correlacionados con los regresores (efectos aleatorios es consistente)",
                "the entity effects are uncorrelated with the regressors (random effects is consistent)",
            ),
            Hypothesis::MundlakMeansZero => lang.pick(
                "las medias por entidad de los regresores que varían en el tiempo tienen coeficientes cero (los efectos de entidad no están correlacionados con los regresores: efectos aleatorios es consistente)",
                "the entity means of the time-varying regressors have zero coefficients (the entity \
                 effects are uncorrelated with the regressors: random effects is consistent)",
            ),
        }
    }
}

/// A caveat on a specification test, rendered in a language; JSON carries the English text.
#[derive(Debug, Clone, PartialEq)]
pub enum TestCaveat {
    /// `V_FE − V_RE` is not positive definite (Hausman): the statistic uses the generalised
    /// inverse over the `rank` positive eigenvalues (all eigenvalues listed, ascending).
    GeneralisedInverse { eigenvalues: Vec<f64>, rank: usize },
}

impl TestCaveat {
    /// The caveat in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            TestCaveat::GeneralisedInverse { eigenvalues, rank } => {
                let listed: Vec<String> = eigenvalues.iter().map(|l| format!("{l:.3e}")).collect();
                let listed = listed.join(", ");
                match lang {
                    Lang::En => format!(
                        "V_FE − V_RE is not positive definite (eigenvalues {listed}); the statistic uses a generalised \
                         inverse over the {rank} positive eigenvalue(s) and its χ² reference is only approximate. \
                         Prefer the Mundlak test (model `cre`) with clustered errors."
                    ),
                    Lang::Es => format!(
                        "V_FE − V_RE no es definida positiva (valores propios {listed}); el estadístico usa una inversa \
                         generalizada sobre {rank} valor(es) propio(s) positivo(s) y su referencia χ² es solo aproximada. \
                         Prefiera la prueba de Mundlak (modelo cre) con errores agrupados."
                    ),
                }
            }
        }
    }
}

impl serde::Serialize for TestCaveat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text(Lang::En))
    }
}

english_display_and_json!(Hypothesis => text);

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(TestCaveat);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hypothesis_renders_in_both_languages() {
        assert_eq!(
            Hypothesis::NoEntityEffects.text(Lang::Es),
            "todos los efectos de entidad son cero"
        );
        for h in [
            Hypothesis::NoEntityEffects,
            Hypothesis::NoEntityOrYearEffects,
            Hypothesis::NoEffectVariance,
            Hypothesis::EffectsUncorrelated,
            Hypothesis::MundlakMeansZero,
        ] {
            assert_ne!(h.text(Lang::Es), h.text(Lang::En));
            assert_eq!(
                imr_lang::english_words(h.text(Lang::Es)),
                Vec::<String>::new()
            );
            assert_eq!(
                serde_json::to_string(&h).unwrap(),
                format!("\"{}\"", h.text(Lang::En))
            );
        }
    }
}
