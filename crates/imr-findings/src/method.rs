//! "How was it computed?": the short glossary under each answer. The headlines say what the
//! numbers mean in plain words; the names of the methods, their references and the terms a
//! reader may not know ("IC 95%", "Gini", "efectos fijos") are explained here, once per answer,
//! so that an answer never needs its jargon to be read.

use imr_core::Lang;
use serde::Serialize;

/// One term of the glossary and what it means, in the answer's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term {
    pub term: String,
    pub meaning: String,
}

fn term(lang: Lang, term: [&str; 2], meaning: [&str; 2]) -> Term {
    Term {
        term: lang.pick(term[0], term[1]).to_owned(),
        meaning: lang.pick(meaning[0], meaning[1]).to_owned(),
    }
}

/// The 95% interval, which every answer gives.
fn interval(lang: Lang) -> Term {
    term(
        lang,
        ["IC 95%", "95% CI"],
        [
            "Intervalo de confianza de 95%: los valores compatibles con los datos dado el azar de contar pocas muertes. Si dos intervalos no se tocan, la diferencia no es azar; si un intervalo incluye el cero, no se puede decir que haya cambio o relación.",
            "95% confidence interval: the values compatible with the data given the chance of counting few deaths. If two intervals do not touch, the difference is not chance; if an interval includes zero, no change or link can be claimed.",
        ],
    )
}

/// The title of the fold.
pub fn heading(lang: Lang) -> &'static str {
    lang.pick("¿Cómo se calculó?", "How was it computed?")
}

/// Question 1: the pooled rate, its interval and the trend.
pub(crate) fn rates(lang: Lang, whole_country: bool) -> Vec<Term> {
    vec![
        term(
            lang,
            if whole_country {
                ["Tasa nacional", "National rate"]
            } else {
                ["Tasa de las comunas cargadas", "Rate of the communes loaded"]
            },
            [
                "Defunciones de menores de un año por 1.000 nacidos vivos: la suma de las defunciones de todas las comunas con datos de ese año dividida por la suma de sus nacimientos (las filas marcadas como dudosas quedan fuera salvo que se incluyan). Su intervalo es el exacto de Poisson (Garwood 1936).",
                "Deaths under one year per 1,000 live births: the sum of the deaths of every commune with data that year over the sum of their births (rows flagged as doubtful are left out unless included). Its interval is the exact Poisson one (Garwood 1936).",
            ],
        ),
        term(
            lang,
            ["Tendencia", "Trend"],
            [
                "La recta que mejor sigue la tasa de cada año (mínimos cuadrados): cuánto cambia por año. Su intervalo refleja solo la dispersión entre años.",
                "The straight line that best follows each year's rate (least squares): how much it changes a year. Its interval reflects the scatter between years only.",
            ],
        ),
        term(
            lang,
            ["Comuna mediana", "Median commune"],
            [
                "La tasa que deja la mitad de las comunas por encima y la mitad por debajo, sin pesar por nacimientos.",
                "The rate with half the communes above it and half below, not weighted by births.",
            ],
        ),
        interval(lang),
    ]
}

/// Question 2 (and the study's answer): the Gini with and without chance.
pub(crate) fn inequality(lang: Lang, approximate: bool) -> Vec<Term> {
    let mut terms = vec![
        term(
            lang,
            ["Gini", "Gini"],
            [
                "Una medida de desigualdad: 0 si todas las comunas tienen la misma tasa, y más alta cuanto más se separan; cada comuna pesa según sus nacimientos.",
                "A measure of inequality: 0 when every commune has the same rate, higher the further apart they are; each commune weighs by its births.",
            ],
        ),
        // The coverage: docs/METHODS.md, "Simulation study" (a reader of the page cannot
        // open the repository's files, so the text names the guide, not its path).
        term(
            lang,
            ["Ajustado por el azar", "Adjusted for chance"],
            [
                "En una comuna con pocos nacimientos una o dos muertes cambian mucho la tasa, y eso infla cualquier medida de desigualdad. Un modelo de Poisson y gamma, ajustado por máxima verosimilitud cada año, separa la variación real entre comunas de la que produce el azar; su intervalo es el de verosimilitud perfilada. En simulaciones con los nacimientos de Chile y tasas verdaderas conocidas, el intervalo las cubrió en 92–100% de los casos, como documenta la guía de métodos del proyecto.",
                "In a commune with few births one or two deaths change the rate a lot, which inflates any measure of inequality. A Poisson–gamma model, fitted by maximum likelihood each year, separates the real variation between communes from what chance produces; its interval is the profile-likelihood one. In simulations on Chile's births with known true rates, the interval covered them in 92–100% of cases, as the project's methods guide documents.",
            ],
        ),
    ];
    if approximate {
        terms.push(term(
            lang,
            ["Aproximado", "Approximate"],
            [
                "Las defunciones se derivaron de tasas publicadas y nacimientos, no se contaron: el modelo se ajustó por cuasi-verosimilitud, y el rango de valores cubre cuántos nacimientos pueden estar detrás de cada tasa y su redondeo.",
                "Deaths were derived from published rates and births, not counted: the model was fitted by quasi-likelihood, and the range of values covers how many births may lie behind each rate and its rounding.",
            ],
        ));
    }
    terms.push(interval(lang));
    terms
}

/// Question 3: the correlation of two yearly series.
pub(crate) fn correlation(lang: Lang) -> Vec<Term> {
    vec![
        term(
            lang,
            ["Correlación (r)", "Correlation (r)"],
            [
                "De −1 a 1: positiva si los años de una serie alta son los de la otra alta, cero si no van juntas (Pearson; intervalo por la transformación z de Fisher). La de rangos (ρ de Spearman) usa solo el orden de los años.",
                "From −1 to 1: positive when the years one series is high are those the other is high, zero when they do not go together (Pearson; interval from Fisher's z transformation). The rank one (Spearman's ρ) uses only the order of the years.",
            ],
        ),
        interval(lang),
    ]
}

/// Question 4: the panel models.
pub(crate) fn models(lang: Lang) -> Vec<Term> {
    vec![
        term(
            lang,
            ["Efectos fijos", "Fixed effects"],
            [
                "Compara cada comuna consigo misma en distintos años (estimador intragrupos): lo que no cambia dentro de una comuna no puede confundir el resultado, pero tampoco se puede estimar.",
                "Compares each commune with itself in different years (the within estimator): what does not change within a commune cannot confound the result, but cannot be estimated either.",
            ],
        ),
        term(
            lang,
            ["Efectos aleatorios", "Random effects"],
            [
                "Usa también las diferencias entre comunas (estimador de Swamy y Arora), lo que permite estimar lo que no cambia en el tiempo, suponiendo que no se relaciona con rasgos no medidos de cada comuna.",
                "Also uses the differences between communes (the Swamy–Arora estimator), which lets it estimate what does not change over time, assuming it unrelated to each commune's unmeasured traits.",
            ],
        ),
        term(
            lang,
            ["Prueba de Hausman", "Hausman test"],
            [
                "Compara los dos modelos: si difieren más de lo que explica el azar (p < 0,05), el de efectos aleatorios se descarta.",
                "Compares the two models: when they differ more than chance explains (p < 0.05), random effects are rejected.",
            ],
        ),
        term(
            lang,
            ["Intervalos", "Intervals"],
            [
                "Con errores estándar agrupados por comuna (CR1, como vce(cluster) en Stata): los años de una misma comuna no cuentan como observaciones independientes.",
                "With standard errors clustered by commune (CR1, as Stata's `vce(cluster)`): the years of one commune do not count as independent observations.",
            ],
        ),
        interval(lang),
    ]
}

/// Question 5: smoothed rates and their intervals.
pub(crate) fn smoothed(lang: Lang) -> Vec<Term> {
    vec![
        term(
            lang,
            ["Tasa suavizada", "Smoothed rate"],
            [
                "La tasa de cada comuna con todos los años sumados, acercada a la tasa de referencia tanto más cuanto menos nacimientos tiene (Bayes empírico, Marshall 1991): así una comuna pequeña no encabeza la lista por una o dos muertes.",
                "Each commune's rate with all years pooled, pulled towards the reference rate the more the fewer births it has (empirical Bayes, Marshall 1991): so a small commune does not top the list because of one or two deaths.",
            ],
        ),
        term(
            lang,
            ["Intervalo de la tasa suavizada", "Interval of the smoothed rate"],
            [
                "El de la distribución gamma que el método da a la tasa verdadera de la comuna (Clayton y Kaldor 1987).",
                "That of the gamma distribution the method gives to the commune's true rate (Clayton & Kaldor 1987).",
            ],
        ),
        interval(lang),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every glossary in both languages: the Spanish one has no English word of the page's list
    /// (the e2e check of the Spanish page found "«within»" here), and every one explains the 95%
    /// interval the answers give.
    #[test]
    fn every_glossary_is_in_its_language_and_explains_the_interval() {
        let all = |lang| {
            [
                rates(lang, true),
                rates(lang, false),
                inequality(lang, true),
                correlation(lang),
                models(lang),
                smoothed(lang),
            ]
        };
        for glossary in all(Lang::Es) {
            for t in &glossary {
                let words = imr_lang::english_label_words(&format!("{} {}", t.term, t.meaning));
                assert!(words.is_empty(), "{words:?} in {t:?}");
            }
            assert!(glossary.iter().any(|t| t.term == "IC 95%"));
        }
        for glossary in all(Lang::En) {
            assert!(glossary.iter().any(|t| t.term == "95% CI"));
        }
        // A reader of the page cannot open the repository's files: no glossary sends her to
        // one (the Spanish page said "(docs/METHODS.md)").
        for lang in [Lang::Es, Lang::En] {
            for t in all(lang).iter().flatten() {
                assert!(
                    !t.meaning.contains("docs/") && !t.meaning.contains(".md"),
                    "{t:?}"
                );
            }
        }
    }
}
