//! The files of a map: one value per file, naming the `imr map` option that writes it and the
//! name the Map view downloads it under, and writing it ([`MapExport::write`]) for both.

use super::super::RequestError;
use super::{MapRequest, PreparedBoundaries, ValidatedMap, YearSlice};
use crate::escape::CsvOptions;
use imr_map::classify::Classification;
use imr_map::focus::focused;
use imr_map::smoothing::Smoothing;
use imr_map::svg::{choropleth_svg, Colouring, MapText};
use imr_map::year_map::{map_csv_left_out, CsvYear, Measure};

/// A map as drawn, what its files are written from: the validated request, the boundaries,
/// the year's slice and the stages' results ([`ValidatedMap::colour`]), with the colouring
/// drawn (the classes', or the LISA clusters' of [`ValidatedMap::lisa_colouring`]).
#[derive(Clone, Copy)]
pub struct MapFigure<'a> {
    pub map: &'a ValidatedMap,
    pub boundaries: &'a PreparedBoundaries,
    pub slice: &'a YearSlice,
    /// The mapped value per area.
    pub values: &'a [Option<f64>],
    pub classification: &'a Classification,
    /// Fill, class and legend of each area: by class, or by LISA cluster.
    pub colouring: &'a Colouring,
    /// Title, subtitle, legend title and source lines.
    pub text: &'a MapText,
}

impl MapFigure<'_> {
    /// The funnel plot of the figure's year drawn `width` pixels wide, as the page shows it
    /// (`imr_core::Caption::width`: within 300 and 640 px); `None`: its own 640 px, the file
    /// [`MapExport::Funnel`] writes. Fails when the year's rates cannot make one.
    pub fn funnel_at(&self, width: Option<f64>) -> Result<String, RequestError> {
        (self.map).funnel_figure(self.slice, &self.boundaries.layout, self.text, width)
    }
}

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

impl MapExport {
    /// The file's text (a CSV without its provenance lines, which the caller adds for the
    /// input it read): the choropleth as coloured by `figure` (of the communes with data alone
    /// when they are a small part of the country, [`imr_map::focus::focused`]); the data table of every area of
    /// the boundaries with the year's counts and the estimates (none for the areas left out),
    /// classed, neighbours by the request's contiguity, its cells written with `csv`'s options;
    /// the funnel plot, which fails when the year's rates cannot make one.
    pub fn write(self, figure: &MapFigure<'_>, csv: CsvOptions) -> Result<String, RequestError> {
        let boundaries = figure.boundaries;
        Ok(match self {
            // Data of a few communes: a map of them alone (imr_map::focus), not of the country.
            Self::Map => match focused(
                &boundaries.layer,
                &boundaries.layout,
                figure.colouring,
                figure.text,
            ) {
                Some((layout, colouring, text)) => choropleth_svg(&layout, &colouring, &text),
                None => choropleth_svg(&boundaries.layout, figure.colouring, figure.text),
            },
            Self::Data => map_csv_left_out(
                &boundaries.layer,
                boundaries.weights(figure.map.request().contiguity),
                CsvYear {
                    label: &figure.slice.year.to_string(),
                    copy_of: figure.map.copy_of().map(|c| c.repeat_of),
                    deaths_reconstructed: &figure.slice.reconstructed,
                },
                (&figure.slice.data, &figure.slice.left_out),
                figure.values,
                figure.classification,
                csv,
            ),
            Self::Funnel => figure.funnel_at(None)?,
        })
    }
}

impl MapRequest {
    /// The `imr map` arguments after the input that write the files `exports` of this request
    /// under the Map view's names ([`MapExport::file_name`]); the map itself always (`--out`);
    /// with the CSV, `--csv-lang es` in Spanish (the Spanish page's CSV is a spreadsheet's).
    pub fn export_args(&self, measure: &Measure, exports: &[MapExport]) -> Vec<String> {
        let mut args = self.to_args(&MapExport::Map.file_name(self, measure));
        for export in exports.iter().filter(|e| **e != MapExport::Map) {
            args.extend([export.flag().to_string(), export.file_name(self, measure)]);
        }
        // the CSV in the map's language: `--csv-lang es` on the Spanish page
        if exports.contains(&MapExport::Data) {
            args.extend(crate::spreadsheet_csv::csv_lang_args(self.lang));
        }
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

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
        let spanish = MapRequest {
            lang: Lang::Es,
            ..request.clone()
        };
        let args = spanish.export_args(&measure, &[MapExport::Map, MapExport::Data]);
        assert_eq!(args[args.len() - 2..], ["--csv-lang", "es"]);
    }
}
