//! The coefficient plot's words: the legend names each model and its standard errors in plain
//! words (what a reader of a published chart can follow), while the technical names (the
//! estimator's label, the covariance convention) go in the file's `<desc>`; the subtitle says
//! how to read a row and the axis what a coefficient is a change of.

use crate::fit::Fit;
use imr_stats::Lang;

/// The legend text of one fit: the model in plain words, what it compares and its standard
/// errors ("Efectos fijos: cada comuna comparada consigo misma en el tiempo; errores agrupados
/// por comuna").
pub(super) fn legend_entry(fit: &Fit, lang: Lang) -> String {
    let se = match fit.vcov {
        crate::VcovKind::Iid => lang.pick("errores clásicos", "classical errors").to_owned(),
        crate::VcovKind::Hc1 => lang
            .pick(
                "errores robustos a heterocedasticidad",
                "errors robust to heteroskedasticity",
            )
            .to_owned(),
        // by what the fit clusters on ("por «region»", not "por comuna" of a fit by region)
        crate::VcovKind::Cluster => {
            // the column by its name, in the reader's quotes (the plot knows no codebook)
            let reader = crate::reader::Reader::new(lang, |_, name| name.to_owned());
            let by = crate::vcov_words::clustered_by(fit, lang, &|c| reader.column(c))
                .unwrap_or_default();
            format!(
                "{} {by}",
                lang.pick("errores agrupados por", "errors clustered by")
            )
        }
    };
    let name = upper_first(fit.model.plain_in(lang));
    format!("{name}: {}; {se}", fit.model.compares_in(lang))
}

/// The technical line of one fit for the file's `<desc>`: the estimator's label, the
/// standard errors with their convention's name and the level ("Efectos fijos (intragrupos), EE
/// agrupados (CR1), IC 95%").
pub(super) fn technical_entry(fit: &Fit, lang: Lang) -> String {
    let pct = format!("{:.0}", fit.inference.conf_level * 100.0);
    let model = fit.model.label_in(lang);
    let se = match fit.vcov {
        crate::VcovKind::Iid => lang.pick("EE clásicos (iid)", "classical SE (iid)"),
        crate::VcovKind::Hc1 => lang.pick("EE robustos (HC1)", "robust SE (HC1)"),
        crate::VcovKind::Cluster => lang.pick("EE agrupados (CR1)", "clustered SE (CR1)"),
    };
    match lang {
        Lang::En => format!("{model}, {se}, {pct}% CI"),
        Lang::Es => format!("{model}, {se}, IC {pct}%"),
    }
}

/// How to read a row, under the title: "Punto: estimación; línea: intervalo de confianza del
/// 95%. Cada característica, en la unidad que indica su nombre."; with a correlated random
/// effects fit, what its rows "media de la comuna" are.
pub(super) fn subtitle(fits: &[Fit], lang: Lang) -> String {
    let pct = fits
        .first()
        .map_or(95.0, |f| f.inference.conf_level * 100.0);
    let how = match lang {
        Lang::Es => format!(
            "Punto: estimación; línea: intervalo de confianza del {pct:.0}%. Línea discontinua: sin asociación."
        ),
        Lang::En => format!(
            "Dot: estimate; line: {pct:.0}% confidence interval. Dashed line: no association."
        ),
    };
    // Mundlak's commune means (correlated random effects) are rows a reader met unexplained.
    let has_means = fits.iter().any(|f| {
        f.model == crate::Estimator::Cre
            && f.coefficients
                .iter()
                .any(|c| c.term.ends_with(crate::spec::CRE_MEAN_SUFFIX))
    });
    if !has_means {
        return how;
    }
    let means = lang.pick(
        " Filas «media de la comuna»: el promedio de la característica en los años de cada comuna; separan la diferencia entre comunas del cambio dentro de cada una.",
        " Rows “commune mean”: the characteristic's average over each commune's years; they separate the difference between communes from the change within each.",
    );
    how + means
}

/// The axis title: what a coefficient is a change of — one unit of the characteristic, or,
/// when some rows are drawn per a larger change (`per_change`), the increase each such row
/// names ("+50 km").
pub(super) fn axis_title(lang: Lang, per_change: bool) -> &'static str {
    match per_change {
        false => lang.pick(
            "Cambio por cada unidad más de la característica (su unidad, entre paréntesis)",
            "Change for each one-unit increase in the characteristic (its unit in brackets)",
        ),
        true => lang.pick(
            "Cambio por el aumento que indica cada fila (+…); sin él, por una unidad más",
            "Change for the increase each row names (+…); without one, per one unit more",
        ),
    }
}

fn upper_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
