//! The columns the page's selects offer (the Models view's regressors, outcome, weights and
//! clusters; the Inequality view's groups, rank, second series and its weight): the ones that
//! can be what the select says, not every number of the file (a newcomer was offered the
//! region's code, SINIM's year and SINIM's rate as weights, and poverty as a cluster). `imr fit`
//! and `imr inequality` take any column they are given; these lists are the page's choices.

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
        !documented_as_other && !is_code_name(name) && is_count_of_people(&observed(panel, name))
    });
    births.into_iter().chain(sizes.cloned()).collect()
}

/// Columns offered to cluster the standard errors by (besides the commune, the default): groups
/// of rows, as Stata's `vce(cluster g)` and fixest's `cluster = ~g` are used. The time column
/// when there are two years or more, then the groupings of the communes ([`groupings`]); not a
/// measurement such as poverty or a distance, a note or a source that changes from year to year,
/// nor the communes' names (the commune again).
pub fn cluster_candidates(panel: &Panel) -> Vec<String> {
    let years = panel.times().len();
    let time = (years >= 2 && !panel.time_column.is_empty()).then(|| panel.time_column.clone());
    time.into_iter().chain(groupings(panel)).collect()
}

/// The columns that group the communes: one value per commune in all its rows, two groups at
/// least and at most one for every two communes (a region, a province, an urban/rural mark; not
/// the commune's name, nor a measurement whose every commune has its own value), each grouping
/// once (the region's code beside the region's name is the same grouping: the first is kept).
pub fn groupings(panel: &Panel) -> Vec<String> {
    let communes = panel.entities().len();
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let columns = panel.text_names.iter().chain(&panel.numeric_names);
    columns
        .filter(|name| {
            let Some(keys) = panel.key_column(name) else {
                return false;
            };
            let Some(partition) = partition_of_communes(panel, &keys) else {
                return false;
            };
            let groups = partition.iter().max().map_or(0, |g| g + 1);
            let new = !seen.contains(&partition);
            let kept = new && groups >= 2 && 2 * groups <= communes;
            if kept {
                seen.push(partition);
            }
            kept
        })
        .cloned()
        .collect()
}

/// The numeric covariates offered as regressors and outcomes: measurements, not a code
/// (`codigo_region`, by its name), a year (every value a whole number from 1800 to 2200:
/// SINIM's year of publication) nor a part of the rate (a column the codebook gives in deaths
/// or live births: the deaths' bounds).
pub fn measurements(panel: &Panel) -> Vec<String> {
    (panel.numeric_names.iter())
        .filter(|name| {
            let part_of_rate = crate::data::codebook::column_doc(name)
                .is_some_and(|doc| matches!(doc.unit.as_str(), "deaths" | "live births" | "year"));
            let observed = observed(panel, name);
            let year = !observed.is_empty() && are_years(&observed);
            !part_of_rate && !year && !is_code_name(name)
        })
        .cloned()
        .collect()
}

/// Columns offered to weight the inequality of a value column (the Inequality view's second
/// series): births, then the [`measurements`] that are never negative (a share or
/// a population); not the rate, the deaths, a code or a year (a newcomer was offered the rate,
/// the region's code and SINIM's year).
pub fn value_weights(panel: &Panel) -> Vec<String> {
    let births = panel.has_births.then(|| "births".to_owned());
    let non_negative = (measurements(panel).into_iter())
        .filter(|name| observed(panel, name).iter().all(|v| *v >= 0.0));
    births.into_iter().chain(non_negative).collect()
}

/// Per commune (in order of first row), the index of its group by `keys` (one key per row),
/// groups numbered in order of first appearance; `None` when a commune has two keys or none.
fn partition_of_communes(panel: &Panel, keys: &[Option<String>]) -> Option<Vec<usize>> {
    let mut of_commune: Vec<(&str, &str)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (row, key) in panel.rows().zip(keys) {
        let key = key.as_deref()?;
        match index.get(row.entity) {
            Some(&i) if of_commune[i].1 != key => return None,
            Some(_) => {}
            None => {
                index.insert(row.entity, of_commune.len());
                of_commune.push((row.entity, key));
            }
        }
    }
    let mut groups: HashMap<&str, usize> = HashMap::new();
    Some(
        (of_commune.iter())
            .map(|(_, key)| {
                let next = groups.len();
                *groups.entry(key).or_insert(next)
            })
            .collect(),
    )
}

/// The observed values of a numeric column, in row order (missing ones left out).
fn observed(panel: &Panel, name: &str) -> Vec<f64> {
    let column = panel.numeric_column(name).unwrap_or_default();
    column.into_iter().flatten().collect()
}

/// Every value a whole number from 1800 to 2200: years (SINIM's year of publication, a census
/// year), not a measurement nor a count of people.
fn are_years(observed: &[f64]) -> bool {
    (observed.iter()).all(|v| v.fract() == 0.0 && (1800.0..=2200.0).contains(v))
}

/// A name of a code: `codigo_region`, `cod_comuna`, `id`, `region_id`, `code` (after
/// normalising case and accents).
fn is_code_name(name: &str) -> bool {
    let n = crate::data::names::normalise_name(name);
    n.starts_with("cod") || n == "id" || n.starts_with("id_") || n.ends_with("_id")
}

/// Whole numbers, never negative, over 100 somewhere, and not [years](are_years).
fn is_count_of_people(observed: &[f64]) -> bool {
    let whole = observed.iter().all(|v| *v >= 0.0 && v.fract() == 0.0);
    whole && !are_years(observed) && observed.iter().any(|v| *v > 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{bundled_panel, panel_of};

    /// The bundled panel: births alone are a size; SINIM's rate and year, the region's code,
    /// deaths' bounds and the shares are not weights. Its clusters are the year and the
    /// groupings of communes: the region once (its code is the same grouping), not the
    /// communes' names, the notes and sources that change by year, poverty or a distance.
    /// Its regressors are measurements: not the region's code, SINIM's year or the deaths'
    /// bounds.
    #[test]
    fn the_bundled_panel_offers_births_as_weights_and_its_groups_as_clusters() {
        let p = bundled_panel();
        assert_eq!(weight_candidates(&p), ["births"]);
        let clusters = cluster_candidates(&p);
        assert_eq!(clusters[..2], ["anio", "region"], "{clusters:?}");
        let not_groups = [
            "comuna",
            "codigo_region",
            "nota",
            "fuente_defunciones",
            "pobreza",
            "dist_hospital_km",
            "dist_capital_regional_km",
            "tmi_sinim",
            "defunciones_min",
        ];
        for column in not_groups {
            assert!(
                !clusters.iter().any(|c| c == column),
                "{column} in {clusters:?}"
            );
        }
        let measured = measurements(&p);
        for column in ["pobreza", "gasto_salud_pc", "sapu", "dist_hospital_km"] {
            assert!(
                measured.iter().any(|c| c == column),
                "{column} not in {measured:?}"
            );
        }
        for column in [
            "codigo_region",
            "anio_sinim",
            "defunciones_min",
            "defunciones_max",
        ] {
            assert!(
                !measured.iter().any(|c| c == column),
                "{column} in {measured:?}"
            );
        }
    }

    /// Her file: a population is a weight; its code, its year of census, its share and its
    /// negative balance are not. Her region number groups her communes; her poverty, her
    /// population and her communes' names do not, and one year is no cluster.
    #[test]
    fn an_uploaded_population_is_a_weight_and_a_region_number_a_cluster() {
        let mut csv = String::from(
            "codigo_comuna,nombre,anio,nacimientos,defunciones,poblacion,cod_region,anio_censo,\
             pct,saldo,pobreza\n",
        );
        for (k, region) in [1, 1, 2, 2].into_iter().enumerate() {
            let people = 100_000 + 1_000 * k;
            let row =
                format!("0{region}10{k},C{k},2020,3000,21,{people},{region},2017,0.5,-3,1{k}.5\n");
            csv.push_str(&row);
        }
        let p = panel_of(&csv);
        assert_eq!(weight_candidates(&p), ["births", "poblacion"]);
        assert_eq!(cluster_candidates(&p), ["cod_region"]);
        assert_eq!(measurements(&p), ["poblacion", "pct", "saldo", "pobreza"]);
        // a negative balance weighs nothing
        assert_eq!(value_weights(&p), ["births", "poblacion", "pct", "pobreza"]);
        assert_eq!(groupings(&p), ["cod_region"]);
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
