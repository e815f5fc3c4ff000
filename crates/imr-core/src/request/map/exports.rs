//! The files of a map: one value per file, naming the `imr map` option that writes it and the
//! name the Map view downloads it under, and the map's data table written once for both.

use super::{MapRequest, PreparedBoundaries, YearSlice};
use crate::escape::CsvOptions;
use imr_map::classify::Classification;
use imr_map::smoothing::Smoothing;
use imr_map::year_map::{map_csv_left_out, Measure};

/// One file of a map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MapExport {
    /// The choropleth (SVG): `imr map --out`.
    Map,
    /// The map's data per area (births, deaths, rate with its interval, smoothed rates, excess
    /// risk, value and class; CSV): `imr map --csv`.
    Data,
    /// The funnel plot (SVG): `imr map --funnel`.
    Funnel,
}

impl MapExport {
    /// Every file of a map.
    pub const ALL: [MapExport; 3] = [Self::Map, Self::Data, Self::Funnel];

    /// The `imr map` option followed by the file it writes.
    pub fn flag(self) -> &'static str {
        match self {
            Self::Map => "--out",
            Self::Data => "--csv",
            Self::Funnel => "--funnel",
        }
    }

    /// The name the Map view downloads the file of `request` under, `measure` being what is
    /// mapped: `mapa_<what>_<year>.svg` (`_lisa` before `.svg` for the LISA cluster map),
    /// `mapa_<what>_<year>.csv`, `embudo_<year>.svg`.
    pub fn file_name(self, request: &MapRequest, measure: &Measure) -> String {
        let what = match measure {
            Measure::Rate(Smoothing::None) => "tmi".to_string(),
            Measure::Rate(Smoothing::GlobalEb) => "tmi_eb".to_string(),
            Measure::Rate(Smoothing::SpatialEb) => "tmi_eb_espacial".to_string(),
            Measure::ExcessRisk => "riesgo_exceso".to_string(),
            Measure::Column(c) => c
                .chars()
                .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
                .collect(),
        };
        let year = request.year;
        match self {
            Self::Map if request.lisa => format!("mapa_{what}_{year}_lisa.svg"),
            Self::Map => format!("mapa_{what}_{year}.svg"),
            Self::Data => format!("mapa_{what}_{year}.csv"),
            Self::Funnel => format!("embudo_{year}.svg"),
        }
    }
}

impl MapRequest {
    /// The `imr map` arguments after the input that write the files `exports` of this request
    /// under the Map view's names ([`MapExport::file_name`]); the map itself always (`--out`).
    pub fn export_args(&self, measure: &Measure, exports: &[MapExport]) -> Vec<String> {
        let mut args = self.to_args(&MapExport::Map.file_name(self, measure));
        for export in exports.iter().filter(|e| **e != MapExport::Map) {
            args.extend([export.flag().to_string(), export.file_name(self, measure)]);
        }
        args
    }

    /// The map's data table ([`MapExport::Data`]): every area of the boundaries with the year's
    /// counts of `slice` and the estimates of `values` (none for the areas left out), classed by
    /// `classification`, neighbours by the request's contiguity.
    pub fn data_csv(
        &self,
        prepared: &PreparedBoundaries,
        slice: &YearSlice,
        (values, classification): (&[Option<f64>], &Classification),
        options: CsvOptions,
    ) -> String {
        map_csv_left_out(
            &prepared.layer,
            prepared.weights(self.contiguity),
            &slice.year.to_string(),
            (&slice.data, &slice.left_out),
            values,
            classification,
            options,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_named_by_measure_and_year_and_the_command_writes_them() {
        let request = MapRequest {
            year: 2023,
            ..MapRequest::default()
        };
        let measure = Measure::Rate(Smoothing::SpatialEb);
        assert_eq!(
            MapExport::Data.file_name(&request, &measure),
            "mapa_tmi_eb_espacial_2023.csv"
        );
        let lisa = MapRequest {
            lisa: true,
            ..request.clone()
        };
        assert_eq!(
            MapExport::Map.file_name(&lisa, &Measure::Column("ingreso salud".into())),
            "mapa_ingreso_salud_2023_lisa.svg"
        );
        let args = request.export_args(&measure, &[MapExport::Map, MapExport::Data]);
        let tail: Vec<&str> = args[args.len() - 4..].iter().map(String::as_str).collect();
        assert_eq!(
            tail,
            [
                "--out",
                "mapa_tmi_eb_espacial_2023.svg",
                "--csv",
                "mapa_tmi_eb_espacial_2023.csv"
            ]
        );
    }
}
