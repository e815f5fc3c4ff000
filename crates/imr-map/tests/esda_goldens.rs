//! Queen and rook neighbours, spatial empirical Bayes, Moran's I with its analytical z and p
//! (normality, randomisation) and the EB-standardised Moran's I against esda/libpysal, on the
//! generated layer of `data/esda/` (a 5 × 4 grid, a triangle touching it at one corner, an
//! island). `data/esda/make_esda_goldens.py` wrote the files; the versions it ran with
//! (esda 2.9.0, libpysal 4.14.1, geopandas 1.2.0, shapely 2.2.0, numpy 2.4.6) are in
//! `goldens.json`, and asserted below so that a regenerated file says what changed.

use imr_map::autocorrelation::{moran, moran_rate, Moran};
use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::smoothing::{eb_standardised_rates, spatial_eb};
use imr_map::weights::{Contiguity, Weights};
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;

fn goldens() -> Value {
    serde_json::from_str(include_str!("data/esda/goldens.json")).unwrap()
}

fn layer() -> GeoLayer {
    let keys = PropertyKeys {
        name: Some("name".into()),
        ..PropertyKeys::code_only("code")
    };
    GeoLayer::from_str(include_str!("data/esda/grid.geojson"), None, &keys).unwrap()
}

/// Deaths and births per area, in the layer's order (the CSV's order is the layer's too; the
/// codes are checked).
fn counts(layer: &GeoLayer) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let (mut deaths, mut births) = (Vec::new(), Vec::new());
    let text = include_str!("data/esda/counts.csv");
    for (k, line) in text.lines().skip(1).enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[0], layer.areas[k].code);
        births.push(Some(fields[1].parse::<f64>().unwrap()));
        deaths.push(Some(fields[2].parse::<f64>().unwrap()));
    }
    assert_eq!(births.len(), layer.areas.len());
    (deaths, births)
}

fn close(got: f64, want: &Value, what: &str) {
    let want = want.as_f64().unwrap_or_else(|| panic!("{what}: {want}"));
    assert!(
        (got - want).abs() <= TOLERANCE * want.abs().max(1.0),
        "{what}: {got} vs esda {want}"
    );
}

fn check_moran(m: &Moran, want: &Value, what: &str) {
    close(m.i, &want["I"], &format!("{what} I"));
    close(m.expected, &want["EI"], &format!("{what} E[I]"));
    close(m.z_norm, &want["z_norm"], &format!("{what} z_norm"));
    close(m.p_norm, &want["p_norm"], &format!("{what} p_norm"));
    close(
        m.z_rand.unwrap(),
        &want["z_rand"],
        &format!("{what} z_rand"),
    );
    close(
        m.p_rand.unwrap(),
        &want["p_rand"],
        &format!("{what} p_rand"),
    );
}

#[test]
fn the_goldens_come_from_the_stated_versions() {
    let g = goldens();
    assert_eq!(g["versions"]["esda"], "2.9.0");
    assert_eq!(g["versions"]["libpysal"], "4.14.1");
    let layer = layer();
    let codes: Vec<&str> = layer.areas.iter().map(|a| a.code.as_str()).collect();
    let golden_codes: Vec<&str> = g["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(codes, golden_codes);
}

#[test]
fn queen_and_rook_neighbours_match_libpysal() {
    let layer = layer();
    let g = goldens();
    for contiguity in Contiguity::ALL {
        let w = contiguity.weights(&layer).unwrap();
        for (i, area) in layer.areas.iter().enumerate() {
            let mut got: Vec<&str> = w
                .neighbours(i)
                .iter()
                .map(|&j| layer.areas[j].code.as_str())
                .collect();
            got.sort_unstable();
            let want: Vec<&str> = g[contiguity.name()]["neighbours"][&area.code]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            assert_eq!(
                got,
                want,
                "{} neighbours of {}",
                contiguity.name(),
                area.code
            );
        }
    }
    // The layer is one where they differ: diagonal cells and the corner-touching triangle.
    let queen = Weights::queen(&layer).unwrap();
    let rook = Weights::rook(&layer).unwrap();
    let tri = layer.index_of("tri").unwrap();
    assert_eq!(queen.neighbours(tri), [layer.index_of("r3c4").unwrap()]);
    assert!(rook.neighbours(tri).is_empty());
}

/// esda's `Spatial_Empirical_Bayes(e, b, w)` is the estimator of `spatial_eb`: the pooled rate
/// of the area and its neighbours, Marshall's moment variance over the same set with
/// P̄ = Σ P / (|N(i)| + 1), the variance truncated at 0; an island keeps its raw rate.
#[test]
fn spatial_empirical_bayes_matches_esda_under_queen_and_rook() {
    let layer = layer();
    let (deaths, births) = counts(&layer);
    let g = goldens();
    for contiguity in Contiguity::ALL {
        let w = contiguity.weights(&layer).unwrap();
        let seb = spatial_eb(&deaths, &births, &w).unwrap();
        for (k, want) in g[contiguity.name()]["spatial_eb_per_1000"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            close(
                seb[k].unwrap(),
                want,
                &format!(
                    "{} spatial EB of {}",
                    contiguity.name(),
                    layer.areas[k].code
                ),
            );
        }
    }
}

#[test]
fn morans_i_with_both_analytical_tests_matches_esda_under_queen_and_rook() {
    let layer = layer();
    let (deaths, births) = counts(&layer);
    let rates: Vec<Option<f64>> = deaths
        .iter()
        .zip(&births)
        .map(|(d, b)| Some(1000.0 * d.unwrap() / b.unwrap()))
        .collect();
    let g = goldens();
    for contiguity in Contiguity::ALL {
        let w = contiguity.weights(&layer).unwrap();
        let m = moran(&rates, &w, 99, 1).unwrap();
        check_moran(
            &m,
            &g[contiguity.name()]["moran_rate_per_1000"],
            contiguity.name(),
        );
    }
}

#[test]
fn the_eb_standardised_morans_i_matches_esda_moran_rate() {
    let layer = layer();
    let (deaths, births) = counts(&layer);
    let g = goldens();
    let z = eb_standardised_rates(&deaths, &births).unwrap();
    for (k, want) in g["eb_standardised_rates"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        close(z[k].unwrap(), want, &format!("EB-standardised rate {k}"));
    }
    for contiguity in Contiguity::ALL {
        let w = contiguity.weights(&layer).unwrap();
        let m = moran_rate(&deaths, &births, &w, 99, 1).unwrap();
        check_moran(
            &m,
            &g[contiguity.name()]["moran_eb"],
            &format!("{} EB", contiguity.name()),
        );
    }
}
