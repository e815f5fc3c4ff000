//! How much of the observed inequality is random variation, said as precisely as the adjusted
//! measure's interval allows.

use imr_stats::Lang;

/// Wider than this (as a share, 0–1) the interval of the share is all the sentence says: a point
/// share of 33% whose interval runs from 0% to 100% is not "about 33%".
const IMPRECISE: f64 = 0.5;

/// " About 33% (20% to 45%) of the observed inequality (2012) is random variation …", or, when
/// the adjusted interval leaves the share wide open, " How much of the observed inequality (2012)
/// is random variation … these data cannot pin down: between 0% and 100%." `share` the point
/// share, `range` the shares the adjusted interval allows (each 0–1).
pub(super) fn sentence(lang: Lang, year: i64, share: f64, range: Option<[f64; 2]>) -> String {
    let pct = |s: f64| format!("{:.0}", (100.0 * s.clamp(0.0, 1.0)) + 0.0);
    let point = pct(share);
    match range {
        Some([lo, hi]) if hi - lo > IMPRECISE => match lang {
            Lang::En => format!(
                " How much of the observed inequality ({year}) is random variation from small numbers of births these data cannot pin down: between {}% and {}%.",
                pct(lo),
                pct(hi)
            ),
            Lang::Es => format!(
                " Qué parte de la desigualdad observada ({year}) es variación aleatoria por el bajo número de nacimientos estos datos no lo precisan: entre el {}% y el {}%.",
                pct(lo),
                pct(hi)
            ),
        },
        Some([lo, hi]) => match lang {
            Lang::En => format!(
                " About {point}% ({}% to {}%) of the observed inequality ({year}) is random variation from small numbers of births.",
                pct(lo),
                pct(hi)
            ),
            Lang::Es => format!(
                " Cerca del {point}% (entre el {}% y el {}%) de la desigualdad observada ({year}) es variación aleatoria por el bajo número de nacimientos.",
                pct(lo),
                pct(hi)
            ),
        },
        None => match lang {
            Lang::En => format!(
                " About {point}% of the observed inequality ({year}) is random variation from small numbers of births."
            ),
            Lang::Es => format!(
                " Cerca del {point}% de la desigualdad observada ({year}) es variación aleatoria por el bajo número de nacimientos."
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A newcomer read "Cerca del 33% … es variación aleatoria" beside "no se distinguen
    /// diferencias reales" (the adjusted Gini's interval reached zero): a share whose interval
    /// runs to 100% is said as that interval, not as its point.
    #[test]
    fn a_share_the_interval_leaves_open_is_said_as_its_range() {
        let open = sentence(Lang::Es, 2012, 0.33, Some([0.0, 1.0]));
        assert!(!open.contains("33"), "{open}");
        assert!(open.contains("entre el 0% y el 100%"), "{open}");
        let narrow = sentence(Lang::Es, 2021, 0.557, Some([0.41, 0.68]));
        assert!(
            narrow.contains(
                "Cerca del 56% (entre el 41% y el 68%) de la desigualdad observada (2021)"
            ),
            "{narrow}"
        );
        let en = sentence(Lang::En, 2012, 0.33, Some([0.0, 1.0]));
        assert!(
            en.contains("between 0% and 100%") && !en.contains("33"),
            "{en}"
        );
    }
}
