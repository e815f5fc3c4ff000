//! `imr map`: the choropleth of one year as the same SVG the page downloads.
//!
//! Prints a JSON summary on stdout (classes with limits and counts, areas without data, codes
//! matched and unmatched on either side, Moran's I with its permutation and analytical tests and
//! the EB Moran's I when asked, the communes flagged as implausible and those left out) and writes
//! the SVG to `--out`; `--funnel` also writes the funnel plot. Rows flagged as implausible are left
//! out of the map's estimates unless `--include-flagged` (named on stderr when left out).

use super::input::{load_panel, InputArgs};
use super::CliError;
use imr_core::map::code_match::best_code_property;
use imr_core::map::year_map::BUNDLED_CREDIT;
use imr_core::request::{
    Boundaries, ClassScheme, Contiguity, MapContext, MapRequest, RequestError, Smooth,
};
use std::io::Write;
use std::path::PathBuf;

/// The bundled boundaries (public/data/comunas.topojson), compiled into the binary so that an
/// installed `imr` (`cargo install --path crates/imr-cli`) draws the map from any directory.
const BUNDLED_TOPOJSON: &str = imr_core::data::BOUNDARIES_TOPOJSON;
/// How the bundled boundaries are named in messages.
const BUNDLED_NAME: &str = "the bundled boundaries (public/data/comunas.topojson)";

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,
    /// Language of the map's texts (title, legend, source lines): en or es
    #[arg(long, value_name = "LANG", default_value = "en")]
    pub lang: imr_core::Lang,
    /// Map this numeric column instead of the infant mortality rate
    #[arg(long, value_name = "COL")]
    pub value: Option<String>,
    /// Smoothing of the rate (needs deaths and births)
    #[arg(long, value_enum, default_value_t = Smooth::None)]
    pub smooth: Smooth,
    /// The year to map
    #[arg(long)]
    pub year: i64,
    /// Boundaries as TopoJSON or GeoJSON in WGS84 lon/lat (default: Chile's communes, public/data/comunas.topojson, built into imr)
    #[arg(long, value_name = "FILE")]
    pub geometry: Option<PathBuf>,
    /// Feature property holding the area code matched to --entity (when it matches none of the
    /// data's codes, the error names the property that does)
    #[arg(long, value_name = "PROP", default_value = "codigo_comuna")]
    pub code_property: String,
    /// Feature property holding the area name
    #[arg(long, value_name = "PROP", default_value = "nombre_comuna")]
    pub name_property: String,
    /// TopoJSON object to read (default: the only one, or `comunas`)
    #[arg(long, value_name = "NAME")]
    pub object: Option<String>,
    /// Classification
    #[arg(long, value_enum, default_value_t = ClassScheme::Quantile)]
    pub scheme: ClassScheme,
    /// Number of classes (quantile, equal, jenks)
    #[arg(long, default_value_t = 5)]
    pub classes: usize,
    /// Breaks for --scheme custom, comma-separated and increasing (e.g. 4,6,8,12)
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub breaks: Vec<f64>,
    /// Colours: ylorrd, blues, viridis, cividis, burd, puor (default ylorrd; burd for box and stddev)
    #[arg(long, value_name = "NAME")]
    pub colours: Option<String>,
    /// Compute Moran's I with this many permutations (seeded by --seed) and add it to the summary
    #[arg(long, value_name = "N")]
    pub moran: Option<usize>,
    /// Seed of the permutation test
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Colour the communes by LISA cluster (high-high, low-low, high-low, low-high, significant at
    /// 5% with --moran permutations, 999 if not given) instead of by class: the page's LISA map
    #[arg(long)]
    pub lisa: bool,
    /// Neighbours of the spatial EB rate, Moran's I and the LISA: queen (areas sharing a border
    /// or a corner, as GeoDa and libpysal by default) or rook (sharing a border)
    #[arg(long, value_name = "queen|rook", default_value = "queen", value_parser = parse_contiguity)]
    pub contiguity: Contiguity,
    /// Keep the rows flagged as implausible (e.g. a rate of 1000 per 1,000 on 8 births) in the
    /// map: by default they are left out of the smoothing, the classes, Moran's I and the LISA
    /// and the funnel plot, drawn as "flagged, left out" and listed in the summary
    /// (`flagged_left_out`)
    #[arg(long)]
    pub include_flagged: bool,
    /// Also write the funnel plot (rate against births, exact Poisson limits) to this SVG file
    #[arg(long, value_name = "FILE")]
    pub funnel: Option<PathBuf>,
    /// Also write the map's data (births, deaths, rate with 95% interval, smoothed rates, excess
    /// risk, value and class per commune; then the year a copied year repeats and whether the
    /// deaths were reconstructed from a published rate) to this CSV file
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Where to write the map (SVG; of the communes with data alone, on a page of their own, when
    /// they are fewer than half of the boundaries' areas and lie in under half of the country's map)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

impl From<&Args> for MapRequest {
    /// The request of the parsed arguments (the input and where the outputs go aside).
    fn from(args: &Args) -> MapRequest {
        MapRequest {
            year: args.year,
            lang: args.lang,
            value: args.value.clone(),
            smooth: args.smooth,
            geometry: args.geometry.as_ref().map(|p| p.display().to_string()),
            code_property: args.code_property.clone(),
            name_property: args.name_property.clone(),
            object: args.object.clone(),
            scheme: args.scheme,
            classes: args.classes,
            breaks: args.breaks.clone(),
            colours: args.colours.clone(),
            moran: args.moran,
            seed: args.seed,
            lisa: args.lisa,
            contiguity: args.contiguity,
            include_flagged: args.include_flagged,
        }
    }
}

/// `queen` or `rook`.
fn parse_contiguity(text: &str) -> Result<Contiguity, String> {
    Contiguity::from_name(text).ok_or_else(|| format!("{text:?} is neither queen nor rook"))
}

/// A request error in the words of the command line: the flag of the option at fault.
fn cli_error(err: RequestError) -> CliError {
    match err {
        RequestError::BreaksWithoutCustom => {
            CliError::Usage("--breaks is only used with --scheme custom".into())
        }
        RequestError::CustomWithoutBreaks => {
            CliError::Usage("--scheme custom needs --breaks, e.g. --breaks 4,6,8".into())
        }
        RequestError::UnknownColours(name) => CliError::Usage(format!(
            "unknown --colours {name:?}; use ylorrd, blues, viridis, cividis, burd or puor"
        )),
        RequestError::SmoothWithValue => CliError::Usage(
            "--smooth applies to the rate; it cannot be combined with --value".into(),
        ),
        RequestError::MapNeedsCounts => CliError::Input(
            "the rate needs births and deaths (or a rate) columns; use --value COL to map \
             another column"
                .into(),
        ),
        other => super::request_error(other),
    }
}

/// "the property `code` holds 22 of the data's 22 codes: use --code-property code", when a
/// property of the boundary features other than --code-property matches data codes (the page
/// chooses that property itself: `imr_map::code_match`).
fn code_property_hint(args: &Args, data_codes: &[&str], text: &str) -> Option<String> {
    let best = best_code_property(text, args.object.as_deref(), data_codes)?;
    (best.property != args.code_property).then(|| {
        format!(
            "the property `{p}` holds {} of the data's {} codes: use --code-property {p}",
            best.matched,
            best.data_codes,
            p = best.property
        )
    })
}

/// The boundaries' text, their name in messages and how they are credited on the map.
fn geometry(args: &Args) -> Result<Boundaries, CliError> {
    let Some(path) = &args.geometry else {
        return Ok(Boundaries {
            text: BUNDLED_TOPOJSON.to_string(),
            name: BUNDLED_NAME.to_string(),
            credit: BUNDLED_CREDIT.to_string(),
        });
    };
    let credit = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::Input(format!(
            "{}: cannot read the boundaries: {e}",
            path.display()
        ))
    })?;
    Ok(Boundaries {
        text,
        name: path.display().to_string(),
        credit,
    })
}

pub fn run(args: Args) -> Result<(), CliError> {
    let panel = load_panel(&args.input)?;
    let validated = MapRequest::from(&args)
        .validate(&panel)
        .map_err(cli_error)?;
    let boundaries = geometry(&args)?;
    let today = super::input::today();
    let source = args.input.source();
    let result = validated
        .run(
            &boundaries,
            MapContext {
                source: &source,
                today: &today,
                csv: super::csv_options(),
                with_funnel: args.funnel.is_some(),
            },
        )
        .map_err(|err| {
            // Boundaries that do not fit the data: name the property that holds the codes.
            let hint = matches!(err, RequestError::Boundaries { .. })
                .then(|| code_property_hint(&args, &panel.entities(), &boundaries.text))
                .flatten();
            match (cli_error(err), hint) {
                (CliError::Input(message), Some(hint)) => {
                    CliError::Input(format!("{message}; {hint}"))
                }
                (other, _) => other,
            }
        })?;
    std::fs::write(&args.out, &result.svg)?;
    if let Some(path) = &args.csv {
        std::fs::write(path, args.input.with_csv_header(&result.csv))?;
    }
    if let (Some(path), Some(svg)) = (&args.funnel, &result.funnel_svg) {
        std::fs::write(path, svg)?;
    }
    // The summary with the output's path and every row of the input (used or excluded with its
    // file, line and reason) beside its keys; serde_json's object keeps all of them sorted.
    let mut document = serde_json::to_value(&result.summary).map_err(std::io::Error::from)?;
    document["out"] = serde_json::Value::String(args.out.display().to_string());
    document["input"] = serde_json::to_value(super::rates::InputSummary::new(&panel))
        .map_err(std::io::Error::from)?;
    std::io::stdout()
        .lock()
        .write_all(super::json_text(&document)?.as_bytes())?;
    let left_out = &result.summary.flagged_left_out;
    if !left_out.is_empty() {
        eprintln!(
            "imr map: {} row(s) flagged as implausible left out of the map's estimates (drawn as \
             flagged; --include-flagged keeps them): {}",
            left_out.len(),
            left_out.join(", ")
        );
    }
    if !result.unmatched_data.is_empty() {
        let matched = result.summary.matched_data;
        eprintln!(
            "imr map: {matched} of {} data codes are in the boundaries; not drawn, with no \
             boundary: {}",
            matched + result.unmatched_data.len(),
            result.unmatched_data.join(", ")
        );
    }
    Ok(())
}
