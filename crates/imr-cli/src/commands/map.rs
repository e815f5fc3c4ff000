//! `imr map`: the choropleth of one year as the same SVG the page downloads.
//!
//! Prints a JSON summary on stdout (classes with limits and counts, areas without data, codes
//! unmatched on either side) and writes the SVG to `--out`; `--funnel` also writes the funnel plot.

use super::input::{load_panel, InputArgs};
use super::CliError;
use imr_core::map::autocorrelation::{lisa, moran, LisaCluster};
use imr_core::map::classify::Method;
use imr_core::map::colour::Scheme;
use imr_core::map::funnel::funnel;
use imr_core::map::geometry::{GeoLayer, PropertyKeys};
use imr_core::map::layout::{LayoutSpec, MapLayout};
use imr_core::map::smoothing::Smoothing;
use imr_core::map::svg::{choropleth_svg, funnel_svg, FunnelText};
use imr_core::map::weights::Weights;
use imr_core::map::year_map::{
    colour_values_flagged, default_scheme, map_csv_with, Measure, YearData, BUNDLED_CREDIT,
};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

/// The bundled boundaries (public/data/comunas.topojson), compiled into the binary so that an
/// installed `imr` (`cargo install --path crates/imr-cli`) draws the map from any directory.
const BUNDLED_TOPOJSON: &str = include_str!("../../../../public/data/comunas.topojson");
/// How the bundled boundaries are named in messages.
const BUNDLED_NAME: &str = "the bundled boundaries (public/data/comunas.topojson)";

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Smooth {
    /// Raw rate per 1,000
    #[default]
    None,
    /// Global empirical Bayes (Marshall 1991)
    Eb,
    /// Spatial empirical Bayes (neighbours sharing a border, and the commune itself)
    SpatialEb,
    /// Excess risk: observed / expected deaths at the pooled rate of the year
    ExcessRisk,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClassScheme {
    /// Classes with equal counts
    #[default]
    Quantile,
    /// Classes of equal width
    Equal,
    /// Natural breaks (Jenks, exact Fisher optimisation)
    Jenks,
    /// Box map: outliers beyond 1.5 interquartile ranges, quartiles
    Box,
    /// Standard deviations from the mean
    Stddev,
    /// Your own breaks (--breaks)
    Custom,
}

/// Permutations of the LISA test when --moran does not say (the page uses 999 too).
const LISA_PERMUTATIONS: usize = 999;
/// Significance level of the LISA clusters (the page's too).
const LISA_ALPHA: f64 = 0.05;

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
    /// Feature property holding the area code matched to --entity
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
    /// Compute the class breaks with the plausibility-flagged values too (by default they are
    /// left out of the breaks, still drawn in the class their value falls in and outlined)
    #[arg(long)]
    pub include_flagged: bool,
    /// Also write the funnel plot (rate against births, exact Poisson limits) to this SVG file
    #[arg(long, value_name = "FILE")]
    pub funnel: Option<PathBuf>,
    /// Also write the map's data (births, deaths, rate with 95% interval, smoothed rates, excess
    /// risk, value and class per commune) to this CSV file
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Where to write the map
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

fn method(args: &Args) -> Result<Method, CliError> {
    if args.scheme != ClassScheme::Custom && !args.breaks.is_empty() {
        return Err(CliError::Usage(
            "--breaks is only used with --scheme custom".into(),
        ));
    }
    Ok(match args.scheme {
        ClassScheme::Quantile => Method::Quantile {
            classes: args.classes,
        },
        ClassScheme::Equal => Method::EqualInterval {
            classes: args.classes,
        },
        ClassScheme::Jenks => Method::NaturalBreaks {
            classes: args.classes,
        },
        ClassScheme::Box => Method::BoxMap { hinge: 1.5 },
        ClassScheme::Stddev => Method::StdDev,
        ClassScheme::Custom if args.breaks.is_empty() => {
            return Err(CliError::Usage(
                "--scheme custom needs --breaks, e.g. --breaks 4,6,8".into(),
            ))
        }
        ClassScheme::Custom => Method::Custom {
            breaks: args.breaks.clone(),
        },
    })
}

/// The boundaries' text, their name in messages and how they are credited on the map.
fn geometry(args: &Args) -> Result<(String, String, String), CliError> {
    let Some(path) = &args.geometry else {
        return Ok((
            BUNDLED_TOPOJSON.to_string(),
            BUNDLED_NAME.to_string(),
            BUNDLED_CREDIT.to_string(),
        ));
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
    Ok((text, path.display().to_string(), credit))
}

pub fn run(args: Args) -> Result<(), CliError> {
    let method = method(&args)?;
    let value_column = args.value.as_deref().filter(|v| *v != "rate");
    if value_column.is_some() && args.smooth != Smooth::None {
        return Err(CliError::Usage(
            "--smooth applies to the rate; it cannot be combined with --value".into(),
        ));
    }
    let measure = match (value_column, args.smooth) {
        (Some(name), _) => Measure::Column(name.to_string()),
        (None, Smooth::None) => Measure::Rate(Smoothing::None),
        (None, Smooth::Eb) => Measure::Rate(Smoothing::GlobalEb),
        (None, Smooth::SpatialEb) => Measure::Rate(Smoothing::SpatialEb),
        (None, Smooth::ExcessRisk) => Measure::ExcessRisk,
    };
    let scheme = match &args.colours {
        Some(name) => Scheme::from_name(name).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown --colours {name:?}; use ylorrd, blues, viridis, cividis, burd or puor"
            ))
        })?,
        None => default_scheme(&method),
    };

    let panel = load_panel(&args.input)?;
    let (text, geometry_name, geometry_credit) = geometry(&args)?;
    let keys = PropertyKeys {
        code: args.code_property.clone(),
        name: Some(args.name_property.clone()),
        ..PropertyKeys::default()
    };
    let layer = GeoLayer::from_str(&text, args.object.as_deref(), &keys)
        .map_err(|e| CliError::Input(format!("{geometry_name}: {e}")))?;

    // Rows of the year, one per entity.
    let year_rows: Vec<usize> = (0..panel.rows.len())
        .filter(|&i| panel.rows[i].time == args.year)
        .collect();
    if year_rows.is_empty() {
        let years: Vec<String> = panel.times().iter().map(|t| t.to_string()).collect();
        return Err(CliError::Input(format!(
            "no row for year {}; the data has: {}",
            args.year,
            years.join(", ")
        )));
    }
    let codes: Vec<&str> = year_rows
        .iter()
        .map(|&i| panel.rows[i].entity.as_str())
        .collect();
    let n_areas = layer.areas.len();
    let column = match value_column {
        Some(name) => Some(panel.numeric_column(name).ok_or_else(|| {
            CliError::Usage(format!(
                "--value {name:?} is not a numeric column; available: {}",
                panel.numeric_variables().join(", ")
            ))
        })?),
        None => None,
    };
    let deaths: Vec<Option<f64>> = year_rows.iter().map(|&i| panel.rows[i].deaths).collect();
    let births: Vec<Option<f64>> = year_rows.iter().map(|&i| panel.rows[i].births).collect();
    let column_of_year: Option<Vec<Option<f64>>> = column
        .as_ref()
        .map(|col| year_rows.iter().map(|&i| col[i]).collect());
    let data = YearData::from_rows(&layer, &codes, &deaths, &births, column_of_year.as_deref());
    let matching = &data.matching;

    let weights =
        Weights::rook(&layer).map_err(|e| CliError::Input(format!("{geometry_name}: {e}")))?;
    if measure.needs_counts() && !(panel.has_births && (panel.has_deaths || panel.deaths_derived)) {
        return Err(CliError::Input(
            "the rate needs births and deaths (or a rate) columns; use --value COL to map another column".into(),
        ));
    }
    let values = measure
        .values(&data, &weights)
        .map_err(|e| CliError::Input(format!("year {}: {e}", args.year)))?;
    let decimals = measure.decimals();
    // Plausibility flags of the year's rows, per area: left out of the class breaks by default.
    let plausibility = imr_core::plausibility::Plausibility::check(&panel);
    let mut flagged = vec![false; n_areas];
    for (k, area) in data.matching.area_of_entity.iter().enumerate() {
        if let Some(area) = *area {
            flagged[area] = plausibility.is_flagged(codes[k], args.year);
        }
    }
    let (classification, mut colouring) = colour_values_flagged(
        &values,
        &flagged,
        args.include_flagged,
        &method,
        scheme,
        decimals,
        args.lang,
    )
    .map_err(|e| CliError::Input(format!("year {}: {e}", args.year)))?;
    let layout = MapLayout::build(&layer, &LayoutSpec::auto(&layer))
        .map_err(|e| CliError::Input(format!("{geometry_name}: {e}")))?;
    let year = args.year.to_string();
    colouring.method_note = imr_core::map::svg::method_note(
        &classification.method,
        classification.classes.len(),
        args.lang,
    );
    let today = super::input::today();
    let map_text = measure.text_in(
        args.lang,
        &year,
        &args.input.source(),
        &geometry_credit,
        Some(&today),
    );
    // The LISA cluster map colours by cluster instead of class (the page's "LISA cluster map").
    let (colouring, lisa_summary) = if args.lisa {
        let l = lisa(
            &values,
            &weights,
            args.moran.unwrap_or(LISA_PERMUTATIONS),
            args.seed,
            LISA_ALPHA,
        )
        .map_err(|e| CliError::Input(format!("LISA: {e}")))?;
        let count = |c: LisaCluster| l.clusters.iter().filter(|&&k| k == c).count();
        let summary = json!({
            "alpha": l.alpha, "permutations": l.permutations, "seed": l.seed,
            "high_high": count(LisaCluster::HighHigh), "low_low": count(LisaCluster::LowLow),
            "high_low": count(LisaCluster::HighLow), "low_high": count(LisaCluster::LowHigh),
            "not_significant": count(LisaCluster::NotSignificant),
            "neighbourless": count(LisaCluster::Neighbourless), "no_data": count(LisaCluster::NoData),
        });
        (
            imr_core::map::svg::Colouring::from_lisa_in(
                &values,
                &l.clusters,
                LISA_ALPHA,
                args.lang,
            ),
            summary,
        )
    } else {
        (colouring, serde_json::Value::Null)
    };
    let svg = choropleth_svg(&layout, &colouring, &map_text);
    std::fs::write(&args.out, svg)?;
    if let Some(path) = &args.csv {
        std::fs::write(
            path,
            args.input.with_csv_header(&map_csv_with(
                &layer,
                &weights,
                &year,
                &data,
                &values,
                &classification,
                super::csv_options(),
            )),
        )?;
    }

    if let Some(path) = &args.funnel {
        let f = funnel(&data.deaths, &data.births, 60)
            .map_err(|e| CliError::Input(format!("funnel plot: {e}")))?;
        let svg = funnel_svg(
            &f,
            &layout.codes,
            &layout.names,
            &FunnelText {
                title: args
                    .lang
                    .pick(
                        "Mortalidad infantil según nacidos vivos",
                        "Infant mortality against births",
                    )
                    .into(),
                year: year.clone(),
                source: map_text.source.clone(),
                lang: args.lang,
                metadata: map_text.metadata.clone(),
            },
        );
        std::fs::write(path, svg)?;
    }

    let moran_summary = match args.moran {
        Some(permutations) => {
            let m = moran(&values, &weights, permutations, args.seed)
                .map_err(|e| CliError::Input(format!("Moran's I: {e}")))?;
            json!({"i": m.i, "expected": m.expected, "p_value": m.p_value, "z": m.z,
                   "permutations": m.permutations, "seed": m.seed, "areas": m.n})
        }
        None => serde_json::Value::Null,
    };
    let no_data: Vec<&str> = (0..n_areas)
        .filter(|&a| classification.class_of[a].is_none())
        .map(|a| layer.areas[a].code.as_str())
        .collect();
    let summary = json!({
        "year": args.year,
        "value": value_column.unwrap_or("rate"),
        "smoothing": clap::ValueEnum::to_possible_value(&args.smooth).map(|v| v.get_name().to_string()),
        "method": method.name(),
        "breaks": classification.breaks,
        "classes": classification.classes.iter().map(|c| json!({
            "lower": finite(c.lower), "upper": finite(c.upper), "count": c.count, "label": c.label(decimals)
        })).collect::<Vec<_>>(),
        "areas": n_areas,
        "flagged": (0..n_areas).filter(|&a| flagged[a]).map(|a| layer.areas[a].code.as_str()).collect::<Vec<_>>(),
        "flagged_in_breaks": args.include_flagged,
        "no_data": no_data,
        "unmatched_data": matching.unmatched_data,
        "unmatched_geometry": matching.unmatched_geometry,
        "not_drawn": layout.not_drawn(),
        "moran": moran_summary,
        "lisa": lisa_summary,
        "out": args.out.display().to_string(),
    });
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &summary).map_err(std::io::Error::from)?;
    writeln!(out)?;
    if !matching.unmatched_data.is_empty() {
        eprintln!(
            "imr map: {} data codes have no boundary and are not drawn: {}",
            matching.unmatched_data.len(),
            matching.unmatched_data_listed(args.lang).join(", ")
        );
    }
    Ok(())
}

/// JSON has no infinity: open class limits are null.
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}
