//! Moran's I in plain words ([`Moran::reading`]): what this I and its permutation p-value say of
//! the communes mapped, for a reader who has never met the statistic (issue 42: "Moran's I has
//! no plain reading").

use crate::autocorrelation::Moran;
use crate::classify::format_number_in;
use imr_stats::Lang;

/// The p-value at or under which the page calls a pattern more than chance (5 %).
pub const READING_ALPHA: f64 = 0.05;

impl Moran {
    /// One sentence of what this I and its pseudo p-value ([`Moran::p_value`], one-sided in the
    /// direction of the I observed) mean for the `n` areas with a value: neighbouring areas'
    /// values alike (I above its expectation) or unlike (below) more than shuffling the same
    /// values at random over the areas gives, when p ≤ [`READING_ALPHA`]; else not
    /// distinguishable from such a shuffle. The share of shuffles is the p-value in percent,
    /// the I as the page shows it (4 decimals), decimal comma in Spanish.
    pub fn reading(&self, lang: Lang) -> String {
        let i = format_number_in(self.i, 4, lang);
        let share = format_number_in(100.0 * self.p_value, 1, lang);
        let share = match lang {
            Lang::Es => format!("{share} %"),
            Lang::En => format!("{share}%"),
        };
        let n = self.n;
        let above = self.i >= self.expected;
        let beyond = match (lang, above) {
            (Lang::Es, true) => format!("una I de {i} o más"),
            (Lang::Es, false) => format!("una I de {i} o menos"),
            (Lang::En, true) => format!("an I of {i} or more"),
            (Lang::En, false) => format!("an I of {i} or less"),
        };
        let shuffle = match lang {
            Lang::Es => format!(
                "si los valores de estas {n} comunas se repartieran al azar entre ellas, {beyond} saldría en el {share} de los repartos"
            ),
            Lang::En => format!(
                "if the values of these {n} communes were shuffled at random among them, {beyond} would come up in {share} of the shuffles"
            ),
        };
        let distinct = self.p_value.is_finite() && self.p_value <= READING_ALPHA;
        match (lang, distinct, above) {
            (Lang::Es, true, true) => format!(
                "En palabras: las comunas vecinas tienen valores más parecidos entre sí de lo que daría el azar: {shuffle}."
            ),
            (Lang::Es, true, false) => format!(
                "En palabras: las comunas vecinas tienen valores más distintos entre sí de lo que daría el azar (alto junto a bajo): {shuffle}."
            ),
            (Lang::Es, false, _) => format!(
                "En palabras: que las comunas vecinas se parezcan más que otras no se distingue del azar: {shuffle}, más del 5 %."
            ),
            (Lang::En, true, true) => format!(
                "In words: neighbouring communes have values more alike than chance would give: {shuffle}."
            ),
            (Lang::En, true, false) => format!(
                "In words: neighbouring communes have values more unlike than chance would give (high beside low): {shuffle}."
            ),
            (Lang::En, false, _) => format!(
                "In words: whether neighbouring communes are more alike than others cannot be told from chance: {shuffle}, more than 5%."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moran(i: f64, p_value: f64, n: usize) -> Moran {
        Moran {
            i,
            expected: -1.0 / (n as f64 - 1.0),
            permutation_mean: 0.0,
            permutation_sd: 0.1,
            z: 0.0,
            p_value,
            permutations: 999,
            seed: 1,
            n,
            z_norm: 0.0,
            p_norm: 0.5,
            z_rand: None,
            p_rand: None,
        }
    }

    #[test]
    fn a_clear_pattern_is_read_as_neighbours_alike_more_than_chance() {
        let m = moran(0.2345, 0.001, 334);
        let es = m.reading(Lang::Es);
        assert!(
            es.contains("más parecidos entre sí de lo que daría el azar"),
            "{es}"
        );
        assert!(es.contains("estas 334 comunas"), "{es}");
        assert!(es.contains("una I de 0,2345 o más"), "{es}");
        assert!(es.contains("en el 0,1 % de los repartos"), "{es}");
        assert!(!es.contains("no se distingue"), "{es}");
        let en = m.reading(Lang::En);
        assert!(en.contains("more alike than chance would give"), "{en}");
        assert!(en.contains("an I of 0.2345 or more would come up in 0.1% of the shuffles"));
        // Below its expectation: unlike neighbours.
        let m = moran(-0.3, 0.02, 21);
        assert!(m.reading(Lang::Es).contains("más distintos"));
        assert!(m.reading(Lang::Es).contains("una I de −0,3000 o menos"));
        assert!(m.reading(Lang::En).contains("more unlike"));
    }

    #[test]
    fn no_clear_pattern_is_read_as_not_distinguishable_from_chance() {
        let m = moran(0.0123, 0.105, 21);
        let es = m.reading(Lang::Es);
        assert!(es.contains("no se distingue del azar"), "{es}");
        assert!(
            es.contains("en el 10,5 % de los repartos, más del 5 %"),
            "{es}"
        );
        assert!(!es.contains("más parecidos"), "{es}");
        let en = m.reading(Lang::En);
        assert!(en.contains("cannot be told from chance"), "{en}");
        assert!(en.contains("an I of 0.0123 or more would come up in 10.5% of the shuffles"));
        // The 5 % line itself counts as a pattern; a p-value that is not a number never does.
        assert!(moran(0.1, 0.05, 50)
            .reading(Lang::En)
            .contains("more alike"));
        assert!(moran(0.1, f64::NAN, 50)
            .reading(Lang::En)
            .contains("cannot be told"));
    }
}
