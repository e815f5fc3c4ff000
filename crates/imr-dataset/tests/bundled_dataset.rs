//! The bundled dataset in public/data: reproducible from data/raw, complete, consistent with the
//! boundaries, and faithful to the raw extracts. Reads only files inside the repository.

use imr_dataset::topojson::{arc_position, Topology};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn raw_dir() -> PathBuf {
    repo().join("data/raw")
}

fn public_dir() -> PathBuf {
    repo().join("public/data")
}

/// The committed panel as rows keyed by (codigo_comuna, anio), each a column → value map.
fn committed_panel() -> BTreeMap<(String, String), BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(public_dir().join(imr_dataset::PANEL_FILE)).unwrap();
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let mut rows = BTreeMap::new();
    for record in reader.records() {
        let record = record.unwrap();
        let row: BTreeMap<String, String> = header
            .iter()
            .cloned()
            .zip(record.iter().map(str::to_owned))
            .collect();
        let key = (row["codigo_comuna"].clone(), row["anio"].clone());
        assert!(
            rows.insert(key.clone(), row).is_none(),
            "duplicate row {key:?}"
        );
    }
    rows
}

fn bundled_topology() -> Topology {
    let text = std::fs::read_to_string(public_dir().join("comunas.topojson")).unwrap();
    Topology::parse(&text).unwrap()
}

#[test]
fn building_twice_gives_identical_bytes_equal_to_the_committed_files() {
    let first = imr_dataset::build(&raw_dir()).unwrap();
    let second = imr_dataset::build(&raw_dir()).unwrap();
    assert_eq!(first.files.len(), 4);
    for (a, b) in first.files.iter().zip(&second.files) {
        assert_eq!(a.name, b.name);
        assert!(a.bytes == b.bytes, "{} differs between two builds", a.name);
    }
    assert_eq!(
        first.differences_from(&public_dir()),
        Vec::<&str>::new(),
        "public/data is stale: run `imr dataset build`"
    );
}

#[test]
fn the_panel_has_345_communes_times_the_21_years_2001_to_2021() {
    let panel = committed_panel();
    assert_eq!(panel.len(), 345 * 21);
    let communes: BTreeSet<_> = panel.keys().map(|(code, _)| code.clone()).collect();
    assert_eq!(communes.len(), 345);
    for code in &communes {
        for year in 2001..=2021 {
            assert!(
                panel.contains_key(&(code.clone(), year.to_string())),
                "{code} {year}"
            );
        }
    }
    assert!(
        !communes.contains("12202"),
        "Antártica has no data and no boundary"
    );
    let header: Vec<&str> = imr_dataset::COLUMNS.iter().map(|c| c.column).collect();
    let first_row = panel.values().next().unwrap();
    assert_eq!(first_row.len(), header.len());
}

#[test]
fn every_panel_code_has_a_geometry_and_every_geometry_a_panel_row() {
    let panel_codes: BTreeSet<String> = committed_panel().keys().map(|(c, _)| c.clone()).collect();
    let topology = bundled_topology();
    let geometries = &topology.objects["comunas"];
    let geometry_codes: BTreeSet<String> = geometries
        .iter()
        .map(|g| g.properties["codigo_comuna"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(geometries.len(), 345, "one geometry per commune");
    assert_eq!(panel_codes, geometry_codes);
}

#[test]
fn every_commune_keeps_a_non_empty_shape_after_simplification() {
    let topology = bundled_topology();
    for geometry in &topology.objects["comunas"] {
        let code = geometry.properties["codigo_comuna"].as_str().unwrap();
        assert!(
            geometry.kind == "Polygon" || geometry.kind == "MultiPolygon",
            "{code}: {}",
            geometry.kind
        );
        assert!(!geometry.polygons.is_empty(), "{code}: no polygon");
        for ring in geometry.polygons.iter().flatten() {
            assert!(!ring.is_empty(), "{code}: a ring without arcs");
            for &index in ring {
                assert!(
                    topology.arcs[arc_position(index)].len() >= 2,
                    "{code}: arc {index} is a point"
                );
            }
        }
        // A positive area: the shape is visible, not collapsed to a line.
        assert!(topology.centroid(geometry).is_some(), "{code}: zero area");
    }
}

#[test]
fn the_boundary_file_is_at_most_400_kb_and_carries_codes_and_official_names() {
    let size = std::fs::metadata(public_dir().join("comunas.topojson"))
        .unwrap()
        .len();
    assert!(size <= 400 * 1024, "comunas.topojson is {size} bytes");
    let mut cut = BTreeMap::new();
    let mut reader = csv::Reader::from_path(public_dir().join(imr_dataset::CUT_LIST_FILE)).unwrap();
    for record in reader.records() {
        let r = record.unwrap();
        cut.insert(
            r[0].to_owned(),
            (r[1].to_owned(), r[2].to_owned(), r[3].to_owned()),
        );
    }
    assert_eq!(
        cut.len(),
        346,
        "the CUT 2018 list has 346 communes, Antártica included"
    );
    for geometry in &bundled_topology().objects["comunas"] {
        let p = &geometry.properties;
        let keys: BTreeSet<&str> = p.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            BTreeSet::from([
                "codigo_comuna",
                "codigo_region",
                "nombre_comuna",
                "nombre_region"
            ])
        );
        let code = p["codigo_comuna"].as_str().unwrap();
        let (name, region, region_name) = &cut[code];
        assert_eq!(p["nombre_comuna"].as_str().unwrap(), name);
        assert_eq!(p["codigo_region"].as_str().unwrap(), region);
        assert_eq!(p["nombre_region"].as_str().unwrap(), region_name);
    }
}

/// Shared borders stay shared: the simplified file still has arcs used by two communes (a
/// file of independent polygons would have none).
#[test]
fn shared_borders_stay_shared_after_simplification() {
    let topology = bundled_topology();
    let mut uses = vec![0_u32; topology.arcs.len()];
    for geometry in &topology.objects["comunas"] {
        for ring in geometry.polygons.iter().flatten() {
            for &index in ring {
                uses[arc_position(index)] += 1;
            }
        }
    }
    let shared = uses.iter().filter(|&&n| n >= 2).count();
    assert!(
        shared > 500,
        "only {shared} arcs are shared between communes"
    );
}

fn cell<'a>(
    panel: &'a BTreeMap<(String, String), BTreeMap<String, String>>,
    code: &str,
    year: u16,
    column: &str,
) -> &'a str {
    &panel[&(code.to_owned(), year.to_string())][column]
}

/// Expected values copied from the raw extracts (line numbers as committed):
/// - data/raw/ine/defunciones_comuna_residencia_2000_2015.csv (`defunciones_menores_1_anio`):
///   Iquique 2006 line 2078 (16), 2010 line 3462 (20); Santiago 2006 line 2335 (19), 2010 line
///   3719 (26); Punta Arenas 2008 line 3016 (19);
/// - data/raw/deis/nacimientos_madre_15_49_comuna_2000_2011.csv: Iquique 2006 line 2048 (3017),
///   Santiago 2006 line 2301 (3613), Punta Arenas 2008 line 2977 (1853); the same file's 2010
///   values (Iquique 3398, line 3419) are NOT used: INE's are (line 2: 3427);
/// - data/raw/ine/nacidos_vivos_comuna_residencia_2010_2023.csv: Iquique 2010 line 2 (3427),
///   2017 line 2424 (2811), 2021 line 3808 (2225); Santiago 2010 line 259 (4503), 2017 line
///   2681 (5714), 2019 line 3373 (5930), 2021 line 4065 (4385); General Lagos 2021 line 4132 (1);
///   Teodoro Schmidt 2017 line 2614 (127);
/// - data/raw/sinim/sinim_2019_2023_extract.csv (v839 and the covariates): Iquique 2019 line 2
///   (7; 4.38; 23008273 / 216514; 500000), 2023 line 6 (6); Santiago 2019 line 1287 (8), 2021
///   line 1289 (5; 8.43), 2023 line 1291 (5); General Lagos 2023 line 1626 (1000); Teodoro
///   Schmidt 2019 line 952 (32);
/// - data/raw/sinim/sinim_2006_2012_extract.csv and data/raw/ine/poblacion_total_2006_2012.csv:
///   Iquique 2006 lines 2 (3752495; 10.24286; 1.76) and 2 (169377).
///
/// Reconstructions worked by hand: Iquique 2017, rate 7 on 2,811 births: 1000·d/2811 rounds to 7
/// for d = 19 (6.76), 20 (7.11) and 21 (7.47), not 18 (6.40) or 22 (7.83); nearest to 19.68 is 20.
/// Santiago 2019, rate 5 on 5,930: d from 27 (4.55) to 32 (5.40), nearest to 29.65 is 30. General
/// Lagos 2021: 1 death among 1 birth is the "1,000 per 1,000". Teodoro Schmidt 2017, rate 32 on 127:
/// 4 deaths give 31.496 (more than one half below 32) and 5 give 39.37: none fits, the nearest
/// (4) is kept with the range 4–5.
#[test]
fn values_match_the_raw_extracts() {
    let panel = committed_panel();
    let expect = |code: &str, year: u16, column: &str, value: &str| {
        assert_eq!(
            cell(&panel, code, year, column),
            value,
            "{code} {year} {column}"
        );
    };
    // INE's published deaths and the births of their named source.
    for (code, year, deaths, births, births_source) in [
        ("01101", 2006, "16", "3017", "deis_microdatos"),
        ("01101", 2010, "20", "3427", "ine_anuario"),
        ("13101", 2006, "19", "3613", "deis_microdatos"),
        ("13101", 2010, "26", "4503", "ine_anuario"),
        ("12101", 2008, "19", "1853", "deis_microdatos"),
    ] {
        expect(code, year, "defunciones_infantiles", deaths);
        expect(code, year, "defunciones_min", deaths);
        expect(code, year, "defunciones_max", deaths);
        expect(code, year, "nacidos_vivos", births);
        expect(code, year, "fuente_defunciones", "ine_publicadas");
        expect(code, year, "fuente_nacidos", births_source);
        expect(code, year, "tmi_sinim", "");
    }
    // SINIM's rate in the year it describes, with the deaths that reproduce it.
    for (code, year, rate, sinim_year, births, deaths, low, high, note) in [
        (
            "01101",
            2017,
            "7",
            "2019",
            "2811",
            "20",
            "19",
            "21",
            "tmi_compatible_con_varios_enteros",
        ),
        (
            "01101",
            2021,
            "6",
            "2023",
            "2225",
            "13",
            "13",
            "14",
            "tmi_compatible_con_varios_enteros",
        ),
        (
            "13101",
            2019,
            "5",
            "2021",
            "5930",
            "30",
            "27",
            "32",
            "tmi_compatible_con_varios_enteros",
        ),
        (
            "13101",
            2021,
            "5",
            "2023",
            "4385",
            "22",
            "20",
            "24",
            "tmi_compatible_con_varios_enteros",
        ),
        ("15202", 2021, "1000", "2023", "1", "1", "1", "1", ""),
        (
            "09117",
            2017,
            "32",
            "2019",
            "127",
            "4",
            "4",
            "5",
            "tmi_no_reproducible_con_nacidos_ine",
        ),
    ] {
        expect(code, year, "tmi_sinim", rate);
        expect(code, year, "anio_sinim", sinim_year);
        expect(code, year, "nacidos_vivos", births);
        expect(code, year, "defunciones_infantiles", deaths);
        expect(code, year, "defunciones_min", low);
        expect(code, year, "defunciones_max", high);
        expect(code, year, "nota", note);
        expect(code, year, "fuente_defunciones", "sinim_tmi_reconstruidas");
    }
    // Covariates of the row's own year: SINIM 2019 in 2019 (not the rate's SINIM 2021).
    expect("01101", 2019, "pobreza", "4.38");
    expect("01101", 2019, "pobreza_fuente", "casen_2017");
    // 23008273 / 216514 = 106.2669… ; 500000 / 216514 = 2.3093…
    expect("01101", 2019, "ingreso_salud_pc", "106.267");
    expect("01101", 2019, "aporte_municipal_salud_pc", "2.309");
    expect("13101", 2021, "pobreza", "8.43");
    expect("13101", 2021, "pobreza_fuente", "casen_2020");
    // 3752495 / 169377 = 22.1546… ; the ficha's poverty and rurality as published.
    expect("01101", 2006, "gasto_salud_pc", "22.155");
    expect("01101", 2006, "pobreza", "10.24286");
    expect("01101", 2006, "pobreza_fuente", "casen_promedio_2006_2012");
    expect("01101", 2006, "ruralidad", "1.76");
    expect("01101", 2006, "ingreso_salud_pc", "");
    // No source: empty, never another year's value.
    for column in ["pobreza", "gasto_salud_pc", "ingreso_salud_pc", "ruralidad"] {
        expect("01101", 2005, column, "");
        expect("01101", 2015, column, "");
        expect("01101", 2017, column, "");
    }
    expect("01101", 2019, "sin_educacion_formal_2017", "3.73");
    let iquique = &panel[&("01101".to_owned(), "2019".to_owned())];
    assert_eq!(iquique["comuna"], "Iquique");
    assert_eq!(iquique["region"], "Tarapacá");
    // 100 × 3679 / (37747 + 88057 + 3679) = 2.8412… ; 100 × 12767 / (96920 + 285813 + 12767) = 3.2281…
    expect("12101", 2020, "sin_educacion_formal_2017", "2.84");
    expect("13101", 2020, "sin_educacion_formal_2017", "3.23");
    // Santiago's centroid lies about 1–2 km from the Hospital San Borja Arriarán (line 372).
    let santiago_km: f64 = cell(&panel, "13101", 2019, "dist_hospital_km")
        .parse()
        .unwrap();
    assert!(santiago_km < 3.0, "{santiago_km}");
}

/// 2016 and 2020 have no infant deaths by commune in any published source: every row of those
/// years keeps its births, has no deaths, and says why; nothing is interpolated.
#[test]
fn the_years_without_a_source_are_empty_and_say_why() {
    let panel = committed_panel();
    for ((code, year), row) in &panel {
        if year == "2016" || year == "2020" {
            assert_eq!(row["defunciones_infantiles"], "", "{code} {year}");
            assert_eq!(row["fuente_defunciones"], "sin_fuente", "{code} {year}");
            assert_eq!(row["nota"], "sin_fuente_publicada", "{code} {year}");
            assert!(!row["nacidos_vivos"].is_empty(), "{code} {year}");
        } else {
            assert_ne!(row["fuente_defunciones"], "sin_fuente", "{code} {year}");
        }
    }
}

/// The four communes created in 2004 have no rows of their own before it (INE and the
/// microdata count them in their parents), and their parents say so.
#[test]
fn the_communes_created_in_2004_are_counted_in_their_parents_before_it() {
    let panel = committed_panel();
    for (new, parent) in [
        ("01107", "01101"),
        ("08112", "08110"),
        ("08314", "08311"),
        ("09121", "09111"),
    ] {
        for year in 2001..=2003 {
            assert_eq!(cell(&panel, new, year, "defunciones_infantiles"), "");
            assert_eq!(cell(&panel, new, year, "nacidos_vivos"), "");
            assert_eq!(cell(&panel, new, year, "nota"), "comuna_aun_no_creada");
            assert_eq!(
                cell(&panel, parent, year, "nota"),
                "incluye_comuna_creada_2004"
            );
        }
        assert_eq!(
            cell(&panel, new, 2004, "nota"),
            "anio_de_creacion_2004_parcial"
        );
        assert_eq!(
            cell(&panel, parent, 2004, "nota"),
            "anio_de_creacion_2004_parcial"
        );
        assert_eq!(cell(&panel, new, 2005, "nota"), "");
    }
}

/// Every check of `imr dataset check` passes on the committed raw files: the deaths sum to INE's
/// national rows (2,159 in 2001 … 1,683 in 2015), the births to INE's published national births
/// (250,643 in 2010 … 177,273 in 2021) and DEIS's regional ones, and every reconstructed count
/// reproduces its SINIM rate.
#[test]
fn the_build_agrees_with_the_sources_own_totals() {
    let build = imr_dataset::build(&raw_dir()).unwrap();
    for check in &build.checks {
        assert!(check.passed, "{}: {}", check.name, check.detail);
    }
    assert_eq!(build.checks.len(), 8);
    let deaths = &build.checks[0];
    assert!(
        deaths.detail.starts_with("2001 2159, "),
        "{}",
        deaths.detail
    );
    assert!(deaths.detail.ends_with("2015 1683"), "{}", deaths.detail);
    // Deaths per year from the committed file, against INE's Total País rows
    // (data/raw/ine/defunciones_totales_nacionales_2000_2015.csv).
    let panel = committed_panel();
    for (year, total) in [(2001, 2159u64), (2004, 2034), (2010, 1862), (2015, 1683)] {
        let sum: u64 = panel
            .iter()
            .filter(|((_, y), _)| *y == year.to_string())
            .filter_map(|(_, row)| row["defunciones_infantiles"].parse::<u64>().ok())
            .sum();
        assert_eq!(sum, total, "{year}");
    }
}

/// Every reconstructed row's deaths reproduce its published rate unless its note says none can;
/// the range is exactly the whole numbers that do.
#[test]
fn reconstructed_deaths_reproduce_the_published_rates() {
    use imr_dataset::reconstruct::reproduces;
    let panel = committed_panel();
    let mut reconstructed = 0;
    for ((code, year), row) in &panel {
        if row["fuente_defunciones"] != "sinim_tmi_reconstruidas"
            || row["defunciones_min"].is_empty()
        {
            continue;
        }
        reconstructed += 1;
        let rate: u64 = row["tmi_sinim"].parse().unwrap();
        let births: u64 = row["nacidos_vivos"].parse().unwrap();
        let low: u64 = row["defunciones_min"].parse().unwrap();
        let high: u64 = row["defunciones_max"].parse().unwrap();
        let deaths: u64 = row["defunciones_infantiles"].parse().unwrap();
        assert!((low..=high).contains(&deaths), "{code} {year}");
        let fits = (low..=high)
            .filter(|d| reproduces(rate, *d, births))
            .count() as u64;
        if row["nota"].contains("tmi_no_reproducible_con_nacidos_ine") {
            assert_eq!(fits, 0, "{code} {year}");
        } else {
            assert_eq!(fits, high - low + 1, "{code} {year}");
            assert!(!reproduces(rate, high + 1, births), "{code} {year}");
        }
    }
    // 345 communes × 4 years, less those without a rate or births.
    assert!(reconstructed > 1350, "{reconstructed}");
}

/// Outliers as published are kept: General Lagos' "1,000 per 1,000" of SINIM 2023 is one death
/// among one birth in 2021. San Nicolás 16305 is absent from the census 2017 file: empty, never
/// invented.
#[test]
fn published_outliers_are_kept_and_missing_census_values_stay_empty() {
    let panel = committed_panel();
    assert_eq!(cell(&panel, "15202", 2021, "tmi_sinim"), "1000");
    assert_eq!(cell(&panel, "15202", 2021, "defunciones_infantiles"), "1");
    assert_eq!(cell(&panel, "15202", 2021, "nacidos_vivos"), "1");
    for year in 2001..=2021 {
        assert_eq!(
            cell(&panel, "16305", year, "sin_educacion_formal_2017"),
            "",
            "{year}"
        );
    }
    let empty_schooling = panel
        .values()
        .filter(|r| r["sin_educacion_formal_2017"].is_empty())
        .count();
    assert_eq!(
        empty_schooling, 21,
        "only San Nicolás lacks the census value"
    );
}

#[test]
fn time_invariant_columns_do_not_vary_within_a_commune() {
    let panel = committed_panel();
    for doc in imr_dataset::COLUMNS.iter().filter(|c| c.time_invariant) {
        let mut by_commune: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for ((code, _), row) in &panel {
            by_commune.entry(code).or_default().insert(&row[doc.column]);
        }
        for (code, values) in by_commune {
            assert_eq!(values.len(), 1, "{} varies in {code}", doc.column);
        }
    }
}

#[test]
fn the_crosswalk_maps_the_21_nuble_communes_to_codes_of_the_cut_list() {
    let cut: BTreeSet<String> =
        csv::Reader::from_path(public_dir().join(imr_dataset::CUT_LIST_FILE))
            .unwrap()
            .records()
            .map(|r| r.unwrap()[0].to_owned())
            .collect();
    let mut reader =
        csv::Reader::from_path(public_dir().join(imr_dataset::CROSSWALK_FILE)).unwrap();
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "codigo_comuna_pre2018",
            "codigo_comuna_2018",
            "nombre_comuna"
        ]
    );
    let rows: Vec<_> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 21);
    for row in &rows {
        assert!(
            row[0].starts_with("084") && row[1].starts_with("16"),
            "{row:?}"
        );
        assert!(cut.contains(&row[1]), "{row:?}");
    }
    assert_eq!(
        rows[0].iter().collect::<Vec<_>>(),
        ["08401", "16101", "Chillán"]
    );
}

/// Every raw row is used or reported: SINIM's pseudo-commune 11111 "SUBDERE_" and its 2022 (a
/// copy of 2021), Antártica (no boundary) in every source, the years a source does not give the
/// panel (INE deaths of 2000, microdata births of 2000 and 2010–2011, INE births of 2022–2023).
#[test]
fn every_unused_raw_row_is_reported_with_its_line_and_reason() {
    let build = imr_dataset::build(&raw_dir()).unwrap();
    let count = |file: &str| build.exclusions.iter().filter(|e| e.file == file).count();
    assert_eq!(count(imr_dataset::SINIM_FILE), 5 + 345);
    // 16 years of Antártica, 345 rows of 2000.
    assert_eq!(count(imr_dataset::INE_DEATHS_FILE), 16 + 345);
    // 14 years of Antártica, 2 × 345 rows of 2022–2023.
    assert_eq!(count(imr_dataset::INE_BIRTHS_FILE), 14 + 2 * 345);
    // The microdata of 2000 (340 communes), 2010 (286) and 2011 (301), and Antártica's 9 rows.
    assert_eq!(
        count(imr_dataset::DEIS_COMMUNE_BIRTHS_FILE),
        340 + 286 + 301 + 9
    );
    assert_eq!(count(imr_dataset::POPULATION_FILE), 7);
    assert_eq!(count(imr_dataset::FICHA_FILE), 0);
    assert_eq!(count(imr_dataset::CENSUS_FILE), 1);
    // 595 rows in the MINSAL extract: 148 communes' SAPU/SAR + 124 hospitals used, the rest reported.
    assert!(count(imr_dataset::MINSAL_FILE) > 0);
    assert!(build
        .exclusions
        .iter()
        .all(|e| e.line >= 2 && !e.reason.is_empty()));
    assert_eq!(build.communes, 345);
}

#[test]
fn the_codebook_documents_every_panel_column_in_order() {
    let mut panel = csv::Reader::from_path(public_dir().join(imr_dataset::PANEL_FILE)).unwrap();
    let columns: Vec<String> = panel.headers().unwrap().iter().map(str::to_owned).collect();
    let mut codebook =
        csv::Reader::from_path(public_dir().join(imr_dataset::CODEBOOK_FILE)).unwrap();
    let documented: Vec<String> = codebook
        .records()
        .map(|r| r.unwrap()[0].to_owned())
        .collect();
    assert_eq!(columns, documented);
}

/// The committed comunas.topojson is what scripts/build-boundaries.sh makes from data/raw.
/// Needs mapshaper, which `make test` installs first (scripts/setup.sh, under tools/node); without
/// it the script fails with that instruction, and so does this test — a check is never skipped.
#[test]
fn the_boundary_script_reproduces_the_committed_topojson() {
    let output = std::process::Command::new("bash")
        .arg(repo().join("scripts/build-boundaries.sh"))
        .arg("--check")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
