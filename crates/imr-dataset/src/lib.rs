//! The deterministic build of imr-atlas' bundled dataset: Chile's 345 communes, 2001–2021, each
//! year the year the deaths happened.
//!
//! [`build`] reads only the raw extracts under `data/raw/` (see the PROVENANCE.md in each of its
//! folders) and returns the bundled CSV files as bytes; [`Build::write_to`] writes them into
//! `public/data/`. The same raw files always give the same bytes: rows are sorted by commune
//! code and year, numbers have a fixed format, lines end in `\n`. What each row's deaths and
//! births are is in [`rows`]; [`check`] verifies the result against the sources' own totals.
//!
//! The boundary file `public/data/comunas.topojson` is made by `scripts/build-boundaries.sh`
//! (mapshaper); this crate only reads the raw, unsimplified boundaries, for the codes of the
//! panel and the commune centroids.

pub mod check;
mod codebook;
mod error;
mod ficha;
pub mod rows;
mod sources;
mod table;
pub mod topojson;
mod vital;

pub use codebook::{ColumnDoc, COLUMNS};
pub use error::DatasetError;
pub use ficha::{FICHA_FILE, POPULATION_FILE};
/// Whole deaths from a rounded rate (the shared formula, [`imr_stats::rounded`]).
pub use imr_stats::rounded as reconstruct;
pub use sources::{
    BOUNDARIES_FILE, CENSUS_FILE, CUT_FILE, DEIS_BIRTHS_FILE, MINSAL_FILE, NUBLE_FILE, SINIM_FILE,
};
pub use vital::{
    sinim_rates_as_labelled, DEIS_COMMUNE_BIRTHS_FILE, INE_BIRTHS_FILE, INE_DEATHS_FILE,
    INE_DEATH_TOTALS_FILE,
};

use rows::PanelRow;
use sources::{CutCommune, Hospital};
use std::collections::BTreeMap;
use std::path::Path;

/// The years of the panel: the years the deaths happened.
pub const YEARS: std::ops::RangeInclusive<u16> = 2001..=2021;

/// The panel file, relative to the output directory.
pub const PANEL_FILE: &str = "chile_imr_2001_2021.csv";
/// The codebook of the panel.
pub const CODEBOOK_FILE: &str = "codebook.csv";
/// The CUT 2018 code list used by ingest to validate codes.
pub const CUT_LIST_FILE: &str = "cut_2018.csv";
/// The pre-2018 → 2018 code crosswalk (Ñuble).
pub const CROSSWALK_FILE: &str = "nuble_crosswalk.csv";

/// Mean Earth radius (IUGG), km, for great-circle distances.
pub const EARTH_RADIUS_KM: f64 = 6371.0088;

/// A raw row that the build did not use, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Exclusion {
    /// The raw file, relative to the raw directory.
    pub file: &'static str,
    /// 1-based line of the row in that file.
    pub line: u64,
    pub reason: String,
}

impl Exclusion {
    fn new(file: &'static str, line: u64, reason: impl Into<String>) -> Exclusion {
        Exclusion {
            file,
            line,
            reason: reason.into(),
        }
    }
}

/// One generated file.
pub struct OutputFile {
    /// File name inside the output directory.
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

/// The result of a build: the files, and every raw row that was not used.
pub struct Build {
    pub files: Vec<OutputFile>,
    pub exclusions: Vec<Exclusion>,
    /// Number of communes in the panel.
    pub communes: usize,
    /// The panel's rows as values, in file order.
    pub rows: Vec<PanelRow>,
    /// The result against the sources' own totals ([`check::run`]).
    pub checks: Vec<check::Check>,
}

impl Build {
    /// Writes every file into `out_dir` (created if needed).
    pub fn write_to(&self, out_dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(out_dir)?;
        for file in &self.files {
            std::fs::write(out_dir.join(file.name), &file.bytes)?;
        }
        Ok(())
    }

    /// The names of the files in `out_dir` that are missing or differ from this build.
    pub fn differences_from(&self, out_dir: &Path) -> Vec<&'static str> {
        self.files
            .iter()
            .filter(|file| {
                std::fs::read(out_dir.join(file.name)).ok().as_deref() != Some(&file.bytes[..])
            })
            .map(|file| file.name)
            .collect()
    }

    /// The bytes of a generated file by name.
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.bytes.as_slice())
    }
}

/// Builds the bundled dataset from the raw extracts in `raw_dir`.
///
/// The panel's communes are those of the CUT 2018 list that have a boundary (345: Antártica,
/// 12202, has none), each with a row for every year of [`YEARS`]. Every source must cover every
/// commune of the years it gives: a gap is an error, not an empty row; values a source leaves
/// empty stay empty, and a year no source covers is empty with the row's note saying why.
pub fn build(raw_dir: &Path) -> Result<Build, DatasetError> {
    let mut exclusions = Vec::new();
    let cut = sources::read_cut(raw_dir)?;
    let crosswalk = sources::read_nuble(raw_dir, &cut)?;
    let centroids = sources::read_centroids(raw_dir)?;

    for code in centroids.keys() {
        if !cut.contains_key(code) {
            return Err(DatasetError::Inconsistent(format!(
                "{BOUNDARIES_FILE}: commune {code} is not in the CUT 2018 list"
            )));
        }
    }
    let panel: BTreeMap<String, CutCommune> = cut
        .iter()
        .filter(|(code, _)| centroids.contains_key(*code))
        .map(|(code, commune)| (code.clone(), commune.clone()))
        .collect();

    let sinim = sources::read_sinim(raw_dir, &panel, &mut exclusions)?;
    for ((_, year), values) in &sinim {
        if *year == 2022 {
            exclusions.push(Exclusion::new(
                SINIM_FILE,
                values.line,
                "SINIM 2022: its rate repeats SINIM 2021's (the deaths of 2019) and the panel has \
                 no infant deaths of 2022 for its covariates",
            ));
        }
    }
    let ine_deaths = vital::read_ine_deaths(raw_dir, &panel, &mut exclusions)?;
    let ine_births = vital::read_ine_births(raw_dir, &panel, &mut exclusions)?;
    let deis_births = vital::read_deis_births(raw_dir, &panel, &mut exclusions)?;
    let ficha = ficha::read_ficha(raw_dir, &panel, &mut exclusions)?;
    let population = ficha::read_population(raw_dir, &panel, &mut exclusions)?;
    let (sapu_communes, hospitals) = sources::read_minsal(raw_dir, &cut, &mut exclusions)?;
    let census = sources::read_census(raw_dir, &panel, &mut exclusions)?;
    if hospitals.is_empty() {
        return Err(DatasetError::Inconsistent(format!(
            "{MINSAL_FILE}: no open hospital of second or third level"
        )));
    }
    let row_sources = rows::Sources {
        ine_deaths: &ine_deaths,
        ine_births: &ine_births,
        deis_births: &deis_births,
        sinim: &sinim,
        ficha: &ficha,
        population: &population,
    };

    let mut rows = Vec::with_capacity(panel.len() * YEARS.count());
    let mut panel_csv = csv_writer();
    let header: Vec<&str> = COLUMNS.iter().map(|c| c.column).collect();
    write_record(&mut panel_csv, &header);
    for (code, commune) in &panel {
        let centroid = centroids[code];
        let dist_hospital = nearest_distance_km(centroid, &hospitals);
        let sapu = if sapu_communes.contains(code) {
            "1"
        } else {
            "0"
        };
        let schooling = census.get(code).map(|c| {
            let answered = c.attends + c.attended_before + c.never_attended;
            format!("{:.2}", 100.0 * c.never_attended as f64 / answered as f64)
        });
        for year in YEARS {
            let row = rows::row(&row_sources, code, year).map_err(DatasetError::Inconsistent)?;
            let count = |n: Option<u64>| n.map(|n| n.to_string());
            let notes: Vec<&str> = row.notes.iter().map(|n| n.code()).collect();
            let record = [
                code.clone(),
                commune.name.clone(),
                commune.region_code.clone(),
                commune.region_name.clone(),
                year.to_string(),
                opt(count(row.deaths)),
                opt(count(row.deaths_low)),
                opt(count(row.deaths_high)),
                opt(count(row.births)),
                row.deaths_source.code().to_owned(),
                row.births_source.code().to_owned(),
                opt(count(row.sinim_rate)),
                opt(row.sinim_year.map(|y| y.to_string())),
                notes.join(";"),
                opt(row.poverty.clone()),
                opt(row.poverty_survey.map(|s| s.code().to_owned())),
                opt(row.health_spending_pc.map(|v| format!("{v:.3}"))),
                opt(row.health_income_pc.map(|v| format!("{v:.3}"))),
                opt(row.municipal_contribution_pc.map(|v| format!("{v:.3}"))),
                opt(row.primary_care_coverage.clone()),
                opt(row.rural.clone()),
                opt(row.distance_regional_capital.clone()),
                sapu.to_owned(),
                format!("{dist_hospital:.1}"),
                opt(schooling.clone()),
            ];
            write_record(&mut panel_csv, &record);
            rows.push(row);
        }
    }

    let mut codebook_csv = csv_writer();
    write_record(
        &mut codebook_csv,
        &[
            "column",
            "label_es",
            "label_en",
            "unit",
            "unit_es",
            "source",
            "time_invariant",
            "derived",
            "notes",
        ],
    );
    for doc in COLUMNS {
        write_record(
            &mut codebook_csv,
            &[
                doc.column,
                doc.label_es,
                doc.label_en,
                doc.unit,
                doc.unit_es,
                doc.source,
                bool_text(doc.time_invariant),
                bool_text(doc.derived),
                doc.notes,
            ],
        );
    }

    let mut cut_csv = csv_writer();
    write_record(
        &mut cut_csv,
        &[
            "codigo_comuna",
            "nombre_comuna",
            "codigo_region",
            "nombre_region",
        ],
    );
    for commune in cut.values() {
        write_record(
            &mut cut_csv,
            &[
                &commune.code,
                &commune.name,
                &commune.region_code,
                &commune.region_name,
            ],
        );
    }

    let mut crosswalk_csv = csv_writer();
    write_record(
        &mut crosswalk_csv,
        &[
            "codigo_comuna_pre2018",
            "codigo_comuna_2018",
            "nombre_comuna",
        ],
    );
    for (old, new) in &crosswalk {
        write_record(&mut crosswalk_csv, &[old, new, &cut[new].name]);
    }

    exclusions.sort();
    Ok(Build {
        files: vec![
            OutputFile {
                name: PANEL_FILE,
                bytes: finish(panel_csv),
            },
            OutputFile {
                name: CODEBOOK_FILE,
                bytes: finish(codebook_csv),
            },
            OutputFile {
                name: CUT_LIST_FILE,
                bytes: finish(cut_csv),
            },
            OutputFile {
                name: CROSSWALK_FILE,
                bytes: finish(crosswalk_csv),
            },
        ],
        exclusions,
        communes: panel.len(),
        checks: check::run(raw_dir, &panel, &rows, &ine_births, &deis_births)?,
        rows,
    })
}

/// Great-circle distance in km between two (longitude, latitude) points in degrees.
///
/// # Formula
/// Haversine: d = 2 R asin √( sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) ), with φ latitudes, λ
/// longitudes in radians and R = [`EARTH_RADIUS_KM`].
pub fn great_circle_km(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (lon1, lat1) = (a[0].to_radians(), a[1].to_radians());
    let (lon2, lat2) = (b[0].to_radians(), b[1].to_radians());
    let h = ((lat2 - lat1) / 2.0).sin().powi(2)
        + lat1.cos() * lat2.cos() * ((lon2 - lon1) / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * h.sqrt().min(1.0).asin()
}

fn nearest_distance_km(centroid: [f64; 2], hospitals: &[Hospital]) -> f64 {
    hospitals
        .iter()
        .map(|h| great_circle_km(centroid, [h.lon, h.lat]))
        .fold(f64::INFINITY, f64::min)
}

fn opt(value: Option<String>) -> String {
    value.unwrap_or_default()
}

fn bool_text(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

fn csv_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new())
}

fn write_record<S: AsRef<[u8]>>(writer: &mut csv::Writer<Vec<u8>>, fields: &[S]) {
    // Writing into a Vec<u8> cannot fail.
    writer.write_record(fields).expect("writing CSV to memory");
}

fn finish(writer: csv::Writer<Vec<u8>>) -> Vec<u8> {
    writer.into_inner().expect("flushing CSV to memory")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact by geometry: one degree along a meridian or the equator is R·π/180 km, a quarter
    /// of the equator is R·π/2 km; and the distance does not depend on the direction.
    #[test]
    fn great_circle_distances_match_arc_lengths_on_the_sphere() {
        let degree = EARTH_RADIUS_KM * std::f64::consts::PI / 180.0;
        assert!((great_circle_km([-70.0, -33.0], [-70.0, -34.0]) - degree).abs() < 1e-9);
        assert!((great_circle_km([0.0, 0.0], [1.0, 0.0]) - degree).abs() < 1e-9);
        let quarter = EARTH_RADIUS_KM * std::f64::consts::FRAC_PI_2;
        assert!((great_circle_km([0.0, 0.0], [90.0, 0.0]) - quarter).abs() < 1e-9);
        let (a, b) = ([-70.6483, -33.4569], [-71.6127, -33.0472]);
        assert_eq!(great_circle_km(a, b), great_circle_km(b, a));
    }
}
