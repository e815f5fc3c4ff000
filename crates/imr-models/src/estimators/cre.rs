//! Mundlak's (1978) correlated random effects: `re` plus the entity means `x̄_i` of the
//! time-varying regressors; their coefficients measure the correlation of the effects with
//! the regressors (Wald test that they are zero), and the coefficients on `x_it` equal the
//! within estimates.

use super::re::fit_random;
use super::Room;
use crate::estimated::Estimated;
use crate::prepared::Prepared;
use crate::report::code::stata::{stata, StataModel};
use crate::spec::{PanelSpec, CRE_MEAN_SUFFIX};
use crate::within::group_means;
use crate::ModelError;

/// The Mundlak augmentation: appends the entity mean of every regressor that varies within
/// entities, named `<x>_mean`. Returns the augmented panel and the indices of the mean columns.
pub(crate) fn mundlak_augment(prep: &Prepared) -> (Prepared, Vec<usize>) {
    let g = prep.n_entities();
    let mut augmented = prep.clone();
    let mut mean_columns = Vec::new();
    for j in 0..prep.x.len() {
        if crate::linear::varies_within(&prep.x[j], &prep.entity, g) {
            let means = group_means(&prep.x[j], &prep.entity, g, None);
            augmented
                .x
                .push(prep.entity.iter().map(|&e| means[e]).collect());
            augmented
                .x_names
                .push(format!("{}{CRE_MEAN_SUFFIX}", prep.x_names[j]));
            mean_columns.push(augmented.x.len() - 1);
        }
    }
    (augmented, mean_columns)
}

fn fit(prep: &mut Prepared, spec: &PanelSpec) -> Result<Estimated, ModelError> {
    let (augmented, means) = mundlak_augment(prep);
    let mut est = fit_random(&augmented, spec, &means)?;
    // the mean columns are added by the model: never report them as dropped
    est.dropped_terms
        .retain(|d| !means.iter().any(|&j| augmented.x_names[j] == d.term));
    Ok(est)
}

fn stata_model(m: &StataModel) -> String {
    let (y, rhs, xs) = (&m.y, m.rhs(), &m.xs);
    let mut out = String::new();
    let means: Vec<String> = m
        .fit
        .coefficients
        .iter()
        .filter_map(|c| c.term.strip_suffix(CRE_MEAN_SUFFIX).map(stata))
        .collect();
    out.push_str(&format!(
        "generate byte touse = !missing({y}, {})\n",
        xs.join(", ")
    ));
    for x in &means {
        out.push_str(&format!(
            "bysort entity_id: egen {x}_mean = mean(cond(touse, {x}, .))\n"
        ));
    }
    let mean_names: Vec<String> = means.iter().map(|x| format!("{x}_mean")).collect();
    out.push_str(&format!(
        "xtreg {y} {rhs} {} if touse{}\n",
        mean_names.join(" "),
        m.opts("re")
    ));
    out.push_str(&format!("test {}\n", mean_names.join(" ")));
    out
}

/// The estimator's room (registered in registry.rs).
pub(crate) const ROOM: Room = Room {
    name: "cre",
    label: (
        "Efectos aleatorios correlacionados (Mundlak)",
        "Correlated random effects (Mundlak)",
    ),
    plain: ("efectos aleatorios correlacionados", "correlated random effects"),
    compares: (
        "como efectos fijos, más lo que no cambia en el tiempo",
        "as fixed effects, plus what does not change over time",
    ),
    takes_weights: false,
    uses_z: true,
    takes_exposure: false,
    lists_singletons: true,
    fit,
    absorbs: None,
    r_model: super::re::r_model,
    stata_model,
};
