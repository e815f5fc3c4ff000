//! The standard errors in words, one wording for every place that names them to a reader: the
//! Models view's select list and table ([`VcovKind::label_in`]) and the Spanish regression tables
//! of `imr fit --lang es` (a newcomer read "Agrupados por entidad" in the downloaded table beside
//! the page's "Agrupados por comuna").

use crate::spec::VcovKind;
use imr_stats::Lang;

impl VcovKind {
    /// "Agrupados por comuna" ("Clustered by commune"), "Clásicos", "Robustos a
    /// heterocedasticidad": the kind as the page offers and names it. The conventions' names
    /// (iid, HC1, CR1) and their formulas are in the fit's method text
    /// ([`crate::Fit::vcov_convention`]).
    pub fn label_in(self, lang: Lang) -> &'static str {
        let (es, en) = match self {
            VcovKind::Iid => ("Clásicos", "Classical"),
            VcovKind::Hc1 => (
                "Robustos a heterocedasticidad",
                "Robust to heteroskedasticity",
            ),
            VcovKind::Cluster => ("Agrupados por comuna", "Clustered by commune"),
        };
        lang.pick(es, en)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_spanish_words_and_the_cluster_is_by_commune() {
        assert_eq!(VcovKind::Cluster.label_in(Lang::Es), "Agrupados por comuna");
        assert_eq!(VcovKind::Cluster.label_in(Lang::En), "Clustered by commune");
        for kind in VcovKind::ALL {
            assert_ne!(kind.label_in(Lang::Es), kind.name());
            assert_ne!(kind.label_in(Lang::Es), kind.label_in(Lang::En));
        }
    }
}
