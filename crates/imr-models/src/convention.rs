//! The covariance convention of a fit in words: which estimator of the coefficients'
//! covariance, its small-sample factor with the numbers that enter it, and the reference
//! distribution of the tests. A value rendered in either language ([`Convention::text`]); the
//! JSON output carries its English text.

use crate::Lang;

/// The covariance convention of a fit, with the numbers its words state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Convention {
    /// `s²(X'X)⁻¹` with `s² = SSR/df` (linear models).
    Classical { df: usize, t_df: Option<usize> },
    /// White's sandwich × `n/(n − K)` (HC1, linear models).
    Hc1 {
        n: usize,
        df: usize,
        t_df: Option<usize>,
    },
    /// Sandwich clustered by entity × `G/(G−1)·(N−1)/(N−K)` (CR1, linear models; Stata
    /// `xtreg`/`regress`, `vce(cluster)`).
    Cluster {
        g: usize,
        n: usize,
        k: usize,
        t_df: Option<usize>,
    },
    /// Sandwich clustered by a column × `G/(G−1)·(N−1)/(N−K)` (CR1; pyfixest
    /// `vcov={"CRV1": column}`).
    ClusterBy {
        column: String,
        g: usize,
        n: usize,
        k: usize,
        t_df: Option<usize>,
    },
    /// Two-way clustered sandwich `V_a + V_b − V_ab` (Cameron, Gelbach & Miller 2011), each
    /// term × `G/(G−1)·(N−1)/(N−K)` with `G = min(G_a, G_b)` (pyfixest `vcov={"CRV1": "a+b"}`,
    /// fixest `cluster = ~a + b`).
    TwoWayCluster {
        columns: [String; 2],
        g_a: usize,
        g_b: usize,
        n: usize,
        k: usize,
        t_df: Option<usize>,
    },
    /// Inverse information of the Poisson likelihood (`poisson-fe`).
    PoissonModel,
    /// Inverse information × `(N−1)/(N−K)` (`poisson-fe` with absorbed effects; pyfixest
    /// `fepois` iid).
    PoissonAbsorbedModel { n: usize, df: usize },
    /// Sandwich × `n/(n − G − k)` (`poisson-fe`).
    PoissonHc1 { n: usize, df: usize },
    /// Sandwich clustered by entity × `G/(G−1)` (`poisson-fe`; Stata `xtpoisson, fe
    /// vce(robust)`).
    PoissonCluster { g: usize },
}

/// The reference distribution: Student t with `df` degrees of freedom, or the normal.
fn reference(t_df: &Option<usize>) -> String {
    match t_df {
        Some(d) => format!("t({d})"),
        None => "normal (z)".to_string(),
    }
}

impl Convention {
    /// The convention in words, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.english(),
            Lang::Es => grouped_integers(&self.spanish()),
        }
    }

    /// The English text (the JSON's and the code comments').
    fn english(&self) -> String {
        use Convention::*;
        match self {
            Classical { df, t_df } => format!(
                "classical: s²(X'X)⁻¹ with s² = SSR/{df} (observations minus every estimated \
             parameter, absorbed effects included); inference {}",
                reference(t_df)
            ),
            Hc1 { n, df, t_df } => format!(
            "heteroskedasticity-robust HC1: White sandwich × n/(n − K) = {n}/{df}; inference {}",
            reference(t_df)
        ),
            Cluster { g, n, k, t_df } => format!(
                "clustered by entity (CR1): sandwich × G/(G−1)·(N−1)/(N−K) with G = {g}, N = {n}, \
             K = {k} (coefficients not absorbed by the entity effects, counting the constant; \
             as Stata xtreg/regress vce(cluster)); inference {}",
                reference(t_df)
            ),
            ClusterBy {
                column,
                g,
                n,
                k,
                t_df,
            } => format!(
                "clustered by `{column}` (CR1): sandwich × G/(G−1)·(N−1)/(N−K) with G = {g}, \
             N = {n}, K = {k} (coefficients and the fixed effects not nested in the \
             clusters; as pyfixest CRV1); inference {}",
                reference(t_df)
            ),
            TwoWayCluster {
                columns: [a, b],
                g_a,
                g_b,
                n,
                k,
                t_df,
            } => format!(
                "two-way clustered by `{a}` and `{b}` (Cameron–Gelbach–Miller: V_a + V_b − V_ab), \
             each term × G/(G−1)·(N−1)/(N−K) with G = min({g_a}, {g_b}), N = {n}, K = {k} \
             (as pyfixest and fixest); inference {}",
                reference(t_df)
            ),
            PoissonModel => {
                "model-based: inverse information of the Poisson likelihood; inference normal (z)"
                    .to_string()
            }
            PoissonAbsorbedModel { n, df } => format!(
                "model-based: inverse information of the Poisson likelihood × (N−1)/(N−K) = \
             {}/{df} (K: coefficients and absorbed levels; as pyfixest fepois); inference \
             normal (z)",
                n.saturating_sub(1)
            ),
            PoissonHc1 { n, df } => format!(
            "heteroskedasticity-robust sandwich × n/(n − G − k) = {n}/{df}; inference normal (z)"
        ),
            PoissonCluster { g } => format!(
                "clustered by entity: sandwich × G/(G−1) with G = {g} (as Stata xtpoisson, fe \
             vce(robust)); inference normal (z)"
            ),
        }
    }

    /// The Spanish text.
    fn spanish(&self) -> String {
        use Convention::*;
        match self {
            Classical { df, t_df } => format!(
                "clásica: s²(X'X)⁻¹ con s² = SCR/{df} (observaciones menos todos los parámetros \
             estimados, incluidos los efectos absorbidos); inferencia {}",
                reference(t_df)
            ),
            Hc1 { n, df, t_df } => format!(
                "robusta a heterocedasticidad HC1: sándwich de White × n/(n − K) = {n}/{df}; \
             inferencia {}",
                reference(t_df)
            ),
            Cluster { g, n, k, t_df } => format!(
                "agrupados por entidad (CR1): sándwich × G/(G−1)·(N−1)/(N−K) con G = {g}, N = {n}, \
             K = {k} (coeficientes no absorbidos por los efectos de entidad, contando la \
             constante; como Stata xtreg/regress vce(cluster)); inferencia {}",
                reference(t_df)
            ),
            ClusterBy {
                column,
                g,
                n,
                k,
                t_df,
            } => format!(
                "agrupados por «{column}» (CR1): sándwich × G/(G−1)·(N−1)/(N−K) con G = {g}, \
             N = {n}, K = {k} (coeficientes y efectos fijos no anidados en los grupos; como \
             pyfixest CRV1); inferencia {}",
                reference(t_df)
            ),
            TwoWayCluster {
                columns: [a, b],
                g_a,
                g_b,
                n,
                k,
                t_df,
            } => format!(
                "agrupados en dos dimensiones por «{a}» y «{b}» (Cameron–Gelbach–Miller: \
             V_a + V_b − V_ab), cada término × G/(G−1)·(N−1)/(N−K) con G = mín({g_a}, {g_b}), \
             N = {n}, K = {k} (como pyfixest y fixest); inferencia {}",
                reference(t_df)
            ),
            PoissonModel => "basada en el modelo: inversa de la información de la \
             verosimilitud de Poisson; inferencia normal (z)"
                .to_string(),
            PoissonAbsorbedModel { n, df } => format!(
                "basada en el modelo: inversa de la información de la verosimilitud de Poisson × \
             (N−1)/(N−K) = {}/{df} (K: coeficientes y niveles absorbidos; como pyfixest \
             fepois); inferencia normal (z)",
                n.saturating_sub(1)
            ),
            PoissonHc1 { n, df } => format!(
                "sándwich robusto a heterocedasticidad × n/(n − G − k) = {n}/{df}; inferencia \
             normal (z)"
            ),
            PoissonCluster { g } => format!(
                "agrupados por entidad: sándwich × G/(G−1) con G = {g} (como Stata xtpoisson, fe \
             vce(robust)); inferencia normal (z)"
            ),
        }
    }
}

// The English text: the JSON output and the comments of the R and Stata code.
english_display_and_json!(Convention => text);

/// `text` with the thousands point in every whole number of four or more digits ("N = 4.144"),
/// as the Spanish page writes counts; a number with a decimal part, or in a name («region2019»),
/// is left as it is.
fn grouped_integers(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let joined = |at: Option<&char>| matches!(at, Some(',' | '.'));
        let in_name = start > 0 && (chars[start - 1].is_alphabetic() || chars[start - 1] == '_');
        let part_of_decimal = (start > 0 && joined(chars.get(start - 1)))
            || (joined(chars.get(i)) && chars.get(i + 1).is_some_and(char::is_ascii_digit));
        let digits: String = chars[start..i].iter().collect();
        if in_name || part_of_decimal || digits.len() < 4 {
            out.push_str(&digits);
        } else {
            let n: f64 = digits.parse().unwrap_or(f64::NAN);
            out.push_str(&Lang::Es.grouped(n, 0));
        }
    }
    out
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(Convention);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanish_counts_take_the_thousands_point_and_decimals_stay() {
        assert_eq!(
            grouped_integers("N = 4144, K = 12, G = 345; 4144/4132; s² = 0,01234; 12345,5 «r2019»"),
            "N = 4.144, K = 12, G = 345; 4.144/4.132; s² = 0,01234; 12345,5 «r2019»"
        );
    }

    #[test]
    fn every_convention_has_its_numbers_in_both_languages() {
        let all = [
            Convention::Classical {
                df: 7,
                t_df: Some(7),
            },
            Convention::Hc1 {
                n: 10,
                df: 7,
                t_df: None,
            },
            Convention::Cluster {
                g: 321,
                n: 1587,
                k: 3,
                t_df: Some(320),
            },
            Convention::ClusterBy {
                column: "region".into(),
                g: 7,
                n: 100,
                k: 3,
                t_df: Some(6),
            },
            Convention::TwoWayCluster {
                columns: ["region".into(), "year".into()],
                g_a: 7,
                g_b: 12,
                n: 100,
                k: 3,
                t_df: Some(6),
            },
            Convention::PoissonModel,
            Convention::PoissonAbsorbedModel { n: 10, df: 4 },
            Convention::PoissonHc1 { n: 10, df: 4 },
            Convention::PoissonCluster { g: 5 },
        ];
        for c in &all {
            let (en, es) = (c.text(Lang::En), c.text(Lang::Es));
            assert_ne!(en, es);
            assert_eq!(c.to_string(), en);
            assert_eq!(
                serde_json::to_value(c).unwrap(),
                serde_json::Value::String(en.clone())
            );
            for number in en
                .split(|ch: char| !ch.is_ascii_digit())
                .filter(|s| !s.is_empty())
            {
                // grouped in Spanish: 1587 is 1.587
                let grouped = Lang::Es.grouped(number.parse().unwrap(), 0);
                assert!(
                    es.contains(number) || es.contains(&grouped),
                    "{number} of «{en}» missing in «{es}»"
                );
            }
        }
        assert!(all[2]
            .text(Lang::Es)
            .starts_with("agrupados por entidad (CR1)"));
        assert!(all[2].text(Lang::En).ends_with("inference t(320)"));
    }
}
