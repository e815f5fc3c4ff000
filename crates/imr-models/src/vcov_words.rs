//! The standard errors in words, one wording for every place that names them to a reader: the
//! Models view's select list and table ([`VcovKind::label_in`]) and the Spanish regression tables
//! of `imr fit --lang es` (a newcomer read "Agrupados por entidad" in the downloaded table beside
//! the page's "Agrupados por comuna").

use crate::fit::Fit;
use crate::reader::Reader;
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

/// The panel's own keys in words, as a cluster names them (`--cluster entity`, `time`): "comuna",
/// "período" ("commune", "period"); `None` for a column of the data.
pub(crate) fn key_words(lang: Lang, name: &str) -> Option<&'static str> {
    match name {
        "entity" => Some(lang.pick("comuna", "commune")),
        "time" => Some(lang.pick("período", "period")),
        _ => None,
    }
}

/// What a fit's standard errors are clustered by, in words of `lang`: the commune (the
/// panel's entity, `--cluster` not given or `entity`), the period (`time`), or the columns as
/// `column` names them ("«Región»", "«Región» y «Año»"); `None` when they are not clustered.
pub(crate) fn clustered_by(
    fit: &Fit,
    lang: Lang,
    column: &dyn Fn(&str) -> String,
) -> Option<String> {
    use crate::convention::Convention::*;
    let named = |name: &str| key_words(lang, name).map_or_else(|| column(name), str::to_owned);
    match &fit.vcov_convention {
        Cluster { .. } | PoissonCluster { .. } => Some(named("entity")),
        ClusterBy { column: c, .. } => Some(named(c)),
        TwoWayCluster {
            columns: [a, b], ..
        } => Some(format!(
            "{} {} {}",
            named(a),
            lang.pick("y", "and"),
            named(b)
        )),
        _ => None,
    }
}

impl Fit {
    /// The fit's standard errors in the reader's words, naming what they are clustered by:
    /// "Agrupados por comuna", "Agrupados por «Región»" (the Models view's table row, which said
    /// "Agrupados por comuna" of a fit clustered by region), else [`VcovKind::label_in`].
    pub fn vcov_words(&self, reader: Reader) -> String {
        let lang = reader.lang();
        match clustered_by(self, lang, &|c| reader.column(c)) {
            Some(by) => format!("{} {by}", lang.pick("Agrupados por", "Clustered by")),
            None => self.vcov.label_in(lang).to_owned(),
        }
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
