//! The columns the Models view offers as weights and as clusters of the standard errors: the
//! ones that can be what the select says, not every number of the file (a newcomer was offered
//! the region's code, SINIM's year and SINIM's rate as weights, and poverty as a cluster).
//! `imr fit` takes any column it is given; these lists are the page's choices.

use crate::panel::Panel;
use std::collections::HashMap;

/// Columns offered as the weights of a linear fit (pooled OLS, fixed effects): sizes, as a
/// rate's precision grows with its births (`[aweight=births]` in Stata, `weights = ~births` in
/// fixest). `births` when the panel has them, then each covariate that is a count of people: of
/// whole numbers, never negative, over 100 somewhere (a population), whose name is not a code's
/// (`codigo_*`, `cod_*`, `id`, `*_id`) and which the codebook does not document as something
/// else (a rate, a share, a 0/1, a distance, money). Never the rate, the deaths (a weight by the
/// outcome's numerator selects on the outcome), a year or a code.
pub fn weight_candidates(panel: &Panel) -> Vec<String> {
    let births = panel.has_births.then(|| "births".to_owned());
    let sizes = (panel.numeric_names.iter()).filter(|name| {
        let documented_as_other = crate::data::codebook::column_doc(name)
            .is_some_and(|doc| !matches!(doc.unit.as_str(), "persons" | "live births"));
        !documented_as_other && !is_code_name(name) && is_count_of_people(&values(panel, name))
    });
    births.into_iter().chain(sizes.cloned()).collect()
}

/// Columns offered to cluster the standard errors by (besides the commune, the default): groups
/// of rows, as Stata's `vce(cluster g)` and fixest's `cluster = ~g` are used. The time column,
/// the text columns, and the numeric columns of whole numbers that do not change within a
/// commune (a region's code), each with two groups at least; not a measurement such as poverty
/// or a distance, whose every value would be a cluster of its own.
pub fn cluster_candidates(panel: &Panel) -> Vec<String> {
    let time = std::iter::once(panel.time_column.clone());
    let texts = panel.text_names.iter().cloned();
    let groups = (panel.numeric_names.iter())
        .filter(|name| {
            let column = values(panel, name);
            let whole = column.iter().flatten().all(|v| v.fract() == 0.0);
            whole && distinct(&column) >= 2 && constant_within_entities(panel, &column)
        })
        .cloned();
    time.chain(texts)
        .chain(groups)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The values of a numeric column, one per row (missing: `None`).
fn values(panel: &Panel, name: &str) -> Vec<Option<f64>> {
    panel.numeric_column(name).unwrap_or_default()
}

/// A name of a code: `codigo_region`, `cod_comuna`, `id`, `region_id`, `code` (after
/// normalising case and accents).
fn is_code_name(name: &str) -> bool {
    let n = crate::data::names::normalise_name(name);
    n.starts_with("cod") || n == "id" || n.starts_with("id_") || n.ends_with("_id")
}

/// Whole numbers, never negative, over 100 somewhere, and not all years (1800–2200).
fn is_count_of_people(column: &[Option<f64>]) -> bool {
    let observed: Vec<f64> = column.iter().flatten().copied().collect();
    let whole = observed.iter().all(|v| *v >= 0.0 && v.fract() == 0.0);
    let years = observed.iter().all(|v| (1800.0..=2200.0).contains(v));
    whole && !years && observed.iter().any(|v| *v > 100.0)
}

/// How many distinct observed values the column has.
fn distinct(column: &[Option<f64>]) -> usize {
    let mut seen: Vec<u64> = column.iter().flatten().map(|v| v.to_bits()).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// Every commune has one value of the column in all its observed rows.
fn constant_within_entities(panel: &Panel, column: &[Option<f64>]) -> bool {
    let mut first: HashMap<&str, f64> = HashMap::new();
    panel.rows().zip(column).all(|(row, value)| match value {
        Some(v) => *first.entry(row.entity).or_insert(*v) == *v,
        None => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{bundled_panel, panel_of};

    /// The bundled panel: births alone are a size; SINIM's rate and year, the region's code,
    /// deaths' bounds and the shares are not weights. Its clusters are the year, the texts and
    /// the region's code, not poverty or the distance to the hospital.
    #[test]
    fn the_bundled_panel_offers_births_as_weights_and_its_groups_as_clusters() {
        let p = bundled_panel();
        assert_eq!(weight_candidates(&p), ["births"]);
        let clusters = cluster_candidates(&p);
        assert_eq!(clusters.first().map(String::as_str), Some("anio"));
        for group in ["region", "codigo_region"] {
            assert!(
                clusters.iter().any(|c| c == group),
                "{group} in {clusters:?}"
            );
        }
        for measure in [
            "pobreza",
            "dist_hospital_km",
            "tmi_sinim",
            "defunciones_min",
        ] {
            assert!(
                !clusters.iter().any(|c| c == measure),
                "{measure} in {clusters:?}"
            );
        }
    }

    /// Her file: a population is a weight; its code, its year of census, its share and its
    /// negative balance are not. Her region number is a cluster; her poverty is not.
    #[test]
    fn an_uploaded_population_is_a_weight_and_a_region_number_a_cluster() {
        let p = panel_of(
            "codigo_comuna,anio,nacimientos,defunciones,poblacion,cod_region,anio_censo,pct,saldo,\
             pobreza\n\
             01101,2019,3000,21,191000,1,2017,0.5,-3,12.5\n\
             01101,2020,2900,20,193000,1,2017,0.6,4,12.9\n\
             02101,2019,4000,30,420000,2,2017,0.4,7,8.1\n\
             02101,2020,3950,25,425000,2,2017,0.3,2,8.4\n",
        );
        assert_eq!(weight_candidates(&p), ["births", "poblacion"]);
        let clusters = cluster_candidates(&p);
        assert!(clusters.contains(&"cod_region".to_owned()), "{clusters:?}");
        // the census year is one group; poverty and the population change within a commune
        for not_group in ["anio_censo", "pobreza", "poblacion", "saldo"] {
            assert!(!clusters.iter().any(|c| c == not_group), "{not_group}");
        }
    }

    /// A weight the data lack is answered with the sizes the select lists, not with any number
    /// (it offered her poverty as weights).
    #[test]
    fn a_missing_weight_suggests_the_sizes() {
        let p = panel_of(
            "codigo_comuna,anio,nacimientos,defunciones,pobreza\n\
             13101,2020,100,1,10\n13102,2020,200,3,12\n13101,2021,110,2,9\n",
        );
        let request = crate::request::FitRequest {
            x: vec!["pobreza".into()],
            weights: Some("ingreso_salud_pc".into()),
            ..Default::default()
        };
        let error = (request.for_model(imr_models::Estimator::Pooled))
            .run(&p)
            .unwrap_err();
        let es = crate::view::fit_failure_text(&error, crate::Lang::Es);
        assert!(es.ends_with("como pesos: «Nacimientos»."), "{es}");
        let en = crate::view::fit_failure_text(&error, crate::Lang::En);
        assert!(en.ends_with("as the weights instead: «Births»."), "{en}");
    }
}
